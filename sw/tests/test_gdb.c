/* Debugging target of the GDB tests (tests/gdb): a 3x2 mesh with two cores per tile.
 *
 * Core 0 of tile 5 calls gdb_target(13), whose local `local` becomes 40 (the test breaks there,
 * steps and reads it). Core 1 of tile 2 writes 0x5a5a to gdb_shared after a delay (the test
 * watches it: the watchpoint fires on that other core). Every core writes 7 to gdb_every, its
 * tile's copy (the per-tile watchpoint test: one stop per tile). Every core exits 0; core 0 of tile 5
 * exits 1 if gdb_target returned a wrong value, so a debugger that corrupts state fails the run. */
#include <stdint.h>

#include "hal/hal.h"

volatile uint32_t gdb_shared;
volatile uint32_t gdb_result;
volatile uint32_t gdb_every;

__attribute__((noinline)) uint32_t gdb_target(uint32_t n)
{
    volatile uint32_t local = n * 3u + 1u;
    gdb_result = local;
    return local + 1u;
}

int main(void)
{
    const uint32_t tile = tile_id(), core = tile_core_id();
    gdb_every = 7u;
    if (tile == 5 && core == 0 && gdb_target(13) != 41u)
        return 1;
    if (tile == 2 && core == 1) {
        /* long enough for the breakpoint on tile 5 to come first */
        for (volatile uint32_t i = 0; i < 20000u; i++)
            ;
        gdb_shared = 0x5a5au;
    }
    return 0;
}
