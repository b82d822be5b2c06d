// Identifies which core issued a bus transaction, and carries per-access side channels between a core
// and the tile devices that need them (console line buffers, exit and mark registers, core id).
#pragma once
#include <cstdint>
#include <tlm>

#include "tiles/tie_gate.h"

namespace tiles {

struct initiator_id : tlm::tlm_extension<initiator_id> {
    unsigned core = 0;            // index of the core in its tile (= mhartid)
    uint64_t core_cycles = 0;     // the core's cycle count when it issued the access
    bool halt_requested = false;  // set by a device: the core must stop after this access
    tie_gate *gate = nullptr;     // the tie rule (null: none)
    uint64_t gate_key = 0;        // the core's place in it

    tlm::tlm_extension_base *clone() const override { return new initiator_id(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override {
        *this = static_cast<const initiator_id &>(other);
    }
};

// Returns the core extension of a payload, or nullptr when another master (not a core) issued it.
inline initiator_id *find_initiator(tlm::tlm_generic_payload &trans) {
    initiator_id *ext = nullptr;
    trans.get_extension(ext);
    return ext;
}

// For a target that acts at the initiator's time: waits out the annotated delay inside
// b_transport (it is then zero) and, if a core issued the access, lets the rest of the instant go
// first (tie_gate.h), as when the core synchronizes itself.
inline void sync_to_initiator(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    if (delay == sc_core::SC_ZERO_TIME) return;
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    if (initiator_id *id = find_initiator(trans); id && id->gate) id->gate->pass(id->gate_key);
}

}  // namespace tiles
