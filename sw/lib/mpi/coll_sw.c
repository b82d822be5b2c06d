/* Software collective algorithms over the point-to-point engine (collective context ctx + 1).
 * A peer whose contribution has another size than this rank expects is reported as
 * MPI_ERR_TRUNCATE (more bytes) or MPI_ERR_COUNT (fewer); the algorithm still runs all its steps
 * so that no rank is left waiting. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static int xfer(const void *sbuf, uint32_t sbytes, int dest, void *rbuf, uint32_t rbytes, int src,
                int tag, MPI_Comm c)
{
    struct mpi_request *rr = NULL, *sr = NULL;
    int rc = MPI_SUCCESS, rs = MPI_SUCCESS;
    MPI_Status st;
    uint32_t ctx = c->ctx + 1u;
    if (src >= 0)
        rc = mpi_irecv_ctx(rbuf, rbytes, src, tag, c, ctx, &rr);
    if (dest >= 0)
        rs = mpi_isend_ctx(sbuf, sbytes, dest, tag, c, ctx, &sr);
    if (sr)
        rs = mpi_wait_req(sr, NULL) ? MPI_ERR_OTHER : rs;
    if (rr) {
        int w = mpi_wait_req(rr, &st);
        rc = w != MPI_SUCCESS ? w : (uint32_t)st.count_bytes != rbytes ? MPI_ERR_COUNT : rc;
    }
    return rs != MPI_SUCCESS ? rs : rc;
}
#define FIRST(a, b) ((a) != MPI_SUCCESS ? (a) : (b))

int mpi_barrier_dissemination(MPI_Comm c)
{
    int rc = MPI_SUCCESS, p = c->size, r = c->rank;
    for (int k = 1; k < p; k <<= 1)
        rc = FIRST(rc, xfer(NULL, 0, (r + k) % p, NULL, 0, (r - k + p) % p, MPI_TAG_BARRIER, c));
    return rc;
}

int mpi_bcast_binomial(void *buf, uint32_t bytes, int root, MPI_Comm c)
{
    int p = c->size, vr = (c->rank - root + p) % p, rc = MPI_SUCCESS, mask = 1;
    while (mask < p) {
        if (vr & mask) {
            rc = xfer(NULL, 0, -1, buf, bytes, (vr - mask + root) % p, MPI_TAG_BCAST, c);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < p)
            rc = FIRST(rc, xfer(buf, bytes, (vr + mask + root) % p, NULL, 0, -1, MPI_TAG_BCAST, c));
    return rc;
}

int mpi_scatter_linear(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                       MPI_Comm c)
{
    if (c->rank != root)
        return xfer(NULL, 0, -1, rbuf, rbytes, root, MPI_TAG_SCATTER, c);
    int rc = MPI_SUCCESS;
    struct mpi_request **rq = calloc((size_t)c->size, sizeof *rq);
    if (!rq)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < c->size; ++i)
        if (i != root)
            rc = FIRST(rc, mpi_isend_ctx((const uint8_t *)sbuf + (size_t)i * sbytes, sbytes, i,
                                         MPI_TAG_SCATTER, c, c->ctx + 1u, &rq[i]));
    for (int i = 0; i < c->size; ++i)
        if (rq[i])
            rc = FIRST(rc, mpi_wait_req(rq[i], NULL));
    free(rq);
    if (rbytes < sbytes)
        rc = FIRST(rc, MPI_ERR_TRUNCATE);
    mp_copy(rbuf, (const uint8_t *)sbuf + (size_t)root * sbytes, rbytes < sbytes ? rbytes : sbytes);
    return rc;
}

int mpi_gather_linear(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                      MPI_Comm c)
{
    if (c->rank != root)
        return xfer(sbuf, sbytes, root, NULL, 0, -1, MPI_TAG_GATHER, c);
    int rc = MPI_SUCCESS;
    struct mpi_request **rq = calloc((size_t)c->size, sizeof *rq);
    if (!rq)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < c->size; ++i)
        if (i != root)
            rc = FIRST(rc, mpi_irecv_ctx((uint8_t *)rbuf + (size_t)i * rbytes, rbytes, i,
                                         MPI_TAG_GATHER, c, c->ctx + 1u, &rq[i]));
    for (int i = 0; i < c->size; ++i)
        if (rq[i]) {
            MPI_Status st;
            int w = mpi_wait_req(rq[i], &st);
            rc = FIRST(rc, w != MPI_SUCCESS                     ? w
                           : (uint32_t)st.count_bytes != rbytes ? MPI_ERR_COUNT
                                                                : MPI_SUCCESS);
        }
    free(rq);
    if (sbytes > rbytes)
        rc = FIRST(rc, MPI_ERR_TRUNCATE);
    mp_copy((uint8_t *)rbuf + (size_t)root * rbytes, sbuf, sbytes < rbytes ? sbytes : rbytes);
    return rc;
}

/* Ring: in step i every rank passes the block it got in step i - 1 to its right neighbour. */
int mpi_allgather_ring(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, MPI_Comm c)
{
    int p = c->size, r = c->rank, rc = MPI_SUCCESS;
    uint8_t *out = rbuf;
    if (sbytes != rbytes)
        rc = sbytes > rbytes ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
    mp_copy(out + (size_t)r * rbytes, sbuf, sbytes < rbytes ? sbytes : rbytes);
    for (int i = 0; i < p - 1; ++i) {
        int sb = (r - i + p) % p, rb = (r - i - 1 + p) % p;
        rc = FIRST(rc,
                   xfer(out + (size_t)sb * rbytes, rbytes, (r + 1) % p, out + (size_t)rb * rbytes,
                        rbytes, (r - 1 + p) % p, MPI_TAG_ALLGATHER, c));
    }
    return rc;
}

/* Binomial tree towards the root; all predefined operations are commutative, so a child's partial
 * result is combined in whatever order the tree gives. */
int mpi_reduce_binomial(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                        int root, MPI_Comm c, int tag)
{
    int p = c->size, vr = (c->rank - root + p) % p, rc = MPI_SUCCESS;
    uint32_t bytes = (uint32_t)count * (uint32_t)mpi_type_size(t);
    uint8_t *acc = malloc(bytes ? bytes : 1u), *tmp = malloc(bytes ? bytes : 1u);
    if (!acc || !tmp) {
        free(acc);
        free(tmp);
        return MPI_ERR_NO_MEM;
    }
    mp_copy(acc, sbuf, bytes);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (vr & mask) {
            rc = FIRST(rc, xfer(acc, bytes, (vr - mask + root) % p, NULL, 0, -1, tag, c));
            break;
        }
        if ((vr | mask) < p) {
            int w = xfer(NULL, 0, -1, tmp, bytes, ((vr | mask) + root) % p, tag, c);
            rc = FIRST(rc, w);
            if (w == MPI_SUCCESS)
                mpi_op_apply(op, t, tmp, acc, count);
        }
    }
    if (c->rank == root)
        mp_copy(rbuf, acc, bytes);
    free(acc);
    free(tmp);
    return rc;
}

/* Recursive doubling (power-of-two sizes): log2 p exchanges with partner rank ^ mask; every rank
 * combines the same pairs, so all get bit-identical results. */
int mpi_allreduce_recdoubling(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                              MPI_Comm c)
{
    int rc = MPI_SUCCESS;
    uint32_t bytes = (uint32_t)count * (uint32_t)mpi_type_size(t);
    uint8_t *tmp = malloc(bytes ? bytes : 1u);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    mp_copy(rbuf, sbuf, bytes);
    for (int mask = 1; mask < c->size; mask <<= 1) {
        int partner = c->rank ^ mask;
        int w = xfer(rbuf, bytes, partner, tmp, bytes, partner, MPI_TAG_ALLREDUCE, c);
        rc = FIRST(rc, w);
        if (w == MPI_SUCCESS) {
            /* the lower rank's data first, so both partners compute the same expression */
            if (partner < c->rank) {
                mpi_op_apply(op, t, rbuf, tmp, count);
                mp_copy(rbuf, tmp, bytes);
            } else {
                mpi_op_apply(op, t, tmp, rbuf, count);
            }
        }
    }
    free(tmp);
    return rc;
}
