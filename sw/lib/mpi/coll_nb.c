/* Schedules of point-to-point operations for the collectives without a tree of their own: the
 * non-blocking collectives (MPI_Ibarrier ... MPI_Ialltoallw) and the blocking v-variants and
 * all-to-alls, which are the same schedule followed by a wait (docs/mpi.md).
 *
 * A schedule is a list of rounds; a round is a set of sends and receives posted together (on the
 * communicator's collective context, with the call's tag); when all of them have completed the
 * next round is posted. mpi_nbc_progress runs from the point-to-point progress loop, so every
 * waiting MPI call moves every schedule on (a rank waiting in MPI_Recv still serves its part of an
 * MPI_Ibarrier that others wait for). The non-blocking calls take a tag of their own per call
 * (the k-th non-blocking collective of a communicator has tag MPI_TAG_NBC + k on every member), so
 * several of them may be under way at once without their messages matching each other. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include <limits.h>

struct nbc_op {
    int peer;
    uint8_t *buf;
    uint32_t bytes;
    uint8_t send, last; /* last: the op ends its round */
};

struct nbc {
    MPI_Comm c;
    int tag;
    struct nbc_op *ops;
    int nops, cap, next;       /* next: first op of the round to post */
    struct mpi_request **reqs; /* the posted round (NULL once taken) */
    int *reqop;
    int nreq;
    int rc;
    void *tmp;               /* freed with the schedule (an in-place send copy) */
    struct mpi_request *req; /* the caller's request */
    struct nbc *link;
};

static MPI_RANK_LOCAL struct nbc *active;
static MPI_RANK_LOCAL int in_progress;

static struct nbc *nbc_new(MPI_Comm c, int tag)
{
    struct nbc *n = calloc(1, sizeof *n);
    if (n) {
        n->c = c;
        n->tag = tag;
    }
    return n;
}

static int nbc_add(struct nbc *n, int send, int peer, const void *buf, uint32_t bytes)
{
    if (n->nops == n->cap) {
        int cap = n->cap ? 2 * n->cap : 8;
        struct nbc_op *o = realloc(n->ops, (size_t)cap * sizeof *o);
        if (!o)
            return MPI_ERR_NO_MEM;
        n->ops = o;
        n->cap = cap;
    }
    n->ops[n->nops++] = (struct nbc_op){peer, (uint8_t *)buf, bytes, (uint8_t)send, 0};
    return MPI_SUCCESS;
}

static void nbc_round(struct nbc *n)
{
    if (n->nops)
        n->ops[n->nops - 1].last = 1;
}

static void nbc_free(struct nbc *n)
{
    free(n->ops);
    free(n->reqs);
    free(n->reqop);
    free(n->tmp);
    free(n);
}

/* Posts the next round: receives first (they may match at once), then sends. */
static void post_round(struct nbc *n)
{
    int first = n->next, end = first;
    while (end < n->nops && !n->ops[end].last)
        ++end;
    if (end < n->nops)
        ++end; /* include the op that ends the round */
    n->nreq = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (int i = first; i < end; ++i) {
            struct nbc_op *o = &n->ops[i];
            if (o->send != (pass == 1))
                continue;
            struct mpi_request *r = NULL;
            int rc =
                o->send
                    ? mpi_isend_ctx(o->buf, o->bytes, o->peer, n->tag, n->c, n->c->ctx + 1u, &r)
                    : mpi_irecv_ctx(o->buf, o->bytes, o->peer, n->tag, n->c, n->c->ctx + 1u, &r);
            if (rc != MPI_SUCCESS && n->rc == MPI_SUCCESS)
                n->rc = rc;
            if (r) {
                n->reqs[n->nreq] = r;
                n->reqop[n->nreq++] = i;
            }
        }
    n->next = end;
}

/* 1 if the schedule finished (its request is then done). */
static int step(struct nbc *n)
{
    for (int i = 0; i < n->nreq; ++i)
        if (n->reqs[i] && n->reqs[i]->state != RQ_DONE)
            return 0;
    for (int i = 0; i < n->nreq; ++i) {
        if (!n->reqs[i])
            continue;
        const struct nbc_op *o = &n->ops[n->reqop[i]];
        MPI_Status st;
        int w = mpi_wait_req(n->reqs[i], &st);
        n->reqs[i] = NULL;
        if (w == MPI_SUCCESS && !o->send && (uint32_t)st.count_bytes != o->bytes)
            w = MPI_ERR_COUNT; /* a peer sent less than this rank expects */
        if (w != MPI_SUCCESS && n->rc == MPI_SUCCESS)
            n->rc = w;
    }
    n->nreq = 0;
    if (n->next < n->nops) {
        post_round(n);
        return 0;
    }
    n->req->st.MPI_ERROR = n->rc;
    n->req->state = RQ_DONE;
    return 1;
}

int mpi_nbc_progress(void)
{
    if (in_progress || !active)
        return 0;
    in_progress = 1;
    int did = 0;
    for (struct nbc **pp = &active; *pp;) {
        struct nbc *n = *pp;
        int posted = n->next;
        if (step(n)) {
            *pp = n->link;
            nbc_free(n);
            did = 1;
        } else {
            did |= n->next != posted;
            pp = &n->link;
        }
    }
    in_progress = 0;
    return did;
}

/* Starts the schedule; *out completes when it has run. */
static int nbc_start(struct nbc *n, MPI_Request *out)
{
    nbc_round(n);
    int most = 0, cur = 0;
    for (int i = 0; i < n->nops; ++i) {
        ++cur;
        if (n->ops[i].last) {
            most = cur > most ? cur : most;
            cur = 0;
        }
    }
    struct mpi_request *r = mpi_req_alloc();
    n->reqs = calloc((size_t)(most ? most : 1), sizeof *n->reqs);
    n->reqop = calloc((size_t)(most ? most : 1), sizeof *n->reqop);
    if (!r || !n->reqs || !n->reqop) {
        if (r)
            mpi_req_free(r);
        nbc_free(n);
        return MPI_ERR_NO_MEM;
    }
    r->state = RQ_ACTIVE;
    r->kind = RK_COLL;
    r->comm = n->c;
    r->st.MPI_SOURCE = MPI_ANY_SOURCE;
    r->st.MPI_TAG = MPI_ANY_TAG;
    n->req = r;
    *out = r;
    in_progress = 1; /* the posts below run the progress loop: not this schedule yet */
    if (n->nops)
        post_round(n);
    in_progress = 0;
    n->link = active;
    active = n;
    mpi_progress(0);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ schedules */

static int sched_barrier(struct nbc *n)
{
    int p = n->c->size, r = n->c->rank, rc = MPI_SUCCESS;
    for (int k = 1; k < p && rc == MPI_SUCCESS; k <<= 1) {
        rc = nbc_add(n, 0, (r - k + p) % p, NULL, 0);
        if (rc == MPI_SUCCESS)
            rc = nbc_add(n, 1, (r + k) % p, NULL, 0);
        nbc_round(n);
    }
    return rc;
}

static int sched_bcast(struct nbc *n, void *buf, uint32_t bytes, int root)
{
    int p = n->c->size, vr = (n->c->rank - root + p) % p, mask = 1, rc = MPI_SUCCESS;
    while (mask < p) {
        if (vr & mask) {
            rc = nbc_add(n, 0, (vr - mask + root) % p, buf, bytes);
            nbc_round(n);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
        if (vr + mask < p)
            rc = nbc_add(n, 1, (vr + mask + root) % p, buf, bytes);
    return rc;
}

/* Everyone's block to the root (counts/displs in bytes at the root). */
static int sched_gatherv(struct nbc *n, const void *sbuf, uint32_t sbytes, void *rbuf,
                         const uint32_t *rbytes, const uint32_t *rdisp, int root)
{
    MPI_Comm c = n->c;
    if (c->rank != root)
        return nbc_add(n, 1, root, sbuf, sbytes);
    uint8_t *out = rbuf;
    if (sbuf != out + rdisp[root])
        mp_copy(out + rdisp[root], sbuf, sbytes < rbytes[root] ? sbytes : rbytes[root]);
    int rc = sbytes > rbytes[root] ? MPI_ERR_TRUNCATE : sbytes < rbytes[root] ? MPI_ERR_COUNT : 0;
    for (int i = 0; i < c->size; ++i)
        if (i != root) {
            int w = nbc_add(n, 0, i, out + rdisp[i], rbytes[i]);
            rc = rc ? rc : w;
        }
    n->rc = rc;
    return MPI_SUCCESS;
}

static int sched_scatterv(struct nbc *n, const void *sbuf, const uint32_t *sbytes,
                          const uint32_t *sdisp, void *rbuf, uint32_t rbytes, int root)
{
    MPI_Comm c = n->c;
    if (c->rank != root)
        return nbc_add(n, 0, root, rbuf, rbytes);
    const uint8_t *in = sbuf;
    if ((const uint8_t *)rbuf != in + sdisp[root])
        mp_copy(rbuf, in + sdisp[root], sbytes[root] < rbytes ? sbytes[root] : rbytes);
    n->rc = sbytes[root] > rbytes ? MPI_ERR_TRUNCATE : sbytes[root] < rbytes ? MPI_ERR_COUNT : 0;
    for (int i = 0; i < c->size; ++i)
        if (i != root) {
            int w = nbc_add(n, 1, i, in + sdisp[i], sbytes[i]);
            if (w)
                return w;
        }
    return MPI_SUCCESS;
}

/* Every pair exchanges its block in one round (also the all-gathers: the same send to all). */
static int sched_alltoallw(struct nbc *n, const void *sbuf, const uint32_t *sbytes,
                           const uint32_t *sdisp, void *rbuf, const uint32_t *rbytes,
                           const uint32_t *rdisp)
{
    MPI_Comm c = n->c;
    int r = c->rank, p = c->size;
    const uint8_t *in = sbuf;
    uint8_t *out = rbuf;
    if (in + sdisp[r] != out + rdisp[r])
        mp_copy(out + rdisp[r], in + sdisp[r], sbytes[r] < rbytes[r] ? sbytes[r] : rbytes[r]);
    n->rc = sbytes[r] > rbytes[r] ? MPI_ERR_TRUNCATE : sbytes[r] < rbytes[r] ? MPI_ERR_COUNT : 0;
    for (int k = 1; k < p; ++k) { /* partners in a rotating order: not all at rank 0 first */
        int from = (r - k + p) % p, to = (r + k) % p;
        int w = nbc_add(n, 0, from, out + rdisp[from], rbytes[from]);
        if (w == MPI_SUCCESS)
            w = nbc_add(n, 1, to, in + sdisp[to], sbytes[to]);
        if (w)
            return w;
    }
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ argument handling */

/* The k-th non-blocking collective of a communicator: the same k on every member (MPI's
 * collective order). Called only once the communicator has been checked. */
static int next_tag(MPI_Comm c) { return MPI_TAG_NBC + (int)(c->nbc_seq++ & 0xFFFFFu); }
/* The tag of a non-blocking collective about to start (0 for a bad communicator: it fails). */
static int nb_tag(MPI_Comm c) { return mpi_comm_ok(c) ? next_tag(c) : 0; }

static int comm_check(MPI_Comm c)
{
    return mpi_initialized && mpi_comm_ok(c) ? MPI_SUCCESS : MPI_ERR_COMM;
}

/* counts[i] * size(t) and displs[i] * size(t) in bytes; MPI_SUCCESS or an error class. */
static int vec_bytes(MPI_Comm c, const int *counts, const int *displs, MPI_Datatype t,
                     const void *buf, uint32_t **bytes, uint32_t **disp)
{
    if (!counts || !displs)
        return MPI_ERR_ARG;
    if (!mpi_type_size(t))
        return MPI_ERR_TYPE;
    *bytes = malloc((size_t)c->size * sizeof **bytes);
    *disp = malloc((size_t)c->size * sizeof **disp);
    if (!*bytes || !*disp)
        return MPI_ERR_NO_MEM;
    uint32_t sz = (uint32_t)mpi_type_size(t);
    for (int i = 0; i < c->size; ++i) {
        if (counts[i] < 0 || displs[i] < 0)
            return MPI_ERR_COUNT;
        if (counts[i] > 0 && !buf)
            return MPI_ERR_BUFFER;
        (*bytes)[i] = (uint32_t)counts[i] * sz;
        (*disp)[i] = (uint32_t)displs[i] * sz;
    }
    return MPI_SUCCESS;
}

static int uniform(MPI_Comm c, int count, MPI_Datatype t, uint32_t **bytes, uint32_t **disp)
{
    *bytes = malloc((size_t)c->size * sizeof **bytes);
    *disp = malloc((size_t)c->size * sizeof **disp);
    if (!*bytes || !*disp)
        return MPI_ERR_NO_MEM;
    uint32_t b = (uint32_t)count * (uint32_t)mpi_type_size(t);
    for (int i = 0; i < c->size; ++i) {
        (*bytes)[i] = b;
        (*disp)[i] = (uint32_t)i * b;
    }
    return MPI_SUCCESS;
}

/* Per-rank bytes and displacements: from a uniform count (checked), or from counts and
 * displacements (MPI_COLL_VECTOR). */
static int layout(MPI_Comm c, int uniform_count, const int *counts, const int *displs,
                  MPI_Datatype t, const void *buf, uint32_t **bytes, uint32_t **disp)
{
    if (uniform_count == MPI_COLL_VECTOR)
        return vec_bytes(c, counts, displs, t, buf, bytes, disp);
    const int rc = mpi_buf_check(uniform_count, t, buf);
    return rc ? rc : uniform(c, uniform_count, t, bytes, disp);
}

/* Runs a built schedule: blocking callers (req NULL) wait for it here. */
static int finish(struct nbc *n, int rc, MPI_Request *req)
{
    if (rc != MPI_SUCCESS) {
        nbc_free(n);
        return rc;
    }
    MPI_Request r;
    rc = nbc_start(n, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if (req) {
        ++mpi_stats.coll[MPIX_C_NBC][MPIX_A_LINEAR];
        *req = r;
        return MPI_SUCCESS;
    }
    return mpi_wait_req(r, NULL);
}

/* The rooted vector collectives' checks and, at the root, the vector side's layout: the own
 * buffer (count, type, buffer; MPI_IN_PLACE is the root's only) and the per-rank bytes and
 * displacements from a uniform count or from counts and displacements. */
static int rooted_layout(MPI_Comm c, int root, int in_place, int own_count, MPI_Datatype own_type,
                         const void *own_buf, int uniform_count, const int *counts,
                         const int *displs, MPI_Datatype vt, const void *vbuf, uint32_t **bytes,
                         uint32_t **disp)
{
    int rc = comm_check(c);
    if (rc)
        return rc;
    if (root < 0 || root >= c->size)
        return MPI_ERR_ROOT;
    if (in_place && c->rank != root)
        return MPI_ERR_BUFFER;
    if (!in_place && (rc = mpi_buf_check(own_count, own_type, own_buf)))
        return rc;
    return c->rank == root ? layout(c, uniform_count, counts, displs, vt, vbuf, bytes, disp)
                           : MPI_SUCCESS;
}

int mpi_coll_gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                     const int *displs, MPI_Datatype rt, int root, MPI_Comm c, int tag,
                     MPI_Request *req, int uniform_count)
{
    const int in_place = sbuf == MPI_IN_PLACE;
    uint32_t *bytes = NULL, *disp = NULL;
    int rc = rooted_layout(c, root, in_place, scount, st, sbuf, uniform_count, rcounts, displs, rt,
                           rbuf, &bytes, &disp);
    struct nbc *n = rc ? NULL : nbc_new(c, tag);
    if (!rc && !n)
        rc = MPI_ERR_NO_MEM;
    if (!rc) {
        const void *s = sbuf;
        uint32_t sb = in_place ? bytes[root] : (uint32_t)scount * (uint32_t)mpi_type_size(st);
        if (in_place)
            s = (uint8_t *)rbuf + disp[root];
        rc = sched_gatherv(n, s, sb, rbuf, bytes, disp, root);
        rc = finish(n, rc, req);
    }
    free(bytes);
    free(disp);
    return rc;
}

int mpi_coll_scatterv(const void *sbuf, const int *scounts, const int *displs, MPI_Datatype st,
                      void *rbuf, int rcount, MPI_Datatype rt, int root, MPI_Comm c, int tag,
                      MPI_Request *req, int uniform_count)
{
    const int in_place = rbuf == MPI_IN_PLACE;
    uint32_t *bytes = NULL, *disp = NULL;
    int rc = rooted_layout(c, root, in_place, rcount, rt, rbuf, uniform_count, scounts, displs, st,
                           sbuf, &bytes, &disp);
    struct nbc *n = rc ? NULL : nbc_new(c, tag);
    if (!rc && !n)
        rc = MPI_ERR_NO_MEM;
    if (!rc) {
        void *r = rbuf;
        uint32_t rb = in_place ? bytes[root] : (uint32_t)rcount * (uint32_t)mpi_type_size(rt);
        if (in_place)
            r = (uint8_t *)sbuf + disp[root];
        rc = sched_scatterv(n, sbuf, bytes, disp, r, rb, root);
        rc = finish(n, rc, req);
    }
    free(bytes);
    free(disp);
    return rc;
}

/* The all-gathers and all-to-alls: per-peer send and receive bytes and displacements. */
static int run_alltoallw(MPI_Comm c, const void *sbuf, uint32_t *sb, uint32_t *sd, void *rbuf,
                         uint32_t *rb, uint32_t *rd, int in_place, int tag, MPI_Request *req)
{
    struct nbc *n = nbc_new(c, tag);
    if (!n)
        return MPI_ERR_NO_MEM;
    if (in_place) { /* the receive buffer is also the input: send from a copy of it */
        uint32_t end = 0;
        for (int i = 0; i < c->size; ++i)
            if (rd[i] + rb[i] > end)
                end = rd[i] + rb[i];
        n->tmp = malloc(end ? end : 1u);
        if (!n->tmp) {
            nbc_free(n);
            return MPI_ERR_NO_MEM;
        }
        mp_copy(n->tmp, rbuf, end);
        sbuf = n->tmp;
    }
    return finish(n, sched_alltoallw(n, sbuf, sb, sd, rbuf, rb, rd), req);
}

int mpi_coll_allgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                        const int *rcounts, const int *displs, MPI_Datatype rt, MPI_Comm c, int tag,
                        MPI_Request *req, int uniform_count)
{
    int rc = comm_check(c);
    if (rc)
        return rc;
    int in_place = sbuf == MPI_IN_PLACE;
    if (!in_place && (rc = mpi_buf_check(scount, st, sbuf)))
        return rc;
    uint32_t *rb = NULL, *rd = NULL, *sb = NULL, *sd = NULL;
    rc = layout(c, uniform_count, rcounts, displs, rt, rbuf, &rb, &rd);
    if (!rc) {
        sb = malloc((size_t)c->size * sizeof *sb);
        sd = calloc((size_t)c->size, sizeof *sd);
        rc = sb && sd ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    if (!rc) {
        /* the same block to everyone: from the send buffer, or (in place) from this rank's block */
        uint32_t mine = in_place ? rb[c->rank] : (uint32_t)scount * (uint32_t)mpi_type_size(st);
        const void *s = in_place ? (uint8_t *)rbuf + rd[c->rank] : sbuf;
        for (int i = 0; i < c->size; ++i)
            sb[i] = mine;
        struct nbc *n = nbc_new(c, tag); /* sd: 0 for every peer, the same block to all */
        rc = n ? finish(n, sched_alltoallw(n, s, sb, sd, rbuf, rb, rd), req) : MPI_ERR_NO_MEM;
    }
    free(rb);
    free(rd);
    free(sb);
    free(sd);
    return rc;
}

int mpi_coll_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype st,
                       void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rt,
                       MPI_Comm c, int tag, MPI_Request *req, int scount, int rcount)
{
    int rc = comm_check(c);
    if (rc)
        return rc;
    int in_place = sbuf == MPI_IN_PLACE;
    uint32_t *sb = NULL, *sd = NULL, *rb = NULL, *rd = NULL;
    rc = layout(c, rcount, rcounts, rdispls, rt, rbuf, &rb, &rd);
    if (!rc && !in_place)
        rc = layout(c, scount, scounts, sdispls, st, sbuf, &sb, &sd);
    if (!rc)
        rc = run_alltoallw(c, sbuf, in_place ? rb : sb, in_place ? rd : sd, rbuf, rb, rd, in_place,
                           tag, req);
    free(sb);
    free(sd);
    free(rb);
    free(rd);
    return rc;
}

int mpi_coll_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                       const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                       const int *rdispls, const MPI_Datatype *rtypes, MPI_Comm c, int tag,
                       MPI_Request *req)
{
    int rc = comm_check(c);
    if (rc)
        return rc;
    int in_place = sbuf == MPI_IN_PLACE;
    if (!rcounts || !rdispls || !rtypes || (!in_place && (!scounts || !sdispls || !stypes)))
        return MPI_ERR_ARG;
    uint32_t *v = malloc(4u * (size_t)c->size * sizeof *v);
    if (!v)
        return MPI_ERR_NO_MEM;
    uint32_t *sb = v, *sd = v + c->size, *rb = v + 2 * c->size, *rd = v + 3 * c->size;
    for (int i = 0; i < c->size && !rc; ++i) { /* displacements are in bytes here */
        if (!mpi_type_size(rtypes[i]) || (!in_place && !mpi_type_size(stypes[i])))
            rc = MPI_ERR_TYPE;
        else if (rcounts[i] < 0 || rdispls[i] < 0 ||
                 (!in_place && (scounts[i] < 0 || sdispls[i] < 0)))
            rc = MPI_ERR_COUNT;
        else if ((rcounts[i] && !rbuf) || (!in_place && scounts[i] && !sbuf))
            rc = MPI_ERR_BUFFER;
        if (rc)
            break;
        rb[i] = (uint32_t)rcounts[i] * (uint32_t)mpi_type_size(rtypes[i]);
        rd[i] = (uint32_t)rdispls[i];
        sb[i] = in_place ? rb[i] : (uint32_t)scounts[i] * (uint32_t)mpi_type_size(stypes[i]);
        sd[i] = in_place ? rd[i] : (uint32_t)sdispls[i];
    }
    if (!rc)
        rc = run_alltoallw(c, sbuf, sb, sd, rbuf, rb, rd, in_place, tag, req);
    free(v);
    return rc;
}

/* ------------------------------------------------------------------ the API */

#define API(call, expr) return mpi_err(c, (expr), call)

int MPI_Ibarrier(MPI_Comm c, MPI_Request *req)
{
    int rc = comm_check(c);
    if (!rc && !req)
        rc = MPI_ERR_REQUEST;
    struct nbc *n = rc ? NULL : nbc_new(c, nb_tag(c));
    if (!rc && !n)
        rc = MPI_ERR_NO_MEM;
    if (!rc)
        rc = finish(n, sched_barrier(n), req);
    API("MPI_Ibarrier", rc);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *req)
{
    int rc = comm_check(c);
    if (!rc && !req)
        rc = MPI_ERR_REQUEST;
    if (!rc && (root < 0 || root >= c->size))
        rc = MPI_ERR_ROOT;
    if (!rc)
        rc = mpi_buf_check(count, t, buf);
    struct nbc *n = rc ? NULL : nbc_new(c, nb_tag(c));
    if (!rc && !n)
        rc = MPI_ERR_NO_MEM;
    if (!rc)
        rc =
            finish(n, sched_bcast(n, buf, (uint32_t)count * (uint32_t)mpi_type_size(t), root), req);
    API("MPI_Ibcast", rc);
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                const int *displs, MPI_Datatype rt, int root, MPI_Comm c)
{
    API("MPI_Gatherv", mpi_coll_gatherv(sbuf, scount, st, rbuf, rcounts, displs, rt, root, c,
                                        MPI_TAG_GATHERV, NULL, MPI_COLL_VECTOR));
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_gatherv(sbuf, scount, st, rbuf, NULL, NULL, rt, root, c, nb_tag(c), req,
                              rcount);
    API("MPI_Igather", rc);
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                 const int *displs, MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_gatherv(sbuf, scount, st, rbuf, rcounts, displs, rt, root, c, nb_tag(c), req,
                              MPI_COLL_VECTOR);
    API("MPI_Igatherv", rc);
}

int MPI_Scatterv(const void *sbuf, const int *scounts, const int *displs, MPI_Datatype st,
                 void *rbuf, int rcount, MPI_Datatype rt, int root, MPI_Comm c)
{
    API("MPI_Scatterv", mpi_coll_scatterv(sbuf, scounts, displs, st, rbuf, rcount, rt, root, c,
                                          MPI_TAG_SCATTERV, NULL, MPI_COLL_VECTOR));
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                 MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_scatterv(sbuf, NULL, NULL, st, rbuf, rcount, rt, root, c, nb_tag(c), req,
                               scount);
    API("MPI_Iscatter", rc);
}

int MPI_Iscatterv(const void *sbuf, const int *scounts, const int *displs, MPI_Datatype st,
                  void *rbuf, int rcount, MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_scatterv(sbuf, scounts, displs, st, rbuf, rcount, rt, root, c, nb_tag(c), req,
                               MPI_COLL_VECTOR);
    API("MPI_Iscatterv", rc);
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                   const int *displs, MPI_Datatype rt, MPI_Comm c)
{
    API("MPI_Allgatherv", mpi_coll_allgatherv(sbuf, scount, st, rbuf, rcounts, displs, rt, c,
                                              MPI_TAG_ALLGATHERV, NULL, MPI_COLL_VECTOR));
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                   MPI_Datatype rt, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_allgatherv(sbuf, scount, st, rbuf, NULL, NULL, rt, c, nb_tag(c), req, rcount);
    API("MPI_Iallgather", rc);
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                    const int *displs, MPI_Datatype rt, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_allgatherv(sbuf, scount, st, rbuf, rcounts, displs, rt, c, nb_tag(c), req,
                                 MPI_COLL_VECTOR);
    API("MPI_Iallgatherv", rc);
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                 MPI_Datatype rt, MPI_Comm c)
{
    if (mpi_comm_ok(c))
        ++mpi_stats.coll[MPIX_C_ALLTOALL][MPIX_A_LINEAR];
    API("MPI_Alltoall", mpi_coll_alltoallv(sbuf, NULL, NULL, st, rbuf, NULL, NULL, rt, c,
                                           MPI_TAG_ALLTOALL, NULL, scount, rcount));
}

int MPI_Alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype st,
                  void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm c)
{
    if (mpi_comm_ok(c))
        ++mpi_stats.coll[MPIX_C_ALLTOALL][MPIX_A_LINEAR];
    API("MPI_Alltoallv",
        mpi_coll_alltoallv(sbuf, scounts, sdispls, st, rbuf, rcounts, rdispls, rt, c,
                           MPI_TAG_ALLTOALLV, NULL, MPI_COLL_VECTOR, MPI_COLL_VECTOR));
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                  MPI_Datatype rt, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_alltoallv(sbuf, NULL, NULL, st, rbuf, NULL, NULL, rt, c, nb_tag(c), req,
                                scount, rcount);
    API("MPI_Ialltoall", rc);
}

int MPI_Ialltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype st,
                   void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rt, MPI_Comm c,
                   MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_alltoallv(sbuf, scounts, sdispls, st, rbuf, rcounts, rdispls, rt, c,
                                nb_tag(c), req, MPI_COLL_VECTOR, MPI_COLL_VECTOR);
    API("MPI_Ialltoallv", rc);
}

int MPI_Ialltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                   const MPI_Datatype *stypes, void *rbuf, const int *rcounts, const int *rdispls,
                   const MPI_Datatype *rtypes, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? MPI_SUCCESS : MPI_ERR_REQUEST;
    if (!rc)
        rc = mpi_coll_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, c,
                                nb_tag(c), req);
    API("MPI_Ialltoallw", rc);
}
