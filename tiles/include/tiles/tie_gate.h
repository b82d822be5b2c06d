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

private:
    void release();

    struct waiter {
        uint64_t key;
        const char *process;  // the waiting thread's name: the order among equal keys
        sc_core::sc_event *event;
    };
    std::vector<waiter> waiting_;
    std::vector<std::unique_ptr<sc_core::sc_event>> events_;  // every event made so far
    std::vector<sc_core::sc_event *> free_;                   // the ones no waiter holds
    sc_core::sc_event kick_;
    bool armed_ = false;
};

}  // namespace tiles
