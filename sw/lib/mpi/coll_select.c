/* The dispatch point of the collectives: one function per collective chooses the algorithm,
 * counts the choice in mpi_stats.coll[collective][algorithm] (MPIX_Print_stats prints it) and runs
 * it. Where the adapter has NAMP-CC (coll_cc.c, docs/mpi.md "Collectives on NAMP-CC"): MPI_Bcast
 * by multicast, MPI_Reduce/MPI_Allreduce by the adapter's reduction for the integer ops and types
 * it has (MPIX_A_CC); everything else, and every collective elsewhere, in software. The choice
 * depends only on arguments every member passes alike (sizes, type, op, communicator) and on the
 * platform, so all members choose the same algorithm. */
#include "coll.h"

static inline int chosen(int coll, int alg)
{
    ++mpi_stats.coll[coll][alg];
    return alg;
}

static int pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

int mpi_coll_barrier(MPI_Comm c)
{
    chosen(MPIX_C_BARRIER, MPIX_A_DISSEMINATION);
    return mpi_barrier_dissemination(c);
}

int mpi_coll_bcast(void *buf, uint32_t bytes, int root, MPI_Comm c)
{
    if (mpi_cc_bcast_ok(bytes, c)) {
        chosen(MPIX_C_BCAST, MPIX_A_CC);
        return mpi_cc_bcast(buf, bytes, root, c);
    }
    chosen(MPIX_C_BCAST, MPIX_A_BINOMIAL);
    return mpi_bcast_binomial(buf, bytes, root, c);
}

int mpi_coll_scatter(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                     MPI_Comm c)
{
    /* NAMP-CC scatter does not fit MPI_Scatter (docs/mpi.md): software */
    chosen(MPIX_C_SCATTER, MPIX_A_LINEAR);
    return mpi_scatter_linear(sbuf, sbytes, rbuf, rbytes, root, c);
}

int mpi_coll_gather(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                    MPI_Comm c)
{
    /* NAMP-CC gather does not fit MPI_Gather (docs/mpi.md): software */
    chosen(MPIX_C_GATHER, MPIX_A_LINEAR);
    return mpi_gather_linear(sbuf, sbytes, rbuf, rbytes, root, c);
}

int mpi_coll_allgather(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, MPI_Comm c)
{
    chosen(MPIX_C_ALLGATHER, MPIX_A_RING);
    return mpi_allgather_ring(sbuf, sbytes, rbuf, rbytes, c);
}

int mpi_coll_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                    MPI_Comm c)
{
    if (mpi_cc_reduce_ok(count, t, op, c)) {
        int rc = mpi_cc_reduce(sbuf, rbuf, count, t, op, root, c);
        if (rc >= 0) {
            chosen(MPIX_C_REDUCE, MPIX_A_CC);
            return rc;
        } /* refused when it was set up: software */
    }
    chosen(MPIX_C_REDUCE, MPIX_A_BINOMIAL);
    return mpi_reduce_binomial(sbuf, rbuf, count, t, op, root, c, MPI_TAG_REDUCE);
}

int mpi_coll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                       MPI_Comm c)
{
    if (mpi_cc_reduce_ok(count, t, op, c)) { /* CC reduction to rank 0, then broadcast */
        uint32_t bytes = (uint32_t)count * (uint32_t)mpi_type_size(t);
        int rc = mpi_cc_reduce(sbuf, rbuf, count, t, op, 0, c);
        if (rc >= 0) {
            chosen(MPIX_C_ALLREDUCE, MPIX_A_CC);
            int rb = mpi_cc_bcast_ok(bytes, c) ? mpi_cc_bcast(rbuf, bytes, 0, c)
                                               : mpi_bcast_binomial(rbuf, bytes, 0, c);
            return rc != MPI_SUCCESS ? rc : rb;
        }
    }
    if (pow2(c->size)) {
        chosen(MPIX_C_ALLREDUCE, MPIX_A_RECDOUBLING);
        return mpi_allreduce_recdoubling(sbuf, rbuf, count, t, op, c);
    }
    chosen(MPIX_C_ALLREDUCE, MPIX_A_REDUCE_BCAST);
    int rc = mpi_reduce_binomial(sbuf, rbuf, count, t, op, 0, c, MPI_TAG_ALLREDUCE);
    int rb = mpi_bcast_binomial(rbuf, (uint32_t)count * (uint32_t)mpi_type_size(t), 0, c);
    return rc != MPI_SUCCESS ? rc : rb;
}
