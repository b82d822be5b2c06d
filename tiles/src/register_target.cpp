#include "tiles/register_target.h"

#include <cstring>

namespace tiles {

register_target::register_target(sc_core::sc_module_name name, uint32_t size,
                                 unsigned access_latency_cycles, sc_core::sc_time clock_period)
    : sc_module(name),
      socket("socket"),
      size_(size),
      latency_(clock_period * access_latency_cycles) {
    socket.register_b_transport(this, &register_target::b_transport);
    socket.register_transport_dbg(this, &register_target::transport_dbg);
}

void register_target::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    ++accesses_;
    const uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length();
    const unsigned aligned = addr & ~uint64_t(3);
    if (trans.get_byte_enable_ptr() || trans.get_streaming_width() < len || !accepts_width(len) ||
        addr + len > size_ || (addr & (len - 1)) != 0 ||
        (aligned != ((addr + len - 1) & ~uint64_t(3)))) {
        ++errors_;
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    const unsigned shift = 8 * (addr & 3);
    bool ok;
    uint32_t value = 0;
    if (trans.is_read()) {
        ok = read_register(aligned, value, trans, delay);
        value >>= shift;
        std::memcpy(trans.get_data_ptr(), &value, len);
    } else if (trans.is_write()) {
        std::memcpy(&value, trans.get_data_ptr(), len);
        value <<= shift;
        ok = write_register(aligned, value, trans, delay);
    } else {
        ok = true;  // TLM_IGNORE_COMMAND
    }
    delay += latency_;
    if (!ok) ++errors_;
    trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// Debug reads (debuggers, tests) see register values without side effects on time.
unsigned register_target::transport_dbg(tlm::tlm_generic_payload &trans) {
    if (!trans.is_read() || trans.get_data_length() != 4 || (trans.get_address() & 3) != 0 ||
        trans.get_address() + 4 > size_)
        return 0;
    uint32_t value = 0;
    if (!read_register(uint32_t(trans.get_address()), value, trans, sc_core::SC_ZERO_TIME))
        return 0;
    std::memcpy(trans.get_data_ptr(), &value, 4);
    return 4;
}

}  // namespace tiles
