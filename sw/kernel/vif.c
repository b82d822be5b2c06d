/* NAMP-SV, the kernel side (thesis 3.4.3, set-up phase): each task's endpoint table (ET) in kernel
 * memory, and the virtual interface of one NAMP slot per task: the kernel writes the table's
 * physical base and bound into the vif configuration page and maps only the vif's interface page
 * into the task. The task then sends without system calls; it can reach neither the slot's
 * physical page nor another task's table (docs/kernel.md "NAMP-SV"). Every address the adapter
 * uses for the task comes from an entry here: a send buffer's entry carries the window the
 * adapter keeps the buffer's accesses in, since the task can write the buffer's header
 * (docs/namp.md "SV isolation"). */
#include "kinternal.h"
#include "mp/cbuffer.h"
#include "na/na.h"
#include "namp/namp_regs.h"
#include "namp_cc.h"
#include "namp_structs.h"

/* Polls of an aborted slot before the kernel gives up waiting (each a device access of about ten
 * cycles: far more than a response round trip or a task's largest DMA on an idle mesh). */
#define K_VIF_ABORT_POLLS 20000u

/* vif slots given to tasks (a slot goes back when its task's slot is idle again) */
static uint32_t vif_taken[NA_NAMP_MAX_SLOTS / 32];
static uint32_t vif_ever[NA_NAMP_MAX_SLOTS / 32]; /* reserved from the MCAPI library for vifs */

static void mark(unsigned slot, int taken)
{
    if (taken) {
        vif_taken[slot / 32] |= 1u << (slot % 32);
        vif_ever[slot / 32] |= 1u << (slot % 32);
    } else
        vif_taken[slot / 32] &= ~(1u << (slot % 32));
}

/* Not a task's now, and not the MCAPI library's (lib_busy: its busy slots; a slot a vif had once
 * stays reserved from the library, so its bit there means nothing). */
static int free_for_vif(unsigned s, uint32_t lib_busy)
{
    const uint32_t bit = 1u << (s % 32);
    if (vif_taken[s / 32] & bit)
        return 0;
    return (vif_ever[s / 32] & bit) || s >= 32 || !(lib_busy & bit);
}

uint32_t k_vif_slots_taken(void)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < NA_NAMP_MAX_SLOTS / 32; ++i)
        n += (uint32_t)__builtin_popcount(vif_taken[i]);
    return n;
}

int k_vif_slot_known(unsigned slot)
{
    return slot < NA_NAMP_MAX_SLOTS && (vif_ever[slot / 32] >> (slot % 32)) & 1u;
}

int k_vif_free_slot(unsigned preferred, uint32_t lib_busy)
{
    const uint32_t n = na_namp_slots();
    const uint32_t virt = (na_features() & NA_FEATURE_NAMP_SV) ? namp_reg_slots_virt() : 0u;
    const uint32_t first = n - virt;
    if (preferred >= first && preferred < n && free_for_vif(preferred, lib_busy))
        return (int)preferred;
    for (uint32_t s = first; s < n; ++s)
        if (free_for_vif(s, lib_busy))
            return (int)s;
    return -1;
}

/* The module in use (a task's first entry or vif): the core's hooks for a task's end, and the
 * software baseline's call, which looks vIDs up in the same table (ksend.c). */
static const struct k_vif_hooks hooks = {.task_ended = k_vif_release, .task_quiet = k_vif_quiet};
static void use_module(void)
{
    k_hooks.vif = &hooks;
    k_syscall_set(K_SYS_NAMP_SEND, k_sys_namp_send);
}

static int add(k_thread_t *t, uint32_t kind, uint32_t pa, uint32_t limit)
{
    use_module();
    struct k_task *task = t->task;
    if (task->et_count >= K_VIF_ET_MAX)
        return K_ENOMEM;
    uint32_t vid = task->et_count;
    task->et[vid][NAMP_ET_ADDR / 4] = pa;
    task->et[vid][NAMP_ET_KIND / 4] = kind;
    task->et[vid][NAMP_ET_LIMIT / 4] = limit;
    task->et[vid][3] = 0;
    smp_fence(); /* the entry is complete before the vif may read it */
    task->et_count = vid + 1;
    if (task->vif_slot >= 0)
        namp_reg_vif_set_bound((unsigned)task->vif_slot, task->et_count);
    return (int)vid;
}

static int locked_add(k_thread_t *t, uint32_t kind, uint32_t pa, uint32_t limit)
{
    uint32_t saved = irq_global_disable();
    k_lock_take();
    int r = add(t, kind, pa, limit);
    k_lock_give();
    irq_global_restore(saved);
    return r;
}

/* An entry for task thread t while it is still the thread of id `tid` (checked under the lock:
 * the caller may have waited meanwhile), with the kernel's record of what it is (kmp_task.c). */
int k_vif_add_owned(k_thread_t *t, uint32_t tid, uint32_t kind, uint32_t pa, uint32_t limit,
                    const struct k_et_rec *rec)
{
    if (!t || !pa || (pa & 3))
        return K_EINVAL;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    int r = K_EINVAL;
    if (t->id == tid && t->task && t->state != KS_DEAD && t->state != KS_FREE) {
        r = add(t, kind, pa, limit);
        if (r >= 0 && r < K_VIF_ET_MAX)
            t->task->et_rec[r] = *rec;
    }
    k_lock_give();
    irq_global_restore(saved);
    return r;
}

int k_vif_add_handle(k_thread_t *t, const void *handle)
{
    if (!t || !t->task || !handle || ((uint32_t)handle & 3))
        return K_EINVAL;
    return locked_add(t, NAMP_ET_HANDLE, (uint32_t)handle, NAMP_H_SIZE);
}

int k_vif_add_credit(k_thread_t *t, const void *handle)
{
    if (!t || !t->task || !handle || ((uint32_t)handle & 3))
        return K_EINVAL;
    return locked_add(t, NAMP_ET_CREDIT, (uint32_t)handle, NAMP_H_SIZE);
}

/* A contributor's handle of a reduction or gather root (kmp_task.c): the only member a task's
 * reduction or gather may name, and usable for nothing else (docs/security.md). */
int k_vif_add_member(k_thread_t *t, const void *handle)
{
    if (!t || !t->task || !handle || ((uint32_t)handle & 3))
        return K_EINVAL;
    return locked_add(t, NAMP_ET_MEMBER, (uint32_t)handle, NAMP_H_SIZE);
}

/* Takes an entry back (its object is gone, e.g. a closed channel's credit path): the vif refuses
 * it from then on (VIF_ENTRY); the vIDs after it stay. */
int k_vif_clear_entry(k_thread_t *t, uint32_t vid)
{
    uint32_t saved = irq_global_disable();
    k_lock_take();
    int r = t && t->task && vid < t->task->et_count ? K_OK : K_EINVAL;
    if (r == K_OK) {
        t->task->et[vid][NAMP_ET_KIND / 4] = NAMP_ET_EMPTY;
        t->task->et[vid][NAMP_ET_ADDR / 4] = 0;
        if (vid < K_VIF_ET_MAX)
            t->task->et_rec[vid] = (struct k_et_rec){K_ETO_NONE, 0xFFu, 0xFFu, 0};
    }
    k_lock_give();
    irq_global_restore(saved);
    return r;
}

/* An entry for a range of the task's memory: the NAMP reads it physically, so it must be the
 * task's own, writable, contiguous memory; the range is the window the adapter keeps every access
 * derived from what the task wrote there in. */
static uint32_t range_pa(const struct k_task *task, uint32_t va, uint32_t bytes, uint32_t min)
{
    return task && !(va & 3) && bytes >= min ? vm_user_range(task, va, bytes, PTE_R | PTE_W) : 0u;
}

static int add_range(k_thread_t *t, uint32_t kind, uint32_t va, uint32_t bytes, uint32_t min)
{
    uint32_t pa = t ? range_pa(t->task, va, bytes, min) : 0u;
    if (!pa)
        return K_EINVAL;
    return locked_add(t, kind, pa, bytes);
}

uint32_t k_vif_ccarea_pa(const struct k_task *task, uint32_t va, uint32_t bytes)
{
    return range_pa(task, va, bytes, NAMP_CC_HEADER);
}

int k_vif_add_sendbuf(k_thread_t *t, uint32_t va, uint32_t bytes)
{
    return add_range(t, NAMP_ET_SENDBUF, va, bytes, MP_CB_HEADER_SIZE);
}

/* A collective area (docs/namp.md "Collectives through a vif"): where the task's collectives'
 * descriptors and data lie; the adapter touches nothing of the task's outside it and takes the
 * members from the table by vID. */
int k_vif_add_ccarea(k_thread_t *t, uint32_t va, uint32_t bytes)
{
    return add_range(t, NAMP_ET_CCAREA, va, bytes, NAMP_CC_HEADER);
}

/* The slot's transfer is aborted and, once the abort took effect, the slot is freed (idle, its
 * window cleared). 1 when the slot is idle, 0 while a transfer still waits for the network. */
static int slot_quiesce(unsigned slot)
{
    uint32_t f = namp_reg_slot_flags(slot);
    if ((f & NAMP_FLAG_VALID) && !(f & NAMP_FLAG_DONE)) {
        namp_reg_slot_abort(slot, 0);
        for (uint32_t i = 0; i < K_VIF_ABORT_POLLS; ++i) {
            f = namp_reg_slot_flags(slot);
            if (!(f & NAMP_FLAG_VALID) || (f & NAMP_FLAG_DONE))
                break;
        }
        if ((f & NAMP_FLAG_VALID) && !(f & NAMP_FLAG_DONE))
            return 0;
    }
    namp_reg_slot_set_flags(slot, 0); /* DONE acknowledged, the slot idle */
    namp_reg_slot_set_window(slot, 0, 0);
    return 1;
}

uint32_t k_vif_attach(k_thread_t *t, unsigned slot)
{
    if (!t || !t->task || t->task->vif_slot >= 0 || slot >= NA_NAMP_MAX_SLOTS)
        return 0;
    if (!(na_features() & NA_FEATURE_NAMP_SV))
        return 0;
    use_module();
    /* the previous owner's transfer may still be finishing: the next owner starts clean */
    if (!slot_quiesce(slot))
        return 0;
    uint32_t page = namp_reg_vif_page(slot);
    if (k_task_map(t, K_USER_VIF, page, 1, 1) != K_OK)
        return 0;
    struct k_task *task = t->task;
    namp_reg_vif_set_ctrl(slot, 0);
    namp_reg_vif_set_bound(slot, 0);
    namp_reg_vif_set_table(slot, (uint32_t)task->et, task->et_count);
    namp_reg_vif_set_ctrl(slot, NAMP_VIFC_READY);
    task->vif_slot = (int32_t)slot;
    task->vif_busy = -1;
    mark(slot, 1);
    return K_USER_VIF;
}

/* A task that ends gives its vif back (thread end, trap context): READY withdrawn (the vif resets
 * what the task wrote and drops a start being translated), the table emptied, the slot's transfer
 * aborted — a CCM stream or a credit wait included — and the slot freed. A slot whose abort still
 * waits for the network is remembered: k_vif_quiet asks again before the task's pages go. */
void k_vif_release(struct k_task *task)
{
    if (task->vif_slot < 0)
        return;
    unsigned slot = (unsigned)task->vif_slot;
    namp_reg_vif_set_ctrl(slot, 0);
    namp_reg_vif_set_bound(slot, 0);
    task->vif_busy = slot_quiesce(slot) ? -1 : (int32_t)slot;
    if (task->vif_busy < 0)
        mark(slot, 0);
    task->vif_slot = -1;
    task->et_count = 0;
    for (uint32_t v = 0; v < K_VIF_ET_MAX; ++v)
        task->et_rec[v] = (struct k_et_rec){K_ETO_NONE, 0xFFu, 0xFFu, 0};
}

int k_vif_quiet(struct k_task *task)
{
    if (task->vif_busy >= 0 && slot_quiesce((unsigned)task->vif_busy)) {
        mark((unsigned)task->vif_busy, 0);
        task->vif_busy = -1;
    }
    return task->vif_busy < 0;
}

/* ---- the task's view of its vif, moved with the task (task migration, kmig.c) ---- */

/* The task is stopped. A finished transfer it has not acknowledged is parked at the destination
 * with its STATUS (a collective under way is waited for and then parked). One under way is aborted at its next safe point (initiator::abort): ending
 * ABORTED, nothing of it reached the receiver (an element it was given is committed VOID), so the
 * destination starts it again as the task started it; finishing meanwhile, it is parked like a
 * finished one. Exactly once either way. K_EBUSY if the slot does not settle. */
int k_vif_save(struct k_task *task, struct k_vif_view *v)
{
    if (task->vif_slot < 0)
        return K_EINVAL;
    const unsigned slot = (unsigned)task->vif_slot;
    const uintptr_t page = namp_reg_vif_page(slot);
    v->action = K_VIF_IDLE;
    v->status = 0;
    int aborting = 0;
    for (uint32_t i = 0; i < K_VIF_ABORT_POLLS; ++i) {
        const uint32_t f = namp_vif_flags(page);
        const uint32_t st = namp_vif_status(page);
        if (!aborting) { /* the task's view: vIDs, as it started the transfer */
            v->flags = f & ~(NAMP_FLAG_VALID | NAMP_FLAG_DONE);
            v->p1 = namp_vif_param(page, 1);
            v->p2 = namp_vif_param(page, 2);
            v->p3 = namp_vif_param(page, 3);
        }
        const uint32_t state = NAMP_STATUS_STATE(st);
        /* finished and not acknowledged by the task (its acknowledgement clears DONE). A buffered
         * send that succeeded has freed its slot itself: DONE without VALID, the slot idle; the
         * destination's vif holds it as the DONE state it was. */
        if (f & NAMP_FLAG_DONE) {
            const int aborted =
                (st & NAMP_STATUS_ERROR) && NAMP_STATUS_CODE(st) == NAMP_ERR_ABORTED;
            if (aborting) /* the slot is acknowledged here: the destination's vif holds it */
                namp_reg_slot_set_flags(slot, 0);
            v->action = aborting && aborted ? K_VIF_RESTART : K_VIF_PARK;
            v->status =
                state == NAMP_STATE_DONE || state == NAMP_STATE_ERROR ? st : NAMP_STATE_DONE << 8;
            return K_OK;
        }
        if (!(f & NAMP_FLAG_VALID))
            return K_OK; /* idle */
        const uint32_t sf = namp_reg_slot_flags(slot);
        /* A collective runs to its end instead: members that finished cannot be taken back, so
         * a restart would deliver to them twice. One that does not end in time: K_EBUSY. */
        if (!aborting && (sf & NAMP_FLAG_VALID) && !(sf & NAMP_FLAG_DONE) &&
            !(v->flags & NAMP_FLAG_CC)) {
            /* KEEP: a buffered send's element stays committed for the restart */
            namp_reg_slot_abort(slot, 1);
            aborting = 1;
        }
    }
    return K_EBUSY;
}

void k_vif_restore(struct k_task *task, const struct k_vif_view *v)
{
    const unsigned slot = (unsigned)task->vif_slot;
    const uintptr_t page = namp_reg_vif_page(slot);
    namp_vif_set_params(page, v->p1, v->p2, v->p3);
    if (v->action == K_VIF_PARK) {
        namp_reg_vif_park(slot, v->status);
    } else if (v->action == K_VIF_RESTART) /* as the task started it, translated here */
        namp_vif_set_flags(page, v->flags | NAMP_FLAG_VALID);
}
