// Read-only tile information block: where this tile sits in the mesh and what it contains.
#pragma once
#include <cstdint>

#include "tiles/register_target.h"

namespace tiles {

struct tile_geometry {
    unsigned id = 0, x = 0, y = 0;
    unsigned mesh_width = 1, mesh_height = 1;
    unsigned cores = 1;
    uint32_t sram_base = 0, sram_size = 0;
    uint32_t na_base = 0;
    uint32_t clock_hz = 0, timer_hz = 0;
    uint32_t arg = 0;  // tile.arg
};

class tile_info : public register_target {
public:
    tile_info(sc_core::sc_module_name name, const tile_geometry &geometry,
              unsigned access_latency_cycles, sc_core::sc_time clock_period);

private:
    bool read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &trans,
                       const sc_core::sc_time &) override;
    bool write_register(uint32_t, uint32_t, tlm::tlm_generic_payload &,
                        const sc_core::sc_time &) override {
        return false;  // read-only: a write is a bus error
    }

    tile_geometry geometry_;
};

}  // namespace tiles
