/* The kernel side of the MCAPI library in tasks (docs/kernel.md "MCAPI in tasks", mp/task.h;
 * docs/security.md). A task's endpoint creation, deletion, lookups and channel set-up are
 * requests: K_SYS_MP_REQ posts one (under the kernel lock, in the trap handler) and gives the
 * service semaphore; the service thread runs it with the kernel's MCAPI library (KMP, may block,
 * every wait bounded) at no higher priority than the task's, and stores the result; the task
 * collects it with K_SYS_MP_RES, sleeping a tick between tries. Sends never come here: they go
 * through the task's vif.
 *
 * Every kernel object a task holds is in a record of its own (struct kmpt_task): its reserved
 * quota, its request, its endpoints (eps[]), its handles (handles[]: lookups, contributor
 * handles, the handles a migration rebuilt) and, in its k_task, what each vID of its endpoint
 * table is (et_rec). A request is checked against these records, never against words the task
 * can write; a record is freed only when every shared entry it held is back. */
#include <string.h>

#include "kernel/kmp.h"
#include "kinternal.h"
#include "mcapi.h"
#include "mcapix_ps.h"
#include "mp/cbuffer.h"
#include "mp/task.h"
#include "mp/kernel.h" /* the endpoint layout: the connected handle of a channel */
#include "namp_cc.h"
#include "namp_structs.h"
#include "namp/namp.h" /* the NAMP driver: slots the library must not use */
#include "namp/namp_regs.h"

#define KMPT_TASKS        K_MAX_THREADS
#define KMPT_EPS          16u
#define KMPT_ZOMBIE_TICKS 1000u  /* an ended task's pages then stay out of the pool (warned) */
#define KMPT_CONNECT_US   20000u /* a connect request: the receiver's tile answers by then */
#define NONE              0xFFu

enum { RQ_FREE = 0, RQ_PENDING, RQ_BUSY, RQ_DONE };
struct kmpt_req {
    uint32_t op, a1, a2;
    volatile int32_t result;
    volatile uint32_t state;
};
/* A task's record: from kmp_task_attach (or a migration's arrival) until everything it held is
 * back, also after the task ended (its address space waits here while its endpoints are reaped)
 * or left (its tombstones redirect its senders for K_TOMBSTONE_TICKS). */
enum { REC_FREE = 0, REC_LIVE, REC_ENDED, REC_LEFT };
static struct kmpt_task {
    k_thread_t *t;
    uint32_t tid, state;
    kmp_task_quota_t q;        /* reserved when the record was made */
    uint32_t n_eps, n_handles; /* in use */
    /* vIDs of its channels' handles inside its endpoints: counted
     * as handles (a migration makes them handles of the table) */
    uint32_t n_chans;
    struct kmpt_req req;
    struct k_task *space; /* ENDED: the address space, freed once every endpoint is reaped */
    uint32_t ticks;       /* ENDED: ticks waited for that */
} recs[KMPT_TASKS];
/* Kernel endpoints of tasks: the record, the library's handle, the task's endpoint index. */
static struct {
    int16_t rec;      /* -1: free */
    uint8_t idx;      /* the task's receive page (mp_task_state_t rx[idx]) */
    uint8_t deleting; /* deleted: waits for the library to reap it */
    mcapi_endpoint_t h;
    int32_t credit_vid;  /* a channel's receiving side: the task's vID of its credit path */
    uint32_t told_gone;  /* its sender closed the channel: the task was told */
    uint64_t tomb_until; /* a tombstone (the task moved on): buried then (mtime) */
    uint16_t gen;        /* counts the entry's uses: a decision to free it names the use */
} eps[KMPT_EPS];
/* Kernel handles of tasks (lookups, contributor handles, handles a migration rebuilt). */
static struct mp_ephandle handles[K_TASK_HANDLES] __attribute__((aligned(64)));
static int16_t handle_rec[K_TASK_HANDLES]; /* -1: free */
/* A handle that is the sending side of a migrated task's channel (kmig.c rebuild_entry) owes its
 * receiver the set-up protocol's "stopped": the library holds no endpoint for it that would send
 * it (stop_migrated_chans). CHAN: the task's; CLOSED: the task deleted the channel's endpoint, the
 * handle waits only for the "stopped"; STOPPED: sent. */
enum { HC_NONE = 0, HC_CHAN, HC_CLOSED, HC_STOPPED };
static uint8_t handle_chan[K_TASK_HANDLES];
static uint32_t reserved_eps, reserved_handles;
static k_sem_t service_sem;
static volatile uint32_t service_stop;
static k_thread_t *service;
static uint32_t service_prio, next_req;

/* ---- records ---- */

static int rec_index(const k_thread_t *t)
{
    for (uint32_t i = 0; t && i < KMPT_TASKS; ++i)
        if (recs[i].state == REC_LIVE && recs[i].t == t && recs[i].tid == t->id)
            return (int)i;
    return -1;
}

static int rec_alive(const struct kmpt_task *r)
{
    /* read once: the service thread asks without the kernel lock, and a task's end may free the
     * record (t = NULL) between two reads */
    k_thread_t *const t = *(k_thread_t *volatile const *)&r->t;
    return r->state == REC_LIVE && t && t->id == r->tid && t->task && t->state != KS_DEAD &&
           t->state != KS_FREE;
}

static const kmp_task_quota_t default_quota = {K_TASK_Q_EPS, K_TASK_Q_HANDLES};

/* A record with quota q reserved, for task t: its index, or K_ENOMEM (the tile's share of the
 * library's endpoints or of the handle table is reserved by other tasks), K_EINVAL. */
static int rec_admit(k_thread_t *t, const kmp_task_quota_t *q)
{
    if (!q)
        q = &default_quota;
    if (q->endpoints > MP_TASK_EPS || q->handles > K_TASK_HANDLES)
        return K_EINVAL;
    int free_rec = -1, r = K_ENOMEM;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    for (uint32_t i = 0; i < KMPT_TASKS && free_rec < 0; ++i)
        if (recs[i].state == REC_FREE)
            free_rec = (int)i;
    if (rec_index(t) >= 0)
        r = K_EINVAL;
    else if (free_rec >= 0 && reserved_eps + q->endpoints <= K_TASK_EP_SHARE &&
             reserved_handles + q->handles <= K_TASK_HANDLES) {
        struct kmpt_task *x = &recs[free_rec];
        memset(x, 0, sizeof *x);
        x->t = t;
        x->tid = t->id;
        x->q = *q;
        x->state = REC_LIVE;
        reserved_eps += q->endpoints;
        reserved_handles += q->handles;
        r = free_rec;
    }
    k_lock_give();
    irq_global_restore(saved);
    return r;
}

/* Kernel lock held. A record that holds nothing any more is free, its reservation back. */
static void rec_maybe_free(struct kmpt_task *x)
{
    if (x->state == REC_FREE || x->state == REC_LIVE || x->n_eps || x->n_handles || x->space ||
        x->req.state == RQ_BUSY)
        return;
    reserved_eps -= x->q.endpoints;
    reserved_handles -= x->q.handles;
    x->state = REC_FREE;
    x->t = NULL;
}

static void locked(void (*fn)(void *), void *arg)
{
    uint32_t saved = irq_global_disable();
    k_lock_take();
    fn(arg);
    k_lock_give();
    irq_global_restore(saved);
}

/* ---- handles ---- */

/* A handle charged to record ri (kernel lock taken here); NULL when its quota or the table is
 * used up. */
static struct mp_ephandle *handle_alloc(int ri)
{
    struct mp_ephandle *h = NULL;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    if (ri >= 0 && recs[ri].n_handles + recs[ri].n_chans < recs[ri].q.handles)
        for (uint32_t i = 0; i < K_TASK_HANDLES && !h; ++i)
            if (handle_rec[i] < 0) {
                handle_rec[i] = (int16_t)ri;
                recs[ri].n_handles++;
                h = &handles[i];
                memset(h, 0, sizeof *h);
            }
    k_lock_give();
    irq_global_restore(saved);
    return h;
}

static int handle_index(const void *hw)
{
    const uintptr_t a = (uintptr_t)hw, base = (uintptr_t)handles;
    if (a < base || a >= base + sizeof handles || (a - base) % sizeof handles[0])
        return -1;
    return (int)((a - base) / sizeof handles[0]);
}

/* Kernel lock held. */
static void handle_free(int i)
{
    if (i < 0 || i >= (int)K_TASK_HANDLES || handle_rec[i] < 0)
        return;
    struct kmpt_task *x = &recs[handle_rec[i]];
    handle_rec[i] = -1;
    handle_chan[i] = HC_NONE;
    x->n_handles--;
    rec_maybe_free(x);
}

/* Kernel lock held. Record ri's handles back, but for a migrated channel's that still owes its
 * receiver the "stopped" (stop_migrated_chans frees or releases it). */
static void handles_free_of(int ri)
{
    for (uint32_t i = 0; i < K_TASK_HANDLES; ++i)
        if (handle_rec[i] == ri && handle_chan[i] != HC_CHAN && handle_chan[i] != HC_CLOSED)
            handle_free((int)i);
}

/* ---- the endpoint table's records (kernel lock held) ---- */

/* An entry of record ri's task and its record, in one step under the kernel lock: a task that
 * ended meanwhile (its thread slot perhaps another task's by now) gets nothing. */
static int table_add(int ri, uint32_t kind, const void *hw, uint32_t obj, uint32_t kid, int handle)
{
    const struct k_et_rec rec = {(uint8_t)obj, (uint8_t)kid,
                                 (uint8_t)(handle < 0 ? NONE : (uint32_t)handle), 0};
    return k_vif_add_owned(recs[ri].t, recs[ri].tid, kind, (uint32_t)(uintptr_t)hw, NAMP_H_SIZE,
                           &rec);
}

/* The vIDs that belong to endpoint kid (its channel's handle, its credit path, contributor
 * handles carrying its key) are taken back, their handles freed: the endpoint is gone, and the
 * library entry that held them may be another endpoint's soon. Kernel lock held. */
static void forget_endpoint_vids(struct k_task *task, uint32_t kid)
{
    for (uint32_t v = 0; task && v < task->et_count && v < K_VIF_ET_MAX; ++v) {
        struct k_et_rec *e = &task->et_rec[v];
        if (e->obj == K_ETO_NONE || e->kid != kid)
            continue;
        task->et[v][NAMP_ET_KIND / 4] = NAMP_ET_EMPTY;
        task->et[v][NAMP_ET_ADDR / 4] = 0;
        if (e->handle != NONE && handle_chan[e->handle] == HC_CHAN)
            handle_chan[e->handle] = HC_CLOSED; /* freed once its "stopped" went */
        else if (e->handle != NONE)
            handle_free(e->handle);
        else if (e->obj == K_ETO_CHAN && eps[kid].rec >= 0 && recs[eps[kid].rec].n_chans)
            recs[eps[kid].rec].n_chans--;
        *e = (struct k_et_rec){K_ETO_NONE, NONE, NONE, 0};
    }
}

/* ---- requests ---- */

/* Trap handler, kernel lock held. */
int32_t k_sys_mp_req(k_thread_t *cur, trap_frame_t *f)
{
    const uint32_t op = f->regs[REG_A0], a1 = f->regs[REG_A1], a2 = f->regs[REG_A2];
    if (!service || !cur->task)
        return K_ENOSYS;
    const int ri = rec_index(cur);
    if (ri < 0)
        return K_ENOSYS; /* not set up with kmp_task_attach */
    if (op < MP_TASK_OP_CREATE || op > MP_TASK_OP_LAST)
        return K_EINVAL;
    struct kmpt_req *r = &recs[ri].req;
    /* one request at a time; none while the task is being moved (its records are copied) */
    if ((r->state != RQ_FREE && r->state != RQ_DONE) || cur->task->migrating)
        return K_EAGAIN;
    r->op = op;
    r->a1 = a1;
    r->a2 = a2;
    r->result = 0;
    smp_fence();
    r->state = RQ_PENDING;
    k_sys_sem_give(&service_sem);
    return K_OK;
}

int32_t k_sys_mp_res(k_thread_t *cur, trap_frame_t *f)
{
    (void)f;
    const int ri = rec_index(cur);
    if (ri < 0 || recs[ri].req.state == RQ_FREE)
        return K_EINVAL;
    if (recs[ri].req.state != RQ_DONE)
        return K_EAGAIN;
    recs[ri].req.state = RQ_FREE;
    return recs[ri].req.result;
}

static int owner_ok(uint32_t kid, int ri)
{
    return kid < KMPT_EPS && eps[kid].h && eps[kid].rec == ri && !eps[kid].deleting &&
           !eps[kid].tomb_until;
}

/* The record of vID v of the task: its kind, else K_ETO_NONE. */
static const struct k_et_rec *vid_rec(const struct k_task *task, uint32_t v)
{
    static const struct k_et_rec none = {K_ETO_NONE, NONE, NONE, 0};
    return v < task->et_count && v < K_VIF_ET_MAX ? &task->et_rec[v] : &none;
}

/* The lookup handle behind vID v (a K_ETO_LOOKUP), or NULL. */
static struct mp_ephandle *lookup_of(const struct k_task *task, uint32_t v)
{
    const struct k_et_rec *e = vid_rec(task, v);
    return e->obj == K_ETO_LOOKUP && e->handle != NONE ? &handles[e->handle] : NULL;
}

static int kernel_port(uint32_t port)
{
    return port >= K_PORT_KERNEL_FIRST && port <= K_PORT_KERNEL_LAST;
}

static void ep_entry_free_locked(void *arg);
/* Entry i in its current use, for ep_entry_free_locked: the service thread decides to free an
 * entry (a tombstone expired, a deleted endpoint reaped) outside the kernel lock, and meanwhile a
 * migration's thread may free the entry and fill it again for a new endpoint, whose library
 * endpoint may even sit in the same slot (the same handle). The free names the use it decided
 * on and leaves a later one alone (docs/security.md row 18). */
static void *ep_ref(uint32_t i) { return (void *)(uintptr_t)(i | (uint32_t)eps[i].gen << 8); }

/* The tombstone that would expire first is buried now: its entry is wanted for a new endpoint
 * (a task that moves often leaves tombstones faster than they expire). A sender that still
 * holds it is answered NO_ENDPOINT and looks the port up again. 1 if there was one. */
static int bury_oldest_tombstone(void)
{
    int oldest = -1;
    for (uint32_t i = 0; i < KMPT_EPS; ++i)
        if (eps[i].h && eps[i].tomb_until &&
            (oldest < 0 || eps[i].tomb_until < eps[oldest].tomb_until))
            oldest = (int)i;
    if (oldest < 0)
        return 0;
    void *const ref = ep_ref((uint32_t)oldest);
    KMP((void)mcapix_endpoint_bury(eps[oldest].h));
    locked(ep_entry_free_locked, ref);
    return 1;
}

/* A record for a task, tombstones buried (oldest first) while its reservation does not fit: a
 * tombstone only spares a sender a lookup, a task is worth more. */
/* The module in use (its first record or the service's start): the core's hook for a task's end
 * and the tasks' request calls (K_ENOSYS until then). */
static const struct k_mp_task_hooks hooks = {.task_release = kmp_task_release};
static void use_module(void)
{
    k_hooks.mp_task = &hooks;
    k_syscall_set(K_SYS_MP_REQ, k_sys_mp_req);
    k_syscall_set(K_SYS_MP_RES, k_sys_mp_res);
}

static int admit(k_thread_t *t, const kmp_task_quota_t *q)
{
    use_module();
    int ri;
    while ((ri = rec_admit(t, q)) == K_ENOMEM && bury_oldest_tombstone())
        ;
    return ri;
}

/* A kernel endpoint on a task's receive page (caller memory), a tombstone buried for it if the
 * tables are full. */
static mcapi_endpoint_t create_in(uint32_t port, uint32_t pa, mcapi_status_t *st)
{
    static const mcapix_endpoint_attributes_t a = {MP_TASK_RX_N, MP_TASK_RX_M, 0,
                                                   MP_SEND_UNBUFFERED};
    mcapi_endpoint_t h;
    for (int again = 1;; again = 0) {
        KMP(h = mcapix_endpoint_create_in(port, &a, (void *)pa, st));
        if (*st != MCAPI_ERR_ENDP_LIMIT || !again || !bury_oldest_tombstone())
            return h;
    }
}

/* A free entry of eps[], a tombstone buried for it if none is; KMPT_EPS when none. */
static uint32_t free_kid(void)
{
    for (int again = 1;; again = 0) {
        for (uint32_t i = 0; i < KMPT_EPS; ++i)
            if (!eps[i].h)
                return i;
        if (!again || !bury_oldest_tombstone())
            return KMPT_EPS;
    }
}

static int32_t op_create(int ri, const struct kmpt_req *r, struct k_task *task)
{
    if (r->a2 >= MP_TASK_EPS)
        return MP_TASK_ERR(MCAPI_ERR_PARAMETER);
    if (kernel_port(r->a1))
        return MP_TASK_ERR(MCAPI_ERR_PORT_INVALID);
    /* one kernel endpoint per receive page, live or still being reaped: two endpoints on one page
     * would share its buffer, and a migration moves one page per endpoint */
    for (uint32_t i = 0; i < KMPT_EPS; ++i)
        if (eps[i].h && eps[i].rec == ri && eps[i].idx == r->a2)
            return MP_TASK_ERR(eps[i].deleting ? MCAPI_ERR_ENDP_LIMIT : MCAPI_ERR_ENDP_EXISTS);
    if (recs[ri].n_eps >= recs[ri].q.endpoints)
        return MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
    const uint32_t va = K_USER_DATA + offsetof(mp_task_state_t, rx) + r->a2 * MP_TASK_PAGE;
    const uint32_t pa = vm_user_range(task, va, MP_TASK_PAGE, PTE_R | PTE_W);
    const uint32_t kid = free_kid();
    if (!pa)
        return MP_TASK_ERR(MCAPI_ERR_MEM_LIMIT);
    if (kid == KMPT_EPS)
        return MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
    mcapi_status_t st;
    mcapi_endpoint_t h = create_in(r->a1, pa, &st);
    if (st != MCAPI_SUCCESS)
        return MP_TASK_ERR(st);
    eps[kid].rec = (int16_t)ri;
    eps[kid].idx = (uint8_t)r->a2;
    eps[kid].deleting = 0;
    eps[kid].credit_vid = -1;
    eps[kid].told_gone = 0;
    eps[kid].tomb_until = 0;
    eps[kid].gen++;
    eps[kid].h = h;
    recs[ri].n_eps++;
    return (int32_t)kid;
}

static void forget_vids_locked(void *arg)
{
    const uint32_t kid = (uint32_t)(uintptr_t)arg;
    const int ri = eps[kid].rec;
    if (ri >= 0 && recs[ri].t && recs[ri].t->id == recs[ri].tid)
        forget_endpoint_vids(recs[ri].t->task, kid);
}

static int32_t op_delete(int ri, const struct kmpt_req *r)
{
    if (!owner_ok(r->a1, ri))
        return MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
    locked(forget_vids_locked, (void *)(uintptr_t)r->a1);
    mcapi_status_t st;
    KMP(mcapi_endpoint_delete(eps[r->a1].h, &st));
    /* the page stays the task's: it may reuse it for a new endpoint once nothing is in flight,
     * so the entry is kept until the library has reaped the old one */
    eps[r->a1].deleting = 1;
    return st == MCAPI_SUCCESS ? 0 : MP_TASK_ERR(st);
}

static int32_t op_connect(int ri, const struct kmpt_req *r, struct k_task *task)
{
    /* the remote endpoint by the vID the task holds: only a lookup of its own */
    struct mp_ephandle *remote = lookup_of(task, r->a2);
    if (!owner_ok(r->a1, ri) || !remote)
        return MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
    mcapi_status_t st;
    KMP(mcapix_pktchan_connect_for_task(eps[r->a1].h, remote, KMPT_CONNECT_US, &st));
    return st == MCAPI_SUCCESS ? 0 : MP_TASK_ERR(st);
}

static int32_t op_send_open(int ri, const struct kmpt_req *r)
{
    if (!owner_ok(r->a1, ri))
        return MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
    /* the quota first: a channel opened and then refused its vID would stay open, unusable,
     * until the endpoint goes (the subset has no close) */
    if (recs[ri].n_handles + recs[ri].n_chans >= recs[ri].q.handles)
        return MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
    mcapi_pktchan_send_hndl_t sh = NULL;
    mcapi_request_t req;
    size_t sz;
    mcapi_status_t st;
    KMP(mcapi_pktchan_send_open_i(&sh, eps[r->a1].h, &req, &st));
    if (st == MCAPI_SUCCESS || st == MCAPI_PENDING)
        KMP(mcapi_wait(&req, &sz, MP_TASK_GET_TRY_US, &st));
    if (st != MCAPI_SUCCESS || !sh)
        return MP_TASK_ERR(st == MCAPI_SUCCESS ? MCAPI_ERR_CHAN_INVALID : st);
    /* the task sends with CON through the channel's connected handle (credits, direct element
     * addressing), as the kernel's library does; the vID goes when the endpoint goes */
    int vid = table_add(ri, NAMP_ET_HANDLE, &sh->peer_h, K_ETO_CHAN, r->a1, -1);
    if (vid >= 0)
        recs[ri].n_chans++;
    return vid >= 0 ? vid : MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
}

static int32_t op_recv_open(int ri, const struct kmpt_req *r)
{
    if (!owner_ok(r->a1, ri))
        return MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
    mcapi_pktchan_recv_hndl_t rh = NULL;
    mcapi_request_t req;
    size_t sz;
    mcapi_status_t st;
    KMP(mcapi_pktchan_recv_open_i(&rh, eps[r->a1].h, &req, &st));
    if (st == MCAPI_SUCCESS || st == MCAPI_PENDING)
        KMP(mcapi_wait(&req, &sz, MP_TASK_GET_TRY_US, &st));
    if (st == MCAPI_TIMEOUT) { /* not connected yet: the task asks again */
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
    int vid = ok == 0 ? table_add(ri, NAMP_ET_CREDIT, (const void *)info.credit_path, K_ETO_CREDIT,
                                  r->a1, -1)
                      : K_EINVAL;
    if (vid >= 0)
        eps[r->a1].credit_vid = vid;
    return vid >= 0 ? vid : MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
}

static void free_handle_locked(void *h) { handle_free(handle_index(h)); }

static int32_t op_get(int ri, const struct kmpt_req *r)
{
    if (kernel_port(r->a2))
        return MP_TASK_ERR(MCAPI_ERR_PORT_INVALID);
    /* into a handle of the task's own (its quota): the library's shared table is never touched,
     * and a lookup that fails gives its entry back at once */
    struct mp_ephandle *h = handle_alloc(ri);
    if (!h)
        return MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
    mcapi_status_t st;
    KMP(st = mcapix_endpoint_lookup(r->a1, r->a2, MP_TASK_GET_TRY_US, h));
    if (st == MCAPI_ERR_ENDP_INVALID)
        st = MCAPI_TIMEOUT; /* not there (yet): the task's library tries again until its timeout */
    int vid = st == MCAPI_SUCCESS
                  ? table_add(ri, NAMP_ET_HANDLE, h->hw, K_ETO_LOOKUP, NONE, handle_index(h))
                  : K_EINVAL;
    if (vid < 0) {
        locked(free_handle_locked, h);
        return MP_TASK_ERR(st == MCAPI_SUCCESS ? MCAPI_ERR_ENDP_LIMIT : st);
    }
    return vid;
}

/* A contributor's handle of a reduction or gather root (as the library builds it for bare metal):
 * the root's location and identity from the task's lookup (a1 = its vID), the key of the task's
 * own sending endpoint (a2 [7:0] = its kernel index), for a gather the root's geometry from the
 * lookup (a2 [15:8] = the element log2 the task claims: it must be the root's) with unlimited
 * credits (the root's allocation protects its buffer). Kernel memory; the vif takes it as the
 * member of a reduction or gather only (NAMP_ET_MEMBER). */
static int32_t op_member_handle(int ri, const struct kmpt_req *r, struct k_task *task)
{
    const uint32_t kid = r->a2 & 0xFFu, claim = (r->a2 >> 8) & 0xFFu, kind = (r->a2 >> 16) & 0xFFu;
    const struct mp_ephandle *root = lookup_of(task, r->a1);
    if (!root || !owner_ok(kid, ri) || (kind != NAMP_CC_K_REDUCE && kind != NAMP_CC_K_GATHER))
        return MP_TASK_ERR(MCAPI_ERR_PARAMETER);
    const uint32_t m = (root->geometry >> 8) & 0xFFu;
    if (kind == NAMP_CC_K_GATHER && claim != m)
        return MP_TASK_ERR(MCAPI_ERR_PARAMETER); /* the root's elements are not that size */
    mcapix_endpoint_info_t own;
    int ok;
    KMP(ok = mcapix_endpoint_inspect(eps[kid].h, &own));
    struct mp_ephandle *h = ok == 0 ? handle_alloc(ri) : NULL;
    if (!h)
        return MP_TASK_ERR(ok == 0 ? MCAPI_ERR_ENDP_LIMIT : MCAPI_ERR_ENDP_INVALID);
    *h = *root;
    namp_handle_t *x = (namp_handle_t *)h->hw;
    x->key_tile = tile_id();
    x->key_id = own.id;
    if (kind == NAMP_CC_K_GATHER) {
        x->flags = NAMP_H_F_CONNECTED | NAMP_H_GEOMETRY(0, m);
        x->credits = 0xFFFFFFFFu;
    }
    int vid = table_add(ri, NAMP_ET_MEMBER, h->hw, K_ETO_MEMBER, kid, handle_index(h));
    if (vid < 0) {
        locked(free_handle_locked, h);
        return MP_TASK_ERR(MCAPI_ERR_ENDP_LIMIT);
    }
    return vid;
}

static int32_t op_cc_area(int ri, const struct kmpt_req *r, const struct k_task *task)
{
    const uint32_t pa = k_vif_ccarea_pa(task, r->a1, r->a2);
    const struct k_et_rec rec = {K_ETO_CCAREA, NONE, NONE, 0};
    int vid =
        pa ? k_vif_add_owned(recs[ri].t, recs[ri].tid, NAMP_ET_CCAREA, pa, r->a2, &rec) : K_EINVAL;
    return vid >= 0 ? vid
                    : MP_TASK_ERR(vid == K_ENOMEM ? MCAPI_ERR_MEM_LIMIT : MCAPI_ERR_BUF_INVALID);
}

/* Service thread side (no kernel lock; MCAPI under KMP; every wait bounded). */
static int32_t run(int ri)
{
    const struct kmpt_req *r = &recs[ri].req;
    if (!rec_alive(&recs[ri])) /* ended while its request waited: nothing to do for it */
        return MP_TASK_ERR(MCAPI_ERR_NODE_NOTINIT);
    struct k_task *task = recs[ri].t->task;
    switch (r->op) {
    case MP_TASK_OP_CREATE: return op_create(ri, r, task);
    case MP_TASK_OP_DELETE: return op_delete(ri, r);
    case MP_TASK_OP_CONNECT: return op_connect(ri, r, task);
    case MP_TASK_OP_SEND_OPEN: return op_send_open(ri, r);
    case MP_TASK_OP_RECV_OPEN: return op_recv_open(ri, r);
    case MP_TASK_OP_GET: return op_get(ri, r);
    case MP_TASK_OP_MEMBER_HANDLE: return op_member_handle(ri, r, task);
    case MP_TASK_OP_CC_AREA: return op_cc_area(ri, r, task);
    }
    return MP_TASK_ERR(MCAPI_ERR_NOT_SUPPORTED);
}

/* ---- a task's end ---- */

/* Trap context (k_task_release, kernel lock held): takes the address space of a task that ended
 * with endpoints; its handles and its record go when nothing of it is in flight any more. 1
 * taken (the service frees it), 0 the caller frees it now. */
int kmp_task_release(k_thread_t *t, struct k_task *task)
{
    const int ri = rec_index(t);
    if (ri < 0)
        return 0;
    struct kmpt_task *x = &recs[ri];
    x->state = REC_ENDED;
    if (x->req.state != RQ_BUSY)
        x->req.state = RQ_FREE; /* an abandoned request: its entry is back */
    x->ticks = 0;
    if (x->n_handles && k_vif_quiet(task)) /* nothing of it in flight: its handles back now */
        handles_free_of(ri);
    /* the service may be working for it (its pages named in a request under way): they wait */
    if (x->n_eps || x->n_handles || x->req.state == RQ_BUSY) {
        x->space = task;
        if (service)
            k_sys_sem_give(&service_sem);
        return 1;
    }
    rec_maybe_free(x);
    return 0;
}

/* The owner of eps[i]: 1 alive (*task its space), 0 ended or gone (*task its space while the
 * kernel still holds it, else NULL). Kernel lock held. */
static int ep_owner(uint32_t i, struct k_task **task)
{
    const struct kmpt_task *x = &recs[eps[i].rec];
    *task = NULL;
    if (x->state == REC_LIVE && x->t->id == x->tid && x->t->task) {
        *task = x->t->task;
        return rec_alive(x);
    }
    if (x->state == REC_ENDED)
        *task = x->space;
    return 0;
}

/* Service thread: an ended task's handles once its slot is quiet (a transfer still under way may
 * write a handle's `sent` word) — also before its join —, then its address space once every
 * endpoint is reaped. */
static void bury(struct kmpt_task *x)
{
    uint32_t saved = irq_global_disable();
    k_lock_take();
    if (x->state == REC_LIVE && x->n_handles && !rec_alive(x) && x->t && x->t->task &&
        k_vif_quiet(x->t->task))
        handles_free_of((int)(x - recs));
    if (x->state == REC_ENDED && x->space && x->req.state != RQ_BUSY && k_vif_quiet(x->space)) {
        handles_free_of((int)(x - recs));
        /* a migrated channel's handle waiting for its "stopped" keeps the space a tick longer */
        if (!x->n_eps && !x->n_handles && k_task_space_free(x->space))
            x->space = NULL;
    }
    if (x->state == REC_ENDED && x->space && ++x->ticks == KMPT_ZOMBIE_TICKS)
        console_puts("k: ended task's endpoints not quiet yet: its pages wait\n");
    rec_maybe_free(x);
    k_lock_give();
    irq_global_restore(saved);
}

/* The address space of record x's ended task while the kernel holds it, else NULL (as bury
 * reads it). Kernel lock held. */
static struct k_task *ended_space(const struct kmpt_task *x)
{
    if (x->state == REC_LIVE && !rec_alive(x) && x->t && x->t->task)
        return x->t->task;
    return x->state == REC_ENDED ? x->space : NULL;
}

/* Service thread: the "stopped" of the channels migrated tasks send on. At the destination the
 * sending side of a task's channel is a kernel handle (kmig.c rebuild_entry) beside a plain
 * adopted endpoint, so no library endpoint sends it, and the receiver's endpoint, record and pages
 * would wait for it for ever once the receiver ends (mp_tr_endpoint_reapable); a live receiver
 * would never learn that its sender ended (SENDER_GONE). It goes once nothing of the channel can
 * still write into the receiver: the task ended and its vif is quiet; or the handle is revoked
 * (the receiver went; later set-ups fail CLOSED) or the task deleted the channel's endpoint, and
 * no slot runs on the handle (namp_reg_writing_on). Where it goes is the handle's tile and endpoint now
 * (NAMP-PS rewrites them when the receiver moves): kernel memory and adapter registers only,
 * nothing the task writes. A task being moved again is left to its next tile (the handle's words
 * go with it). */
static void stop_migrated_chans(void)
{
    for (uint32_t i = 0; i < K_TASK_HANDLES; ++i) {
        if (handle_chan[i] != HC_CHAN && handle_chan[i] != HC_CLOSED) /* a look without the lock */
            continue;
        const volatile namp_handle_t *x = (const volatile namp_handle_t *)handles[i].hw;
        uint32_t node = 0, at = 0;
        int send = 0;
        uint32_t saved = irq_global_disable();
        k_lock_take();
        const int ri = handle_rec[i];
        if (ri >= 0 && (handle_chan[i] == HC_CHAN || handle_chan[i] == HC_CLOSED)) {
            const struct kmpt_task *r = &recs[ri];
            if (rec_alive(r)) {
                /* the flags before the slots: a set-up the scan misses reads REVOKED */
                const int let_go = handle_chan[i] == HC_CLOSED || (x->flags & NAMP_H_F_REVOKED);
                send = let_go && !r->t->task->migrating &&
                       !namp_reg_writing_on((uint32_t)(uintptr_t)x);
            } else {
                struct k_task *space = ended_space(r);
                send = space && k_vif_quiet(space);
            }
        }
        if (send) {
            namp_handle_peer(x, &node, &at);
            if (handle_chan[i] == HC_CLOSED)
                handle_free((int)i); /* nothing names it any more */
            else
                handle_chan[i] = HC_STOPPED; /* the task's vID keeps it: later sends fail CLOSED */
        }
        k_lock_give();
        irq_global_restore(saved);
        if (send)
            KMP(mcapix_chan_stopped(node, at));
    }
}

/* ---- peers of killed tasks (docs/kernel.md "MCAPI in tasks", "A peer killed"). A task that
 * ends (killed or not) has its endpoints deleted as soon as its vif is quiet, not at its join:
 * senders to it get NO_ENDPOINT (MCAPI_ERR_ENDP_INVALID), a channel it received on is revoked
 * (the sender's NAMP fails CLOSED, MCAPI_ERR_CHAN_INVALID) and one it sent on is closed ("stopped"
 * to the receiver, whose receives end with MCAPI_ERR_CHAN_INVALID once empty). A live task whose
 * channel peer went away is told here too: the library cannot reach into its pages. */
static void watch_peers(void)
{
    for (uint32_t i = 0; i < KMPT_EPS; ++i) {
        /* the migration thread may forget an entry meanwhile (its endpoint became a tombstone):
         * a copy of the handle, checked again under the lock */
        const mcapi_endpoint_t h = eps[i].h;
        if (!h || eps[i].deleting || eps[i].tomb_until)
            continue;
        /* a look without locks first: this runs every tick beside the tasks' traffic */
        const struct kmpt_task *o = &recs[eps[i].rec];
        const uint32_t hint = h->local ? h->local->flags : 0;
        const int ended = !rec_alive(o);
        const int gone = (hint & MP_EPF_SENDER_GONE) && !eps[i].told_gone;
        const int stop = (hint & (MP_EPF_CHAN_SEND | MP_EPF_PEER_GONE | MP_EPF_STOP_SENT)) ==
                         (MP_EPF_CHAN_SEND | MP_EPF_PEER_GONE);
        if (!ended && !gone && !stop)
            continue;
        struct k_task *task;
        uint32_t saved = irq_global_disable();
        k_lock_take();
        if (eps[i].h != h || eps[i].tomb_until) {
            k_lock_give();
            irq_global_restore(saved);
            continue;
        }
        const int alive = ep_owner(i, &task);
        const int quiet = task ? k_vif_quiet(task) : 1;
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
         * set-ups fail CLOSED) and no transfer on this channel is under way; the flags are read
         * before the slots, so a set-up the scan misses reads REVOKED. What may still write is a
         * transfer that read the handle before: a slot whose PARAM1 is the handle, or a collective's
         * member on it (the adapter shows the handle each member runs on, translated by the vif:
         * nothing the task writes), from its set-up to its end; a credit wait reads the handle again
         * before it goes on. Only this channel's transfers count, never the task's others (a credit
         * its colluding receiver never gives, a flood elsewhere, a collective on other channels):
         * those would hold this receiver's endpoint, record and pages for ever
         * (kernel.security.revoke_hold_*). */
        const uint32_t hf = fl ? ((const volatile namp_handle_t *)ep->peer_h.hw)->flags : 0;
        if ((fl & (MP_EPF_CHAN_SEND | MP_EPF_PEER_GONE | MP_EPF_STOP_SENT)) ==
                (MP_EPF_CHAN_SEND | MP_EPF_PEER_GONE) &&
            (hf & NAMP_H_F_REVOKED) && !namp_reg_writing_on((uint32_t)(uintptr_t)ep->peer_h.hw))
            mp_tr_chan_peer_gone((struct mp_endpoint *)ep);
        kmp_unlock();
        if ((fl & MP_EPF_SENDER_GONE) && !eps[i].told_gone) {
            /* receiving side, its sender closed: the task's receives end once empty; its credit
             * path names a handle that is not the channel's any more */
            k_thread_t *t = recs[eps[i].rec].t;
            struct mp_task_ctrl *c = kmp_task_ptr(t, K_USER_DATA, sizeof *c);
            if (c && eps[i].idx < MP_TASK_EPS)
                c->ep[eps[i].idx].gone = 1;
            if (eps[i].credit_vid >= 0)
                (void)k_vif_clear_entry(t, (uint32_t)eps[i].credit_vid);
            eps[i].told_gone = 1;
        }
    }
}

static void ep_entry_free_locked(void *arg)
{
    const uint32_t i = (uint32_t)(uintptr_t)arg & 0xFFu, gen = (uint32_t)(uintptr_t)arg >> 8;
    if (!eps[i].h || eps[i].gen != gen)
        return; /* freed meanwhile, perhaps in use again: not the entry the caller meant */
    struct kmpt_task *x = &recs[eps[i].rec];
    eps[i].h = NULL;
    eps[i].deleting = 0;
    eps[i].tomb_until = 0;
    eps[i].rec = -1;
    x->n_eps--;
    rec_maybe_free(x);
}

/* Entries of deleted endpoints are free again once the library has released their buffers;
 * tombstones of tasks that moved on once no sender needs them (K_TOMBSTONE_TICKS). */
static void reap_deleted(void)
{
    const uint64_t now = timer_now();
    for (uint32_t i = 0; i < KMPT_EPS; ++i) {
        if (!eps[i].h)
            continue;
        int free_it = 0;
        void *const ref = ep_ref(i);
        const mcapi_endpoint_t h = eps[i].h;
        if (eps[i].tomb_until && now >= eps[i].tomb_until) {
            KMP((void)mcapix_endpoint_bury(h));
            free_it = 1;
        } else if (eps[i].deleting) {
            KMP(free_it = mcapix_endpoint_reaped(h));
        }
        if (free_it)
            locked(ep_entry_free_locked, ref);
    }
}

/* The service at the requesting task's priority at most while it works for it; the library lock
 * is taken at the service's own priority (a kernel thread waiting for the lock must not wait for
 * a task-priority holder). */
static void serve_requests(void)
{
    for (uint32_t n = 0; n < KMPT_TASKS; ++n) {
        const uint32_t i = (next_req + n) % KMPT_TASKS;
        if (recs[i].state != REC_LIVE || recs[i].req.state != RQ_PENDING)
            continue;
        recs[i].req.state = RQ_BUSY;
        const uint32_t p = recs[i].t->prio < service_prio ? recs[i].t->prio : service_prio;
        if (p != service_prio)
            k_set_priority(service, p);
        const int32_t res = run((int)i);
        if (p != service_prio)
            k_set_priority(service, service_prio);
        recs[i].req.result = res;
        smp_fence();
        recs[i].req.state = RQ_DONE;
        next_req = i + 1; /* round robin: the next pass starts after this task */
        return;           /* one request per pass: the housekeeping runs between them */
    }
}

static void service_main(void *arg)
{
    (void)arg;
    while (!service_stop) {
        watch_peers();
        stop_migrated_chans();
        reap_deleted();
        for (uint32_t z = 0; z < KMPT_TASKS; ++z)
            if (recs[z].state == REC_ENDED || (recs[z].state == REC_LIVE && recs[z].n_handles))
                bury(&recs[z]);
        int more = 0;
        for (uint32_t i = 0; i < KMPT_TASKS && !more; ++i)
            more = recs[i].state == REC_LIVE && recs[i].req.state == RQ_PENDING;
        if (!more && k_sem_take(&service_sem, 1) != K_OK)
            continue;
        serve_requests();
    }
    service = NULL;
}

int kmp_task_service_start(uint32_t prio)
{
    if (service)
        return K_EINVAL;
    use_module();
    static int once;
    if (!once) {
        for (uint32_t i = 0; i < KMPT_EPS; ++i)
            eps[i].rec = -1;
        for (uint32_t i = 0; i < K_TASK_HANDLES; ++i)
            handle_rec[i] = -1;
        once = 1;
    }
    service_stop = 0;
    service_prio = prio;
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
    const mp_cbuffer_t *tx =
        kmp_task_ptr(t, K_USER_DATA + offsetof(mp_task_state_t, tx), MP_CB_HEADER_SIZE);
    d->tx_rd = tx ? tx->rd_idx : 0;
    d->tx_wr = tx ? tx->wr_idx : 0;
    return K_OK;
}

static void sendbuf_rec_locked(void *arg)
{
    k_thread_t *t = arg;
    if (t->task && t->task->et_count)
        t->task->et_rec[t->task->et_count - 1] = (struct k_et_rec){K_ETO_SENDBUF, NONE, NONE, 0};
}

int kmp_task_attach_quota(k_thread_t *t, unsigned slot, const kmp_task_quota_t *q)
{
    if (!t || !t->task || t->task->et_count)
        return K_EINVAL;
    struct mp_task_ctrl *c = kmp_task_ptr(t, K_USER_DATA, sizeof *c);
    mp_cbuffer_t *tx = kmp_task_ptr(t, K_USER_DATA + offsetof(mp_task_state_t, tx), MP_TASK_PAGE);
    if (!c || !tx)
        return K_EINVAL; /* the data region does not hold an mp_task_state_t */
    const int ri = admit(t, q);
    if (ri < 0)
        return ri;
    mp_cbuffer_init(tx, MP_TASK_TX_N, MP_TASK_TX_M, 0);
    int vid = k_vif_add_sendbuf(t, K_USER_DATA + offsetof(mp_task_state_t, tx),
                                (uint32_t)mp_cbuffer_footprint(MP_TASK_TX_N, MP_TASK_TX_M));
    int r = vid < 0 ? vid : K_OK;
    if (r == K_OK)
        locked(sendbuf_rec_locked, t);
    /* the library must not use the task's slot: one it holds now is refused */
    int ok = r == K_OK && k_vif_slot_known(slot);
    if (r == K_OK && !ok)
        KMP(ok = namp_slot_claim(slot));
    if (r == K_OK && !ok)
        r = K_EBUSY;
    uint32_t vif = r == K_OK ? k_vif_attach(t, slot) : 0;
    if (r == K_OK && !vif) {
        if (!k_vif_slot_known(slot))
            KMP(namp_slot_free(slot));
        r = K_EINVAL;
    }
    if (r != K_OK) {
        kmp_task_unadmit(t);
        return r;
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

int kmp_task_attach(k_thread_t *t, unsigned slot) { return kmp_task_attach_quota(t, slot, NULL); }

static void unadmit_locked(void *arg)
{
    const int ri = rec_index(arg);
    if (ri < 0)
        return;
    recs[ri].state = REC_ENDED; /* nothing made yet, or dropped by the caller */
    recs[ri].space = NULL;
    rec_maybe_free(&recs[ri]);
}

void kmp_task_unadmit(k_thread_t *t) { locked(unadmit_locked, t); }

/* ---- task migration (kmig.c): a task's records, listed at the source, rebuilt at the
 * destination; the source's endpoints become tombstones (connection-less) or are retired ---- */

int kmp_task_admit(k_thread_t *t, const kmp_task_quota_t *q)
{
    const int ri = admit(t, q);
    return ri < 0 ? ri : K_OK;
}

int kmp_task_quota(k_thread_t *t, kmp_task_quota_t *q)
{
    const int ri = rec_index(t);
    if (ri < 0)
        return K_EINVAL;
    *q = recs[ri].q;
    return K_OK;
}

int kmp_task_list(k_thread_t *t, struct kmp_task_ep *out, int max, int *deleting)
{
    const int ri = rec_index(t);
    int n = 0;
    *deleting = 0;
    for (uint32_t i = 0; ri >= 0 && i < KMPT_EPS; ++i) {
        if (!eps[i].h || eps[i].rec != ri || eps[i].tomb_until)
            continue;
        if (eps[i].deleting) {
            ++*deleting;
        } else if (n < max) {
            out[n].kid = i;
            out[n].idx = eps[i].idx;
            out[n].h = eps[i].h;
            ++n;
        } else {
            return K_ENOMEM; /* more than a migration carries: cannot happen (quota), refused */
        }
    }
    return n;
}

int kmp_task_requests_idle(k_thread_t *t)
{
    const int ri = rec_index(t);
    return ri >= 0 && recs[ri].req.state == RQ_FREE;
}

int kmp_task_adopt(k_thread_t *t, const struct kmp_task_ep_spec *spec, mcapi_endpoint_t *h_out)
{
    const int ri = rec_index(t);
    if (ri < 0 || !t->task || spec->idx >= MP_TASK_EPS)
        return K_EINVAL;
    if (recs[ri].n_eps >= recs[ri].q.endpoints)
        return K_ENOMEM;
    uint32_t va = K_USER_DATA + offsetof(mp_task_state_t, rx) + spec->idx * MP_TASK_PAGE;
    uint32_t pa = vm_user_range(t->task, va, MP_TASK_PAGE, PTE_R | PTE_W);
    const uint32_t kid = free_kid();
    if (!pa || kid == KMPT_EPS)
        return K_ENOMEM;
    mcapi_status_t st;
    mcapi_endpoint_t h = create_in(spec->port, pa, &st);
    if (st != MCAPI_SUCCESS)
        return st == MCAPI_ERR_ENDP_EXISTS ? K_EBUSY : K_ENOMEM;
    if (spec->hold) /* "full" until the task's pages are there */
        KMP((void)mcapix_endpoint_hold(h, 1));
    if (spec->channel_recv)
        KMP(st = mcapix_endpoint_adopt_recv(h, spec->peer_node, spec->peer_handle));
    eps[kid].rec = (int16_t)ri;
    eps[kid].idx = (uint8_t)spec->idx;
    eps[kid].deleting = 0;
    eps[kid].credit_vid = -1; /* the task keeps its vIDs; a closed channel is not told here */
    eps[kid].told_gone = 0;
    eps[kid].tomb_until = 0;
    eps[kid].gen++;
    eps[kid].h = h;
    recs[ri].n_eps++;
    *h_out = h;
    return st == MCAPI_SUCCESS ? (int)kid : K_EINVAL;
}

struct mp_ephandle *kmp_task_handle(k_thread_t *t) { return handle_alloc(rec_index(t)); }

int kmp_task_set_vid(k_thread_t *t, uint32_t vid, uint32_t obj, uint32_t kid, const void *handle)
{
    const int hi = handle ? handle_index(handle) : -1;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    const int r = t->task && vid < t->task->et_count && vid < K_VIF_ET_MAX ? K_OK : K_EINVAL;
    if (r == K_OK)
        t->task->et_rec[vid] =
            (struct k_et_rec){(uint8_t)obj, (uint8_t)(kid < KMPT_EPS ? kid : NONE),
                              (uint8_t)(hi < 0 ? NONE : (uint32_t)hi), 0};
    if (r == K_OK && hi >= 0 && obj == K_ETO_CHAN)
        handle_chan[hi] = HC_CHAN; /* the task's channel now sends from here */
    k_lock_give();
    irq_global_restore(saved);
    return r;
}

static void left_locked(void *arg)
{
    k_thread_t *t = arg;
    const int ri = rec_index(t);
    if (ri < 0)
        return;
    const uint64_t until = timer_now() + (uint64_t)K_TOMBSTONE_TICKS * k_cfg.tick_ticks;
    for (uint32_t i = 0; i < KMPT_EPS; ++i)
        if (eps[i].h && eps[i].rec == ri && !eps[i].deleting && !eps[i].tomb_until)
            eps[i].tomb_until = until;
    /* its handles: the task runs elsewhere now; the ones its transfers used are quiet (its vif
     * settled before the switch) */
    for (uint32_t i = 0; i < K_TASK_HANDLES; ++i)
        if (handle_rec[i] == ri)
            handle_free((int)i);
    recs[ri].state = REC_LEFT;
    recs[ri].req.state = RQ_FREE;
    /* what it keeps reserved here: its tombstones' entries, nothing more (its quota went with it) */
    reserved_eps -= recs[ri].q.endpoints - recs[ri].n_eps;
    recs[ri].q.endpoints = recs[ri].n_eps;
    reserved_handles -= recs[ri].q.handles;
    recs[ri].q.handles = 0;
    rec_maybe_free(&recs[ri]);
}

void kmp_task_left(k_thread_t *t, const mcapi_endpoint_t *retired, int n)
{
    /* the retired (channel) endpoints' entries are free at once: nothing redirects there */
    const int ri = rec_index(t);
    for (int k = 0; ri >= 0 && k < n; ++k)
        for (uint32_t i = 0; i < KMPT_EPS; ++i)
            if (eps[i].h == retired[k] && eps[i].rec == ri)
                locked(ep_entry_free_locked, ep_ref(i));
    locked(left_locked, t);
}

static void drop_locked(void *arg)
{
    /* the task never ran here: its channels' sender is still the source's, no "stopped" from here */
    const int ri = (int)(intptr_t)arg;
    for (uint32_t i = 0; i < K_TASK_HANDLES; ++i)
        if (handle_rec[i] == ri)
            handle_chan[i] = HC_NONE;
}

void kmp_task_drop(k_thread_t *t)
{
    const int ri = rec_index(t);
    if (ri >= 0)
        locked(drop_locked, (void *)(intptr_t)ri);
    for (uint32_t i = 0; ri >= 0 && i < KMPT_EPS; ++i)
        if (eps[i].h && eps[i].rec == ri && !eps[i].deleting) {
            mcapi_status_t st;
            KMP(mcapix_endpoint_discard(eps[i].h, &st));
            eps[i].deleting = 1;
        }
}

void kmp_task_tables(kmp_task_tables_t *out)
{
    memset(out, 0, sizeof *out);
    uint32_t saved = irq_global_disable();
    k_lock_take();
    for (uint32_t i = 0; i < KMPT_TASKS; ++i)
        out->records += recs[i].state != REC_FREE;
    for (uint32_t i = 0; i < KMPT_EPS; ++i)
        out->endpoints += eps[i].h != NULL;
    for (uint32_t i = 0; i < K_TASK_HANDLES; ++i)
        out->handles += handle_rec[i] >= 0;
    out->reserved_endpoints = reserved_eps;
    out->reserved_handles = reserved_handles;
    out->vif_slots = k_vif_slots_taken();
    out->pages_free = k_pages_free();
    k_lock_give();
    irq_global_restore(saved);
    for (uint32_t i = 0; i < MP_MAX_ENDPOINTS; ++i) {
        const struct mp_endpoint *ep = &mp_endpoints[i];
        if (ep->state == MP_EP_FREE || ep->state == MP_EP_DELETED)
            continue;
        out->library_endpoints++;
        const uint32_t rxb = ep->hw[NAMP_EP_RX_BUFFER / 4];
        out->dangling +=
            (rxb && k_page_free_at(rxb)) || (ep->rx && k_page_free_at((uint32_t)(uintptr_t)ep->rx));
    }
}
