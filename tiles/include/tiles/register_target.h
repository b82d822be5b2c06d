// Common base for small memory-mapped register devices: decodes 32-bit aligned register accesses
// from a TLM target socket and turns everything else into the right TLM error response.
#pragma once
#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace tiles {

class register_target : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<register_target> socket;

    register_target(sc_core::sc_module_name name, uint32_t size, unsigned access_latency_cycles,
                    sc_core::sc_time clock_period);

protected:
    // Register handlers: return false for an unpopulated register (the access becomes a bus error).
    // offset is relative to the device base and 4-byte aligned; delay is the initiator's local time.
    virtual bool read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &trans,
                               const sc_core::sc_time &delay) = 0;
    virtual bool write_register(uint32_t offset, uint32_t value, tlm::tlm_generic_payload &trans,
                                const sc_core::sc_time &delay) = 0;
    // Devices with byte registers (the console) accept narrower writes by overriding this.
    virtual bool accepts_width(unsigned len) const { return len == 4; }

    uint64_t accesses_ = 0;
    uint64_t errors_ = 0;

private:
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &trans);

    uint32_t size_;
    sc_core::sc_time latency_;
};

}  // namespace tiles
