/* The message library's interface for the kernel (sw/kernel), which hosts the endpoints of U-mode
 * tasks with the library (docs/kernel.md "MCAPI in tasks", "Task migration"): the layout of
 * endpoints and remote-endpoint handles, the local endpoint table, and the calls the kernel makes
 * beyond mcapi.h, mcapix_cc.h and mcapix_ps.h. Part of the library's internals (endpoints.h
 * includes it), declared here so that the kernel never includes a private header of the library;
 * nothing else outside the library uses it. */
#ifndef MP_KERNEL_H
#define MP_KERNEL_H

#include <stdint.h>

#include "mcapi.h"
#include "mp/cbuffer.h"

#define MP_MAX_ENDPOINTS 16u
#define MP_MAX_REMOTE    64u
#ifndef MP_HW_HANDLE_WORDS
#define MP_HW_HANDLE_WORDS   16u /* room for the hardware layouts (checked in transport_namp.c) */
#define MP_HW_ENDPOINT_WORDS 16u
#endif

/* Remote endpoint handle (Fig. 3.3c): address tuple + address of the endpoint structure in the
 * owning tile. Local endpoints embed one with `local` pointing back. */
struct mp_ephandle {
    /* NAMP transport: the hardware-visible remote-endpoint handle (namp_structs.h layout) comes
     * first, so that PARAM1 of a slot is the address of the struct. Unused by the baseline. */
    uint32_t hw[MP_HW_HANDLE_WORDS];
    uint32_t domain, node, port;
    uint32_t addr;             /* tile-local address of the struct mp_endpoint in `node` */
    uint32_t id;               /* the identity of that endpoint (struct mp_endpoint id) */
    uint32_t geometry;         /* a looked-up endpoint's receive buffer: n | m << 8 */
    struct mp_endpoint *local; /* NULL for a remote endpoint */
};

/* CLOSING: deleted by the application, but a peer may still write into its buffers, which stay
 * allocated (quarantined) until the transport says they are quiet (mp_tr_endpoint_reapable). */
/* MOVED: relocated to another tile (relocate.c): a tombstone that redirects, never reused. */
enum mp_ep_state {
    MP_EP_FREE = 0,
    MP_EP_READY = 1,
    MP_EP_DELETED = 2,
    MP_EP_CLOSING = 3,
    MP_EP_MOVED = 4
};
#define MP_EPF_CHAN_SEND    (1u << 0) /* connected as the sending side of a packet channel */
#define MP_EPF_CHAN_RECV    (1u << 1) /* connected as the receiving side */
#define MP_EPF_OPEN         (1u << 2) /* opened (send_open / recv_open) */
#define MP_EPF_PEER_GONE    (1u << 3) /* sending side: the receive endpoint was deleted */
#define MP_EPF_STOP_SENT    (1u << 4) /* sending side: "stopped writing" sent to the receiver */
#define MP_EPF_PEER_STOPPED (1u << 5) /* receiving side (closing): the sender stopped writing */
#define MP_EPF_SENDER_GONE  (1u << 6) /* receiving side: the send endpoint was deleted (closed) */
/* its owner asked to open the receiving side: a connect made
 * for a task is taken (transport_sw.c) */
#define MP_EPF_OPEN_WANTED  (1u << 7)

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
    mp_cbuffer_t *rx; /* receive buffer */
    mp_cbuffer_t *tx; /* optional send buffer (NULL) */
    /* channel, sender side */
    volatile uint32_t credits;
    uint32_t peer_node, peer_ep;        /* the other end: tile and endpoint address there */
    uint32_t chan_idx;                  /* next index in the remote buffer */
    uint32_t chan_ticket, chan_serving; /* FIFO order of this channel's outstanding sends */
    uint32_t rdata;                     /* remote data block address */
    uint32_t rcap_log2, rmsg_log2;
    /* channel, receiver side */
    uint32_t released;         /* slots released since the last CREDIT */
    uint32_t voids_seen;       /* rx->voids already counted as released (NAMP void elements) */
    struct mp_ephandle peer_h; /* NAMP: handle of the other end of the channel */
    int32_t ccm_slot;          /* NAMP: slot of the continuous communication mode, or -1 */
    uint32_t send_mode;        /* enum mp_send_mode */
    const struct mp_ephandle *ccm_dst; /* NAMP CCM: destination of ccm_slot */
    uint32_t last_tx; /* NAMP buffered: send-buffer index of the last send + 1 (0 none) */
    /* rx is caller memory (mcapix_endpoint_create_in): not freed;
     * a task's page: its header is not trusted (SV isolation) */
    uint32_t rx_given;
    uint32_t rx_n, rx_m;        /* the receive buffer's geometry as created */
    uint32_t holding, held_idx; /* mcapix_msg_hold: a message is held, its buffer index */
};

/* The local endpoint table (endpoints.c); mcapi.c allocates from it. */
extern struct mp_endpoint mp_endpoints[MP_MAX_ENDPOINTS];

/* An endpoint whose receive buffer is caller memory (the kernel: a page of a task, mp/task.h),
 * not freed on deletion; its header is not trusted (SV isolation). */
mcapi_endpoint_t mcapix_endpoint_create_in(mcapi_port_t port, const mcapix_endpoint_attributes_t *a,
                                           void *rx_mem, mcapi_status_t *status);

/* Sending side of a channel whose receive endpoint was deleted (MP_EPF_PEER_GONE): tells the
 * receiver that no more data comes once no send of the channel is under way (the transport's;
 * the kernel calls it for a task, whose sends it cannot see, under kmp_lock). */
void mp_tr_chan_peer_gone(struct mp_endpoint *ep);

#endif
