#include "tiles/core_gate.h"

#include <algorithm>

namespace tiles {

core_gate::core_gate(sc_core::sc_module_name name, unsigned cores)
    : sc_module(name), events_(cores) {
    SC_HAS_PROCESS(core_gate);
    SC_METHOD(release);
    sensitive << kick_;
    dont_initialize();
}

void core_gate::pass(unsigned key) {
    // The last thing left at this time already: nothing can act after it in this instant.
    if (waiting_.empty() && !sc_core::sc_pending_activity_at_current_time()) return;
    waiting_.push_back(key);
    if (!armed_) {
        armed_ = true;
        kick_.notify(sc_core::SC_ZERO_TIME);
    }
    sc_core::wait(events_[key]);
}

// Runs in a delta cycle of its own; while other processes of this instant are runnable or have
// notified, it waits another delta. Then the waiting cores go, in key order: immediate
// notifications make them runnable in that order, and they run before any delta the first of
// them causes.
void core_gate::release() {
    if (sc_core::sc_pending_activity_at_current_time()) {
        kick_.notify(sc_core::SC_ZERO_TIME);
        return;
    }
    armed_ = false;
    std::sort(waiting_.begin(), waiting_.end());
    for (unsigned key : waiting_) events_[key].notify();
    waiting_.clear();
}

}  // namespace tiles
