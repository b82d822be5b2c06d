/* MPI subset: initialisation, communicators, error handling, the point-to-point API calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/hal.h"
#include "mpi_internal.h"

MPI_RANK_LOCAL mpix_stats_t mpi_stats;
MPI_RANK_LOCAL int mpi_initialized;
MPI_RANK_LOCAL int mpi_world_rank, mpi_world_size;
MPI_RANK_LOCAL struct mpi_comm mpi_comm_world_obj = {0,    0, 0,    MPI_ERRORS_ARE_FATAL,
                                                     NULL, 0, NULL, 0};
static MPI_RANK_LOCAL uint32_t next_ctx = 2; /* world: 0 (p2p) and 1 (collectives) */

static const char *const err_names[MPI_ERR_LASTCODE] = {
    "MPI_SUCCESS",       "MPI_ERR_BUFFER",   "MPI_ERR_COUNT",     "MPI_ERR_TYPE",
    "MPI_ERR_TAG",       "MPI_ERR_COMM",     "MPI_ERR_RANK",      "MPI_ERR_REQUEST",
    "MPI_ERR_ROOT",      "MPI_ERR_GROUP",    "MPI_ERR_OP",        "MPI_ERR_TOPOLOGY",
    "MPI_ERR_DIMS",      "MPI_ERR_ARG",      "MPI_ERR_UNKNOWN",   "MPI_ERR_TRUNCATE",
    "MPI_ERR_OTHER",     "MPI_ERR_INTERN",   "MPI_ERR_IN_STATUS", "MPI_ERR_PENDING",
    "MPI_ERR_NO_MEM",    "MPI_ERR_WIN",      "MPI_ERR_DISP",      "MPI_ERR_RMA_SYNC",
    "MPI_ERR_RMA_RANGE", "MPI_ERR_LOCKTYPE", "MPI_ERR_SIZE"};

int MPI_Error_string(int code, char *s, int *len)
{
    const char *n = code >= 0 && code < MPI_ERR_LASTCODE ? err_names[code] : "MPI_ERR_UNKNOWN";
    if (!s || !len)
        return MPI_ERR_ARG;
    strncpy(s, n, MPI_MAX_ERROR_STRING - 1);
    s[MPI_MAX_ERROR_STRING - 1] = 0;
    *len = (int)strlen(s);
    return MPI_SUCCESS;
}

/* The communicator's error handler: ERRORS_ARE_FATAL ends the simulation (MPI_Abort). */
int mpi_err(MPI_Comm comm, int code, const char *where)
{
    if (code == MPI_SUCCESS)
        return code;
    int h = comm && comm->valid ? comm->errhandler : mpi_comm_world_obj.errhandler;
    if (h == MPI_ERRORS_RETURN)
        return code;
    printf("MPI FATAL: rank %d: %s: %s\n", mpi_world_rank, where,
           code < MPI_ERR_LASTCODE ? err_names[code] : "?");
    sim_shutdown(100u + (uint32_t)code);
}

int mpi_comm_ok(MPI_Comm c) { return c && c->valid; }

static const uint8_t type_sizes[MPIX_NUM_TYPES] = {
    0, 1, 2, 4, 4, 8, 4, 8, 1, sizeof(long), sizeof(unsigned long), sizeof(MPI_Aint)};
int mpi_type_size(MPI_Datatype t) { return t > 0 && t < MPIX_NUM_TYPES ? type_sizes[t] : 0; }
int MPI_Type_size(MPI_Datatype t, int *size)
{
    if (!mpi_type_size(t) || !size)
        return mpi_err(MPI_COMM_WORLD, size ? MPI_ERR_TYPE : MPI_ERR_ARG, "MPI_Type_size");
    *size = mpi_type_size(t);
    return MPI_SUCCESS;
}

int MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (mpi_initialized)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init");
    if (mpi_node_start() != MPI_SUCCESS)
        return MPI_ERR_OTHER;
    mpi_world_rank = (int)(tile_id() * mpi_ranks_per_tile + tile_core_id());
    mpi_world_size = (int)(tile_mesh_width() * tile_mesh_height() * mpi_ranks_per_tile);
    if (mpi_world_size > MPI_MAX_RANKS)
        return MPI_ERR_OTHER;
    mpi_comm_world_obj.rank = mpi_world_rank;
    mpi_comm_world_obj.size = mpi_world_size;
    mpi_comm_world_obj.valid = 1;
    mpi_initialized = 1;
    int rc = mpi_p2p_init();
    if (rc == MPI_SUCCESS)
        rc = MPI_Barrier(MPI_COMM_WORLD); /* every rank's endpoints exist from here on */
    return rc;
}

/* the level MPI_Init_thread gave (MPI_Init: MPI_THREAD_SINGLE) */
static MPI_RANK_LOCAL int provided_level = MPI_THREAD_SINGLE;

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    if (!provided || required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Init_thread");
    /* Any level: the runtime's threads (<pthread.h>) are cooperative threads of the rank's core,
     * so two MPI calls never run at once, and a blocking call lets the other threads run
     * (mpi_progress): MPI_THREAD_MULTIPLE's promise. */
    provided_level = required;
    *provided = required;
    return MPI_Init(argc, argv);
}

int MPI_Query_thread(int *provided)
{
    if (!provided)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Query_thread");
    *provided = provided_level;
    return MPI_SUCCESS;
}

int MPI_Get_address(const void *location, MPI_Aint *address)
{
    if (!address)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_address");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

int MPI_Initialized(int *flag)
{
    if (!flag)
        return MPI_ERR_ARG;
    *flag = mpi_initialized;
    return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
    if (!mpi_initialized)
        return MPI_ERR_OTHER;
    /* after the barrier nobody sends to us any more; then our own last sends are drained and the
     * always-posted receives withdrawn */
    int rc = MPI_Barrier(MPI_COMM_WORLD);
    mpi_p2p_finalize();
    mpi_initialized = 0;
    return rc;
}

int MPI_Abort(MPI_Comm comm, int code)
{
    (void)comm;
    printf("MPI_Abort: rank %d, code %d\n", mpi_world_rank, code);
    sim_shutdown((uint32_t)code ? (uint32_t)code : 1u);
}

double MPI_Wtime(void) { return (double)timer_now() / (double)timer_hz(); }
double MPI_Wtick(void) { return 1.0 / (double)timer_hz(); }

int MPI_Comm_size(MPI_Comm c, int *size)
{
    if (!mpi_comm_ok(c))
        return mpi_err(c, MPI_ERR_COMM, "MPI_Comm_size");
    if (!size)
        return mpi_err(c, MPI_ERR_ARG, "MPI_Comm_size");
    *size = c->size;
    return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm c, int *rank)
{
    if (!mpi_comm_ok(c))
        return mpi_err(c, MPI_ERR_COMM, "MPI_Comm_rank");
    if (!rank)
        return mpi_err(c, MPI_ERR_ARG, "MPI_Comm_rank");
    *rank = c->rank;
    return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm c, MPI_Errhandler h)
{
    if (!mpi_comm_ok(c))
        return mpi_err(c, MPI_ERR_COMM, "MPI_Comm_set_errhandler");
    if (h != MPI_ERRORS_RETURN && h != MPI_ERRORS_ARE_FATAL)
        return mpi_err(c, MPI_ERR_ARG, "MPI_Comm_set_errhandler");
    c->errhandler = h;
    return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm c, MPI_Errhandler *h)
{
    if (!mpi_comm_ok(c) || !h)
        return mpi_err(c, c ? MPI_ERR_ARG : MPI_ERR_COMM, "MPI_Comm_get_errhandler");
    *h = c->errhandler;
    return MPI_SUCCESS;
}

/* Split: every member's (color, key) by MPI_Allgather on the parent; the new context id is the
 * largest next_ctx of the parent's members (MPI_Allreduce MAX), so all members agree on it. */
int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out)
{
    if (!mpi_comm_ok(c))
        return mpi_err(c, MPI_ERR_COMM, "MPI_Comm_split");
    if (!out || (color < 0 && color != MPI_UNDEFINED))
        return mpi_err(c, MPI_ERR_ARG, "MPI_Comm_split");
    int mine[2] = {color, key};
    int *all = malloc(sizeof(int) * 2u * (size_t)c->size);
    if (!all)
        return mpi_err(c, MPI_ERR_NO_MEM, "MPI_Comm_split");
    int rc = MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, c);
    int ctx = (int)next_ctx, maxctx = 0;
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(&ctx, &maxctx, 1, MPI_INT, MPI_MAX, c);
    if (rc != MPI_SUCCESS) {
        free(all);
        return mpi_err(c, rc, "MPI_Comm_split");
    }
    next_ctx = (uint32_t)maxctx + 2u;
    *out = MPI_COMM_NULL;
    if (color == MPI_UNDEFINED) {
        free(all);
        return MPI_SUCCESS;
    }
    /* members of my color, ordered by (key, parent rank): insertion sort */
    int n = 0;
    int *mem = malloc(sizeof(int) * (size_t)c->size);
    struct mpi_comm *nc = calloc(1, sizeof *nc);
    if (!mem || !nc) {
        free(all);
        free(mem);
        free(nc);
        return mpi_err(c, MPI_ERR_NO_MEM, "MPI_Comm_split");
    }
    for (int r = 0; r < c->size; ++r) {
        if (all[2 * r] != color)
            continue;
        int i = n++;
        while (i > 0 && all[2 * mem[i - 1] + 1] > all[2 * r + 1]) {
            mem[i] = mem[i - 1];
            --i;
        }
        mem[i] = r;
    }
    nc->world = mem;
    for (int i = 0; i < n; ++i) {
        if (mem[i] == c->rank)
            nc->rank = i;
        mem[i] = mpi_world_of(c, mem[i]);
    }
    free(all);
    nc->size = n;
    nc->ctx = (uint32_t)maxctx;
    nc->errhandler = c->errhandler;
    nc->valid = 1;
    *out = nc;
    return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm *c)
{
    if (!c || !mpi_comm_ok(*c) || *c == MPI_COMM_WORLD)
        return mpi_err(c ? *c : NULL, MPI_ERR_COMM, "MPI_Comm_free");
    (*c)->valid = 0;
    mpi_cc_comm_free(*c);
    free((*c)->world);
    free(*c);
    *c = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ point-to-point API */
int mpi_buf_check(int count, MPI_Datatype t, const void *buf)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (!mpi_type_size(t))
        return MPI_ERR_TYPE;
    if (!buf && count > 0)
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

int mpi_arg_check(MPI_Comm c, int count, MPI_Datatype t, const void *buf)
{
    return !mpi_initialized || !mpi_comm_ok(c) ? MPI_ERR_COMM : mpi_buf_check(count, t, buf);
}

static int check_p2p(MPI_Comm c, const void *buf, int count, MPI_Datatype t, int peer, int tag,
                     int recv)
{
    const int rc = mpi_arg_check(c, count, t, buf);
    if (rc)
        return rc;
    if (peer != MPI_PROC_NULL && !(recv && peer == MPI_ANY_SOURCE) && (peer < 0 || peer >= c->size))
        return MPI_ERR_RANK;
    if (!(recv && tag == MPI_ANY_TAG) && (tag < 0 || tag > MPI_TAG_UB_VALUE))
        return MPI_ERR_TAG;
    return MPI_SUCCESS;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c,
              MPI_Request *req)
{
    int rc = req ? check_p2p(c, buf, count, t, dest, tag, 0) : MPI_ERR_REQUEST;
    if (rc == MPI_SUCCESS)
        rc = mpi_isend_ctx(buf, (uint32_t)count * (uint32_t)mpi_type_size(t), dest, tag, c, c->ctx,
                           req);
    return mpi_err(c, rc, "MPI_Isend");
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *req)
{
    int rc = req ? check_p2p(c, buf, count, t, src, tag, 1) : MPI_ERR_REQUEST;
    if (rc == MPI_SUCCESS)
        rc = mpi_irecv_ctx(buf, (uint32_t)count * (uint32_t)mpi_type_size(t), src, tag, c, c->ctx,
                           req);
    return mpi_err(c, rc, "MPI_Irecv");
}

int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    MPI_Request r;
    int rc = MPI_Isend(buf, count, t, dest, tag, c, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    return mpi_err(c, mpi_wait_req(r, NULL), "MPI_Send");
}

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    MPI_Request r;
    int rc = MPI_Irecv(buf, count, t, src, tag, c, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    return mpi_err(c, mpi_wait_req(r, st), "MPI_Recv");
}

int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
    if (!req)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Wait");
    if (*req == MPI_REQUEST_NULL) { /* MPI-3 3.7.3: an empty status */
        if (st) {
            st->MPI_SOURCE = MPI_ANY_SOURCE;
            st->MPI_TAG = MPI_ANY_TAG;
            st->MPI_ERROR = MPI_SUCCESS;
            st->count_bytes = 0;
        }
        return MPI_SUCCESS;
    }
    MPI_Comm c = (*req)->comm;
    int rc = mpi_wait_req(*req, st);
    *req = MPI_REQUEST_NULL;
    return mpi_err(c, rc, "MPI_Wait");
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
    if (n < 0 || (n && !reqs))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Waitall");
    int any = 0;
    MPI_Comm c = MPI_COMM_WORLD;
    for (int i = 0; i < n; ++i) {
        if (reqs[i])
            c = reqs[i]->comm;
        MPI_Errhandler saved = c->errhandler;
        c->errhandler = MPI_ERRORS_RETURN; /* one error per status, reported once below */
        int rc = MPI_Wait(&reqs[i], sts ? &sts[i] : NULL);
        c->errhandler = saved;
        if (sts)
            sts[i].MPI_ERROR = rc;
        any |= rc != MPI_SUCCESS;
    }
    return mpi_err(c, any ? MPI_ERR_IN_STATUS : MPI_SUCCESS, "MPI_Waitall");
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
    if (!req || !flag)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test");
    if (*req == MPI_REQUEST_NULL) {
        *flag = 1;
        return MPI_Wait(req, st);
    }
    mpi_progress(0);
    *flag = (*req)->state == RQ_DONE;
    if (!*flag)
        return MPI_SUCCESS;
    return MPI_Wait(req, st);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm c, MPI_Status *st)
{
    int rc = check_p2p(c, sbuf, scount, stype, dest, stag, 0);
    if (rc == MPI_SUCCESS)
        rc = check_p2p(c, rbuf, rcount, rtype, src, rtag, 1);
    if (rc != MPI_SUCCESS)
        return mpi_err(c, rc, "MPI_Sendrecv");
    struct mpi_request *rr, *sr;
    rc = mpi_irecv_ctx(rbuf, (uint32_t)rcount * (uint32_t)mpi_type_size(rtype), src, rtag, c,
                       c->ctx, &rr);
    if (rc != MPI_SUCCESS)
        return mpi_err(c, rc, "MPI_Sendrecv");
    int rs = mpi_isend_ctx(sbuf, (uint32_t)scount * (uint32_t)mpi_type_size(stype), dest, stag, c,
                           c->ctx, &sr);
    if (rs == MPI_SUCCESS)
        rs = mpi_wait_req(sr, NULL);
    rc = mpi_wait_req(rr, st);
    return mpi_err(c, rs != MPI_SUCCESS ? rs : rc, "MPI_Sendrecv");
}

int MPI_Iprobe(int src, int tag, MPI_Comm c, int *flag, MPI_Status *st)
{
    int rc = flag ? check_p2p(c, NULL, 0, MPI_BYTE, src, tag, 1) : MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = mpi_iprobe_ctx(src, tag, c->ctx, flag, st);
    return mpi_err(c, rc, "MPI_Iprobe");
}

int MPI_Probe(int src, int tag, MPI_Comm c, MPI_Status *st)
{
    int flag = 0;
    int rc = check_p2p(c, NULL, 0, MPI_BYTE, src, tag, 1);
    if (rc != MPI_SUCCESS)
        return mpi_err(c, rc, "MPI_Probe");
    if (src == MPI_PROC_NULL) {
        if (st) {
            st->MPI_SOURCE = MPI_PROC_NULL;
            st->MPI_TAG = MPI_ANY_TAG;
            st->MPI_ERROR = MPI_SUCCESS;
            st->count_bytes = 0;
        }
        return MPI_SUCCESS;
    }
    for (;;) {
        mpi_iprobe_ctx(src, tag, c->ctx, &flag, st);
        if (flag)
            return MPI_SUCCESS;
        mpi_progress(1);
    }
}

int MPI_Get_count(const MPI_Status *st, MPI_Datatype t, int *count)
{
    int sz = mpi_type_size(t);
    if (!st || !count)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_count");
    if (!sz)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Get_count");
    *count = st->count_bytes % sz ? MPI_UNDEFINED : st->count_bytes / sz;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ statistics */
const mpix_stats_t *MPIX_Stats(void) { return &mpi_stats; }

const char *MPIX_Coll_name(int c)
{
    static const char *const n[MPIX_C_NUM] = {"barrier",        "bcast",  "scatter",   "gather",
                                              "allgather",      "reduce", "allreduce", "alltoall",
                                              "reduce_scatter", "nbc"};
    return c >= 0 && c < MPIX_C_NUM ? n[c] : "?";
}

const char *MPIX_Alg_name(int a)
{
    static const char *const n[MPIX_A_NUM] = {
        "linear", "binomial", "dissemination", "ring", "recdoubling", "reduce_bcast", "cc"};
    return a >= 0 && a < MPIX_A_NUM ? n[a] : "?";
}

/* One line per rank: protocol counters, queue maxima, and every collective/algorithm pair used
 * ("coll.<collective>.<algorithm>=<calls>"), so tests and benchmarks see the choice. */
void MPIX_Print_stats(void)
{
    const mpix_stats_t *s = &mpi_stats;
    printf("mpi stats rank %d: eager=%u rdv=%u self=%u unexpected=%u matched_posted=%u "
           "posted_max=%u unexpected_max=%u match_steps=%u",
           mpi_world_rank, (unsigned)s->eager_sends, (unsigned)s->rdv_sends,
           (unsigned)s->self_sends, (unsigned)s->unexpected, (unsigned)s->matched_posted,
           (unsigned)s->posted_max, (unsigned)s->unexpected_max, (unsigned)s->match_steps);
    for (int c = 0; c < MPIX_C_NUM; ++c)
        for (int a = 0; a < MPIX_A_NUM; ++a)
            if (s->coll[c][a])
                printf(" coll.%s.%s=%u", MPIX_Coll_name(c), MPIX_Alg_name(a),
                       (unsigned)s->coll[c][a]);
    if (mpi_node_shared)
        printf(" node.ranks=%u node.wakeups=%u node.contended=%u", (unsigned)mpi_ranks_per_tile,
               (unsigned)s->node_wakeups, (unsigned)s->node_contended);
    printf("\n");
}
