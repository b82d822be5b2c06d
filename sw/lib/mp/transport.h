/* The transport interface: how the API layer (mcapi.c) reaches a transport, and the only way
 * it does. Two implementations: the software protocol on the baseline adapter (transport_base.c
 * over transport_sw.h) and the NAMP (transport_namp.c, which extends the former). A transport
 * gets endpoints, lookups and statistics from endpoints.h, never from the API layer. */
#ifndef MP_TRANSPORT_H
#define MP_TRANSPORT_H

#include "endpoints.h"

/* Transport interface (the software protocol on the baseline adapter: transport_sw.c). All calls
 * come from core 0 in thread context with interrupts enabled. Return MCAPI status codes. */
/* MCAPI_SUCCESS, or an error (MCAPI_ERR_NOT_SUPPORTED: the transport's hardware is missing; then
 * nothing of the adapter has been touched). */
mcapi_status_t mp_tr_init(void);
/* Called once at the start of every progress pass over the pending requests: the transport may
 * sample its hardware once for all of them (the NAMP transport reads the DONE summary). */
void mp_tr_poll(void);
/* One lookup try: MCAPI_SUCCESS and out->addr, out->id, out->geometry; MCAPI_ERR_ENDP_INVALID
 * when the tile has no such port (yet); MCAPI_TIMEOUT when the tile did not answer within
 * timeout_us (0: wait for the answer). */
mcapi_status_t mp_tr_lookup(uint32_t node, uint32_t port, uint32_t timeout_us,
                            struct mp_ephandle *out);
/* Blocking sends (the blocking API calls): connection-less message to the endpoint at `addr` in
 * tile `node` (allocation with NACK back-off, data, completion), and a packet on a connected
 * channel (waits for its turn and a credit). Return when the completion has been sent. */
mcapi_status_t mp_tr_msg_send(struct mp_endpoint *src, const struct mp_ephandle *dst,
                              const void *buf, uint32_t size);
mcapi_status_t mp_tr_chan_send(struct mp_endpoint *ep, const void *buf, uint32_t size);
/* Non-blocking sends (connection-less message: r->ep == NULL, destination r->dst_h (node
 * r->dst_node, endpoint address r->dst_addr); channel
 * packet: r->ep = the connected send endpoint), payload r->op_buf/r->op_size. start returns an
 * error or MCAPI_SUCCESS (then the request is under way); progress runs what can run now and
 * returns 1 when the send is complete (result in r->op_status); hint returns 1 if progress could
 * advance now, else 0 and lowers *wake to the mtime at which it could (back-off). */
mcapi_status_t mp_tr_send_start(mcapi_request_t *r);
int mp_tr_send_progress(mcapi_request_t *r);
int mp_tr_send_hint(const mcapi_request_t *r, uint64_t *wake);
/* Allocation requests of other nodes this node refused because the receive buffer was full (they
 * ask again): the software protocol counts them (mp_stats.refused), the NAMP's target in
 * NA_NAMP_REFUSED. Wraps. */
uint32_t mp_tr_refused(void);
/* Fill in the hardware part of a new local endpoint / remote handle (NAMP; no-ops otherwise). */
void mp_tr_endpoint_init(struct mp_endpoint *ep);
void mp_tr_handle_init(struct mp_ephandle *h);
/* Connects local send endpoint ep to the remote receive endpoint dst (blocking; MCAPI_TIMEOUT if
 * dst's tile does not answer within timeout_us, 0: wait). The receiver refuses a dst->id that is
 * not its endpoint's (MCAPI_ERR_ENDP_INVALID) and, for_task, an endpoint whose owner has not asked
 * to open it (MCAPI_ERR_CHAN_NOTOPEN). */
mcapi_status_t mp_tr_connect(struct mp_endpoint *ep, const struct mp_ephandle *dst,
                             uint32_t timeout_us, uint32_t for_task);
/* Receiver released one slot of channel endpoint ep (credit return after half the window). */
void mp_tr_chan_released(struct mp_endpoint *ep);
/* Endpoint deletion (thread context, ep->state no longer READY). closing: stops the endpoint's
 * own transfers (NAMP: CCM and buffered slots), tells the sender of a connected channel that the
 * receive endpoint is gone; returns 1 if the buffers may be freed now, 0 if a peer may still
 * write into them (quarantine). reapable: 1 once a quarantined endpoint's buffers are quiet. */
int mp_tr_endpoint_closing(struct mp_endpoint *ep);
int mp_tr_endpoint_reapable(struct mp_endpoint *ep);
/* ep changes its send mode (NAMP: unbuffered, buffered, CCM): the transfers of the old mode
 * finish first, so that a send in the new mode cannot overtake them. Returns the error of a
 * failed one (buffered and CCM sends return before their transfer), else MCAPI_SUCCESS. */
mcapi_status_t mp_tr_send_mode_leave(struct mp_endpoint *ep);
/* mp_tr_chan_peer_gone: mp/kernel.h (the kernel calls it too). */
#endif
