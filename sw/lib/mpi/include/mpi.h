/* MPI subset on namp-vp (MPI-3 names and semantics for what it offers), over the MCAPI-style
 * library sw/lib/mp (baseline adapter or NAMP transport, chosen at link time: mpi / mpi_namp).
 * One rank per core: MPI_COMM_WORLD rank = tile id x cores per tile + core, size = tiles x cores
 * (one rank per tile on single-core tiles). Every core calls MPI_Init. See docs/mpi.md. */
#ifndef NAMP_MPI_H
#define NAMP_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 0

/* Error classes (MPI-3 3.7.5 / 8.4). */
enum {
    MPI_SUCCESS = 0,
    MPI_ERR_BUFFER,
    MPI_ERR_COUNT,
    MPI_ERR_TYPE,
    MPI_ERR_TAG,
    MPI_ERR_COMM,
    MPI_ERR_RANK,
    MPI_ERR_REQUEST,
    MPI_ERR_ROOT,
    MPI_ERR_GROUP,
    MPI_ERR_OP,
    MPI_ERR_TOPOLOGY,
    MPI_ERR_DIMS,
    MPI_ERR_ARG,
    MPI_ERR_UNKNOWN,
    MPI_ERR_TRUNCATE,
    MPI_ERR_OTHER,
    MPI_ERR_INTERN,
    MPI_ERR_IN_STATUS,
    MPI_ERR_PENDING,
    MPI_ERR_NO_MEM,
    MPI_ERR_LASTCODE
};
#define MPI_MAX_ERROR_STRING 64

typedef int MPI_Datatype;
enum {
    MPI_DATATYPE_NULL = 0,
    MPI_CHAR,
    MPI_SHORT,
    MPI_INT,
    MPI_UNSIGNED,
    MPI_LONG_LONG,
    MPI_FLOAT,
    MPI_DOUBLE,
    MPI_BYTE,
    MPIX_NUM_TYPES
};
#define MPI_LONG_LONG_INT MPI_LONG_LONG

typedef int MPI_Op;
enum {
    MPI_OP_NULL = 0,
    MPI_SUM,
    MPI_PROD,
    MPI_MIN,
    MPI_MAX,
    MPI_BAND,
    MPI_BOR,
    MPI_BXOR,
    MPI_LAND,
    MPI_LOR,
    MPIX_NUM_OPS
};

typedef int MPI_Errhandler;
#define MPI_ERRORS_ARE_FATAL 1
#define MPI_ERRORS_RETURN 2

struct mpi_comm;
typedef struct mpi_comm *MPI_Comm;
/* one per rank: each core of a tile is a rank (thread-local) */
#ifdef __cplusplus
extern thread_local struct mpi_comm mpi_comm_world_obj;
#else
extern _Thread_local struct mpi_comm mpi_comm_world_obj;
#endif
#define MPI_COMM_WORLD (&mpi_comm_world_obj)
#define MPI_COMM_NULL ((MPI_Comm)0)

struct mpi_request;
typedef struct mpi_request *MPI_Request;
#define MPI_REQUEST_NULL ((MPI_Request)0)

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int count_bytes;   /* internal: received bytes (MPI_Get_count) */
} MPI_Status;
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

#define MPI_ANY_SOURCE (-1)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-2)
#define MPI_UNDEFINED (-32766)
#define MPI_TAG_UB_VALUE 0x3FFFFFFF   /* largest user tag */

int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Initialized(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Type_size(MPI_Datatype datatype, int *size);
double MPI_Wtime(void);
double MPI_Wtick(void);

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);

int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm);

/* Extensions. Eager/rendezvous threshold in bytes (messages of more bytes go rendezvous); at most
 * MPIX_EAGER_MAX; returns the previous value. */
int MPIX_Set_eager_threshold(int bytes);
int MPIX_Get_eager_threshold(void);

/* Statistics of this rank (read by benchmarks and tests, printed by MPIX_Print_stats). */
enum mpix_coll { MPIX_C_BARRIER, MPIX_C_BCAST, MPIX_C_SCATTER, MPIX_C_GATHER, MPIX_C_ALLGATHER,
                 MPIX_C_REDUCE, MPIX_C_ALLREDUCE, MPIX_C_NUM };
/* Algorithms a collective can run (coll_select.c decides). CC = the NAMP's collective unit. */
enum mpix_alg { MPIX_A_LINEAR, MPIX_A_BINOMIAL, MPIX_A_DISSEMINATION, MPIX_A_RING,
                MPIX_A_RECDOUBLING, MPIX_A_REDUCE_BCAST, MPIX_A_CC, MPIX_A_NUM };
typedef struct mpix_stats {
    uint32_t eager_sends, rdv_sends, self_sends;
    uint32_t unexpected, matched_posted;        /* arrivals: queued unexpected / matched a post */
    uint32_t posted_max, unexpected_max;        /* longest queues seen */
    uint32_t match_steps;                       /* queue entries compared */
    uint32_t coll[MPIX_C_NUM][MPIX_A_NUM];      /* calls per collective and algorithm */
    uint32_t node_wakeups;                      /* ranks per core: sleeping cores woken */
    uint32_t node_contended;                    /* ranks per core: node lock found taken */
} mpix_stats_t;
const mpix_stats_t *MPIX_Stats(void);
/* The NAMP-CC features (NA_FEATURE_NAMP_CC_* bits) the collectives use: the adapter's, or 0 with
 * more than one rank per tile (the collectives then run in software; docs/mpi.md). */
unsigned MPIX_Cc_features(void);
void MPIX_Print_stats(void);
const char *MPIX_Coll_name(int coll);
const char *MPIX_Alg_name(int alg);

#ifdef __cplusplus
}
#endif
#endif
