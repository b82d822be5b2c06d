// Simulation control: per-core exit, whole-simulation shutdown, benchmark marks and a cycle counter.
// Requires the core's initiator_id extension: accesses from other masters are bus errors.
#pragma once
#include <cstdint>
#include <vector>

#include "tiles/register_target.h"
#include "tiles/run_control_if.h"

namespace tiles {

class sim_control : public register_target {
public:
    sim_control(sc_core::sc_module_name name, unsigned tile_id, unsigned cores,
                unsigned access_latency_cycles, sc_core::sc_time clock_period,
                run_control_if &run_control);

private:
    bool read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &trans,
                       const sc_core::sc_time &) override;
    bool write_register(uint32_t offset, uint32_t value, tlm::tlm_generic_payload &trans,
                        const sc_core::sc_time &) override;

    unsigned tile_id_;
    run_control_if &run_control_;
    std::vector<uint32_t> latched_cycle_hi_;  // per core: CYCLE_HI as latched by CYCLE_LO
};

}  // namespace tiles
