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

#define MP_MAX_ENDPOINTS 16u
#define MP_MAX_REMOTE    64u
#ifndef MP_HW_HANDLE_WORDS
#define MP_HW_HANDLE_WORDS   16u   /* room for the hardware layouts (checked in transport_namp.c) */
#define MP_HW_ENDPOINT_WORDS 16u
#endif

/* Remote endpoint handle (Fig. 3.3c): address tuple + address of the endpoint structure in the
 * owning tile. Local endpoints embed one with `local` pointing back. */
struct mp_ephandle {
    /* NAMP transport: the hardware-visible remote-endpoint handle (namp_structs.h layout) comes
     * first, so that PARAM1 of a slot is the address of the struct. Unused by the baseline. */
    uint32_t hw[MP_HW_HANDLE_WORDS];
    uint32_t domain, node, port;
    uint32_t addr;                 /* tile-local address of the struct mp_endpoint in `node` */
    uint32_t id;                   /* the identity of that endpoint (struct mp_endpoint id) */
    uint32_t geometry;             /* a looked-up endpoint's receive buffer: n | m << 8 */
    struct mp_endpoint *local;     /* NULL for a remote endpoint */
};

/* CLOSING: deleted by the application, but a peer may still write into its buffers, which stay
 * allocated (quarantined) until the transport says they are quiet (mp_tr_endpoint_reapable). */
/* MOVED: relocated to another tile (relocate.c): a tombstone that redirects, never reused. */
enum mp_ep_state { MP_EP_FREE = 0, MP_EP_READY = 1, MP_EP_DELETED = 2, MP_EP_CLOSING = 3, MP_EP_MOVED = 4 };
#define MP_EPF_CHAN_SEND  (1u << 0)   /* connected as the sending side of a packet channel */
#define MP_EPF_CHAN_RECV  (1u << 1)   /* connected as the receiving side */
#define MP_EPF_OPEN       (1u << 2)   /* opened (send_open / recv_open) */
#define MP_EPF_PEER_GONE  (1u << 3)   /* sending side: the receive endpoint was deleted */
#define MP_EPF_STOP_SENT  (1u << 4)   /* sending side: "stopped writing" sent to the receiver */
#define MP_EPF_PEER_STOPPED (1u << 5) /* receiving side (closing): the sender stopped writing */
#define MP_EPF_SENDER_GONE (1u << 6)  /* receiving side: the send endpoint was deleted (closed) */
#define MP_EPF_OPEN_WANTED (1u << 7)  /* its owner asked to open the receiving side: a connect made
                                         for a task is taken (transport_sw.c) */

/* Endpoint (Fig. 3.3a): own address, state, receive buffer, optional send buffer; channel state. */
struct mp_endpoint {
    /* NAMP transport: the hardware-visible endpoint (namp_structs.h layout) comes first, so that
     * the endpoint address in handles and protocol messages is the address of the struct. */
    uint32_t hw[MP_HW_ENDPOINT_WORDS];
    struct mp_ephandle h;
    /* identity: non-zero, unique on the tile, new at every creation (a lookup answers it, a
     * connect and with namp.identity every transfer names it: a handle of a deleted endpoint
     * never reaches the one that reuses its memory; docs/security.md) */
    uint32_t id;
    volatile uint32_t state;
    volatile uint32_t flags;
    mp_cbuffer_t *rx;              /* receive buffer */
    mp_cbuffer_t *tx;              /* optional send buffer (NULL) */
    /* channel, sender side */
    volatile uint32_t credits;
    uint32_t peer_node, peer_ep;   /* the other end: tile and endpoint address there */
    uint32_t chan_idx;             /* next index in the remote buffer */
    uint32_t chan_ticket, chan_serving;  /* FIFO order of this channel's outstanding sends */
    uint32_t rdata;                /* remote data block address */
    uint32_t rcap_log2, rmsg_log2;
    /* channel, receiver side */
    uint32_t released;             /* slots released since the last CREDIT */
    uint32_t voids_seen;           /* rx->voids already counted as released (NAMP void elements) */
    struct mp_ephandle peer_h;     /* NAMP: handle of the other end of the channel */
    int32_t ccm_slot;              /* NAMP: slot of the continuous communication mode, or -1 */
    uint32_t send_mode;            /* enum mp_send_mode */
    const struct mp_ephandle *ccm_dst;   /* NAMP CCM: destination of ccm_slot */
    uint32_t last_tx;              /* NAMP buffered: send-buffer index of the last send + 1 (0 none) */
    uint32_t rx_given;             /* rx is caller memory (mcapix_endpoint_create_in): not freed;
                                      a task's page: its header is not trusted (SV isolation) */
    uint32_t rx_n, rx_m;           /* the receive buffer's geometry as created */
    uint32_t holding, held_idx;    /* mcapix_msg_hold: a message is held, its buffer index */
};

/* A channel's sending side owes the receiver its "stopped" (receive endpoint deleted, or its own
 * endpoint deleted) once no send of the channel is under way. */
static inline int mp_chan_stop_due(const struct mp_endpoint *ep)
{
    return (ep->flags & MP_EPF_PEER_GONE) || ep->state == MP_EP_CLOSING;
}

/* The local endpoint table (endpoints.c); mcapi.c allocates from it. */
extern struct mp_endpoint mp_endpoints[MP_MAX_ENDPOINTS];

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
#define MP_WAIT_UNTIL(cond)                                                   \
    do {                                                                      \
        for (;;) {                                                            \
            uint32_t mp_saved_ = irq_global_disable();                        \
            if (cond) {                                                       \
                irq_global_restore(mp_saved_);                                \
                break;                                                        \
            }                                                                 \
            mp_idle(UINT64_MAX);                                              \
            irq_global_restore(mp_saved_);                                    \
        }                                                                     \
    } while (0)

#endif
