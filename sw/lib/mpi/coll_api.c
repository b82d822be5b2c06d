/* Collective API calls: argument checks (error class per MPI-3), then the dispatch point. */
#include "coll.h"

static int check(MPI_Comm c, int count, MPI_Datatype t, const void *buf, int root)
{
    if (!mpi_initialized || !mpi_comm_ok(c))
        return MPI_ERR_COMM;
    if (count < 0)
        return MPI_ERR_COUNT;
    if (!mpi_type_size(t))
        return MPI_ERR_TYPE;
    if (!buf && count > 0)
        return MPI_ERR_BUFFER;
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
    int rc = check(c, scount, st, sbuf, 0);
    if (rc == MPI_SUCCESS)
        rc = check(c, rcount, rt, rbuf, 0);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_allgather(sbuf, nbytes(scount, st), rbuf, nbytes(rcount, rt), c);
    return mpi_err(c, rc, "MPI_Allgather");
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
               MPI_Comm c)
{
    int rc = check(c, count, t, sbuf, root);
    if (rc == MPI_SUCCESS && c->rank == root && !rbuf && count > 0)
        rc = MPI_ERR_BUFFER;
    if (rc == MPI_SUCCESS)
        rc = mpi_op_check(op, t);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_reduce(sbuf, rbuf, count, t, op, root, c);
    return mpi_err(c, rc, "MPI_Reduce");
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    int rc = check(c, count, t, sbuf, 0);
    if (rc == MPI_SUCCESS && !rbuf && count > 0)
        rc = MPI_ERR_BUFFER;
    if (rc == MPI_SUCCESS)
        rc = mpi_op_check(op, t);
    if (rc == MPI_SUCCESS)
        rc = mpi_coll_allreduce(sbuf, rbuf, count, t, op, c);
    return mpi_err(c, rc, "MPI_Allreduce");
}
