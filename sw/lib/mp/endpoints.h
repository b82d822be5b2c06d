/* The lowest layer of the message-passing library: endpoints (thesis Fig. 3.3a), remote endpoint
 * handles (Fig. 3.3c), the local endpoint table with its lookups, the statistics and the idle
 * step of the library's waits. The API layer (mcapi.c) and the transports both build on it;
 * it calls neither. */
#ifndef MP_ENDPOINTS_H
#define MP_ENDPOINTS_H

#include <stdint.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mp/cbuffer.h"
#include "mp/hooks.h"
#include "mp/kernel.h" /* the endpoint and handle layout */

/* A channel's sending side owes the receiver its "stopped" (receive endpoint deleted, or its own
 * endpoint deleted) once no send of the channel is under way. */
static inline int mp_chan_stop_due(const struct mp_endpoint *ep)
{
    return (ep->flags & MP_EPF_PEER_GONE) || ep->state == MP_EP_CLOSING;
}

/* Local endpoint table lookup (thread and interrupt context). */
struct mp_endpoint *mp_find_port(uint32_t port);
/* The same, tombstones of relocated endpoints included (remote lookups follow them: NAK_RELOC). */
struct mp_endpoint *mp_find_port_any(uint32_t port);
/* The geometry a receive buffer was created with: its data block and size words as
 * mp_cbuffer_init laid them out (a task's buffer header is not trusted: SV isolation). */
uint32_t mp_ep_rx_data0(const struct mp_endpoint *ep);
struct mp_endpoint *mp_ep_from_addr(uint32_t addr);
/* A deleted (or buried) endpoint's buffers freed (not a buffer in caller memory), the entry
 * DELETED: free for the next creation (mcapi.c). */
void mp_ep_release(struct mp_endpoint *ep);

extern volatile mp_stats_t mp_stats;
extern uint32_t mp_data_path;

/* mp_idle_wait, mp_sleep_ticks, mp_irq_service_inline (inline service after wfi: no trap, whose
 * register save and restore would sit on every blocking receive's latency): mp/hooks.h. */

/* One idle period of a library wait (interrupts off): sleeps (mp_idle_wait), counts the cycles
 * asleep, then serves the adapter's interrupt inline if that is what woke the core. */
static inline void mp_idle(uint64_t wake)
{
    uint64_t t0 = cpu_cycles();
    mp_idle_wait(wake);
    mp_stats.idle_cycles += cpu_cycles() - t0;
    mp_irq_service_inline();
}

/* Sleep in wfi until cond holds; the condition is evaluated with interrupts off so that no wake-up
 * is lost, and the progress engine runs between the checks. */
#define MP_WAIT_UNTIL(cond)                            \
    do {                                               \
        for (;;) {                                     \
            uint32_t mp_saved_ = irq_global_disable(); \
            if (cond) {                                \
                irq_global_restore(mp_saved_);         \
                break;                                 \
            }                                          \
            mp_idle(UINT64_MAX);                       \
            irq_global_restore(mp_saved_);             \
        }                                              \
    } while (0)

#endif
