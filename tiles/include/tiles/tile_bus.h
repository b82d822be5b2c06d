// The tile interconnect: routes transactions of any number of masters (cores, the network adapter)
// to the device mapped at the address. Unmapped addresses answer TLM_ADDRESS_ERROR_RESPONSE, which a
// core turns into an access-fault trap. DMI requests and invalidations are forwarded with the
// address ranges translated between device offsets and physical addresses.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

namespace tiles {

class tile_bus : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<tile_bus> masters;
    tlm_utils::multi_passthrough_initiator_socket<tile_bus> devices;

    explicit tile_bus(sc_core::sc_module_name name);

    // Maps the next bound device (in binding order of `devices`) at [base, base + size).
    // Overlapping ranges are a configuration error (SC_REPORT_FATAL).
    void map_device(uint32_t base, uint32_t size, const std::string &label);

    uint64_t transactions() const { return transactions_; }
    uint64_t decode_errors() const { return decode_errors_; }

private:
    struct range { uint64_t base, size; std::string label; };
    int decode(uint64_t addr, unsigned len) const;
    void b_transport(int master, tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    bool get_direct_mem_ptr(int master, tlm::tlm_generic_payload &trans, tlm::tlm_dmi &dmi);
    unsigned transport_dbg(int master, tlm::tlm_generic_payload &trans);
    void invalidate_direct_mem_ptr(int device, sc_dt::uint64 start, sc_dt::uint64 end);

    std::vector<range> map_;
    uint64_t transactions_ = 0;
    uint64_t decode_errors_ = 0;
};

}  // namespace tiles
