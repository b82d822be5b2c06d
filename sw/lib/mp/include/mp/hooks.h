/* What a runtime under the message-passing library may replace or call: the library's idle wait
 * and timed sleep are weak, so that a kernel (sw/kernel/kmp.c) or the MPI layer's node sharing
 * between the cores of a tile (sw/lib/mpi/mpi_node.c) can put the caller to sleep its own way. */
#ifndef MP_HOOKS_H
#define MP_HOOKS_H

#include <stdint.h>

/* Sleeps until an interrupt or the mtime value wake (UINT64_MAX: none), called with interrupts
 * off. Weak default (mp_idle.c): arm the timer, wfi. */
void mp_idle_wait(uint64_t wake);
/* The default's sleep itself, for a replacement that falls back to it. */
void mp_idle_wfi(uint64_t wake);

/* Sleeps until the timer passes `ticks` from now; the progress engine keeps running. Weak
 * default (transport_sw.c): timer interrupt + wfi. */
void mp_sleep_ticks(uint32_t ticks);

/* Serves the network adapter's interrupt sources in thread context when this core's external
 * interrupt line is up (call with interrupts off): the work of the library's interrupt handler. */
void mp_irq_service_inline(void);

/* Times the adapter's interrupt work was done (trap or inline): a change means the library's
 * state may have moved on for every waiter. */
uint32_t mp_isr_count(void);

#endif
