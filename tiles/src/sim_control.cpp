#include "tiles/sim_control.h"

#include "tile_memory_map.h"
#include "tiles/initiator_id.h"

namespace tiles {

sim_control::sim_control(sc_core::sc_module_name name, unsigned tile_id, unsigned cores,
                         unsigned access_latency_cycles, sc_core::sc_time clock_period,
                         run_control_if &run_control)
    : register_target(name, TILE_SIMCTRL_SIZE, access_latency_cycles, clock_period),
      tile_id_(tile_id),
      run_control_(run_control),
      latched_cycle_hi_(cores, 0) {}

bool sim_control::read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &trans,
                                const sc_core::sc_time &) {
    initiator_id *who = find_initiator(trans);
    if (!who || who->core >= latched_cycle_hi_.size()) return false;
    switch (offset) {
    case SIMCTRL_CYCLE_LO:
        // Latching the high word makes a LO-then-HI read pair consistent.
        latched_cycle_hi_[who->core] = uint32_t(who->core_cycles >> 32);
        value = uint32_t(who->core_cycles);
        return true;
    case SIMCTRL_CYCLE_HI: value = latched_cycle_hi_[who->core]; return true;
    case SIMCTRL_EXIT:
    case SIMCTRL_SHUTDOWN:
    case SIMCTRL_MARK: value = 0; return true;
    default: return false;
    }
}

bool sim_control::write_register(uint32_t offset, uint32_t value, tlm::tlm_generic_payload &trans,
                                 const sc_core::sc_time &) {
    initiator_id *who = find_initiator(trans);
    if (!who) return false;
    switch (offset) {
    case SIMCTRL_EXIT:
        who->halt_requested = true;
        run_control_.core_exited(tile_id_, who->core, value, who->core_cycles);
        return true;
    case SIMCTRL_SHUTDOWN:
        who->halt_requested = true;
        run_control_.shutdown(tile_id_, who->core, value, who->core_cycles);
        return true;
    case SIMCTRL_MARK: run_control_.mark(tile_id_, who->core, value, who->core_cycles); return true;
    default: return false;
    }
}

}  // namespace tiles
