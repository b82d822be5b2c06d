// The tie rule between the processes that touch a tile's bus (docs/timing.md, "Ties"): in an
// instant, whatever acts by itself goes first (the network, the devices' own events, and what they
// cause in delta cycles); then the adapters' bus masters that have a transaction to make in that
// instant, in key order (tile, port); then, after what those cause, the cores that resume in it
// (at a quantum boundary, after a device access's synchronization, woken from wfi), in key order
// (tile, hart). Without it SystemC's event heap decided which of two bus masters of an instant
// got the bus first and whether a core ran ahead before or after an adapter's access.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>
#include <systemc>

namespace tiles {

class tie_gate : public sc_core::sc_module {
public:
    explicit tie_gate(sc_core::sc_module_name name);

    // The two classes, in the order they go; a key is class_key(...) | index.
    static constexpr uint64_t bus_master = 0, core = uint64_t(1) << 40;
    static uint64_t key(uint64_t cls, unsigned tile, unsigned index) {
        return cls | uint64_t(tile) << 16 | index;
    }

    // Called by a thread that is about to act in this instant (or has just resumed in it):
    // returns once nothing but gated threads is left to do at this time and every waiting thread
    // of a lower class, or of the same class with a lower key, has gone. Threads with the same
    // key go in the order of their process names.
    void pass(uint64_t key);

    // wait(delay), then pass(key), with one resumption of the thread instead of two: the gate
    // wakes at the end of the delay, in the delta cycle the thread's own timed wait would have
    // resumed it in, and does for it what pass() does (the cores due at a quantum's end share
    // one timed event and are resumed once each, instead of a timed wait and a pass each).
    void pass_after(uint64_t key, const sc_core::sc_time &delay);

private:
    void release();
    sc_core::sc_event *take_event();
    void admit_due();  // waiters of pass_after whose time has come join the instant's waiters
    void arm_timed(const sc_core::sc_time &at);  // the gate's wake-up at `at` unless earlier

    struct waiter {
        uint64_t key;
        const char *process;  // the waiting thread's name: the order among equal keys
        sc_core::sc_event *event;
    };
    std::vector<waiter> waiting_;
    // The waiters of pass_after by the time they are due: few times at once (the cores at a
    // quantum's end are due at its boundary or a few cycles after), so a list, searched.
    struct due_group {
        sc_core::sc_time at;
        std::vector<waiter> waiters;
    };
    std::vector<due_group> later_;
    std::vector<std::vector<waiter>> spare_;  // emptied groups' vectors, kept for their capacity
    sc_core::sc_event timed_;
    sc_core::sc_time timed_at_ = sc_core::sc_max_time();      // the pending notification of timed_
    std::vector<std::unique_ptr<sc_core::sc_event>> events_;  // every event made so far
    std::vector<sc_core::sc_event *> free_;                   // the ones no waiter holds
    sc_core::sc_event kick_;
    bool armed_ = false;
};

}  // namespace tiles
