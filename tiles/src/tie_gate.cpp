#include "tiles/tie_gate.h"

#include <algorithm>
#include <cstring>

namespace tiles {

tie_gate::tie_gate(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(tie_gate);
    SC_METHOD(release);
    sensitive << kick_;
    dont_initialize();
}

void tie_gate::pass(uint64_t key) {
    // The last thing left at this time already: nothing can act after it in this instant.
    if (waiting_.empty() && !sc_core::sc_pending_activity_at_current_time()) return;
    if (free_.empty()) {
        events_.push_back(std::make_unique<sc_core::sc_event>());
        free_.push_back(events_.back().get());
    }
    sc_core::sc_event *ev = free_.back();
    free_.pop_back();
    waiting_.push_back({key, sc_core::sc_get_current_process_handle().name(), ev});
    if (!armed_) {
        armed_ = true;
        kick_.notify(sc_core::SC_ZERO_TIME);
    }
    sc_core::wait(*ev);
    free_.push_back(ev);
}

// Runs in a delta cycle of its own; while other processes of this instant are runnable or have
// notified, it waits another delta. Then the waiting threads of the lowest class go, in key
// order (immediate notifications make them runnable in that order, before any delta the first
// of them causes); the next class waits until what they caused is done.
void tie_gate::release() {
    if (sc_core::sc_pending_activity_at_current_time()) {
        kick_.notify(sc_core::SC_ZERO_TIME);
        return;
    }
    // Threads that share a key (two FSMs of one adapter component on its bus port) go in the
    // order of their names, which the elaboration fixes.
    std::sort(waiting_.begin(), waiting_.end(), [](const waiter &a, const waiter &b) {
        return a.key != b.key ? a.key < b.key : std::strcmp(a.process, b.process) < 0;
    });
    const uint64_t cls = waiting_.front().key & ~(core - 1);
    size_t n = 0;
    while (n < waiting_.size() && (waiting_[n].key & ~(core - 1)) == cls)
        waiting_[n++].event->notify();
    waiting_.erase(waiting_.begin(), waiting_.begin() + long(n));
    if (waiting_.empty())
        armed_ = false;
    else
        kick_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace tiles
