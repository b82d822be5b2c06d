#include "tiles/tie_gate.h"

#include <algorithm>
#include <cstring>

namespace tiles {

tie_gate::tie_gate(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(tie_gate);
    SC_METHOD(release);
    sensitive << kick_ << timed_;
    dont_initialize();
}

sc_core::sc_event *tie_gate::take_event() {
    if (free_.empty()) {
        events_.push_back(std::make_unique<sc_core::sc_event>());
        free_.push_back(events_.back().get());
    }
    sc_core::sc_event *ev = free_.back();
    free_.pop_back();
    return ev;
}

void tie_gate::pass(uint64_t key) {
    // The last thing left at this time already: nothing can act after it in this instant.
    if (waiting_.empty() && !sc_core::sc_pending_activity_at_current_time()) return;
    sc_core::sc_event *ev = take_event();
    waiting_.push_back({key, sc_core::sc_get_current_process_handle().name(), ev});
    if (!armed_) {
        armed_ = true;
        kick_.notify(sc_core::SC_ZERO_TIME);
    }
    sc_core::wait(*ev);
    free_.push_back(ev);
}

void tie_gate::pass_after(uint64_t key, const sc_core::sc_time &delay) {
    if (delay == sc_core::SC_ZERO_TIME) return pass(key);
    sc_core::sc_event *ev = take_event();
    const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
    const waiter w{key, sc_core::sc_get_current_process_handle().name(), ev};
    auto g =
        std::find_if(later_.begin(), later_.end(), [&](const due_group &d) { return d.at == at; });
    if (g != later_.end()) {
        g->waiters.push_back(w);
    } else {
        std::vector<waiter> v;
        if (!spare_.empty()) {
            v = std::move(spare_.back());
            spare_.pop_back();
        }
        v.push_back(w);
        later_.push_back({at, std::move(v)});
        arm_timed(at);
    }
    sc_core::wait(*ev);
    free_.push_back(ev);
}

// A timed notification fires in the first delta cycle of its time, with the timed waits of that
// time: the gate's method runs where the threads' own waits would have resumed them.
void tie_gate::arm_timed(const sc_core::sc_time &at) {
    if (at >= timed_at_) return;  // already due by then; a later one is armed when that fires
    timed_at_ = at;
    timed_.notify(at - sc_core::sc_time_stamp());  // replaces a later pending notification
}

void tie_gate::admit_due() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (timed_at_ <= now) timed_at_ = sc_core::sc_max_time();  // it fired
    if (later_.empty()) return;
    sc_core::sc_time next = sc_core::sc_max_time();
    for (size_t i = 0; i < later_.size();) {
        due_group &g = later_[i];
        if (g.at > now) {
            next = std::min(next, g.at);
            ++i;
            continue;
        }
        waiting_.insert(waiting_.end(), g.waiters.begin(), g.waiters.end());
        g.waiters.clear();
        spare_.push_back(std::move(g.waiters));
        if (&g != &later_.back()) g = std::move(later_.back());
        later_.pop_back();
    }
    if (next != sc_core::sc_max_time()) arm_timed(next);
}

// Runs in a delta cycle of its own; while other processes of this instant are runnable or have
// notified, it waits another delta. Then the waiting threads of the lowest class go, in key
// order (immediate notifications make them runnable in that order, before any delta the first
// of them causes); the next class waits until what they caused is done.
void tie_gate::release() {
    admit_due();
    if (waiting_.empty()) return;  // woken for a pass_after already admitted in this instant
    armed_ = true;
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
