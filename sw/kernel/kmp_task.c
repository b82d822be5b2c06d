/* The kernel side of the MCAPI library in tasks (docs/kernel.md "MCAPI in tasks", mp/task.h).
 * A task's endpoint creation, deletion and lookups are requests: K_SYS_MP_REQ posts one (under the
 * kernel lock, in the trap handler) and gives the service semaphore; the service thread runs it
 * with the kernel's MCAPI library (KMP, may block) and stores the result; the task collects it
 * with K_SYS_MP_RES, sleeping a tick between tries. Sends never come here: they go through the
 * task's vif. */
#include <string.h>

#include "kernel/kmp.h"
#include "kinternal.h"
#include "mcapi.h"
#include "mcapix_ps.h"
#include "mp/cbuffer.h"
#include "mp/task.h"
#include "mp_internal.h"   /* the connected handle of a channel (struct mp_endpoint) */
#include "namp_structs.h"
#include "namp/namp.h"   /* the NAMP driver: slots the library must not use */

mcapi_endpoint_t mcapix_endpoint_create_in(mcapi_port_t port, const mcapix_endpoint_attributes_t *a,
                                           void *rx_mem, mcapi_status_t *status);

#define KMPT_REQS 8u
#define KMPT_EPS 16u

enum { RQ_FREE = 0, RQ_PENDING, RQ_BUSY, RQ_DONE };
struct kmpt_req {
    k_thread_t *t;
    uint32_t tid;
    uint32_t op, a1, a2;
    volatile int32_t result;
    volatile uint32_t state;
};
static struct kmpt_req reqs[KMPT_REQS];
/* Endpoints the service created for tasks: owner (thread, id) and the kernel's handle. */
static struct {
    k_thread_t *t;
    uint32_t tid;
    mcapi_endpoint_t h;
    uint32_t deleting;   /* deleted for a task that ended: waits to be reaped */
    uint32_t idx;        /* the task's endpoint index (its receive page) */
    int32_t credit_vid;  /* a channel's receiving side: the task's vID of its credit path, or -1 */
    uint32_t told_gone;  /* its sender closed the channel: the task was told, the path taken back */
} eps[KMPT_EPS];
/* Tasks that ended with endpoints: their address space waits here until the endpoints are
 * deleted and their receive pages quiet (no allocation in flight), then the service frees it. */
#define KMPT_ZOMBIES 8u
#define KMPT_ZOMBIE_TICKS 1000u   /* then the pages stay out of the pool for good (warned) */
static struct {
    struct k_task *task;
    k_thread_t *t;
    uint32_t tid, ticks;
} zombies[KMPT_ZOMBIES];
static k_sem_t service_sem;
static volatile uint32_t service_stop;
static k_thread_t *service;

/* The requesting task still exists (its slot not reused, not ended). */
static int owner_alive(const struct kmpt_req *r)
{
    return r->t->id == r->tid && r->t->task && r->t->state != KS_DEAD && r->t->state != KS_FREE;
}

static struct kmpt_req *req_of(k_thread_t *cur)
{
    for (uint32_t i = 0; i < KMPT_REQS; ++i)
        if (reqs[i].state != RQ_FREE && reqs[i].t == cur && reqs[i].tid == cur->id)
            return &reqs[i];
    return NULL;
}

/* Trap handler, kernel lock held. */
int32_t k_sys_mp_req(k_thread_t *cur, uint32_t op, uint32_t a1, uint32_t a2)
{
    if (!service || !cur->task)
        return K_ENOSYS;
    if (op < MP_TASK_OP_CREATE || op > MP_TASK_OP_LAST)
        return K_EINVAL;
    struct kmpt_req *r = req_of(cur);
    if (r && r->state != RQ_DONE)
        return K_EAGAIN;   /* one request at a time */
    for (uint32_t i = 0; !r && i < KMPT_REQS; ++i) {
        /* a finished request of a task that ended (killed) without collecting it is free again */
        if (reqs[i].state == RQ_DONE && !owner_alive(&reqs[i]))
            reqs[i].state = RQ_FREE;
        if (reqs[i].state == RQ_FREE)
            r = &reqs[i];
    }
    if (!r)
        return K_ENOMEM;
    r->t = cur;
    r->tid = cur->id;
    r->op = op;
    r->a1 = a1;
    r->a2 = a2;
    r->result = 0;
    smp_fence();
    r->state = RQ_PENDING;
    k_sys_sem_give(&service_sem);
    return K_OK;
}

int32_t k_sys_mp_res(k_thread_t *cur)
{
    struct kmpt_req *r = req_of(cur);
    if (!r)
        return K_EINVAL;
    if (r->state != RQ_DONE)
        return K_EAGAIN;
    int32_t res = r->result;
    r->state = RQ_FREE;
    return res;
}

static int owner_ok(uint32_t kid, const struct kmpt_req *r)
{
    return kid < KMPT_EPS && eps[kid].h && eps[kid].t == r->t && eps[kid].tid == r->tid;
}

/* Service thread side (no kernel lock; MCAPI under KMP). */
static int32_t run(struct kmpt_req *r)
{
    if (!owner_alive(r))   /* ended while its request waited: nothing to do for it */
        return MP_TASK_ERR(MCAPI_ERR_NODE_NOTINIT);
    struct k_task *task = r->t->task;
    mcapi_status_t st = MCAPI_ERR_GENERAL;
    switch (r->op) {
    case MP_TASK_OP_CREATE: {
        if (r->a2 >= MP_TASK_EPS)
            return MP_TASK_ERR(MCAPI_ERR_PARAMETER);
        uint32_t va = K_USER_DATA + offsetof(mp_task_state_t, rx) + r->a2 * MP_TASK_PAGE;
        uint32_t pa = vm_user_range(task, va, MP_TASK_PAGE, PTE_R | PTE_W);
        uint32_t kid = KMPT_EPS;
        for (uint32_t i = 0; i < KMPT_EPS && kid == KMPT_EPS; ++i)
            if (!eps[i].h)
                kid = i;
        if (!pa)
            return MP_TASK_ERR(MCAPI_ERR_MEM_LIMIT);
        if (kid == KMPT_EPS)
            return MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
        mcapix_endpoint_attributes_t a = {MP_TASK_RX_N, MP_TASK_RX_M, 0, MP_SEND_UNBUFFERED};
        mcapi_endpoint_t h;
        KMP(h = mcapix_endpoint_create_in(r->a1, &a, (void *)pa, &st));
        if (st != MCAPI_SUCCESS)
            return MP_TASK_ERR(st);
        eps[kid].t = r->t;
        eps[kid].tid = r->tid;
        eps[kid].h = h;
        eps[kid].idx = r->a2;
        eps[kid].deleting = 0;
        eps[kid].credit_vid = -1;
        eps[kid].told_gone = 0;
        return (int32_t)kid;
    }
    case MP_TASK_OP_DELETE:
        if (!owner_ok(r->a1, r) || eps[r->a1].deleting)
            return MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
        KMP(mcapi_endpoint_delete(eps[r->a1].h, &st));
        /* the page stays the task's: it may reuse it for a new endpoint once nothing is in
         * flight, so the entry is kept until the library has reaped the old one */
        eps[r->a1].deleting = 1;
        return st == MCAPI_SUCCESS ? 0 : MP_TASK_ERR(st);
    case MP_TASK_OP_CONNECT: {
        /* the remote endpoint by the vID the task holds: only a handle of its own table */
        if (!owner_ok(r->a1, r) || r->a2 >= task->et_count || task->et[r->a2][1] != NAMP_ET_HANDLE)
            return MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
        mcapi_endpoint_t remote = (mcapi_endpoint_t)task->et[r->a2][0];
        mcapi_request_t req;
        size_t sz;
        KMP(mcapi_pktchan_connect_i(eps[r->a1].h, remote, &req, &st));
        if (st == MCAPI_SUCCESS || st == MCAPI_PENDING)
            KMP(mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st));
        return st == MCAPI_SUCCESS ? 0 : MP_TASK_ERR(st);
    }
    case MP_TASK_OP_SEND_OPEN: {
        if (!owner_ok(r->a1, r))
            return MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
        mcapi_pktchan_send_hndl_t sh = NULL;
        mcapi_request_t req;
        size_t sz;
        KMP(mcapi_pktchan_send_open_i(&sh, eps[r->a1].h, &req, &st));
        if (st == MCAPI_SUCCESS || st == MCAPI_PENDING)
            KMP(mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st));
        if (st != MCAPI_SUCCESS || !sh)
            return MP_TASK_ERR(st == MCAPI_SUCCESS ? MCAPI_ERR_CHAN_INVALID : st);
        /* the task sends with CON through the channel's connected handle (credits, direct
         * element addressing), as the kernel's library does */
        int vid = k_vif_add_handle(r->t, &sh->peer_h);
        return vid >= 0 ? vid : MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
    }
    case MP_TASK_OP_RECV_OPEN: {
        if (!owner_ok(r->a1, r))
            return MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
        mcapi_pktchan_recv_hndl_t rh = NULL;
        mcapi_request_t req;
        size_t sz;
        KMP(mcapi_pktchan_recv_open_i(&rh, eps[r->a1].h, &req, &st));
        if (st == MCAPI_SUCCESS || st == MCAPI_PENDING)
            KMP(mcapi_wait(&req, &sz, MP_TASK_GET_TRY_US, &st));
        if (st == MCAPI_TIMEOUT) {   /* not connected yet: the task asks again */
            mcapi_status_t cs;
            KMP(mcapi_cancel(&req, &cs));
            return MP_TASK_ERR(MCAPI_TIMEOUT);
        }
        if (st != MCAPI_SUCCESS)
            return MP_TASK_ERR(st);
        /* the task returns the credits itself, through its vif (credit mode on this handle) */
        mcapix_endpoint_info_t info;
        int ok;
        KMP(ok = mcapix_endpoint_inspect(eps[r->a1].h, &info));
        int vid = ok == 0 ? k_vif_add_credit(r->t, (const void *)info.credit_path) : K_EINVAL;
        if (vid >= 0)
            eps[r->a1].credit_vid = vid;
        return vid >= 0 ? vid : MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
    }
    case MP_TASK_OP_GET: {
        mcapi_endpoint_t h;
        KMP(h = mcapi_endpoint_get(MCAPI_DOMAIN, r->a1, r->a2, MP_TASK_GET_TRY_US, &st));
        if (st != MCAPI_SUCCESS)
            return MP_TASK_ERR(st);
        int vid = k_vif_add_handle(r->t, h);
        return vid >= 0 ? vid : MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
    }
    case MP_TASK_OP_GATHER_HANDLE: {
        /* a gather part's own handle of the root (as the library builds it for bare metal):
         * connected, the root's element geometry, unlimited credits (the root's allocation
         * protects its buffer); kernel memory, so the task names it only by vID */
        if (r->a1 >= task->et_count || task->et[r->a1][NAMP_ET_KIND / 4] != NAMP_ET_HANDLE ||
            r->a2 < MP_CB_MIN_MSG_LOG2 || r->a2 > MP_CB_MAX_MSG_LOG2)
            return MP_TASK_ERR(MCAPI_ERR_PARAMETER);
        const namp_handle_t *root = (const namp_handle_t *)(uintptr_t)task->et[r->a1][NAMP_ET_ADDR / 4];
        namp_handle_t *h = kmig_handle_alloc(r->t);
        if (!h)
            return MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
        h->tile = root->tile;
        h->endpoint = root->endpoint;
        h->flags = NAMP_H_F_CONNECTED | NAMP_H_GEOMETRY(0, r->a2);
        h->credits = 0xFFFFFFFFu;
        int vid = k_vif_add_handle(r->t, h);
        if (vid < 0)
            return MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
        task->et_gather |= 1u << vid;   /* a migration rebuilds it as such (kmig.c) */
        return vid;
    }
    case MP_TASK_OP_CC_AREA: {
        int vid = k_vif_add_ccarea(r->t, r->a1, r->a2);
        return vid >= 0 ? vid : MP_TASK_ERR(vid == K_ENOMEM ? MCAPI_ERR_MEM_LIMIT : MCAPI_ERR_BUF_INVALID);
    }
    }
    return MP_TASK_ERR(MCAPI_ERR_NOT_SUPPORTED);
}

/* Trap context (k_task_release, kernel lock held): takes the address space of a task that ended
 * with endpoints. 1 taken (the service frees it), 0 the caller frees it now. */
int kmp_task_release(k_thread_t *t, struct k_task *task)
{
    int owns = 0;
    for (uint32_t i = 0; i < KMPT_EPS; ++i)
        if (eps[i].h && eps[i].t == t && eps[i].tid == t->id)
            owns = 1;
    if (!owns)
        return 0;
    for (uint32_t z = 0; z < KMPT_ZOMBIES; ++z)
        if (!zombies[z].task) {
            zombies[z].t = t;
            zombies[z].tid = t->id;
            zombies[z].ticks = 0;
            zombies[z].task = task;
            if (service)
                k_sys_sem_give(&service_sem);
            return 1;
        }
    console_puts("k: too many ended tasks with endpoints: pages stay out of the pool\n");
    return 1;   /* never freed while an adapter may write into them */
}

/* Service thread: frees a dead task's space when every one of its endpoints is reaped (they
 * were deleted by watch_peers once its slot was quiet). 1 when the zombie is gone. */
static int bury(uint32_t z)
{
    int quiet = 1;
    for (uint32_t i = 0; i < KMPT_EPS; ++i)
        if (eps[i].h && eps[i].t == zombies[z].t && eps[i].tid == zombies[z].tid)
            quiet = 0;   /* reap_deleted() frees the entry once the library released it */
    if (!quiet && ++zombies[z].ticks < KMPT_ZOMBIE_TICKS)
        return 0;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    extern int k_task_space_free(struct k_task * task);
    int freed = quiet && k_task_space_free(zombies[z].task);
    k_lock_give();
    irq_global_restore(saved);
    if (!freed && zombies[z].ticks < KMPT_ZOMBIE_TICKS)
        return 0;
    if (!freed)
        console_puts("k: ended task's endpoints never quiet: pages stay out of the pool\n");
    zombies[z].task = NULL;
    return 1;
}

/* ---- peers of killed tasks (docs/kernel.md "MCAPI in tasks", "A peer killed"). A task that
 * ends (killed or not) has its endpoints deleted as soon as its vif is quiet, not at its join:
 * senders to it get NO_ENDPOINT (MCAPI_ERR_ENDP_INVALID), a channel it received on is revoked
 * (the sender's NAMP fails CLOSED, MCAPI_ERR_CHAN_INVALID) and one it sent on is closed ("stopped"
 * to the receiver, whose receives end with MCAPI_ERR_CHAN_INVALID once empty). A live task whose
 * channel peer went away is told here too: the library cannot reach into its pages. */

/* The owner of eps[i]: 1 alive (*task its space), 0 ended (*task its space while the kernel
 * still holds it: not joined yet, or a zombie; NULL if already freed). Kernel lock held. */
static int ep_owner(uint32_t i, struct k_task **task)
{
    k_thread_t *t = eps[i].t;
    *task = NULL;
    if (t->id == eps[i].tid && t->task) {
        *task = t->task;
        return t->state != KS_DEAD && t->state != KS_FREE;
    }
    for (uint32_t z = 0; z < KMPT_ZOMBIES; ++z)
        if (zombies[z].task && zombies[z].t == t && zombies[z].tid == eps[i].tid)
            *task = zombies[z].task;
    return 0;
}

/* The task's vif runs no transfer now (a channel's "stopped" may go: a transfer started later
 * fails at its set-up on the revoked handle). */
static int vif_idle(const struct k_task *task)
{
    if (task->vif_slot < 0)
        return 1;
    const uint32_t f = mmio_read32(TILE_NA_BASE + NA_NAMP_SLOT_BASE((unsigned)task->vif_slot) +
                                   NAMP_SLOT_FLAGS);
    return !(f & NAMP_FLAG_VALID) || (f & NAMP_FLAG_DONE);
}

static void watch_peers(void)
{
    for (uint32_t i = 0; i < KMPT_EPS; ++i) {
        /* the migration thread may forget an entry meanwhile (its endpoint became a tombstone):
         * a copy of the handle, checked again under the lock */
        const mcapi_endpoint_t h = eps[i].h;
        if (!h || eps[i].deleting)
            continue;
        /* a look without locks first: this runs every tick beside the tasks' traffic */
        const k_thread_t *o = eps[i].t;
        const uint32_t hint = h->local ? h->local->flags : 0;
        const int ended = o->id != eps[i].tid || !o->task || o->state == KS_DEAD || o->state == KS_FREE;
        const int gone = (hint & MP_EPF_SENDER_GONE) && !eps[i].told_gone;
        const int stop = (hint & (MP_EPF_CHAN_SEND | MP_EPF_PEER_GONE | MP_EPF_STOP_SENT)) ==
                         (MP_EPF_CHAN_SEND | MP_EPF_PEER_GONE);
        if (!ended && !gone && !stop)
            continue;
        struct k_task *task;
        uint32_t saved = irq_global_disable();
        k_lock_take();
        if (eps[i].h != h) {
            k_lock_give();
            irq_global_restore(saved);
            continue;
        }
        const int alive = ep_owner(i, &task);
        const int quiet = task ? k_vif_quiet(task) : 1;
        const int idle = task ? vif_idle(task) : 1;
        k_lock_give();
        irq_global_restore(saved);
        if (!alive) {
            /* ended: once its slot's abort took effect nothing of it is under way, so the
             * deletion's "stopped" (channels it sent on) is true */
            if (quiet) {
                mcapi_status_t st;
                KMP(mcapi_endpoint_delete(h, &st));
                eps[i].deleting = 1;
            }
            continue;
        }
        kmp_lock();
        const struct mp_endpoint *ep = h->local;
        const uint32_t fl = ep && ep->state == MP_EP_READY ? ep->flags : 0;
        /* sending side of a revoked channel: "stopped" once the revoke is in the handle (later
         * starts fail CLOSED) and no transfer of the task is under way */
        const uint32_t hf = fl ? ((const namp_handle_t *)ep->peer_h.hw)->flags : 0;
        if ((fl & (MP_EPF_CHAN_SEND | MP_EPF_PEER_GONE | MP_EPF_STOP_SENT)) ==
                (MP_EPF_CHAN_SEND | MP_EPF_PEER_GONE) &&
            (hf & NAMP_H_F_REVOKED) && idle)
            mp_tr_chan_peer_gone((struct mp_endpoint *)ep);
        kmp_unlock();
        if ((fl & MP_EPF_SENDER_GONE) && !eps[i].told_gone) {
            /* receiving side, its sender closed: the task's receives end once empty; its credit
             * path names a handle that is not the channel's any more */
            struct mp_task_ctrl *c = kmp_task_ptr(eps[i].t, K_USER_DATA, sizeof *c);
            if (c && eps[i].idx < MP_TASK_EPS)
                c->ep[eps[i].idx].gone = 1;
            if (eps[i].credit_vid >= 0)
                (void)k_vif_clear_entry(eps[i].t, (uint32_t)eps[i].credit_vid);
            eps[i].told_gone = 1;
        }
    }
}

/* Entries of deleted endpoints are free again once the library has released their buffers. */
static void reap_deleted(void)
{
    for (uint32_t i = 0; i < KMPT_EPS; ++i) {
        if (!eps[i].h || !eps[i].deleting)
            continue;
        int reaped;
        KMP(reaped = mcapix_endpoint_reaped(eps[i].h));
        if (reaped) {
            eps[i].h = NULL;
            eps[i].deleting = 0;
        }
    }
}

static void service_main(void *arg)
{
    (void)arg;
    while (!service_stop) {
        watch_peers();
        reap_deleted();
        for (uint32_t z = 0; z < KMPT_ZOMBIES; ++z)
            if (zombies[z].task)
                (void)bury(z);
        if (k_sem_take(&service_sem, 1) != K_OK)
            continue;
        for (uint32_t i = 0; i < KMPT_REQS; ++i) {
            if (reqs[i].state != RQ_PENDING)
                continue;
            reqs[i].state = RQ_BUSY;
            int32_t res = run(&reqs[i]);
            reqs[i].result = res;
            smp_fence();
            reqs[i].state = RQ_DONE;
        }
    }
    service = NULL;
}

int kmp_task_service_start(uint32_t prio)
{
    if (service)
        return K_EINVAL;
    service_stop = 0;
    k_sem_init(&service_sem, 0);
    service = k_thread_create("kmp_task", service_main, NULL, prio, 0);
    return service ? K_OK : K_ENOMEM;
}

void kmp_task_service_stop(void) { service_stop = 1; }

void *kmp_task_ptr(k_thread_t *t, uint32_t va, uint32_t len)
{
    if (!t || !t->task)
        return NULL;
    return (void *)vm_user_range(t->task, va, len, PTE_R);
}

int kmp_task_diagnose(k_thread_t *t, kmp_task_diag_t *d)
{
    if (!t || !t->task || !d)
        return K_EINVAL;
    d->thread_state = t->state;
    d->suspended = t->suspended;
    d->wake_at = t->wake_at;
    d->vif_slot = t->task->vif_slot;
    d->vif_flags = d->vif_status = d->slot_flags = d->slot_status = 0;
    if (d->vif_slot >= 0) {
        const uint32_t base = TILE_NA_BASE + NA_NAMP_SLOT_BASE((unsigned)d->vif_slot);
        d->vif_flags = mmio_read32(base + NAMP_VIF_PAGE + NAMP_VIF_FLAGS);
        d->vif_status = mmio_read32(base + NAMP_VIF_PAGE + NAMP_VIF_STATUS);
        d->slot_flags = mmio_read32(base + NAMP_SLOT_FLAGS);
        d->slot_status = mmio_read32(base + NAMP_SLOT_STATUS);
    }
    const mp_cbuffer_t *tx = kmp_task_ptr(t, K_USER_DATA + offsetof(mp_task_state_t, tx), MP_CB_HEADER_SIZE);
    d->tx_rd = tx ? tx->rd_idx : 0;
    d->tx_wr = tx ? tx->wr_idx : 0;
    return K_OK;
}

int kmp_task_attach(k_thread_t *t, unsigned slot)
{
    if (!t || !t->task)
        return K_EINVAL;
    struct mp_task_ctrl *c = kmp_task_ptr(t, K_USER_DATA, sizeof *c);
    mp_cbuffer_t *tx = kmp_task_ptr(t, K_USER_DATA + offsetof(mp_task_state_t, tx), MP_TASK_PAGE);
    if (!c || !tx)
        return K_EINVAL;   /* the data region does not hold an mp_task_state_t */
    mp_cbuffer_init(tx, MP_TASK_TX_N, MP_TASK_TX_M, 0);
    int vid = k_vif_add_sendbuf(t, K_USER_DATA + offsetof(mp_task_state_t, tx),
                                (uint32_t)mp_cbuffer_footprint(MP_TASK_TX_N, MP_TASK_TX_M));
    if (vid < 0)
        return vid;
    /* the library must not use the task's slot: one it holds now is refused */
    int ok = k_vif_slot_known(slot);
    if (!ok)
        KMP(ok = namp_slot_claim(slot));
    if (!ok)
        return K_EBUSY;
    uint32_t vif = k_vif_attach(t, slot);
    if (!vif) {
        if (!k_vif_slot_known(slot))
            KMP(namp_slot_free(slot));
        return K_EINVAL;
    }
    memset(c, 0, sizeof *c);
    c->vif = vif;
    c->tx_vid = (uint32_t)vid;
    c->node = tile_id();
    c->timer_hz = timer_hz();
    smp_fence();
    c->magic = MP_TASK_MAGIC;
    return K_OK;
}

/* ---- task migration (kmig.c): a task's endpoints, listed at the source, rebuilt at the
 * destination, forgotten at the source (they became tombstones, not deleted) ---- */

int kmp_task_list(k_thread_t *t, struct kmp_task_ep *out, int max)
{
    int n = 0;
    for (uint32_t i = 0; i < KMPT_EPS && n < max; ++i)
        if (eps[i].h && !eps[i].deleting && eps[i].t == t && eps[i].tid == t->id) {
            out[n].kid = i;
            out[n].idx = eps[i].idx;
            out[n].h = eps[i].h;
            ++n;
        }
    return n;
}

int kmp_task_adopt(k_thread_t *t, const struct kmp_task_ep_spec *spec, mcapi_endpoint_t *h_out)
{
    if (!t || !t->task || spec->idx >= MP_TASK_EPS)
        return K_EINVAL;
    uint32_t va = K_USER_DATA + offsetof(mp_task_state_t, rx) + spec->idx * MP_TASK_PAGE;
    uint32_t pa = vm_user_range(t->task, va, MP_TASK_PAGE, PTE_R | PTE_W);
    uint32_t kid = KMPT_EPS;
    for (uint32_t i = 0; i < KMPT_EPS && kid == KMPT_EPS; ++i)
        if (!eps[i].h)
            kid = i;
    if (!pa || kid == KMPT_EPS)
        return K_ENOMEM;
    mcapix_endpoint_attributes_t a = {MP_TASK_RX_N, MP_TASK_RX_M, 0, MP_SEND_UNBUFFERED};
    mcapi_status_t st;
    mcapi_endpoint_t h;
    KMP(h = mcapix_endpoint_create_in(spec->port, &a, (void *)pa, &st));
    if (st != MCAPI_SUCCESS)
        return st == MCAPI_ERR_ENDP_EXISTS ? K_EBUSY : K_ENOMEM;
    if (spec->hold)   /* "full" until the task's pages are there */
        KMP((void)mcapix_endpoint_hold(h, 1));
    if (spec->channel_recv)
        KMP(st = mcapix_endpoint_adopt_recv(h, spec->peer_node, spec->peer_handle));
    eps[kid].t = t;
    eps[kid].tid = t->id;
    eps[kid].h = h;
    eps[kid].idx = spec->idx;
    eps[kid].deleting = 0;
    eps[kid].credit_vid = -1;   /* the task keeps its vIDs; a closed channel is not told here */
    eps[kid].told_gone = 0;
    *h_out = h;
    return st == MCAPI_SUCCESS ? (int)kid : K_EINVAL;
}

void kmp_task_forget(k_thread_t *t)
{
    for (uint32_t i = 0; i < KMPT_EPS; ++i)
        if (eps[i].h && eps[i].t == t && eps[i].tid == t->id) {
            eps[i].h = NULL;
            eps[i].deleting = 0;
        }
}

void kmp_task_drop(k_thread_t *t)
{
    for (uint32_t i = 0; i < KMPT_EPS; ++i)
        if (eps[i].h && eps[i].t == t && eps[i].tid == t->id && !eps[i].deleting) {
            mcapi_status_t st;
            KMP(mcapix_endpoint_discard(eps[i].h, &st));
            eps[i].deleting = 1;
        }
}
