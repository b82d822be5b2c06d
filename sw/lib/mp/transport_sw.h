/* The software transport (transport_sw.c, compiled once): the set-up protocol (lookup, connect,
 * revoke, "stopped") and the progress engine on the baseline adapter's raw NoC buffers, and the
 * baseline's data paths (buffer, RMA, RDMA). Two transports are built on it: the baseline's
 * (transport_base.c: the transport interface, transport.h, over these calls) and the NAMP's
 * (transport_namp.c: its own data path, the set-up from here), which extends it through struct
 * mp_sw_ext. It depends on this contract and endpoints.h only: never on a transport above it. */
#ifndef MP_TRANSPORT_SW_H
#define MP_TRANSPORT_SW_H

#include "endpoints.h"

/* What a transport built on the software transport adds to it. */
struct mp_sw_ext {
    /* The adapter interrupt sources it needs besides the base's, and its part of the interrupt
     * handler (active: the pending sources). */
    uint32_t irq_mask;
    void (*irq)(uint32_t active);
    /* Address a CONNECT_REQ carries for the sending endpoint ep, and the sending endpoint of a
     * channel by that address (the receiver's side of the connect). */
    uint32_t (*connect_sender_addr)(struct mp_endpoint *ep);
    struct mp_endpoint *(*chan_sender)(uint32_t addr);
    /* The receiving side channel sender ep sends to now: tile and endpoint address (NAMP-PS
     * rewrites the sender's handle when the receiver moves; the library's peer fields keep the
     * connect's). */
    void (*chan_peer)(const struct mp_endpoint *ep, uint32_t *node, uint32_t *addr);
    /* ep became the receiving side of a channel. */
    void (*chan_accepted)(struct mp_endpoint *ep);
    /* A channel's sending side closes (endpoint deletion): its "stopped", once none of its sends
     * is under way in the transport (mp_sw_chan_peer_gone when the base alone sends). */
    void (*chan_peer_gone)(struct mp_endpoint *ep);
};

/* ---- the calls (as the transport interface's of the same name, transport.h) */
/* ext: the transport built on it (NULL: the baseline alone). */
mcapi_status_t mp_sw_init(const struct mp_sw_ext *ext);
mcapi_status_t mp_sw_lookup(uint32_t node, uint32_t port, uint32_t timeout_us,
                            struct mp_ephandle *out);
mcapi_status_t mp_sw_connect(struct mp_endpoint *ep, const struct mp_ephandle *dst,
                             uint32_t timeout_us, uint32_t for_task);
mcapi_status_t mp_sw_msg_send(struct mp_endpoint *src, const struct mp_ephandle *dst,
                              const void *buf, uint32_t size);
mcapi_status_t mp_sw_chan_send(struct mp_endpoint *ep, const void *buf, uint32_t size);
mcapi_status_t mp_sw_send_start(mcapi_request_t *r);
int mp_sw_send_progress(mcapi_request_t *r);
int mp_sw_send_hint(const mcapi_request_t *r, uint64_t *wake);
void mp_sw_chan_released(struct mp_endpoint *ep);
int mp_sw_endpoint_closing(struct mp_endpoint *ep);
int mp_sw_endpoint_reapable(struct mp_endpoint *ep);
void mp_sw_chan_peer_gone(struct mp_endpoint *ep);
/* The set-up protocol's "stopped" to receive endpoint addr on tile node, sent now: for a sending
 * side the library does not hold as an endpoint (a migrated task's channel handle, kmp_task.c).
 * The receiver takes it only from the tile its channel names as the sender's. */
void mp_sw_chan_stopped_to(uint32_t node, uint32_t addr);

#endif
