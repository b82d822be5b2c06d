/* The collectives on NAMP-CC (docs/mpi.md, "Collectives on NAMP-CC"): MPI_Bcast by a
 * connection-less multicast group, MPI_Reduce by the adapter's reduction, MPI_Allreduce by both.
 * coll_select.c decides when (mpi_cc_bcast_ok / mpi_cc_reduce_ok); this file owns the endpoints,
 * groups and contributors of each communicator (struct mpi_cc_comm, made on first use).
 *
 * Broadcast: the root's group has every other rank's header endpoint (MPI_PORT) as a member and
 * sends one eager MPI message [header][payload] (collective context, MPI_TAG_BCAST); the others
 * receive it through the matching engine as a message from the root. So the ordering and
 * unexpected-message rules of point-to-point hold unchanged, receivers need no setup and the
 * group exists only at roots that broadcast (made there on first use: connection-less, nobody
 * else takes part).
 *
 * Reduction: a root endpoint per (communicator, root rank) on the root's tile, port
 * MPI_PORT_CC_RED + ctx / 2, which serves only that communicator's reductions to that root; every
 * other member contributes to it through a contributor object. Set up collectively at the first
 * CC reduction to that root (all members call it, MPI's collective order makes it the same call
 * everywhere): the root creates endpoint and receive side, then a software broadcast tells the
 * others it is ready (a contribution must not reach an endpoint before it is a reduction root),
 * and they look it up. The k-th contribution and the k-th receive pair up because every member
 * runs the communicator's reductions to that root in the same order. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "mcapix_cc.h"
#include "na_registers.h"

#define MPI_PORT_CC_RED      0x4E00u /* + ctx / 2: reduction root endpoint of a communicator */
#define MPI_CC_RED_SLOT_LOG2 11u     /* 2 KiB elements: the largest CC reduction */
#define MPI_CC_RED_CAP_LOG2  2u      /* 4 reductions can be in flight to one root */

struct mpi_cc_comm {
    mcapix_mcast_group_t *bcast; /* this rank as the broadcast root */
    mcapi_endpoint_t red_ep;     /* this rank as the reduction root: its endpoint ... */
    mcapix_reduce_rx_t *rx;      /* ... and receive side */
    mcapix_reduce_tx_t **tx;     /* per root rank: this rank's contributor to it */
    int8_t *red_state;           /* per root rank: 0 not set up, 1 ready, -1 refused */
};

/* With more than one rank per tile the collectives stay in software: the CC calls end in the NAMP
 * driver's blocking run, which sleeps in wfi with the node lock held, and only core 0 sees the
 * adapter's interrupt line (docs/mpi.md "Ranks"). */
int mpi_cc_present(void) { return mpi_node_shared ? 0 : (int)mcapix_cc_features(); }
unsigned MPIX_Cc_features(void) { return (unsigned)mpi_cc_present(); }

_Static_assert(sizeof(long) == 4, "MPI_LONG is the adapter's 32-bit type");

static int type_of(MPI_Datatype t)
{
    switch (t) {
    case MPI_CHAR: return MCAPIX_T_INT8;
    case MPI_SHORT: return MCAPIX_T_INT16;
    case MPI_INT: return MCAPIX_T_INT32;
    case MPI_LONG: return MCAPIX_T_INT32; /* 32 bits on this target */
    case MPI_UNSIGNED: return MCAPIX_T_UINT32;
    case MPI_UNSIGNED_LONG: return MCAPIX_T_UINT32;
    default: return -1; /* long long, float, double: not in the adapter's ALU */
    }
}
static int op_of(MPI_Op op)
{
    switch (op) {
    case MPI_SUM: return MCAPIX_OP_SUM;
    case MPI_MIN: return MCAPIX_OP_MIN;
    case MPI_MAX: return MCAPIX_OP_MAX;
    case MPI_BAND: return MCAPIX_OP_BAND;
    case MPI_BOR: return MCAPIX_OP_BOR;
    case MPI_BXOR: return MCAPIX_OP_BXOR;
    case MPI_LAND: return MCAPIX_OP_LAND;
    case MPI_LOR: return MCAPIX_OP_LOR;
    default: return -1; /* PROD: no multiplier in the adapter */
    }
}

int mpi_cc_bcast_ok(uint32_t bytes, MPI_Comm c)
{
    return (mpi_cc_present() & NA_FEATURE_NAMP_CC_MCAST) && c->size > 1 &&
           c->size - 1 <= (int)MCAPIX_CC_MAX_MEMBERS && bytes <= (uint32_t)MPIX_EAGER_MAX;
}

int mpi_cc_reduce_ok(int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    uint32_t bytes = (uint32_t)count * (uint32_t)mpi_type_size(t);
    return (mpi_cc_present() & NA_FEATURE_NAMP_CC_RED) && c->size > 1 && count > 0 &&
           type_of(t) >= 0 && op_of(op) >= 0 && bytes <= (1u << MPI_CC_RED_SLOT_LOG2) &&
           c->size - 1 <= 65535;
}

static struct mpi_cc_comm *cc_of(MPI_Comm c)
{
    if (!c->cc) {
        struct mpi_cc_comm *s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        s->tx = calloc((size_t)c->size, sizeof *s->tx);
        s->red_state = calloc((size_t)c->size, 1);
        if (!s->tx || !s->red_state) {
            free(s->tx);
            free(s->red_state);
            free(s);
            return NULL;
        }
        c->cc = s;
    }
    return c->cc;
}

void mpi_cc_comm_free(MPI_Comm c)
{
    struct mpi_cc_comm *s = c->cc;
    if (!s)
        return;
    mcapi_status_t st;
    if (s->bcast) {
        mcapix_mcast_destroy(s->bcast, &st);
        free(s->bcast);
    }
    if (s->red_ep)
        mcapi_endpoint_delete(s->red_ep, &st);
    free(s->rx);
    for (int r = 0; r < c->size; ++r)
        free(s->tx[r]);
    free(s->tx);
    free(s->red_state);
    free(s);
    c->cc = NULL;
}

/* ------------------------------------------------------------------ broadcast */
static mcapix_mcast_group_t *bcast_group(MPI_Comm c)
{
    struct mpi_cc_comm *s = cc_of(c);
    if (!s)
        return NULL;
    if (s->bcast)
        return s->bcast;
    mcapi_endpoint_t mem[MCAPIX_CC_MAX_MEMBERS];
    size_t n = 0;
    for (int r = 0; r < c->size; ++r)
        if (r != c->rank && !(mem[n++] = mpi_peer_main(mpi_world_of(c, r))))
            return NULL;
    mcapix_mcast_group_t *g = malloc(sizeof *g);
    if (!g)
        return NULL;
    mcapi_status_t st;
    mcapix_mcast_create(g, mpi_main_endpoint(), mem, n, &st);
    if (st != MCAPI_SUCCESS) {
        free(g);
        return NULL;
    }
    return s->bcast = g;
}

int mpi_cc_bcast(void *buf, uint32_t bytes, int root, MPI_Comm c)
{
    if (c->rank != root) { /* an eager message from the root, through the matching engine */
        struct mpi_request *rq = NULL;
        MPI_Status st;
        int rc = mpi_irecv_ctx(buf, bytes, root, MPI_TAG_BCAST, c, c->ctx + 1u, &rq);
        if (rc != MPI_SUCCESS)
            return rc;
        rc = mpi_wait_req(rq, &st);
        return rc != MPI_SUCCESS ? rc : (uint32_t)st.count_bytes != bytes ? MPI_ERR_COUNT : rc;
    }
    mcapix_mcast_group_t *g = bcast_group(c);
    if (!g)
        return MPI_ERR_OTHER;
    struct mpi_hdr h = {MPI_K_EAGER, (uint16_t)(c->ctx + 1u),       c->rank, MPI_TAG_BCAST,
                        bytes,       (uint32_t)mpi_world_rank << 20};
    /* the adapter takes the group only while none of our own sends is under way (they could
     * be overtaken); finish them first so that the multicast runs in the adapter. The message
     * [header][payload] is built in a send-pool slot, free from then until we return. */
    uint8_t *cc_out = mpi_sends_drain();
    mp_copy(cc_out, &h, sizeof h);
    if (bytes)
        mp_copy(cc_out + MPI_HDR_BYTES, buf, bytes);
    mcapi_status_t st;
    mcapix_mcast_send(g, cc_out, MPI_HDR_BYTES + bytes, &st);
    return st == MCAPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* ------------------------------------------------------------------ reduction */
/* Collective: the first CC reduction to `root` on c. 1 ready, 0 refused (software instead, on
 * every member alike: the root's verdict travels in the ready broadcast: 1 ready, 0 refused, 2
 * refused this time only), <0 an error class. */
static int reduce_setup(int root, MPI_Comm c)
{
    struct mpi_cc_comm *s = cc_of(c);
    int8_t ok = 0;
    mcapi_status_t st;
    if (c->rank == root) {
        if (s) {
            mcapix_endpoint_attributes_t a = {MPI_CC_RED_CAP_LOG2, MPI_CC_RED_SLOT_LOG2, 0, 0};
            s->red_ep = mcapix_endpoint_create(MPI_PORT_CC_RED + (c->ctx >> 1), &a, &st);
            s->rx = s->red_ep ? malloc(sizeof *s->rx) : NULL;
            if (s->rx)
                mcapix_reduce_rx_create(s->rx, s->red_ep, (uint32_t)(c->size - 1), &st);
            ok = s->rx && st == MCAPI_SUCCESS;
        } else {
            ok = 2; /* refused, and the root cannot remember it: all ask again next time */
        }
    }
    int rc = mpi_bcast_binomial(&ok, 1, root, c);
    if (rc != MPI_SUCCESS)
        return -rc;
    if (ok == 2)
        return 0;
    if (!s)
        return ok ? -MPI_ERR_NO_MEM : 0; /* a member without memory cannot follow the root */
    s->red_state[root] = ok ? 1 : -1;
    if (!ok || c->rank == root)
        return ok;
    mcapi_endpoint_t to =
        mcapi_endpoint_get(MCAPI_DOMAIN, (mcapi_node_t)mpi_world_of(c, root),
                           MPI_PORT_CC_RED + (c->ctx >> 1), MCAPI_TIMEOUT_INFINITE, &st);
    mcapix_reduce_tx_t *tx = st == MCAPI_SUCCESS ? malloc(sizeof *tx) : NULL;
    if (tx)
        mcapix_reduce_tx_create(tx, mpi_main_endpoint(), to, &st);
    if (!tx || st != MCAPI_SUCCESS) {
        free(tx);
        return -MPI_ERR_OTHER; /* the root waits for us: documented as fatal for this comm */
    }
    s->tx[root] = tx;
    return 1;
}

/* MPI_SUCCESS, an error class, or -1: not taken (refused at setup: run the software tree). */
int mpi_cc_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                  MPI_Comm c)
{
    struct mpi_cc_comm *s = cc_of(c);
    int state = s ? s->red_state[root] : 0;
    if (state == 0) {
        int rc = reduce_setup(root, c);
        if (rc < 0)
            return -rc;
        state = rc ? 1 : -1;
    }
    if (state < 0)
        return -1;
    uint32_t bytes = (uint32_t)count * (uint32_t)mpi_type_size(t);
    mcapi_status_t st;
    if (c->rank != root) {
        mpi_sends_drain(); /* the adapter takes a contribution only when our sends are idle */
        mcapix_reduce_send(s->tx[root], (uint32_t)op_of(op), (uint32_t)type_of(t), sbuf, bytes,
                           &st);
        return st == MCAPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
    }
    /* Keep the point-to-point engine moving while the adapter combines: a contributor may have
     * to finish a send to us before it can contribute. */
    while (mcapi_msg_available(s->red_ep, &st) == 0 && st == MCAPI_SUCCESS)
        mpi_progress(0);
    size_t got = 0;
    mcapix_reduce_recv(s->rx, (uint32_t)op_of(op), (uint32_t)type_of(t), rbuf, bytes, &got, &st);
    int rc = st == MCAPI_ERR_MSG_TRUNCATED ? MPI_ERR_TRUNCATE
             : st != MCAPI_SUCCESS         ? MPI_ERR_OTHER
             : got != bytes                ? MPI_ERR_COUNT
                                           : MPI_SUCCESS;
    if (rc == MPI_SUCCESS || rc == MPI_ERR_TRUNCATE || rc == MPI_ERR_COUNT)
        mpi_op_apply(op, t, sbuf, rbuf, count); /* the root's own contribution */
    return rc;
}
