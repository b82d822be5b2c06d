/* Process exit for picolibc: exit() runs atexit handlers and destructors, then calls _exit(),
 * which on namp-vp means writing the exit code to the calling core's SIMCTRL_EXIT register.
 * The platform halts the core on that write; the simulation ends once every core has halted. */
#include <stdint.h>
#include <unistd.h>

#include "tile_memory_map.h"

void _exit(int code)
{
    *(volatile uint32_t *)(TILE_SIMCTRL_BASE + SIMCTRL_EXIT) = (uint32_t)code;
    /* The core is halted by the write above; never fall back into the caller if it is late. */
    for (;;)
        __asm__ volatile("wfi");
}
