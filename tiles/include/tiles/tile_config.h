// Parameters of one compute tile (filled by the platform from the JSON configuration).
#pragma once
#include <cstdint>

#include "iss/rv32.h"

namespace tiles {

struct tile_config {
    unsigned cores = 1;
    uint32_t sram_size = 1u << 20;
    unsigned sram_read_latency = 1;   // cycles added to every SRAM load
    unsigned sram_write_latency = 1;  // cycles added to every SRAM store
    unsigned device_latency = 2;      // cycles of a register access to a tile device
    unsigned bus_word_cycles = 1;  // tile bus: cycles each 32-bit word of a transaction occupies it
    unsigned timer_divider = 10;   // core cycles per mtime tick
    uint32_t arg = 0;              // tile.arg, read by the firmware from the tile information block
    rv_timing timing{};
    rv_engine engine = RV_ENGINE_JIT;  // how the ISS runs code (same simulation with every engine)
    // core.access_lookahead: how far ahead of SystemC's time a core's access to the network
    // adapter may be taken without waiting for the core's time (0: never, the exact reference)
    unsigned access_lookahead = 0;
    bool trace_traps = false;
    uint64_t cycle_limit = 0;  // watchdog: no core runs past this cycle (0: no limit)
};

}  // namespace tiles
