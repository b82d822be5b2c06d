/* Stream sockets over the MCAPI-style library (docs/sockets.md).
 *
 * Every tile has one MCAPI connection-less endpoint (SOCK_MCAPI_PORT) that carries all of its
 * connections' messages: a node has 16 endpoints, and a channel's receive endpoint belongs to one
 * sender, so per-connection (or per-peer) channels cannot serve one server and 15 clients.
 * The layer drains that endpoint in every call and copies each connection's data into the
 * connection's receive chunk, a block of the tile's receive space managed by a buddy allocator
 * (sock/buddy.h; seed 003, 3.4). The sender never has more unread bytes at the receiver than the
 * receiver's window allows (the edge: consumed + chunk), so draining always finds room and one
 * connection that is not read never stops the others.
 *
 * When a new connection halves a connection's chunk, the peer is told (SHRINK with the new chunk
 * and the retracted edge) and answers with how much it has sent (SHRINK_ACK): data already under
 * way still lands in the old, larger ring; once all of it has arrived and has been read down to the
 * new size, the ring is compacted into the lower half and the new connection's window opens.
 * Every message also carries its sender's current edge and chunk (piggy-backed, as in seed 003's
 * rckSock). Messages between two tiles arrive in send order (MCAPI keeps it), which all of this
 * relies on. Only core 0 of a tile uses the layer. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "sock/buddy.h"
#include "sock/sock.h"
#include "mp/copy.h"

#define SOCK_MCAPI_PORT      0x534Bu /* "SK" */
#define SOCK_FD_BASE         3       /* 0..2 are the console's */
#define SOCK_SLOT_LOG2       12u     /* MCAPI receive slots of 4 KiB */
#define SOCK_CAP_LOG2        3u      /* 8 of them */
#define SOCK_HDR             32u
#define SOCK_MSS             ((1u << SOCK_SLOT_LOG2) - SOCK_HDR)
#define SOCK_TX_SLOTS        8u      /* MCAPI sends in flight */
#define SOCK_STAGE           4u      /* of them carrying data (4 KiB staging each) */
#define SOCK_ORPHANS         32u     /* replies to messages for no socket */
#define SOCK_LOOKUP_US       200000u /* a peer tile's layer must be up within 200 ms */
#define SOCK_LINGER_QUIET_US 1000u   /* at exit: stay until 1 ms without a message */
#define SOCK_LINGER_MAX_US   200000u

enum { M_SYN = 1, M_SYNACK, M_REFUSE, M_DATA, M_WIN, M_SHRINK, M_SHRINK_ACK, M_FIN, M_RST };
#define HF_CLOSED 1u /* FIN: the sender closed the socket, it receives nothing more */

/* Message header (8 words). edge/chunk: the sender's receive side of this connection. */
struct hdr {
    uint8_t type, flags;
    uint16_t aux; /* SYN: port; REFUSE: errno; SHRINK(_ACK): generation */
    uint16_t dst_id, dst_gen;
    uint16_t src_id, src_gen;
    uint32_t seq; /* DATA: stream offset; FIN: stream length; SHRINK_ACK: bytes sent */
    uint32_t len; /* DATA payload bytes */
    uint32_t edge, chunk;
    uint32_t src_tile;
};
_Static_assert(sizeof(struct hdr) == SOCK_HDR, "header");

enum { S_FREE = 0, S_NEW, S_LISTEN, S_SYN_SENT, S_EST, S_CLOSED, S_LINGER };
/* flags */
#define F_NONBLOCK    (1u << 0)
#define F_SHUT_RD     (1u << 1)
#define F_SHUT_WR     (1u << 2) /* FIN queued or sent */
#define F_FIN_RCVD    (1u << 3)
#define F_PEER_CLOSED (1u << 4)
#define F_RST         (1u << 5)
#define F_ACCEPTED    (1u << 6) /* handed out by accept() (or made by connect()) */
#define F_HAS_RX      (1u << 7) /* owns a buddy block */
#define F_BOUND       (1u << 8)
#define F_QUEUED      (1u << 9) /* in the control queue */
#define F_EPIPE_SEEN  (1u << 10)
/* pending control messages */
#define P_SYN         (1u << 0)
#define P_SYNACK      (1u << 1)
#define P_WIN         (1u << 2)
#define P_SHRINK      (1u << 3)
#define P_SHRINK_ACK  (1u << 4)
#define P_FIN         (1u << 5)
#define P_RST         (1u << 6)

struct sk {
    uint8_t state, blocked;
    uint16_t gen;
    uint32_t flags, pend;
    uint16_t port, peer_port;
    uint32_t peer_tile;
    uint16_t peer_id, peer_gen;
    int err;
    uint32_t rcvtimeo_us, sndtimeo_us; /* 0: none */
    /* listener */
    uint16_t backlog, nqueued;
    int32_t q_head, q_tail; /* accept queue (sk indices), -1 empty */
    int32_t q_next, listener;
    /* receive side: a ring of rx_size bytes at `ring`, normally the buddy block [rx_off, rx_off +
     * rx_target) of the space; while it shrinks (rx_size > rx_target) it is the old, larger block
     * or a copy of it in the heap (`spilled`). Bytes are counted modulo 2^32. */
    uint8_t *ring;
    uint8_t spilled;
    uint32_t rx_off, rx_size, rx_target, rx_head;
    uint32_t rcvd, consumed, adv_edge, edge_hi, fin_seq;
    uint16_t shrink_gen, ack_gen;
    /* send side */
    uint32_t sent, peer_edge, peer_chunk;
    /* a recv() waiting with an empty ring: data goes straight into its buffer (one copy less) */
    uint8_t *direct;
    uint32_t direct_len, direct_got;
};

struct txslot {
    mcapi_request_t req;
    uint32_t *buf; /* a staging buffer (data) or ctl */
    int32_t stage; /* staging buffer index, -1 for control */
    int32_t sk;    /* data: the connection (error reporting), else -1 */
    uint16_t gen;
    uint8_t busy;
    uint32_t ctl[SOCK_HDR / 4];
};

struct orphan {
    uint32_t tile;
    uint16_t dst_id, dst_gen, aux;
    uint8_t type;
};

static struct {
    int up;
    sockx_config_t cfg;
    uint32_t self, ntiles;
    mcapi_endpoint_t ep;
    mcapi_endpoint_t *peer;
    struct sk *sk;
    sock_buddy_t bd;
    sock_buddy_block_t *blocks;
    uint8_t *space;
    mcapi_request_t rx_req;
    uint32_t *rx_buf;
    int rx_posted;
    struct txslot tx[SOCK_TX_SLOTS];
    uint32_t *stage[SOCK_STAGE];
    uint32_t stage_busy;
    int32_t *ctlq; /* ring of sk indices with pending control messages */
    uint32_t ctlq_head, ctlq_n;
    struct orphan orphans[SOCK_ORPHANS];
    uint32_t orph_head, orph_n;
    uint32_t nblocked;
    uint16_t next_port;
    sockx_stats_t st;
} S;

static void sock_atexit(void);

/* ---------------------------------------------------------------- helpers */

static int fail(int e)
{
    errno = e;
    return -1;
}

static inline int32_t diff(uint32_t a, uint32_t b) { return (int32_t)(a - b); }

static struct sk *sk_of(int fd)
{
    if (!S.up || fd < SOCK_FD_BASE || (uint32_t)(fd - SOCK_FD_BASE) >= S.cfg.max_sockets)
        return NULL;
    struct sk *s = &S.sk[fd - SOCK_FD_BASE];
    if (s->state == S_FREE || s->state == S_LINGER || !(s->flags & F_ACCEPTED))
        return NULL;
    return s;
}

static inline int idx(const struct sk *s) { return (int)(s - S.sk); }
static inline int fd_of(const struct sk *s) { return idx(s) + SOCK_FD_BASE; }

static uint64_t deadline_us(uint32_t us)
{
    return us ? timer_now() + timer_us_to_ticks(us) : UINT64_MAX;
}

static void queue_ctl(struct sk *s, uint32_t p)
{
    s->pend |= p;
    if (!(s->flags & F_QUEUED)) {
        s->flags |= F_QUEUED;
        S.ctlq[(S.ctlq_head + S.ctlq_n++) % S.cfg.max_sockets] = idx(s);
    }
}

static void orphan(uint32_t tile, uint8_t type, uint16_t dst_id, uint16_t dst_gen, uint16_t aux)
{
    if (S.orph_n == SOCK_ORPHANS)
        return; /* cannot happen: draining stops while the queue is full */
    S.orphans[(S.orph_head + S.orph_n++) % SOCK_ORPHANS] = (struct orphan){
        .tile = tile, .dst_id = dst_id, .dst_gen = dst_gen, .aux = aux, .type = type};
}

/* ---------------------------------------------------------------- receive space */

static uint32_t rx_edge(const struct sk *s)
{
    return s->blocked ? s->consumed : s->consumed + s->rx_target;
}

/* Reverse [a, b) in place (a rotation of the ring is three of these). */
static void reverse(uint8_t *a, uint8_t *b)
{
    while (a < b) {
        uint8_t t = *a;
        *a++ = *--b;
        *b = t;
    }
}

/* Moves the unread bytes to the start of the ring (rx_head = 0). */
static void rx_linearize(struct sk *s)
{
    uint8_t *base = s->ring;
    uint32_t stored = s->rcvd - s->consumed, h = s->rx_head;
    if (h + stored <= s->rx_size) {
        memmove(base, base + h, stored);
    } else { /* wrapped: rotate the ring left by h */
        reverse(base, base + h);
        reverse(base + h, base + s->rx_size);
        reverse(base, base + s->rx_size);
    }
    s->rx_head = 0;
}

static int overlaps_shrinking(const struct sk *n)
{
    for (uint32_t i = 0; i < S.cfg.max_sockets; ++i) {
        const struct sk *s = &S.sk[i];
        if (s == n || !(s->flags & F_HAS_RX) || s->rx_size == s->rx_target || s->spilled)
            continue;
        if (s->rx_off < n->rx_off + n->rx_target && n->rx_off < s->rx_off + s->rx_size)
            return 1;
    }
    return 0;
}

/* Connections whose block was still part of another's ring get their window. */
static void unblock_scan(void)
{
    if (!S.nblocked)
        return;
    for (uint32_t i = 0; i < S.cfg.max_sockets; ++i) {
        struct sk *s = &S.sk[i];
        if (s->blocked && !overlaps_shrinking(s)) {
            s->blocked = 0;
            S.nblocked--;
            queue_ctl(s, P_WIN);
        }
    }
}

/* A shrinking ring goes (back) into its buddy block once nothing beyond the block's size can
 * arrive. */
static void try_compact(struct sk *s)
{
    if (!(s->flags & F_HAS_RX) || s->rx_size == s->rx_target ||
        diff(s->edge_hi, s->consumed) > (int32_t)s->rx_target)
        return;
    rx_linearize(s);
    if (s->spilled) {
        mp_copy(S.space + s->rx_off, s->ring, s->rcvd - s->consumed);
        free(s->ring);
        s->ring = S.space + s->rx_off;
        s->spilled = 0;
    }
    s->rx_size = s->rx_target;
    S.st.compactions++;
    unblock_scan();
}

/* v's block was halved while its peer may still send into the old size: its ring moves to the
 * heap until the peer has answered (SHRINK_ACK) and the data fits, so that the new connection
 * can use its half at once and never waits for v's reader. Without heap memory the ring stays
 * where it is and the new connection's window opens when v is compacted (blocked). */
static void rx_spill(struct sk *v)
{
    if (v->spilled)
        return;
    uint8_t *h = malloc(v->rx_size);
    if (!h)
        return;
    rx_linearize(v);
    mp_copy(h, v->ring, v->rcvd - v->consumed);
    v->ring = h;
    v->spilled = 1;
    S.st.spills++;
}

static int grow_ok(uint16_t owner, void *ctx)
{
    (void)owner;
    (void)ctx;
    return 1;
}

/* After a free: connections whose buddy became free take it (merge), and are told. */
static void rx_grow_all(void)
{
    uint16_t o;
    uint32_t oo, no, ns;
    while (sock_buddy_grow(&S.bd, grow_ok, NULL, &o, &oo, &no, &ns)) {
        struct sk *s = &S.sk[o];
        S.st.grows++;
        if (s->rx_size == s->rx_target) { /* not shrinking: the ring moves into the new block */
            rx_linearize(s);
            if (no != s->rx_off)
                memmove(S.space + no, S.space + s->rx_off, s->rcvd - s->consumed);
            s->rx_off = no;
            s->rx_size = ns;
            s->ring = S.space + no;
        }
        /* shrinking: the ring is in the heap or already spans the new block (a victim keeps the
         * lower half); it comes back once the rest fits */
        s->rx_target = ns;
        try_compact(s);
        /* the peer learns the larger chunk with our next message (piggy-backed, as in seed 003);
         * a message of its own only if it may be waiting for window (all it was given is here):
         * a burst of closes would otherwise send one per growth step */
        if (s->rcvd == s->adv_edge)
            queue_ctl(s, P_WIN);
    }
    unblock_scan();
}

static void rx_free(struct sk *s)
{
    if (!(s->flags & F_HAS_RX))
        return;
    s->flags &= ~F_HAS_RX;
    if (s->blocked) {
        s->blocked = 0;
        S.nblocked--;
    }
    sock_buddy_free(&S.bd, s->rx_off);
    if (s->spilled)
        free(s->ring);
    s->spilled = 0;
    s->ring = NULL;
    s->rx_size = s->rx_target = 0;
    rx_grow_all();
}

/* A receive chunk for s; 0 or -1 (the space is exhausted). */
static int rx_alloc(struct sk *s)
{
    uint32_t off, size;
    uint16_t victim;
    if (sock_buddy_alloc(&S.bd, (uint16_t)idx(s), &off, &size, &victim))
        return -1;
    s->flags |= F_HAS_RX;
    s->rx_off = off;
    s->ring = S.space + off;
    s->spilled = 0;
    s->rx_size = s->rx_target = size;
    s->rx_head = s->rcvd = s->consumed = s->adv_edge = s->edge_hi = 0;
    s->blocked = 0;
    if (victim != SOCK_BUDDY_FREE) {
        struct sk *v = &S.sk[victim];
        S.st.splits++;
        v->rx_target = size;
        if (diff(v->edge_hi, v->consumed) > (int32_t)size) { /* promised more: ask the peer */
            v->shrink_gen++;
            S.st.shrinks++;
            queue_ctl(v, P_SHRINK);
            rx_spill(v);
        } else {
            try_compact(v);
            queue_ctl(v, P_WIN); /* the peer is told its new chunk */
        }
    }
    /* also a free block can lie in a ring that is still shrinking */
    if (overlaps_shrinking(s)) {
        s->blocked = 1;
        S.nblocked++;
        S.st.shrink_waits++;
    }
    return 0;
}

/* ---------------------------------------------------------------- transmission */

static mcapi_endpoint_t peer_ep(uint32_t tile)
{
    if (tile >= S.ntiles)
        return NULL;
    if (!S.peer[tile]) {
        mcapi_status_t st;
        mcapi_endpoint_t e =
            mcapi_endpoint_get(MCAPI_DOMAIN, tile, SOCK_MCAPI_PORT, SOCK_LOOKUP_US, &st);
        if (st == MCAPI_SUCCESS)
            S.peer[tile] = e;
    }
    return S.peer[tile];
}

static void harvest_tx(void);

static struct txslot *tx_slot(int data)
{
    uint32_t busy = 0;
    for (uint32_t i = 0; i < SOCK_TX_SLOTS; ++i)
        busy += S.tx[i].busy;
    if (busy == SOCK_TX_SLOTS || (data && S.stage_busy == (1u << SOCK_STAGE) - 1u))
        harvest_tx();
    if (data && S.stage_busy == (1u << SOCK_STAGE) - 1u)
        return NULL;
    for (uint32_t i = 0; i < SOCK_TX_SLOTS; ++i) {
        struct txslot *t = &S.tx[i];
        if (t->busy)
            continue;
        t->stage = -1;
        t->buf = t->ctl;
        t->sk = -1;
        if (data) {
            for (uint32_t b = 0; b < SOCK_STAGE; ++b)
                if (!(S.stage_busy & (1u << b))) {
                    S.stage_busy |= 1u << b;
                    t->stage = (int32_t)b;
                    t->buf = S.stage[b];
                    break;
                }
        }
        return t;
    }
    return NULL;
}

static void tx_release(struct txslot *t)
{
    if (t->stage >= 0)
        S.stage_busy &= ~(1u << t->stage);
    t->busy = 0;
}

static void tx_done(struct txslot *t, mcapi_status_t st)
{
    if (st != MCAPI_SUCCESS && t->sk >= 0) { /* a data message was lost: the stream is broken */
        struct sk *s = &S.sk[t->sk];
        if (s->gen == t->gen && s->state == S_EST && !s->err)
            s->err = ECONNRESET;
    }
    tx_release(t);
}

/* Hands a built message to MCAPI. 0, or -1 (slot released: MCAPI has no room now, try later;
 * or the tile is unknown). */
static int tx_start(struct txslot *t, uint32_t tile, uint32_t bytes)
{
    mcapi_endpoint_t dst = peer_ep(tile);
    if (!dst) {
        tx_release(t);
        return -2;
    }
    mcapi_status_t st;
    t->busy = 1;
    mcapi_msg_send_i(S.ep, dst, t->buf, bytes, 0, &t->req, &st);
    if (st == MCAPI_ERR_MEM_LIMIT) {
        tx_release(t);
        return -1;
    }
    S.st.msgs_tx++;
    if (st != MCAPI_PENDING)
        tx_done(t, st);
    return 0;
}

static void fill_hdr(struct hdr *h, const struct sk *s, uint8_t type)
{
    *h = (struct hdr){.type = type,
                      .dst_id = s->peer_id,
                      .dst_gen = s->peer_gen,
                      .src_id = (uint16_t)idx(s),
                      .src_gen = s->gen,
                      .src_tile = S.self};
    if (s->flags & F_HAS_RX) {
        h->edge = rx_edge(s);
        h->chunk = s->rx_target;
    } else {
        h->edge = s->consumed; /* nothing more may come */
    }
}

/* The header went out: what it told the peer about our receive side. */
static void told(struct sk *s, const struct hdr *h)
{
    s->adv_edge = h->edge;
    if (diff(h->edge, s->edge_hi) > 0)
        s->edge_hi = h->edge;
}

static void sk_release(struct sk *s);
static void consumed(struct sk *s, uint32_t n);

/* Sends the pending control messages of s, one per free slot. 1 when none is left. */
static int flush_sk(struct sk *s)
{
    static const uint32_t order[] = {P_SYN, P_SYNACK, P_SHRINK_ACK, P_SHRINK, P_WIN, P_FIN, P_RST};
    static const uint8_t type[] = {M_SYN, M_SYNACK, M_SHRINK_ACK, M_SHRINK, M_WIN, M_FIN, M_RST};
    if (s->flags & (F_RST | F_PEER_CLOSED)) { /* the peer takes nothing more: tell it nothing */
        s->pend = 0;
        return 1;
    }
    for (uint32_t k = 0; k < sizeof order / sizeof order[0]; ++k) {
        if (!(s->pend & order[k]))
            continue;
        if (s->state == S_SYN_SENT && order[k] != P_SYN)
            continue; /* the peer's socket is not known before its SYNACK: wait for it */
        struct txslot *t = tx_slot(0);
        if (!t)
            return 0;
        struct hdr *h = (struct hdr *)t->buf;
        fill_hdr(h, s, type[k]);
        switch (order[k]) {
        case P_SYN:
            h->aux = s->peer_port;
            h->seq = s->port; /* ours, for the peer's getpeername */
            h->dst_id = h->dst_gen = 0;
            break;
        case P_SHRINK: h->aux = s->shrink_gen; break;
        case P_SHRINK_ACK:
            h->aux = s->ack_gen;
            h->seq = s->sent;
            break;
        case P_FIN:
            h->seq = s->sent;
            h->flags = s->state == S_LINGER ? HF_CLOSED : 0;
            break;
        case P_RST: S.st.resets_tx++; break;
        default: break;
        }
        int rc = tx_start(t, s->peer_tile, SOCK_HDR);
        if (rc == -1)
            return 0;
        s->pend &= ~order[k];
        if (rc == 0) {
            told(s, h);
            if (order[k] == P_WIN)
                S.st.win_tx++;
        }
        if (order[k] == P_RST || (order[k] == P_FIN && s->state == S_LINGER))
            s->pend = 0; /* nothing follows the last message */
    }
    return 1;
}

static void flush_ctl(void)
{
    while (S.orph_n) {
        struct orphan *o = &S.orphans[S.orph_head];
        struct txslot *t = tx_slot(0);
        if (!t)
            return;
        struct hdr *h = (struct hdr *)t->buf;
        *h = (struct hdr){.type = o->type,
                          .aux = o->aux,
                          .dst_id = o->dst_id,
                          .dst_gen = o->dst_gen,
                          .src_tile = S.self};
        if (o->type == M_RST)
            S.st.resets_tx++;
        if (tx_start(t, o->tile, SOCK_HDR) == -1)
            return;
        S.orph_head = (S.orph_head + 1u) % SOCK_ORPHANS;
        S.orph_n--;
    }
    for (uint32_t n = S.ctlq_n; n; --n) {
        int32_t i = S.ctlq[S.ctlq_head];
        struct sk *s = &S.sk[i];
        if (s->pend && !flush_sk(s))
            return; /* no slot: try again later, in order */
        S.ctlq_head = (S.ctlq_head + 1u) % S.cfg.max_sockets;
        S.ctlq_n--;
        s->flags &= ~F_QUEUED;
        if (s->state == S_LINGER)
            sk_release(s);
    }
}

/* ---------------------------------------------------------------- sockets */

static struct sk *sk_new(void)
{
    for (uint32_t i = 0; i < S.cfg.max_sockets; ++i) {
        struct sk *s = &S.sk[i];
        if (s->state == S_FREE) {
            uint16_t gen = s->gen;
            memset(s, 0, sizeof *s);
            s->gen = gen;
            s->state = S_NEW;
            s->q_head = s->q_tail = s->q_next = s->listener = -1;
            return s;
        }
    }
    return NULL;
}

/* The table entry is free again; its generation changes so late messages find no socket. */
static void sk_release(struct sk *s)
{
    rx_free(s);
    if (s->flags & F_QUEUED) { /* released from the queue's walk, or queued work left over */
        s->state = S_LINGER;
        s->pend = 0;
        return;
    }
    s->state = S_FREE;
    s->gen++;
}

static void sk_error(struct sk *s, int e)
{
    if (!s->err)
        s->err = e;
}

/* Drops a connection that never reached accept(). */
static void sk_abort_embryo(struct sk *s)
{
    if (s->state == S_EST && !(s->flags & (F_RST | F_PEER_CLOSED)))
        queue_ctl(s, P_RST);
    rx_free(s);
    s->state = S_LINGER;
    if (!(s->flags & F_QUEUED))
        sk_release(s);
}

static struct sk *find_listener(uint16_t port)
{
    for (uint32_t i = 0; i < S.cfg.max_sockets; ++i)
        if (S.sk[i].state == S_LISTEN && S.sk[i].port == port)
            return &S.sk[i];
    return NULL;
}

static int port_used(uint16_t port)
{
    for (uint32_t i = 0; i < S.cfg.max_sockets; ++i) {
        const struct sk *s = &S.sk[i];
        if (s->state != S_FREE && s->state != S_LINGER && (s->flags & F_BOUND) && s->port == port &&
            (s->flags & F_ACCEPTED))
            return 1;
    }
    return 0;
}

static uint16_t ephemeral_port(void)
{
    for (uint32_t n = 0; n < 16384u; ++n) {
        uint16_t p = (uint16_t)(49152u + (S.next_port++ & 16383u));
        if (!port_used(p))
            return p;
    }
    return 0;
}

/* ---------------------------------------------------------------- arrivals */

static void on_syn(const struct hdr *h)
{
    struct sk *l = find_listener(h->aux);
    if (!l || l->nqueued >= l->backlog) {
        S.st.refused_noport++;
        orphan(h->src_tile, M_REFUSE, h->src_id, h->src_gen, ECONNREFUSED);
        return;
    }
    struct sk *s = sk_new();
    if (!s || rx_alloc(s)) {
        if (s)
            s->state = S_FREE;
        S.st.refused_nobufs++;
        orphan(h->src_tile, M_REFUSE, h->src_id, h->src_gen, ENOBUFS);
        return;
    }
    s->state = S_EST;
    s->port = l->port; /* not F_BOUND: the listener's port stays bindable after it closes */
    s->peer_tile = h->src_tile;
    s->peer_port = (uint16_t)h->seq;
    s->peer_id = h->src_id;
    s->peer_gen = h->src_gen;
    s->peer_edge = h->edge;
    s->peer_chunk = h->chunk;
    s->listener = idx(l);
    if (l->q_tail >= 0)
        S.sk[l->q_tail].q_next = idx(s);
    else
        l->q_head = idx(s);
    l->q_tail = idx(s);
    l->nqueued++;
    queue_ctl(s, P_SYNACK);
}

static void on_data(struct sk *s, const struct hdr *h, const uint8_t *payload)
{
    if (h->seq != s->rcvd) { /* cannot happen with ordered delivery: a bug, not a hang */
        sk_error(s, EPROTO);
        queue_ctl(s, P_RST);
        return;
    }
    uint32_t n = h->len;
    S.st.bytes_rx += n;
    S.st.data_msgs_rx++;
    if (s->direct_len && s->rcvd == s->consumed && !(s->flags & F_SHUT_RD)) {
        uint32_t k = n < s->direct_len ? n : s->direct_len;
        mp_copy(s->direct, payload, k);
        s->direct += k;
        s->direct_len -= k;
        s->direct_got += k;
        s->rcvd += k;
        consumed(s, k);
        payload += k;
        n -= k;
        if (!n)
            return;
    }
    s->rcvd += n;
    if (diff(s->rcvd, s->consumed) > (int32_t)s->rx_size) { /* beyond the window we gave */
        s->rcvd -= n;
        sk_error(s, EPROTO);
        queue_ctl(s, P_RST);
        return;
    }
    uint32_t pos = (s->rx_head + (s->rcvd - n - s->consumed)) & (s->rx_size - 1u);
    uint32_t first = s->rx_size - pos < n ? s->rx_size - pos : n;
    mp_copy(s->ring + pos, payload, first);
    mp_copy(s->ring, payload + first, n - first);
    if (s->flags & F_SHUT_RD) /* read side shut: dropped, the window stays open */
        consumed(s, n);
}

static void dispatch(const uint32_t *buf, size_t size)
{
    const struct hdr *h = (const struct hdr *)buf;
    S.st.msgs_rx++;
    if (size < SOCK_HDR || (h->type == M_DATA && h->len != size - SOCK_HDR))
        return; /* not ours */
    if (h->type == M_SYN) {
        on_syn(h);
        return;
    }
    struct sk *s = NULL;
    if (h->dst_id < S.cfg.max_sockets) {
        s = &S.sk[h->dst_id];
        if (s->gen != h->dst_gen || s->state == S_FREE || s->state == S_NEW || s->state == S_LISTEN)
            s = NULL;
        else if (s->state != S_SYN_SENT && (s->peer_tile != h->src_tile ||
                                            s->peer_id != h->src_id || s->peer_gen != h->src_gen))
            s = NULL;
        else if (s->state == S_SYN_SENT && s->peer_tile != h->src_tile)
            s = NULL;
    }
    if (!s) { /* data (or an accept) for a socket that is gone: the sender must stop */
        if (h->type == M_DATA || h->type == M_SYNACK)
            orphan(h->src_tile, M_RST, h->src_id, h->src_gen, 0);
        return;
    }
    if (s->state == S_SYN_SENT) {
        if (h->type == M_SYNACK) {
            s->state = S_EST;
            s->peer_id = h->src_id;
            s->peer_gen = h->src_gen;
            s->peer_edge = h->edge;
            s->peer_chunk = h->chunk;
            if (s->pend) /* held back while the peer was unknown (a shrink, a window) */
                queue_ctl(s, 0);
        } else if (h->type == M_REFUSE) {
            s->state = S_CLOSED;
            sk_error(s, h->aux);
            rx_free(s);
        }
        return;
    }
    if (s->state == S_LINGER || s->state == S_CLOSED)
        return; /* closed here: the peer learns it from our FIN or RST */
    s->peer_edge = h->edge;
    s->peer_chunk = h->chunk;
    switch (h->type) {
    case M_DATA: on_data(s, h, (const uint8_t *)buf + SOCK_HDR); break;
    case M_SHRINK:
        s->ack_gen = h->aux;
        queue_ctl(s, P_SHRINK_ACK);
        break;
    case M_SHRINK_ACK:
        if (h->aux == s->shrink_gen) { /* everything sent under older edges has arrived */
            s->edge_hi = diff(s->rcvd, s->adv_edge) > 0 ? s->rcvd : s->adv_edge;
            try_compact(s);
        }
        break;
    case M_FIN:
        s->flags |= F_FIN_RCVD;
        s->fin_seq = h->seq;
        if (h->flags & HF_CLOSED)
            s->flags |= F_PEER_CLOSED;
        s->edge_hi = s->rcvd; /* nothing more comes: a shrink need not wait for an answer */
        try_compact(s);
        break;
    case M_RST:
        s->flags |= F_RST;
        S.st.resets_rx++;
        sk_error(s, ECONNRESET);
        s->pend = 0; /* nothing more to tell a peer that is gone */
        s->edge_hi = s->rcvd;
        try_compact(s);
        break;
    default: break;
    }
}

/* ---------------------------------------------------------------- progress */

/* 1 if the receive completed at once (a message was there). */
static int post_rx(void)
{
    mcapi_status_t st;
    mcapi_msg_recv_i(S.ep, S.rx_buf, 1u << SOCK_SLOT_LOG2, &S.rx_req, &st);
    S.rx_posted = 1;
    return st != MCAPI_PENDING;
}

/* Finished sends give their slot back. Over the software transport testing a send is also what
 * drives it (allocation, data, completion are the sending core's work). */
static void harvest_tx(void)
{
    mcapi_status_t st;
    size_t size;
    for (uint32_t i = 0; i < SOCK_TX_SLOTS; ++i) {
        struct txslot *t = &S.tx[i];
        if (t->busy && mcapi_test(&t->req, &size, &st))
            tx_done(t, st);
    }
}

/* Everything that can move now: sends finished, arrivals dispatched, control messages out. */
static void progress(void)
{
    mcapi_status_t st;
    size_t size;
#ifndef MP_TRANSPORT_NAMP
    harvest_tx();
#endif /* the NAMP finishes sends by itself: their slots are taken back when needed */
    /* drain while there is room for the replies the arrivals may need; a receive request is
     * posted only when something is there (a failed test costs more than a look at the count) */
    while (S.orph_n < SOCK_ORPHANS) {
        if (!S.rx_posted) {
            if (mcapi_msg_available(S.ep, &st) == 0)
                break;
            post_rx();
        }
        if (!mcapi_test(&S.rx_req, &size, &st))
            break;
        S.rx_posted = 0;
        if (st == MCAPI_SUCCESS)
            dispatch(S.rx_buf, size);
        if (S.orph_n >= SOCK_ORPHANS / 2)
            flush_ctl();
    }
    flush_ctl();
}

/* Sleeps until a message arrives, a send of ours finishes, or the deadline (mtime). */
static void sleep_until(uint64_t deadline)
{
    mcapi_request_t *list[1 + SOCK_TX_SLOTS];
    size_t n = 0;
    if (!S.rx_posted && post_rx())
        return; /* a message came meanwhile: no sleep */
    list[n++] = &S.rx_req;
    for (uint32_t i = 0; i < SOCK_TX_SLOTS; ++i)
        if (S.tx[i].busy)
            list[n++] = &S.tx[i].req;
    uint64_t now = timer_now();
    if (deadline != UINT64_MAX && now >= deadline)
        return;
    uint32_t us = MCAPI_TIMEOUT_INFINITE;
    if (deadline != UINT64_MAX) {
        uint64_t t = (deadline - now) * 1000000u / timer_hz() + 1u;
        us = t > 0xFFFFFFF0u ? 0xFFFFFFF0u : (uint32_t)t;
    }
    if (S.ctlq_n || S.orph_n) /* control messages wait for MCAPI room: look again soon */
        us = us > 50u ? 50u : us;
    mcapi_status_t st;
    mcapi_wait_any(n, list, NULL, us, &st);
}

/* ---------------------------------------------------------------- set-up */

int sockx_init(const sockx_config_t *cfg)
{
    if (tile_core_id() != 0)
        return fail(EPERM);
    if (S.up)
        return fail(EBUSY);
    sockx_config_t c = {.space = 16384, .min_chunk = 256, .max_sockets = 64};
    if (cfg) {
        if (cfg->space)
            c.space = cfg->space;
        if (cfg->min_chunk)
            c.min_chunk = cfg->min_chunk;
        if (cfg->max_sockets)
            c.max_sockets = cfg->max_sockets;
    }
    if (c.max_sockets > 0xFFFEu)
        return fail(EINVAL);
    uint32_t nblocks = c.space / (c.min_chunk ? c.min_chunk : 1u);
    if (nblocks > 2u * c.max_sockets + 32u) /* enough for every connection plus free blocks */
        nblocks = 2u * c.max_sockets + 32u;
    sock_buddy_block_t *blocks = malloc(nblocks * sizeof *blocks);
    if (!blocks)
        return fail(ENOMEM);
    if (sock_buddy_init(&S.bd, c.space, c.min_chunk, blocks, nblocks)) {
        free(blocks);
        return fail(EINVAL);
    }
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_initialize(MCAPI_DOMAIN, tile_id(), NULL, NULL, &info, &st);
    if (st != MCAPI_SUCCESS && st != MCAPI_ERR_NODE_INITIALIZED) {
        free(blocks);
        return fail(EIO);
    }
    S.ntiles = tile_mesh_width() * tile_mesh_height();
    S.self = tile_id();
    S.space = malloc(c.space);
    S.sk = calloc(c.max_sockets, sizeof *S.sk);
    S.ctlq = malloc(c.max_sockets * sizeof *S.ctlq);
    S.peer = calloc(S.ntiles, sizeof *S.peer);
    S.rx_buf = malloc(1u << SOCK_SLOT_LOG2);
    int ok = S.space && S.sk && S.ctlq && S.peer && S.rx_buf;
    for (uint32_t b = 0; b < SOCK_STAGE; ++b)
        ok = ok && (S.stage[b] = malloc(1u << SOCK_SLOT_LOG2)) != NULL;
    if (!ok)
        return fail(ENOMEM); /* the tile is short of memory for good: no clean-up attempted */
    mcapix_endpoint_attributes_t a = {.capacity_log2 = SOCK_CAP_LOG2,
                                      .max_msg_log2 = SOCK_SLOT_LOG2};
    S.ep = mcapix_endpoint_create(SOCK_MCAPI_PORT, &a, &st);
    if (st != MCAPI_SUCCESS)
        return fail(EIO);
    S.blocks = blocks;
    S.cfg = c;
    S.next_port = (uint16_t)(S.self * 131u);
    S.up = 1;
    post_rx();
    atexit(sock_atexit);
    return 0;
}

static int ensure_up(void)
{
    if (S.up)
        return 0;
    return sockx_init(NULL);
}

/* ---------------------------------------------------------------- POSIX calls */

int socket(int domain, int type, int protocol)
{
    if (ensure_up())
        return -1;
    if (domain != AF_TILE)
        return fail(EAFNOSUPPORT);
    if ((type & ~SOCK_NONBLOCK) != SOCK_STREAM)
        return fail(EPROTONOSUPPORT);
    if (protocol != 0)
        return fail(EPROTONOSUPPORT);
    struct sk *s = sk_new();
    if (!s)
        return fail(EMFILE);
    s->flags = F_ACCEPTED | ((type & SOCK_NONBLOCK) ? F_NONBLOCK : 0u);
    return fd_of(s);
}

static int addr_in(const struct sockaddr *addr, socklen_t len, struct sockaddr_tile *out)
{
    if (!addr)
        return fail(EFAULT);
    if (len < sizeof(struct sockaddr_tile))
        return fail(EINVAL);
    mp_copy(out, addr, sizeof *out);
    if (out->st_family != AF_TILE)
        return fail(EAFNOSUPPORT);
    return 0;
}

static void addr_out(struct sockaddr *addr, socklen_t *len, uint32_t tile, uint16_t port)
{
    if (!addr || !len)
        return;
    struct sockaddr_tile a = {.st_family = AF_TILE, .st_port = port, .st_tile = tile};
    mp_copy(addr, &a, *len < sizeof a ? *len : sizeof a);
    *len = sizeof a;
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
    struct sk *s = sk_of(fd);
    struct sockaddr_tile a;
    if (!s)
        return fail(EBADF);
    if (addr_in(addr, len, &a))
        return -1;
    if (s->state != S_NEW || (s->flags & F_BOUND))
        return fail(EINVAL);
    if (a.st_tile != S.self)
        return fail(EADDRNOTAVAIL);
    uint16_t port = a.st_port ? a.st_port : ephemeral_port();
    if (!port || port_used(port))
        return fail(EADDRINUSE);
    s->port = port;
    s->flags |= F_BOUND;
    return 0;
}

int listen(int fd, int backlog)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (s->state == S_LISTEN) {
        s->backlog = (uint16_t)(backlog < 1 ? 1 : backlog > SOMAXCONN ? SOMAXCONN : backlog);
        return 0;
    }
    if (s->state != S_NEW)
        return fail(EINVAL);
    if (!(s->flags & F_BOUND)) {
        s->port = ephemeral_port();
        if (!s->port)
            return fail(EADDRINUSE);
        s->flags |= F_BOUND;
    }
    s->state = S_LISTEN;
    s->backlog = (uint16_t)(backlog < 1 ? 1 : backlog > SOMAXCONN ? SOMAXCONN : backlog);
    return 0;
}

int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
    struct sk *l = sk_of(fd);
    if (!l)
        return fail(EBADF);
    if (l->state != S_LISTEN)
        return fail(EINVAL);
    if (addr && !len)
        return fail(EFAULT);
    uint64_t dl = deadline_us(l->rcvtimeo_us);
    for (;;) {
        progress();
        while (l->q_head >= 0) {
            struct sk *s = &S.sk[l->q_head];
            l->q_head = s->q_next;
            if (l->q_head < 0)
                l->q_tail = -1;
            l->nqueued--;
            s->q_next = s->listener = -1;
            if (s->flags & F_RST) { /* reset before it was accepted: skip it */
                sk_abort_embryo(s);
                continue;
            }
            s->flags |= F_ACCEPTED | (l->flags & F_NONBLOCK);
            addr_out(addr, len, s->peer_tile, s->peer_port);
            return fd_of(s);
        }
        if (l->flags & F_NONBLOCK)
            return fail(EAGAIN);
        if (dl != UINT64_MAX && timer_now() >= dl)
            return fail(EAGAIN);
        sleep_until(dl);
    }
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
    struct sk *s = sk_of(fd);
    struct sockaddr_tile a;
    if (!s)
        return fail(EBADF);
    if (s->state == S_SYN_SENT)
        return fail(EALREADY);
    if (s->state == S_EST)
        return fail(EISCONN);
    if (s->state != S_NEW)
        return fail(s->state == S_LISTEN ? EINVAL : EISCONN);
    if (addr_in(addr, len, &a))
        return -1;
    if (a.st_tile >= S.ntiles || a.st_port == 0)
        return fail(EINVAL);
    if (!peer_ep(a.st_tile))
        return fail(ECONNREFUSED); /* no socket layer on that tile */
    if (!(s->flags & F_BOUND)) {
        s->port = ephemeral_port();
        if (!s->port)
            return fail(EADDRNOTAVAIL);
        s->flags |= F_BOUND;
    }
    if (rx_alloc(s))
        return fail(ENOBUFS);
    s->peer_tile = a.st_tile;
    s->peer_port = a.st_port;
    s->state = S_SYN_SENT;
    queue_ctl(s, P_SYN);
    progress();
    if (s->flags & F_NONBLOCK) {
        if (s->state == S_EST)
            return 0;
        return fail(EINPROGRESS);
    }
    uint64_t dl = deadline_us(s->sndtimeo_us);
    while (s->state == S_SYN_SENT) {
        if (dl != UINT64_MAX && timer_now() >= dl)
            return fail(ETIMEDOUT); /* the connection may still come up; poll tells */
        sleep_until(dl);
        progress();
    }
    if (s->state != S_EST) {
        int e = s->err ? s->err : ECONNREFUSED;
        s->err = 0;
        return fail(e);
    }
    return 0;
}

/* The application read n bytes: compaction, window update. */
static void consumed(struct sk *s, uint32_t n)
{
    s->consumed += n;
    s->rx_head = (s->rx_head + n) & (s->rx_size - 1u);
    try_compact(s);
    uint32_t e = rx_edge(s);
    if (diff(e, s->adv_edge) >= (int32_t)(s->rx_target / 2u ? s->rx_target / 2u : 1u) &&
        !(s->flags & (F_RST | F_PEER_CLOSED)))
        queue_ctl(s, P_WIN);
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (!buf && len)
        return fail(EFAULT);
    if (s->state != S_EST && s->state != S_CLOSED)
        return fail(ENOTCONN);
    int nonblock = (s->flags & F_NONBLOCK) || (flags & MSG_DONTWAIT);
    uint64_t dl = deadline_us(s->rcvtimeo_us);
    size_t got = 0;
    uint8_t *out = buf;
    ssize_t ret;
    for (;;) {
        progress();
        got += s->direct_got; /* what arrived straight into the buffer */
        s->direct_got = 0;
        s->direct_len = 0;
        uint32_t avail = (s->flags & F_HAS_RX) ? s->rcvd - s->consumed : 0u;
        if (avail && got < len) {
            uint32_t n = len - got < avail ? (uint32_t)(len - got) : avail;
            uint32_t first = s->rx_size - s->rx_head < n ? s->rx_size - s->rx_head : n;
            mp_copy(out + got, s->ring + s->rx_head, first);
            mp_copy(out + got + first, s->ring, n - first);
            if (flags & MSG_PEEK) {
                ret = (ssize_t)n;
                break;
            }
            consumed(s, n);
            got += n;
        }
        if (got && (!(flags & MSG_WAITALL) || got == len)) {
            if (S.ctlq_n)
                flush_ctl(); /* the window update goes out now */
            ret = (ssize_t)got;
            break;
        }
        if (got == len) {
            ret = (ssize_t)got;
            break;
        }
        if (s->err) {
            ret = got ? (ssize_t)got : fail(s->err);
            break;
        }
        if ((s->flags & F_SHUT_RD) || ((s->flags & F_FIN_RCVD) && s->consumed == s->fin_seq) ||
            s->state == S_CLOSED) {
            ret = (ssize_t)got; /* end of stream */
            break;
        }
        if (nonblock || (dl != UINT64_MAX && timer_now() >= dl)) {
            ret = got ? (ssize_t)got : fail(EAGAIN);
            break;
        }
        if (!(flags & MSG_PEEK) && (s->flags & F_HAS_RX)) { /* the ring is empty here */
            s->direct = out + got;
            s->direct_len = (uint32_t)(len - got);
        }
        sleep_until(dl);
    }
    s->direct_len = 0;
    return ret;
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (!buf && len)
        return fail(EFAULT);
    if (s->state == S_NEW || s->state == S_LISTEN || s->state == S_SYN_SENT)
        return fail(ENOTCONN);
    int nonblock = (s->flags & F_NONBLOCK) || (flags & MSG_DONTWAIT);
    uint64_t dl = deadline_us(s->sndtimeo_us);
    const uint8_t *in = buf;
    size_t done = 0;
    for (;;) {
        progress();
        if (s->err || s->state != S_EST) {
            if (done)
                return (ssize_t)done;
            int e = s->err ? s->err : EPIPE;
            s->err = 0; /* reported once (ECONNRESET), then EPIPE as on a reset socket */
            if (s->state == S_EST || s->state == S_CLOSED)
                s->state = S_CLOSED;
            return fail(e);
        }
        if (s->flags & (F_SHUT_WR | F_PEER_CLOSED))
            return done ? (ssize_t)done : fail(EPIPE);
        if (done == len)
            return (ssize_t)done;
        int32_t win = diff(s->peer_edge, s->sent);
        struct txslot *t = win > 0 ? tx_slot(1) : NULL;
        if (t) {
            uint32_t n = (uint32_t)(len - done);
            if (n > (uint32_t)win)
                n = (uint32_t)win;
            if (n > SOCK_MSS)
                n = SOCK_MSS;
            struct hdr *h = (struct hdr *)t->buf;
            fill_hdr(h, s, M_DATA);
            h->seq = s->sent;
            h->len = n;
            mp_copy((uint8_t *)t->buf + SOCK_HDR, in + done, n);
            t->sk = idx(s);
            t->gen = s->gen;
            int rc = tx_start(t, s->peer_tile, SOCK_HDR + n);
            if (rc == 0) {
                told(s, h);
                s->pend &= ~P_WIN; /* the update rode along */
                s->sent += n;
                done += n;
                S.st.bytes_tx += n;
                S.st.data_msgs_tx++;
                if (done == len)
                    return (ssize_t)done;
                continue;
            }
            if (rc == -2) {
                sk_error(s, ECONNRESET);
                continue;
            }
        }
        if (nonblock || (dl != UINT64_MAX && timer_now() >= dl))
            return done ? (ssize_t)done : fail(EAGAIN);
        sleep_until(dl);
    }
}

int shutdown(int fd, int how)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (how < SHUT_RD || how > SHUT_RDWR)
        return fail(EINVAL);
    if (s->state != S_EST)
        return fail(ENOTCONN);
    if (how != SHUT_WR) {
        s->flags |= F_SHUT_RD;
        if (s->flags & F_HAS_RX)
            consumed(s, s->rcvd - s->consumed); /* unread data is dropped, the window stays open */
    }
    if (how != SHUT_RD && !(s->flags & F_SHUT_WR)) {
        s->flags |= F_SHUT_WR;
        if (!(s->flags & F_RST))
            queue_ctl(s, P_FIN);
    }
    progress();
    return 0;
}

int close(int fd)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (s->state == S_LISTEN) { /* connections nobody accepted are reset */
        while (s->q_head >= 0) {
            struct sk *e = &S.sk[s->q_head];
            s->q_head = e->q_next;
            sk_abort_embryo(e);
        }
        sk_release(s);
        return 0;
    }
    if (s->state == S_EST && !(s->flags & (F_RST | F_PEER_CLOSED))) {
        /* unread data: a reset, as TCP does; otherwise FIN with "closed": the peer's sends fail.
         * A peer that closed first is told nothing: it may have exited already, and on the
         * baseline adapter a message to a halted tile is never taken (the sender would wait). */
        int unread = (s->flags & F_HAS_RX) && s->rcvd != s->consumed;
        rx_free(s);
        s->state = S_LINGER;
        s->pend &= ~(P_WIN | P_SHRINK | P_SHRINK_ACK);
        queue_ctl(s, unread ? P_RST : P_FIN);
        progress();
        return 0;
    }
    /* SYN_SENT: a late SYNACK finds no socket and is answered with a reset */
    s->pend = 0;
    sk_release(s);
    return 0;
}

int fcntl(int fd, int cmd, ...)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (cmd == F_GETFL)
        return O_RDWR | ((s->flags & F_NONBLOCK) ? O_NONBLOCK : 0);
    if (cmd != F_SETFL)
        return fail(EINVAL);
    va_list ap;
    va_start(ap, cmd);
    int v = va_arg(ap, int);
    va_end(ap);
    if (v & O_NONBLOCK)
        s->flags |= F_NONBLOCK;
    else
        s->flags &= ~F_NONBLOCK;
    return 0;
}

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (!val || !len)
        return fail(EFAULT);
    if (level != SOL_SOCKET)
        return fail(ENOPROTOOPT);
    if (name == SO_RCVTIMEO || name == SO_SNDTIMEO) {
        if (*len < sizeof(struct timeval))
            return fail(EINVAL);
        uint32_t us = name == SO_RCVTIMEO ? s->rcvtimeo_us : s->sndtimeo_us;
        struct timeval tv = {.tv_sec = us / 1000000u, .tv_usec = us % 1000000u};
        mp_copy(val, &tv, sizeof tv);
        *len = sizeof tv;
        return 0;
    }
    int v;
    if (name == SO_ERROR) {
        progress();
        v = s->err;
        s->err = 0;
    } else if (name == SO_RCVBUF) {
        v = (int)s->rx_target;
    } else if (name == SO_SNDBUF) {
        v = (int)s->peer_chunk;
    } else if (name == SO_REUSEADDR) {
        v = 0;
    } else {
        return fail(ENOPROTOOPT);
    }
    if (*len < sizeof v)
        return fail(EINVAL);
    mp_copy(val, &v, sizeof v);
    *len = sizeof v;
    return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (!val)
        return fail(EFAULT);
    if (level != SOL_SOCKET)
        return fail(ENOPROTOOPT);
    if (name == SO_RCVTIMEO || name == SO_SNDTIMEO) {
        struct timeval tv;
        if (len < sizeof tv)
            return fail(EINVAL);
        mp_copy(&tv, val, sizeof tv);
        if (tv.tv_sec < 0 || tv.tv_usec < 0 || tv.tv_usec >= 1000000 || tv.tv_sec > 4000)
            return fail(EDOM);
        uint32_t us = (uint32_t)tv.tv_sec * 1000000u + (uint32_t)tv.tv_usec;
        if (name == SO_RCVTIMEO)
            s->rcvtimeo_us = us;
        else
            s->sndtimeo_us = us;
        return 0;
    }
    if (name == SO_REUSEADDR)
        return len < sizeof(int) ? fail(EINVAL) : 0;
    return fail(ENOPROTOOPT); /* the chunk sizes are the buddy allocator's to choose */
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (!addr || !len)
        return fail(EFAULT);
    addr_out(addr, len, S.self, s->port);
    return 0;
}

int getpeername(int fd, struct sockaddr *addr, socklen_t *len)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return fail(EBADF);
    if (!addr || !len)
        return fail(EFAULT);
    if (s->state != S_EST)
        return fail(ENOTCONN);
    addr_out(addr, len, s->peer_tile, s->peer_port);
    return 0;
}

static short ready(struct sk *s, short events)
{
    short r = 0;
    if (s->state == S_LISTEN) {
        for (int32_t i = s->q_head; i >= 0; i = S.sk[i].q_next)
            if (!(S.sk[i].flags & F_RST))
                return events & POLLIN;
        return 0;
    }
    if (s->state == S_NEW || s->state == S_SYN_SENT)
        return 0;
    if (s->state == S_CLOSED)
        return (short)(POLLHUP | (s->err ? POLLERR : 0) | (events & (POLLIN | POLLOUT)));
    uint32_t avail = (s->flags & F_HAS_RX) ? s->rcvd - s->consumed : 0u;
    int eof = (s->flags & F_SHUT_RD) || ((s->flags & F_FIN_RCVD) && s->consumed == s->fin_seq);
    if (avail || eof || s->err)
        r |= POLLIN;
    if (s->err || (s->flags & (F_PEER_CLOSED | F_SHUT_WR)) || diff(s->peer_edge, s->sent) > 0)
        r |= POLLOUT; /* writable, or a send fails at once */
    r &= events;
    if (s->err)
        r |= POLLERR;
    if ((s->flags & F_RST) || ((s->flags & F_PEER_CLOSED) && eof))
        r |= POLLHUP;
    return r;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    if (!fds && n)
        return fail(EFAULT);
    if (ensure_up())
        return -1;
    uint64_t dl =
        timeout < 0 ? UINT64_MAX : timer_now() + timer_us_to_ticks((uint32_t)timeout * 1000u);
    for (;;) {
        progress();
        int count = 0;
        for (nfds_t i = 0; i < n; ++i) {
            fds[i].revents = 0;
            if (fds[i].fd < 0)
                continue;
            struct sk *s = sk_of(fds[i].fd);
            fds[i].revents = s ? ready(s, fds[i].events) : POLLNVAL;
            if (fds[i].revents)
                count++;
        }
        if (count || timeout == 0 || (dl != UINT64_MAX && timer_now() >= dl))
            return count;
        sleep_until(dl);
    }
}

/* ---------------------------------------------------------------- extensions */

uint32_t sockx_chunk(int fd)
{
    struct sk *s = sk_of(fd);
    return s && (s->flags & F_HAS_RX) ? s->rx_target : 0u;
}

uint32_t sockx_peer_chunk(int fd)
{
    struct sk *s = sk_of(fd);
    if (!s)
        return 0;
    progress();
    return s->peer_chunk;
}

const sockx_stats_t *sockx_stats(void)
{
    S.st.free_bytes = S.up ? sock_buddy_free_bytes(&S.bd) : 0u;
    return &S.st;
}

/* At exit (the core stops for good, like a process that dies): every connection is reset, and the
 * tile keeps answering for a while so that messages already on their way to it are taken (on the
 * baseline adapter a halted core answers nothing, and its peers' sends would wait forever). */
static void sock_atexit(void)
{
    if (!S.up)
        return;
    for (uint32_t i = 0; i < S.cfg.max_sockets; ++i) {
        struct sk *s = &S.sk[i];
        if ((s->state == S_EST) && !(s->flags & F_RST)) {
            rx_free(s);
            s->state = S_LINGER;
            s->pend = 0;
            queue_ctl(s, P_RST);
        } else if (s->state == S_LISTEN || s->state == S_NEW || s->state == S_SYN_SENT) {
            s->state = S_FREE;
            s->gen++;
        }
    }
    uint64_t end = timer_now() + timer_us_to_ticks(SOCK_LINGER_MAX_US);
    uint64_t quiet = timer_now() + timer_us_to_ticks(SOCK_LINGER_QUIET_US);
    uint32_t seen = S.st.msgs_rx;
    while (timer_now() < end) {
        progress();
        harvest_tx();
        int busy = S.ctlq_n || S.orph_n;
        for (uint32_t i = 0; i < SOCK_TX_SLOTS; ++i)
            busy |= S.tx[i].busy;
        if (S.st.msgs_rx != seen) {
            seen = S.st.msgs_rx;
            quiet = timer_now() + timer_us_to_ticks(SOCK_LINGER_QUIET_US);
        }
        if (!busy && timer_now() >= quiet)
            break;
        sleep_until(busy ? end : quiet);
    }
    S.up = 0;
}
