/* The software transport as the base of another (built with MP_SW_BASE, under the NAMP
 * transport): what the base offers under its mp_sw_ names, and the extension points it calls,
 * which the transport built on it defines. The base depends only on this contract, not on the
 * transport above; the transport above implements it. */
#ifndef MP_TRANSPORT_SW_EXT_H
#define MP_TRANSPORT_SW_EXT_H

#include "endpoints.h"

/* ---- offered by the base (transport_sw.c): set-up protocol and progress engine */
mcapi_status_t mp_sw_init(void);
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

/* ---- extension points: defined by the transport built on the base */
/* The adapter interrupt sources the extension needs besides the base's, and its part of the
 * interrupt handler (active: the pending sources). */
uint32_t mp_sw_ext_irq_mask(void);
void mp_sw_ext_irq(uint32_t active);
/* Address a CONNECT_REQ carries for the sending endpoint ep, and the sending endpoint of a
 * channel by that address (the receiver's side of the connect). */
uint32_t mp_sw_ext_connect_sender_addr(struct mp_endpoint *ep);
struct mp_endpoint *mp_sw_ext_chan_sender(uint32_t addr);
/* The receiving side channel sender ep sends to now: tile and endpoint address (NAMP-PS rewrites
 * the sender's handle when the receiver moves; the library's peer fields keep the connect's). */
void mp_sw_ext_chan_peer(const struct mp_endpoint *ep, uint32_t *node, uint32_t *addr);
/* ep became the receiving side of a channel. */
void mp_sw_ext_chan_accepted(struct mp_endpoint *ep);

#endif
