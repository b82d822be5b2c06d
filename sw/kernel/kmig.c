/* Task migration with NAMP-PS (thesis 3.6, Table 3.3; docs/kernel.md "Task migration",
 * docs/security.md "Migration").
 *
 * The source's kernel thread that calls k_task_migrate runs the three phases; the destination's
 * migration service builds and starts the task there; the services of the channel peers' tiles
 * suspend a sender (pausing) or move a receiver's credit path, and those of collective roots take
 * the task's new member key. The kernels talk with MCAPI messages (port KMIG_PORT, a kernel port no
 * task can create or look up), the adapters with the NAMP-PS messages (RELOC, MIGRATE, NAK_RELOC),
 * the task's pages and buffer elements go by RDMA.
 *
 * k_task_migrate is one function per phase over a context (struct mig); what differs between the
 * methods (pause, relocate, dualcast with NAMP-PS; software PS without it, kmig_swps.c) is a row of
 * the method table (struct mig_method), so that a method is one more row.
 *
 *   describe: every kernel object the task holds, from the kernel's records (its endpoints, the
 *     records of its endpoint table); none may be half made (a request under way) or half gone
 *     (an endpoint deleted and not reaped): then the migration is refused (K_EBUSY).
 *   phase I (pre-migration): the destination builds the task (suspended): pages, endpoints on the
 *     same receive pages (a connection-less one held "full"), the endpoint table in the same order
 *     (so every vID stays) with the same kinds of records, its vif; then the method's phase I.
 *   phase II (switch-over): the task stops; its vif settles (a persistent wait is aborted and is
 *     started again at the destination); every outgoing channel's receiver moves its credit path
 *     to the destination's handle; every collective root that lists the task as a member takes its
 *     new key; every incoming channel's sender is switched (method), the elements the destination
 *     lacks are copied by the geometry the kernel created the buffer with; every connection-less
 *     endpoint becomes a tombstone (NAK_RELOC for late senders) once nothing is in flight; the
 *     pages are copied; the destination takes the registers and starts the task.
 *   phase III (post-migration): the task's copy at the source ends (K_MIGRATED), its pages go back
 *     to the pool, its channel endpoints' entries at once, its tombstones after K_TOMBSTONE_TICKS.
 *
 * What the task can write (its buffers' headers and size words, its pages) is read here only
 * through bounds the kernel recorded: a poisoned header is the task's own data loss (its elements
 * may be lost), never a copy outside its pages or a loop longer than its buffer. */
#include <stddef.h>
#include <string.h>

#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "kinternal.h"
#include "kmig_swps.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "mcapix_ps.h"
#include "mp/cbuffer.h"
#include "mp/task.h"
#include "mp/kernel.h" /* struct mp_ephandle: the kernel's handles of tasks */
#include "na_registers.h"
#include "namp/namp.h"
#include "namp/namp_regs.h"
#include "namp_ps.h"
#include "namp_structs.h"
#include "tile_memory_map.h"

#define KMIG_PORT         0x4B4Du /* each tile's service (K_PORT_KERNEL_FIRST..LAST) */
#define KMIG_REPLY_PORT   0x4B4Eu /* answers to this tile's migrations */
#define KMIG_MAX_PAGES    16u     /* data pages of a task */
#define KMIG_MAX_STACK    4u
#define KMIG_PENDING      4u /* tasks being built here */
#define KMIG_ARRIVALS     8u
#define KMIG_WAIT_US      20000u /* a service's answer */
#define KMIG_PS_TICKS     200u   /* a RELOC / MIGRATE report, a sender's settling */
#define KMIG_SPIN         2048u  /* looks before a wait sleeps a tick per look */
#define KMIG_STOP_TRIES   200u   /* ticks to catch the task outside a kernel wait */
#define KMIG_SETTLE_TICKS 200u   /* ticks for a request under way or a deleted endpoint to settle */
/* ticks for the FINALs of a stream's taken elements (microseconds
 * when the task leaves its size words alone) */
#define KMIG_COMMIT_TICKS 20u

enum km_type {
    KM_PREPARE = 1,
    KM_PREPARED,
    KM_SWITCH,
    KM_SWITCHED,
    KM_CANCEL,
    KM_CANCELLED,
    KM_SUSPEND,
    KM_SUSPENDED,
    KM_CREDIT_MOVE,
    KM_CREDIT_MOVED,
    KM_REKEY,
    KM_REKEYED,
    /* software PS (kmig_swps.c) */
    KM_SW_REDIRECT,
    KM_SW_REDIRECTED,
    KM_SW_CREDITS,
    KM_SW_CREDITS_GIVEN,
    KM_SW_CREDIT_PATH,
    KM_SW_CREDIT_PATH_MOVED,
};

struct km_et {    /* one entry of the task's endpoint table, by the kernel's record */
    uint32_t obj; /* K_ETO_* */
    uint32_t ep;  /* CHAN, CREDIT, MEMBER: the index (in km_prepare.ep) of its endpoint */
    union {
        /* CCAREA: the task's collective area (its pages
         * move with it) */
        struct {
            uint32_t va, bytes;
        };
        /* a handle's words up to its key (LOOKUP, CHAN,
         * MEMBER): where it sends, its identity, flags */
        uint32_t h[NAMP_H_KEY_ID / 4 + 1];
    };
    uint32_t node, port, geometry; /* LOOKUP, MEMBER: the library's view of the handle */
};
struct km_ep {
    uint32_t idx, port, channel_recv, peer_node, peer_handle;
};
struct km_prepare {
    uint32_t data_size, stack_pages, prio, slot, method, n_et, n_ep;
    kmp_task_quota_t quota;
    struct km_et et[K_VIF_ET_MAX];
    struct km_ep ep[MP_TASK_EPS];
};
struct km_prepared {
    uint32_t tid, n_data, n_stack;
    uint32_t data_pa[KMIG_MAX_PAGES], stack_pa[KMIG_MAX_STACK];
    uint32_t ep_hw[MP_TASK_EPS], ep_rx[MP_TASK_EPS], ep_id[MP_TASK_EPS];
    uint32_t et_handle[K_VIF_ET_MAX];
    uint32_t reply; /* the destination's PS reply block (dualcast's switch report) */
};
struct km_in {                      /* an incoming channel at the switch */
    uint32_t rd, w, voids, credits; /* w: first element the destination receives directly */
};
struct km_out { /* an outgoing channel's handle words */
    uint32_t tile, endpoint, credits, flags, sent, rdata, wr_idx;
};
struct km_switch {
    trap_frame_t frame;
    uint64_t wake_at;
    struct k_vif_view vif;
    struct km_in in[MP_TASK_EPS];
    struct km_out out[K_VIF_ET_MAX];
};
struct km_msg {
    uint32_t type, seq, from;
    int32_t result;
    union {
        struct km_prepare p;
        struct km_prepared pd;
        struct km_switch sw;
        uint32_t w[8];
    } u;
};

/* ---- state ---- */

static mcapi_endpoint_t svc_ep, reply_ep;
static volatile uint32_t svc_stop;
static k_thread_t *svc;
static k_mutex_t mig_lock; /* one migration from this tile at a time */
static uint32_t seq_next = 1;
static struct km_msg out_msg, in_msg, svc_msg, svc_out; /* kernel memory (not stacks) */

/* a task being built here: until its switch, and what it needs */
static struct {
    k_thread_t *t;
    uint32_t from, seq, method;
    struct km_prepare p;
    mcapi_endpoint_t ep_h[MP_TASK_EPS];
    int32_t kid[MP_TASK_EPS];
    uint32_t reply[NAMP_PS_A_SIZE / 4] __attribute__((aligned(8)));
} pending[KMIG_PENDING];
static k_thread_t *arrivals[KMIG_ARRIVALS];

/* ---- helpers ---- */

static uint32_t me(void) { return tile_id(); }
static int k_ps_wait(volatile uint32_t *reply);

/* The migration's waits (a report, a FINAL, a sender's transfers): a short spin first (they take
 * microseconds), then a tick of sleep per look, so that a slow peer or a task that keeps its own
 * stream from settling never holds threads of lower priority off the core; over after `ticks`. */
struct kwait kwait_for(uint32_t ticks)
{
    return (struct kwait){timer_now() + (uint64_t)ticks * k_cfg.tick_ticks, 0};
}
int kwait_more(struct kwait *w)
{
    if (timer_now() >= w->until)
        return 0;
    if (++w->looks < KMIG_SPIN) {
        if ((w->looks & 63u) == 63u)
            k_sleep(0);
    } else {
        k_sleep(1);
    }
    return 1;
}

/* the library's calls, under its lock */
static int inspect(mcapi_endpoint_t h, mcapix_endpoint_info_t *info)
{
    kmp_lock();
    int r = mcapix_endpoint_inspect(h, info);
    kmp_unlock();
    return r;
}
static void hold(mcapi_endpoint_t h, int held) { KMP((void)mcapix_endpoint_hold(h, held)); }
static uint32_t inflight(mcapi_endpoint_t h)
{
    kmp_lock();
    uint32_t n = mcapix_endpoint_inflight(h);
    kmp_unlock();
    return n;
}
static int redirect(mcapi_endpoint_t h, uint32_t tile, uint32_t addr, uint32_t id)
{
    kmp_lock();
    mcapi_status_t st = mcapix_endpoint_redirect(h, tile, addr, id);
    kmp_unlock();
    return st == MCAPI_SUCCESS ? K_OK : st == MCAPI_TIMEOUT ? K_ETIMEDOUT : K_EINVAL;
}
/* One transfer of a slot of the kernel's, run to its end under kmp_lock: the library's own
 * blocking transfers hold the lock too, so a slot frees up from its implicit (buffered) sends.
 * Returns the error code (0: done). */
static uint32_t run_slot(uint32_t flags, uint32_t p1, uint32_t p2)
{
    int s;
    while ((s = namp_slot_alloc()) < 0)
        ;
    namp_slot_start((unsigned)s, flags, p1, p2, 0);
    while (!namp_slot_done((unsigned)s))
        ;
    const uint32_t e = namp_slot_finish((unsigned)s);
    namp_slot_free((unsigned)s);
    return e;
}

/* Without namp.identity the adapters' PS (RELOC, MIGRATE, NAK_RELOC) rewrite a handle's tile and
 * endpoint but not its ID word, which then still names the endpoint it was connected to first:
 * only the adapter that keeps it makes it a check (the peer's tile and handle still are one). */
int kmig_same_id(uint32_t handle_id, uint32_t ep_id)
{
    return handle_id == ep_id || !(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_ID);
}

/* a credit slot on a credit path (a paused channel's credits given back) */
void kmig_give_credits(uint32_t credit_path, uint32_t n)
{
    kmp_lock();
    (void)run_slot(NAMP_FLAG_COM, credit_path, n);
    kmp_unlock();
}
/* the first element of a receive buffer of geometry (n, .) */
static uint32_t data0(uint32_t rx, uint32_t n) { return rx + MP_CB_HEADER_SIZE + (4u << n); }

/* A message to a tile's service (or a reply endpoint) and its answer. */
static int send_msg(mcapi_endpoint_t from, uint32_t tile, uint32_t port, struct km_msg *m,
                    uint32_t bytes)
{
    mcapi_status_t st;
    mcapi_endpoint_t to;
    KMP(to = mcapi_endpoint_get(MCAPI_DOMAIN, tile, port, KMIG_WAIT_US, &st));
    if (st != MCAPI_SUCCESS)
        return K_ETIMEDOUT;
    KMP(mcapi_msg_send(from, to, m, bytes, 0, &st));
    return st == MCAPI_SUCCESS ? K_OK : K_ETIMEDOUT;
}

static int recv_msg(mcapi_endpoint_t on, struct km_msg *m, uint32_t timeout_us)
{
    mcapi_status_t st;
    mcapi_request_t r;
    size_t got = 0;
    KMP(mcapi_msg_recv_i(on, m, sizeof *m, &r, &st));
    if (st != MCAPI_SUCCESS && st != MCAPI_PENDING)
        return K_EINVAL;
    KMP(mcapi_wait(&r, &got, timeout_us, &st));
    if (st == MCAPI_TIMEOUT) {
        KMP(mcapi_cancel(&r, &st));
        return K_ETIMEDOUT;
    }
    return st == MCAPI_SUCCESS || st == MCAPI_ERR_MSG_TRUNCATED ? K_OK : K_EINVAL;
}

/* Request and answer, matched by sequence number (late answers of earlier requests dropped). */
static int call(uint32_t tile, struct km_msg *req, uint32_t bytes, struct km_msg *ans)
{
    req->seq = seq_next++;
    req->from = me();
    int r = send_msg(reply_ep, tile, KMIG_PORT, req, bytes);
    for (int tries = 0; r == K_OK && tries < 8; ++tries) {
        r = recv_msg(reply_ep, ans, KMIG_WAIT_US * 10u);
        if (r == K_OK && ans->seq == req->seq)
            return ans->result;
    }
    return r == K_OK ? K_ETIMEDOUT : r;
}

static int call_words(uint32_t tile, uint32_t type, const uint32_t *w, unsigned n)
{
    out_msg.type = type;
    memset(out_msg.u.w, 0, sizeof out_msg.u.w);
    memcpy(out_msg.u.w, w, 4u * n);
    return call(tile, &out_msg, offsetof(struct km_msg, u) + sizeof out_msg.u.w, &in_msg);
}

static void answer(uint32_t tile, struct km_msg *m, uint32_t bytes)
{
    (void)send_msg(svc_ep, tile, KMIG_REPLY_PORT, m, bytes);
}

/* A NAMP-PS control message through a slot of the kernel's library; the report lands in `reply`
 * on reply_tile (a local block is then waited for). new_id: the new location's endpoint identity
 * (namp.identity). */
static int ps_request(uint32_t op, uint32_t tile, uint32_t handle, uint32_t new_tile,
                      uint32_t new_ep, uint32_t new_rdata, uint32_t new_id, uint32_t reply_tile,
                      volatile uint32_t *reply)
{
    static uint32_t q[NAMP_PS_Q_SIZE / 4] __attribute__((aligned(8)));
    if (reply_tile == me())
        reply[NAMP_PS_A_STATE / 4] = 0;
    kmp_lock();
    q[NAMP_PS_Q_OP / 4] = op;
    q[NAMP_PS_Q_TILE / 4] = tile;
    q[NAMP_PS_Q_HANDLE / 4] = handle;
    q[NAMP_PS_Q_NEW_TILE / 4] = new_tile;
    q[NAMP_PS_Q_NEW_EP / 4] = new_ep;
    q[NAMP_PS_Q_NEW_RDATA / 4] = new_rdata;
    q[NAMP_PS_Q_REPLY_TILE / 4] = reply_tile;
    q[NAMP_PS_Q_REPLY / 4] = (uint32_t)(uintptr_t)reply;
    q[NAMP_PS_Q_NEW_ID / 4] = new_id;
    const uint32_t e = run_slot(NAMP_FLAG_PS, (uint32_t)(uintptr_t)q, 0);
    kmp_unlock();
    if (e)
        return K_EINVAL;
    if (reply_tile != me())
        return K_OK;
    return k_ps_wait(reply);
}

static int k_ps_wait(volatile uint32_t *reply)
{
    for (struct kwait w = kwait_for(KMIG_PS_TICKS);;) {
        const uint32_t st = reply[NAMP_PS_A_STATE / 4];
        if (st & NAMP_PS_DONE)
            return NAMP_STATUS_CODE(st) ? K_EINVAL : K_OK;
        if (!kwait_more(&w)) /* the report arrives through this tile's adapter */
            return K_ETIMEDOUT;
    }
}

static uint32_t copy_to(uint32_t tile, uint32_t dst, const void *src, uint32_t bytes)
{
    return src && mp_rdma_put(tile, dst, src, bytes) == 0 ? bytes : 0u;
}

/* ---- a receive buffer in the task's page, read by the geometry the kernel made it with ----
 * (n, m) come from the library's record of the endpoint (mcapix_endpoint_inspect), never from the
 * header the task can write; every index is bounded by the capacity, every size by 2^m. */

struct rxbuf {
    const uint8_t *base; /* the buffer (the task's page, physical) */
    uint32_t n, m;       /* the geometry the kernel created it with */
};
static const volatile uint32_t *rx_sizes(const struct rxbuf *b)
{
    return (const volatile uint32_t *)(b->base + MP_CB_HEADER_SIZE);
}
static uint32_t rx_rd(const struct rxbuf *b)
{
    return ((const volatile mp_cbuffer_t *)b->base)->rd_idx;
}

/* The task's read index as far as the kernel trusts it: at most a buffer's worth below `to` and
 * not beyond it; else (a poisoned header) `to`: the task's unread elements are its own loss. */
static uint32_t bounded_rd(const struct rxbuf *b, uint32_t to)
{
    const uint32_t rd = rx_rd(b);
    return (uint32_t)(to - rd) <= (1u << b->n) ? rd : to;
}

/* Every element below `to` committed: the sender's handle says `to`, but a FINAL may still be on
 * its way (its slot is done once FINAL is sent; the suspend answer takes another channel and may
 * overtake it). At most a buffer's worth of elements per look, for KMIG_COMMIT_TICKS at most:
 * only a task that wrote its own size words keeps an element from looking committed, and what it
 * then loses is its own (the copy takes the elements as they are). */
static void wait_committed(const struct rxbuf *b, uint32_t to)
{
    const uint32_t mask = (1u << b->n) - 1u;
    for (struct kwait w = kwait_for(KMIG_COMMIT_TICKS);;) {
        /* the task may have read past `to` already (it runs until it stops): then nothing before
         * it is left to wait for (indices wrap: compared as distances) */
        uint32_t i = bounded_rd(b, to);
        while ((int32_t)(to - i) > 0 && (rx_sizes(b)[i & mask] & MP_CB_COMMITTED))
            ++i;
        if ((int32_t)(to - i) <= 0 || !kwait_more(&w))
            return;
    }
}

/* The first element the task still holds: a packet it received (the read index is past it) and
 * has not released yet is still committed, and its pointer names its slot in the receive page,
 * which the destination gets element by element: it is copied too. Never more than a buffer. */
static uint32_t held_from(const struct rxbuf *b, uint32_t to)
{
    const uint32_t cap = 1u << b->n, mask = cap - 1u;
    uint32_t from = bounded_rd(b, to);
    while (to - (from - 1u) <= cap && (rx_sizes(b)[(from - 1u) & mask] & MP_CB_COMMITTED))
        --from;
    return from;
}

/* Elements [from, to) (at most a buffer's worth: held_from) into the destination's buffer of the
 * same geometry at dst_rx, at the same indices; a size word's length is cut to the element. */
static uint32_t copy_elements(const struct rxbuf *b, uint32_t from, uint32_t to, uint32_t tile,
                              uint32_t dst_rx)
{
    const uint32_t n = b->n, m = b->m, mask = (1u << n) - 1u;
    uint32_t bytes = 0;
    for (uint32_t i = from, count = 0; i != to && count < (1u << n); ++i, ++count) {
        const uint32_t k = i & mask;
        const uint32_t sw = rx_sizes(b)[k];
        uint32_t len = (sw & MP_CB_COMMITTED) && !(sw & MP_CB_VOID) ? sw & MP_CB_SIZE_MASK : 0u;
        if (len > (1u << m))
            len = 1u << m; /* the task's own element, as far as it goes */
        if (len)
            bytes += copy_to(tile, data0(dst_rx, n) + (k << m),
                             b->base + MP_CB_HEADER_SIZE + (4u << n) + (k << m), len);
        bytes +=
            copy_to(tile, dst_rx + MP_CB_HEADER_SIZE + 4u * k, (const void *)&rx_sizes(b)[k], 4);
    }
    return bytes;
}

static struct k_task *task_of(k_thread_t *t) { return t->task; }

/* A task built here runs only once its registers came: this entry is never reached. */
static void never_started(void *arg) { (void)arg; }

/* ---- the destination: build, switch, cancel ---- */

static void end_unstarted(k_thread_t *t)
{
    kmp_task_drop(t);
    uint32_t saved = irq_global_disable();
    k_lock_take();
    t->suspended = 0;
    k_thread_end(t, K_MIGRATED);
    k_lock_give();
    irq_global_restore(saved);
    int status;
    (void)k_join(t, K_FOREVER, &status);
}

/* A vif slot for the task: free of tasks and taken from the library's hands at once (its
 * transfers use the lowest free slots; one it holds now is skipped). */
static int claim_vif_slot(unsigned preferred)
{
    for (uint32_t tries = 0; tries < 4; ++tries) {
        uint32_t busy = 0;
        KMP(busy = namp_slots_busy());
        const int s = k_vif_free_slot(preferred, busy);
        if (s < 0)
            return -1;
        int ok = k_vif_slot_known((unsigned)s);
        if (!ok)
            KMP(ok = namp_slot_claim((unsigned)s));
        if (ok)
            return s;
    }
    return -1;
}

/* A slot claimed above that no vif took: the library's again. */
static void unclaim_vif_slot(unsigned slot)
{
    if (!k_vif_slot_known(slot))
        KMP(namp_slot_free(slot));
}

/* One table entry rebuilt at the destination, under the vID it had (the table is built in order).
 * The handle words come from the source's records; the endpoint-bound ones name the endpoints made
 * here. */
static int rebuild_entry(uint32_t z, uint32_t i, struct km_prepared *pd)
{
    k_thread_t *t = pending[z].t;
    const struct km_prepare *p = &pending[z].p;
    const struct km_et *e = &p->et[i];
    const uint32_t kid = e->ep < p->n_ep ? (uint32_t)pending[z].kid[e->ep] : 0xFFu;
    int vid = K_EINVAL;
    pd->et_handle[i] = 0;
    switch (e->obj) {
    case K_ETO_SENDBUF:
        vid = k_vif_add_sendbuf(t, K_USER_DATA + offsetof(mp_task_state_t, tx),
                                (uint32_t)mp_cbuffer_footprint(MP_TASK_TX_N, MP_TASK_TX_M));
        break;
    case K_ETO_CCAREA: vid = k_vif_add_ccarea(t, e->va, e->bytes); break;
    case K_ETO_CREDIT: {
        mcapix_endpoint_info_t info;
        if (e->ep < p->n_ep && inspect(pending[z].ep_h[e->ep], &info) == 0)
            vid = k_vif_add_credit(t, (const void *)info.credit_path);
        break;
    }
    case K_ETO_LOOKUP:
    case K_ETO_CHAN:
    case K_ETO_MEMBER: {
        if (e->obj != K_ETO_LOOKUP && e->ep >= p->n_ep)
            break; /* an endpoint-bound handle without its endpoint: refused */
        struct mp_ephandle *h = kmp_task_handle(t);
        if (!h) {
            vid = K_ENOMEM;
            break;
        }
        namp_handle_t *x = (namp_handle_t *)h->hw;
        h->domain = MCAPI_DOMAIN;
        h->node = e->node;
        h->port = e->port;
        h->geometry = e->geometry;
        h->addr = e->h[NAMP_H_ENDPOINT / 4];
        h->id = e->h[NAMP_H_ID / 4];
        x->id = h->id;
        x->tile = e->h[NAMP_H_TILE / 4];
        x->endpoint = h->addr;
        if (e->obj == K_ETO_CHAN) { /* the rest at the switch; dualcast block in its own words */
            x->dualcast = (uint32_t)(uintptr_t)x + NAMP_H_RESERVED;
            /* a channel's handle from the start: its receiver's credit path moves here before the
             * switch, and the target takes credits only for a connected handle */
            x->flags = NAMP_H_F_CONNECTED;
        } else if (e->obj == K_ETO_MEMBER) { /* the key of the endpoint made here */
            x->flags = e->h[NAMP_H_FLAGS / 4];
            x->credits = e->h[NAMP_H_CREDITS / 4];
            x->key_tile = me();
            x->key_id = pd->ep_id[e->ep];
        }
        pd->et_handle[i] = (uint32_t)(uintptr_t)x;
        vid = e->obj == K_ETO_MEMBER ? k_vif_add_member(t, x) : k_vif_add_handle(t, x);
        if (vid >= 0)
            (void)kmp_task_set_vid(t, (uint32_t)vid, e->obj, kid, h);
        return vid == (int)i ? K_OK : vid < 0 ? K_ENOMEM : K_EINVAL;
    }
    default: /* an entry the kernel took back stays empty: a placeholder keeps the vIDs */
        vid = k_vif_add_handle(t, (const void *)(uintptr_t)4u);
        if (vid >= 0)
            (void)k_vif_clear_entry(t, (uint32_t)vid);
        return vid == (int)i ? K_OK : K_ENOMEM;
    }
    if (vid >= 0)
        (void)kmp_task_set_vid(t, (uint32_t)vid, e->obj, kid, NULL);
    return vid == (int)i ? K_OK : vid < 0 ? K_ENOMEM : K_EINVAL;
}

static int prepare(const struct km_msg *m, struct km_prepared *pd)
{
    const struct km_prepare *p = &m->u.p;
    uint32_t z;
    for (z = 0; z < KMIG_PENDING && pending[z].t; ++z)
        ;
    if (z == KMIG_PENDING || p->n_ep > MP_TASK_EPS || p->n_et > K_VIF_ET_MAX ||
        p->data_size > KMIG_MAX_PAGES * K_PAGE_SIZE || p->stack_pages > KMIG_MAX_STACK)
        return K_ENOMEM;
    const int slot = claim_vif_slot(p->slot);
    if (slot < 0)
        return K_ENOMEM;
    k_task_image_t img = {"migrated",     never_started, NULL, p->data_size,
                          p->stack_pages, p->prio,       1};
    k_thread_t *t = k_task_create(&img);
    if (!t) {
        unclaim_vif_slot((unsigned)slot);
        return K_ENOMEM;
    }
    /* the task's quota comes with it: reserved here, or the move is refused */
    if (kmp_task_admit(t, &p->quota) != K_OK) {
        unclaim_vif_slot((unsigned)slot);
        end_unstarted(t); /* its drop finds no record: nothing was admitted */
        return K_ENOMEM;
    }
    pending[z].t = t;
    pending[z].from = m->from;
    pending[z].seq = m->seq;
    pending[z].method = p->method;
    pending[z].p = *p;
    int r = K_OK;
    for (uint32_t i = 0; i < p->n_ep && r == K_OK; ++i) {
        struct kmp_task_ep_spec spec = {p->ep[i].idx,           p->ep[i].port,
                                        !p->ep[i].channel_recv, p->ep[i].channel_recv,
                                        p->ep[i].peer_node,     p->ep[i].peer_handle};
        int kid = kmp_task_adopt(t, &spec, &pending[z].ep_h[i]);
        mcapix_endpoint_info_t info;
        if (kid < 0)
            r = kid;
        else if (inspect(pending[z].ep_h[i], &info) != 0)
            r = K_EINVAL;
        else {
            pending[z].kid[i] = kid;
            pd->ep_hw[i] = info.endpoint;
            pd->ep_rx[i] = info.rx;
            pd->ep_id[i] = info.id;
            if (p->method == K_MIGRATE_SOFTWARE && info.channel_recv &&
                kswps_sink(pending[z].ep_h[i]) != K_OK)
                r = K_ENOMEM;
        }
    }
    /* the endpoint table in the same order: every vID the task holds stays what it was */
    for (uint32_t i = 0; i < p->n_et && r == K_OK; ++i)
        r = rebuild_entry(z, i, pd);
    if (r == K_OK && !k_vif_attach(t, (unsigned)slot))
        r = K_ENOMEM;
    if (r != K_OK) {
        unclaim_vif_slot((unsigned)slot);
        end_unstarted(t);
        pending[z].t = NULL;
        return r;
    }
    struct k_task *task = task_of(t);
    pd->tid = t->id;
    pd->n_data = (p->data_size + K_PAGE_SIZE - 1) / K_PAGE_SIZE;
    pd->n_stack = task->stack_pages;
    for (uint32_t i = 0; i < pd->n_data; ++i)
        pd->data_pa[i] = vm_user_range(task, K_USER_DATA + i * K_PAGE_SIZE, 1, PTE_R);
    for (uint32_t i = 0; i < pd->n_stack; ++i)
        pd->stack_pa[i] =
            vm_user_range(task, K_USER_STACK_TOP - (pd->n_stack - i) * K_PAGE_SIZE, 1, PTE_R);
    pd->reply = (uint32_t)(uintptr_t)pending[z].reply;
    pending[z].reply[0] = 0;
    return K_OK;
}

static int pending_of(uint32_t from, uint32_t seq_of_prepare)
{
    for (uint32_t z = 0; z < KMIG_PENDING; ++z)
        if (pending[z].t && pending[z].from == from && pending[z].seq == seq_of_prepare)
            return (int)z;
    return -1;
}

/* ---- the methods (thesis Table 3.3): what differs between pausing, relocation and dualcast ---- */

struct mig;
struct mig_method {
    const char *name;
    /* phase I for incoming channel i (K_OK to go on) and for connection-less endpoint i */
    int (*chan_prepare)(struct mig *c, int i);
    void (*msg_prepare)(struct mig *c, int i);
    /* undo of phase I for incoming channel i (the migration did not happen) */
    void (*chan_undo)(struct mig *c, int i);
    /* phase II: incoming channel i switched; c->in[i].w its first element the destination gets */
    void (*chan_switch)(struct mig *c, int i);
    /* the elements below w are copied at the switch (dualcast copied them ahead) */
    int copy_at_switch;
    /* the destination: the stream's end (from the switch report) and what follows the start */
    int (*dest_stream_end)(uint32_t z, uint32_t i, uint32_t *w);
    int (*dest_started)(uint32_t z, const struct km_switch *sw);
    /* the adapters' PS carries it (RELOC / MIGRATE reports); 0: the kernels do (software PS) */
    int needs_ps;
    /* the task runs at the destination (after KM_SWITCH) / phase III for incoming channel i */
    void (*chan_live)(struct mig *c, int i);
    void (*chan_release)(struct mig *c, int i);
};

static int dest_end_given(uint32_t z, uint32_t i, uint32_t *w)
{
    (void)z, (void)i, (void)w; /* the source sent it */
    return K_OK;
}
static int dest_end_reported(uint32_t z, uint32_t i, uint32_t *w)
{
    (void)i; /* dualcast: the switch report came here */
    if (k_ps_wait(pending[z].reply) != K_OK)
        return K_ETIMEDOUT;
    *w = pending[z].reply[NAMP_PS_A_WR_IDX / 4];
    return K_OK;
}
static int dest_nothing(uint32_t z, const struct km_switch *sw)
{
    (void)z, (void)sw;
    return K_OK;
}

/* pausing: the senders are switched now and get their credits back */
static int dest_unpause(uint32_t z, const struct km_switch *sw)
{
    const struct km_prepare *p = &pending[z].p;
    for (uint32_t i = 0; i < p->n_ep; ++i) {
        if (!p->ep[i].channel_recv)
            continue;
        mcapix_endpoint_info_t info;
        if (inspect(pending[z].ep_h[i], &info) != 0)
            return K_EINVAL;
        if (ps_request(NAMP_PS_OP_RELOC, p->ep[i].peer_node, p->ep[i].peer_handle, me(),
                       info.endpoint, data0(info.rx, info.capacity_log2), info.id, me(),
                       pending[z].reply) != K_OK)
            return K_ETIMEDOUT;
        if (sw->in[i].credits)
            kmig_give_credits(info.credit_path, sw->in[i].credits);
    }
    return K_OK;
}

/* ---- the source's context ---- */

struct mig {
    k_thread_t *t;
    unsigned tile;
    int method;
    const struct mig_method *m;
    struct kmp_task_ep eps[MP_TASK_EPS];
    mcapix_endpoint_info_t infos[MP_TASK_EPS];
    struct rxbuf rx[MP_TASK_EPS];
    int n_eps, suspended;
    struct km_prepare pk;  /* what the destination was told */
    struct km_prepared pd; /* what it answered */
    struct km_in in[MP_TASK_EPS];
    struct km_switch sw;
    uint32_t prep_seq, bytes;
    uint32_t reply[NAMP_PS_A_SIZE / 4] __attribute__((aligned(8)));
    k_migrate_result_t res;
    uint64_t c;           /* cycles at the start of the phase under way (phase I, II) */
    int switch_sent;      /* phase II changed the task's world: no undo from here on */
    int fwd[MP_TASK_EPS]; /* software PS: incoming channel i's forwarding entry (-1 none) */
};

/* the sender of incoming channel i suspends (pausing): its credits taken, its stream's end */
static int suspend_peer(struct mig *c, int i, uint32_t *w, uint32_t *credits)
{
    const uint32_t args[2] = {c->pk.ep[i].peer_handle, c->infos[i].id};
    const int r = call_words(c->pk.ep[i].peer_node, KM_SUSPEND, args, 2);
    if (r == K_OK) {
        *w = in_msg.u.w[0];
        *credits = in_msg.u.w[1];
    }
    return r;
}

static int pause_chan_prepare(struct mig *c, int i)
{
    int r = suspend_peer(c, i, &c->in[i].w, &c->in[i].credits);
    c->suspended = i + 1;
    if (r == K_OK)
        wait_committed(&c->rx[i], c->in[i].w);
    return r;
}
static void pause_msg_prepare(struct mig *c, int i) { hold(c->eps[i].h, 1); }
static void pause_chan_undo(struct mig *c, int i)
{
    if (i < c->suspended && c->in[i].credits)
        kmig_give_credits(c->infos[i].credit_path, c->in[i].credits);
}
/* the task returned credits until it stopped: the sender may have used them; taken again, now for
 * good, and the stream's end is where the handle stands now */
static void pause_chan_switch(struct mig *c, int i)
{
    uint32_t w, credits;
    if (suspend_peer(c, i, &w, &credits) == K_OK) {
        c->in[i].w = w;
        c->in[i].credits += credits;
    }
    wait_committed(&c->rx[i], c->in[i].w);
}

static int relocate_chan_prepare(struct mig *c, int i)
{
    (void)c, (void)i;
    return K_OK;
}
static void no_msg_prepare(struct mig *c, int i) { (void)c, (void)i; }
static void no_chan_undo(struct mig *c, int i) { (void)c, (void)i; }
static void relocate_chan_switch(struct mig *c, int i)
{
    (void)ps_request(NAMP_PS_OP_RELOC, c->pk.ep[i].peer_node, c->pk.ep[i].peer_handle, c->tile,
                     c->pd.ep_hw[i], data0(c->pd.ep_rx[i], c->rx[i].n), c->pd.ep_id[i], me(),
                     c->reply);
    c->in[i].w = c->reply[NAMP_PS_A_WR_IDX / 4];
    wait_committed(&c->rx[i], c->in[i].w); /* FINALs precede the report on their channel */
}

/* dualcast: the sender writes every element to both tiles from now on; the elements before that
 * are copied ahead */
static int dualcast_chan_prepare(struct mig *c, int i)
{
    int r = ps_request(NAMP_PS_OP_MIGRATE, c->pk.ep[i].peer_node, c->pk.ep[i].peer_handle, c->tile,
                       c->pd.ep_hw[i], data0(c->pd.ep_rx[i], c->rx[i].n), c->pd.ep_id[i], me(),
                       c->reply);
    if (r != K_OK)
        return r;
    const uint32_t wm = c->reply[NAMP_PS_A_WR_IDX / 4];
    c->in[i].w = wm;
    wait_committed(&c->rx[i], wm);
    c->bytes += copy_elements(&c->rx[i], held_from(&c->rx[i], wm), wm, c->tile, c->pd.ep_rx[i]);
    return K_OK;
}
static void dualcast_chan_undo(struct mig *c, int i) /* dualcast ends */
{
    if (c->prep_seq)
        (void)ps_request(NAMP_PS_OP_RELOC, c->pk.ep[i].peer_node, c->pk.ep[i].peer_handle, me(),
                         c->infos[i].endpoint, data0(c->infos[i].rx, c->rx[i].n), c->infos[i].id,
                         me(), c->reply);
}
static void dualcast_chan_switch(struct mig *c, int i) /* its report goes to the destination */
{
    (void)ps_request(NAMP_PS_OP_RELOC, c->pk.ep[i].peer_node, c->pk.ep[i].peer_handle, c->tile,
                     c->pd.ep_hw[i], data0(c->pd.ep_rx[i], c->rx[i].n), c->pd.ep_id[i], c->tile,
                     (volatile uint32_t *)(uintptr_t)c->pd.reply);
}

static void no_chan_live(struct mig *c, int i) { (void)c, (void)i; }
/* its one sender was switched by the adapters' PS: the endpoint here forwards nothing more */
static void ps_chan_release(struct mig *c, int i)
{
    (void)redirect(c->eps[i].h, c->tile, c->pd.ep_hw[i], c->pd.ep_id[i]);
}

/* software PS (kmig_swps.c): the source's forwarder copies what arrives here from phase I on */
static int sw_chan_prepare(struct mig *c, int i)
{
    if (c->rx[i].n != MP_TASK_RX_N || c->rx[i].m != MP_TASK_RX_M)
        return K_ENOTSUP; /* the forwarder knows one geometry: a task's receive page */
    const uint32_t rx = (uint32_t)(uintptr_t)c->rx[i].base;
    c->fwd[i] = kswps_forward(rx, ((const volatile mp_cbuffer_t *)c->rx[i].base)->wr_idx, c->tile,
                              c->pd.ep_rx[i]);
    return c->fwd[i] < 0 ? K_ENOMEM : K_OK;
}
static void sw_chan_undo(struct mig *c, int i) { kswps_cancel(c->fwd[i]); }
static void sw_chan_switch(struct mig *c, int i) { c->in[i].w = kswps_sync(c->fwd[i]); }
static void sw_chan_live(struct mig *c, int i) { kswps_live(c->fwd[i]); }
/* phase III: the sender's kernel switches it (credits taken, its transfers done, its handle
 * rewritten, the new endpoint's identity included); the source forwards up to the stream's end
 * at the old location; then the destination gives the sender its credits back: those taken and
 * those its task released since it started there, from the tile the handle now names (a CREDIT
 * from any other tile is refused under namp.identity) */
static void sw_chan_release(struct mig *c, int i)
{
    const uint32_t node = c->pk.ep[i].peer_node, handle = c->pk.ep[i].peer_handle;
    const uint32_t args[6] = {handle,         c->tile,
                              c->pd.ep_hw[i], data0(c->pd.ep_rx[i], c->rx[i].n),
                              c->infos[i].id, c->pd.ep_id[i]};
    if (call_words(node, KM_SW_REDIRECT, args, 6) != K_OK) {
        kswps_cancel(c->fwd[i]);
        return;
    }
    const uint32_t end = in_msg.u.w[0], taken = in_msg.u.w[1];
    (void)kswps_finish(c->fwd[i], end);
    const uint32_t give[3] = {c->pd.ep_hw[i], c->pd.ep_id[i], taken};
    (void)call_words(c->tile, KM_SW_CREDITS, give, 3);
}

static const struct mig_method methods[] = {
    [K_MIGRATE_PAUSE] = {"pause", pause_chan_prepare, pause_msg_prepare, pause_chan_undo,
                         pause_chan_switch, 1, dest_end_given, dest_unpause, 1, no_chan_live,
                         ps_chan_release},
    [K_MIGRATE_RELOCATE] = {"relocate", relocate_chan_prepare, no_msg_prepare, no_chan_undo,
                            relocate_chan_switch, 1, dest_end_given, dest_nothing, 1, no_chan_live,
                            ps_chan_release},
    [K_MIGRATE_DUALCAST] = {"dualcast", dualcast_chan_prepare, no_msg_prepare, dualcast_chan_undo,
                            dualcast_chan_switch, 0, dest_end_reported, dest_nothing, 1,
                            no_chan_live, ps_chan_release},
    [K_MIGRATE_SOFTWARE] = {"software", sw_chan_prepare, no_msg_prepare, sw_chan_undo,
                            sw_chan_switch, 0, dest_end_given, dest_nothing, 0, sw_chan_live,
                            sw_chan_release},
};

/* ---- the destination's switch ---- */

static int switch_task(uint32_t z, const struct km_switch *sw)
{
    k_thread_t *t = pending[z].t;
    struct k_task *task = task_of(t);
    const struct km_prepare *p = &pending[z].p;
    const struct mig_method *mm = &methods[pending[z].method];
    /* the library's control words name this tile, this vif and this kernel's endpoint indices */
    struct mp_task_ctrl *c = kmp_task_ptr(t, K_USER_DATA, sizeof *c);
    if (!c)
        return K_EINVAL;
    c->vif = K_USER_VIF;
    c->node = me();
    c->timer_hz = timer_hz();
    for (uint32_t i = 0; i < p->n_ep; ++i)
        c->ep[p->ep[i].idx].kid = pending[z].kid[i];
    /* outgoing channels: the sender's handle, its credits added to what came meanwhile */
    for (uint32_t i = 0; i < p->n_et; ++i) {
        if (p->et[i].obj != K_ETO_CHAN)
            continue;
        namp_handle_t *h = (namp_handle_t *)(uintptr_t)task->et[i][NAMP_ET_ADDR / 4];
        const struct km_out *o = &sw->out[i];
        h->rdata = o->rdata;
        h->wr_idx = o->wr_idx;
        h->sent = o->sent;
        h->flags = o->flags;
        h->tile = o->tile;
        h->endpoint = o->endpoint;
        (void)atomic_fetch_add_u32(&h->credits, o->credits);
    }
    /* incoming channels: the buffer's indices continue the stream */
    for (uint32_t i = 0; i < p->n_ep; ++i) {
        if (!p->ep[i].channel_recv)
            continue;
        mcapix_endpoint_info_t info;
        if (inspect(pending[z].ep_h[i], &info) != 0)
            return K_EINVAL;
        uint32_t w = sw->in[i].w;
        if (mm->dest_stream_end(z, i, &w) != K_OK)
            return K_ETIMEDOUT;
        mp_cbuffer_t *b = (mp_cbuffer_t *)(uintptr_t)info.rx;
        b->rd_idx = sw->in[i].rd;
        b->voids = sw->in[i].voids;
        (void)atomic_fetch_add_u32(&b->wr_idx, w);
    }
    /* connection-less endpoints: their pages came with their state */
    for (uint32_t i = 0; i < p->n_ep; ++i)
        if (!p->ep[i].channel_recv)
            hold(pending[z].ep_h[i], 0);
    k_vif_restore(task, &sw->vif);
    memcpy(t->frame->regs, sw->frame.regs, sizeof t->frame->regs);
    t->frame->mepc = sw->frame.mepc;
    k_task_unstop(t, sw->wake_at);
    const int r = mm->dest_started(z, sw);
    if (r != K_OK)
        return r;
    for (uint32_t a = 0; a < KMIG_ARRIVALS; ++a)
        if (!arrivals[a]) {
            arrivals[a] = t;
            break;
        }
    pending[z].t = NULL;
    return K_OK;
}

k_thread_t *k_migrate_take_arrival(void)
{
    for (uint32_t a = 0; a < KMIG_ARRIVALS; ++a)
        if (arrivals[a]) {
            k_thread_t *t = arrivals[a];
            arrivals[a] = NULL;
            return t;
        }
    return NULL;
}

/* ---- the peers of a channel, the roots of a collective ---- */

/* A sender of a paused channel gives up its credits: it waits in CREDIT_WAIT; the transfers that
 * had taken one end first. Answer: the handle's wr_idx and the credits taken.
 * The pausing baseline at the sender's tile: its handle's credits taken, then no slot of it under
 * way, READY included (a set-up step may have taken a credit before the swap and not yet written
 * wr_idx: the egress FSM's bus accesses take time); then wr_idx is where the stream stopped.
 * Only a connected handle still connected to the endpoint of identity `id`. */
int kmig_suspend_sender(uint32_t handle, uint32_t id, uint32_t *w, uint32_t *taken)
{
    if ((handle & 3) || handle < tile_sram_base() ||
        handle - tile_sram_base() > tile_sram_size() - NAMP_H_SIZE)
        return K_EINVAL;
    volatile namp_handle_t *h = (volatile namp_handle_t *)(uintptr_t)handle;
    if (!(h->flags & NAMP_H_F_CONNECTED) || !kmig_same_id(h->id, id))
        return K_EINVAL;
    *taken = atomic_swap_u32(&h->credits, 0);
    for (struct kwait wt = kwait_for(KMIG_PS_TICKS);;) {
        if (!namp_reg_writing_on(handle)) {
            *w = h->wr_idx;
            return K_OK;
        }
        if (!kwait_more(&wt))
            return K_ETIMEDOUT;
    }
}

/* The receiving side of a channel whose sender moves: its credit path to the sender's new handle
 * (RELOC through this tile's adapter: a task's credit slot may read it any moment), and the
 * library's own view. Only the endpoint of identity `id` whose channel's sender is the moving one
 * (from, old_handle). The report goes to the migrating task's tile (reply_tile, reply): credits
 * this tile sent to the old handle before the switch travel the same path ahead of it, so once it
 * is there they have all arrived and the handle's credit count is final. */
static int move_credit_path(const uint32_t *w, uint32_t reply_tile)
{
    const uint32_t ep_addr = w[0], tile = w[1], handle = w[2], reply = w[3], id = w[4],
                   old_handle = w[5];
    kmp_lock();
    mcapi_endpoint_t e = mcapix_endpoint_by_addr(ep_addr);
    kmp_unlock();
    mcapix_endpoint_info_t info;
    if (!e || inspect(e, &info) != 0 || !info.channel_recv || !kmig_same_id(id, info.id) ||
        info.peer_node != reply_tile || info.peer_handle != old_handle)
        return K_EINVAL;
    if (!reply || (reply & 3u))
        return K_EINVAL;
    /* the credit path keeps the receiver's own identity: the sender's new handle holds it */
    int r = ps_request(NAMP_PS_OP_RELOC, me(), info.credit_path, tile, handle, 0, info.id,
                       reply_tile, (volatile uint32_t *)(uintptr_t)reply);
    if (r == K_OK)
        KMP((void)mcapix_chan_credit_path_moved(e, tile, handle));
    return r;
}

/* A root here lists a member that moves: its key (tile, endpoint identity) becomes the new one. */
static int rekey(const uint32_t *w)
{
    int r;
    KMP(r = mcapix_cc_rekey(w[0], w[1], w[2], w[3], w[4], w[5]));
    return r < 0 ? K_EINVAL : K_OK;
}

/* ---- the service ---- */

static void serve(struct km_msg *m)
{
    svc_out.type = m->type + 1;
    svc_out.seq = m->seq;
    svc_out.from = me();
    svc_out.result = K_OK;
    uint32_t bytes = offsetof(struct km_msg, u) + sizeof svc_out.u.w;
    switch (m->type) {
    case KM_PREPARE:
        svc_out.result = prepare(m, &svc_out.u.pd);
        bytes = offsetof(struct km_msg, u) + sizeof svc_out.u.pd;
        break;
    case KM_SWITCH: {
        const int z = pending_of(m->from, m->result);
        svc_out.result = z < 0 ? K_EINVAL : switch_task((uint32_t)z, &m->u.sw);
        break;
    }
    case KM_CANCEL: {
        const int z = pending_of(m->from, m->result);
        if (z >= 0) {
            end_unstarted(pending[z].t);
            pending[z].t = NULL;
        }
        break;
    }
    case KM_SUSPEND:
        svc_out.result =
            kmig_suspend_sender(m->u.w[0], m->u.w[1], &svc_out.u.w[0], &svc_out.u.w[1]);
        break;
    case KM_CREDIT_MOVE: svc_out.result = move_credit_path(m->u.w, m->from); break;
    case KM_REKEY: svc_out.result = rekey(m->u.w); break;
    case KM_SW_REDIRECT:
        svc_out.result = kswps_redirect(m->u.w, &svc_out.u.w[0], &svc_out.u.w[1]);
        break;
    case KM_SW_CREDITS: svc_out.result = kswps_give_credits(m->u.w); break;
    case KM_SW_CREDIT_PATH: svc_out.result = kswps_move_credit_path(m->u.w, m->from); break;
    default: return;
    }
    answer(m->from, &svc_out, bytes);
}

static void service_main(void *arg)
{
    (void)arg;
    while (!svc_stop)
        if (recv_msg(svc_ep, &svc_msg, 1000u) == K_OK)
            serve(&svc_msg);
    svc = NULL;
}

int k_migrate_service_start(uint32_t prio)
{
    if (svc)
        return K_EINVAL;
    mcapi_status_t st;
    KMP(svc_ep = mcapi_endpoint_create(KMIG_PORT, &st));
    if (st != MCAPI_SUCCESS)
        return K_EINVAL;
    KMP(reply_ep = mcapi_endpoint_create(KMIG_REPLY_PORT, &st));
    if (st != MCAPI_SUCCESS)
        return K_EINVAL;
    k_mutex_init(&mig_lock);
    svc_stop = 0;
    svc = k_thread_create("kmig", service_main, NULL, prio, 0);
    if (!svc)
        return K_ENOMEM;
    return kswps_start(prio); /* software PS's forwarder */
}

void k_migrate_service_stop(void)
{
    svc_stop = 1;
    kswps_stop();
}

/* ---- the source: the phases of k_task_migrate ---- */

static uint64_t cycles_now(void) { return cpu_cycles(); }

/* A handle's words as the task's vID names them (kernel memory: the kernel's own records). */
static void describe_handle(struct km_et *e, const namp_handle_t *h, const struct mp_ephandle *lib)
{
    memcpy(e->h, h, sizeof e->h);
    if (lib) {
        e->node = lib->node;
        e->port = lib->port;
        e->geometry = lib->geometry;
    } else {
        e->node = h->tile;
    }
}

/* The index (in c->eps) of kernel endpoint kid, or MP_TASK_EPS. */
static uint32_t ep_slot(const struct mig *c, uint32_t kid)
{
    for (int k = 0; k < c->n_eps; ++k)
        if (c->eps[k].kid == kid)
            return (uint32_t)k;
    return MP_TASK_EPS;
}

/* Describes task t for the destination from the kernel's records: every endpoint it holds and
 * every entry of its endpoint table by what the kernel made it. A request under way or an
 * endpoint it deleted that is not reaped yet is waited for (it is stopped from making new ones:
 * task->migrating), then refused with K_EBUSY. */
static int mig_describe(struct mig *c)
{
    k_thread_t *t = c->t;
    struct k_task *task = task_of(t);
    int deleting = 0;
    for (uint32_t k = 0; k < KMIG_SETTLE_TICKS; ++k) {
        c->n_eps = kmp_task_list(t, c->eps, MP_TASK_EPS, &deleting);
        if (c->n_eps >= 0 && !deleting && kmp_task_requests_idle(t))
            break;
        k_sleep(1);
    }
    if (c->n_eps < 0 || deleting || !kmp_task_requests_idle(t) || !t->task)
        return K_EBUSY;
    struct km_prepare *p = &c->pk;
    memset(p, 0, sizeof *p);
    p->data_size = task->data_pages * K_PAGE_SIZE;
    p->stack_pages = task->stack_pages;
    p->prio = task->prio;
    p->slot = (uint32_t)task->vif_slot;
    p->method = (uint32_t)c->method;
    if (kmp_task_quota(t, &p->quota) != K_OK)
        return K_EINVAL;
    p->n_ep = (uint32_t)c->n_eps;
    for (int i = 0; i < c->n_eps; ++i) {
        if (inspect(c->eps[i].h, &c->infos[i]) != 0)
            return K_EINVAL;
        const mcapix_endpoint_info_t *f = &c->infos[i];
        c->rx[i] =
            (struct rxbuf){(const uint8_t *)(uintptr_t)f->rx, f->capacity_log2, f->max_msg_log2};
        p->ep[i] =
            (struct km_ep){c->eps[i].idx, f->port, f->channel_recv, f->peer_node, f->peer_handle};
    }
    p->n_et = task->et_count;
    for (uint32_t i = 0; i < task->et_count && i < K_VIF_ET_MAX; ++i) {
        struct km_et *e = &p->et[i];
        const struct k_et_rec *rec = &task->et_rec[i];
        const uint32_t a = task->et[i][NAMP_ET_ADDR / 4];
        e->obj = task->et[i][NAMP_ET_KIND / 4] == NAMP_ET_EMPTY ? K_ETO_NONE : rec->obj;
        e->ep = rec->kid != 0xFFu ? ep_slot(c, rec->kid) : MP_TASK_EPS;
        switch (e->obj) {
        case K_ETO_NONE:
        case K_ETO_SENDBUF: break;
        case K_ETO_CCAREA:
            /* the area's task address: the data page that holds it (the pages move, the
             * addresses stay) */
            e->bytes = task->et[i][NAMP_ET_LIMIT / 4];
            for (uint32_t pg = 0; pg < task->data_pages && !e->va; ++pg)
                if (vm_user_range(task, K_USER_DATA + pg * K_PAGE_SIZE, 1, PTE_R) ==
                    (a & ~(K_PAGE_SIZE - 1u)))
                    e->va = K_USER_DATA + pg * K_PAGE_SIZE + (a & (K_PAGE_SIZE - 1u));
            if (!e->va)
                return K_EINVAL; /* not in its data region: nothing to move it with */
            break;
        case K_ETO_CREDIT:
            if (e->ep == MP_TASK_EPS)
                return K_EINVAL;
            break;
        case K_ETO_LOOKUP:
        case K_ETO_MEMBER:
            describe_handle(e, (const namp_handle_t *)(uintptr_t)a,
                            (const struct mp_ephandle *)(uintptr_t)a);
            if (e->obj == K_ETO_MEMBER && e->ep == MP_TASK_EPS)
                return K_EINVAL;
            break;
        case K_ETO_CHAN:
            describe_handle(e, (const namp_handle_t *)(uintptr_t)a, NULL);
            if (e->ep == MP_TASK_EPS)
                return K_EINVAL;
            break;
        default: return K_EINVAL; /* nothing the kernel made: refused, not guessed */
        }
    }
    return K_OK;
}

static int mig_prepare_destination(struct mig *c)
{
    out_msg.type = KM_PREPARE;
    out_msg.u.p = c->pk;
    const int r = call(c->tile, &out_msg, sizeof out_msg, &in_msg);
    c->prep_seq = out_msg.seq;
    c->pd = in_msg.u.pd;
    return r;
}

static int mig_phase1(struct mig *c)
{
    int r = K_OK;
    for (int i = 0; r == K_OK && i < c->n_eps; ++i) {
        c->in[i] = (struct km_in){0, 0, 0, 0};
        if (c->pk.ep[i].channel_recv)
            r = c->m->chan_prepare(c, i);
        else
            c->m->msg_prepare(c, i);
    }
    for (int i = 0; r == K_OK && c->method == K_MIGRATE_PAUSE && i < c->n_eps;
         ++i)                                               /* allocations */
        for (struct kwait w = kwait_for(KMIG_COMMIT_TICKS); /* granted before the hold finish */
             !c->pk.ep[i].channel_recv && inflight(c->eps[i].h) && kwait_more(&w);)
            ;
    return r;
}

/* The task stops at an instruction boundary (retried each tick while it is in a kernel wait); its
 * vif settles. */
static int mig_stop(struct mig *c)
{
    int r = K_EBUSY;
    for (uint32_t k = 0; k < KMIG_STOP_TRIES && r == K_EBUSY; ++k)
        if ((r = k_task_stop(c->t, &c->sw.wake_at)) == K_EBUSY)
            k_sleep(1);
    c->res.t_stop = timer_now();
    if (r == K_OK && (r = k_vif_save(c->t->task, &c->sw.vif)) != K_OK)
        k_task_unstop(c->t, c->sw.wake_at);
    return r;
}

/* Nothing changed for the task yet: phase I undone, the destination's half-built task gone. */
static void mig_undo(struct mig *c)
{
    for (int i = 0; i < c->n_eps; ++i)
        if (!c->pk.ep[i].channel_recv)
            hold(c->eps[i].h, 0);
        else
            c->m->chan_undo(c, i);
    if (c->prep_seq) {
        out_msg.type = KM_CANCEL;
        out_msg.result = (int32_t)c->prep_seq;
        (void)call(c->tile, &out_msg, offsetof(struct km_msg, u) + sizeof out_msg.u.w, &in_msg);
    }
}

/* Outgoing channels: the receiver's credit path to the new handle, then this handle's words;
 * collective roots that list the task's endpoints as members: the new keys. */
static void mig_move_outgoing(struct mig *c)
{
    struct k_task *task = c->t->task;
    for (uint32_t i = 0; i < c->pk.n_et; ++i) {
        const struct km_et *e = &c->pk.et[i];
        const namp_handle_t *h = (const namp_handle_t *)(uintptr_t)task->et[i][NAMP_ET_ADDR / 4];
        if (e->obj == K_ETO_CHAN) {
            c->reply[NAMP_PS_A_STATE / 4] = 0;
            const uint32_t args[6] = {e->h[NAMP_H_ENDPOINT / 4], c->tile,
                                      c->pd.et_handle[i],        (uint32_t)(uintptr_t)c->reply,
                                      e->h[NAMP_H_ID / 4],       (uint32_t)(uintptr_t)h};
            /* the receiver's credits sent before the move are here once the PS report is (software:
             * once its kernel's answer is, which follows them from that tile on the same channel) */
            if (call_words(e->h[NAMP_H_TILE / 4],
                           c->m->needs_ps ? KM_CREDIT_MOVE : KM_SW_CREDIT_PATH, args, 6) == K_OK &&
                c->m->needs_ps)
                (void)k_ps_wait(c->reply);
            c->sw.out[i] =
                (struct km_out){h->tile,  h->endpoint, atomic_swap_u32((uint32_t *)&h->credits, 0),
                                h->flags, h->sent,     h->rdata,
                                h->wr_idx};
        } else if (e->obj == K_ETO_MEMBER) {
            const uint32_t args[6] = {h->endpoint, h->id,   h->key_tile,
                                      h->key_id,   c->tile, c->pd.ep_id[e->ep]};
            (void)call_words(h->tile, KM_REKEY, args, 6);
        }
    }
}

/* Incoming channels switched per method; what the destination lacks, copied; connection-less
 * endpoints become tombstones. */
static void mig_switch_incoming(struct mig *c)
{
    for (int i = 0; i < c->n_eps; ++i) {
        const struct rxbuf *b = &c->rx[i];
        if (!c->pk.ep[i].channel_recv) {
            (void)redirect(c->eps[i].h, c->tile, c->pd.ep_hw[i], c->pd.ep_id[i]);
            continue;
        }
        c->m->chan_switch(c, i);
        c->in[i].rd = bounded_rd(b, c->in[i].w);
        c->in[i].voids = ((const volatile mp_cbuffer_t *)b->base)->voids;
        if (c->m->copy_at_switch)
            c->bytes +=
                copy_elements(b, held_from(b, c->in[i].w), c->in[i].w, c->tile, c->pd.ep_rx[i]);
        c->sw.in[i] = c->in[i];
        if (c->m->dest_stream_end == dest_end_reported)
            c->sw.in[i].w = 0; /* the destination takes it from the report */
    }
}

/* The pages (without the channels' receive pages: their elements went above) and the stack. */
static void mig_copy_pages(struct mig *c)
{
    struct k_task *task = c->t->task;
    for (uint32_t i = 0; i < c->pd.n_data && i < task->data_pages; ++i) {
        const uint32_t va = K_USER_DATA + i * K_PAGE_SIZE;
        int chan_page = 0;
        for (int k = 0; k < c->n_eps; ++k)
            chan_page |=
                c->pk.ep[k].channel_recv &&
                va == K_USER_DATA + offsetof(mp_task_state_t, rx) + c->pk.ep[k].idx * MP_TASK_PAGE;
        if (!chan_page)
            c->bytes += copy_to(c->tile, c->pd.data_pa[i],
                                (const void *)vm_user_range(task, va, 1, PTE_R), K_PAGE_SIZE);
    }
    for (uint32_t i = 0; i < c->pd.n_stack && i < task->stack_pages; ++i)
        c->bytes +=
            copy_to(c->tile, c->pd.stack_pa[i],
                    (const void *)vm_user_range(
                        task, K_USER_STACK_TOP - (c->pd.n_stack - i) * K_PAGE_SIZE, 1, PTE_R),
                    K_PAGE_SIZE);
}

static int mig_phase2(struct mig *c)
{
    memset(&c->sw, 0, sizeof c->sw);
    int r = mig_stop(c);
    if (r != K_OK)
        return r;
    mig_move_outgoing(c);
    mig_switch_incoming(c);
    mig_copy_pages(c);
    c->sw.frame = *c->t->frame;
    c->switch_sent = 1;
    out_msg.type = KM_SWITCH;
    out_msg.result = (int32_t)c->prep_seq;
    out_msg.u.sw = c->sw;
    r = call(c->tile, &out_msg, sizeof out_msg, &in_msg);
    for (int i = 0; r == K_OK && i < c->n_eps; ++i)
        if (c->pk.ep[i].channel_recv)
            c->m->chan_live(c, i);
    return r;
}

/* The task's copy here ends; its channel endpoints are retired, its connection-less ones stay
 * tombstones for a while, its handles and records go. */
static void mig_phase3(struct mig *c)
{
    mcapi_endpoint_t retired[MP_TASK_EPS];
    int n = 0;
    for (int i = 0; i < c->n_eps; ++i)
        if (c->pk.ep[i].channel_recv) { /* its one sender is switched: no tombstone needed */
            c->m->chan_release(c, i);
            KMP((void)mcapix_endpoint_retire(c->eps[i].h));
            retired[n++] = c->eps[i].h;
        }
    kmp_task_left(c->t, retired, n);
    uint32_t saved = irq_global_disable();
    k_lock_take();
    c->t->suspended = 0;
    k_thread_end(c->t, K_MIGRATED);
    k_lock_give();
    irq_global_restore(saved);
}

static int mig_args_ok(k_thread_t *t, unsigned tile, int method)
{
    return t && t->task && t->task->vif_slot >= 0 && tile != me() &&
           tile < tile_mesh_width() * tile_mesh_height() && method >= K_MIGRATE_PAUSE &&
           method <= K_MIGRATE_SOFTWARE;
}

/* The context of a migration that may start: the task's, for its method; K_OK, or why not (the
 * task is then left as it was). mig_lock is taken on K_OK. */
static int mig_begin(struct mig *c, k_thread_t *t, unsigned tile, int method)
{
    if (!mig_args_ok(t, tile, method) || !svc)
        return K_EINVAL;
    if (methods[method].needs_ps && !mcapix_ps_available())
        return K_ENOTSUP;
    if (t->task->migrating)
        return K_EBUSY;
    t->task->migrating = 1; /* no request of the task from now on: its records stay as listed */
    k_mutex_lock(&mig_lock);
    memset(c, 0, sizeof *c);
    c->t = t;
    c->tile = tile;
    c->method = method;
    c->m = &methods[method];
    for (uint32_t i = 0; i < MP_TASK_EPS; ++i)
        c->fwd[i] = -1;
    c->res.t_start = timer_now();
    c->c = cycles_now();
    return K_OK;
}

/* Software PS forwards channels only: a connection-less endpoint's senders are unknown. */
static int mig_method_fits(const struct mig *c)
{
    for (int i = 0; !c->m->needs_ps && i < c->n_eps; ++i)
        if (!c->infos[i].channel_recv && !c->infos[i].channel_send)
            return K_ENOTSUP;
    return K_OK;
}

/* Nothing changed for the task (phase II never reached the switch): undone, r returned (K_EINVAL
 * when the task ended meanwhile). */
static int mig_abort(struct mig *c, int r)
{
    k_thread_t *t = c->t;
    if (!t->task || t->state == KS_DEAD)
        r = K_EINVAL; /* it ended meanwhile */
    mig_undo(c);
    if (t->task)
        t->task->migrating = 0;
    k_mutex_unlock(&mig_lock);
    return r;
}

/* The task runs at the destination: phase III, the result. */
static int mig_finish(struct mig *c, int r, k_migrate_result_t *res)
{
    c->res.t_resume = timer_now();
    c->res.phase2_cycles = (uint32_t)(cycles_now() - c->c);
    const uint64_t c2 = cycles_now();
    mig_phase3(c);
    c->res.phase3_cycles = (uint32_t)(cycles_now() - c2);
    c->res.t_end = timer_now();
    c->res.tid = c->pd.tid;
    c->res.bytes_moved = c->bytes;
    c->res.vif_action = c->sw.vif.action;
    if (res)
        *res = c->res;
    k_mutex_unlock(&mig_lock);
    return r;
}

/* describe, prepare the destination, phase I, phase II (the switch), then phase III; a failure
 * before the switch undoes everything. */
int k_task_migrate(k_thread_t *t, unsigned tile, int method, k_migrate_result_t *res)
{
    static struct mig c; /* one migration from this tile at a time (mig_lock): kernel memory */
    int r = mig_begin(&c, t, tile, method);
    if (r != K_OK)
        return r;
    r = mig_describe(&c);
    if (r == K_OK)
        r = mig_method_fits(&c);
    if (r == K_OK)
        r = mig_prepare_destination(&c);
    if (r == K_OK)
        r = mig_phase1(&c);
    c.res.phase1_cycles = (uint32_t)(cycles_now() - c.c);
    c.c = cycles_now(); /* phase II from here */
    if (r == K_OK)
        r = mig_phase2(&c);
    else
        c.res.t_stop = timer_now();
    if (r != K_OK && !c.switch_sent)
        return mig_abort(&c, r);
    return mig_finish(&c, r, res);
}
