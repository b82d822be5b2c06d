/* Read-only tile information block: where this core sits in the platform. */
#ifndef HAL_TILEINFO_H
#define HAL_TILEINFO_H

#include <stdint.h>

#include "hal/mmio.h"
#include "tile_memory_map.h"

static inline uint32_t tileinfo_read(uint32_t offset)
{
    return mmio_read32(TILE_INFO_BASE + offset);
}

static inline uint32_t tile_id(void) { return tileinfo_read(TILEINFO_TILE_ID); } /* y*w + x */
static inline uint32_t tile_x(void) { return tileinfo_read(TILEINFO_X); }
static inline uint32_t tile_y(void) { return tileinfo_read(TILEINFO_Y); }
static inline uint32_t tile_mesh_width(void) { return tileinfo_read(TILEINFO_MESH_W); }
static inline uint32_t tile_mesh_height(void) { return tileinfo_read(TILEINFO_MESH_H); }
static inline uint32_t tile_num_cores(void) { return tileinfo_read(TILEINFO_CORES); }
static inline uint32_t tile_core_id(void)
{
    return tileinfo_read(TILEINFO_CORE_ID);
} /* = mhartid */
static inline uint32_t tile_sram_base(void) { return tileinfo_read(TILEINFO_SRAM_BASE); }
static inline uint32_t tile_sram_size(void) { return tileinfo_read(TILEINFO_SRAM_SIZE); }
static inline uint32_t tile_na_base(void) { return tileinfo_read(TILEINFO_NA_BASE); }
static inline uint32_t tile_clock_hz(void) { return tileinfo_read(TILEINFO_CLOCK_HZ); }
static inline uint32_t tile_timer_hz(void) { return tileinfo_read(TILEINFO_TIMER_HZ); }
static inline uint32_t tile_platform_version(void) { return tileinfo_read(TILEINFO_VERSION); }
/* tile.arg of the configuration: a parameter of the run (e.g. a sweep's seed), 0 by default. */
static inline uint32_t tile_arg(void) { return tileinfo_read(TILEINFO_ARG); }

#endif
