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

#define MPI_VERSION    3
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
    MPI_ERR_WIN,
    MPI_ERR_DISP,
    MPI_ERR_RMA_SYNC,
    MPI_ERR_RMA_RANGE,
    MPI_ERR_LOCKTYPE,
    MPI_ERR_SIZE,
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
    MPI_LONG, /* 32 bits (ilp32) */
    MPI_UNSIGNED_LONG,
    MPI_AINT, /* MPI_Aint: an address */
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
    MPIX_NUM_OPS,
    MPI_REPLACE, /* one-sided accumulates only (MPI-3 11.3.4) */
    MPI_NO_OP
};

typedef int MPI_Errhandler;
#define MPI_ERRORS_ARE_FATAL 1
#define MPI_ERRORS_RETURN    2

struct mpi_comm;
typedef struct mpi_comm *MPI_Comm;
/* one per rank: each core of a tile is a rank (thread-local) */
#ifdef __cplusplus
extern thread_local struct mpi_comm mpi_comm_world_obj;
#else
extern _Thread_local struct mpi_comm mpi_comm_world_obj;
#endif
#define MPI_COMM_WORLD (&mpi_comm_world_obj)
#define MPI_COMM_NULL  ((MPI_Comm)0)

struct mpi_request;
typedef struct mpi_request *MPI_Request;
#define MPI_REQUEST_NULL ((MPI_Request)0)

typedef intptr_t MPI_Aint;
typedef int MPI_Info;
#define MPI_INFO_NULL 0
/* "the receive buffer is also the send buffer" (MPI-3 5.2.1) */
#define MPI_IN_PLACE  ((void *)1)

struct mpi_group;
typedef struct mpi_group *MPI_Group;
#define MPI_GROUP_NULL ((MPI_Group)0)
extern struct mpi_group mpi_group_empty_obj;
#define MPI_GROUP_EMPTY (&mpi_group_empty_obj)
#define MPI_IDENT       0
#define MPI_SIMILAR     2
#define MPI_UNEQUAL     3

struct mpi_win;
typedef struct mpi_win *MPI_Win;
#define MPI_WIN_NULL       ((MPI_Win)0)
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED    235
/* assertions of the synchronization calls: accepted, nothing is skipped for them */
#define MPI_MODE_NOCHECK   1024
#define MPI_MODE_NOSTORE   2048
#define MPI_MODE_NOPUT     4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

enum { MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE };

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int count_bytes; /* internal: received bytes (MPI_Get_count) */
} MPI_Status;
#define MPI_STATUS_IGNORE   ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

#define MPI_ANY_SOURCE   (-1)
#define MPI_ANY_TAG      (-1)
#define MPI_PROC_NULL    (-2)
#define MPI_UNDEFINED    (-32766)
#define MPI_TAG_UB_VALUE 0x3FFFFFFF /* largest user tag */

int MPI_Init(int *argc, char ***argv);
/* Every level is provided: threads (<pthread.h>) are cooperative threads of the rank's core. */
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Query_thread(int *provided);
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
int MPI_Get_address(const void *location, MPI_Aint *address);

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
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm);
int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* Non-blocking collectives: progress happens in every MPI call (there is no asynchronous
 * progress); MPI_Test / MPI_Wait / MPI_Waitall complete them. */
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request);
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request *request);
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request);
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request);
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request);
int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
/* displacements in bytes, a datatype per peer (MPI-3 5.8) */
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request);

/* Groups (MPI-3 6.3): what one-sided PSCW synchronization needs. */
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                              int ranks2[]);
int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
int MPI_Group_free(MPI_Group *group);

/* One-sided communication (MPI-3 chapter 11), docs/mpi.md "One-sided". */
int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                     MPI_Win *win);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_free(MPI_Win *win);
int MPI_Win_fence(int assert_, MPI_Win win);
int MPI_Win_lock(int lock_type, int rank, int assert_, MPI_Win win);
int MPI_Win_unlock(int rank, MPI_Win win);
int MPI_Win_lock_all(int assert_, MPI_Win win);
int MPI_Win_unlock_all(MPI_Win win);
int MPI_Win_flush(int rank, MPI_Win win);
int MPI_Win_flush_all(MPI_Win win);
int MPI_Win_flush_local(int rank, MPI_Win win);
int MPI_Win_flush_local_all(MPI_Win win);
int MPI_Win_post(MPI_Group group, int assert_, MPI_Win win);
int MPI_Win_start(MPI_Group group, int assert_, MPI_Win win);
int MPI_Win_complete(MPI_Win win);
int MPI_Win_wait(MPI_Win win);
int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
            MPI_Win win);
int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       void *result_addr, int result_count, MPI_Datatype result_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win);
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win);

/* Extensions. Eager/rendezvous threshold in bytes (messages of more bytes go rendezvous); at most
 * MPIX_EAGER_MAX; returns the previous value. */
int MPIX_Set_eager_threshold(int bytes);
int MPIX_Get_eager_threshold(void);
/* Rendezvous payload by the adapter's RDMA engine, straight into the receive buffer (1, the
 * default where MPI has DMA slots), or in slot-sized MCAPI messages (0); returns the previous
 * setting. Both sides of a transfer must agree (set it on every rank). MPIX_Set_dma_split: at most
 * that many DMA slots for the pieces of one large put (default: all MPI has). For measurements. */
int MPIX_Set_rdma_rendezvous(int on);
int MPIX_Set_dma_split(int slots);

/* Statistics of this rank (read by benchmarks and tests, printed by MPIX_Print_stats). */
enum mpix_coll {
    MPIX_C_BARRIER,
    MPIX_C_BCAST,
    MPIX_C_SCATTER,
    MPIX_C_GATHER,
    MPIX_C_ALLGATHER,
    MPIX_C_REDUCE,
    MPIX_C_ALLREDUCE,
    MPIX_C_ALLTOALL,
    MPIX_C_REDUCE_SCATTER,
    MPIX_C_NBC,
    MPIX_C_NUM
};
/* Algorithms a collective can run (coll_select.c decides). CC = the NAMP's collective unit. */
enum mpix_alg {
    MPIX_A_LINEAR,
    MPIX_A_BINOMIAL,
    MPIX_A_DISSEMINATION,
    MPIX_A_RING,
    MPIX_A_RECDOUBLING,
    MPIX_A_REDUCE_BCAST,
    MPIX_A_CC,
    MPIX_A_NUM
};
typedef struct mpix_stats {
    uint32_t eager_sends, rdv_sends, self_sends;
    uint32_t unexpected, matched_posted;        /* arrivals: queued unexpected / matched a post */
    uint32_t posted_max, unexpected_max;        /* longest queues seen */
    uint32_t match_steps;                       /* queue entries compared */
    uint32_t coll[MPIX_C_NUM][MPIX_A_NUM];      /* calls per collective and algorithm */
    uint32_t node_wakeups;                      /* ranks per core: sleeping cores woken */
    uint32_t node_contended;                    /* ranks per core: node lock found taken */
    uint32_t rma_dma_puts, rma_local, rma_msgs; /* one-sided: by RDMA, on the tile, by message */
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
