// Work items that one SC_THREAD serves one after the other, each after a fixed service time that
// starts when the thread takes the item: on its arrival when the thread is idle, else when the
// thread has finished the item before it (the adapter's FSMs that take packets and completions:
// namp_target, the initiator's ingress, the data-request target).
//
// Why not an event and a wait: an idle thread woken on arrival only to wait out the service time
// costs two SystemC activations per item. Here the arrival notifies the thread at the end of the
// service time, so an idle thread wakes once, at the time and in the delta cycle it resumed in
// before (the same simulation; docs/timing.md "Waits the adapter saves").
#pragma once
#include <deque>
#include <utility>
#include <systemc>

namespace namp {

template <typename T>
class service_queue {
public:
    explicit service_queue(sc_core::sc_time service) : service_(service) {}

    void push(T item) {
        items_.push_back(std::move(item));
        // Only an idle server needs a wake-up, and only for the first item, at the end of its
        // service time: a busy one looks at the queue when it is done (a timed notification per
        // item costs more than it saves).
        if (idle_ && items_.size() == 1) event_.notify(service_);
    }

    // Blocks until the next item's service time has passed and moves it to `out` (a member of the
    // caller: nothing heap-held on a thread's stack when the simulation ends in the wait).
    void take(T &out) {
        if (items_.empty()) {
            idle_ = true;
            do sc_core::wait(event_);
            while (items_.empty());
            idle_ = false;
            // now the first item's service time has passed (push); a zero one still took the
            // delta cycle of the wait after the arrival
            if (service_ == sc_core::SC_ZERO_TIME) sc_core::wait(sc_core::SC_ZERO_TIME);
        } else {
            sc_core::wait(service_);
        }
        out = std::move(items_.front());
        items_.pop_front();
    }

private:
    sc_core::sc_time service_;
    std::deque<T> items_;
    bool idle_ = false;  // the server waits for an item
    sc_core::sc_event event_;
};

}  // namespace namp
