// Input formats of the fuzz targets that are not plain files (docs/robustness.md), shared by the
// targets and the seed generator so seeds stay valid when a format changes.
#pragma once
#include <cstdint>

namespace fuzz {

// fuzz_config: the first byte selects how the rest is applied.
enum config_mode : uint8_t {
    config_file = 0,       // the rest is a configuration file (config_builder::apply_text)
    config_set_lines = 1,  // the rest is --set arguments, one per line
    config_preset = 2,     // first line a preset name, the other lines --set arguments
};

// fuzz_iss: a fixed header of hart state, then code and data placed at the start of the RAM.
struct iss_header {
    uint32_t x[32];  // x0 is ignored by the hart
    uint32_t priv;   // % 4: 0 U, 1 S, 3 M (2 is taken as M)
    uint32_t mstatus, mtvec, stvec, medeleg, mideleg, mie, satp, mepc_offset;
    uint32_t irq_levels;  // bits: MSIP, MTIP, MEIP, SEIP input levels
};
constexpr uint32_t iss_ram_base = 0x80000000u;
constexpr uint32_t iss_ram_size = 64 * 1024;
constexpr uint64_t iss_cycle_budget = 4000;  // a few hundred instructions and traps per input

// fuzz_na: records of 8 bytes, each one access of a test bus master (a core) of tile 0 or 1.
struct na_record {
    uint8_t control;  // bit 0 tile, bits 1-3 na_region, bit 4 write, bits 5-6 size (1, 2, 4, 4)
    uint8_t index;    // DMA slot, NoC buffer or NAMP slot; high address bits elsewhere
    uint8_t offset[2];
    uint8_t value[4];
};
enum na_region : uint8_t {
    na_status = 0,
    na_irq = 1,
    na_nocbuf = 2,
    na_dma = 3,
    na_namp_slot = 4,
    na_anywhere = 5,      // any offset of the 4 MiB window: every reserved offset
    na_rma = 6,           // the RMA window (remote and local SRAM through the network)
    na_sram_or_wait = 7,  // write: local SRAM (slot handles, data); read: wait value & 0xfff cycles
};
constexpr unsigned na_max_records = 128;

}  // namespace fuzz
