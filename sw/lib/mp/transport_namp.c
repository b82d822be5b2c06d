/* NAMP transport (thesis 3.2.3-3.2.5): the message transfers run in the network adapter's
 * protocol engine, programmed through its slots (sw/lib/namp driver); endpoints and remote
 * handles are in the hardware layout (namp_structs.h) at the start of struct mp_endpoint / struct
 * mp_ephandle. Set-up stays in software (thesis 3.2.3): endpoint lookup and channel connect use
 * the baseline protocol (types 1..10) over the raw NoC buffers, handled by the progress engine of
 * the software transport (transport_sw.h), which this one extends (struct mp_sw_ext).
 *
 * Sends: connection-less messages and channel packets are unbuffered sends (PARAM2/3 = data,
 * size) from the caller's buffer; completion by the NAMP_DONE interrupt (IEN), the core sleeps in
 * wfi meanwhile. Channel receive: zero copy from the endpoint buffer; after half the window of
 * releases a credit slot (CoM) returns the credits to the sender's endpoint. The receive counter
 * interrupt wakes receivers sleeping in wfi. Order: the NAMP allocates the transfers of one
 * destination handle in the order their slots were started (docs/namp.md, "Initiator"), so sends to
 * one destination are started in call order and then run in parallel with each other and with
 * sends to other destinations, in as many slots as the NAMP has. */
#include <string.h>

#include "mp/proto.h"
#include "mp/copy.h"
#include "namp/namp.h"
#include "transport.h"
#include "transport_namp.h"
#include "transport_sw.h"
#include "namp_ps.h"

/* ---------------------------------------------------------------- hardware layouts
 * struct mp_endpoint starts with a namp_endpoint_t, struct mp_ephandle with a namp_handle_t
 * (namp_structs.h), so endpoint and handle addresses are what the NAMP reads. */
_Static_assert(sizeof(namp_endpoint_t) == MP_HW_ENDPOINT_WORDS * 4u, "endpoint layout");
_Static_assert(sizeof(namp_handle_t) == MP_HW_HANDLE_WORDS * 4u, "handle layout");
_Static_assert(__builtin_offsetof(struct mp_endpoint, hw) == 0, "endpoint hw first");
_Static_assert(__builtin_offsetof(struct mp_ephandle, hw) == 0, "handle hw first");

static inline namp_endpoint_t *hw_ep(struct mp_endpoint *ep) { return (namp_endpoint_t *)ep->hw; }
static inline namp_handle_t *hw_h(struct mp_ephandle *h) { return (namp_handle_t *)h->hw; }

static uint32_t nslots;
static uint32_t all_slots;      /* mask of the usable slots */
static uint32_t waiting_starts; /* non-blocking sends not started yet (all destinations) */
static uint32_t waiting_runs;   /* non-blocking sends started, not finished yet */
static void wait_turn(const struct mp_ephandle *h);
static volatile uint32_t rx_arrived; /* messages reported by the receive counter */
static int use_irq = 1;

void mp_tr_handle_init(struct mp_ephandle *h)
{
    namp_handle_t *x = hw_h(h);
    memset(x, 0, sizeof *x);
    x->id = h->id;
    x->tile = h->node;
    x->endpoint = h->addr;
}

void mp_tr_endpoint_init(struct mp_endpoint *ep)
{
    namp_endpoint_t *x = hw_ep(ep);
    x->state = NAMP_EP_STATE_FREE;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    x->id = ep->id;
    x->flags = NAMP_EP_F_NOTIFY;
    x->rx_buffer = (uint32_t)(uintptr_t)ep->rx;
    x->tx_buffer = (uint32_t)(uintptr_t)ep->tx;
    if (ep->rx_given) {
        /* a task's page: the target keeps every access in the buffer as created and counts its
         * allocations, so the kernel knows when the page is quiet (docs/namp.md "SV isolation") */
        x->flags |= NAMP_EP_F_GUARDED;
        x->rx_window = (uint32_t)mp_cbuffer_footprint(ep->rx_n, ep->rx_m);
    }
    x->rx_messages = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    x->state = ep->rx ? NAMP_EP_STATE_READY : NAMP_EP_STATE_DELETED;
    mp_tr_handle_init(&ep->h);
}

/* The endpoint became a channel's receiving side: the NAMP target refuses connection-less
 * messages to it (NACK NAMP_ERR_CHANNEL -> MCAPI_ERR_CHAN_CONNECTED, as the baseline answers). */
void mp_namp_chan_accepted(struct mp_endpoint *ep)
{
    hw_ep(ep)->flags |= NAMP_EP_F_CHANNEL;
    ep->voids_seen = ep->rx->voids;
}

/* Address the baseline CONNECT_REQ carries for the sending side: the sender's handle of the
 * receive endpoint, whose credit word the receiver's credit slots increase. */
static uint32_t connect_sender_addr(struct mp_endpoint *ep)
{
    return (uint32_t)(uintptr_t)ep->peer_h.hw;
}

/* The handle's pair as one RELOC left it (namp_handle_peer). */
static void chan_peer(const struct mp_endpoint *ep, uint32_t *node, uint32_t *addr)
{
    namp_handle_peer((const volatile namp_handle_t *)ep->peer_h.hw, node, addr);
}

static void irq(uint32_t active) { namp_irq(active, (uint32_t *)&rx_arrived); }
static struct mp_endpoint *chan_sender(uint32_t addr);

static const struct mp_sw_ext namp_ext = {
    .irq_mask = NA_IRQ_SRC_NAMP_DONE | NA_IRQ_SRC_RX_COUNT,
    .irq = irq,
    .connect_sender_addr = connect_sender_addr,
    .chan_sender = chan_sender,
    .chan_peer = chan_peer,
    .chan_accepted = mp_namp_chan_accepted,
    .chan_peer_gone = mp_tr_chan_peer_gone,
};

mcapi_status_t mp_tr_init(void)
{
    /* Without a NAMP the adapter refuses the NAMP interrupt sources (a store access fault in the
     * mask write of mp_sw_init): report the missing hardware before touching anything. */
    nslots = namp_init();
    if (nslots == 0)
        return MCAPI_ERR_NOT_SUPPORTED;
    all_slots = nslots >= 32u ? 0xFFFFFFFFu : (1u << nslots) - 1u;
    return mp_sw_init(&namp_ext);
}

mcapi_status_t mp_tr_lookup(uint32_t node, uint32_t port, uint32_t timeout_us,
                            struct mp_ephandle *out)
{
    return mp_sw_lookup(node, port, timeout_us, out);
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
    if (code == NAMP_ERR_CLOSED)
        return MCAPI_ERR_CHAN_INVALID; /* the receiving side deleted its endpoint */
    if (code == NAMP_ERR_CHANNEL)
        return MCAPI_ERR_CHAN_CONNECTED; /* as the baseline's NACK: the endpoint is a channel's */
    return MCAPI_ERR_TRANSMISSION;
}

static uint32_t last_error; /* raw STATUS code of the last failed slot (diagnostics) */
uint32_t mcapix_namp_last_error(void) { return last_error; }
/* Completion of blocking unbuffered sends: 0 polling DONE, 1 wfi woken by the NAMP_DONE line
 * without a trap (default), 2 wfi + the interrupt handler. */
void mcapix_namp_completion(int mode) { use_irq = mode; }

/* Waits for a slot (wfi: slot completions wake us) and runs a transfer to completion. */
static mcapi_status_t run_slot(uint32_t flags, const struct mp_ephandle *h, uint32_t p2,
                               uint32_t p3)
{
    if (nslots == 0)
        return MCAPI_ERR_NOT_SUPPORTED;
    if (waiting_starts)
        wait_turn(h);   /* earlier non-blocking sends to h start first (MCAPI order) */
    if (use_irq == 1) { /* lean path: one driver call */
        int32_t e;
        while ((e = namp_run(flags, (uint32_t)(uintptr_t)h->hw, p2, p3, &mp_stats.idle_cycles)) < 0)
            MP_WAIT_UNTIL(namp_slots_busy() != all_slots);
        if (e)
            last_error = (uint32_t)e;
        return map_error((uint32_t)e);
    }
    int s;
    MP_WAIT_UNTIL((s = namp_slot_alloc()) >= 0);
    namp_slot_start((unsigned)s, flags | (use_irq ? NAMP_F_IEN : 0u), (uint32_t)(uintptr_t)h->hw,
                    p2, p3);
    uint32_t err;
    if (use_irq == 2) { /* through the interrupt handler */
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

/* ---------------------------------------------------------------- buffered and CCM sends
 * Buffered (Table 3.2c 0/CON/1/0): the payload is pushed into the endpoint's send buffer
 * (reserve + copy + commit), the slot gets buffer + index and the call returns (implicit
 * completion: the NAMP takes the element by moving rd_idx, frees it after the transfer and clears
 * VALID itself). The NAMP takes only the element at rd_idx (else SEND_EMPTY), so a send waits
 * until the NAMP has freed the previous element of this endpoint: buffered sends of one endpoint
 * are serialized, which also keeps their order.
 * CCM (0/CON/1/1, channels and connection-less messages): one slot per send endpoint streams
 * the send buffer to one destination; a send is a push into the buffer (the NAMP pops in order;
 * connection-less: each message with its own allocation, NACK/retry in hardware). A send to
 * another destination drains the buffer, leaves CCM and enters it again for the new one. */

/* Records a failed slot's STATUS code and maps it. */
static mcapi_status_t slot_error(uint32_t err)
{
    last_error = err;
    return map_error(err);
}

/* Error code of a failed buffered (implicitly completed) slot, 0 if none. The finished slots are
 * taken back first, so a failure is seen as soon as the NAMP reports it. Interrupts may be off. */
static uint32_t implicit_failure(struct mp_endpoint *ep)
{
    /* reclaims finished implicit slots, records their errors per owner, takes ep's */
    return namp_implicit_error_of((uintptr_t)ep);
}

/* Drops the elements of a send buffer that no slot will send any more (after a failure): the
 * caller gets the error instead, and the buffer is usable again. */
static void tx_drop_pending(mp_cbuffer_t *b)
{
    uint32_t idx;
    while (mp_cbuffer_read(b, &idx) == 0)
        mp_cbuffer_free(b, idx);
}

/* Sleeps until the NAMP has freed element idx (the slot runs with IEN: its DONE wakes us). Way
 * out: a failed buffered slot (a slot that fails before taking its element never frees it).
 * Returns 0 or that slot's error code. The failure check comes first: it takes finished slots
 * back, which clears their DONE (no interrupt follows), and the NAMP frees the element before it
 * sets DONE, so the element is seen free after it. */
static uint32_t wait_freed(struct mp_endpoint *ep, uint32_t idx)
{
    volatile uint32_t *sz = &mp_cbuffer_sizes(ep->tx)[mp_cbuffer_slot_of(ep->tx, idx)];
    uint32_t err = 0;
    MP_WAIT_UNTIL((err = implicit_failure(ep)) != 0 || *sz == 0);
    return err;
}

/* Waits until the NAMP may take the next element of ep's send buffer: a channel send until the
 * previous element is taken (credits guarantee the allocations, so slots may overlap), a
 * connection-less send until it is freed (one allocation at a time keeps the order). Returns 0
 * or the error code of a failed buffered slot. */
static uint32_t buffered_turn(struct mp_endpoint *ep, uint32_t con)
{
    if (!ep->last_tx)
        return 0;
    if (!con)
        return wait_freed(ep, ep->last_tx - 1u);
    uint32_t err = 0;
    while (ep->tx->rd_idx != ep->last_tx && (err = implicit_failure(ep)) == 0)
        ; /* taking an element raises no interrupt: poll */
    return err;
}

/* Reserves the next send-buffer element, sleeping while the buffer is full (a slot's DONE wakes
 * us). Returns 0 or the error code of a failed buffered slot. */
static uint32_t tx_reserve(struct mp_endpoint *ep, uint32_t *idx)
{
    mp_cbuffer_t *b = ep->tx;
    uint32_t err = 0;
    while (mp_cbuffer_reserve(b, idx) != 0) {
        MP_WAIT_UNTIL((err = implicit_failure(ep)) != 0 || /* first: see wait_freed */
                      mp_cbuffer_sizes(b)[mp_cbuffer_slot_of(b, b->wr_idx)] == 0);
        if (err)
            return err;
    }
    return 0;
}

static mcapi_status_t buffered_send(struct mp_endpoint *ep, const struct mp_ephandle *dst,
                                    uint32_t con, const void *buf, uint32_t size)
{
    mp_cbuffer_t *b = ep->tx;
    if (size > mp_cbuffer_slot_bytes(b))
        return con ? MCAPI_ERR_PKT_SIZE : MCAPI_ERR_MSG_SIZE;
    if (nslots == 0)
        return MCAPI_ERR_NOT_SUPPORTED;
    /* an earlier buffered send failed (reported here: buffered sends return before the
     * transfer), or fails while we wait for our turn */
    uint32_t e = implicit_failure(ep);
    uint32_t idx = 0;
    if (!e)
        e = buffered_turn(ep, con);
    if (!e)
        e = tx_reserve(ep, &idx);
    if (e) {
        tx_drop_pending(b);
        ep->last_tx = 0;
        return slot_error(e);
    }
    mp_copy(mp_cbuffer_data(b, idx), buf, size);
    mp_cbuffer_commit(b, idx, size);
    int s;
    MP_WAIT_UNTIL((s = namp_slot_alloc()) >= 0);
    namp_slot_start((unsigned)s, NAMP_F_BUF | NAMP_F_IEN | (con ? NAMP_F_CON : 0u),
                    (uint32_t)(uintptr_t)dst->hw, (uint32_t)(uintptr_t)b, idx);
    uint32_t st = namp_slot_status((unsigned)s);
    if (st & NAMP_STATUS_ERROR) { /* refused configuration: reported at once */
        uint32_t err = namp_slot_finish((unsigned)s);
        namp_slot_free((unsigned)s);
        tx_drop_pending(b); /* the element the NAMP did not take */
        return slot_error(err);
    }
    namp_slot_implicit_for((unsigned)s, (uintptr_t)ep); /* its failure is ep's to report */
    ep->last_tx = idx + 1u;
    return MCAPI_SUCCESS;
}

/* Frees ep's finished CCM slot; after a failure the elements it did not send are dropped and the
 * caller gets the error. */
static mcapi_status_t ccm_finish(struct mp_endpoint *ep)
{
    unsigned s = (unsigned)ep->ccm_slot;
    uint32_t err = namp_slot_finish(s);
    namp_slot_free(s);
    ep->ccm_slot = -1;
    if (!err)
        return MCAPI_SUCCESS;
    tx_drop_pending(ep->tx);
    return slot_error(err);
}

/* SUCCESS while ep's CCM slot runs. While CCM is set only a failure ends the slot: then it is
 * finished and its error returned. */
static mcapi_status_t ccm_check(struct mp_endpoint *ep)
{
    if (!namp_slot_done((unsigned)ep->ccm_slot))
        return MCAPI_SUCCESS;
    mcapi_status_t st = ccm_finish(ep);
    return st == MCAPI_SUCCESS ? MCAPI_ERR_TRANSMISSION : st;
}

/* Drains the send buffer and leaves CCM (another destination, or another send mode: the CCM slot
 * must not keep popping the send buffer that buffered sends use). A failed slot ends the drain
 * (it sends nothing more) and its error is returned; so does a revoked channel (its receive
 * endpoint was deleted: the slot waits for a credit that never comes, leaving finishes it at once
 * and the elements are dropped). */
__attribute__((noinline, cold)) static mcapi_status_t ccm_leave(struct mp_endpoint *ep)
{
    unsigned s = (unsigned)ep->ccm_slot;
    while (mp_cbuffer_used(ep->tx) != 0 && !namp_slot_done(s) && !(ep->flags & MP_EPF_PEER_GONE))
        ; /* no interrupt when an element is taken: poll */
    namp_ccm_stop(s);
    while (!namp_slot_done(s))
        ; /* the current transfer completes (DONE), or fails (DONE + ERROR) */
    mcapi_status_t st = ccm_finish(ep);
    if (st == MCAPI_SUCCESS && (ep->flags & MP_EPF_PEER_GONE)) {
        tx_drop_pending(ep->tx);
        st = MCAPI_ERR_CHAN_INVALID;
    }
    return st;
}

static mcapi_status_t ccm_send(struct mp_endpoint *ep, const struct mp_ephandle *dst, uint32_t con,
                               const void *buf, uint32_t size)
{
    mp_cbuffer_t *b = ep->tx;
    if (size > mp_cbuffer_slot_bytes(b))
        return con ? MCAPI_ERR_PKT_SIZE : MCAPI_ERR_MSG_SIZE;
    if (nslots == 0)
        return MCAPI_ERR_NOT_SUPPORTED;
    if (ep->ccm_slot >= 0 && ep->ccm_dst != dst) {
        /* another destination: drain the buffer, leave CCM */
        mcapi_status_t st = ccm_leave(ep);
        if (st != MCAPI_SUCCESS)
            return st;
    }
    if (ep->ccm_slot < 0) {
        int s;
        MP_WAIT_UNTIL((s = namp_slot_alloc()) >= 0);
        namp_send_ccm((unsigned)s, con, 0, (uint32_t)(uintptr_t)dst->hw, b);
        ep->ccm_slot = s;
        ep->ccm_dst = dst;
    }
    /* full: the NAMP drains it, unless the slot failed (then it never will) */
    mcapi_status_t st;
    while ((st = ccm_check(ep)) == MCAPI_SUCCESS && mp_cbuffer_push(b, buf, size) != 0)
        ;
    return st;
}

__attribute__((noinline)) static mcapi_status_t send_mode_slow(struct mp_endpoint *src,
                                                               const struct mp_ephandle *dst,
                                                               uint32_t con, const void *buf,
                                                               uint32_t size, int *done)
{
    *done = 1;
    if (src->ccm_slot >= 0 && src->send_mode != MP_SEND_CCM) {
        mcapi_status_t st = ccm_leave(src); /* the mode was changed after CCM sends */
        if (st != MCAPI_SUCCESS)
            return st;
    }
    if (src->send_mode == MP_SEND_BUFFERED)
        return buffered_send(src, dst, con, buf, size);
    /* CCM: channels and connection-less messages (thesis 3.2.4.3: one remote endpoint, each
     * message with its own allocation); another destination leaves CCM and enters it again */
    if (src->send_mode == MP_SEND_CCM)
        return ccm_send(src, dst, con, buf, size);
    *done = 0;
    return MCAPI_SUCCESS;
}

/* Unbuffered sends (the common case) stay inline in the callers. */
static inline __attribute__((always_inline)) mcapi_status_t
send_mode_dispatch(struct mp_endpoint *src, const struct mp_ephandle *dst, uint32_t con,
                   const void *buf, uint32_t size, int *done)
{
    if (!src || !src->tx || (src->send_mode == MP_SEND_UNBUFFERED && src->ccm_slot < 0)) {
        *done = 0;
        return MCAPI_SUCCESS;
    }
    return send_mode_slow(src, dst, con, buf, size, done);
}

__attribute__((noinline)) static mcapi_status_t msg_send_moded(struct mp_endpoint *src,
                                                               const struct mp_ephandle *dst,
                                                               const void *buf, uint32_t size)
{
    int done;
    mcapi_status_t st = send_mode_slow(src, dst, 0, buf, size, &done);
    if (done)
        return st;
    return run_slot(0, dst, (uint32_t)(uintptr_t)buf, size);
}

mcapi_status_t mp_tr_msg_send(struct mp_endpoint *src, const struct mp_ephandle *dst,
                              const void *buf, uint32_t size)
{
    if (src && src->tx && (src->send_mode != MP_SEND_UNBUFFERED || src->ccm_slot >= 0))
        return msg_send_moded(src, dst, buf, size);
    return run_slot(0, dst, (uint32_t)(uintptr_t)buf, size);
}

mcapi_status_t mp_tr_connect(struct mp_endpoint *ep, const struct mp_ephandle *dst,
                             uint32_t timeout_us, uint32_t for_task)
{
    /* the handle must exist before the request names its address */
    ep->peer_h = *dst;
    ep->peer_h.local = NULL;
    mp_tr_handle_init(&ep->peer_h);
    mcapi_status_t st = mp_sw_connect(ep, dst, timeout_us, for_task);
    if (st != MCAPI_SUCCESS)
        return st;
    /* the handle of the receive endpoint carries the channel's credits (the NAMP consumes them,
     * the receiver's credit slots add to them) and, for the fast path without allocation round
     * trip (thesis Fig. 3.19), the receive buffer's data address, geometry and next element
     * index from the CONNECT_ACK: the NAMP computes each element itself */
    namp_handle_t *x = hw_h(&ep->peer_h);
    x->credits = ep->credits;
    x->rdata = ep->rdata;
    x->wr_idx = ep->chan_idx;
    x->flags = NAMP_H_F_CONNECTED | NAMP_H_F_DIRECT | NAMP_H_GEOMETRY(ep->rcap_log2, ep->rmsg_log2);
    /* NAMP-PS: the handle's own reserved words are its dualcast block (namp_ps.h), so that the
     * receiving side can be migrated with dualcasting */
    if (namp_features() & (NA_FEATURE_NAMP_PS >> 8))
        x->dualcast = (uint32_t)(uintptr_t)x + NAMP_H_RESERVED;
    return MCAPI_SUCCESS;
}

/* Out of line: the wait loop would make every send save and restore eight registers. */
__attribute__((noinline)) static void chan_turn_wait(struct mp_endpoint *ep, uint32_t ticket)
{
    MP_WAIT_UNTIL(ep->chan_serving == ticket);
}

mcapi_status_t mp_tr_chan_send(struct mp_endpoint *ep, const void *buf, uint32_t size)
{
    if (size > (1u << ep->rmsg_log2))
        return MCAPI_ERR_PKT_SIZE;
    uint32_t ticket = ep->chan_ticket++;
    if (ep->chan_serving != ticket) /* once it is our turn nothing takes it back */
        chan_turn_wait(ep, ticket);
    int done;
    mcapi_status_t st = send_mode_dispatch(ep, &ep->peer_h, 1, buf, size, &done);
    if (!done)
        st = run_slot(NAMP_F_CON, &ep->peer_h, (uint32_t)(uintptr_t)buf, size);
    ep->chan_serving++;
    if (mp_chan_stop_due(ep))
        mp_tr_chan_peer_gone(ep); /* revoked (or deleted) while this send was under way */
    return st;
}

/* ---------------------------------------------------------------- non-blocking sends */
enum { OP_TURN, OP_RUN, OP_DONE };
#define MAX_DST 16u
/* per destination (handle address): FIFO tickets so that sends to one endpoint start in call
 * order; once started, the NAMP keeps their order (several may be in flight) */
static struct {
    uintptr_t h;
    uint32_t ticket, serving, running;
} dsts[MAX_DST];

/* Index of the FIFO entry of destination h (an entry with sends outstanding is never reused). */
static uint32_t dst_index(const struct mp_ephandle *h)
{
    uint32_t fr = MAX_DST;
    for (uint32_t i = 0; i < MAX_DST; ++i) {
        if (dsts[i].h == (uintptr_t)h)
            return i;
        if (fr == MAX_DST && dsts[i].ticket == dsts[i].serving && dsts[i].running == 0)
            fr = i;
    }
    if (fr == MAX_DST)
        fr = 0; /* cannot happen with at most 16 requests under way */
    dsts[fr].h = (uintptr_t)h;
    return fr;
}

uint32_t mp_tr_refused(void) { return mp_stats.refused + (nslots ? namp_refused() : 0u); }

/* Completions of the non-blocking sends, polled with one register read per progress pass (a
 * trap per completion would cost more than the read while the core is busy). */
static uint32_t done_now;
void mp_tr_poll(void)
{
    if (nslots && waiting_runs)
        done_now = namp_done_slots();
}

/* A blocking send to h waits until the non-blocking sends to h issued before it have started. */
static void wait_turn(const struct mp_ephandle *h)
{
    for (uint32_t i = 0; i < MAX_DST; ++i)
        if (dsts[i].h == (uintptr_t)h) {
            MP_WAIT_UNTIL(dsts[i].ticket == dsts[i].serving);
            return;
        }
}

mcapi_status_t mp_tr_send_start(mcapi_request_t *r)
{
    if (nslots == 0)
        return MCAPI_ERR_NOT_SUPPORTED;
    if (r->ep && r->op_size > (1u << r->ep->rmsg_log2))
        return MCAPI_ERR_PKT_SIZE;
    uint32_t i = dst_index(r->dst_h);
    r->op_pend = i; /* cached for progress and hint */
    if (r->op_src && r->op_src->tx && r->op_src->send_mode != MP_SEND_UNBUFFERED &&
        dsts[i].ticket == dsts[i].serving) {
        /* buffered / CCM: implicit completion, the call itself is the whole send */
        int done;
        r->op_status =
            send_mode_dispatch(r->op_src, r->dst_h, r->ep != NULL, r->op_buf, r->op_size, &done);
        r->op_ticket = dsts[i].ticket++;
        dsts[i].serving++;
        r->op = OP_DONE;
        return MCAPI_SUCCESS;
    }
    r->op_ticket = dsts[i].ticket++;
    waiting_starts++;
    r->op = OP_TURN;
    mp_tr_send_progress(r);
    return MCAPI_SUCCESS;
}

int mp_tr_send_progress(mcapi_request_t *r)
{
    for (;;) {
        switch (r->op) {
        case OP_TURN: {
            if (dsts[r->op_pend].serving != r->op_ticket)
                return 0;
            int s = namp_slot_alloc();
            if (s < 0)
                return 0;
            r->op_dma = (uint32_t)s;
            /* no IEN: completions are polled once per progress pass (mp_tr_poll); the
             * interrupt is armed only before the core sleeps (mp_tr_send_hint) */
            namp_slot_start((unsigned)s, r->ep ? NAMP_F_CON : 0u, (uint32_t)(uintptr_t)r->dst_h->hw,
                            (uint32_t)(uintptr_t)r->op_buf, r->op_size);
            done_now &= ~(1u << s);     /* a sampled DONE of the slot's previous user is stale */
            dsts[r->op_pend].serving++; /* started: the next send to this destination may start */
            dsts[r->op_pend].running++;
            waiting_starts--;
            waiting_runs++;
            r->op = OP_RUN;
            return 0;
        }
        case OP_RUN: {
            if (!((done_now | namp_done_mask()) & (1u << r->op_dma)))
                return 0;
            uint32_t err = namp_slot_finish(r->op_dma);
            namp_slot_free(r->op_dma);
            done_now &= ~(1u << r->op_dma);
            waiting_runs--;
            dsts[r->op_pend].running--;
            if (r->ep && mp_chan_stop_due(r->ep))
                mp_tr_chan_peer_gone(r->ep); /* the last one under way tells the receiver */
            if (err)
                last_error = err;
            r->op_status = map_error(err);
            r->op = OP_DONE;
            return 1;
        }
        default: return 1;
        }
    }
}

int mp_tr_send_hint(const mcapi_request_t *r, uint64_t *wake)
{
    (void)wake;
    switch (r->op) {
    case OP_TURN: return dsts[r->op_pend].serving == r->op_ticket && namp_slots_busy() != all_slots;
    case OP_RUN:
        if ((done_now | namp_done_mask()) & (1u << r->op_dma))
            return 1;
        namp_slot_irq_on(r->op_dma); /* the caller sleeps next: DONE must wake it */
        return namp_slot_done(r->op_dma);
    default: return 1;
    }
}

/* ---------------------------------------------------------------- receive side */

/* Receiving side of a channel: a credit slot (CoM) to the sender's handle, fire and forget (the
 * allocator takes the slot back once it is DONE). revoke: NAMP_COM_F_REVOKE, no credits. */
/* The credit path of a channel's receiving side: a handle naming the sender's handle (peer_ep,
 * CONNECT_REQ), marked CONNECTED: a channel's handle (the target takes CREDITs for such only, and
 * NAMP-PS may relocate it when the sender migrates). */
void mp_tr_credit_path_init(struct mp_endpoint *ep)
{
    namp_handle_t *x = hw_h(&ep->peer_h);
    if (x->tile != ep->peer_node || x->endpoint != ep->peer_ep ||
        !(x->flags & NAMP_H_F_CONNECTED)) {
        ep->peer_h.node = ep->peer_node;
        ep->peer_h.addr = ep->peer_ep;
        /* the sender's handle holds this endpoint's identity: a CREDIT carries it */
        ep->peer_h.id = ep->id;
        mp_tr_handle_init(&ep->peer_h);
        x->flags = NAMP_H_F_CONNECTED;
    }
}

static void credit_slot(struct mp_endpoint *ep, uint32_t n, uint32_t revoke)
{
    mp_tr_credit_path_init(ep);
    int s;
    MP_WAIT_UNTIL((s = namp_slot_alloc()) >= 0);
    namp_slot_start((unsigned)s, NAMP_F_COM, (uint32_t)(uintptr_t)ep->peer_h.hw, n ? n : 1u,
                    revoke ? NAMP_COM_F_REVOKE : 0u);
    namp_slot_implicit((unsigned)s);
}

void mp_tr_chan_released(struct mp_endpoint *ep)
{
    if (ep->flags & MP_EPF_SENDER_GONE)
        return; /* the sender's handle is no longer its channel's: no credit slot to it */
    /* credits go back after half the window (thesis 3.2.2.1), through a credit slot (CoM); the
     * elements of failed transfers the buffer skipped (void) count as released too */
    uint32_t voids = ep->rx->voids;
    ep->released += 1u + (voids - ep->voids_seen);
    ep->voids_seen = voids;
    if (ep->released >= (mp_cbuffer_capacity(ep->rx) + 1u) / 2u) {
        uint32_t n = ep->released;
        ep->released = 0;
        credit_slot(ep, n, 0);
    }
}

/* ---------------------------------------------------------------- endpoint deletion
 * The set-up protocol's part (revoke to a channel's sender, reservations waiting for their
 * completion) is the baseline's (transport_sw.c); the NAMP part stops the endpoint's own slots
 * first, so that no slot reads a freed send buffer. */

/* CONNECT_REQ carried the address of the sender's handle of the receive endpoint (peer_h), so
 * the revoke names that handle. */
static struct mp_endpoint *chan_sender(uint32_t addr)
{
    return mp_ep_from_addr(addr - (uint32_t) __builtin_offsetof(struct mp_endpoint, peer_h));
}

/* 1 when every element of the send buffer has been freed by the NAMP. */
static int tx_idle(mp_cbuffer_t *b)
{
    if (b->rd_idx != b->wr_idx)
        return 0;
    for (uint32_t i = 0; i < mp_cbuffer_capacity(b); ++i)
        if (mp_cbuffer_sizes(b)[i] != 0)
            return 0;
    return 1;
}

/* Waits until no buffered slot uses ep's send buffer (their DONE wakes us); after a failure the
 * elements no slot will take are dropped, so the wait ends. Returns the first error code, or 0. */
static uint32_t tx_quiesce(struct mp_endpoint *ep)
{
    uint32_t first = 0;
    for (;;) {
        uint32_t err = 0;
        MP_WAIT_UNTIL((err = implicit_failure(ep)) != 0 || tx_idle(ep->tx));
        if (!err)
            break;
        last_error = err;
        if (!first)
            first = err;
        tx_drop_pending(ep->tx);
    }
    ep->last_tx = 0;
    return first;
}

mcapi_status_t mp_tr_send_mode_leave(struct mp_endpoint *ep)
{
    if (!ep->tx || nslots == 0)
        return MCAPI_SUCCESS;
    mcapi_status_t st = MCAPI_SUCCESS;
    if (ep->ccm_slot >= 0)
        st = ccm_leave(ep);
    uint32_t err = tx_quiesce(ep);
    if (st == MCAPI_SUCCESS && err)
        st = map_error(err);
    return st;
}

int mp_tr_endpoint_closing(struct mp_endpoint *ep)
{
    hw_ep(ep)->state = NAMP_EP_STATE_DELETED; /* the target refuses new allocations */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (ep->tx && nslots) {
        if (ep->ccm_slot >= 0)
            (void)ccm_leave(ep); /* an error was the sender's to see; the slot is freed */
        /* a revoked channel's buffered slots wait for credit for good: do not wait for them,
         * their send buffer stays quarantined (mp_tr_endpoint_reapable) */
        if (!(ep->flags & MP_EPF_PEER_GONE))
            (void)tx_quiesce(ep);
    }
    /* a channel's sender: its NAMP refuses further transfers (CLOSED), slots waiting for credit
     * fail; the set-up protocol's revoke (mp_sw_endpoint_closing) tells its software */
    if ((ep->flags & (MP_EPF_CHAN_RECV | MP_EPF_SENDER_GONE)) == MP_EPF_CHAN_RECV && nslots)
        credit_slot(ep, 0, 1);
    (void)mp_sw_endpoint_closing(ep);
    return mp_tr_endpoint_reapable(ep);
}

int mp_tr_endpoint_reapable(struct mp_endpoint *ep)
{
    /* a guarded buffer: allocations granted before the deletion still have their DMA to come */
    if (hw_ep(ep)->flags & NAMP_EP_F_GUARDED &&
        __atomic_load_n(&hw_ep(ep)->inflight, __ATOMIC_ACQUIRE) != 0)
        return 0;
    /* buffered slots of a revoked channel fail CLOSED, so the send buffer becomes idle */
    if (ep->tx && !tx_idle(ep->tx))
        return 0;
    /* a channel's receive buffer: only after the sender said "stopped" (its NAMP writes into
     * the buffer without an allocation; the revoked handle stops new transfers, the sender's
     * software waits for the ones under way) */
    return mp_sw_endpoint_reapable(ep);
}

void mp_tr_chan_peer_gone(struct mp_endpoint *ep)
{
    /* "stopped" once no transfer of this channel is under way in the NAMP: no blocking send
     * (chan tickets, checked by mp_sw_chan_peer_gone) and no non-blocking one */
    for (uint32_t i = 0; i < MAX_DST; ++i)
        if (dsts[i].h == (uintptr_t)&ep->peer_h &&
            (dsts[i].ticket != dsts[i].serving || dsts[i].running != 0))
            return;
    mp_sw_chan_peer_gone(ep);
}

/* ---------------------------------------------------------------- collectives (collective_namp.c) */
/* No send of the library is waiting or under way: a collective cannot overtake one (its members
 * take no part in the adapter's per-destination order). */
int mp_namp_sends_idle(void) { return waiting_starts == 0 && waiting_runs == 0; }

mcapi_status_t mp_namp_map_error(uint32_t code) { return map_error(code); }

/* Runs a collective slot (PARAM1 = descriptor) to completion like a blocking unbuffered send;
 * returns the STATUS code (0: every member done). */
uint32_t mp_namp_run_cc(uint32_t flags, uint32_t desc, const void *buf, uint32_t size)
{
    int32_t e;
    while ((e = namp_run(flags, desc, (uint32_t)(uintptr_t)buf, size, &mp_stats.idle_cycles)) < 0)
        MP_WAIT_UNTIL(namp_slots_busy() != all_slots);
    if (e)
        last_error = (uint32_t)e;
    return (uint32_t)e;
}
