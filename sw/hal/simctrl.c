/* Simulation control registers and the hart's performance counters. */
#include "hal/simctrl.h"

#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/mmio.h"
#include "tile_memory_map.h"

void sim_exit(uint32_t code)
{
    mmio_write32(TILE_SIMCTRL_BASE + SIMCTRL_EXIT, code);
    for (;;) /* the platform halts the core on the write */
        __asm__ volatile("wfi");
}

void sim_shutdown(uint32_t code)
{
    mmio_write32(TILE_SIMCTRL_BASE + SIMCTRL_SHUTDOWN, code);
    for (;;)
        __asm__ volatile("wfi");
}

void sim_mark(uint32_t id) { mmio_write32(TILE_SIMCTRL_BASE + SIMCTRL_MARK, id); }

uint64_t sim_cycles(void)
{
    /* Reading LO latches HI: an interrupt handler reading the pair in between would re-latch. */
    uint32_t saved = irq_global_disable();
    uint32_t lo = mmio_read32(TILE_SIMCTRL_BASE + SIMCTRL_CYCLE_LO);
    uint32_t hi = mmio_read32(TILE_SIMCTRL_BASE + SIMCTRL_CYCLE_HI);
    irq_global_restore(saved);
    return ((uint64_t)hi << 32) | lo;
}

/* 64-bit counter on RV32: re-read the high half until it did not change across the low read. */
#define READ_COUNTER64(lo_csr, hi_csr)    \
    do {                                  \
        uint32_t hi, lo, hi2;             \
        do {                              \
            hi = csr_read(hi_csr);        \
            lo = csr_read(lo_csr);        \
            hi2 = csr_read(hi_csr);       \
        } while (hi != hi2);              \
        return ((uint64_t)hi << 32) | lo; \
    } while (0)

uint64_t cpu_cycles(void) { READ_COUNTER64(mcycle, mcycleh); }
uint64_t cpu_instret(void) { READ_COUNTER64(minstret, minstreth); }
