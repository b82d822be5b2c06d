// The tie rule between cores and everything else (docs/timing.md, "Ties"): in a cycle, the
// devices, adapters and the network act first; the cores that resume in that cycle (at a quantum
// boundary, after a device access's synchronization, woken from wfi) run after all of it, in the
// order (tile, hart). Without it SystemC's event heap decided whether a core ran ahead before or
// after an adapter's process of the same instant (which stores of the core's run-ahead a bus
// master's read sees, whether an interrupt raised in that cycle is taken at once).
#pragma once
#include <cstdint>
#include <vector>
#include <systemc>

namespace tiles {

class core_gate : public sc_core::sc_module {
public:
    core_gate(sc_core::sc_module_name name, unsigned cores);

    // Called by a core's thread that has just resumed: returns once nothing but cores is left to
    // do at this time, cores in `key` order (key: the core's index over all tiles, tile-major).
    void pass(unsigned key);

private:
    void release();

    std::vector<sc_core::sc_event> events_;  // per key
    std::vector<unsigned> waiting_;          // keys, in arrival (host) order
    sc_core::sc_event kick_;
    bool armed_ = false;
};

}  // namespace tiles
