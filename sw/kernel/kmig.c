/* Task migration with NAMP-PS (thesis 3.6, Table 3.3; docs/kernel.md "Task migration").
 *
 * The source's kernel thread that calls k_task_migrate runs the three phases; the destination's
 * migration service builds and starts the task there; the services of the channel peers' tiles
 * suspend a sender (pausing) or move a receiver's credit path. The kernels talk with MCAPI messages
 * (port KMIG_PORT), the adapters with the NAMP-PS messages (RELOC, MIGRATE, NAK_RELOC), the task's
 * pages and buffer elements go by RDMA.
 *
 *   phase I (pre-migration): the destination builds the task (suspended): pages, endpoints on the
 *     same receive pages (a connection-less one held "full"), the endpoint table in the same order
 *     (so every vID stays), its vif. pause: every incoming channel's sender gives up its credits
 *     (it waits in CREDIT_WAIT), every connection-less endpoint is held. dualcast: every incoming
 *     channel's sender dualcasts (MIGRATE), the elements before that are copied ahead.
 *   phase II (switch-over): the task stops; its vif settles (a persistent wait is aborted and is
 *     started again at the destination); every outgoing channel's receiver moves its credit path
 *     to the destination's handle; every incoming channel's sender is switched (RELOC; pausing did
 *     it in phase I by taking the credits), the elements the destination lacks are copied; every
 *     connection-less endpoint becomes a tombstone (NAK_RELOC for late senders) once nothing is in
 *     flight; the pages are copied; the destination takes the registers and starts the task.
 *   phase III (post-migration): pausing switches the senders now and gives back their credits;
 *     the task's copy at the source ends (K_MIGRATED), its pages go back to the pool. */
#include <stddef.h>
#include <string.h>

#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "kinternal.h"
#include "kmig_swps.h"
#include "mcapi.h"
#include "mcapix_ps.h"
#include "mp/cbuffer.h"
#include "mp/task.h"
#include "na_registers.h"
#include "namp/namp.h"
#include "namp_ps.h"
#include "namp_structs.h"
#include "tile_memory_map.h"

#define KMIG_PORT 0x4B4Du         /* each tile's service */
#define KMIG_REPLY_PORT 0x4B4Eu   /* answers to this tile's migrations */
#define KMIG_MAX_PAGES 16u        /* data pages of a task */
#define KMIG_MAX_STACK 4u
#define KMIG_HANDLES 32u          /* handles the vIDs of arrived tasks name */
#define KMIG_PENDING 4u           /* tasks being built here */
#define KMIG_ARRIVALS 8u
#define KMIG_WAIT_US 20000u       /* a service's answer */
#define KMIG_PS_POLLS 200000u     /* a RELOC / MIGRATE report */
#define KMIG_STOP_TRIES 200u      /* ticks to catch the task outside a kernel wait */

enum km_type {
    KM_PREPARE = 1, KM_PREPARED, KM_SWITCH, KM_SWITCHED, KM_CANCEL, KM_CANCELLED,
    KM_SUSPEND, KM_SUSPENDED, KM_CREDIT_MOVE, KM_CREDIT_MOVED,
    /* software PS (kmig_swps.c) */
    KM_SW_REDIRECT, KM_SW_REDIRECTED, KM_SW_RESUME, KM_SW_RESUMED, KM_SW_CREDIT_PATH, KM_SW_CREDIT_PATH_MOVED,
};

struct km_et {                 /* one entry of the task's endpoint table */
    uint32_t kind;             /* NAMP_ET_* */
    union {
        struct { uint32_t tile, endpoint; };   /* HANDLE: where it sends */
        struct { uint32_t va, bytes; };        /* CCAREA: the task's collective area (its pages
                                                  move with it) */
    };
    uint32_t channel;          /* HANDLE of a channel's sending side (its words at the switch) */
    union {
        uint32_t ep;           /* CREDIT: the index (in km_prepare.ep) of its endpoint */
        uint32_t gather_flags; /* HANDLE of a gather part (flags: connected, the root's geometry) */
    };
};
struct km_ep {
    uint32_t idx, port, channel_recv, peer_node, peer_handle;
};
struct km_prepare {
    uint32_t data_size, stack_pages, prio, slot, method, n_et, n_ep;
    struct km_et et[K_VIF_ET_MAX];
    struct km_ep ep[MP_TASK_EPS];
};
struct km_prepared {
    uint32_t tid, n_data, n_stack;
    uint32_t data_pa[KMIG_MAX_PAGES], stack_pa[KMIG_MAX_STACK];
    uint32_t ep_hw[MP_TASK_EPS], ep_rx[MP_TASK_EPS];
    uint32_t et_handle[K_VIF_ET_MAX];
    uint32_t reply;            /* the destination's PS reply block (dualcast's switch report) */
};
struct km_in {                 /* an incoming channel at the switch */
    uint32_t rd, w, voids, credits;   /* w: first element the destination receives directly */
};
struct km_out {                /* an outgoing channel's handle words */
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
static k_mutex_t mig_lock;             /* one migration from this tile at a time */
static uint32_t seq_next = 1;
static struct km_msg out_msg, in_msg, svc_msg, svc_out;   /* kernel memory (not stacks) */

static namp_handle_t handles[KMIG_HANDLES] __attribute__((aligned(64)));
static struct {
    k_thread_t *t;
    uint32_t tid;
} handle_owner[KMIG_HANDLES];

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
static int redirect(mcapi_endpoint_t h, uint32_t tile, uint32_t addr)
{
    kmp_lock();
    mcapi_status_t st = mcapix_endpoint_redirect(h, tile, addr);
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

/* a credit slot on a credit path (a paused channel's credits given back) */
void kmig_give_credits(uint32_t credit_path, uint32_t n)
{
    kmp_lock();
    (void)run_slot(NAMP_FLAG_COM, credit_path, n);
    kmp_unlock();
}
/* the first element of a task's receive page */
static uint32_t data0(uint32_t rx) { return rx + MP_CB_HEADER_SIZE + (4u << MP_TASK_RX_N); }

/* A message to a tile's service (or a reply endpoint) and its answer. */
static int send_msg(mcapi_endpoint_t from, uint32_t tile, uint32_t port, struct km_msg *m, uint32_t bytes)
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
        if (r == K_OK)
            r = K_OK;   /* a stale answer: wait on */
    }
    return r == K_OK ? K_ETIMEDOUT : r;
}

static void answer(uint32_t tile, struct km_msg *m, uint32_t bytes)
{
    (void)send_msg(svc_ep, tile, KMIG_REPLY_PORT, m, bytes);
}

/* A NAMP-PS control message through a slot of the kernel's library; the report lands in `reply`
 * on reply_tile (a local block is then waited for). */
static int ps_request(uint32_t op, uint32_t tile, uint32_t handle, uint32_t new_tile, uint32_t new_ep,
                      uint32_t new_rdata, uint32_t reply_tile, volatile uint32_t *reply)
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
    for (uint32_t i = 0; i < KMIG_PS_POLLS; ++i) {
        const uint32_t st = reply[NAMP_PS_A_STATE / 4];
        if (st & NAMP_PS_DONE)
            return NAMP_STATUS_CODE(st) ? K_EINVAL : K_OK;
        if ((i & 63u) == 63u)
            k_sleep(0);   /* yield: the report arrives through this tile's adapter */
    }
    return K_ETIMEDOUT;
}

static uint32_t copy_to(uint32_t tile, uint32_t dst, const void *src, uint32_t bytes)
{
    return mp_rdma_put(tile, dst, src, bytes) == 0 ? bytes : 0u;
}

/* Elements [from, to) of a receive buffer (the source's copy) into the destination's buffer of the
 * same geometry (its data block dst_rx + header + sizes), at the same indices. */
/* Every element below `to` committed: the sender's handle says `to`, but a FINAL may still be on
 * its way (its slot is done once FINAL is sent; the suspend answer takes another channel and may
 * overtake it). K_ETIMEDOUT if one never comes. */
static int wait_committed(const mp_cbuffer_t *b, uint32_t to)
{
    const uint32_t mask = (1u << MP_TASK_RX_N) - 1u;
    const volatile uint32_t *sizes = (const volatile uint32_t *)((const uint8_t *)b + MP_CB_HEADER_SIZE);
    for (uint32_t tries = 0; tries < KMIG_PS_POLLS; ++tries) {
        /* the task may have read past `to` already (it runs until it stops): then nothing before
         * it is left to wait for (indices wrap: compared as distances) */
        uint32_t i = b->rd_idx;
        while ((int32_t)(to - i) > 0 && (sizes[i & mask] & MP_CB_COMMITTED))
            ++i;
        if ((int32_t)(to - i) <= 0)
            return K_OK;
        if ((tries & 63u) == 63u)
            k_sleep(0);
    }
    return K_ETIMEDOUT;
}

static uint32_t copy_elements(const mp_cbuffer_t *b, uint32_t from, uint32_t to, uint32_t tile, uint32_t dst_rx)
{
    const uint32_t n = MP_TASK_RX_N, m = MP_TASK_RX_M, mask = (1u << n) - 1u;
    const uint8_t *base = (const uint8_t *)b;
    uint32_t bytes = 0;
    for (uint32_t i = from; i != to; ++i) {
        const uint32_t k = i & mask;
        const uint32_t sw = ((const volatile uint32_t *)(base + MP_CB_HEADER_SIZE))[k];
        const uint32_t len = (sw & MP_CB_COMMITTED) && !(sw & MP_CB_VOID) ? sw & MP_CB_SIZE_MASK : 0u;
        if (len)
            bytes += copy_to(tile, dst_rx + MP_CB_HEADER_SIZE + (4u << n) + (k << m),
                             base + MP_CB_HEADER_SIZE + (4u << n) + (k << m), len);
        bytes += copy_to(tile, dst_rx + MP_CB_HEADER_SIZE + 4u * k, (const void *)(base + MP_CB_HEADER_SIZE + 4u * k), 4);
    }
    return bytes;
}

/* The first element the task still holds: a packet it received (the read index is past it) and
 * has not released yet is still committed, and its pointer names its slot in the receive page,
 * which the destination gets element by element: it is copied too. */
static uint32_t held_from(const mp_cbuffer_t *b, uint32_t to)
{
    const uint32_t cap = 1u << MP_TASK_RX_N, mask = cap - 1u;
    const volatile uint32_t *sizes = (const volatile uint32_t *)((const uint8_t *)b + MP_CB_HEADER_SIZE);
    uint32_t from = b->rd_idx;
    while (to - (from - 1u) <= cap && (sizes[(from - 1u) & mask] & MP_CB_COMMITTED))
        --from;
    return from;
}

/* A handle in kernel memory owned by task thread t (freed when it ends): vIDs of arrived tasks,
 * gather parts of tasks (kmp_task.c). */
namp_handle_t *kmig_handle_alloc(k_thread_t *t)
{
    for (uint32_t i = 0; i < KMIG_HANDLES; ++i)
        if (!handle_owner[i].t) {
            handle_owner[i].t = t;
            handle_owner[i].tid = t->id;
            memset(&handles[i], 0, sizeof handles[i]);
            return &handles[i];
        }
    return NULL;
}

/* The handles of a task that ended here (k_task_release). */
void kmig_task_release(k_thread_t *t)
{
    for (uint32_t i = 0; i < KMIG_HANDLES; ++i)
        if (handle_owner[i].t == t && handle_owner[i].tid == t->id)
            handle_owner[i].t = NULL;
}

static struct k_task *task_of(k_thread_t *t) { return t->task; }

/* A task built here runs only once its registers came: this entry is never reached. */
static void never_started(void *arg) { (void)arg; }

/* ---- the destination: build, switch, cancel ---- */

static void end_unstarted(k_thread_t *t)
{
    kmp_task_drop(t);
    kmig_task_release(t);
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
    k_task_image_t img = {"migrated", never_started, NULL, p->data_size, p->stack_pages, p->prio, 1};
    k_thread_t *t = k_task_create(&img);
    if (!t) {
        unclaim_vif_slot((unsigned)slot);
        return K_ENOMEM;
    }
    pending[z].t = t;
    pending[z].from = m->from;
    pending[z].seq = m->seq;
    pending[z].method = p->method;
    pending[z].p = *p;
    int r = K_OK;
    for (uint32_t i = 0; i < p->n_ep && r == K_OK; ++i) {
        struct kmp_task_ep_spec spec = {p->ep[i].idx, p->ep[i].port, !p->ep[i].channel_recv,
                                        p->ep[i].channel_recv, p->ep[i].peer_node, p->ep[i].peer_handle};
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
        }
    }
    /* the endpoint table in the same order: every vID the task holds stays what it was */
    for (uint32_t i = 0; i < p->n_et && r == K_OK; ++i) {
        const struct km_et *e = &p->et[i];
        int vid = K_EINVAL;
        pd->et_handle[i] = 0;
        if (e->kind == NAMP_ET_SENDBUF) {
            vid = k_vif_add_sendbuf(t, K_USER_DATA + offsetof(mp_task_state_t, tx),
                                    (uint32_t)mp_cbuffer_footprint(MP_TASK_TX_N, MP_TASK_TX_M));
        } else if (e->kind == NAMP_ET_HANDLE) {
            namp_handle_t *h = kmig_handle_alloc(t);
            if (h) {
                h->tile = e->tile;
                h->endpoint = e->endpoint;
                if (e->channel) {   /* the rest at the switch; dualcast block in its own words */
                    h->dualcast = (uint32_t)(uintptr_t)h + NAMP_H_RESERVED;
                    /* a channel's handle from the start: its receiver's credit path moves here
                     * before the switch, and the target takes credits only for a connected
                     * handle (it would refuse them, and the receiver's credit return fail) */
                    h->flags = NAMP_H_F_CONNECTED;
                }
                if (e->gather_flags) {   /* a gather part's: unlimited credits, no channel */
                    h->flags = e->gather_flags;
                    h->credits = 0xFFFFFFFFu;
                }
                pd->et_handle[i] = (uint32_t)(uintptr_t)h;
                vid = k_vif_add_handle(t, h);
                if (e->gather_flags && vid >= 0)
                    t->task->et_gather |= 1u << vid;
            }
        } else if (e->kind == NAMP_ET_CREDIT && e->ep < p->n_ep) {
            mcapix_endpoint_info_t info;
            if (inspect(pending[z].ep_h[e->ep], &info) == 0)
                vid = k_vif_add_credit(t, (const void *)info.credit_path);
        } else if (e->kind == NAMP_ET_CCAREA) {
            vid = k_vif_add_ccarea(t, e->va, e->bytes);
        }
        if (vid != (int)i)
            r = vid < 0 ? K_ENOMEM : K_EINVAL;
    }
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
        pd->stack_pa[i] = vm_user_range(task, K_USER_STACK_TOP - (pd->n_stack - i) * K_PAGE_SIZE, 1, PTE_R);
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

static int switch_task(uint32_t z, const struct km_switch *sw)
{
    k_thread_t *t = pending[z].t;
    struct k_task *task = task_of(t);
    const struct km_prepare *p = &pending[z].p;
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
        if (p->et[i].kind != NAMP_ET_HANDLE || !p->et[i].channel)
            continue;
        namp_handle_t *h = (namp_handle_t *)(uintptr_t)task->et[i][NAMP_ET_ADDR / 4];
        const struct km_out *o = &sw->out[i];
        h->rdata = o->rdata;
        h->wr_idx = o->wr_idx;
        h->sent = o->sent;
        h->flags = o->flags;
        const uint32_t loc[2] = {o->tile, o->endpoint};
        h->tile = loc[0];
        h->endpoint = loc[1];
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
        if (pending[z].method == K_MIGRATE_DUALCAST) {   /* the switch report came here */
            if (k_ps_wait(pending[z].reply) != K_OK)
                return K_ETIMEDOUT;
            w = pending[z].reply[NAMP_PS_A_WR_IDX / 4];
        }
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
    /* pausing: the senders are switched now and get their credits back */
    if (pending[z].method == K_MIGRATE_PAUSE)
        for (uint32_t i = 0; i < p->n_ep; ++i) {
            if (!p->ep[i].channel_recv)
                continue;
            mcapix_endpoint_info_t info;
            (void)inspect(pending[z].ep_h[i], &info);
            if (ps_request(NAMP_PS_OP_RELOC, p->ep[i].peer_node, p->ep[i].peer_handle, me(), info.endpoint,
                           data0(info.rx), me(), pending[z].reply) != K_OK)
                return K_ETIMEDOUT;
            if (sw->in[i].credits)
                kmig_give_credits(info.credit_path, sw->in[i].credits);
        }
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

/* ---- the peers of a channel ---- */

/* A sender of a paused channel gives up its credits: it waits in CREDIT_WAIT; the transfers that
 * had taken one end first. Answer: the handle's wr_idx and the credits taken.
 * The pausing baseline at the sender's tile: its handle's credits taken, then no slot of it under
 * way, READY included (a set-up step may have taken a credit before the swap and not yet written
 * wr_idx: the egress FSM's bus accesses take time); then wr_idx is where the stream stopped. */
int kmig_suspend_sender(uint32_t handle, uint32_t *w, uint32_t *taken)
{
    if ((handle & 3) || !handle)
        return K_EINVAL;
    volatile namp_handle_t *h = (volatile namp_handle_t *)(uintptr_t)handle;
    *taken = atomic_swap_u32(&h->credits, 0);
    const uint32_t n = mmio_read32(TILE_NA_BASE + NA_NAMP_SLOTS);
    for (uint32_t tries = 0; tries < KMIG_PS_POLLS; ++tries) {
        int busy = 0;
        for (uint32_t s = 0; s < n && !busy; ++s) {
            const uint32_t st = NAMP_STATUS_STATE(mmio_read32(TILE_NA_BASE + NA_NAMP_SLOT_BASE(s) + NAMP_SLOT_STATUS));
            busy = mmio_read32(TILE_NA_BASE + NA_NAMP_SLOT_BASE(s) + NAMP_SLOT_PARAM1) == handle &&
                   (st == NAMP_STATE_READY || st == NAMP_STATE_REQUEST || st == NAMP_STATE_RETRY || st == NAMP_STATE_DATA ||
                    st == NAMP_STATE_DMA || st == NAMP_STATE_FINALIZE);
        }
        if (!busy) {
            *w = h->wr_idx;
            return K_OK;
        }
        if ((tries & 63u) == 63u)
            k_sleep(0);
    }
    return K_ETIMEDOUT;
}

/* The receiving side of a channel whose sender moves: its credit path to the sender's new handle
 * (RELOC through this tile's adapter: a task's credit slot may read it any moment), and the
 * library's own view. CREDITs sent before have reached the old handle when this answers. */
/* The report goes to the migrating task's tile (reply_tile, reply): credits this tile sent to the
 * old handle before the switch travel the same path ahead of it, so once it is there they have
 * all arrived and the handle's credit count is final. */
static int move_credit_path(uint32_t ep_addr, uint32_t tile, uint32_t handle, uint32_t reply_tile,
                            uint32_t reply)
{
    kmp_lock();
    mcapi_endpoint_t e = mcapix_endpoint_by_addr(ep_addr);
    kmp_unlock();
    mcapix_endpoint_info_t info;
    if (!e || inspect(e, &info) != 0 || !info.channel_recv)
        return K_EINVAL;
    if (!reply || (reply & 3u))
        return K_EINVAL;
    int r = ps_request(NAMP_PS_OP_RELOC, me(), info.credit_path, tile, handle, 0, reply_tile,
                       (volatile uint32_t *)(uintptr_t)reply);
    if (r == K_OK)
        KMP((void)mcapix_chan_credit_path_moved(e, tile, handle));
    return r;
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
        svc_out.result = kmig_suspend_sender(m->u.w[0], &svc_out.u.w[0], &svc_out.u.w[1]);
        break;
    case KM_CREDIT_MOVE:
        svc_out.result = move_credit_path(m->u.w[0], m->u.w[1], m->u.w[2], m->from, m->u.w[3]);
        break;
    case KM_SW_REDIRECT:
        svc_out.result = kswps_redirect(m->u.w[0], m->u.w[1], m->u.w[2], m->u.w[3], &svc_out.u.w[0],
                                        &svc_out.u.w[1]);
        break;
    case KM_SW_RESUME:
        svc_out.result = kswps_resume(m->u.w[0], m->u.w[1]);
        break;
    case KM_SW_CREDIT_PATH:
        svc_out.result = kswps_move_credit_path(m->u.w[0], m->u.w[1], m->u.w[2]);
        break;
    default:
        return;
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
    return kswps_start(prio);   /* software PS's forwarder */
}

void k_migrate_service_stop(void)
{
    svc_stop = 1;
    kswps_stop();
}

/* ---- the source ---- */

static uint64_t cycles_now(void) { return cpu_cycles(); }

/* Describes task t for the destination. */
static int describe(k_thread_t *t, struct km_prepare *p, struct kmp_task_ep *eps, int *n_eps,
                    mcapix_endpoint_info_t *infos)
{
    struct k_task *task = task_of(t);
    p->data_size = task->data_pages * K_PAGE_SIZE;
    p->stack_pages = task->stack_pages;
    p->prio = task->prio;
    p->slot = (uint32_t)task->vif_slot;
    *n_eps = kmp_task_list(t, eps, MP_TASK_EPS);
    p->n_ep = (uint32_t)*n_eps;
    for (int i = 0; i < *n_eps; ++i) {
        if (inspect(eps[i].h, &infos[i]) != 0)
            return K_EINVAL;
        p->ep[i] = (struct km_ep){eps[i].idx, infos[i].port, infos[i].channel_recv, infos[i].peer_node,
                                  infos[i].peer_handle};
    }
    p->n_et = task->et_count;
    for (uint32_t i = 0; i < task->et_count; ++i) {
        struct km_et *e = &p->et[i];
        memset(e, 0, sizeof *e);
        e->kind = task->et[i][NAMP_ET_KIND / 4];
        const uint32_t a = task->et[i][NAMP_ET_ADDR / 4];
        if (e->kind == NAMP_ET_HANDLE) {
            const namp_handle_t *h = (const namp_handle_t *)(uintptr_t)a;
            e->tile = h->tile;
            e->endpoint = h->endpoint;
            if ((task->et_gather >> i) & 1u)
                e->gather_flags = h->flags;
            else
                e->channel = (h->flags & NAMP_H_F_CONNECTED) != 0;
        } else if (e->kind == NAMP_ET_CCAREA) {
            /* the area's task address: the data page that holds it (the pages move, the
             * addresses stay) */
            e->bytes = task->et[i][NAMP_ET_LIMIT / 4];
            for (uint32_t pg = 0; pg < task->data_pages && !e->va; ++pg)
                if (vm_user_range(task, K_USER_DATA + pg * K_PAGE_SIZE, 1, PTE_R) == (a & ~(K_PAGE_SIZE - 1u)))
                    e->va = K_USER_DATA + pg * K_PAGE_SIZE + (a & (K_PAGE_SIZE - 1u));
            if (!e->va)
                return K_EINVAL;   /* not in its data region: nothing to move it with */
        } else if (e->kind == NAMP_ET_CREDIT) {
            e->ep = MP_TASK_EPS;
            for (int k = 0; k < *n_eps; ++k)
                if (infos[k].credit_path == a)
                    e->ep = (uint32_t)k;
            if (e->ep == MP_TASK_EPS)
                return K_EINVAL;
        }
    }
    return K_OK;
}

/* Software PS, phase III: the sender's kernel switches it; the source forwards up to the stream's
 * end there; then the sender gets its credits back. */
static void kmig_sw_switch_sender(uint32_t node, uint32_t handle, uint32_t tile, uint32_t ep, uint32_t rdata, int f)
{
    out_msg.type = KM_SW_REDIRECT;
    out_msg.u.w[0] = handle;
    out_msg.u.w[1] = tile;
    out_msg.u.w[2] = ep;
    out_msg.u.w[3] = rdata;
    if (call(node, &out_msg, offsetof(struct km_msg, u) + sizeof out_msg.u.w, &in_msg) != K_OK) {
        kswps_cancel(f);
        return;
    }
    const uint32_t end = in_msg.u.w[0], taken = in_msg.u.w[1];
    (void)kswps_finish(f, end);
    out_msg.type = KM_SW_RESUME;
    out_msg.u.w[0] = handle;
    out_msg.u.w[1] = taken;
    (void)call(node, &out_msg, offsetof(struct km_msg, u) + sizeof out_msg.u.w, &in_msg);
}

static void cancel(uint32_t tile, uint32_t prep_seq)
{
    out_msg.type = KM_CANCEL;
    out_msg.result = (int32_t)prep_seq;
    (void)call(tile, &out_msg, offsetof(struct km_msg, u) + sizeof out_msg.u.w, &in_msg);
}

int k_task_migrate(k_thread_t *t, unsigned tile, int method, k_migrate_result_t *res)
{
    static struct kmp_task_ep eps[MP_TASK_EPS];
    static mcapix_endpoint_info_t infos[MP_TASK_EPS];
    static uint32_t reply[NAMP_PS_A_SIZE / 4] __attribute__((aligned(8)));
    static struct km_prepared pd;
    static struct km_in in[MP_TASK_EPS];
    if (!t || !t->task || t->task->vif_slot < 0 || tile == me() ||
        tile >= tile_mesh_width() * tile_mesh_height() || method < K_MIGRATE_PAUSE ||
        method > K_MIGRATE_SOFTWARE)
        return K_EINVAL;
    if (!svc)
        return K_EINVAL;
    if (method != K_MIGRATE_SOFTWARE && !mcapix_ps_available())
        return K_ENOTSUP;
    if (t->task->migrating)
        return K_EBUSY;
    t->task->migrating = 1;
    k_mutex_lock(&mig_lock);
    k_migrate_result_t r0 = {0};
    r0.t_start = timer_now();
    uint64_t c0 = cycles_now();
    int n_eps = 0, r = describe(t, &out_msg.u.p, eps, &n_eps, infos);
    const struct km_prepare *p = &out_msg.u.p;
    out_msg.u.p.method = (uint32_t)method;
    for (int i = 0; r == K_OK && method == K_MIGRATE_SOFTWARE && i < n_eps; ++i)
        if (!infos[i].channel_recv && !infos[i].channel_send)
            r = K_ENOTSUP;   /* software PS forwards channels only */
    static int fwd[MP_TASK_EPS];   /* software PS: the forwarding entries */
    uint32_t prep_seq = 0, bytes = 0;
    if (r == K_OK) {
        out_msg.type = KM_PREPARE;
        r = call(tile, &out_msg, sizeof out_msg, &in_msg);
        prep_seq = out_msg.seq;
        pd = in_msg.u.pd;
    }
    static struct km_prepare pk;
    pk = *p;
    /* phase I */
    int suspended = 0;
    for (int i = 0; r == K_OK && i < n_eps; ++i) {
        in[i] = (struct km_in){0, 0, 0, 0};
        fwd[i] = -1;
        if (!pk.ep[i].channel_recv) {
            if (method == K_MIGRATE_PAUSE)
                hold(eps[i].h, 1);
            continue;
        }
        if (method == K_MIGRATE_PAUSE) {
            out_msg.type = KM_SUSPEND;
            out_msg.u.w[0] = pk.ep[i].peer_handle;
            r = call(pk.ep[i].peer_node, &out_msg, offsetof(struct km_msg, u) + sizeof out_msg.u.w, &in_msg);
            in[i].w = in_msg.u.w[0];
            in[i].credits = in_msg.u.w[1];
            suspended = i + 1;
            if (r == K_OK)
                r = wait_committed((const mp_cbuffer_t *)(uintptr_t)infos[i].rx, in[i].w);
        } else if (method == K_MIGRATE_DUALCAST) {
            r = ps_request(NAMP_PS_OP_MIGRATE, pk.ep[i].peer_node, pk.ep[i].peer_handle, tile,
                           pd.ep_hw[i], data0(pd.ep_rx[i]), me(), reply);
            if (r == K_OK) {   /* the elements before the dualcast, copied ahead */
                const mp_cbuffer_t *b = (const mp_cbuffer_t *)(uintptr_t)infos[i].rx;
                const uint32_t wm = reply[NAMP_PS_A_WR_IDX / 4];
                in[i].w = wm;
                r = wait_committed(b, wm);
                if (r == K_OK)
                    bytes += copy_elements(b, held_from(b, wm), wm, tile, pd.ep_rx[i]);
            }
        } else if (method == K_MIGRATE_SOFTWARE) {   /* the source forwards from now on */
            const mp_cbuffer_t *b = (const mp_cbuffer_t *)(uintptr_t)infos[i].rx;
            if ((fwd[i] = kswps_forward(infos[i].rx, b->wr_idx, tile, pd.ep_rx[i])) < 0)
                r = K_ENOMEM;
        }
    }
    for (int i = 0; r == K_OK && method == K_MIGRATE_PAUSE && i < n_eps; ++i)
        for (int k = 0; k < 1000 && !pk.ep[i].channel_recv && inflight(eps[i].h); ++k)
            k_sleep(0);   /* allocations granted before the hold finish */
    r0.phase1_cycles = (uint32_t)(cycles_now() - c0);
    /* phase II */
    uint64_t c1 = cycles_now();
    static struct km_switch sw;
    memset(&sw, 0, sizeof sw);
    if (r == K_OK) {
        r = K_EBUSY;
        for (uint32_t k = 0; k < KMIG_STOP_TRIES && r == K_EBUSY; ++k)
            if ((r = k_task_stop(t, &sw.wake_at)) == K_EBUSY)
                k_sleep(1);
        r0.t_stop = timer_now();
        if (r == K_OK && (r = k_vif_save(t->task, &sw.vif)) != K_OK)
            k_task_unstop(t, sw.wake_at);
    }
    if (r != K_OK) {   /* nothing changed for the task yet: undo phase I */
        for (int i = 0; i < suspended; ++i)
            if (pk.ep[i].channel_recv && in[i].credits)
                kmig_give_credits(infos[i].credit_path, in[i].credits);
        for (int i = 0; i < n_eps; ++i)
            if (!pk.ep[i].channel_recv)
                hold(eps[i].h, 0);
            else if (method == K_MIGRATE_SOFTWARE)
                kswps_cancel(fwd[i]);
            else if (method == K_MIGRATE_DUALCAST && prep_seq)   /* dualcast ends */
                (void)ps_request(NAMP_PS_OP_RELOC, pk.ep[i].peer_node, pk.ep[i].peer_handle, me(),
                                 infos[i].endpoint, data0(infos[i].rx), me(), reply);
        if (prep_seq)
            cancel(tile, prep_seq);
        t->task->migrating = 0;
        k_mutex_unlock(&mig_lock);
        return r;
    }
    struct k_task *task = t->task;
    /* outgoing channels: the receiver's credit path to the new handle, then this handle's words */
    for (uint32_t i = 0; i < pk.n_et; ++i) {
        if (pk.et[i].kind != NAMP_ET_HANDLE || !pk.et[i].channel)
            continue;
        out_msg.type = method == K_MIGRATE_SOFTWARE ? KM_SW_CREDIT_PATH : KM_CREDIT_MOVE;
        out_msg.u.w[0] = pk.et[i].endpoint;
        out_msg.u.w[1] = tile;
        out_msg.u.w[2] = pd.et_handle[i];
        out_msg.u.w[3] = (uint32_t)(uintptr_t)reply;
        reply[NAMP_PS_A_STATE / 4] = 0;
        /* the receiver's credits sent before the move are here once the PS report is (software:
         * once its kernel's answer is, which follows them from that tile on the same channel) */
        if (call(pk.et[i].tile, &out_msg, offsetof(struct km_msg, u) + sizeof out_msg.u.w, &in_msg) == K_OK &&
            method != K_MIGRATE_SOFTWARE)
            (void)k_ps_wait(reply);
        const namp_handle_t *h = (const namp_handle_t *)(uintptr_t)task->et[i][NAMP_ET_ADDR / 4];
        sw.out[i] = (struct km_out){h->tile, h->endpoint, atomic_swap_u32((uint32_t *)&h->credits, 0),
                                    h->flags, h->sent, h->rdata, h->wr_idx};
    }
    /* incoming channels: switched (RELOC); what the destination lacks, copied */
    for (int i = 0; i < n_eps; ++i) {
        const mp_cbuffer_t *b = (const mp_cbuffer_t *)(uintptr_t)infos[i].rx;
        if (!pk.ep[i].channel_recv) {
            if (method != K_MIGRATE_SOFTWARE)
                (void)redirect(eps[i].h, tile, pd.ep_hw[i]);
            continue;
        }
        if (method == K_MIGRATE_RELOCATE) {
            (void)ps_request(NAMP_PS_OP_RELOC, pk.ep[i].peer_node, pk.ep[i].peer_handle, tile, pd.ep_hw[i],
                             data0(pd.ep_rx[i]), me(), reply);
            in[i].w = reply[NAMP_PS_A_WR_IDX / 4];
            (void)wait_committed(b, in[i].w);   /* FINALs precede the report on their channel */
        } else if (method == K_MIGRATE_PAUSE) {
            /* the task returned credits until it stopped: the sender may have used them; taken
             * again, now for good, and the stream's end is where the handle stands now */
            out_msg.type = KM_SUSPEND;
            out_msg.u.w[0] = pk.ep[i].peer_handle;
            if (call(pk.ep[i].peer_node, &out_msg, offsetof(struct km_msg, u) + sizeof out_msg.u.w, &in_msg) == K_OK) {
                in[i].w = in_msg.u.w[0];
                in[i].credits += in_msg.u.w[1];
            }
            (void)wait_committed(b, in[i].w);
        } else if (method == K_MIGRATE_DUALCAST) {   /* its report goes to the destination */
            (void)ps_request(NAMP_PS_OP_RELOC, pk.ep[i].peer_node, pk.ep[i].peer_handle, tile, pd.ep_hw[i],
                             data0(pd.ep_rx[i]), tile, (volatile uint32_t *)(uintptr_t)pd.reply);
        } else if (method == K_MIGRATE_SOFTWARE) {   /* synchronised; forwarded and copied */
            in[i].w = kswps_sync(fwd[i]);
        }
        in[i].rd = b->rd_idx;
        in[i].voids = b->voids;
        if (method != K_MIGRATE_DUALCAST && method != K_MIGRATE_SOFTWARE)
            bytes += copy_elements(b, held_from(b, in[i].w), in[i].w, tile, pd.ep_rx[i]);
        sw.in[i] = in[i];
        if (method == K_MIGRATE_DUALCAST)
            sw.in[i].w = 0;   /* the destination takes it from the report */
    }
    /* the pages, without the channels' receive pages (their elements went above) */
    for (uint32_t i = 0; i < pd.n_data; ++i) {
        const uint32_t va = K_USER_DATA + i * K_PAGE_SIZE;
        int chan_page = 0;
        for (int k = 0; k < n_eps; ++k)
            chan_page |= pk.ep[k].channel_recv &&
                         va == K_USER_DATA + offsetof(mp_task_state_t, rx) + pk.ep[k].idx * MP_TASK_PAGE;
        if (!chan_page)
            bytes += copy_to(tile, pd.data_pa[i], (const void *)vm_user_range(task, va, 1, PTE_R), K_PAGE_SIZE);
    }
    for (uint32_t i = 0; i < pd.n_stack; ++i)
        bytes += copy_to(tile, pd.stack_pa[i],
                         (const void *)vm_user_range(task, K_USER_STACK_TOP - (pd.n_stack - i) * K_PAGE_SIZE, 1, PTE_R),
                         K_PAGE_SIZE);
    sw.frame = *t->frame;
    out_msg.type = KM_SWITCH;
    out_msg.result = (int32_t)prep_seq;
    out_msg.u.sw = sw;
    r = call(tile, &out_msg, sizeof out_msg, &in_msg);
    r0.t_resume = timer_now();
    for (int i = 0; method == K_MIGRATE_SOFTWARE && i < n_eps; ++i)
        if (pk.ep[i].channel_recv)
            kswps_live(fwd[i]);   /* the forwarder moves the destination's write index now */
    r0.phase2_cycles = (uint32_t)(cycles_now() - c1);
    uint64_t c2 = cycles_now();
    /* phase III: the task's copy here ends; its endpoints stay as tombstones */
    for (int i = 0; i < n_eps; ++i)
        if (pk.ep[i].channel_recv) {   /* its one sender is switched: no tombstone needed */
            if (method == K_MIGRATE_SOFTWARE)
                kmig_sw_switch_sender(pk.ep[i].peer_node, pk.ep[i].peer_handle, tile, pd.ep_hw[i],
                                      data0(pd.ep_rx[i]), fwd[i]);
            else
                (void)redirect(eps[i].h, tile, pd.ep_hw[i]);
            KMP((void)mcapix_endpoint_retire(eps[i].h));
        }
    kmp_task_forget(t);
    uint32_t saved = irq_global_disable();
    k_lock_take();
    t->suspended = 0;
    k_thread_end(t, K_MIGRATED);
    k_lock_give();
    irq_global_restore(saved);
    r0.phase3_cycles = (uint32_t)(cycles_now() - c2);
    r0.t_end = timer_now();
    r0.tid = pd.tid;
    r0.bytes_moved = bytes;
    r0.vif_action = sw.vif.action;
    if (res)
        *res = r0;
    k_mutex_unlock(&mig_lock);
    return r;
}
