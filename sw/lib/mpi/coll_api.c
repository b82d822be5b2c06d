/* Collective API calls: argument checks (error class per MPI-3), MPI_IN_PLACE, then the dispatch
 * point. */
#include <stdlib.h>

#include "coll.h"

static int check(MPI_Comm c, int count, MPI_Datatype t, const void *buf, int root)
{
    const int rc = mpi_arg_check(c, count, t, buf);
    if (rc)
        return rc;
    if (root != MPI_PROC_NULL && (root < 0 || root >= c->size))
        return MPI_ERR_ROOT;
    return MPI_SUCCESS;
}
static inline uint32_t nbytes(int count, MPI_Datatype t)
{
    return (uint32_t)count * (uint32_t)mpi_type_size(t);
}

int MPI_Barrier(MPI_Comm c)
{
    if (!mpi_initialized || !mpi_comm_ok(c))
        return mpi_err(c, MPI_ERR_COMM, "MPI_Barrier");
    return mpi_err(c, mpi_coll_barrier(c), "MPI_Barrier");
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
    int rc = check(c, count, t, buf, root);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_bcast(buf, nbytes(count, t), root, c);
    return mpi_err(c, rc, "MPI_Bcast");
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                MPI_Datatype rt, int root, MPI_Comm c)
{
    if (rbuf == MPI_IN_PLACE) { /* the root keeps its block where it is */
        int rc = check(c, scount, st, sbuf, root);
        if (rc == MPI_SUCCESS && c->rank != root)
            rc = MPI_ERR_BUFFER;
        if (rc != MPI_SUCCESS)
            return mpi_err(c, rc, "MPI_Scatter");
        rbuf = (uint8_t *)sbuf + (size_t)root * nbytes(scount, st);
        rcount = scount;
        rt = st;
    }
    int rc = check(c, rcount, rt, rbuf, root);
    if (rc == MPI_SUCCESS && c->rank == root)
        rc = check(c, scount, st, sbuf, root);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_scatter(sbuf, c->rank == root ? nbytes(scount, st) : 0, rbuf,
                              nbytes(rcount, rt), root, c);
    return mpi_err(c, rc, "MPI_Scatter");
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
               MPI_Datatype rt, int root, MPI_Comm c)
{
    if (sbuf == MPI_IN_PLACE) { /* the root's block is already in place */
        int rc = check(c, rcount, rt, rbuf, root);
        if (rc == MPI_SUCCESS && c->rank != root)
            rc = MPI_ERR_BUFFER;
        if (rc != MPI_SUCCESS)
            return mpi_err(c, rc, "MPI_Gather");
        sbuf = (uint8_t *)rbuf + (size_t)root * nbytes(rcount, rt);
        scount = rcount;
        st = rt;
    }
    int rc = check(c, scount, st, sbuf, root);
    if (rc == MPI_SUCCESS && c->rank == root)
        rc = check(c, rcount, rt, rbuf, root);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_gather(sbuf, nbytes(scount, st), rbuf,
                             c->rank == root ? nbytes(rcount, rt) : 0, root, c);
    return mpi_err(c, rc, "MPI_Gather");
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                  MPI_Datatype rt, MPI_Comm c)
{
    if (sbuf == MPI_IN_PLACE) { /* this rank's block is already in place */
        if (!mpi_initialized || !mpi_comm_ok(c))
            return mpi_err(c, MPI_ERR_COMM, "MPI_Allgather");
        sbuf = rbuf ? (uint8_t *)rbuf + (size_t)c->rank * nbytes(rcount, rt) : NULL;
        scount = rcount;
        st = rt;
    }
    int rc = check(c, scount, st, sbuf, 0);
    if (rc == MPI_SUCCESS)
        rc = check(c, rcount, rt, rbuf, 0);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_allgather(sbuf, nbytes(scount, st), rbuf, nbytes(rcount, rt), c);
    return mpi_err(c, rc, "MPI_Allgather");
}

/* MPI_IN_PLACE as a reduction's send buffer: the input is the receive buffer. It is copied, so
 * that no algorithm (the CC root receives the adapter's result into rbuf, then adds its own
 * vector) reads input it has already overwritten. NULL when out of memory (*tmp then 0). */
static const void *in_place_input(const void *sbuf, void *rbuf, int count, MPI_Datatype t,
                                  void **tmp)
{
    *tmp = NULL;
    if (sbuf != MPI_IN_PLACE)
        return sbuf;
    uint32_t b = nbytes(count, t);
    *tmp = malloc(b ? b : 1u);
    if (*tmp && rbuf)
        mp_copy(*tmp, rbuf, b);
    return *tmp;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
               MPI_Comm c)
{
    void *tmp = NULL;
    int rc = MPI_SUCCESS;
    if (sbuf == MPI_IN_PLACE) { /* the root's: its input is its receive buffer */
        if (!mpi_initialized || !mpi_comm_ok(c))
            return mpi_err(c, MPI_ERR_COMM, "MPI_Reduce");
        if (c->rank != root || (!rbuf && count > 0))
            rc = MPI_ERR_BUFFER;
        else if (!(sbuf = in_place_input(sbuf, rbuf, count, t, &tmp)))
            rc = MPI_ERR_NO_MEM;
    }
    if (rc == MPI_SUCCESS)
        rc = check(c, count, t, sbuf, root);
    if (rc == MPI_SUCCESS && c->rank == root && !rbuf && count > 0)
        rc = MPI_ERR_BUFFER;
    if (rc == MPI_SUCCESS)
        rc = mpi_op_check(op, t);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_reduce(sbuf, rbuf, count, t, op, root, c);
    free(tmp);
    return mpi_err(c, rc, "MPI_Reduce");
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    void *tmp = NULL;
    int rc = MPI_SUCCESS;
    if (sbuf == MPI_IN_PLACE) {
        if (!rbuf && count > 0)
            rc = MPI_ERR_BUFFER;
        else if (!(sbuf = in_place_input(sbuf, rbuf, count, t, &tmp)))
            rc = MPI_ERR_NO_MEM;
    }
    if (rc == MPI_SUCCESS)
        rc = check(c, count, t, sbuf, 0);
    if (rc == MPI_SUCCESS && !rbuf && count > 0)
        rc = MPI_ERR_BUFFER;
    if (rc == MPI_SUCCESS)
        rc = mpi_op_check(op, t);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_allreduce(sbuf, rbuf, count, t, op, c);
    free(tmp);
    return mpi_err(c, rc, "MPI_Allreduce");
}

/* A reduction of the whole vector to rank 0, then its blocks scattered (MPI-3 5.10). */
static int reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts, int block,
                          MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    if (!mpi_initialized || !mpi_comm_ok(c))
        return MPI_ERR_COMM;
    if (!rcounts && block < 0)
        return MPI_ERR_ARG;
    int total = 0, rc = MPI_SUCCESS;
    int *counts = malloc((size_t)c->size * sizeof *counts),
        *displs = malloc((size_t)c->size * sizeof *displs);
    if (!counts || !displs)
        rc = MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < c->size; ++i) {
        counts[i] = block >= 0 ? block : rcounts[i];
        if (counts[i] < 0)
            rc = MPI_ERR_COUNT;
        displs[i] = total;
        total += counts[i];
    }
    void *tmp = NULL, *full = NULL;
    if (rc == MPI_SUCCESS && sbuf == MPI_IN_PLACE &&
        !(sbuf = in_place_input(sbuf, rbuf, total, t, &tmp)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = check(c, total, t, sbuf, 0);
    if (rc == MPI_SUCCESS && !rbuf && counts[c->rank] > 0)
        rc = MPI_ERR_BUFFER;
    if (rc == MPI_SUCCESS)
        rc = mpi_op_check(op, t);
    if (rc == MPI_SUCCESS && c->rank == 0 &&
        !(full = malloc(nbytes(total, t) ? nbytes(total, t) : 1u)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        ++mpi_stats.coll[MPIX_C_REDUCE_SCATTER][MPIX_A_REDUCE_BCAST];
        rc = mpi_coll_reduce(sbuf, full, total, t, op, 0, c);
        int rs = mpi_coll_scatterv(full, counts, displs, t, rbuf, counts[c->rank], t, 0, c,
                                   MPI_TAG_REDUCE_SCATTER, NULL, MPI_COLL_VECTOR);
        rc = rc != MPI_SUCCESS ? rc : rs;
    }
    free(full);
    free(tmp);
    free(counts);
    free(displs);
    return rc;
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts, MPI_Datatype t, MPI_Op op,
                       MPI_Comm c)
{
    return mpi_err(c, reduce_scatter(sbuf, rbuf, rcounts, -1, t, op, c), "MPI_Reduce_scatter");
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype t, MPI_Op op,
                             MPI_Comm c)
{
    int rc = rcount < 0 ? MPI_ERR_COUNT : reduce_scatter(sbuf, rbuf, NULL, rcount, t, op, c);
    return mpi_err(c, rc, "MPI_Reduce_scatter_block");
}
