/* Protection switching in software (thesis 3.6.3, Table 3.3, Fig. 3.36a; K_MIGRATE_SOFTWARE):
 * the migration of a platform whose adapters have no NAMP-PS, where, as in the thesis' own
 * implementation, "the software handles all operations related to the communication":
 *
 *   phase I   the source's forwarder (a kernel thread) copies every element that arrives in an
 *             incoming channel's buffer to the destination's buffer, at the same index, word by
 *             word through the RMA window (the original tile's core moves every packet); the task
 *             still runs at the source and takes its elements there;
 *   phase II  once the task stopped the buffers are synchronised (what it still holds from before
 *             the forwarding is copied, what it took since is cleared there); the receivers of its
 *             outgoing channels get their credit paths rewritten by their kernels; the task starts
 *             at the destination, and the forwarder keeps forwarding (and freeing at the source)
 *             what the senders still send to the old location, moving the destination's write
 *             index along;
 *   phase III each sender's kernel switches its sender: takes the handle's credits, waits until
 *             its transfers are done, rewrites tile, endpoint and data address; the source forwards
 *             up to the stream's end at the old location and sets the destination's write index
 *             there; then the sender's kernel gives the credits back.
 *
 * What the hardware methods do with RELOC, MIGRATE and NAK_RELOC is here kernel messages, polling
 * and copies by the cores. Connection-less endpoints are not supported (the kernel cannot tell
 * their unknown senders; K_ENOTSUP). docs/kernel.md "Task migration". */
#include "kmig_swps.h"

#include <stddef.h>

#include "kernel/kmp.h"
#include "kinternal.h"
#include "mcapi.h"
#include "mcapix_ps.h"
#include "mp/cbuffer.h"
#include "mp/task.h"
#include "na/na.h"
#include "namp/namp.h"
#include "namp/namp_regs.h"
#include "namp_structs.h"
#include "tile_memory_map.h"

#define KSWPS_ENTRIES 8u
#define KSWPS_TICKS   200u /* a stream's last FINALs, a sender's transfers */

enum { F_FREE, F_RUNNING, F_STOPPED, F_LIVE };

static struct fwd {
    volatile uint32_t state;
    uint32_t rx, tile, dst_rx;
    uint32_t from;   /* the first index forwarded */
    uint32_t next;   /* the first index not forwarded yet */
    uint32_t dst_wr; /* the destination's write index as last set */
} fwd[KSWPS_ENTRIES];
static k_mutex_t fwd_lock;
static k_sem_t fwd_wake;      /* given when an entry starts: the forwarder polls while any is */
static k_thread_t *forwarder; /* created with the first entry: no cost without software PS */
static uint32_t fwd_prio, fwd_ready;
static volatile uint32_t fwd_stop; /* the migration service stops: the forwarder ends when idle */

/* ---- the copies: word by word through the RMA window ---- */

#define N          MP_TASK_RX_N
#define MASK       ((1u << N) - 1u)
/* Every index, size word and read index of the task's page is the task's to write
 * (docs/security.md "Migration"): each loop over them runs at most a buffer's worth of elements,
 * a size word larger than an element copies one element, addresses are masked into the page. */
#define RING       (1u << N)
#define ELEM_BYTES (1u << MP_TASK_RX_M)
static volatile uint32_t *sizes_of(uint32_t rx)
{
    return (volatile uint32_t *)(uintptr_t)(rx + MP_CB_HEADER_SIZE);
}
static uint32_t size_at(uint32_t rx, uint32_t i)
{
    return rx + MP_CB_HEADER_SIZE + 4u * (i & MASK);
}
static uint32_t data_at(uint32_t rx, uint32_t i)
{
    return rx + MP_CB_HEADER_SIZE + (4u << N) + ((i & MASK) << MP_TASK_RX_M);
}

static void rma_store(uint32_t tile, uint32_t addr, uint32_t v)
{
    *(volatile uint32_t *)(uintptr_t)RMA_ADDRESS(tile, addr - TILE_SRAM_BASE) = v;
}
/* every store acknowledged: what was stored before is there */
static int rma_drain(void)
{
    if (na_rma_drain() == 0)
        return K_OK;
    na_rma_errors_clear();
    k_printf("kmig: a forwarded store was refused\n");
    return K_EINVAL;
}
/* element i of the source's buffer (data, then its size word) into the destination's */
static void copy_element(const struct fwd *f, uint32_t i, uint32_t sw)
{
    if ((sw & MP_CB_COMMITTED) && !(sw & MP_CB_VOID)) {
        const uint32_t bytes = sw & MP_CB_SIZE_MASK;
        const uint32_t words = ((bytes < ELEM_BYTES ? bytes : ELEM_BYTES) + 3u) / 4u;
        const volatile uint32_t *src = (const volatile uint32_t *)(uintptr_t)data_at(f->rx, i);
        for (uint32_t k = 0; k < words; ++k)
            rma_store(f->tile, data_at(f->dst_rx, i) + 4u * k, src[k]);
    }
    (void)rma_drain(); /* the data before its size word */
    rma_store(f->tile, size_at(f->dst_rx, i), sw);
}

/* Forwards what is committed now; with the entry stopped, frees it at the source too. */
static void forward_some(struct fwd *f)
{
    const mp_cbuffer_t *b = (const mp_cbuffer_t *)(uintptr_t)f->rx;
    volatile uint32_t *sizes = sizes_of(f->rx);
    const uint32_t wr = ((const volatile mp_cbuffer_t *)b)->wr_idx;
    for (uint32_t k = 0; k < RING && f->next != wr; ++k) {
        const uint32_t i = f->next, sw = sizes[i & MASK];
        if (sw & MP_CB_COMMITTED) {
            copy_element(f, i, sw);
            if (f->state != F_RUNNING)
                sizes[i & MASK] = 0; /* the task does not run here any more */
        } else if ((int32_t)(b->rd_idx - i) <= 0) {
            break; /* its FINAL is still on the way */
        }          /* else: the task took it here already */
        f->next = i + 1u;
    }
    if (f->state == F_LIVE && f->dst_wr != f->next) {
        (void)rma_drain(); /* the elements before the index that shows them */
        rma_store(f->tile, f->dst_rx + MP_CB_OFF_WR_IDX, f->next);
        f->dst_wr = f->next;
    }
    (void)rma_drain();
}

static void forwarder_main(void *arg)
{
    (void)arg;
    for (;;) {
        int any = 0;
        k_mutex_lock(&fwd_lock);
        for (uint32_t e = 0; e < KSWPS_ENTRIES; ++e)
            if (fwd[e].state != F_FREE) {
                forward_some(&fwd[e]);
                any = 1;
            }
        k_mutex_unlock(&fwd_lock);
        if (any)
            k_sleep(1); /* a kernel tick: the task runs in between */
        else if (fwd_stop)
            break;
        else
            k_sem_take(&fwd_wake, K_FOREVER);
    }
    forwarder = NULL;
}

void kswps_stop(void)
{
    fwd_stop = 1;
    if (fwd_ready)
        k_sem_give(&fwd_wake);
}

int kswps_start(uint32_t prio)
{
    if (!fwd_ready) {
        k_mutex_init(&fwd_lock);
        k_sem_init(&fwd_wake, 0);
        fwd_ready = 1;
    }
    fwd_prio = prio;
    fwd_stop = 0;
    return K_OK;
}

int kswps_forward(uint32_t rx, uint32_t from, uint32_t tile, uint32_t dst_rx)
{
    if (!fwd_ready)
        return -1;
    if (!forwarder && !(forwarder = k_thread_create("kmig_fwd", forwarder_main, NULL, fwd_prio, 0)))
        return -1;
    k_mutex_lock(&fwd_lock);
    int h = -1;
    for (uint32_t e = 0; e < KSWPS_ENTRIES && h < 0; ++e)
        if (fwd[e].state == F_FREE) {
            fwd[e] = (struct fwd){F_RUNNING, rx, tile, dst_rx, from, from, 0};
            h = (int)e;
        }
    k_mutex_unlock(&fwd_lock);
    k_sem_give(&fwd_wake); /* after the entry: a forwarder that found none waits for this */
    return h;
}

uint32_t kswps_sync(int h)
{
    struct fwd *f = &fwd[h];
    k_mutex_lock(&fwd_lock);
    f->state = F_STOPPED;
    const mp_cbuffer_t *b = (const mp_cbuffer_t *)(uintptr_t)f->rx;
    volatile uint32_t *sizes = sizes_of(f->rx);
    /* what the task took before it stopped; what it still holds of that (received, not released:
     * its pointer names the slot) stays committed below its read index */
    const uint32_t rd = b->rd_idx, wr = b->wr_idx;
    uint32_t held = rd;
    while (wr - (held - 1u) <= (1u << N) && (sizes[(held - 1u) & MASK] & MP_CB_COMMITTED))
        --held;
    /* held or unread from before the forwarding: copied now */
    for (uint32_t i = held, k = 0; (int32_t)(f->from - i) > 0 && k < RING; ++i, ++k)
        copy_element(f, i, sizes[i & MASK]);
    /* forwarded and taken by the task since: not at the destination any more */
    for (uint32_t i = f->from, k = 0; (int32_t)(rd - i) > 0 && i != f->next && k < RING; ++i, ++k)
        if (!(sizes[i & MASK] & MP_CB_COMMITTED))
            rma_store(f->tile, size_at(f->dst_rx, i), 0);
    forward_some(f);
    /* what was forwarded and not taken: the destination has it, the source lets it go */
    for (uint32_t i = rd, k = 0; i != f->next && k < RING; ++i, ++k)
        sizes[i & MASK] = 0;
    f->dst_wr = f->next;
    const uint32_t w = f->next;
    k_mutex_unlock(&fwd_lock);
    return w;
}

void kswps_live(int h)
{
    k_mutex_lock(&fwd_lock);
    fwd[h].state = F_LIVE;
    forward_some(&fwd[h]);
    k_mutex_unlock(&fwd_lock);
}

int kswps_finish(int h, uint32_t end)
{
    struct fwd *f = &fwd[h];
    int r = K_ETIMEDOUT;
    for (struct kwait w = kwait_for(KSWPS_TICKS);;) {
        k_mutex_lock(&fwd_lock);
        forward_some(f);
        const int done = (int32_t)(f->next - end) >= 0;
        if (done)
            f->state = F_FREE;
        k_mutex_unlock(&fwd_lock);
        if (done) {
            r = K_OK;
            break;
        }
        if (!kwait_more(&w)) { /* the task's own size words keep it from its end: its loss */
            kswps_cancel(h);
            break;
        }
    }
    return r;
}

void kswps_cancel(int h)
{
    if (h < 0)
        return;
    k_mutex_lock(&fwd_lock);
    fwd[h].state = F_FREE;
    k_mutex_unlock(&fwd_lock);
}

/* ---- the services at the other tiles ---- */

int kswps_redirect(const uint32_t *w, uint32_t *end, uint32_t *taken)
{
    const uint32_t handle = w[0], tile = w[1], endpoint = w[2], rdata = w[3], id = w[4],
                   new_id = w[5];
    const int r = kmig_suspend_sender(handle, id, end, taken);
    if (r != K_OK)
        return r;
    /* no transfer of the handle runs and none can start without a credit: a slot waiting for one
     * reads these words again when the credits come back */
    volatile namp_handle_t *hd = (volatile namp_handle_t *)(uintptr_t)handle;
    hd->tile = tile;
    hd->endpoint = endpoint;
    hd->rdata = rdata;
    hd->id = new_id; /* the new endpoint's identity (namp.identity: the target checks it) */
    return K_OK;
}

/* Phase II at the destination: the moved task returns credits (through its vif, on the credit
 * path of its adopted endpoint) before its sender's handle names this tile, and under
 * namp.identity the sender's adapter refuses a CREDIT from a tile its handle does not name. So
 * until the sender is switched the path names a sink here: a connected handle of this tile and
 * the endpoint's identity, which the adapter's target credits like any channel handle. Once the
 * sender is switched the path names it again and the sink's credits go there with those the
 * switch took. An entry whose endpoint is gone or no longer points at it (a migration that did not
 * happen) is taken again by the next. */
struct sink {
    namp_handle_t h __attribute__((aligned(64))); /* what the path names meanwhile */
    uint32_t ep, node, handle;                    /* the endpoint; its sender's tile and handle */
};
static struct sink sinks[KSWPS_ENTRIES];

static int sink_live(const struct sink *s)
{
    mcapix_endpoint_info_t info;
    mcapi_endpoint_t e = s->ep ? mcapix_endpoint_by_addr(s->ep) : NULL;
    return e && mcapix_endpoint_inspect(e, &info) == 0 && info.peer_node == tile_id() &&
           info.peer_handle == (uint32_t)(uintptr_t)&s->h;
}

int kswps_sink(mcapi_endpoint_t e)
{
    mcapix_endpoint_info_t info;
    kmp_lock();
    int r = K_ENOMEM;
    if (mcapix_endpoint_inspect(e, &info) != 0 || !info.channel_recv) {
        r = K_EINVAL;
    } else {
        for (unsigned k = 0; k < KSWPS_ENTRIES; ++k) {
            struct sink *s = &sinks[k];
            if (sink_live(s))
                continue;
            s->ep = info.endpoint;
            s->node = info.peer_node;
            s->handle = info.peer_handle;
            s->h = (namp_handle_t){0};
            s->h.tile = tile_id();
            s->h.id = info.id; /* the path carries its endpoint's identity */
            s->h.flags = NAMP_H_F_CONNECTED;
            /* nothing sent on the new path yet: both words, then the library's view of them */
            volatile namp_handle_t *p = (volatile namp_handle_t *)(uintptr_t)info.credit_path;
            p->tile = tile_id();
            p->endpoint = (uint32_t)(uintptr_t)&s->h;
            (void)mcapix_chan_credit_path_moved(e, tile_id(), (uint32_t)(uintptr_t)&s->h);
            r = K_OK;
            break;
        }
    }
    kmp_unlock();
    return r;
}

/* no credit slot of this tile on the path (the task's vif slot included) */
static int path_quiet(uint32_t path) { return !namp_reg_slot_using(path); }

int kswps_give_credits(const uint32_t *w)
{
    const uint32_t ep_addr = w[0], id = w[1], taken = w[2];
    mcapix_endpoint_info_t info;
    struct sink *s = NULL;
    kmp_lock();
    mcapi_endpoint_t e = mcapix_endpoint_by_addr(ep_addr);
    if (e && mcapix_endpoint_inspect(e, &info) == 0 && info.channel_recv && info.id == id)
        for (unsigned k = 0; k < KSWPS_ENTRIES && !s; ++k)
            if (sinks[k].ep == ep_addr && sink_live(&sinks[k]))
                s = &sinks[k];
    kmp_unlock();
    if (!s)
        return K_EINVAL;
    /* the path back to the sender once no credit slot runs on it; a CREDIT still on its way to
     * the sink (this tile to itself) lands within the tick waited after */
    for (struct kwait wt = kwait_for(KSWPS_TICKS);;) {
        if (path_quiet(info.credit_path))
            break;
        if (!kwait_more(&wt))
            return K_ETIMEDOUT;
    }
    const uint32_t saved = irq_global_disable();
    volatile namp_handle_t *p = (volatile namp_handle_t *)(uintptr_t)info.credit_path;
    p->tile = s->node;
    p->endpoint = s->handle;
    irq_global_restore(saved);
    KMP((void)mcapix_chan_credit_path_moved(e, s->node, s->handle));
    k_sleep(1);
    const uint32_t n = taken + atomic_swap_u32(&s->h.credits, 0);
    s->ep = 0;
    if (n)
        kmig_give_credits(info.credit_path, n);
    return K_OK;
}

int kswps_move_credit_path(const uint32_t *w, uint32_t from)
{
    const uint32_t ep_addr = w[0], tile = w[1], handle = w[2], id = w[4], old_handle = w[5];
    mcapix_endpoint_info_t info;
    kmp_lock();
    mcapi_endpoint_t e = mcapix_endpoint_by_addr(ep_addr);
    /* only the endpoint of that identity whose channel's sender is the moving one */
    const int known = e && mcapix_endpoint_inspect(e, &info) == 0 && info.channel_recv &&
                      kmig_same_id(id, info.id) && info.peer_node == from &&
                      info.peer_handle == old_handle;
    kmp_unlock();
    if (!known)
        return K_EINVAL;
    /* no credit transfer of the path under way, then both words in one go (no device access in
     * between: the adapter reads the handle in one burst, before or after) */
    for (struct kwait wt = kwait_for(KSWPS_TICKS);;) {
        if (path_quiet(info.credit_path))
            break;
        if (!kwait_more(&wt))
            return K_ETIMEDOUT;
    }
    volatile namp_handle_t *p = (volatile namp_handle_t *)(uintptr_t)info.credit_path;
    const uint32_t saved = irq_global_disable();
    p->tile = tile;
    p->endpoint = handle;
    irq_global_restore(saved);
    KMP((void)mcapix_chan_credit_path_moved(e, tile, handle));
    return K_OK;
}
