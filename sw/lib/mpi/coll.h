/* Collectives: the API layer (coll_api.c) checks arguments, the dispatch point (coll_select.c)
 * chooses an algorithm and counts it in the statistics, the algorithms (coll_sw.c) run it.
 * Collective traffic uses the communicator's second context (ctx + 1) with one tag per
 * collective, so it never matches user messages. Sizes are in bytes. */
#ifndef MPI_COLL_H
#define MPI_COLL_H

#include "mpi_internal.h"

enum { MPI_TAG_BARRIER = 1, MPI_TAG_BCAST, MPI_TAG_SCATTER, MPI_TAG_GATHER, MPI_TAG_ALLGATHER,
       MPI_TAG_REDUCE, MPI_TAG_ALLREDUCE };

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
int mpi_cc_present(void);   /* NA_FEATURE_NAMP_CC_* bits usable here, 0: none */
int mpi_cc_bcast_ok(uint32_t bytes, MPI_Comm c);
int mpi_cc_reduce_ok(int count, MPI_Datatype t, MPI_Op op, MPI_Comm c);
int mpi_cc_bcast(void *buf, uint32_t bytes, int root, MPI_Comm c);
int mpi_cc_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                  MPI_Comm c);

#endif
