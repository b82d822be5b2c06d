/* User tasks: a U-mode thread with its own Sv32 address space:
 *   shared text and read-only data (identity, R-X-U): the task's code lives in the firmware image;
 *   K_USER_DATA: private data pages (R-W-U), initialised from the image's template;
 *   below K_USER_STACK_TOP: private stack pages, an unmapped guard page below them;
 *   anything else the kernel maps on request (k_task_map: endpoint buffers, vif pages).
 * A fault or a bad system call kills the task only (k_task_kill). */
#include <string.h>

#include "kinternal.h"

static struct k_task tasks[K_MAX_THREADS];

static struct k_task *task_alloc(void)
{
    for (uint32_t i = 0; i < K_MAX_THREADS; ++i)
        if (!tasks[i].root)
            return &tasks[i];
    return NULL;
}

static int map_pages(struct k_task *task, uint32_t va, uint32_t pages, uint32_t flags)
{
    for (uint32_t i = 0; i < pages; ++i) {
        void *p = vm_page_alloc();
        if (!p || vm_map(task->root, va + i * K_PAGE_SIZE, (uint32_t)p, flags) != K_OK) {
            if (p)
                vm_page_free(p);
            return K_ENOMEM;
        }
    }
    return K_OK;
}

k_thread_t *k_sys_task_create(const k_task_image_t *image)
{
    if (!image || !image->entry || image->prio >= K_PRIOS || image->data_size > K_USER_DATA_MAX ||
        (image->data_init && image->data_size == 0))
        return NULL;
    struct k_task *task = task_alloc();
    k_thread_t *t = task ? k_thread_alloc() : NULL;
    if (!t)
        return NULL;
    task->root = vm_page_alloc();
    if (!task->root) {
        t->state = KS_FREE;
        return NULL;
    }
    /* The shared text: whole pages below .data (tile.ld is used with .data page-aligned for
     * kernels, see sw/kernel/CMakeLists.txt, so no kernel data shares a page with it). */
    uint32_t text = (uint32_t)k_text_start & ~(K_PAGE_SIZE - 1);
    uint32_t text_end = (uint32_t)__data_start & ~(K_PAGE_SIZE - 1);
    int ok = K_OK;
    for (uint32_t va = text; ok == K_OK && va < text_end; va += K_PAGE_SIZE)
        ok = vm_map(task->root, va, va, PTE_R | PTE_X | PTE_U);
    uint32_t data_pages = (image->data_size + K_PAGE_SIZE - 1) / K_PAGE_SIZE;
    uint32_t stack_pages = image->stack_pages ? image->stack_pages : 1;
    if (ok == K_OK && data_pages)
        ok = map_pages(task, K_USER_DATA, data_pages, PTE_R | PTE_W | PTE_U);
    if (ok == K_OK)
        ok = map_pages(task, K_USER_STACK_TOP - stack_pages * K_PAGE_SIZE, stack_pages,
                       PTE_R | PTE_W | PTE_U);
    if (ok == K_OK && data_pages) {
        /* Data pages are contiguous in the pool only by chance: copy page by page. */
        task->data = (uint8_t *)vm_user_range(task, K_USER_DATA, 1, PTE_R);
        task->data_pages = data_pages;
        const uint8_t *src = image->data_init;
        for (uint32_t off = 0; src && off < image->data_size; off += K_PAGE_SIZE) {
            uint32_t n =
                image->data_size - off < K_PAGE_SIZE ? image->data_size - off : K_PAGE_SIZE;
            memcpy((void *)vm_user_range(task, K_USER_DATA + off, 1, PTE_R), src + off, n);
        }
    }
    if (ok != K_OK) {
        vm_space_free(task);
        t->state = KS_FREE;
        return NULL;
    }
    task->satp = 0x80000000u | ((uint32_t)task->root >> 12);
    t->task = task;
    t->name = image->name ? image->name : "task";
    t->prio = image->prio;
    t->slice_left = k_cfg.slice_ticks;
    k_thread_setup_frame(t, (uint32_t)image->entry, K_USER_STACK_TOP, K_USER_DATA, 1);
    k_live_add();
    task->vif_slot = -1;
    task->vif_busy = -1;
    task->et_count = 0;
    memset(task->et_rec, 0, sizeof task->et_rec);
    task->stack_pages = stack_pages;
    task->prio = image->prio;
    task->migrating = 0;
    if (image->suspended)
        t->suspended = 1; /* taken, in no list, until K_SYS_RESUME */
    else
        k_make_ready(t, 0);
    return t;
}

void *k_task_data(const k_thread_t *t) { return t && t->task ? t->task->data : NULL; }

/* A task stops where it is: out of the ready queue, or out of its sleep (the wake-up time is
 * kept); a task in a kernel wait (or running on another core) is K_EBUSY: try again later. */
int k_task_stop(k_thread_t *t, uint64_t *wake_at)
{
    if (!t || !t->task)
        return K_EINVAL;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    int r = K_OK;
    *wake_at = UINT64_MAX;
    if (t->state == KS_READY) {
        rq_remove(t);
    } else if (t->state == KS_SLEEPING && !t->queue) {
        *wake_at = t->wake_at;
        k_timer_remove(t);
    } else if (t->state == KS_BLOCKED && t->suspended && !t->queue) {
        /* created suspended, not started yet */
    } else {
        r = t->state == KS_DEAD || t->state == KS_FREE ? K_EINVAL : K_EBUSY;
    }
    if (r == K_OK) {
        t->state = KS_BLOCKED;
        t->queue = NULL;
        t->suspended = 1;
    }
    k_lock_give();
    irq_global_restore(saved);
    return r;
}

void k_task_unstop(k_thread_t *t, uint64_t wake_at)
{
    uint32_t saved = irq_global_disable();
    k_lock_take();
    t->suspended = 0;
    if (wake_at != UINT64_MAX && wake_at > timer_now()) {
        t->state = KS_SLEEPING;
        t->wake_at = wake_at;
        k_timer_insert(t);
    } else {
        k_make_ready(t, 0);
    }
    k_lock_give();
    irq_global_restore(saved);
}

int k_task_map(k_thread_t *t, uint32_t va, uint32_t pa, uint32_t count, int writable)
{
    if (!t || !t->task || (va | pa) & (K_PAGE_SIZE - 1))
        return K_EINVAL;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    int r = K_OK;
    for (uint32_t i = 0; r == K_OK && i < count; ++i)
        r = vm_map(t->task->root, va + i * K_PAGE_SIZE, pa + i * K_PAGE_SIZE,
                   PTE_R | PTE_U | (writable ? PTE_W : 0));
    k_lock_give();
    irq_global_restore(saved);
    return r;
}

void k_task_kill(k_thread_t *t, uint32_t cause, const trap_frame_t *f)
{
    k_stat.killed++;
    if (!k_cfg.quiet) {
        console_puts("k: task ");
        console_puts(t->name);
        console_puts(" killed: ");
        console_puts(cause == 16 ? "bad system call" : trap_cause_name(cause));
        console_puts(" pc=");
        console_put_hex32(f->mepc);
        console_puts(cause == 16 ? " a7=" : " tval=");
        console_put_hex32(cause == 16 ? f->regs[REG_A7] : f->mtval);
        console_putc('\n');
    }
    k_thread_end(t, K_KILLED + (int)cause);
}

/* The address space of an ended task goes with its thread slot (k_join): until then its creator
 * can read the data region. The satp still in a core is harmless: M-mode does not use it, and
 * the next task's satp write flushes the TLB. No page goes back to the pool while the adapter may
 * still touch it (docs/kernel.md "SV isolation"): a slot whose abort still waits keeps the whole
 * space, and a task with MCAPI endpoints hands it to the service thread (kmp_task.c), which frees
 * it once the endpoints' receive pages are quiet. */
void k_task_release(k_thread_t *t)
{
    struct k_task *task = t->task;
    if (!task)
        return;
    t->task = NULL;
    if (k_hooks.vif)
        k_hooks.vif->task_ended(task);
    if (k_hooks.mp_task && k_hooks.mp_task->task_release(t, task))
        return;
    if (k_hooks.vif && !k_hooks.vif->task_quiet(task)) {
        console_puts("k: task slot still busy: its pages stay out of the pool\n");
        return;
    }
    vm_space_free(task);
}

/* For the service thread: frees a released task's space once its slot is idle (kernel lock
 * held). 1 done, 0 not yet. */
int k_task_space_free(struct k_task *task)
{
    if (k_hooks.vif && !k_hooks.vif->task_quiet(task))
        return 0;
    vm_space_free(task);
    return 1;
}
