/* NAMP-SV, the kernel side (thesis 3.4.3, set-up phase): each task's endpoint table (ET) in kernel
 * memory, and the virtual interface of one NAMP slot per task: the kernel writes the table's
 * physical base and bound into the vif configuration page and maps only the vif's interface page
 * into the task. The task then sends without system calls; it can reach neither the slot's
 * physical page nor another task's table (docs/kernel.md "NAMP-SV"). */
#include "kinternal.h"
#include "na_registers.h"
#include "namp_structs.h"
#include "tile_memory_map.h"

#define VIFC(slot, reg) (TILE_NA_BASE + NA_NAMP_SLOT_BASE(slot) + NAMP_VIF_CONFIG_PAGE + (reg))

static int add(k_thread_t *t, uint32_t kind, uint32_t pa)
{
    struct k_task *task = t->task;
    if (task->et_count >= K_VIF_ET_MAX)
        return K_ENOMEM;
    uint32_t vid = task->et_count;
    task->et[vid][0] = pa;
    task->et[vid][1] = kind;
    smp_fence();   /* the entry is complete before the vif may read it */
    task->et_count = vid + 1;
    if (task->vif_slot >= 0)
        mmio_write32(VIFC(task->vif_slot, NAMP_VIFC_ET_BOUND), task->et_count);
    return (int)vid;
}

static int locked_add(k_thread_t *t, uint32_t kind, uint32_t pa)
{
    uint32_t saved = irq_global_disable();
    k_lock_take();
    int r = add(t, kind, pa);
    k_lock_give();
    irq_global_restore(saved);
    return r;
}

int k_vif_add_handle(k_thread_t *t, const void *handle)
{
    if (!t || !t->task || !handle || ((uint32_t)handle & 3))
        return K_EINVAL;
    return locked_add(t, NAMP_ET_HANDLE, (uint32_t)handle);
}

int k_vif_add_sendbuf(k_thread_t *t, uint32_t va, uint32_t bytes)
{
    if (!t || !t->task || (va & 3) || bytes == 0)
        return K_EINVAL;
    /* The NAMP reads the buffer physically: it must be in the task's own, contiguous memory. */
    uint32_t pa = vm_user_range(t->task, va, bytes, PTE_R | PTE_W);
    if (!pa)
        return K_EINVAL;
    return locked_add(t, NAMP_ET_SENDBUF, pa);
}

uint32_t k_vif_attach(k_thread_t *t, unsigned slot)
{
    if (!t || !t->task || t->task->vif_slot >= 0 || slot >= NA_NAMP_MAX_SLOTS)
        return 0;
    if (!(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_SV))
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
    return page;
}

/* A task that ends gives its vif back: not READY, empty table. */
void k_vif_release(struct k_task *task)
{
    if (task->vif_slot < 0)
        return;
    mmio_write32(VIFC(task->vif_slot, NAMP_VIFC_CTRL), 0);
    mmio_write32(VIFC(task->vif_slot, NAMP_VIFC_ET_BOUND), 0);
    task->vif_slot = -1;
    task->et_count = 0;
}
