/* Point-to-point engine of the MPI subset: MCAPI endpoints, the progress loop, matching with a
 * posted-receive queue and an unexpected-message queue, eager and rendezvous protocols.
 *
 * Every MCAPI operation is non-blocking (send_i / recv_i) and driven from mpi_progress, which is
 * called by every waiting MPI call: two ranks sending to each other can never both block inside
 * MCAPI while their receive buffers are full. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "hal/hal.h"
#include "mpi_internal.h"

/* All of it per rank (MPI_RANK_LOCAL): the cores of a tile are ranks of their own. */
static MPI_RANK_LOCAL mcapi_endpoint_t ep_main, ep_rdv;
static MPI_RANK_LOCAL mcapi_endpoint_t *h_main, *h_rdv; /* per world rank, looked up lazily */

/* Staging buffer of the always-posted receive on this rank's main port (header + eager payload;
 * MPI_SLOT_BYTES). */
static MPI_RANK_LOCAL uint32_t *stage;
static MPI_RANK_LOCAL mcapi_request_t rx_main, rx_rdv;
static MPI_RANK_LOCAL int rx_main_armed, rx_rdv_armed;
static MPI_RANK_LOCAL uint8_t rdv_scratch[4];

struct pool_ent {
    mcapi_request_t mr;
    int busy;
    struct mpi_request *owner; /* rendezvous payload: the send it belongs to; else NULL */
    uint32_t buf[MPI_SLOT_BYTES / 4];
};
/* MPI_SEND_POOL entries, or the rank's share of the node's MCAPI sends with several ranks per
 * tile (MPI_NODE_SENDS / ranks per tile), so that a send never meets MCAPI_ERR_MEM_LIMIT. */
static MPI_RANK_LOCAL struct pool_ent *pool;
static MPI_RANK_LOCAL int pool_n;

static MPI_RANK_LOCAL struct mpi_request *posted_head, *posted_tail; /* posted receives */
static MPI_RANK_LOCAL struct mpi_unexp *unexp_head, *unexp_tail;     /* arrivals, in order */
static MPI_RANK_LOCAL struct mpi_request *rdv_head, *rdv_tail; /* matched rendezvous receives */
static MPI_RANK_LOCAL struct mpi_request *rdv_active;          /* the one whose CTS went out */
static MPI_RANK_LOCAL struct mpi_request *rts_sends; /* sends waiting for or using a CTS */
static MPI_RANK_LOCAL uint32_t posted_len, unexp_len, next_cookie = 1;
static MPI_RANK_LOCAL int eager_threshold = MPI_EAGER_DEFAULT;
static MPI_RANK_LOCAL int rdma_rendezvous = 1;

int MPIX_Set_rdma_rendezvous(int on)
{
    int old = rdma_rendezvous;
    rdma_rendezvous = on != 0;
    return old;
}

int MPIX_Set_eager_threshold(int bytes)
{
    int old = eager_threshold;
    if (bytes < 0)
        bytes = 0;
    if (bytes > MPIX_EAGER_MAX)
        bytes = MPIX_EAGER_MAX;
    eager_threshold = bytes;
    return old;
}
int MPIX_Get_eager_threshold(void) { return eager_threshold; }

/* port: MPI_PORT or MPI_PORT_RDV (the rank's own: mpi_rank_port). */
static mcapi_endpoint_t lookup(mcapi_endpoint_t *tab, int world, uint32_t port)
{
    if (!tab[world]) {
        mcapi_status_t st;
        mpi_node_lock();
        tab[world] = mcapi_endpoint_get(MCAPI_DOMAIN, (mcapi_node_t)mpi_tile_of(world),
                                        mpi_rank_port(port, world), MCAPI_TIMEOUT_INFINITE, &st);
        mpi_node_unlock();
        if (st != MCAPI_SUCCESS)
            tab[world] = NULL;
    }
    return tab[world];
}

static void arm_main(void)
{
    mcapi_status_t st;
    mpi_node_lock();
    mcapi_msg_recv_i(ep_main, stage, MPI_SLOT_BYTES, &rx_main, &st);
    mpi_node_unlock();
    rx_main_armed = 1;
}

int mpi_p2p_init(void)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {MPI_CAP_LOG2, MPI_SLOT_LOG2, 0, 0};
    uint32_t node_share = MPI_NODE_SENDS / mpi_ranks_per_tile;
    pool_n = node_share < MPI_SEND_POOL ? (int)node_share : MPI_SEND_POOL;
    pool = calloc((size_t)pool_n, sizeof *pool);
    stage = malloc(MPI_SLOT_BYTES);
    h_main = calloc((size_t)mpi_world_size, sizeof *h_main);
    h_rdv = calloc((size_t)mpi_world_size, sizeof *h_rdv);
    if (!pool || !stage || !h_main || !h_rdv) {
        printf("MPI FATAL: rank %d: no memory for the send pool\n", mpi_world_rank);
        return MPI_ERR_NO_MEM;
    }
    mpi_node_lock();
    ep_main = mcapix_endpoint_create(mpi_rank_port(MPI_PORT, mpi_world_rank), &a, &st);
    if (st == MCAPI_SUCCESS)
        ep_rdv = mcapix_endpoint_create(mpi_rank_port(MPI_PORT_RDV, mpi_world_rank), &a, &st);
    mpi_node_unlock();
    if (st != MCAPI_SUCCESS) {
        printf("MPI FATAL: rank %d: endpoint -> %s\n", mpi_world_rank, mcapix_status_name(st));
        return MPI_ERR_OTHER;
    }
    arm_main();
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ sending through MCAPI */
/* A free send-pool entry, or NULL. */
static struct pool_ent *pool_free(void)
{
    for (int i = 0; i < pool_n; ++i)
        if (!pool[i].busy)
            return &pool[i];
    return NULL;
}

static struct pool_ent *pool_get(void)
{
    struct pool_ent *e;
    while (!(e = pool_free()))
        mpi_progress(1);
    return e;
}

/* Starts an MCAPI send of `bytes` at `data` (already in e->buf or the user's buffer) to world
 * rank `world`. */
static int pool_send(struct pool_ent *e, mcapi_endpoint_t to, int world, const void *data,
                     uint32_t bytes, struct mpi_request *owner)
{
    mcapi_status_t st;
    e->busy = 1;
    e->owner = owner;
    if (owner)
        owner->inflight++;
    mpi_node_lock();
    mcapi_msg_send_i(ep_main, to, data, bytes, 0, &e->mr, &st);
    if (mpi_node_shared && mpi_tile_of(world) == mpi_tile_of(mpi_world_rank))
        mpi_node_touch(); /* straight into a local endpoint: its rank may sleep */
    mpi_node_unlock();
    if (st != MCAPI_SUCCESS && st != MCAPI_PENDING) {
        e->busy = 0;
        if (owner)
            owner->inflight--;
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

static int send_ctrl(int world, const struct mpi_hdr *h, const void *payload, uint32_t bytes,
                     struct mpi_request *owner)
{
    mcapi_endpoint_t to = lookup(h_main, world, MPI_PORT);
    if (!to)
        return MPI_ERR_RANK;
    struct pool_ent *e = pool_get();
    mp_copy(e->buf, h, sizeof *h);
    if (bytes)
        mp_copy((uint8_t *)e->buf + MPI_HDR_BYTES, payload, bytes);
    return pool_send(e, to, world, e->buf, MPI_HDR_BYTES + bytes, owner);
}

/* One-sided (mpi_win.c): a message [header][payload] to a world rank's header endpoint; the try
 * form never waits for a pool entry (MPI_ERR_PENDING: none free now) and may run inside the
 * progress loop. */
int mpi_send_ctrl(int world, const struct mpi_hdr *h, const void *payload, uint32_t bytes)
{
    return send_ctrl(world, h, payload, bytes, NULL);
}

int mpi_try_send_ctrl(int world, const struct mpi_hdr *h, const void *payload, uint32_t bytes)
{
    mcapi_endpoint_t to = lookup(h_main, world, MPI_PORT);
    if (!to)
        return MPI_ERR_RANK;
    struct pool_ent *e = pool_free();
    if (!e)
        return MPI_ERR_PENDING;
    mp_copy(e->buf, h, sizeof *h);
    if (bytes)
        mp_copy((uint8_t *)e->buf + MPI_HDR_BYTES, payload, bytes);
    return pool_send(e, to, world, e->buf, MPI_HDR_BYTES + bytes, NULL);
}

/* For the NAMP-CC collectives (coll_cc.c): this rank's header endpoint, a peer's, and a wait
 * until none of our MCAPI sends is under way (the adapter's collective slots run only then);
 * after the wait a pool slot is free for a blocking collective send (no extra memory). */
mcapi_endpoint_t mpi_main_endpoint(void) { return ep_main; }
mcapi_endpoint_t mpi_peer_main(int world) { return lookup(h_main, world, MPI_PORT); }
void *mpi_sends_drain(void)
{
    for (;;) {
        int busy = 0;
        for (int i = 0; i < pool_n; ++i)
            busy |= pool[i].busy;
        if (!busy)
            return pool[0].buf;
        mpi_progress(1);
    }
}

/* The RDMA put of a rendezvous payload has ended: the receiver is told by a DONE message (sent
 * from pump_rdv_sends, where a pool entry can be waited for without recursion). */
static void rdv_dma_done(void *ctx, int err)
{
    struct mpi_request *s = ctx;
    s->inflight--;
    if (err != MPI_SUCCESS)
        s->st.MPI_ERROR = MPI_ERR_OTHER;
    s->dma = 2;
}

/* Rendezvous payload: after the CTS, slot-sized pieces from the user's buffer (no copy); after a
 * CTS_DMA one RDMA put straight into the receive buffer (several DMA slots in flight for a large
 * one, mpi_dma.c), then DONE. */
static void pump_rdv_sends(void)
{
    for (struct mpi_request *s = rts_sends; s; s = s->next) {
        if (!s->rdv_go)
            continue;
        int world = mpi_world_of(s->comm, s->peer);
        if (s->dma == 1 && s->done_bytes == 0) {
            uint32_t n = s->bytes < s->dma_fit ? s->bytes : s->dma_fit;
            s->inflight++;
            s->done_bytes = s->bytes; /* nothing more to pump */
            if (n == 0 || mpi_dma_put(s->buf, mpi_tile_of(world), s->dma_addr, n, rdv_dma_done,
                                      s) != MPI_SUCCESS)
                rdv_dma_done(s, n == 0 ? MPI_SUCCESS : MPI_ERR_OTHER);
            continue;
        }
        if (s->dma == 2) {
            struct pool_ent *e = pool_free();
            if (!e)
                return;
            struct mpi_hdr h = {MPI_K_DONE, 0, 0, 0, s->bytes, s->cookie};
            mcapi_endpoint_t to = lookup(h_main, world, MPI_PORT);
            mp_copy(e->buf, &h, sizeof h);
            s->dma = 3;
            if (!to || pool_send(e, to, world, e->buf, MPI_HDR_BYTES, s) != MPI_SUCCESS)
                s->st.MPI_ERROR = MPI_ERR_OTHER;
            continue;
        }
        if (s->dma || s->done_bytes == s->bytes)
            continue;
        mcapi_endpoint_t to = lookup(h_rdv, world, MPI_PORT_RDV);
        while (s->done_bytes < s->bytes) {
            struct pool_ent *e = pool_free();
            if (!e)
                return;
            uint32_t n = s->bytes - s->done_bytes;
            if (n > MPI_SLOT_BYTES)
                n = MPI_SLOT_BYTES;
            if (pool_send(e, to, world, s->buf + s->done_bytes, n, s) != MPI_SUCCESS) {
                s->st.MPI_ERROR = MPI_ERR_OTHER;
                s->done_bytes = s->bytes;
                break;
            }
            s->done_bytes += n;
        }
    }
}

static void finish_rdv_sends(void)
{
    struct mpi_request **pp = &rts_sends;
    while (*pp) {
        struct mpi_request *s = *pp;
        if (s->rdv_go && s->done_bytes == s->bytes && s->inflight == 0 &&
            (s->dma == 0 || s->dma == 3)) {
            *pp = s->next;
            s->state = RQ_DONE;
        } else {
            pp = &s->next;
        }
    }
}

/* ------------------------------------------------------------------ matching */
static int matches(int want_src, int want_tag, uint32_t want_ctx, const struct mpi_hdr *h)
{
    ++mpi_stats.match_steps;
    return h->ctx == want_ctx && (want_src == MPI_ANY_SOURCE || want_src == h->src) &&
           (want_tag == MPI_ANY_TAG || want_tag == h->tag);
}

static void fill_status(struct mpi_request *r, const struct mpi_hdr *h)
{
    r->st.MPI_SOURCE = h->src;
    r->st.MPI_TAG = h->tag;
    r->st.count_bytes = (int)(h->bytes < r->bytes ? h->bytes : r->bytes);
    if (h->bytes > r->bytes)
        r->st.MPI_ERROR = MPI_ERR_TRUNCATE;
}

static void arm_rdv(void)
{
    struct mpi_request *r = rdv_active;
    uint32_t fit = (uint32_t)r->st.count_bytes;
    uint32_t left = fit > r->done_bytes ? fit - r->done_bytes : 0;
    mcapi_status_t st;
    mpi_node_lock();
    if (left)
        mcapi_msg_recv_i(ep_rdv, r->buf + r->done_bytes,
                         left < MPI_SLOT_BYTES ? left : MPI_SLOT_BYTES, &rx_rdv, &st);
    else /* truncated: the rest of the payload is consumed and dropped */
        mcapi_msg_recv_i(ep_rdv, rdv_scratch, sizeof rdv_scratch, &rx_rdv, &st);
    mpi_node_unlock();
    rx_rdv_armed = 1;
}

/* Next matched rendezvous receive gets its CTS (one at a time per receiver). Never blocks: it
 * runs inside the progress loop, which calls it again until a pool entry is free. */
static void rdv_start_next(void)
{
    while (!rdv_active && rdv_head) {
        struct pool_ent *e = pool_free();
        if (!e)
            return;
        struct mpi_request *r = rdv_head;
        rdv_head = r->next;
        if (!rdv_head)
            rdv_tail = NULL;
        r->next = NULL;
        r->done_bytes = 0;
        /* by RDMA: the sender learns where the payload goes and how much of it fits */
        struct mpi_hdr h = {MPI_K_CTS, 0, 0, 0, 0, r->cookie};
        if (r->dma) {
            h.kind = MPI_K_CTS_DMA;
            h.bytes = (uint32_t)(uintptr_t)r->buf;
            h.tag = r->st.count_bytes;
        }
        mcapi_endpoint_t to = lookup(h_main, r->peer_world, MPI_PORT);
        mp_copy(e->buf, &h, sizeof h);
        if (!to || pool_send(e, to, r->peer_world, e->buf, MPI_HDR_BYTES, NULL) != MPI_SUCCESS) {
            r->st.MPI_ERROR = MPI_ERR_OTHER;
            r->state = RQ_DONE;
            continue;
        }
        rdv_active = r;
        if (!r->dma)
            arm_rdv();
    }
}

static void rdv_enqueue(struct mpi_request *r, const struct mpi_hdr *h, int src_world)
{
    r->peer_world = src_world;
    r->cookie = h->cookie;
    r->rdv_pieces = (h->bytes + MPI_SLOT_BYTES - 1u) / MPI_SLOT_BYTES;
    r->dma = h->kind == MPI_K_RTS_DMA && rdma_rendezvous && mpi_dma_slots() > 0;
    r->next = NULL;
    if (rdv_tail)
        rdv_tail->next = r;
    else
        rdv_head = r;
    rdv_tail = r;
    rdv_start_next();
}

/* An eager/RTS message (or a self send) meets a receive: deliver. */
static void deliver(struct mpi_request *r, const struct mpi_hdr *h, int src_world,
                    const uint8_t *data, struct mpi_request *self_send)
{
    fill_status(r, h);
    if (self_send) {
        mp_copy(r->buf, self_send->buf, (size_t)r->st.count_bytes);
        self_send->state = RQ_DONE;
        r->state = RQ_DONE;
    } else if (h->kind == MPI_K_EAGER) {
        if (r->st.count_bytes)
            mp_copy(r->buf, data, (size_t)r->st.count_bytes);
        r->state = RQ_DONE;
    } else {
        rdv_enqueue(r, h, src_world);
    }
}

/* Buffers of unexpected messages are recycled: picolibc's malloc clears what it hands out, a
 * byte at a time (about 7 cycles a byte, measured), which made each unexpected 4 KiB message of a
 * window (osu_bw's loop posts its receives late) cost 30k cycles. Freed buffers of at least
 * UNEXP_CACHE_MIN bytes are kept on a stack with their size, up to an eighth of the heap (the
 * cache never holds more than was in use at once); smaller ones cost little to clear. */
#define UNEXP_CACHE     64
#define UNEXP_CACHE_MIN 256u
extern char __heap_start[], __heap_end[];
static MPI_RANK_LOCAL struct {
    void *p;
    uint32_t cap;
} unexp_cache[UNEXP_CACHE];
static MPI_RANK_LOCAL int unexp_n;           /* entries on the stack */
static MPI_RANK_LOCAL uint32_t unexp_cached; /* their bytes */

static void *unexp_buf_get(uint32_t bytes)
{
    if (bytes >= UNEXP_CACHE_MIN)
        /* the latest that fits: a stream of equal sizes
         * takes the top */
        for (int i = unexp_n - 1; i >= 0; --i)
            if (unexp_cache[i].cap >= bytes) {
                void *b = unexp_cache[i].p;
                unexp_cached -= unexp_cache[i].cap;
                unexp_cache[i] = unexp_cache[--unexp_n];
                return b;
            }
    uint32_t *b = malloc(bytes + 4u); /* the capacity before the data, for the cache */
    if (!b)
        return NULL;
    *b = bytes;
    return b + 1;
}

static void unexp_buf_put(void *data)
{
    if (!data)
        return;
    uint32_t *b = (uint32_t *)data - 1;
    if (*b >= UNEXP_CACHE_MIN && unexp_n < UNEXP_CACHE &&
        unexp_cached + *b <= (uint32_t)(__heap_end - __heap_start) / 8u) {
        unexp_cache[unexp_n].p = data;
        unexp_cache[unexp_n++].cap = *b;
        unexp_cached += *b;
        return;
    }
    free(b);
}

static void arrival(const struct mpi_hdr *h, int src_world, const uint8_t *data,
                    struct mpi_request *self_send)
{
    struct mpi_request *prev = NULL;
    for (struct mpi_request *r = posted_head; r; prev = r, r = r->next) {
        if (!matches(r->peer, r->tag, r->ctx, h))
            continue;
        if (prev)
            prev->next = r->next;
        else
            posted_head = r->next;
        if (posted_tail == r)
            posted_tail = prev;
        --posted_len;
        r->next = NULL;
        ++mpi_stats.matched_posted;
        deliver(r, h, src_world, data, self_send);
        return;
    }
    /* An unexpected eager message is kept in the heap until a receive takes it. Without memory
     * it cannot be kept and no call could report its loss: the run ends with a clear error. */
    struct mpi_unexp *u = malloc(sizeof *u);
    if (u && h->kind == MPI_K_EAGER && h->bytes && !self_send) {
        u->data = unexp_buf_get(h->bytes);
        if (!u->data) {
            free(u);
            u = NULL;
        }
    } else if (u) {
        u->data = NULL;
    }
    if (!u) {
        printf("MPI FATAL: rank %d: no memory for an unexpected message of %u bytes\n",
               mpi_world_rank, (unsigned)h->bytes);
        sim_shutdown(100u + MPI_ERR_NO_MEM);
    }
    if (u->data)
        mp_copy(u->data, data, h->bytes);
    u->h = *h;
    u->src_world = src_world;
    u->self_send = self_send;
    u->next = NULL;
    if (unexp_tail)
        unexp_tail->next = u;
    else
        unexp_head = u;
    unexp_tail = u;
    ++mpi_stats.unexpected;
    if (++unexp_len > mpi_stats.unexpected_max)
        mpi_stats.unexpected_max = unexp_len;
}

static void on_main(size_t size)
{
    const struct mpi_hdr *h = (const struct mpi_hdr *)stage;
    if (size < MPI_HDR_BYTES)
        return;
    if (h->kind == MPI_K_RMA) { /* one-sided: served here, whatever the application does */
        mpi_rma_arrival(h, (const uint8_t *)stage + MPI_HDR_BYTES, (uint32_t)size - MPI_HDR_BYTES);
        return;
    }
    if (h->kind == MPI_K_CTS || h->kind == MPI_K_CTS_DMA) {
        for (struct mpi_request *s = rts_sends; s; s = s->next)
            if (s->cookie == h->cookie && !s->rdv_go) {
                s->rdv_go = 1;
                if (h->kind == MPI_K_CTS_DMA) {
                    s->dma = 1;
                    s->dma_addr = h->bytes;
                    s->dma_fit = (uint32_t)h->tag;
                }
                break;
            }
        return;
    }
    if (h->kind == MPI_K_DONE) { /* an RDMA rendezvous payload is in the receive buffer */
        struct mpi_request *r = rdv_active;
        if (r && r->dma && r->cookie == h->cookie) {
            r->state = RQ_DONE;
            rdv_active = NULL;
            rdv_start_next();
        }
        return;
    }
    /* world rank of the sender: its communicator rank, translated by the context's member list;
     * the eager/RTS header carries the world rank in the cookie's upper half */
    arrival(h, (int)(h->cookie >> 20), (const uint8_t *)stage + MPI_HDR_BYTES, NULL);
}

static void on_rdv(size_t size)
{
    struct mpi_request *r = rdv_active;
    if (!r)
        return;
    if ((uint32_t)r->st.count_bytes > r->done_bytes)
        r->done_bytes += (uint32_t)size; /* a piece into the scratch buffer is dropped */
    if (--r->rdv_pieces == 0) {
        r->state = RQ_DONE;
        rdv_active = NULL;
        rdv_start_next();
    } else {
        arm_rdv();
    }
}

/* ------------------------------------------------------------------ progress */
static void on_complete(mcapi_request_t *m, size_t size, mcapi_status_t st)
{
    if (m == &rx_main) {
        rx_main_armed = 0;
        if (st == MCAPI_SUCCESS)
            on_main(size);
        arm_main();
        return;
    }
    if (m == &rx_rdv) {
        rx_rdv_armed = 0;
        on_rdv(st == MCAPI_SUCCESS || st == MCAPI_ERR_MSG_TRUNCATED ? size : 0);
        return;
    }
    struct pool_ent *e = (struct pool_ent *)((uint8_t *)m - offsetof(struct pool_ent, mr));
    e->busy = 0;
    if (e->owner) {
        e->owner->inflight--;
        if (st != MCAPI_SUCCESS)
            e->owner->st.MPI_ERROR = MPI_ERR_OTHER;
        if (e->owner->eager && e->owner->inflight == 0)
            e->owner->state = RQ_DONE;
    }
}

static void progress(int block);

/* The progress loop also moves one-sided traffic (mpi_win.c) and non-blocking collectives
 * (coll_nb.c). These weak stand-ins are what a program gets that never creates a window or starts
 * a non-blocking collective: the strong definitions come with the object that does, so the linker
 * does not pull those parts (and the reduction operators they reach) into a program that only
 * sends and receives (docs/mpi.md "Library footprint"). Without a window an RMA message has no
 * target here and is dropped, as mpi_rma_arrival does with an unknown window. */
__attribute__((weak)) int mpi_nbc_progress(void) { return 0; }
__attribute__((weak)) int mpi_rma_progress(void) { return 0; }
__attribute__((weak)) void mpi_rma_arrival(const struct mpi_hdr *h, const uint8_t *payload,
                                           uint32_t bytes)
{
    (void)h, (void)payload, (void)bytes;
}

/* The whole progress step under the node lock (the library's waits inside give it up). A
 * blocking step with other threads on this core (<pthread.h>: cooperative, MPI_THREAD_MULTIPLE)
 * does one pass and then lets them run instead of sleeping in MCAPI: the caller loops until its
 * request is done, and a thread blocked in MPI never holds up the others of its rank. */
void mpi_progress(int block)
{
    int yield = block && namp_threads_others();
    mpi_node_lock();
    progress(yield ? 0 : block);
    mpi_node_unlock();
    if (yield)
        sched_yield();
}

enum { PROGRESS_PASSES = 4 };

static void progress(int block)
{
    int did = 0;
    size_t size;
    mcapi_status_t st;
#ifdef MP_TRANSPORT_NAMP
    if (!block) {
        /* mcapi_test does not sample the NAMP's completed slots (MCAPI's waits do, once per pass):
         * a wait with no time to wait samples them, so that an MPI_Test loop sees its sends end */
        mcapi_request_t *list[MPI_SEND_POOL];
        size_t n = 0;
        for (int i = 0; i < pool_n; ++i)
            if (pool[i].busy)
                list[n++] = &pool[i].mr;
        if (n) {
            mcapi_uint_t k = mcapi_wait_any(n, list, &size, 0, &st);
            if (k < n)
                on_complete(list[k], size, st);
        }
    }
#endif
    /* A bounded number of passes: with peers that keep sending (three ranks spinning on one
     * lock word) every pass finds work, and an unbounded loop kept the caller from ever looking
     * at the condition it waits for (e2e.mpi.ext.compare_and_swap, docs/mpi.md "Progress") */
    for (int pass = 0; pass < PROGRESS_PASSES; ++pass) {
        int any = 0;
        if (rx_main_armed && mcapi_test(&rx_main, &size, &st)) {
            on_complete(&rx_main, size, st);
            any = 1;
        }
        if (rx_rdv_armed && mcapi_test(&rx_rdv, &size, &st)) {
            on_complete(&rx_rdv, size, st);
            any = 1;
        }
        for (int i = 0; i < pool_n; ++i)
            if (pool[i].busy && mcapi_test(&pool[i].mr, &size, &st)) {
                on_complete(&pool[i].mr, size, st);
                any = 1;
            }
        pump_rdv_sends();
        finish_rdv_sends();
        rdv_start_next();
        any |= mpi_nbc_progress();
        any |= mpi_rma_progress();
        any |= mpi_dma_progress();
        if (!any)
            break;
        did = 1;
    }
    if (!block || did)
        return;
    /* Nothing moved: sleep in MCAPI until one of our requests completes. */
    mcapi_request_t *list[MPI_SEND_POOL + 2];
    size_t n = 0;
    if (rx_main_armed)
        list[n++] = &rx_main;
    if (rx_rdv_armed)
        list[n++] = &rx_rdv;
    for (int i = 0; i < pool_n; ++i)
        if (pool[i].busy)
            list[n++] = &pool[i].mr;
    if (!n)
        return;
    /* an RDMA transfer of one-sided communication ends without an interrupt: look again soon */
    mcapi_uint_t k =
        mcapi_wait_any(n, list, &size, mpi_dma_busy() ? 5u : MCAPI_TIMEOUT_INFINITE, &st);
    if (k < n)
        on_complete(list[k], size, st);
    rdv_start_next();
    pump_rdv_sends();
    finish_rdv_sends();
}

/* ------------------------------------------------------------------ requests */
/* Requests are recycled: calloc (picolibc's malloc) clears a byte at a time, about 7 cycles a
 * byte, 700 cycles per request; a word loop clears a recycled one. */
#define REQ_CACHE 32
_Static_assert(sizeof(struct mpi_request) % 4u == 0, "cleared a word at a time");
static MPI_RANK_LOCAL struct mpi_request *req_cache;
static MPI_RANK_LOCAL int req_cached;

struct mpi_request *mpi_req_alloc(void)
{
    struct mpi_request *r = req_cache;
    if (!r)
        return calloc(1, sizeof *r);
    req_cache = r->next;
    --req_cached;
    uint32_t *w = (uint32_t *)r;
    for (uint32_t i = 0; i < sizeof *r / 4u; ++i)
        w[i] = 0;
    return r;
}

void mpi_req_free(struct mpi_request *r)
{
    if (req_cached < REQ_CACHE) {
        r->next = req_cache;
        req_cache = r;
        ++req_cached;
    } else {
        free(r);
    }
}

static struct mpi_request *req_new(int kind, MPI_Comm comm, uint32_t ctx, int peer, int tag,
                                   const void *buf, uint32_t bytes)
{
    struct mpi_request *r = mpi_req_alloc();
    if (!r)
        return NULL;
    r->state = RQ_ACTIVE;
    r->kind = kind;
    r->comm = comm;
    r->ctx = ctx;
    r->peer = peer;
    r->tag = tag;
    r->buf = (uint8_t *)buf;
    r->bytes = bytes;
    r->st.MPI_SOURCE = peer;
    r->st.MPI_TAG = tag;
    r->st.MPI_ERROR = MPI_SUCCESS;
    return r;
}

int mpi_isend_ctx(const void *buf, uint32_t bytes, int dest, int tag, MPI_Comm comm, uint32_t ctx,
                  struct mpi_request **out)
{
    struct mpi_request *r = req_new(RK_SEND, comm, ctx, dest, tag, buf, bytes);
    if (!r)
        return MPI_ERR_NO_MEM;
    *out = r;
    if (dest == MPI_PROC_NULL) {
        r->state = RQ_DONE;
        return MPI_SUCCESS;
    }
    int world = mpi_world_of(comm, dest);
    struct mpi_hdr h = {MPI_K_EAGER, (uint16_t)ctx, comm->rank,
                        tag,         bytes,         (uint32_t)mpi_world_rank << 20};
    if (world == mpi_world_rank) { /* self: straight into the matching engine */
        ++mpi_stats.self_sends;
        if ((int)bytes <= eager_threshold) {
            arrival(&h, world, buf, NULL);
            r->state = RQ_DONE;
        } else {
            h.kind = MPI_K_RTS;
            arrival(&h, world, NULL, r); /* done when a receive takes it */
        }
        return MPI_SUCCESS;
    }
    if ((int)bytes <= eager_threshold) {
        /* The request completes when MCAPI has delivered the message, not at the copy into the
         * pool: MCAPI moves a send only while its sender is inside the library, so a send left
         * behind while the application computes would reach the receiver only at the sender's
         * next MPI call (in CG that stalled every reduction by a whole matrix product). */
        ++mpi_stats.eager_sends;
        r->eager = 1;
        int rc = send_ctrl(world, &h, buf, bytes, r);
        if (rc != MPI_SUCCESS) {
            r->state = RQ_DONE;
            r->st.MPI_ERROR = rc;
        }
        return rc;
    }
    ++mpi_stats.rdv_sends;
    r->cookie = ((uint32_t)mpi_world_rank << 20) | (next_cookie++ & 0xFFFFFu);
    /* the payload may go by RDMA if this rank can put it (the receiver decides, CTS_DMA) */
    h.kind =
        rdma_rendezvous && mpi_dma_slots() > 0 && mpi_tile_of(world) != mpi_tile_of(mpi_world_rank)
            ? MPI_K_RTS_DMA
            : MPI_K_RTS;
    h.cookie = r->cookie;
    r->next = rts_sends;
    rts_sends = r;
    int rc = send_ctrl(world, &h, NULL, 0, NULL);
    if (rc != MPI_SUCCESS) { /* never gets a CTS */
        rts_sends = r->next;
        r->state = RQ_DONE;
        r->st.MPI_ERROR = rc;
    }
    return rc;
}

int mpi_irecv_ctx(void *buf, uint32_t bytes, int src, int tag, MPI_Comm comm, uint32_t ctx,
                  struct mpi_request **out)
{
    struct mpi_request *r = req_new(RK_RECV, comm, ctx, src, tag, buf, bytes);
    if (!r)
        return MPI_ERR_NO_MEM;
    *out = r;
    r->st.count_bytes = 0;
    if (src == MPI_PROC_NULL) {
        r->st.MPI_SOURCE = MPI_PROC_NULL;
        r->st.MPI_TAG = MPI_ANY_TAG;
        r->state = RQ_DONE;
        return MPI_SUCCESS;
    }
    mpi_progress(0); /* take what has arrived, so the order against the queue is right */
    struct mpi_unexp *prev = NULL;
    for (struct mpi_unexp *u = unexp_head; u; prev = u, u = u->next) {
        if (!matches(src, tag, ctx, &u->h))
            continue;
        if (prev)
            prev->next = u->next;
        else
            unexp_head = u->next;
        if (unexp_tail == u)
            unexp_tail = prev;
        --unexp_len;
        deliver(r, &u->h, u->src_world, u->data, u->self_send);
        unexp_buf_put(u->data);
        free(u);
        return MPI_SUCCESS;
    }
    r->next = NULL;
    if (posted_tail)
        posted_tail->next = r;
    else
        posted_head = r;
    posted_tail = r;
    if (++posted_len > mpi_stats.posted_max)
        mpi_stats.posted_max = posted_len;
    return MPI_SUCCESS;
}

int mpi_wait_req(struct mpi_request *r, MPI_Status *st)
{
    while (r->state != RQ_DONE)
        mpi_progress(1);
    int rc = r->st.MPI_ERROR;
    if (st) {
        *st = r->st;
        if (r->kind == RK_SEND)
            st->count_bytes = 0;
    }
    mpi_req_free(r);
    return rc;
}

/* Probe: the first unexpected arrival that matches (MPI-3 3.8.1). */
int mpi_iprobe_ctx(int src, int tag, uint32_t ctx, int *flag, MPI_Status *st)
{
    mpi_progress(0);
    for (struct mpi_unexp *u = unexp_head; u; u = u->next)
        if (matches(src, tag, ctx, &u->h)) {
            *flag = 1;
            if (st) {
                st->MPI_SOURCE = u->h.src;
                st->MPI_TAG = u->h.tag;
                st->MPI_ERROR = MPI_SUCCESS;
                st->count_bytes = (int)u->h.bytes;
            }
            return MPI_SUCCESS;
        }
    *flag = 0;
    return MPI_SUCCESS;
}

uint32_t mpi_posted_len(void) { return posted_len; }

void mpi_p2p_finalize(void)
{
    /* drain our sends; the caller has passed a barrier, so no message for us is still coming */
    for (;;) {
        int busy = rts_sends != NULL;
        for (int i = 0; i < pool_n; ++i)
            busy |= pool[i].busy;
        if (!busy)
            break;
        mpi_progress(1);
    }
    mcapi_status_t st;
    mpi_node_lock();
    if (rx_main_armed)
        mcapi_cancel(&rx_main, &st);
    if (rx_rdv_armed)
        mcapi_cancel(&rx_rdv, &st);
    mpi_node_unlock();
    rx_main_armed = rx_rdv_armed = 0;
    while (unexp_n)
        free((uint32_t *)unexp_cache[--unexp_n].p - 1);
    unexp_cached = 0;
    while (req_cache) {
        struct mpi_request *r = req_cache;
        req_cache = r->next;
        free(r);
    }
    req_cached = 0;
}
