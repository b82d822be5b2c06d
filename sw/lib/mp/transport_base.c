/* The baseline's transport (transport.h): the software transport alone (transport_sw.h), its
 * protocol and data paths on the baseline network adapter (thesis 3.2.2). */
#include "transport.h"
#include "transport_sw.h"

mcapi_status_t mp_tr_init(void) { return mp_sw_init(NULL); }
/* the baseline's completions come through its interrupt handler */
void mp_tr_poll(void) {}
uint32_t mp_tr_refused(void) { return mp_stats.refused; }
void mp_tr_endpoint_init(struct mp_endpoint *ep) { (void)ep; }
void mp_tr_handle_init(struct mp_ephandle *h) { (void)h; }
/* every send of the baseline completes in its call or in its request: nothing is left behind */
mcapi_status_t mp_tr_send_mode_leave(struct mp_endpoint *ep)
{
    (void)ep;
    return MCAPI_SUCCESS;
}

mcapi_status_t mp_tr_lookup(uint32_t node, uint32_t port, uint32_t timeout_us,
                            struct mp_ephandle *out)
{
    return mp_sw_lookup(node, port, timeout_us, out);
}
mcapi_status_t mp_tr_connect(struct mp_endpoint *ep, const struct mp_ephandle *dst,
                             uint32_t timeout_us, uint32_t for_task)
{
    return mp_sw_connect(ep, dst, timeout_us, for_task);
}
mcapi_status_t mp_tr_msg_send(struct mp_endpoint *src, const struct mp_ephandle *dst,
                              const void *buf, uint32_t size)
{
    return mp_sw_msg_send(src, dst, buf, size);
}
mcapi_status_t mp_tr_chan_send(struct mp_endpoint *ep, const void *buf, uint32_t size)
{
    return mp_sw_chan_send(ep, buf, size);
}
mcapi_status_t mp_tr_send_start(mcapi_request_t *r) { return mp_sw_send_start(r); }
int mp_tr_send_progress(mcapi_request_t *r) { return mp_sw_send_progress(r); }
int mp_tr_send_hint(const mcapi_request_t *r, uint64_t *wake) { return mp_sw_send_hint(r, wake); }
void mp_tr_chan_released(struct mp_endpoint *ep) { mp_sw_chan_released(ep); }
int mp_tr_endpoint_closing(struct mp_endpoint *ep) { return mp_sw_endpoint_closing(ep); }
int mp_tr_endpoint_reapable(struct mp_endpoint *ep) { return mp_sw_endpoint_reapable(ep); }
void mp_tr_chan_peer_gone(struct mp_endpoint *ep) { mp_sw_chan_peer_gone(ep); }
