// TLM extension for an atomic read-modify-write of one aligned 32-bit word, executed by the memory
// target inside a single b_transport (no other access can come in between). Used by the NAMP
// (network adapter) to reserve buffer elements (tagged-index compare-and-swap) and to add credits.
// The payload is a 4-byte TLM_WRITE_COMMAND whose data pointer holds the operand; the target
// writes back nothing into the data buffer but fills `old_value` and `success`, sets `performed`,
// charges read + write latency, and breaks the LR/SC reservations of the word like any bus write.
// A target that does not know the extension performs a plain write: initiators check `performed`.
// docs/memory-map.md ("Atomic bus accesses") documents it.
#pragma once
#include <cstdint>
#include <tlm>

namespace tiles {

struct atomic_ext : tlm::tlm_extension<atomic_ext> {
    enum class op { cas, fetch_add };
    op kind = op::fetch_add;
    uint32_t compare = 0;    // cas: expected old value
    uint32_t old_value = 0;  // out: the word before the operation
    bool success = false;    // out: cas matched (fetch_add: always true)
    bool performed = false;  // out: the target executed the operation atomically

    tlm::tlm_extension_base *clone() const override { return new atomic_ext(*this); }
    void copy_from(const tlm::tlm_extension_base &e) override {
        *this = static_cast<const atomic_ext &>(e);
    }
};

}  // namespace tiles
