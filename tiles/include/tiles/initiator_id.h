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
    // The lookahead mode (docs/timing.md "The lookahead mode"): how far ahead of SystemC's time
    // the core may be for a device that allows it to take the access at once (zero: never), and
    // whether the bus let this access be taken so (then no target waits for the core's time).
    sc_core::sc_time lookahead = sc_core::SC_ZERO_TIME;
    bool early = false;

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
// An access the bus let be taken early (lookahead mode) is acted on at SystemC's time: no wait.
inline void sync_to_initiator(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    if (delay == sc_core::SC_ZERO_TIME) return;
    initiator_id *id = find_initiator(trans);
    if (id && id->early) return;
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    if (id && id->gate) id->gate->pass(id->gate_key);
}

}  // namespace tiles
