/* The dispatch point of the collectives: one function per collective chooses the algorithm,
 * counts the choice in mpi_stats.coll[collective][algorithm] (MPIX_Print_stats prints it) and runs
 * it. This is where the NAMP's collective unit (NAMP-CC: multicast, scatter, gather, reduction;
 * issue "NAMP-CC") is to be routed in: when mpi_cc_present() holds and the unit supports the
 * operation and type, call the mcapix_ collective and count MPIX_A_CC. Until that unit exists,
 * every collective runs in software. */
#include "coll.h"

/* Whether the platform's adapter has NAMP-CC. Weak, so that the CC layer can replace it. */
__attribute__((weak)) int mpi_cc_present(void) { return 0; }

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
    /* CC: multicast from the root (mcapix_ multicast) */
    chosen(MPIX_C_BCAST, MPIX_A_BINOMIAL);
    return mpi_bcast_binomial(buf, bytes, root, c);
}

int mpi_coll_scatter(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                     MPI_Comm c)
{
    /* CC: hardware scatter */
    chosen(MPIX_C_SCATTER, MPIX_A_LINEAR);
    return mpi_scatter_linear(sbuf, sbytes, rbuf, rbytes, root, c);
}

int mpi_coll_gather(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                    MPI_Comm c)
{
    /* CC: hardware gather */
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
    /* CC: hardware reduction for the integer ops/types it supports */
    chosen(MPIX_C_REDUCE, MPIX_A_BINOMIAL);
    return mpi_reduce_binomial(sbuf, rbuf, count, t, op, root, c, MPI_TAG_REDUCE);
}

int mpi_coll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                       MPI_Comm c)
{
    /* CC: hardware reduction + multicast for the integer ops/types it supports */
    if (pow2(c->size)) {
        chosen(MPIX_C_ALLREDUCE, MPIX_A_RECDOUBLING);
        return mpi_allreduce_recdoubling(sbuf, rbuf, count, t, op, c);
    }
    chosen(MPIX_C_ALLREDUCE, MPIX_A_REDUCE_BCAST);
    int rc = mpi_reduce_binomial(sbuf, rbuf, count, t, op, 0, c, MPI_TAG_ALLREDUCE);
    int rb = mpi_bcast_binomial(rbuf, (uint32_t)count * (uint32_t)mpi_type_size(t), 0, c);
    return rc != MPI_SUCCESS ? rc : rb;
}
