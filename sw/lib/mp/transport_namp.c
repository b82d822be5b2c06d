/* NAMP transport (thesis 3.2.3-3.2.5): the message transfers run in the network adapter's
 * protocol engine, programmed through its slots (sw/lib/namp driver); endpoints and remote
 * handles are in the hardware layout (namp_structs.h) at the start of struct mp_endpoint / struct
 * mp_ephandle. Set-up stays in software (thesis 3.2.3): endpoint lookup and channel connect use
 * the baseline protocol (types 1..10) over the raw NoC buffers, handled by the progress engine of
 * transport_sw.c, built here with MP_SW_BASE.
 *
 * Sends: connection-less messages and channel packets are unbuffered sends (PARAM2/3 = data,
 * size) from the caller's buffer; completion by the NAMP_DONE interrupt (IEN), the core sleeps in
 * wfi meanwhile. Channel receive: zero copy from the endpoint buffer; after half the window of
 * releases a credit slot (CoM) returns the credits to the sender's endpoint. The receive counter
 * interrupt wakes receivers sleeping in wfi. Order: sends to one destination are started one at a
 * time in call order (a later slot could otherwise win the allocation), sends to different
 * destinations run in parallel in as many slots as the NAMP has. */
#include <string.h>

#include "mp/proto.h"
#include "mp_internal.h"
#include "namp/namp.h"

mcapi_status_t mp_sw_connect(struct mp_endpoint *ep, const struct mp_ephandle *dst);
void mp_sw_init(void);

/* ---------------------------------------------------------------- hardware layouts
 * Provisional layout until namp_structs.h exists (then the accessors below map onto it):
 *   handle:   [0] tile, [1] endpoint address in that tile, channel: [2] credits address (local
 *             send endpoint), [3] remote data block, [4] (m << 8) | n, [5] next remote index
 *   endpoint: [0] receive buffer, [1] send buffer, [2] credits, [3] flags */
#define H_TILE 0
#define H_EP 1
#define H_CREDITS 2
#define H_RDATA 3
#define H_GEOM 4
#define H_IDX 5
#define E_RX 0
#define E_TX 1
#define E_CREDITS 2
#define E_FLAGS 3

static uint32_t nslots;
static volatile uint32_t rx_arrived;   /* messages reported by the receive counter */
static int use_irq = 1;

void mp_tr_handle_init(struct mp_ephandle *h)
{
    memset(h->hw, 0, sizeof h->hw);
    h->hw[H_TILE] = h->node;
    h->hw[H_EP] = h->addr;
}

void mp_tr_endpoint_init(struct mp_endpoint *ep)
{
    memset(ep->hw, 0, sizeof ep->hw);
    ep->hw[E_RX] = (uint32_t)(uintptr_t)ep->rx;
    ep->hw[E_TX] = (uint32_t)(uintptr_t)ep->tx;
    mp_tr_handle_init(&ep->h);
}

void mp_namp_irq(uint32_t active) { namp_irq(active, (uint32_t *)&rx_arrived); }
uint32_t mp_namp_irq_mask(void) { return NA_IRQ_SRC_NAMP_DONE | NA_IRQ_SRC_RX_COUNT; }

void mp_tr_init(void)
{
    nslots = namp_init();
    mp_sw_init();
}


/* STATUS error code of a refused configuration or a failed transfer -> MCAPI status. */
static mcapi_status_t map_error(uint32_t code)
{
    if (code == 0)
        return MCAPI_SUCCESS;
#ifdef NAMP_ERR_MODE_UNSUPPORTED
    if (code == NAMP_ERR_MODE_UNSUPPORTED)
        return MCAPI_ERR_NOT_SUPPORTED;
#endif
#ifdef NAMP_ERR_TOO_LARGE
    if (code == NAMP_ERR_TOO_LARGE)
        return MCAPI_ERR_MSG_SIZE;
#endif
#ifdef NAMP_ERR_NO_ENDPOINT
    if (code == NAMP_ERR_NO_ENDPOINT)
        return MCAPI_ERR_ENDP_INVALID;
#endif
    return MCAPI_ERR_TRANSMISSION;
}

static uint32_t last_error;   /* raw STATUS code of the last failed slot (diagnostics) */
uint32_t mp_namp_last_error(void) { return last_error; }
void mp_namp_use_irq(int on) { use_irq = on; }

/* Waits for a slot (wfi: slot completions wake us) and runs a transfer to completion. */
static mcapi_status_t run_slot(uint32_t flags, const struct mp_ephandle *h, uint32_t p2,
                               uint32_t p3)
{
    if (nslots == 0)
        return MCAPI_ERR_NOT_SUPPORTED;
    int s;
    MP_WAIT_UNTIL((s = namp_slot_alloc()) >= 0);
    namp_slot_start((unsigned)s, flags | (use_irq ? NAMP_F_IEN : 0u), (uint32_t)(uintptr_t)h->hw,
                    p2, p3);
    uint32_t err;
    if (use_irq) {
        MP_WAIT_UNTIL(namp_slot_done((unsigned)s));
        err = namp_slot_finish((unsigned)s);
    } else {
        err = namp_slot_wait((unsigned)s, 0);
    }
    namp_slot_free((unsigned)s);
    if (err)
        last_error = err;
    return map_error(err);
}

mcapi_status_t mp_tr_msg_send(const struct mp_ephandle *dst, const void *buf, uint32_t size)
{
    return run_slot(0, dst, (uint32_t)(uintptr_t)buf, size);
}

mcapi_status_t mp_tr_connect(struct mp_endpoint *ep, const struct mp_ephandle *dst)
{
    mcapi_status_t st = mp_sw_connect(ep, dst);
    if (st != MCAPI_SUCCESS)
        return st;
    /* handle of the receive endpoint with the channel state the NAMP needs */
    ep->peer_h = *dst;
    mp_tr_handle_init(&ep->peer_h);
    ep->peer_h.hw[H_CREDITS] = (uint32_t)(uintptr_t)&ep->hw[E_CREDITS];
    ep->peer_h.hw[H_RDATA] = ep->rdata;
    ep->peer_h.hw[H_GEOM] = (ep->rmsg_log2 << 8) | ep->rcap_log2;
    ep->peer_h.hw[H_IDX] = ep->chan_idx;
    ep->hw[E_CREDITS] = ep->credits;
    return MCAPI_SUCCESS;
}

mcapi_status_t mp_tr_chan_send(struct mp_endpoint *ep, const void *buf, uint32_t size)
{
    if (size > (1u << ep->rmsg_log2))
        return MCAPI_ERR_PKT_SIZE;
    uint32_t ticket = ep->chan_ticket++;
    MP_WAIT_UNTIL(ep->chan_serving == ticket);
    mcapi_status_t st = run_slot(NAMP_F_CON, &ep->peer_h, (uint32_t)(uintptr_t)buf, size);
    ep->chan_serving++;
    return st;
}

/* ---------------------------------------------------------------- non-blocking sends */
enum { OP_TURN, OP_RUN, OP_DONE };
#define MAX_DST 16u
/* per destination (handle address): FIFO tickets so that sends to one endpoint start in order
 * and one at a time */
static struct { uintptr_t h; uint32_t ticket, serving; } dsts[MAX_DST];

static uint32_t *dst_serving(const struct mp_ephandle *h, uint32_t **ticket)
{
    uint32_t fr = MAX_DST;
    for (uint32_t i = 0; i < MAX_DST; ++i) {
        if (dsts[i].h == (uintptr_t)h) {
            *ticket = &dsts[i].ticket;
            return &dsts[i].serving;
        }
        if (fr == MAX_DST && dsts[i].ticket == dsts[i].serving)
            fr = i;
    }
    if (fr == MAX_DST)
        fr = 0;   /* cannot happen with at most 16 requests under way */
    dsts[fr].h = (uintptr_t)h;
    *ticket = &dsts[fr].ticket;
    return &dsts[fr].serving;
}

mcapi_status_t mp_tr_send_start(mcapi_request_t *r)
{
    if (nslots == 0)
        return MCAPI_ERR_NOT_SUPPORTED;
    if (r->ep && r->op_size > (1u << r->ep->rmsg_log2))
        return MCAPI_ERR_PKT_SIZE;
    uint32_t *ticket;
    dst_serving(r->dst_h, &ticket);
    r->op_ticket = (*ticket)++;
    r->op = OP_TURN;
    mp_tr_send_progress(r);
    return MCAPI_SUCCESS;
}

int mp_tr_send_progress(mcapi_request_t *r)
{
    uint32_t *ticket, *serving = dst_serving(r->dst_h, &ticket);
    for (;;) {
        switch (r->op) {
        case OP_TURN: {
            if (*serving != r->op_ticket)
                return 0;
            int s = namp_slot_alloc();
            if (s < 0)
                return 0;
            r->op_dma = (uint32_t)s;
            namp_slot_start((unsigned)s, (r->ep ? NAMP_F_CON : 0u) | NAMP_F_IEN,
                            (uint32_t)(uintptr_t)r->dst_h->hw, (uint32_t)(uintptr_t)r->op_buf,
                            r->op_size);
            r->op = OP_RUN;
            return 0;
        }
        case OP_RUN: {
            if (!namp_slot_done(r->op_dma))
                return 0;
            uint32_t err = namp_slot_finish(r->op_dma);
            namp_slot_free(r->op_dma);
            if (err)
                last_error = err;
            r->op_status = map_error(err);
            (*serving)++;
            r->op = OP_DONE;
            return 1;
        }
        default:
            return 1;
        }
    }
}

int mp_tr_send_hint(const mcapi_request_t *r, uint64_t *wake)
{
    (void)wake;
    uint32_t *ticket, *serving = dst_serving(r->dst_h, &ticket);
    switch (r->op) {
    case OP_TURN:
        return *serving == r->op_ticket && namp_slots_busy() != (1u << nslots) - 1u;
    case OP_RUN:
        return namp_slot_done(r->op_dma);
    default:
        return 1;
    }
}

/* ---------------------------------------------------------------- receive side */

void mp_tr_chan_released(struct mp_endpoint *ep)
{
    /* credits go back after half the window (thesis 3.2.2.1), through a credit slot (CoM) */
    if (++ep->released >= (mp_cbuffer_capacity(ep->rx) + 1u) / 2u) {
        uint32_t n = ep->released;
        ep->released = 0;
        if (ep->peer_h.hw[H_TILE] != ep->peer_node || ep->peer_h.hw[H_EP] != ep->peer_ep) {
            ep->peer_h.node = ep->peer_node;
            ep->peer_h.addr = ep->peer_ep;
            mp_tr_handle_init(&ep->peer_h);
        }
        run_slot(NAMP_F_COM, &ep->peer_h, n, 0);
    }
}
