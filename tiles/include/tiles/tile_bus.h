// The tile interconnect: routes transactions of any number of masters (cores, the network adapter's
// ports) to the device mapped at the address. Unmapped addresses answer TLM_ADDRESS_ERROR_RESPONSE,
// which a core turns into an access-fault trap. DMI requests and invalidations are forwarded with
// the address ranges translated between device offsets and physical addresses.
//
// Arbitration (docs/architecture.md, "Tile bus"): one transaction at a time, first come first
// served in simulated time. A transaction of n 32-bit words occupies the bus for n * word_cycles
// (at least one cycle) from the time it is granted: the first free gap at or after its arrival
// time (the bus keeps a calendar of granted intervals: a burst's grant may lie ahead of a later
// booking). A core's access is booked at its own time, after the tie rule. The wait is added to
// the transaction's annotated delay, and a burst adds (n - 1) * word_cycles to the device's
// latency. Cores reach the SRAM through their own port (DMI) and are not arbitrated there; their
// device accesses are.
#pragma once
#include <cstdint>
#include <utility>
#include <string>
#include <vector>
#include <boost/container/small_vector.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

namespace tiles {

class tile_bus : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<tile_bus> masters;
    tlm_utils::multi_passthrough_initiator_socket<tile_bus> devices;

    tile_bus(sc_core::sc_module_name name, unsigned word_cycles, sc_core::sc_time clock_period);

    // Maps the next bound device (in binding order of `devices`) at [base, base + size).
    // Overlapping ranges are a configuration error (SC_REPORT_FATAL). `lookahead`: the device
    // may take a core's access at SystemC's time when the core is at most its lookahead ahead
    // (initiator_id::lookahead; docs/timing.md "The lookahead mode").
    void map_device(uint32_t base, uint32_t size, const std::string &label, bool lookahead = false);

    uint64_t transactions() const { return transactions_; }
    uint64_t decode_errors() const { return decode_errors_; }
    uint64_t busy_cycles() const { return busy_cycles_; }  // cycles the bus was occupied
    uint64_t words() const { return words_; }              // 32-bit words carried (energy model)
    uint64_t wait_cycles() const { return wait_cycles_; }  // cycles transactions waited for it

private:
    struct range {
        uint64_t base, size;
        bool lookahead;
    };
    int decode(uint64_t addr, unsigned len) const;
    void b_transport(int master, tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    bool get_direct_mem_ptr(int master, tlm::tlm_generic_payload &trans, tlm::tlm_dmi &dmi);
    unsigned transport_dbg(int master, tlm::tlm_generic_payload &trans);
    void invalidate_direct_mem_ptr(int device, sc_dt::uint64 start, sc_dt::uint64 end);

    void arbitrate(const tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);

    // What every transaction reads, inline in the bus rather than in blocks of their own: on a
    // large mesh each block was one more cache miss per access (docs/benchmarks.md "Large
    // meshes"). The map has a range per device (a tile maps seven: SRAM, CLINT, console,
    // simulation control, tile information, the adapter's registers and its RMA window); the
    // calendar rarely holds more than a few intervals (beyond, they go to the heap).
    boost::container::small_vector<range, 8> map_;
    // [start, end), sorted
    boost::container::small_vector<std::pair<sc_core::sc_time, sc_core::sc_time>, 4> granted_;
    uint64_t transactions_ = 0;
    uint64_t decode_errors_ = 0;
    uint64_t busy_cycles_ = 0, wait_cycles_ = 0, words_ = 0;
    unsigned word_cycles_;
    sc_core::sc_time period_;
    std::vector<std::string> labels_;  // of map_'s ranges, for messages
};

}  // namespace tiles
