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
#include "na_registers.h"
#include "namp_structs.h"
#include "tile_memory_map.h"

#define VIFC(slot, reg) (TILE_NA_BASE + NA_NAMP_SLOT_BASE(slot) + NAMP_VIF_CONFIG_PAGE + (reg))
#define SLOTR(slot, reg) (TILE_NA_BASE + NA_NAMP_SLOT_BASE(slot) + (reg))
/* Polls of an aborted slot before the kernel gives up waiting (each a device access of about ten
 * cycles: far more than a response round trip or a task's largest DMA on an idle mesh). */
#define K_VIF_ABORT_POLLS 20000u

static int add(k_thread_t *t, uint32_t kind, uint32_t pa, uint32_t limit)
{
    struct k_task *task = t->task;
    if (task->et_count >= K_VIF_ET_MAX)
        return K_ENOMEM;
    uint32_t vid = task->et_count;
    task->et[vid][NAMP_ET_ADDR / 4] = pa;
    task->et[vid][NAMP_ET_KIND / 4] = kind;
    task->et[vid][NAMP_ET_LIMIT / 4] = limit;
    task->et[vid][3] = 0;
    smp_fence();   /* the entry is complete before the vif may read it */
    task->et_count = vid + 1;
    if (task->vif_slot >= 0)
        mmio_write32(VIFC(task->vif_slot, NAMP_VIFC_ET_BOUND), task->et_count);
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

int k_vif_add_sendbuf(k_thread_t *t, uint32_t va, uint32_t bytes)
{
    if (!t || !t->task || (va & 3) || bytes < MP_CB_HEADER_SIZE)
        return K_EINVAL;
    /* The NAMP reads the buffer physically: it must be in the task's own, contiguous memory; the
     * range is the window the adapter keeps every access derived from its header in. */
    uint32_t pa = vm_user_range(t->task, va, bytes, PTE_R | PTE_W);
    if (!pa)
        return K_EINVAL;
    return locked_add(t, NAMP_ET_SENDBUF, pa, bytes);
}

/* The slot's transfer is aborted and, once the abort took effect, the slot is freed (idle, its
 * window cleared). 1 when the slot is idle, 0 while a transfer still waits for the network. */
static int slot_quiesce(unsigned slot)
{
    uint32_t f = mmio_read32(SLOTR(slot, NAMP_SLOT_FLAGS));
    if ((f & NAMP_FLAG_VALID) && !(f & NAMP_FLAG_DONE)) {
        mmio_write32(SLOTR(slot, NAMP_SLOT_CTRL), NAMP_SLOT_CTRL_ABORT);
        for (uint32_t i = 0; i < K_VIF_ABORT_POLLS; ++i) {
            f = mmio_read32(SLOTR(slot, NAMP_SLOT_FLAGS));
            if (!(f & NAMP_FLAG_VALID) || (f & NAMP_FLAG_DONE))
                break;
        }
        if ((f & NAMP_FLAG_VALID) && !(f & NAMP_FLAG_DONE))
            return 0;
    }
    mmio_write32(SLOTR(slot, NAMP_SLOT_FLAGS), 0);   /* DONE acknowledged, the slot idle */
    mmio_write32(SLOTR(slot, NAMP_SLOT_WIN_SIZE), 0);
    mmio_write32(SLOTR(slot, NAMP_SLOT_WIN_BASE), 0);
    return 1;
}

uint32_t k_vif_attach(k_thread_t *t, unsigned slot)
{
    if (!t || !t->task || t->task->vif_slot >= 0 || slot >= NA_NAMP_MAX_SLOTS)
        return 0;
    if (!(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_SV))
        return 0;
    /* the previous owner's transfer may still be finishing: the next owner starts clean */
    if (!slot_quiesce(slot))
        return 0;
    uint32_t page = TILE_NA_BASE + NA_NAMP_SLOT_BASE(slot) + NAMP_VIF_PAGE;
    if (k_task_map(t, page, page, 1, 1) != K_OK)
        return 0;
    struct k_task *task = t->task;
    mmio_write32(VIFC(slot, NAMP_VIFC_CTRL), 0);
    mmio_write32(VIFC(slot, NAMP_VIFC_ET_BOUND), 0);
    mmio_write32(VIFC(slot, NAMP_VIFC_ET_BASE), (uint32_t)task->et);
    mmio_write32(VIFC(slot, NAMP_VIFC_ET_BOUND), task->et_count);
    mmio_write32(VIFC(slot, NAMP_VIFC_CTRL), NAMP_VIFC_READY);
    task->vif_slot = (int32_t)slot;
    task->vif_busy = -1;
    return page;
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
    mmio_write32(VIFC(slot, NAMP_VIFC_CTRL), 0);
    mmio_write32(VIFC(slot, NAMP_VIFC_ET_BOUND), 0);
    task->vif_busy = slot_quiesce(slot) ? -1 : (int32_t)slot;
    task->vif_slot = -1;
    task->et_count = 0;
}

int k_vif_quiet(struct k_task *task)
{
    if (task->vif_busy >= 0 && slot_quiesce((unsigned)task->vif_busy))
        task->vif_busy = -1;
    return task->vif_busy < 0;
}
