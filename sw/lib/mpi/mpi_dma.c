/* The adapter's RDMA engine for MPI (docs/mpi.md "Large messages", "One-sided"): a queue of puts
 * (local buffer -> remote tile's memory) over the user DMA slots MPI may use, each with a
 * completion callback run from the progress loop. A large put is cut into one piece per slot, so
 * that several transfers of one message are in flight at once (the data engine interleaves them
 * packet by packet in its contexts).
 *
 * Which slots: with one rank per tile (the cores of a tile would share the slots). Over the NAMP
 * transport MCAPI moves its data with NAMP slots and never touches the user DMA slots: MPI takes
 * all of them. Over the baseline transport MCAPI allocates every slot when its data path is RDMA
 * (MP_PATH_RDMA): then MPI uses none; otherwise it takes the last one only (MCAPI could be switched
 * to RDMA later). No IEN: the adapter's DMA interrupt belongs to MCAPI's handler, which would not
 * clear a slot it does not own; completions are polled. */
#include <stdlib.h>

#include "hal/hal.h"
#include "mpi_internal.h"
#include "na/na.h"

#define MPI_DMA_MAX_SLOTS 8u
#define MPI_DMA_SPLIT_MIN (64u * 1024u) /* smaller puts: one slot (the setup is not worth it) */

struct xfer {
    const uint8_t *src;
    uint32_t tile, dst, bytes;
    struct parent *parent;
    struct xfer *next;
};

struct parent { /* a put cut into pieces: its callback runs when the last piece is done */
    uint32_t left;
    int err;
    void (*done)(void *ctx, int err);
    void *ctx;
};

static MPI_RANK_LOCAL int state = -1; /* -1 not looked at, else the usable slots */
static MPI_RANK_LOCAL uint32_t first_slot;
static MPI_RANK_LOCAL struct xfer *running[MPI_DMA_MAX_SLOTS];
static MPI_RANK_LOCAL struct xfer *q_head, *q_tail;
static MPI_RANK_LOCAL uint32_t split_slots = MPI_DMA_MAX_SLOTS;

int mpi_dma_slots(void)
{
    if (state < 0) {
        uint32_t n = (na_features() & NA_FEATURE_DMA) ? na_dma_slots() : 0u;
        if (mpi_ranks_per_tile != 1)
            n = 0;
#ifndef MP_TRANSPORT_NAMP
        if (n > 1)
            n = 1; /* the last one: MCAPI allocates from the first on */
#endif
        if (n > MPI_DMA_MAX_SLOTS)
            n = MPI_DMA_MAX_SLOTS;
        first_slot = n ? na_dma_slots() - n : 0u;
        state = (int)n;
    }
#ifndef MP_TRANSPORT_NAMP
    if (mcapix_get_data_path() == MP_PATH_RDMA)
        return 0;
#endif
    return state;
}

int MPIX_Set_dma_split(int slots)
{
    int old = (int)split_slots;
    split_slots = slots < 1 ? 1u : (uint32_t)slots;
    return old;
}

int mpi_dma_busy(void)
{
    if (q_head)
        return 1;
    for (uint32_t i = 0; i < MPI_DMA_MAX_SLOTS; ++i)
        if (running[i])
            return 1;
    return 0;
}

static void finish(struct xfer *x, int err)
{
    struct parent *p = x->parent;
    free(x);
    if (err && !p->err)
        p->err = err;
    if (--p->left == 0) {
        p->done(p->ctx, p->err);
        free(p);
    }
}

/* Completed slots run their callbacks; queued pieces go to free slots. 1 if something moved. */
int mpi_dma_progress(void)
{
    int did = 0, n = mpi_dma_slots();
    for (int i = 0; i < n; ++i) {
        struct xfer *x = running[i];
        if (!x)
            continue;
        uint32_t slot = first_slot + (uint32_t)i;
        uint32_t st = na_dma_take(slot);
        if (!st)
            continue;
        running[i] = NULL;
        finish(x, (st & DMA_STAT_ERROR) ? MPI_ERR_OTHER : MPI_SUCCESS);
        did = 1;
    }
    for (int i = 0; i < n && q_head; ++i) {
        if (running[i])
            continue;
        struct xfer *x = q_head;
        q_head = x->next;
        if (!q_head)
            q_tail = NULL;
        uint32_t slot = first_slot + (uint32_t)i;
        running[i] = x;
        na_dma_start(slot, x->src, x->tile, x->dst, x->bytes, 0);
        did = 1;
    }
    return did;
}

int mpi_dma_put(const void *src, uint32_t tile, uint32_t dst, uint32_t bytes,
                void (*done)(void *ctx, int err), void *ctx)
{
    int n = mpi_dma_slots();
    if (!n)
        return MPI_ERR_OTHER;
    uint32_t pieces = bytes >= MPI_DMA_SPLIT_MIN ? (uint32_t)n : 1u;
    if (pieces > split_slots)
        pieces = split_slots;
    struct parent *p = malloc(sizeof *p);
    if (!p)
        return MPI_ERR_NO_MEM;
    *p = (struct parent){pieces, MPI_SUCCESS, done, ctx};
    uint32_t per = (bytes / pieces + 3u) & ~3u, off = 0;
    for (uint32_t k = 0; k < pieces; ++k) {
        struct xfer *x = malloc(sizeof *x);
        if (!x) { /* the pieces already queued still complete the parent */
            p->err = MPI_ERR_NO_MEM;
            p->left -= pieces - k;
            if (p->left == 0) {
                done(ctx, p->err);
                free(p);
            }
            break;
        }
        uint32_t len = k + 1u == pieces ? bytes - off : per;
        *x = (struct xfer){(const uint8_t *)src + off, tile, dst + off, len, p, NULL};
        off += len;
        if (q_tail)
            q_tail->next = x;
        else
            q_head = x;
        q_tail = x;
    }
    mpi_dma_progress();
    return MPI_SUCCESS;
}
