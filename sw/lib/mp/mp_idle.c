/* Default idle wait of the library on bare metal: arm the timer for the wake-up time and sleep in
 * wfi. Weak, in a file of its own, so that a kernel can replace it (sw/kernel/kmp.c); a
 * replacement that sometimes wants the plain sleep calls mp_idle_wfi (sw/lib/mpi/mpi_node.c). */
#include "mp_internal.h"

void mp_idle_wfi(uint64_t wake)
{
    if (wake != UINT64_MAX)
        timer_set_compare(wake);
    wait_for_interrupt();
}

__attribute__((weak)) void mp_idle_wait(uint64_t wake) { mp_idle_wfi(wake); }
