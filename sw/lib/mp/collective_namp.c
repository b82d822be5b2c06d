/* Collectives over the NAMP transport: a multicast group runs as one collective slot (NAMP-CC,
 * docs/namp.md "Collective communication") when the adapter has multicast and nothing else of
 * the library could be overtaken: no non-blocking send under way, unbuffered sending endpoints,
 * remote members only. Otherwise the caller takes the software loop. */
#include "collective_internal.h"
#include "mp_internal.h"
#include "namp/namp.h"
#include "namp_cc.h"

#include "transport_namp.h"

uint32_t mp_cc_hw_features(void)
{
    return (namp_features() << 8) &
           (NA_FEATURE_NAMP_CC_MCAST | NA_FEATURE_NAMP_CC_SG | NA_FEATURE_NAMP_CC_RED);
}

static int unbuffered(const struct mp_endpoint *ep)
{
    return !(ep->tx && (ep->send_mode != MP_SEND_UNBUFFERED || ep->ccm_slot >= 0));
}

/* Can the adapter take this send now? */
static int hw_eligible(const mcapix_mcast_group_t *g, uint32_t size)
{
    uint32_t need = g->scatter ? NA_FEATURE_NAMP_CC_SG : NA_FEATURE_NAMP_CC_MCAST;
    if (!(mp_cc_hw_features() & need) || !mp_namp_sends_idle())
        return 0;
    if (!g->channel) {
        const struct mp_endpoint *src = g->send_endpoint->local;
        /* a local member: the library delivers it itself (software loop) */
        return src && src->state == MP_EP_READY && unbuffered(src) && g->remote_only;
    }
    for (uint32_t i = 0; i < g->num; ++i) {
        const struct mp_endpoint *ep = g->chans[i];
        /* a scatter member receives count chunks of its size */
        uint32_t bytes =
            g->scatter ? g->count * g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_SIZE) / 4] : size;
        if (ep->state != MP_EP_READY || !(ep->flags & MP_EPF_OPEN) ||
            (ep->flags & MP_EPF_PEER_GONE) || !unbuffered(ep) || bytes > (1u << ep->rmsg_log2))
            return 0;
    }
    return 1;
}

int mp_cc_hw_mcast(mcapix_mcast_group_t *g, const void *buf, uint32_t size, mcapi_status_t *st)
{
    if (!hw_eligible(g, size))
        return 0;
    if (g->channel) /* the channel's send order: this send takes its turn on every member */
        for (uint32_t i = 0; i < g->num; ++i) {
            struct mp_endpoint *ep = g->chans[i];
            uint32_t ticket = ep->chan_ticket++;
            MP_WAIT_UNTIL(ep->chan_serving == ticket);
        }
    uint32_t err = mp_namp_run_cc(NAMP_FLAG_CC | (g->channel ? NAMP_FLAG_CON : 0u),
                                  (uint32_t)(uintptr_t)g->desc, buf, size);
    if (g->channel)
        for (uint32_t i = 0; i < g->num; ++i) {
            struct mp_endpoint *ep = g->chans[i];
            ep->chan_serving++;
            if (ep->flags & MP_EPF_PEER_GONE)
                mp_tr_chan_peer_gone(ep); /* revoked while this send was under way */
        }
    g->hw_code = err;
    *st = MCAPI_SUCCESS;
    if (err) /* the first member that failed (all of them when the slot was refused) */
        for (uint32_t i = 0; i < g->num && *st == MCAPI_SUCCESS; ++i)
            *st = mp_cc_hw_member_status(g, i);
    return 1;
}

mcapi_status_t mp_cc_hw_member_status(const mcapix_mcast_group_t *g, uint32_t i)
{
    /* a member failed: its own code; the whole slot refused or failed: the slot's code */
    uint32_t code = g->hw_code == NAMP_ERR_CC_MEMBER
                        ? NAMP_CC_MSTAT_CODE(g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_STATUS) / 4])
                        : g->hw_code;
    return mp_namp_map_error(code);
}

/* ---- reduction ---- */
int mp_cc_hw_reduce_send(mcapix_reduce_tx_t *r, const void *buf, uint32_t size, mcapi_status_t *st)
{
    const struct mp_endpoint *src = r->send_endpoint->local;
    if (!(mp_cc_hw_features() & NA_FEATURE_NAMP_CC_RED) || !mp_namp_sends_idle() || !src ||
        src->state != MP_EP_READY || !unbuffered(src))
        return 0;
    uint32_t err = mp_namp_run_cc(NAMP_FLAG_CC, (uint32_t)(uintptr_t)r->desc, buf, size);
    if (err == NAMP_ERR_CC_MEMBER)
        err = NAMP_CC_MSTAT_CODE(r->desc[(NAMP_CC_MEMBER(0) + NAMP_CC_M_STATUS) / 4]);
    *st = mp_namp_map_error(err);
    return 1;
}

int mp_cc_hw_reduce_rx(mcapix_reduce_rx_t *r)
{
    struct mp_endpoint *ep = r->endpoint->local;
    if (!(mp_cc_hw_features() & NA_FEATURE_NAMP_CC_RED) || !ep->rx ||
        ep->rx->capacity_log2 > MCAPIX_REDUCE_RX_MAX_CAP_LOG2)
        return 0;
    ep->hw[NAMP_EP_CC / 4] = (uint32_t)(uintptr_t)r->desc;
    return 1;
}

/* ---- gather ---- */
int mp_cc_hw_gather_send(mcapix_gather_tx_t *r, const void *buf, mcapi_status_t *st)
{
    const struct mp_endpoint *src = r->send_endpoint->local;
    if (!(mp_cc_hw_features() & NA_FEATURE_NAMP_CC_SG) || !mp_namp_sends_idle() || !src ||
        src->state != MP_EP_READY || !unbuffered(src))
        return 0;
    r->handle[NAMP_H_CREDITS / 4] = 0xFFFFFFFFu; /* unlimited: the allocation protects the root */
    uint32_t err = mp_namp_run_cc(NAMP_FLAG_CC | NAMP_FLAG_CON, (uint32_t)(uintptr_t)r->desc, buf,
                                  r->count * r->chunk);
    if (err == NAMP_ERR_CC_MEMBER)
        err = NAMP_CC_MSTAT_CODE(r->desc[(NAMP_CC_MEMBER(0) + NAMP_CC_M_STATUS) / 4]);
    *st = mp_namp_map_error(err);
    return 1;
}

int mp_cc_hw_gather_rx(mcapix_gather_rx_t *r)
{
    struct mp_endpoint *ep = r->endpoint->local;
    if (!(mp_cc_hw_features() & NA_FEATURE_NAMP_CC_SG) || !ep->rx ||
        ep->rx->capacity_log2 > MCAPIX_REDUCE_RX_MAX_CAP_LOG2 ||
        r->msg_size > (1u << ep->rx->max_msg_log2))
        return 0;
    ep->hw[NAMP_EP_CC / 4] = (uint32_t)(uintptr_t)r->desc;
    return 1;
}
