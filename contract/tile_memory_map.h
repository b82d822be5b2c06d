/* Physical memory map of a compute tile, shared by the VP (C++) and the firmware (C).
 * Every address not listed here answers with a bus error (access-fault trap on the core).
 * docs/memory-map.md describes each register. */
#ifndef TILE_MEMORY_MAP_H
#define TILE_MEMORY_MAP_H

/* CLINT-compatible timer: the SiFive layout, so standard RISC-V RTOS ports find it. */
#define TILE_CLINT_BASE      0x02000000u
#define TILE_CLINT_SIZE      0x00010000u
#define CLINT_MSIP(hart)     (0x0000u + 4u * (hart)) /* bit 0: machine software interrupt */
#define CLINT_MTIMECMP(hart) (0x4000u + 8u * (hart)) /* 64-bit compare value */
#define CLINT_MTIME          0xBFF8u                 /* 64-bit free-running counter */

/* Console: one line buffer per core; lines are printed prefixed with "[tile x,y core c]". */
#define TILE_CONSOLE_BASE 0x10000000u
#define TILE_CONSOLE_SIZE 0x00001000u
#define CONSOLE_TX        0x00u /* W: byte to print (calling core's line buffer) */
#define CONSOLE_STATUS    0x04u /* R: bit 0 = ready (always 1) */

/* Simulation control: exit codes and benchmark marks. */
#define TILE_SIMCTRL_BASE 0x10001000u
#define TILE_SIMCTRL_SIZE 0x00001000u
#define SIMCTRL_EXIT      0x00u /* W: halt the calling core with this exit code */
#define SIMCTRL_SHUTDOWN  0x04u /* W: end the whole simulation now with this exit code */
#define SIMCTRL_MARK      0x08u /* W: record (tile, core, id=value, core cycle) in the statistics */
#define SIMCTRL_CYCLE_LO  0x10u /* R: calling core's cycle count, low word (latches the high word) */
#define SIMCTRL_CYCLE_HI  0x14u /* R: high word latched by the last CYCLE_LO read */

/* Tile information block (read-only). */
#define TILE_INFO_BASE     0x10002000u
#define TILE_INFO_SIZE     0x00001000u
#define TILEINFO_TILE_ID   0x00u /* y * mesh_width + x */
#define TILEINFO_X         0x04u
#define TILEINFO_Y         0x08u
#define TILEINFO_MESH_W    0x0Cu
#define TILEINFO_MESH_H    0x10u
#define TILEINFO_CORES     0x14u /* cores in this tile */
#define TILEINFO_SRAM_BASE 0x18u
#define TILEINFO_SRAM_SIZE 0x1Cu
#define TILEINFO_NA_BASE   0x20u
#define TILEINFO_CLOCK_HZ  0x24u /* core clock */
#define TILEINFO_TIMER_HZ  0x28u /* CLINT mtime frequency */
#define TILEINFO_CORE_ID   0x2Cu /* index of the calling core in this tile (= mhartid) */
#define TILEINFO_VERSION   0x30u /* platform version, (major << 16) | minor */
#define TILEINFO_ARG       0x34u /* tile.arg: a parameter of the run for the firmware (a sweep's seed) */

/* Network adapter window: 4 MiB, aligned to its size (thesis Table 4.1). */
#define TILE_NA_BASE 0x40000000u
#define TILE_NA_SIZE 0x00400000u

/* Local SRAM; its size is a platform parameter (tile.sram_size), read it from TILEINFO_SRAM_SIZE. */
#define TILE_SRAM_BASE 0x80000000u

#endif
