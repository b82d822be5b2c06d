/* Internals of the MPI subset (sw/lib/mpi). Wire format, communicator, request and queue entries.
 *
 * Transport: two MCAPI connection-less endpoints per rank on its tile, port MPI_PORT (headers:
 * eager messages with their payload, rendezvous RTS and CTS) and MPI_PORT_RDV (rendezvous payload
 * only, no header). A receiver clears one rendezvous at a time (one CTS outstanding), so the
 * payload messages in MPI_PORT_RDV all belong to the active receive and are received straight into
 * its buffer. */
#ifndef MPI_INTERNAL_H
#define MPI_INTERNAL_H

#include <stdint.h>

#include "mcapi.h"
#include "mpi.h"
#include "mp/copy.h"

/* Ports of the rank on core c of its tile: MPI_PORT + 2c and MPI_PORT_RDV + 2c. */
#define MPI_PORT               0x4D50u
#define MPI_PORT_RDV           0x4D51u
#define MPI_MAX_RANKS_PER_TILE 8u /* two endpoints each, of the node's 16 */
#ifndef MPI_SLOT_LOG2
#define MPI_SLOT_LOG2 12u /* 4 KiB receive slots */
#endif
#ifndef MPI_CAP_LOG2
#define MPI_CAP_LOG2 3u /* 8 slots per endpoint */
#endif
#define MPI_SLOT_BYTES (1u << MPI_SLOT_LOG2)
#define MPI_HDR_BYTES  20u
#define MPIX_EAGER_MAX ((int)(MPI_SLOT_BYTES - MPI_HDR_BYTES))
#ifndef MPI_EAGER_DEFAULT
#define MPI_EAGER_DEFAULT 1024
#endif
#define MPI_MAX_RANKS  256
#define MPI_SEND_POOL  12  /* MCAPI sends in flight per rank (MCAPI allows 16 per node) */
#define MPI_NODE_SENDS 16u /* ... shared by the ranks of a tile */

/* Each core of a tile is a rank of its own: the library's state is thread-local, one copy per
 * core in its TLS block (sw/runtime/crt0.S); large buffers are allocated per rank by MPI_Init. */
#define MPI_RANK_LOCAL _Thread_local

/* RMA: mpi_win.c. RTS_DMA: a rendezvous whose sender can put the payload by RDMA; CTS_DMA: the
 * receiver's answer to it (bytes: the receive buffer's address, tag: how many bytes fit); DONE:
 * the payload is there (bytes: the message's size). */
enum {
    MPI_K_EAGER = 1,
    MPI_K_RTS = 2,
    MPI_K_CTS = 3,
    MPI_K_RMA = 4,
    MPI_K_RTS_DMA = 5,
    MPI_K_CTS_DMA = 6,
    MPI_K_DONE = 7
};

/* Header of a message on MPI_PORT (5 words). */
struct mpi_hdr {
    uint16_t kind, ctx;
    int32_t src; /* sender's rank in the communicator */
    int32_t tag;
    uint32_t bytes;  /* payload bytes of the whole message */
    uint32_t cookie; /* RTS: sender request id; CTS: the same id echoed */
};
_Static_assert(sizeof(struct mpi_hdr) == MPI_HDR_BYTES, "header size");

struct mpi_comm {
    uint32_t ctx; /* point-to-point context; ctx + 1: collectives */
    int size, rank;
    int errhandler;
    int *world; /* world rank of each rank (NULL for MPI_COMM_WORLD: identity) */
    int valid;
    struct mpi_cc_comm *cc; /* NAMP-CC state of this communicator (coll_cc.c), lazily */
    uint32_t nbc_seq;       /* non-blocking collectives started on it (their tags, coll_nb.c) */
};

enum { RQ_FREE = 0, RQ_ACTIVE, RQ_DONE };
enum { RK_SEND = 1, RK_RECV, RK_COLL }; /* RK_COLL: a non-blocking collective */

struct mpi_request {
    int state, kind;
    MPI_Comm comm;
    uint32_t ctx;
    int peer, tag; /* send: dest (comm rank); recv: source filter, tag filter */
    uint8_t *buf;
    uint32_t bytes;      /* send: message bytes; recv: capacity */
    uint32_t done_bytes; /* rendezvous progress */
    uint32_t inflight;   /* MCAPI sends of this request still under way */
    uint32_t cookie;
    int rdv_go; /* send: CTS arrived, payload may flow */
    int eager;  /* send: eager (done when its MCAPI send is) */
    /* rendezvous by RDMA: send: the receive buffer's address came (CTS_DMA),
     * recv: the sender offered it (RTS_DMA) */
    int dma;
    uint32_t dma_addr, dma_fit; /* send: where the payload goes and how much of it fits */
    uint32_t rdv_pieces;        /* recv: rendezvous payload messages still to come */
    int peer_world;             /* recv (rendezvous): world rank of the sender */
    MPI_Status st;
    struct mpi_request *next; /* posted queue / rendezvous queue / send list */
};

/* An arrival nobody had posted a receive for. */
struct mpi_unexp {
    struct mpi_hdr h;
    int src_world;
    uint8_t *data;                 /* eager: copy of the payload (NULL for RTS or 0 bytes) */
    struct mpi_request *self_send; /* self rendezvous: the pending send */
    struct mpi_unexp *next;
};

extern MPI_RANK_LOCAL mpix_stats_t mpi_stats;
extern MPI_RANK_LOCAL int mpi_initialized;
extern MPI_RANK_LOCAL int mpi_world_rank, mpi_world_size;

/* The tile's MCAPI node, shared by the ranks of its cores (mpi_node.c). Every MCAPI call of the
 * library runs between mpi_node_lock and mpi_node_unlock (nestable). */
extern int mpi_node_shared;         /* more than one rank on this tile */
extern uint32_t mpi_ranks_per_tile; /* = cores per tile (every tile has as many) */
void mpi_node_lock_slow(void);
void mpi_node_unlock_slow(void);
static inline void mpi_node_lock(void)
{
    if (mpi_node_shared)
        mpi_node_lock_slow();
}
static inline void mpi_node_unlock(void)
{
    if (mpi_node_shared)
        mpi_node_unlock_slow();
}
void mpi_node_touch(void); /* the holder put something where another core of the tile waits */
int mpi_node_start(void);  /* MPI_Init: MCAPI up (core 0) or waited for (other cores) */
/* World rank = tile * mpi_ranks_per_tile + core. */
static inline uint32_t mpi_tile_of(int world) { return (uint32_t)world / mpi_ranks_per_tile; }
static inline uint32_t mpi_core_of(int world) { return (uint32_t)world % mpi_ranks_per_tile; }
/* Port of world rank `world` for base MPI_PORT or MPI_PORT_RDV. */
static inline uint32_t mpi_rank_port(uint32_t base, int world)
{
    return base + 2u * mpi_core_of(world);
}

int mpi_err(MPI_Comm comm, int code, const char *where);
int mpi_comm_ok(MPI_Comm comm);
int mpi_type_size(MPI_Datatype t);
/* The argument checks every data-moving call makes, in MPI's order of error classes: the buffer
 * (count, type, buffer) alone, and with the communicator first. MPI_SUCCESS or the class. */
int mpi_buf_check(int count, MPI_Datatype t, const void *buf);
int mpi_arg_check(MPI_Comm c, int count, MPI_Datatype t, const void *buf);
static inline int mpi_world_of(MPI_Comm c, int r) { return c->world ? c->world[r] : r; }

/* Point-to-point on a context (collectives use comm->ctx + 1). 0 or an MPI error class. */
int mpi_isend_ctx(const void *buf, uint32_t bytes, int dest, int tag, MPI_Comm comm, uint32_t ctx,
                  struct mpi_request **out);
int mpi_irecv_ctx(void *buf, uint32_t bytes, int src, int tag, MPI_Comm comm, uint32_t ctx,
                  struct mpi_request **out);
int mpi_iprobe_ctx(int src, int tag, uint32_t ctx, int *flag, MPI_Status *st);
uint32_t mpi_posted_len(void);
int mpi_wait_req(struct mpi_request *r, MPI_Status *st); /* frees r */
struct mpi_request *mpi_req_alloc(void);                 /* zeroed; NULL without memory */
void mpi_req_free(struct mpi_request *r);
void mpi_progress(int block);
int mpi_nbc_progress(void); /* coll_nb.c: 1 if a schedule moved */
/* One-sided (mpi_win.c): an RMA message arrived; queued replies (1 if something moved). */
void mpi_rma_arrival(const struct mpi_hdr *h, const uint8_t *payload, uint32_t bytes);
int mpi_rma_progress(void);
/* RDMA puts (mpi_dma.c): the DMA slots MPI may use (0: none), a put with its completion callback
 * (run from the progress loop; MPI_ERR_OTHER without slots), the completions (1 if something
 * moved), and whether a transfer is queued or running (then the progress loop must not sleep for
 * good: completions come without an interrupt). */
int mpi_dma_slots(void);
int mpi_dma_put(const void *src, uint32_t tile, uint32_t dst, uint32_t bytes,
                void (*done)(void *ctx, int err), void *ctx);
int mpi_dma_progress(void);
int mpi_dma_busy(void);
int mpi_send_ctrl(int world, const struct mpi_hdr *h, const void *payload, uint32_t bytes);
int mpi_try_send_ctrl(int world, const struct mpi_hdr *h, const void *payload, uint32_t bytes);

/* Groups (mpi_group.c): ordered world ranks. */
struct mpi_group {
    int size;
    int *world;
    int is_static;
};
int mpi_group_rank_of(MPI_Group g, int world); /* MPI_UNDEFINED if not a member */
int mpi_p2p_init(void);
void mpi_p2p_finalize(void);
uint32_t mpi_new_ctx_hint(void);
mcapi_endpoint_t mpi_main_endpoint(void);
mcapi_endpoint_t mpi_peer_main(int world);
void *mpi_sends_drain(void);       /* returns a free send-pool slot (MPI_SLOT_BYTES) */
void mpi_cc_comm_free(MPI_Comm c); /* coll_cc.c */
void mpi_ctx_used(uint32_t ctx);

/* Reduction: inout[i] = inout[i] op in[i]. MPI_SUCCESS or MPI_ERR_OP / MPI_ERR_TYPE. */
int mpi_op_apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count);
int mpi_op_check(MPI_Op op, MPI_Datatype t);

#endif
