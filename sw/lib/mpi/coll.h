/* Collectives: the API layer (coll_api.c) checks arguments, the dispatch point (coll_select.c)
 * chooses an algorithm and counts it in the statistics, the algorithms (coll_sw.c) run it.
 * Collective traffic uses the communicator's second context (ctx + 1) with one tag per
 * collective, so it never matches user messages. Sizes are in bytes. */
#ifndef MPI_COLL_H
#define MPI_COLL_H

#include "mpi_internal.h"

enum {
    MPI_TAG_BARRIER = 1,
    MPI_TAG_BCAST,
    MPI_TAG_SCATTER,
    MPI_TAG_GATHER,
    MPI_TAG_ALLGATHER,
    MPI_TAG_REDUCE,
    MPI_TAG_ALLREDUCE,
    MPI_TAG_ALLTOALL,
    MPI_TAG_ALLTOALLV,
    MPI_TAG_ALLGATHERV,
    MPI_TAG_GATHERV,
    MPI_TAG_SCATTERV,
    MPI_TAG_REDUCE_SCATTER,
    MPI_TAG_RMA
};
/* + k: the k-th non-blocking collective of a communicator (coll_nb.c) */
#define MPI_TAG_NBC 0x100000

/* Dispatch (coll_select.c): one function per collective. */
int mpi_coll_barrier(MPI_Comm c);
int mpi_coll_bcast(void *buf, uint32_t bytes, int root, MPI_Comm c);
int mpi_coll_scatter(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                     MPI_Comm c);
int mpi_coll_gather(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                    MPI_Comm c);
int mpi_coll_allgather(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, MPI_Comm c);
int mpi_coll_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                    MPI_Comm c);
int mpi_coll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                       MPI_Comm c);

/* Schedules (coll_nb.c): blocking when req is NULL, else *req completes them. Sizes are counts of
 * the datatypes; a uniform count other than MPI_COLL_VECTOR stands for counts all equal to it
 * (displacements i x count), MPI_COLL_VECTOR for the count and displacement arrays. */
#define MPI_COLL_VECTOR (-0x7FFFFFFF - 1)
int mpi_coll_gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                     const int *displs, MPI_Datatype rt, int root, MPI_Comm c, int tag,
                     MPI_Request *req, int uniform_count);
int mpi_coll_scatterv(const void *sbuf, const int *scounts, const int *displs, MPI_Datatype st,
                      void *rbuf, int rcount, MPI_Datatype rt, int root, MPI_Comm c, int tag,
                      MPI_Request *req, int uniform_count);
int mpi_coll_allgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                        const int *rcounts, const int *displs, MPI_Datatype rt, MPI_Comm c, int tag,
                        MPI_Request *req, int uniform_count);
int mpi_coll_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype st,
                       void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rt,
                       MPI_Comm c, int tag, MPI_Request *req, int scount, int rcount);
int mpi_coll_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                       const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                       const int *rdispls, const MPI_Datatype *rtypes, MPI_Comm c, int tag,
                       MPI_Request *req);

/* Software algorithms (coll_sw.c). */
int mpi_barrier_dissemination(MPI_Comm c);
int mpi_bcast_binomial(void *buf, uint32_t bytes, int root, MPI_Comm c);
int mpi_scatter_linear(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                       MPI_Comm c);
int mpi_gather_linear(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, int root,
                      MPI_Comm c);
int mpi_allgather_ring(const void *sbuf, uint32_t sbytes, void *rbuf, uint32_t rbytes, MPI_Comm c);
int mpi_reduce_binomial(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                        int root, MPI_Comm c, int tag);
int mpi_allreduce_recdoubling(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                              MPI_Comm c);

/* NAMP-CC (coll_cc.c). *_ok: whether the collective goes to the adapter (same answer on every
 * member). mpi_cc_reduce returns -1 when the root refused the setup (then: software). */
int mpi_cc_present(void); /* NA_FEATURE_NAMP_CC_* bits usable here, 0: none */
int mpi_cc_bcast_ok(uint32_t bytes, MPI_Comm c);
int mpi_cc_reduce_ok(int count, MPI_Datatype t, MPI_Op op, MPI_Comm c);
int mpi_cc_bcast(void *buf, uint32_t bytes, int root, MPI_Comm c);
int mpi_cc_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                  MPI_Comm c);

#endif
