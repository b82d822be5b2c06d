// Bus-master port: one TLM transaction per access, then a wait for its annotated delay.
#include "namp/bus_port.h"

#include "tiles/atomic_ext.h"

namespace namp {

bus_port::bus_port(sc_core::sc_module_name name) : sc_module(name), socket("socket") {}

tlm::tlm_generic_payload &bus_port::take_payload(tlm::tlm_command cmd, uint32_t addr, uint8_t *data,
                                                 uint32_t len) {
    if (free_.empty()) {
        payloads_.push_back(std::make_unique<tlm::tlm_generic_payload>());
        free_.push_back(payloads_.back().get());
    }
    tlm::tlm_generic_payload &t = *free_.back();
    free_.pop_back();
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_byte_enable_ptr(nullptr);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    return t;
}

bool bus_port::transport(tlm::tlm_command cmd, uint32_t addr, uint8_t *data, uint32_t len,
                         sc_core::sc_time *owed) {
    ++accesses_;
    wait_turn();
    tlm::tlm_generic_payload &t = take_payload(cmd, addr, data, len);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, delay);
    if (owed)
        *owed += delay;
    else
        sc_core::wait(delay);
    const bool ok = t.is_response_ok();
    give_payload(t);
    return ok;
}

bool bus_port::read(uint32_t addr, void *data, uint32_t len) {
    return transport(tlm::TLM_READ_COMMAND, addr, static_cast<uint8_t *>(data), len);
}

bool bus_port::read(uint32_t addr, void *data, uint32_t len, sc_core::sc_time &owed) {
    return transport(tlm::TLM_READ_COMMAND, addr, static_cast<uint8_t *>(data), len, &owed);
}

bool bus_port::write(uint32_t addr, const void *data, uint32_t len) {
    // TLM payloads carry a non-const pointer; a write does not modify the data.
    return transport(tlm::TLM_WRITE_COMMAND, addr,
                     const_cast<uint8_t *>(static_cast<const uint8_t *>(data)), len);
}

bool bus_port::rmw(uint32_t addr, bool cas, uint32_t operand, uint32_t compare, bool atomic,
                   uint32_t &old, bool &success) {
    ++atomics_;
    if (!atomic) {
        if (!read_word(addr, old)) return false;
        success = !cas || old == compare;
        if (!success) return true;
        return write_word(addr, cas ? operand : old + operand);
    }
    ++accesses_;
    wait_turn();
    tiles::atomic_ext ext;
    ext.kind = cas ? tiles::atomic_ext::op::cas : tiles::atomic_ext::op::fetch_add;
    ext.compare = compare;
    tlm::tlm_generic_payload &t =
        take_payload(tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<uint8_t *>(&operand), 4);
    t.set_extension(&ext);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, delay);
    t.clear_extension(&ext);
    sc_core::wait(delay);
    const bool ok = t.is_response_ok() && ext.performed;
    give_payload(t);
    if (!ok) return false;
    old = ext.old_value;
    success = ext.success;
    return true;
}

}  // namespace namp
