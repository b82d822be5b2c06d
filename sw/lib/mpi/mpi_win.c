/* One-sided communication (MPI-3 chapter 11; docs/mpi.md "One-sided").
 *
 * A window knows every member's base address, size and displacement unit (gathered when it is
 * created). Where the data goes:
 * - MPI_Put to another tile is an RDMA put from the origin's buffer into the target's memory (one
 *   of the adapter's DMA slots): the target's core takes no part. The adapter's RDMA is a put
 *   only, so MPI_Get asks the target, whose progress engine answers with an RDMA put into the
 *   origin's buffer. Without a free DMA slot for MPI (more than one rank per tile, or MCAPI's own
 *   RDMA data path on the baseline adapter) both travel as messages instead.
 * - Put and Get between ranks of one tile copy (they share the SRAM).
 * - Accumulates, MPI_Get_accumulate, MPI_Fetch_and_op and MPI_Compare_and_swap are applied by the
 *   target's progress engine (the adapter has no remote read-modify-write for software): one
 *   message per piece of at most a slot, answered by an acknowledgement or the old data. Only the
 *   target's core applies them, so they are atomic per element against each other.
 * Synchronization: MPI_Win_fence completes this rank's operations and runs a barrier; lock and
 * unlock are messages to the target's lock (shared / exclusive, granted in arrival order);
 * post/start/complete/wait are messages between the groups. The target serves all of it in its MPI
 * calls: there is no asynchronous progress (MPI allows a passive target to wait for its next call).
 * Every message is an MPI header of kind MPI_K_RMA (ctx: the target's window index, tag: the
 * operation, cookie: the sender's world rank << 20) followed by struct rma_msg and the data. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "hal/hal.h"

enum {
    OP_PUT = 1,
    OP_GET,
    OP_ACC,
    OP_GACC,
    OP_CAS,
    OP_LOCK,
    OP_UNLOCK,
    OP_POST,
    OP_COMPLETE,
    OP_FREE,
    OP_ACK,
    OP_DATA,
    OP_GRANT
};

struct rma_msg {
    uint32_t addr;     /* target address (an absolute address in the target's memory) */
    uint32_t bytes;    /* data bytes the operation covers */
    uint16_t type, op; /* datatype, reduction op (MPI_REPLACE, MPI_NO_OP too) */
    uint32_t result;   /* origin address for returned data (get, get-accumulate, CAS) */
    uint32_t arg;      /* LOCK: lock type; ACK: error class */
    uint32_t win;      /* the origin's window index (replies go there) */
};
#define RMA_HDR      ((uint32_t)sizeof(struct rma_msg))
#define RMA_MAX_DATA (MPI_SLOT_BYTES - MPI_HDR_BYTES - RMA_HDR)

enum { FLAVOR_CREATE, FLAVOR_ALLOCATE, FLAVOR_DYNAMIC };

struct peer {
    uint32_t base, size;
    int32_t disp_unit, idx;
};

struct region {
    uint32_t base, size;
    struct region *next;
};

struct waiter {
    int world, type;
    struct waiter *next;
};

struct mpi_win {
    MPI_Comm comm;
    int idx, flavor;
    uint8_t *base;
    MPI_Aint size;
    int disp_unit;
    struct peer *peer;
    void *alloc;
    struct region *regions; /* dynamic windows: attached memory */
    /* origin side */
    uint32_t *outstanding; /* per target (comm rank): replies still to come */
    int8_t *locked;        /* per target: lock type held, 0 none */
    uint8_t *granted;      /* per target: a GRANT arrived */
    int lock_all, fence_epoch, err;
    MPI_Group start; /* PSCW: the access epoch's targets */
    uint32_t *posts; /* per comm rank: POSTs received, not yet taken by a start */
    /* target side */
    int excl, shared;
    struct waiter *waiters;
    MPI_Group post;      /* PSCW: the exposure epoch's origins */
    uint32_t *completes; /* per comm rank: COMPLETEs received */
    int frees;           /* MPI_Win_free: FREEs received (the last message of each) */
};

static MPI_RANK_LOCAL struct mpi_win **wins;
static MPI_RANK_LOCAL int nwins;

/* A reply or request that could not be sent at once (no pool entry inside the progress loop). */
struct outmsg {
    int world;
    struct mpi_hdr h;
    uint32_t bytes;
    struct outmsg *next;
    uint8_t data[];
};
static MPI_RANK_LOCAL struct outmsg *out_head, *out_tail;

static void deliver_local(int op, int win_idx, const void *msg, uint32_t bytes);

/* ------------------------------------------------------------------ messages */

static void queue_out(int world, const struct mpi_hdr *h, const void *data, uint32_t bytes)
{
    if (world == mpi_world_rank) { /* to this rank itself: at once */
        deliver_local(h->tag, h->ctx, data, bytes);
        return;
    }
    struct outmsg *o = malloc(sizeof *o + bytes);
    if (!o)
        return; /* cannot happen in the tests; the origin would wait: documented */
    o->world = world;
    o->h = *h;
    o->bytes = bytes;
    o->next = NULL;
    if (bytes)
        mp_copy(o->data, data, bytes);
    if (out_tail)
        out_tail->next = o;
    else
        out_head = o;
    out_tail = o;
}

/* From the progress loop: never waits; what cannot go now is queued (in order). */
static void send_nowait(int world, int op, int win_idx, const struct rma_msg *m, const void *data,
                        uint32_t bytes)
{
    uint8_t buf[RMA_HDR + 8];
    struct mpi_hdr h = {MPI_K_RMA, (uint16_t)win_idx, 0,
                        op,        RMA_HDR + bytes,   (uint32_t)mpi_world_rank << 20};
    if (world == mpi_world_rank && bytes <= 8) { /* to this rank itself: at once */
        mp_copy(buf, m, RMA_HDR);
        if (bytes)
            mp_copy(buf + RMA_HDR, data, bytes);
        deliver_local(op, win_idx, buf, RMA_HDR + bytes);
        return;
    }
    if (!out_head && bytes <= 8) {
        mp_copy(buf, m, RMA_HDR);
        if (bytes)
            mp_copy(buf + RMA_HDR, data, bytes);
        if (mpi_try_send_ctrl(world, &h, buf, RMA_HDR + bytes) == MPI_SUCCESS)
            return;
    }
    uint8_t *tmp = malloc(RMA_HDR + bytes);
    if (!tmp)
        return;
    mp_copy(tmp, m, RMA_HDR);
    if (bytes)
        mp_copy(tmp + RMA_HDR, data, bytes);
    queue_out(world, &h, tmp, RMA_HDR + bytes);
    free(tmp);
}

/* From an MPI call of the origin (may wait for a pool entry). */
static int send_req(struct mpi_win *w, int t, int op, struct rma_msg *m, const void *data,
                    uint32_t bytes)
{
    uint8_t *buf = malloc(RMA_HDR + bytes);
    if (!buf)
        return MPI_ERR_NO_MEM;
    m->win = (uint32_t)w->idx;
    mp_copy(buf, m, RMA_HDR);
    if (bytes)
        mp_copy(buf + RMA_HDR, data, bytes);
    int rc = MPI_SUCCESS;
    if (mpi_world_of(w->comm, t) == mpi_world_rank) {
        /* this rank's own window: served here at once (only this rank's core applies its
         * window's operations, so that is as atomic as the message would be) */
        deliver_local(op, w->peer[t].idx, buf, RMA_HDR + bytes);
    } else {
        struct mpi_hdr h = {MPI_K_RMA, (uint16_t)w->peer[t].idx, w->comm->rank,
                            op,        RMA_HDR + bytes,          (uint32_t)mpi_world_rank << 20};
        rc = mpi_send_ctrl(mpi_world_of(w->comm, t), &h, buf, RMA_HDR + bytes);
    }
    free(buf);
    return rc;
}

static int comm_rank_of(MPI_Comm c, int world)
{
    if (!c->world)
        return world;
    for (int i = 0; i < c->size; ++i)
        if (c->world[i] == world)
            return i;
    return -1;
}

/* ------------------------------------------------------------------ the target */

static int in_window(const struct mpi_win *w, uint32_t addr, uint32_t bytes)
{
    if (w->flavor != FLAVOR_DYNAMIC)
        return addr >= (uint32_t)(uintptr_t)w->base &&
               (uint64_t)addr + bytes <= (uint64_t)(uintptr_t)w->base + (uint64_t)w->size;
    for (const struct region *r = w->regions; r; r = r->next)
        if (addr >= r->base && (uint64_t)addr + bytes <= (uint64_t)r->base + r->size)
            return 1;
    return 0;
}

/* target[i] = target[i] op origin[i]; MPI_REPLACE stores, MPI_NO_OP leaves it. */
static int apply(int op, MPI_Datatype t, uint8_t *target, const uint8_t *origin, uint32_t bytes)
{
    if (op == MPI_NO_OP)
        return MPI_SUCCESS;
    if (op == MPI_REPLACE) {
        memmove(target, origin, bytes);
        return MPI_SUCCESS;
    }
    return mpi_op_apply(op, t, origin, target, (int)(bytes / (uint32_t)mpi_type_size(t)));
}

static void grant_waiters(struct mpi_win *w)
{
    while (w->waiters) {
        struct waiter *q = w->waiters;
        if (w->excl || (q->type == MPI_LOCK_EXCLUSIVE && w->shared))
            return;
        if (q->type == MPI_LOCK_EXCLUSIVE)
            w->excl = 1;
        else
            w->shared++;
        w->waiters = q->next;
        struct rma_msg m = {0};
        int cr = comm_rank_of(w->comm, q->world);
        send_nowait(q->world, OP_GRANT, w->peer[cr].idx, &m, NULL, 0);
        free(q);
    }
}

/* A GET: the data goes to the origin's buffer by an RDMA put, then an ACK; without DMA for MPI,
 * in OP_DATA messages (the last one answers). */
struct get_done_ctx {
    int world, win;
};

static void get_done(void *ctx, int err)
{
    struct get_done_ctx *g = ctx;
    struct rma_msg a = {0};
    a.arg = (uint32_t)err;
    send_nowait(g->world, OP_ACK, g->win, &a, NULL, 0);
    free(g);
}

static void serve_get(int world, int origin_win, const struct rma_msg *m)
{
    const uint8_t *src = (const uint8_t *)(uintptr_t)m->addr;
    if (mpi_dma_slots() && m->bytes) {
        struct get_done_ctx *g = malloc(sizeof *g);
        if (g) {
            *g = (struct get_done_ctx){world, origin_win};
            if (mpi_dma_put(src, mpi_tile_of(world), m->result, m->bytes, get_done, g) ==
                MPI_SUCCESS)
                return;
            free(g);
        }
    }
    struct rma_msg d = {0};
    uint32_t off = 0;
    do {
        uint32_t k = m->bytes - off > RMA_MAX_DATA ? RMA_MAX_DATA : m->bytes - off;
        d.result = m->result + off;
        d.bytes = k;
        d.op = off + k < m->bytes; /* more to come: only the last piece answers */
        struct mpi_hdr h = {MPI_K_RMA, (uint16_t)origin_win, 0,
                            OP_DATA,   RMA_HDR + k,          (uint32_t)mpi_world_rank << 20};
        uint8_t *msg = malloc(RMA_HDR + k);
        if (msg) {
            mp_copy(msg, &d, RMA_HDR);
            mp_copy(msg + RMA_HDR, src + off, k);
            queue_out(world, &h, msg, RMA_HDR + k);
            free(msg);
        }
        off += k;
    } while (off < m->bytes);
}

static void serve(struct mpi_win *w, int op, int world, const struct rma_msg *m,
                  const uint8_t *data, uint32_t n)
{
    int cr = comm_rank_of(w->comm, world);
    int origin_win = cr >= 0 ? w->peer[cr].idx : 0;
    struct rma_msg r = {0};
    r.result = m->result;
    switch (op) {
    case OP_LOCK: {
        struct waiter *q = malloc(sizeof *q), **pp = &w->waiters;
        if (!q)
            return;
        q->world = world;
        q->type = (int)m->arg;
        q->next = NULL;
        while (*pp)
            pp = &(*pp)->next;
        *pp = q;
        grant_waiters(w);
        return;
    }
    case OP_UNLOCK:
        if (m->arg == MPI_LOCK_EXCLUSIVE)
            w->excl = 0;
        else if (w->shared)
            w->shared--;
        grant_waiters(w);
        return;
    case OP_POST:
        if (cr >= 0)
            w->posts[cr]++;
        return;
    case OP_COMPLETE:
        if (cr >= 0)
            w->completes[cr]++;
        return;
    case OP_FREE: w->frees++; return;
    default: break;
    }
    if (!in_window(w, m->addr, m->bytes)) {
        r.arg = MPI_ERR_RMA_RANGE;
        send_nowait(world, OP_ACK, origin_win, &r, NULL, 0);
        return;
    }
    uint8_t *at = (uint8_t *)(uintptr_t)m->addr;
    switch (op) {
    case OP_PUT:
        mp_copy(at, data, n < m->bytes ? n : m->bytes);
        send_nowait(world, OP_ACK, origin_win, &r, NULL, 0);
        return;
    case OP_GET: serve_get(world, origin_win, m); return;
    case OP_ACC:
        r.arg = (uint32_t)apply(m->op, m->type, at, data, m->bytes);
        send_nowait(world, OP_ACK, origin_win, &r, NULL, 0);
        return;
    case OP_GACC:
    case OP_CAS: {
        /* the old data goes back (OP_DATA at the origin's result address), then the update */
        uint8_t old[8];
        uint8_t *keep = m->bytes <= sizeof old ? old : malloc(m->bytes);
        if (!keep)
            return;
        mp_copy(keep, at, m->bytes);
        if (op == OP_CAS) { /* data: new value, then the compare value */
            if (memcmp(at, data + m->bytes, m->bytes) == 0)
                mp_copy(at, data, m->bytes);
        } else {
            r.arg = (uint32_t)apply(m->op, m->type, at, data, m->bytes);
        }
        r.bytes = m->bytes;
        if (m->bytes <= 8) {
            send_nowait(world, OP_DATA, origin_win, &r, keep, m->bytes);
        } else {
            struct mpi_hdr h = {MPI_K_RMA, (uint16_t)origin_win, 0,
                                OP_DATA,   RMA_HDR + m->bytes,   (uint32_t)mpi_world_rank << 20};
            uint8_t *msg = malloc(RMA_HDR + m->bytes);
            if (msg) {
                mp_copy(msg, &r, RMA_HDR);
                mp_copy(msg + RMA_HDR, keep, m->bytes);
                queue_out(world, &h, msg, RMA_HDR + m->bytes);
                free(msg);
            }
            free(keep);
        }
        return;
    }
    default: return;
    }
}

/* Replies at the origin. */
static void reply(struct mpi_win *w, int op, int world, const struct rma_msg *m,
                  const uint8_t *data, uint32_t n)
{
    int cr = comm_rank_of(w->comm, world);
    if (cr < 0)
        return;
    switch (op) {
    case OP_GRANT: w->granted[cr] = 1; return;
    case OP_DATA:
        if (m->result)
            mp_copy((void *)(uintptr_t)m->result, data, n < m->bytes ? n : m->bytes);
        if (m->op)
            return;                   /* a piece of a GET: the last one answers it */
        __attribute__((fallthrough)); /* it also answers the request */
    case OP_ACK:
        if (m->arg && !w->err)
            w->err = (int)m->arg;
        if (w->outstanding[cr])
            w->outstanding[cr]--;
        return;
    default: return;
    }
}

static void deliver_local(int op, int win_idx, const void *msg, uint32_t bytes)
{
    struct mpi_hdr h = {MPI_K_RMA, (uint16_t)win_idx, 0, op, bytes, (uint32_t)mpi_world_rank << 20};
    mpi_rma_arrival(&h, msg, bytes);
}

void mpi_rma_arrival(const struct mpi_hdr *h, const uint8_t *payload, uint32_t bytes)
{
    if (bytes < RMA_HDR || h->ctx >= nwins || !wins[h->ctx])
        return;
    struct rma_msg m;
    mp_copy(&m, payload, RMA_HDR);
    int world = (int)(h->cookie >> 20);
    struct mpi_win *w = wins[h->ctx];
    if (h->tag >= OP_ACK)
        reply(w, h->tag, world, &m, payload + RMA_HDR, bytes - RMA_HDR);
    else
        serve(w, h->tag, world, &m, payload + RMA_HDR, bytes - RMA_HDR);
}

/* Queued replies, GET transfers and the running RDMA: 1 if something moved. */
int mpi_rma_progress(void)
{
    int did = 0;
    while (out_head) {
        struct outmsg *o = out_head;
        if (mpi_try_send_ctrl(o->world, &o->h, o->data, o->bytes) == MPI_ERR_PENDING)
            break;
        out_head = o->next;
        if (!out_head)
            out_tail = NULL;
        free(o);
        did = 1;
    }
    return did;
}

/* ------------------------------------------------------------------ windows */

static int win_ok(MPI_Win w) { return w && w->comm && mpi_initialized; }

static int win_register(struct mpi_win *w)
{
    for (int i = 0; i < nwins; ++i)
        if (!wins[i]) {
            wins[i] = w;
            return w->idx = i;
        }
    struct mpi_win **n = realloc(wins, (size_t)(nwins + 8) * sizeof *n);
    if (!n)
        return -1;
    for (int i = nwins; i < nwins + 8; ++i)
        n[i] = NULL;
    wins = n;
    wins[nwins] = w;
    w->idx = nwins;
    nwins += 8;
    return w->idx;
}

static void win_release(struct mpi_win *w)
{
    if (w->idx >= 0 && w->idx < nwins && wins[w->idx] == w)
        wins[w->idx] = NULL;
    while (w->regions) {
        struct region *r = w->regions;
        w->regions = r->next;
        free(r);
    }
    while (w->waiters) {
        struct waiter *q = w->waiters;
        w->waiters = q->next;
        free(q);
    }
    free(w->peer);
    free(w->outstanding);
    free(w->locked);
    free(w->granted);
    free(w->posts);
    free(w->completes);
    free(w->alloc);
    free(w);
}

/* Collective: every member's base, size, displacement unit and window index. */
static int win_make(void *base, MPI_Aint size, int disp_unit, MPI_Comm c, int flavor, void *alloc,
                    MPI_Win *out, const char *call)
{
    if (!mpi_initialized || !mpi_comm_ok(c))
        return mpi_err(c, MPI_ERR_COMM, call);
    if (!out)
        return mpi_err(c, MPI_ERR_ARG, call);
    if (size < 0)
        return mpi_err(c, MPI_ERR_SIZE, call);
    if (disp_unit <= 0)
        return mpi_err(c, MPI_ERR_DISP, call);
    if (!base && size > 0)
        return mpi_err(c, MPI_ERR_BUFFER, call);
    struct mpi_win *w = calloc(1, sizeof *w);
    int p = c->size, rc = MPI_SUCCESS;
    if (w) {
        w->comm = c;
        w->flavor = flavor;
        w->base = base;
        w->size = size;
        w->disp_unit = disp_unit;
        w->alloc = alloc;
        w->idx = -1;
        w->peer = calloc((size_t)p, sizeof *w->peer);
        w->outstanding = calloc((size_t)p, sizeof *w->outstanding);
        w->locked = calloc((size_t)p, 1);
        w->granted = calloc((size_t)p, 1);
        w->posts = calloc((size_t)p, sizeof *w->posts);
        w->completes = calloc((size_t)p, sizeof *w->completes);
    }
    if (!w || !w->peer || !w->outstanding || !w->locked || !w->granted || !w->posts ||
        !w->completes || win_register(w) < 0)
        rc = MPI_ERR_NO_MEM;
    /* everyone takes part in the gather even after a local failure, so nobody waits for it */
    struct peer mine = {(uint32_t)(uintptr_t)base, (uint32_t)size, disp_unit, rc ? -1 : w->idx};
    struct peer *all = malloc((size_t)p * sizeof *all);
    int g = MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all ? (void *)all : (void *)&mine,
                          all ? (int)sizeof mine : 0, MPI_BYTE, c);
    if (rc == MPI_SUCCESS && (!all || g != MPI_SUCCESS))
        rc = all ? g : MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < p; ++i)
        if (all[i].idx < 0)
            rc = MPI_ERR_NO_MEM; /* a member could not make its window */
    if (rc == MPI_SUCCESS)
        mp_copy(w->peer, all, (uint32_t)p * sizeof *all);
    free(all);
    if (rc != MPI_SUCCESS) {
        if (w) {
            w->alloc = NULL; /* the caller frees its memory */
            win_release(w);
        }
        return mpi_err(c, rc, call);
    }
    *out = w;
    return MPI_SUCCESS;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm c, MPI_Win *w)
{
    (void)info;
    return win_make(base, size, disp_unit, c, FLAVOR_CREATE, NULL, w, "MPI_Win_create");
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm c, void *baseptr,
                     MPI_Win *w)
{
    (void)info;
    if (!baseptr)
        return mpi_err(c, MPI_ERR_ARG, "MPI_Win_allocate");
    void *mem = size > 0 ? malloc((size_t)size) : NULL;
    if (size > 0 && !mem)
        return mpi_err(c, MPI_ERR_NO_MEM, "MPI_Win_allocate");
    int rc = win_make(mem, size, disp_unit, c, FLAVOR_ALLOCATE, mem, w, "MPI_Win_allocate");
    if (rc != MPI_SUCCESS) {
        free(mem);
        return rc;
    }
    *(void **)baseptr = mem; /* baseptr is the address of a pointer (MPI-3 11.2.2) */
    return MPI_SUCCESS;
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm c, MPI_Win *w)
{
    (void)info;
    /* displacements are addresses (MPI_Get_address) at the target: base 0, unit 1 */
    return win_make(NULL, 0, 1, c, FLAVOR_DYNAMIC, NULL, w, "MPI_Win_create_dynamic");
}

int MPI_Win_attach(MPI_Win w, void *base, MPI_Aint size)
{
    if (!win_ok(w) || w->flavor != FLAVOR_DYNAMIC)
        return mpi_err(win_ok(w) ? w->comm : MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_attach");
    if (size < 0 || (!base && size > 0))
        return mpi_err(w->comm, size < 0 ? MPI_ERR_SIZE : MPI_ERR_ARG, "MPI_Win_attach");
    struct region *r = malloc(sizeof *r);
    if (!r)
        return mpi_err(w->comm, MPI_ERR_NO_MEM, "MPI_Win_attach");
    r->base = (uint32_t)(uintptr_t)base;
    r->size = (uint32_t)size;
    r->next = w->regions;
    w->regions = r;
    return MPI_SUCCESS;
}

int MPI_Win_detach(MPI_Win w, const void *base)
{
    if (!win_ok(w) || w->flavor != FLAVOR_DYNAMIC)
        return mpi_err(win_ok(w) ? w->comm : MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_detach");
    for (struct region **pp = &w->regions; *pp; pp = &(*pp)->next)
        if ((*pp)->base == (uint32_t)(uintptr_t)base) {
            struct region *r = *pp;
            *pp = r->next;
            free(r);
            return MPI_SUCCESS;
        }
    return mpi_err(w->comm, MPI_ERR_ARG, "MPI_Win_detach");
}

/* Waits until every operation of this rank to target t (comm rank; -1: all) is complete. */
static int complete_to(struct mpi_win *w, int t)
{
    mpi_progress(0); /* also serves the others: an origin that spins on its own window */
    for (;;) {
        int busy = 0;
        for (int i = 0; !busy && i < w->comm->size; ++i)
            busy = (t < 0 || i == t) && w->outstanding[i];
        if (!busy)
            break;
        mpi_progress(1); /* sleeps only briefly while an RDMA transfer runs */
    }
    int e = w->err;
    w->err = 0;
    return e;
}

int MPI_Win_free(MPI_Win *pw)
{
    if (!pw || !win_ok(*pw))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_free");
    struct mpi_win *w = *pw;
    MPI_Comm c = w->comm;
    int rc = complete_to(w, -1), b = MPI_SUCCESS;
    /* Every member tells every other one it is done with the window, and waits for all of them:
     * messages of a pair arrive in order, so nothing for this window is on its way here any
     * more (an UNLOCK is not answered: a barrier alone let one reach a later window that took
     * the freed index). */
    for (int i = 0; i < c->size; ++i)
        if (i != c->rank) {
            struct rma_msg m = {0};
            int s = send_req(w, i, OP_FREE, &m, NULL, 0);
            b = b ? b : s;
        }
    while (w->frees < c->size - 1)
        mpi_progress(1);
    win_release(w);
    *pw = MPI_WIN_NULL;
    return mpi_err(c, rc ? rc : b, "MPI_Win_free");
}

int MPI_Win_fence(int assert_, MPI_Win w)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_fence");
    int rc = complete_to(w, -1);
    int b = MPI_Barrier(w->comm);
    w->fence_epoch = !(assert_ & MPI_MODE_NOSUCCEED);
    return mpi_err(w->comm, rc ? rc : b, "MPI_Win_fence");
}

static int rank_ok(struct mpi_win *w, int r) { return r >= 0 && r < w->comm->size; }

static int lock_target(struct mpi_win *w, int type, int t)
{
    struct rma_msg m = {0};
    m.arg = (uint32_t)type;
    w->granted[t] = 0;
    int rc = send_req(w, t, OP_LOCK, &m, NULL, 0);
    if (rc)
        return rc;
    while (!w->granted[t])
        mpi_progress(1);
    w->locked[t] = (int8_t)(type == MPI_LOCK_EXCLUSIVE ? 2 : 1);
    return MPI_SUCCESS;
}

static int unlock_target(struct mpi_win *w, int t)
{
    int rc = complete_to(w, t);
    struct rma_msg m = {0};
    m.arg = w->locked[t] == 2 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
    int s = send_req(w, t, OP_UNLOCK, &m, NULL, 0);
    w->locked[t] = 0;
    return rc ? rc : s;
}

int MPI_Win_lock(int type, int rank, int assert_, MPI_Win w)
{
    (void)assert_;
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_lock");
    int rc = MPI_SUCCESS;
    if (type != MPI_LOCK_SHARED && type != MPI_LOCK_EXCLUSIVE)
        rc = MPI_ERR_LOCKTYPE;
    else if (!rank_ok(w, rank))
        rc = MPI_ERR_RANK;
    else if (w->locked[rank] || w->lock_all)
        rc = MPI_ERR_RMA_SYNC; /* already locked by this rank */
    else
        rc = lock_target(w, type, rank);
    return mpi_err(w->comm, rc, "MPI_Win_lock");
}

int MPI_Win_unlock(int rank, MPI_Win w)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_unlock");
    int rc = !rank_ok(w, rank)                 ? MPI_ERR_RANK
             : !w->locked[rank] || w->lock_all ? MPI_ERR_RMA_SYNC
                                               : unlock_target(w, rank);
    return mpi_err(w->comm, rc, "MPI_Win_unlock");
}

int MPI_Win_lock_all(int assert_, MPI_Win w)
{
    (void)assert_;
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_lock_all");
    int rc = w->lock_all ? MPI_ERR_RMA_SYNC : MPI_SUCCESS;
    for (int i = 0; rc == MPI_SUCCESS && i < w->comm->size; ++i)
        if (w->locked[i])
            rc = MPI_ERR_RMA_SYNC;
    for (int i = 0; rc == MPI_SUCCESS && i < w->comm->size; ++i)
        rc = lock_target(w, MPI_LOCK_SHARED, i);
    if (rc == MPI_SUCCESS)
        w->lock_all = 1;
    return mpi_err(w->comm, rc, "MPI_Win_lock_all");
}

int MPI_Win_unlock_all(MPI_Win w)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_unlock_all");
    int rc = w->lock_all ? MPI_SUCCESS : MPI_ERR_RMA_SYNC;
    w->lock_all = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < w->comm->size; ++i) {
        int u = unlock_target(w, i);
        rc = rc ? rc : u;
    }
    return mpi_err(w->comm, rc, "MPI_Win_unlock_all");
}

/* Flush: remote completion; the local form is the same here (a put's buffer is free once its
 * RDMA transfer has ended, which is also when the data is at the target). */
static int flush(MPI_Win w, int rank, const char *call)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, call);
    if (rank != -1 && !rank_ok(w, rank))
        return mpi_err(w->comm, MPI_ERR_RANK, call);
    int held = w->lock_all || (rank >= 0 ? w->locked[rank] != 0 : 0);
    for (int i = 0; !held && rank < 0 && i < w->comm->size; ++i)
        held = w->locked[i] != 0;
    if (!held)
        return mpi_err(w->comm, MPI_ERR_RMA_SYNC, call); /* only in a passive-target epoch */
    return mpi_err(w->comm, complete_to(w, rank), call);
}

int MPI_Win_flush(int rank, MPI_Win w) { return flush(w, rank, "MPI_Win_flush"); }
int MPI_Win_flush_all(MPI_Win w) { return flush(w, -1, "MPI_Win_flush_all"); }
int MPI_Win_flush_local(int rank, MPI_Win w) { return flush(w, rank, "MPI_Win_flush_local"); }
int MPI_Win_flush_local_all(MPI_Win w) { return flush(w, -1, "MPI_Win_flush_local_all"); }

static int group_check(MPI_Group g) { return g && (g->size == 0 || g->world) ? 0 : MPI_ERR_GROUP; }

static MPI_Group group_copy(MPI_Group g)
{
    int *r = malloc((size_t)(g->size ? g->size : 1) * sizeof *r);
    MPI_Group out = MPI_GROUP_NULL;
    if (!r)
        return out;
    for (int i = 0; i < g->size; ++i)
        r[i] = i;
    MPI_Group_incl(g, g->size, r, &out);
    free(r);
    return out;
}

int MPI_Win_post(MPI_Group g, int assert_, MPI_Win w)
{
    (void)assert_;
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_post");
    int rc = group_check(g);
    if (!rc && w->post)
        rc = MPI_ERR_RMA_SYNC;
    if (!rc && !(w->post = group_copy(g)))
        rc = MPI_ERR_NO_MEM;
    for (int i = 0; !rc && i < g->size; ++i) {
        int t = comm_rank_of(w->comm, g->world[i]);
        struct rma_msg m = {0};
        rc = t < 0 ? MPI_ERR_GROUP : send_req(w, t, OP_POST, &m, NULL, 0);
    }
    return mpi_err(w->comm, rc, "MPI_Win_post");
}

int MPI_Win_start(MPI_Group g, int assert_, MPI_Win w)
{
    (void)assert_;
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_start");
    int rc = group_check(g);
    if (!rc && w->start)
        rc = MPI_ERR_RMA_SYNC;
    if (!rc && !(w->start = group_copy(g)))
        rc = MPI_ERR_NO_MEM;
    for (int i = 0; !rc && i < g->size; ++i) { /* each target's post, one taken per start */
        int t = comm_rank_of(w->comm, g->world[i]);
        if (t < 0) {
            rc = MPI_ERR_GROUP;
            break;
        }
        while (!w->posts[t])
            mpi_progress(1);
        w->posts[t]--;
    }
    return mpi_err(w->comm, rc, "MPI_Win_start");
}

int MPI_Win_complete(MPI_Win w)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_complete");
    if (!w->start)
        return mpi_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_complete");
    int rc = MPI_SUCCESS;
    for (int i = 0; i < w->start->size; ++i) {
        int t = comm_rank_of(w->comm, w->start->world[i]);
        int e = complete_to(w, t);
        struct rma_msg m = {0};
        int s = send_req(w, t, OP_COMPLETE, &m, NULL, 0);
        rc = rc ? rc : e ? e : s;
    }
    MPI_Group_free(&w->start);
    return mpi_err(w->comm, rc, "MPI_Win_complete");
}

int MPI_Win_wait(MPI_Win w)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Win_wait");
    if (!w->post)
        return mpi_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_wait");
    for (int i = 0; i < w->post->size; ++i) {
        int o = comm_rank_of(w->comm, w->post->world[i]);
        while (!w->completes[o])
            mpi_progress(1);
        w->completes[o]--;
    }
    MPI_Group_free(&w->post);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ communication */

/* Common checks; *addr: the target address, *bytes the data size. */
static int op_check(struct mpi_win *w, const void *obuf, int ocount, MPI_Datatype ot, int t,
                    MPI_Aint disp, int tcount, MPI_Datatype tt, uint32_t *addr, uint32_t *bytes)
{
    if (!rank_ok(w, t))
        return t == MPI_PROC_NULL ? -1 : MPI_ERR_RANK;
    if (ocount < 0 || tcount < 0)
        return MPI_ERR_COUNT;
    if (!mpi_type_size(ot) || !mpi_type_size(tt))
        return MPI_ERR_TYPE;
    uint32_t ob = (uint32_t)ocount * (uint32_t)mpi_type_size(ot);
    *bytes = (uint32_t)tcount * (uint32_t)mpi_type_size(tt);
    if (ob != *bytes)
        return MPI_ERR_ARG; /* no derived datatypes: both sides describe the same bytes */
    if (!obuf && ob)
        return MPI_ERR_BUFFER;
    if (disp < 0 && w->flavor != FLAVOR_DYNAMIC)
        return MPI_ERR_DISP; /* dynamic: an address, at 0x8000_0000 up (negative as MPI_Aint) */
    if (!(w->fence_epoch || w->lock_all || w->locked[t] ||
          (w->start && mpi_group_rank_of(w->start, mpi_world_of(w->comm, t)) != MPI_UNDEFINED)))
        return MPI_ERR_RMA_SYNC; /* no access epoch to that target */
    const struct peer *p = &w->peer[t];
    uint64_t off = (uint64_t)(uint32_t)disp * (uint32_t)p->disp_unit;
    if (w->flavor != FLAVOR_DYNAMIC && off + *bytes > p->size)
        return MPI_ERR_RMA_RANGE;
    *addr = (uint32_t)(p->base + off);
    return MPI_SUCCESS;
}

static int same_tile(MPI_Comm c, int t)
{
    return mpi_tile_of(mpi_world_of(c, t)) == mpi_tile_of(mpi_world_rank);
}

/* A put or get this rank does in its tile's own memory: the target is on this tile, and for a
 * dynamic window it is this rank (another rank's attached ranges are checked by that rank). */
static int local_access(const struct mpi_win *w, int t)
{
    return same_tile(w->comm, t) &&
           (w->flavor != FLAVOR_DYNAMIC || mpi_world_of(w->comm, t) == mpi_world_rank);
}

struct put_done_ctx {
    struct mpi_win *w;
    int t;
};

static void put_done(void *ctx, int err)
{
    struct put_done_ctx *p = ctx;
    if (err && !p->w->err)
        p->w->err = err;
    if (p->w->outstanding[p->t])
        p->w->outstanding[p->t]--;
    free(p);
}

int MPI_Put(const void *obuf, int ocount, MPI_Datatype ot, int t, MPI_Aint disp, int tcount,
            MPI_Datatype tt, MPI_Win w)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Put");
    uint32_t addr, bytes;
    int rc = op_check(w, obuf, ocount, ot, t, disp, tcount, tt, &addr, &bytes);
    if (rc)
        return rc < 0 ? MPI_SUCCESS : mpi_err(w->comm, rc, "MPI_Put");
    if (!bytes)
        return MPI_SUCCESS;
    if (local_access(w, t)) {
        memmove((void *)(uintptr_t)addr, obuf, bytes); /* the tile's own memory */
        ++mpi_stats.rma_local;
        return MPI_SUCCESS;
    }
    if (mpi_dma_slots() && w->flavor != FLAVOR_DYNAMIC) { /* dynamic: the target checks the range */
        struct put_done_ctx *p = malloc(sizeof *p);
        if (p) {
            *p = (struct put_done_ctx){w, t};
            w->outstanding[t]++;
            if (mpi_dma_put(obuf, mpi_tile_of(mpi_world_of(w->comm, t)), addr, bytes, put_done,
                            p) == MPI_SUCCESS) {
                ++mpi_stats.rma_dma_puts;
                return MPI_SUCCESS;
            }
            w->outstanding[t]--;
            free(p);
        }
    }
    for (uint32_t off = 0; off < bytes && !rc; off += RMA_MAX_DATA) {
        uint32_t k = bytes - off > RMA_MAX_DATA ? RMA_MAX_DATA : bytes - off;
        struct rma_msg m = {.addr = addr + off, .bytes = k};
        w->outstanding[t]++;
        rc = send_req(w, t, OP_PUT, &m, (const uint8_t *)obuf + off, k);
        ++mpi_stats.rma_msgs;
    }
    return mpi_err(w->comm, rc, "MPI_Put");
}

int MPI_Get(void *obuf, int ocount, MPI_Datatype ot, int t, MPI_Aint disp, int tcount,
            MPI_Datatype tt, MPI_Win w)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Get");
    uint32_t addr, bytes;
    int rc = op_check(w, obuf, ocount, ot, t, disp, tcount, tt, &addr, &bytes);
    if (rc)
        return rc < 0 ? MPI_SUCCESS : mpi_err(w->comm, rc, "MPI_Get");
    if (!bytes)
        return MPI_SUCCESS;
    if (local_access(w, t)) {
        memmove(obuf, (const void *)(uintptr_t)addr, bytes);
        ++mpi_stats.rma_local;
        return MPI_SUCCESS;
    }
    struct rma_msg m = {.addr = addr, .bytes = bytes, .result = (uint32_t)(uintptr_t)obuf};
    w->outstanding[t]++;
    ++mpi_stats.rma_msgs;
    return mpi_err(w->comm, send_req(w, t, OP_GET, &m, NULL, 0), "MPI_Get");
}

static int acc_check(int op, MPI_Datatype ot, MPI_Datatype tt)
{
    if (ot != tt)
        return MPI_ERR_TYPE; /* one predefined type on both sides */
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return MPI_SUCCESS;
    return mpi_op_check(op, ot);
}

/* Accumulate and get-accumulate: pieces of whole elements, applied at the target. */
static int accumulate(const void *obuf, int ocount, MPI_Datatype ot, void *res, int rcount,
                      MPI_Datatype rt, int t, MPI_Aint disp, int tcount, MPI_Datatype tt, int op,
                      MPI_Win w, int fetch, const char *call)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, call);
    uint32_t addr, bytes;
    int rc = op == MPI_NO_OP && !obuf
                 ? op_check(w, &rc, tcount, tt, t, disp, tcount, tt, &addr, &bytes)
                 : op_check(w, obuf, ocount, ot, t, disp, tcount, tt, &addr, &bytes);
    if (rc)
        return rc < 0 ? MPI_SUCCESS : mpi_err(w->comm, rc, call);
    if ((rc = acc_check(op, op == MPI_NO_OP && !obuf ? tt : ot, tt)))
        return mpi_err(w->comm, rc, call);
    if (fetch && ((uint32_t)rcount * (uint32_t)mpi_type_size(rt) != bytes || (!res && bytes)))
        return mpi_err(w->comm, !res ? MPI_ERR_BUFFER : MPI_ERR_ARG, call);
    uint32_t elem = (uint32_t)mpi_type_size(tt), piece = RMA_MAX_DATA / elem * elem;
    for (uint32_t off = 0; off < bytes && !rc; off += piece) {
        uint32_t k = bytes - off > piece ? piece : bytes - off;
        struct rma_msg m = {.addr = addr + off,
                            .bytes = k,
                            .type = (uint16_t)tt,
                            .op = (uint16_t)op,
                            .result = fetch ? (uint32_t)(uintptr_t)res + off : 0u};
        w->outstanding[t]++;
        rc = send_req(w, t, fetch ? OP_GACC : OP_ACC, &m,
                      op == MPI_NO_OP ? NULL : (const uint8_t *)obuf + off,
                      op == MPI_NO_OP ? 0u : k);
        ++mpi_stats.rma_msgs;
    }
    return mpi_err(w->comm, rc, call);
}

int MPI_Accumulate(const void *obuf, int ocount, MPI_Datatype ot, int t, MPI_Aint disp, int tcount,
                   MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
    if (op == MPI_NO_OP) /* only for the fetching forms */
        return mpi_err(win_ok(w) ? w->comm : MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Accumulate");
    return accumulate(obuf, ocount, ot, NULL, 0, ot, t, disp, tcount, tt, op, w, 0,
                      "MPI_Accumulate");
}

int MPI_Get_accumulate(const void *obuf, int ocount, MPI_Datatype ot, void *res, int rcount,
                       MPI_Datatype rt, int t, MPI_Aint disp, int tcount, MPI_Datatype tt,
                       MPI_Op op, MPI_Win w)
{
    return accumulate(op == MPI_NO_OP ? NULL : obuf, ocount, ot, res, rcount, rt, t, disp, tcount,
                      tt, op, w, 1, "MPI_Get_accumulate");
}

int MPI_Fetch_and_op(const void *obuf, void *res, MPI_Datatype t, int rank, MPI_Aint disp,
                     MPI_Op op, MPI_Win w)
{
    return accumulate(op == MPI_NO_OP ? NULL : obuf, 1, t, res, 1, t, rank, disp, 1, t, op, w, 1,
                      "MPI_Fetch_and_op");
}

int MPI_Compare_and_swap(const void *obuf, const void *cbuf, void *res, MPI_Datatype t, int rank,
                         MPI_Aint disp, MPI_Win w)
{
    if (!win_ok(w))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_WIN, "MPI_Compare_and_swap");
    uint32_t addr, bytes;
    int rc = op_check(w, obuf, 1, t, rank, disp, 1, t, &addr, &bytes);
    if (rc)
        return rc < 0 ? MPI_SUCCESS : mpi_err(w->comm, rc, "MPI_Compare_and_swap");
    if (!cbuf || !res)
        return mpi_err(w->comm, MPI_ERR_BUFFER, "MPI_Compare_and_swap");
    if (t == MPI_FLOAT || t == MPI_DOUBLE || bytes > 8)
        return mpi_err(w->comm, MPI_ERR_TYPE, "MPI_Compare_and_swap"); /* integers (MPI-3 11.3.4) */
    uint8_t data[16];
    mp_copy(data, obuf, bytes);
    mp_copy(data + bytes, cbuf, bytes);
    struct rma_msg m = {
        .addr = addr, .bytes = bytes, .type = (uint16_t)t, .result = (uint32_t)(uintptr_t)res};
    w->outstanding[rank]++;
    ++mpi_stats.rma_msgs;
    return mpi_err(w->comm, send_req(w, rank, OP_CAS, &m, data, 2u * bytes),
                   "MPI_Compare_and_swap");
}
