/* What the QEMU virt machine lacks compared to a namp-vp tile, emulated in software:
 * - the tile information block: filled in RAM by a constructor (runs on hart 0 before the other
 *   harts are released), with the hart count given at build time (QEMU -smp);
 * - the exit register: _exit() and sim_exit() are wrapped (-Wl,--wrap) to end QEMU through the
 *   SiFive test device when hart 0 exits; other harts just stop. */
#include <stdint.h>

#include "hal/hal.h"

#define SIFIVE_TEST 0x00100000u

__attribute__((constructor)) static void fill_tile_info(void)
{
    volatile uint32_t *info = (volatile uint32_t *)TILE_INFO_BASE;
    info[TILEINFO_MESH_W / 4] = 1;
    info[TILEINFO_MESH_H / 4] = 1;
    info[TILEINFO_CORES / 4] = SMOKE_HARTS;
    info[TILEINFO_SRAM_BASE / 4] = TILE_SRAM_BASE;
    info[TILEINFO_SRAM_SIZE / 4] = 0x100000u;
    info[TILEINFO_TIMER_HZ / 4] = 10000000u; /* virt's CLINT runs at 10 MHz */
}

static __attribute__((noreturn)) void qemu_exit(uint32_t code)
{
    if (hart_id() == 0)
        *(volatile uint32_t *)SIFIVE_TEST = code == 0 ? 0x5555u : (code << 16) | 0x3333u;
    for (;;)
        __asm__ volatile("wfi");
}

void __wrap__exit(int code) { qemu_exit((uint32_t)code); }
void __wrap_sim_exit(uint32_t code) { qemu_exit(code); }
