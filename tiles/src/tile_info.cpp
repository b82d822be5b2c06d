#include "tiles/tile_info.h"

#include "tile_memory_map.h"
#include "tiles/initiator_id.h"
#include "tiles/version.h"

namespace tiles {

tile_info::tile_info(sc_core::sc_module_name name, const tile_geometry &geometry,
                     unsigned access_latency_cycles, sc_core::sc_time clock_period)
    : register_target(name, TILE_INFO_SIZE, access_latency_cycles, clock_period),
      geometry_(geometry) {}

bool tile_info::read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &trans,
                              const sc_core::sc_time &) {
    const tile_geometry &g = geometry_;
    switch (offset) {
    case TILEINFO_TILE_ID: value = g.id; return true;
    case TILEINFO_X: value = g.x; return true;
    case TILEINFO_Y: value = g.y; return true;
    case TILEINFO_MESH_W: value = g.mesh_width; return true;
    case TILEINFO_MESH_H: value = g.mesh_height; return true;
    case TILEINFO_CORES: value = g.cores; return true;
    case TILEINFO_SRAM_BASE: value = g.sram_base; return true;
    case TILEINFO_SRAM_SIZE: value = g.sram_size; return true;
    case TILEINFO_NA_BASE: value = g.na_base; return true;
    case TILEINFO_CLOCK_HZ: value = g.clock_hz; return true;
    case TILEINFO_TIMER_HZ: value = g.timer_hz; return true;
    case TILEINFO_CORE_ID: {
        const initiator_id *who = find_initiator(trans);
        if (!who) return false;  // only cores have a core id
        value = who->core;
        return true;
    }
    case TILEINFO_VERSION: value = platform_version; return true;
    case TILEINFO_ARG: value = g.arg; return true;
    default: return false;
    }
}

}  // namespace tiles
