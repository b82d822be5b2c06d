/* Software transport: the whole protocol (include/mp/proto.h) runs in software on the baseline
 * network adapter (thesis 3.2.2). Protocol messages are raw packets through NoC buffer 0 (requests)
 * and 1 (responses); core 0's machine external interrupt handler is the progress engine. The data
 * path is chosen per send (mp_data_path): buffer-based (DATA packets copied by the receiver's
 * progress engine), RMA (stores through the RMA window into the remote slot) or RDMA (a DMA slot
 * puts the payload into the remote slot). */
#include <string.h>

#include "mp/proto.h"
#include "na/na.h"
#include "transport_sw.h"

/* The transport built on this one (NULL: the baseline alone; transport_sw.h). */
static const struct mp_sw_ext *ext;

#define MP_PENDING_SLOTS 8u /* outstanding requests waiting for a response */
#define MP_MAX_DMA       8u

struct pending {
    volatile uint32_t done;
    uint32_t type;
    uint32_t w[6];
    /* the request id it waits for: slot | sequence << 8 (a late answer to a request
     * that timed out names an older tag and is dropped) */
    uint32_t tag;
};

static struct pending pend[MP_PENDING_SLOTS];
static uint32_t pend_used; /* bit i: pend[i] belongs to an outstanding request */
static uint32_t mesh_w;
static uint32_t max_payload_words; /* DATA packet: max flits - header - address */
static uint32_t features;
static uint32_t dma_slots;         /* DMA slots used (NA_DMA_SLOTS, at most MP_MAX_DMA) */
static uint32_t dma_busy;          /* bit i: slot i is programmed */
static volatile uint32_t dma_done; /* bit i: slot i finished (set by the interrupt handler) */
static volatile uint32_t dma_result[MP_MAX_DMA];

static int pend_alloc(void)
{
    int got = -1;
    uint32_t saved = irq_global_disable();
    for (uint32_t i = 0; i < MP_PENDING_SLOTS; ++i)
        if (!(pend_used & (1u << i))) {
            pend_used |= 1u << i;
            pend[i].done = 0;
            pend[i].tag = i | ((((pend[i].tag >> 8) + 1u) & 0xFFFFu) << 8);
            got = (int)i;
            break;
        }
    irq_global_restore(saved);
    return got;
}

static void pend_free(int i)
{
    uint32_t saved = irq_global_disable();
    pend_used &= ~(1u << i);
    irq_global_restore(saved);
}

/* ---------------------------------------------------------------- packets */

static inline uint32_t hdr_src_tile(uint32_t hdr)
{
    uint32_t x = (hdr >> NOC_HDR_SRC_X_SHIFT) & 31u, y = (hdr >> NOC_HDR_SRC_Y_SHIFT) & 31u;
    return y * mesh_w + x;
}

static void handle_response(void);

/* Waits (interrupts off) until NoC buffer b can take a new packet. Responses are drained while
 * waiting: they never send anything, and draining them keeps the request/response cycle between
 * two tiles that both wait for their transmit buffer from deadlocking. */
static void tx_wait_ready(unsigned b)
{
    while (!na_nocbuf_tx_ready(b)) {
        if (na_nocbuf_rx_waiting(MP_NOCBUF_RESP))
            handle_response();
    }
}

/* Sends one packet: n header words w[] then np words from payload (may be unaligned, nbytes of it
 * valid at the end). Safe from thread and interrupt context (interrupts are off while the packet's
 * flits are written, so the progress engine cannot interleave its own packet). */
static void tx_packet(unsigned b, uint32_t tile, uint32_t type, const uint32_t *w, unsigned n,
                      const uint8_t *payload, uint32_t nbytes)
{
    uint32_t np = (nbytes + 3u) / 4u;
    uint32_t hdr = NOC_HEADER(tile % mesh_w, tile / mesh_w, type, 1u + n + np);
    uint32_t saved = irq_global_disable();
    tx_wait_ready(b);
    na_nocbuf_tx(b, hdr);
    for (unsigned i = 0; i < n; ++i)
        na_nocbuf_tx(b, w[i]);
    if (nbytes) {
        uint32_t full = nbytes / 4u;
        if (((uintptr_t)payload & 3u) == 0) {
            const uint32_t *p = (const uint32_t *)payload;
            for (uint32_t i = 0; i < full; ++i)
                na_nocbuf_tx(b, p[i]);
        } else {
            for (uint32_t i = 0; i < full; ++i) {
                uint32_t v;
                memcpy(&v, payload + 4u * i, 4);
                na_nocbuf_tx(b, v);
            }
        }
        if (nbytes & 3u) {
            uint32_t v = 0;
            memcpy(&v, payload + 4u * full, nbytes & 3u);
            na_nocbuf_tx(b, v);
        }
    }
    mp_stats.packets_tx++;
    irq_global_restore(saved);
}

static inline uint32_t rx_word(unsigned b) { return na_nocbuf_rx(b); }

/* ---------------------------------------------------------------- progress engine */

static void send_resp(uint32_t tile, uint32_t type, const uint32_t *w, unsigned n)
{
    tx_packet(MP_NOCBUF_RESP, tile, type, w, n, NULL, 0);
}

static int ep_valid(struct mp_endpoint *ep) { return ep && ep->state == MP_EP_READY; }

/* The receiving side a channel's sender sends to now (tile, endpoint address). Under the NAMP
 * that is its handle: NAMP-PS moves the receiver by rewriting the sender's handle (RELOC,
 * MIGRATE, software PS's redirect), never the library's view from the connect. */
static void chan_peer(const struct mp_endpoint *ep, uint32_t *node, uint32_t *addr)
{
    if (ext) {
        ext->chan_peer(ep, node, addr);
    } else {
        *node = ep->peer_node;
        *addr = ep->peer_ep;
    }
}

/* Receive endpoint addr of tile src revoked the channel whose sender is at `sender` (the sender
 * may still be waking up from the CONNECT_ACK: the peer is set before the request). A revoke
 * from where the receiver was before it moved is not this channel's any more. */
static void chan_revoked(uint32_t sender, uint32_t addr, uint32_t src)
{
    struct mp_endpoint *ep = ext ? ext->chan_sender(sender) : mp_ep_from_addr(sender);
    uint32_t node, at;
    if (!ep || !addr)
        return;
    chan_peer(ep, &node, &at);
    if (node == src && at == addr)
        ep->flags |= MP_EPF_PEER_GONE;
}

static void handle_request(void)
{
    uint32_t hdr = rx_word(MP_NOCBUF_REQ);
    uint32_t words = (hdr >> NOC_HDR_LENGTH_SHIFT) & 63u; /* length - 1 = payload words */
    uint32_t type = hdr & 15u, src = hdr_src_tile(hdr);
    mp_stats.packets_rx++;
    switch (type) {
    case MP_MSG_DATA: {
        volatile uint32_t *dst = (volatile uint32_t *)(uintptr_t)rx_word(MP_NOCBUF_REQ);
        for (uint32_t i = 1; i < words; ++i)
            dst[i - 1] = rx_word(MP_NOCBUF_REQ);
        return;
    }
    case MP_MSG_LOOKUP_REQ: {
        uint32_t req = rx_word(MP_NOCBUF_REQ), port = rx_word(MP_NOCBUF_REQ);
        struct mp_endpoint *ep = mp_find_port_any(port);
        uint32_t r[5] = {req, ep ? 0u : 1u, ep ? (uint32_t)(uintptr_t)ep : 0u, ep ? ep->id : 0u,
                         ep ? ep->rx_n | ep->rx_m << 8 : 0u};
        send_resp(src, MP_MSG_LOOKUP_RESP, r, 5);
        return;
    }
    case MP_MSG_ALLOC_REQ: {
        uint32_t req = rx_word(MP_NOCBUF_REQ), addr = rx_word(MP_NOCBUF_REQ);
        uint32_t size = rx_word(MP_NOCBUF_REQ);
        struct mp_endpoint *ep = mp_ep_from_addr(addr);
        uint32_t idx;
        if (!ep_valid(ep) || (ep->flags & MP_EPF_CHAN_RECV)) {
            uint32_t r[2] = {req, ep_valid(ep) ? MP_NACK_CHANNEL : MP_NACK_BAD_EP};
            send_resp(src, MP_MSG_ALLOC_NACK, r, 2);
        } else if (size > mp_cbuffer_slot_bytes(ep->rx)) {
            uint32_t r[2] = {req, MP_NACK_TOO_LARGE};
            send_resp(src, MP_MSG_ALLOC_NACK, r, 2);
        } else if (mp_cbuffer_reserve(ep->rx, &idx) != 0) {
            mp_stats.refused++;
            uint32_t r[2] = {req, MP_NACK_FULL};
            send_resp(src, MP_MSG_ALLOC_NACK, r, 2);
        } else {
            uint32_t r[3] = {req, idx, (uint32_t)(uintptr_t)mp_cbuffer_data(ep->rx, idx)};
            send_resp(src, MP_MSG_ALLOC_ACK, r, 3);
        }
        return;
    }
    case MP_MSG_COMPLETE: {
        uint32_t addr = rx_word(MP_NOCBUF_REQ), idx = rx_word(MP_NOCBUF_REQ);
        uint32_t size = rx_word(MP_NOCBUF_REQ);
        struct mp_endpoint *ep = mp_ep_from_addr(addr);
        if (!ep || !ep->rx)
            return;
        if (ep->flags & MP_EPF_CHAN_RECV) {
            /* Channel: the sender owns the slots it has credits for; the progress engine is the
             * only producer, so the reservation yields exactly the sender's index. */
            uint32_t got;
            if (mp_cbuffer_reserve(ep->rx, &got) != 0 || got != idx) {
                console_puts("mp: channel completion out of sequence\n");
                return;
            }
        }
        mp_cbuffer_commit(ep->rx, idx, size);
        return;
    }
    case MP_MSG_CREDIT: { /* "stopped": the sender of a revoked channel writes no more */
        uint32_t addr = rx_word(MP_NOCBUF_REQ);
        (void)rx_word(MP_NOCBUF_REQ);
        struct mp_endpoint *ep = mp_ep_from_addr(addr);
        if (ep && ep->state == MP_EP_CLOSING && ep->peer_node == src)
            ep->flags |= MP_EPF_PEER_STOPPED;
        /* the sender deleted its endpoint (closed the channel): nothing more comes, receives end
         * once the buffer is empty, and its handle is not ours to revoke or credit any more */
        else if (ep && ep->state == MP_EP_READY && (ep->flags & MP_EPF_CHAN_RECV) &&
                 ep->peer_node == src)
            ep->flags |= MP_EPF_SENDER_GONE | MP_EPF_PEER_STOPPED;
        return;
    }
    case MP_MSG_CONNECT_REQ: {
        uint32_t req = rx_word(MP_NOCBUF_REQ), addr = rx_word(MP_NOCBUF_REQ);
        uint32_t sender = rx_word(MP_NOCBUF_REQ), id = rx_word(MP_NOCBUF_REQ);
        uint32_t for_task = rx_word(MP_NOCBUF_REQ);
        struct mp_endpoint *ep = mp_ep_from_addr(addr);
        uint32_t r[6] = {req, MCAPI_SUCCESS, 0, 0, 0, 0};
        if (!ep_valid(ep) || ep->id != id) /* another endpoint in that memory by now */
            r[1] = MCAPI_ERR_ENDP_INVALID;
        else if (for_task && !(ep->flags & MP_EPF_OPEN_WANTED) &&
                 !(ep->flags & (MP_EPF_CHAN_RECV | MP_EPF_CHAN_SEND)))
            r[1] = MCAPI_ERR_CHAN_NOTOPEN; /* its owner has not asked for a channel here */
        else if (ep->flags & (MP_EPF_CHAN_RECV | MP_EPF_CHAN_SEND))
            r[1] = MCAPI_ERR_CHAN_CONNECTED;
        else if (mp_cbuffer_used(ep->rx) != 0)
            r[1] = MCAPI_ERR_CHAN_TYPE; /* holds connection-less messages */
        else {
            ep->peer_node = src;
            ep->peer_ep = sender;
            ep->released = 0;
            ep->flags |= MP_EPF_CHAN_RECV;
            if (ext)
                ext->chan_accepted(ep); /* e.g. the NAMP target refuses messages to it now */
            /* the geometry as created: a task's buffer header is the task's to write, and the
             * sender's NAMP writes where this says, unchecked (SV isolation) */
            r[2] = 1u << ep->rx_n;
            r[3] = mp_ep_rx_data0(ep);
            r[4] = (ep->rx_m << 8) | ep->rx_n;
            r[5] = ep->rx->wr_idx;
        }
        send_resp(src, MP_MSG_CONNECT_ACK, r, 6);
        return;
    }
    default: na_nocbuf_rx_discard(MP_NOCBUF_REQ); return;
    }
}

static void handle_response(void)
{
    uint32_t hdr = rx_word(MP_NOCBUF_RESP);
    uint32_t words = (hdr >> NOC_HDR_LENGTH_SHIFT) & 63u;
    uint32_t type = hdr & 15u;
    mp_stats.packets_rx++;
    if (type == MP_MSG_CREDIT) {
        uint32_t addr = rx_word(MP_NOCBUF_RESP), n = rx_word(MP_NOCBUF_RESP);
        if (n & MP_CREDIT_REVOKE) {
            uint32_t recv = words > 2 ? rx_word(MP_NOCBUF_RESP) : 0u;
            chan_revoked(addr, recv, hdr_src_tile(hdr));
            return;
        }
        struct mp_endpoint *ep = mp_ep_from_addr(addr);
        if (ep)
            ep->credits += n;
        return;
    }
    if (words == 0 || words > 7) {
        na_nocbuf_rx_discard(MP_NOCBUF_RESP);
        return;
    }
    uint32_t req = rx_word(MP_NOCBUF_RESP);
    struct pending *p = &pend[(req & 0xFFu) % MP_PENDING_SLOTS];
    if (!(pend_used & (1u << ((req & 0xFFu) % MP_PENDING_SLOTS))) || p->tag != req) {
        na_nocbuf_rx_discard(MP_NOCBUF_RESP); /* its request gave up */
        return;
    }
    for (uint32_t i = 1; i < words; ++i)
        p->w[i - 1] = rx_word(MP_NOCBUF_RESP);
    p->type = type;
    p->done = 1;
}

static void handle_dma(void)
{
    for (uint32_t i = 0; i < dma_slots; ++i) {
        if (!(dma_busy & (1u << i)) || (dma_done & (1u << i)))
            continue;
        uint32_t st = na_dma_take(i);
        if (st) {
            dma_result[i] = st;
            dma_done |= 1u << i;
        }
    }
}

/* The network adapter's IRQ controller: drains everything pending (interrupts off). */
static void na_service(void)
{
    uint64_t t0 = cpu_cycles();
    mp_stats.isr_count++;
    for (;;) {
        /* the OSQM's demand interrupt is the kernel's (sw/kernel/osqm.c), served before this */
        uint32_t active = na_irq_active() & ~NA_IRQ_SRC_OSQM;
        if (active == 0)
            break;
        if (active & NA_IRQ_SRC_RX1)
            handle_response();
        if (active & NA_IRQ_SRC_RX0)
            handle_request();
        if (active & NA_IRQ_SRC_DMA)
            handle_dma();
        if (ext && (active & ext->irq_mask))
            ext->irq(active);
        if (active & NA_IRQ_SRC_RMA_ERROR) {
            console_puts("mp: RMA store refused\n");
            na_rma_errors_clear();
        }
    }
    mp_stats.isr_cycles += cpu_cycles() - t0;
}

/* Machine external interrupt. */
static void na_isr(trap_frame_t *frame)
{
    (void)frame;
    na_service();
}

uint32_t mp_isr_count(void) { return mp_stats.isr_count; }

void mp_irq_service_inline(void)
{
    if (irq_pending(IRQ_M_EXT))
        na_service();
}

static volatile uint32_t timer_fired;
static void timer_isr(trap_frame_t *frame)
{
    (void)frame;
    timer_disarm();
    timer_fired = 1;
}

/* Weak: a kernel that owns the timer replaces it (sw/kernel/kmp.c). */
__attribute__((weak)) void mp_sleep_ticks(uint32_t ticks)
{
    timer_fired = 0;
    timer_arm_in(ticks);
    MP_WAIT_UNTIL(timer_fired);
}

/* Kept out of line: the check costs init two instructions and the send paths nothing. */
static __attribute__((noinline, cold)) mcapi_status_t packets_too_short(uint32_t flits)
{
    console_puts("mp: noc.max_packet_flits is ");
    console_put_udec(flits);
    console_puts(": the protocol's CONNECT_ACK needs 7 flits (set noc.max_packet_flits >= 7)\n");
    return MCAPI_ERR_NODE_INITFAILED;
}

mcapi_status_t mp_sw_init(const struct mp_sw_ext *e)
{
    ext = e;
    mesh_w = tile_mesh_width();
    features = na_features();
    uint32_t flits = na_max_packet_flits();
    if (flits < MP_MAX_CONTROL_FLITS) /* a clear refusal, not a bus error on the 7th flit */
        return packets_too_short(flits);
    max_payload_words = flits > 2 ? flits - 2u : 1u;
    dma_slots = (features & NA_FEATURE_DMA) ? na_dma_slots() : 0u;
    if (dma_slots > MP_MAX_DMA)
        dma_slots = MP_MAX_DMA;
    irq_set_handler(IRQ_M_EXT, na_isr);
    irq_set_handler(IRQ_M_TIMER, timer_isr);
    /* keeps the OSQM's source: a kernel may have enabled it before the library starts */
    na_irq_set_mask((na_irq_mask() & NA_IRQ_SRC_OSQM) | NA_IRQ_SRC_RX0 | NA_IRQ_SRC_RX1 |
                    NA_IRQ_SRC_DMA | NA_IRQ_SRC_RMA_ERROR | (ext ? ext->irq_mask : 0u));
    irq_enable(IRQ_M_EXT);
    irq_enable(IRQ_M_TIMER);
    irq_global_enable();
    return MCAPI_SUCCESS;
}

/* ---------------------------------------------------------------- requests */

/* Blocking request/response (lookup, connect): one pending slot while it waits. timeout_us 0:
 * until the answer; else MCAPI_TIMEOUT when none came by then (a tile that does not run the
 * protocol must not hold its caller for ever: the kernel serves tasks' lookups with it). */
static mcapi_status_t request_timed(uint32_t tile, uint32_t type, uint32_t *w, unsigned n,
                                    struct pending *out, uint32_t timeout_us)
{
    int i;
    MP_WAIT_UNTIL((i = pend_alloc()) >= 0 || 0);
    struct pending *p = &pend[i];
    w[0] = p->tag;
    tx_packet(MP_NOCBUF_REQ, tile, type, w, n, NULL, 0);
    if (!timeout_us) {
        MP_WAIT_UNTIL(p->done);
    } else {
        const uint64_t until = timer_now() + (uint64_t)timeout_us * timer_hz() / 1000000u;
        for (;;) {
            uint32_t saved = irq_global_disable();
            if (p->done || timer_now() >= until) {
                irq_global_restore(saved);
                break;
            }
            mp_idle(until);
            irq_global_restore(saved);
        }
    }
    const int done = p->done != 0;
    *out = *p;
    pend_free(i);
    return done ? MCAPI_SUCCESS : MCAPI_TIMEOUT;
}

static void request(uint32_t tile, uint32_t type, uint32_t *w, unsigned n, struct pending *out)
{
    (void)request_timed(tile, type, w, n, out, 0);
}

mcapi_status_t mp_sw_lookup(uint32_t node, uint32_t port, uint32_t timeout_us,
                            struct mp_ephandle *out)
{
    uint32_t w[2] = {0, port};
    struct pending res, *p = &res;
    if (request_timed(node, MP_MSG_LOOKUP_REQ, w, 2, p, timeout_us) != MCAPI_SUCCESS)
        return MCAPI_TIMEOUT;
    if (p->w[0] != 0)
        return MCAPI_ERR_ENDP_INVALID;
    out->addr = p->w[1];
    out->id = p->w[2];
    out->geometry = p->w[3];
    return MCAPI_SUCCESS;
}

/* Moves size bytes from buf into address dst of tile `tile` by the calling core: buffer-based
 * (DATA packets) or RMA (stores through the window). */
static mcapi_status_t put_data(uint32_t path, uint32_t tile, uint32_t dst, const void *buf,
                               uint32_t size)
{
    const uint8_t *src = (const uint8_t *)buf;
    switch (path) {
    case MP_PATH_RMA: {
        if (!(features & NA_FEATURE_RMA))
            return MCAPI_ERR_NOT_SUPPORTED;
        volatile uint32_t *d =
            (volatile uint32_t *)(uintptr_t)RMA_ADDRESS(tile, dst - TILE_SRAM_BASE);
        uint32_t full = size / 4u;
        if (((uintptr_t)src & 3u) == 0) {
            const uint32_t *s = (const uint32_t *)src;
            for (uint32_t i = 0; i < full; ++i)
                d[i] = s[i];
        } else {
            for (uint32_t i = 0; i < full; ++i) {
                uint32_t v;
                memcpy(&v, src + 4u * i, 4);
                d[i] = v;
            }
        }
        if (size & 3u) {
            uint32_t v = 0;
            memcpy(&v, src + 4u * full, size & 3u);
            d[full] = v;
        }
        /* completion may only follow once every store is acknowledged (no interrupt for this) */
        return na_rma_drain() ? MCAPI_ERR_TRANSMISSION : MCAPI_SUCCESS;
    }
    default: {
        uint32_t chunk = max_payload_words * 4u;
        for (uint32_t off = 0; off < size; off += chunk) {
            uint32_t n = size - off < chunk ? size - off : chunk;
            uint32_t w[1] = {dst + off};
            tx_packet(MP_NOCBUF_REQ, tile, MP_MSG_DATA, w, 1, src + off, n);
        }
        return MCAPI_SUCCESS;
    }
    }
}

mcapi_status_t mp_sw_connect(struct mp_endpoint *ep, const struct mp_ephandle *dst,
                             uint32_t timeout_us, uint32_t for_task)
{
    uint32_t w[5] = {0, dst->addr, ext ? ext->connect_sender_addr(ep) : (uint32_t)(uintptr_t)ep,
                     dst->id, for_task};
    struct pending res, *p = &res;
    /* the peer is known before the request: a revoke may follow the ACK before we run again */
    ep->peer_node = dst->node;
    ep->peer_ep = dst->addr;
    if (request_timed(dst->node, MP_MSG_CONNECT_REQ, w, 5, p, timeout_us) != MCAPI_SUCCESS)
        /* a late ACK finds no request: the receiver stays unconnected
         * until its endpoint goes (as for any peer that goes away) */
        p->w[0] = MCAPI_TIMEOUT;
    if (p->w[0] != MCAPI_SUCCESS) {
        ep->peer_node = ep->peer_ep = 0;
        return (mcapi_status_t)p->w[0];
    }
    ep->credits = p->w[1];
    ep->rdata = p->w[2];
    ep->rmsg_log2 = p->w[3] >> 8;
    ep->rcap_log2 = p->w[3] & 0xFFu;
    ep->chan_idx = p->w[4];
    __atomic_fetch_or(&ep->flags, MP_EPF_CHAN_SEND, __ATOMIC_RELAXED); /* vs. the handler */
    return MCAPI_SUCCESS;
}

/* ---------------------------------------------------------------- blocking sends
 * The same protocol as the state machine below, written straight through for the blocking API
 * calls: it costs about a third fewer instructions per message than driving the state machine,
 * and the blocking calls are what the LogP benchmark measures. */

static int dma_alloc(void)
{
    int slot = -1;
    uint32_t saved = irq_global_disable();
    for (uint32_t i = 0; i < dma_slots; ++i)
        if (!(dma_busy & (1u << i))) {
            dma_busy |= 1u << i;
            dma_done &= ~(1u << i);
            slot = (int)i;
            break;
        }
    irq_global_restore(saved);
    return slot;
}

/* 1 if the DMA of `slot` is over; then the slot is free again and *st holds the result. */
static int dma_finish(uint32_t slot, mcapi_status_t *st)
{
    uint32_t bit = 1u << slot;
    if (!(dma_done & bit))
        return 0;
    uint32_t res = dma_result[slot];
    uint32_t saved = irq_global_disable();
    dma_busy &= ~bit;
    dma_done &= ~bit;
    irq_global_restore(saved);
    *st = (res & DMA_STAT_ERROR) ? MCAPI_ERR_TRANSMISSION : MCAPI_SUCCESS;
    return 1;
}

/* Payload into the remote slot on `path`, by this core (buffer, RMA) or a DMA slot (RDMA). */
static mcapi_status_t move_data(uint32_t path, uint32_t tile, uint32_t dst, const void *buf,
                                uint32_t size)
{
    if (path != MP_PATH_RDMA || size == 0)
        return put_data(path, tile, dst, buf, size);
    int slot;
    mcapi_status_t st;
    MP_WAIT_UNTIL((slot = dma_alloc()) >= 0);
    na_dma_start((uint32_t)slot, buf, tile, dst, size, 1);
    MP_WAIT_UNTIL(dma_finish((uint32_t)slot, &st));
    return st;
}

mcapi_status_t mp_sw_msg_send(struct mp_endpoint *src, const struct mp_ephandle *dst,
                              const void *buf, uint32_t size)
{
    (void)src;
    uint32_t node = dst->node, addr = dst->addr;
    uint32_t path = mp_data_path, backoff = 8; /* mtime ticks, doubled per NACK up to 1024 */
    if ((path == MP_PATH_RMA && !(features & NA_FEATURE_RMA)) ||
        (path == MP_PATH_RDMA && dma_slots == 0))
        return MCAPI_ERR_NOT_SUPPORTED;
    struct pending res;
    for (;;) {
        uint32_t w[3] = {0, addr, size};
        request(node, MP_MSG_ALLOC_REQ, w, 3, &res);
        if (res.type == MP_MSG_ALLOC_ACK)
            break;
        mp_stats.nacks++;
        if (res.w[0] != MP_NACK_FULL)
            return res.w[0] == MP_NACK_TOO_LARGE ? MCAPI_ERR_MSG_SIZE
                   : res.w[0] == MP_NACK_CHANNEL ? MCAPI_ERR_CHAN_CONNECTED
                                                 : MCAPI_ERR_ENDP_INVALID;
        mp_stats.retries++;
        mp_sleep_ticks(backoff);
        if (backoff < 1024)
            backoff *= 2;
    }
    uint32_t idx = res.w[0];
    mcapi_status_t st = move_data(path, node, res.w[1], buf, size);
    /* the completion is sent after a failed transfer too (size 0), so that the slot is not lost */
    uint32_t c[3] = {addr, idx, st == MCAPI_SUCCESS ? size : 0u};
    tx_packet(MP_NOCBUF_REQ, node, MP_MSG_COMPLETE, c, 3, NULL, 0);
    return st;
}

mcapi_status_t mp_sw_chan_send(struct mp_endpoint *ep, const void *buf, uint32_t size)
{
    uint32_t path = mp_data_path;
    if ((path == MP_PATH_RMA && !(features & NA_FEATURE_RMA)) ||
        (path == MP_PATH_RDMA && dma_slots == 0))
        return MCAPI_ERR_NOT_SUPPORTED;
    if (size > (1u << ep->rmsg_log2))
        return MCAPI_ERR_PKT_SIZE;
    uint32_t ticket = ep->chan_ticket++; /* after earlier non-blocking sends */
    MP_WAIT_UNTIL(ep->chan_serving == ticket &&
                  (ep->credits != 0 || (ep->flags & MP_EPF_PEER_GONE)));
    if (ep->flags & MP_EPF_PEER_GONE) { /* the receive endpoint was deleted: no write */
        ep->chan_serving++;
        mp_sw_chan_peer_gone(ep);
        return MCAPI_ERR_CHAN_INVALID;
    }
    uint32_t saved = irq_global_disable();
    ep->credits--;
    irq_global_restore(saved);
    uint32_t idx = ep->chan_idx++;
    uint32_t slot = ep->rdata + ((idx & ((1u << ep->rcap_log2) - 1u)) << ep->rmsg_log2);
    mcapi_status_t st = move_data(path, ep->peer_node, slot, buf, size);
    uint32_t c[3] = {ep->peer_ep, idx, st == MCAPI_SUCCESS ? size : 0u};
    tx_packet(MP_NOCBUF_REQ, ep->peer_node, MP_MSG_COMPLETE, c, 3, NULL, 0);
    ep->chan_serving++;
    if (mp_chan_stop_due(ep)) /* revoked (or deleted) while this packet was under way */
        mp_sw_chan_peer_gone(ep);
    return st;
}

/* ---------------------------------------------------------------- sends (state machine)
 * A send request moves through: [channel: wait for its turn and a credit | message: ALLOC_REQ,
 * wait for ACK/NACK, back-off and retry] -> data (buffer/RMA: by the calling core; RDMA: program a
 * DMA slot, wait for its interrupt) -> COMPLETE. mp_sw_send_progress runs the steps that can run
 * now; mcapi_test/mcapi_wait drive it, sleeping in wfi in between. */
enum { OP_ALLOC, OP_ALLOC_WAIT, OP_CREDIT, OP_DATA, OP_DMA_WAIT, OP_COMPLETE, OP_DONE };

/* Non-blocking messages take turns for the allocation phase (ticket order), so that slots are
 * allocated, and messages delivered, in the order of the send calls even when one is refused and
 * retried; data and completion of several messages may overlap (RDMA). */
static uint32_t msg_ticket, msg_serving;

static void send_finish(mcapi_request_t *r, mcapi_status_t st)
{
    if (r->ep) {
        r->ep->chan_serving++;
        if (mp_chan_stop_due(r->ep))
            mp_sw_chan_peer_gone(r->ep);
    }
    r->op_status = st;
    r->op = OP_DONE;
}

mcapi_status_t mp_sw_send_start(mcapi_request_t *r)
{
    r->op_path = mp_data_path;
    if (r->op_path == MP_PATH_RMA && !(features & NA_FEATURE_RMA))
        return MCAPI_ERR_NOT_SUPPORTED;
    if (r->op_path == MP_PATH_RDMA && dma_slots == 0)
        return MCAPI_ERR_NOT_SUPPORTED;
    if (r->ep) { /* channel: FIFO among this channel's sends */
        if (r->op_size > (1u << r->ep->rmsg_log2))
            return MCAPI_ERR_PKT_SIZE;
        r->op_ticket = r->ep->chan_ticket++;
        r->op = OP_CREDIT;
    } else {
        r->op = OP_ALLOC;
        r->op_backoff = 8; /* mtime ticks, doubled per NACK up to 1024 */
        r->op_retry_at = 0;
        r->op_ticket = msg_ticket++;
    }
    mp_sw_send_progress(r);
    return MCAPI_SUCCESS;
}

int mp_sw_send_progress(mcapi_request_t *r)
{
    for (;;) {
        switch (r->op) {
        case OP_ALLOC: {
            if (r->op_ticket != msg_serving)
                return 0;
            if (r->op_retry_at && timer_now() < r->op_retry_at)
                return 0;
            int i = pend_alloc();
            if (i < 0)
                return 0;
            r->op_pend = (uint32_t)i;
            uint32_t w[3] = {pend[i].tag, r->dst_addr, r->op_size};
            tx_packet(MP_NOCBUF_REQ, r->dst_node, MP_MSG_ALLOC_REQ, w, 3, NULL, 0);
            r->op = OP_ALLOC_WAIT;
            break;
        }
        case OP_ALLOC_WAIT: {
            struct pending *p = &pend[r->op_pend];
            if (!p->done)
                return 0;
            uint32_t type = p->type, w0 = p->w[0], w1 = p->w[1];
            pend_free((int)r->op_pend);
            if (type == MP_MSG_ALLOC_ACK) {
                msg_serving++;
                r->op_idx = w0;
                r->op_slot = w1;
                r->op = OP_DATA;
                break;
            }
            mp_stats.nacks++;
            if (w0 != MP_NACK_FULL) {
                msg_serving++;
                send_finish(r, w0 == MP_NACK_TOO_LARGE ? MCAPI_ERR_MSG_SIZE
                               : w0 == MP_NACK_CHANNEL ? MCAPI_ERR_CHAN_CONNECTED
                                                       : MCAPI_ERR_ENDP_INVALID);
                return 1;
            }
            mp_stats.retries++;
            r->op_retry_at = timer_now() + r->op_backoff;
            if (r->op_backoff < 1024)
                r->op_backoff *= 2;
            r->op = OP_ALLOC;
            return 0;
        }
        case OP_CREDIT: {
            struct mp_endpoint *ep = r->ep;
            if (ep->chan_serving != r->op_ticket)
                return 0;
            if (ep->flags & MP_EPF_PEER_GONE) { /* the receive endpoint was deleted */
                send_finish(r, MCAPI_ERR_CHAN_INVALID);
                return 1;
            }
            if (ep->credits == 0)
                return 0;
            uint32_t saved = irq_global_disable();
            ep->credits--;
            irq_global_restore(saved);
            r->op_idx = ep->chan_idx++;
            r->op_slot = ep->rdata + ((r->op_idx & ((1u << ep->rcap_log2) - 1u)) << ep->rmsg_log2);
            r->op = OP_DATA;
            break;
        }
        case OP_DATA:
            if (r->op_path == MP_PATH_RDMA && r->op_size != 0) {
                int slot = dma_alloc();
                if (slot < 0)
                    return 0;
                na_dma_start((uint32_t)slot, r->op_buf, r->dst_node, r->op_slot, r->op_size, 1);
                r->op_dma = (uint32_t)slot;
                r->op = OP_DMA_WAIT;
                return 0;
            }
            r->op_status = put_data(r->op_path, r->dst_node, r->op_slot, r->op_buf, r->op_size);
            r->op = OP_COMPLETE;
            break;
        case OP_DMA_WAIT:
            if (!dma_finish(r->op_dma, &r->op_status))
                return 0;
            r->op = OP_COMPLETE;
            break;
        case OP_COMPLETE: {
            /* sent after a failed transfer too (size 0), so that the slot is not lost */
            uint32_t c[3] = {r->dst_addr, r->op_idx,
                             r->op_status == MCAPI_SUCCESS ? r->op_size : 0u};
            tx_packet(MP_NOCBUF_REQ, r->dst_node, MP_MSG_COMPLETE, c, 3, NULL, 0);
            send_finish(r, r->op_status);
            return 1;
        }
        default: return 1;
        }
    }
}

int mp_sw_send_hint(const mcapi_request_t *r, uint64_t *wake)
{
    switch (r->op) {
    case OP_ALLOC:
        if (r->op_ticket != msg_serving)
            return 0;
        if (r->op_retry_at && timer_now() < r->op_retry_at) {
            if (r->op_retry_at < *wake)
                *wake = r->op_retry_at;
            return 0;
        }
        return pend_used != (1u << MP_PENDING_SLOTS) - 1u;
    case OP_ALLOC_WAIT: return pend[r->op_pend].done != 0;
    case OP_CREDIT:
        return r->ep->chan_serving == r->op_ticket &&
               (r->ep->credits != 0 || (r->ep->flags & MP_EPF_PEER_GONE));
    case OP_DATA: return r->op_path != MP_PATH_RDMA || dma_busy != (1u << dma_slots) - 1u;
    case OP_DMA_WAIT: return (dma_done & (1u << r->op_dma)) != 0;
    default: return 1;
    }
}

void mp_sw_chan_released(struct mp_endpoint *ep)
{
    if (ep->flags & MP_EPF_SENDER_GONE)
        return; /* no sender to give credits to */
    /* credits go back after half the window (thesis 3.2.2.1) */
    if (++ep->released >= (mp_cbuffer_capacity(ep->rx) + 1u) / 2u) {
        uint32_t c[2] = {ep->peer_ep, ep->released};
        ep->released = 0;
        tx_packet(MP_NOCBUF_RESP, ep->peer_node, MP_MSG_CREDIT, c, 2, NULL, 0);
    }
}

/* ---------------------------------------------------------------- endpoint deletion
 * A deleted endpoint's receive buffer stays allocated while a peer may still write into it:
 * slots reserved by an ALLOC_ACK wait for their COMPLETE, and the sender of a connected channel
 * writes into slots it addresses itself. The sender is told (revoke CREDIT), fails its sends from
 * then on with MCAPI_ERR_CHAN_INVALID and answers "stopped" once none is under way. */

/* 1 if no element of ep's receive buffer is reserved and still waiting for its completion. A
 * buffer in caller memory (a task's page) is not read: its indices and size words are the task's
 * to write (a loop over them would run as long as the task wants, a size word where it wants).
 * Such a buffer is only made for the NAMP transport, whose target counts the allocations it
 * granted into it (mp_tr_endpoint_reapable: the in-flight count, checked before this). */
static int rx_quiet(const struct mp_endpoint *ep)
{
    if (ep->rx_given)
        return 1;
    mp_cbuffer_t *b = ep->rx;
    for (uint32_t i = b->rd_idx; i != b->wr_idx; ++i)
        if (mp_cbuffer_sizes(b)[mp_cbuffer_slot_of(b, i)] == 0)
            return 0;
    return 1;
}

int mp_sw_endpoint_closing(struct mp_endpoint *ep)
{
    /* a channel's sending side closes: "stopped" tells the receiver that no more data comes
     * (sent once no send of the channel is under way: else by the last one to finish) */
    if (ep->flags & MP_EPF_CHAN_SEND) {
        if (ext)
            ext->chan_peer_gone(ep);
        else
            mp_sw_chan_peer_gone(ep);
    }
    if ((ep->flags & (MP_EPF_CHAN_RECV | MP_EPF_SENDER_GONE)) == MP_EPF_CHAN_RECV) {
        uint32_t c[3] = {ep->peer_ep, MP_CREDIT_REVOKE, (uint32_t)(uintptr_t)ep};
        tx_packet(MP_NOCBUF_RESP, ep->peer_node, MP_MSG_CREDIT, c, 3, NULL, 0);
    }
    return mp_sw_endpoint_reapable(ep);
}

int mp_sw_endpoint_reapable(struct mp_endpoint *ep)
{
    /* a channel's sending side: not before its "stopped" went out (the last send tells it) */
    if ((ep->flags & MP_EPF_CHAN_SEND) && !(ep->flags & MP_EPF_STOP_SENT))
        return 0;
    if ((ep->flags & MP_EPF_CHAN_RECV) && !(ep->flags & MP_EPF_PEER_STOPPED))
        return 0;
    return rx_quiet(ep);
}

/* The set-up protocol's "stopped" to receive endpoint addr on tile node. */
static void send_stopped(uint32_t node, uint32_t addr)
{
    const uint32_t c[2] = {addr, MP_CREDIT_REVOKE};
    tx_packet(MP_NOCBUF_REQ, node, MP_MSG_CREDIT, c, 2, NULL, 0);
}

void mp_sw_chan_peer_gone(struct mp_endpoint *ep)
{
    uint32_t saved = irq_global_disable(); /* flags are also set by the interrupt handler */
    int tell = !(ep->flags & MP_EPF_STOP_SENT) && ep->chan_ticket == ep->chan_serving;
    if (tell)
        ep->flags |= MP_EPF_STOP_SENT;
    irq_global_restore(saved);
    if (tell) {
        /* to where the receiver is now: its endpoint there waits for this before its buffer is
         * freed (a "stopped" to where it was is lost, or worse, reaches another channel's
         * receiver that took that memory) */
        uint32_t node, at;
        chan_peer(ep, &node, &at);
        send_stopped(node, at);
    }
}

void mp_sw_chan_stopped_to(uint32_t node, uint32_t addr) { send_stopped(node, addr); }
