/* Kernel internals shared by its files. Everything here runs in the trap handler, with
 * interrupts off and the kernel lock held (k_lock), unless a comment says otherwise. */
#ifndef KERNEL_KINTERNAL_H
#define KERNEL_KINTERNAL_H

#include <stdint.h>

#include "hal/hal.h"
#include "kernel/kernel.h"
#include "namp_structs.h"

#ifndef K_RQ_LAYOUT
#error "K_RQ_LAYOUT must be defined (K_RQ_FREERTOS, K_RQ_SEL4, K_RQ_BITMAP, K_RQ_FLAGS)"
#endif

enum k_state { KS_FREE = 0, KS_READY, KS_RUNNING, KS_BLOCKED, KS_SLEEPING, KS_DEAD };

struct k_task;

/* The list item is the first two words (HW-OSQM E_LAYOUT: next at +0, prev at +4); a thread is
 * in at most one list at a time (a ready queue or a wait queue). */
struct k_thread {
    k_thread_t *next;
    k_thread_t *prev;
    uint32_t prio;
    uint32_t state;
    k_queue_t *queue;       /* the list it is in, or NULL */
    trap_frame_t *frame;    /* saved context while not running */
    uint64_t wake_at;       /* sleep or wait timeout (mtime), UINT64_MAX: none */
    k_thread_t *timer_next; /* sorted list of timeouts */
    int32_t wait_result;
    uint32_t slice_left;
    uint32_t cpu_mask;
    int32_t cpu; /* core it runs on, -1 */
    uint32_t id;
    int32_t exit_code;
    k_queue_t joiners;
    struct k_task *task; /* NULL: kernel thread */
    uint8_t *stack;      /* K_STACK_SIZE bytes; kernel stack of a task */
    const char *name;
    uint32_t is_idle;
    uint32_t syscalls;
    uint32_t suspended;
    uint32_t critical; /* HW-OSQM: its events raise the demand interrupt (osqm.c) */
};

/* What a vID of a task's endpoint table is, as the kernel made it (kmp_task.c, kmig.c): the
 * record requests are checked against and a migration moves, never the table's words alone.
 * kid: the kernel endpoint it belongs to (its vIDs go when it goes), handle: its entry in the
 * kernel's handle table; 0xFF none. */
enum k_eto {
    K_ETO_NONE = 0,
    K_ETO_SENDBUF,
    K_ETO_LOOKUP,
    K_ETO_CHAN,
    K_ETO_CREDIT,
    K_ETO_CCAREA,
    K_ETO_MEMBER
};
struct k_et_rec {
    uint8_t obj, kid, handle, spare;
};

/* A task's address space. */
struct k_task {
    uint32_t satp;
    uint32_t *root; /* level-1 page table (physical = virtual for the kernel) */
    uint8_t *data;  /* physical address of the data region */
    uint32_t data_pages;
    /* NAMP-SV endpoint table: [addr][kind][limit][0] per vID (namp_structs.h NAMP_ET_*) */
    uint32_t et[K_VIF_ET_MAX][4] __attribute__((aligned(16)));
    uint32_t et_count;
    struct k_et_rec et_rec[K_VIF_ET_MAX];
    int32_t vif_slot;           /* -1: none */
    int32_t vif_busy;           /* slot of an ended task whose abort still runs, -1: none */
    uint32_t stack_pages, prio; /* as created (task migration rebuilds it elsewhere) */
    uint32_t migrating;         /* a migration of this task is under way (kmig.c) */
};

struct k_cpu {
    k_thread_t *current;
    k_thread_t *idle;
    uint32_t tls; /* the hart's tp (set for kernel threads running here) */
    uint32_t online;
    uint32_t resched; /* time slice ended */
};

extern struct k_cpu k_cpus[K_MAX_CPUS];
extern k_config_t k_cfg;
extern k_stats_t k_stat;
/* The kernel lock: a ticket lock, so that every core gets it in turn (an LR/SC test-and-set
 * lock let one core starve for hundreds of ticks while the others kept re-taking it). kentry.S
 * releases it (serving + 1) after leaving the old stack. */
typedef struct {
    volatile uint32_t next;
    volatile uint32_t serving;
} k_ticket_lock_t;
extern k_ticket_lock_t k_lock;

static inline void k_lock_take(void)
{
    uint32_t me = atomic_fetch_add_u32(&k_lock.next, 1);
    /* The wait reads a device register: a device access synchronises the core with simulated
     * time, so the holder (another core, simulated time-decoupled) runs on instead of the waiter
     * spinning through its whole quantum. */
    while (atomic_load_u32(&k_lock.serving) != me)
        (void)mmio_read32(TILE_INFO_BASE + TILEINFO_CORE_ID);
}

static inline void k_lock_give(void) { atomic_store_u32(&k_lock.serving, k_lock.serving + 1); }

/* ==================================================================================================
 * Who may call whom (docs/kernel.md "Modules"). The core (sched, queue, rq_*, sync, syscall, api,
 * task, vm, kmp) calls only the core. The optional modules (NAMP-SV: vif, ksend; HW-OSQM: osqm;
 * MCAPI in tasks: kmp_task; migration: kmig, kmig_swps) call the core and the modules listed in
 * their section; the core reaches a module only through the hooks it registered (k_hooks) and the
 * system calls it set (k_syscall_set), so a firmware that never uses a module does not link it.
 * ================================================================================================ */

/* ---- core: linker and assembly symbols ---- */

extern char __global_pointer$[];
extern char __data_start[];
extern char k_text_start[] __asm__("_start"); /* the shared text a task maps starts here */
void k_trap_entry(void);                      /* kentry.S: mtvec of every core */

/* ---- core: generic doubly linked queues (queue.c; wait queues, the list ready queues) ---- */

void q_append(k_queue_t *q, k_thread_t *t);
void q_prepend(k_queue_t *q, k_thread_t *t);
void q_insert_prio(k_queue_t *q, k_thread_t *t); /* before the first of lower priority */
void q_remove(k_queue_t *q, k_thread_t *t);
k_thread_t *q_pop(k_queue_t *q);

/* ---- core: ready queues (rq_*.c, one layout per library) ----
 * `front` asks for the front of the queue: the seL4 layout honours it (woken and preempted
 * threads), the others always append. */
void rq_init(void);
void rq_insert(k_thread_t *t, int front);
void rq_remove(k_thread_t *t);
/* The thread the layout runs next on cpu (the highest priority allowed there), left queued, or
 * NULL; rq_take removes that thread when the scheduler runs it. One scan per scheduling decision:
 * the tick of every core makes one, under the kernel lock. */
k_thread_t *rq_next(uint32_t cpu);
void rq_take(k_thread_t *t);
/* The core's insertion (every caller but the layouts uses it): rq_insert, and every core's last
 * scheduling decision marked stale (k_rq_stale), since the thread may outrank what it runs. */
void k_rq_insert(k_thread_t *t, int front);
/* Bit c: core c scans at its next scheduling decision. Clear: nothing became ready and no
 * priority changed since its last one, so the queue only lost threads and the thread it chose
 * still is its choice (sched.c, schedule). Kernel lock held. */
extern uint32_t k_rq_stale;
extern const char *const k_rq_layout_name;
/* The layouts' own state, which the HW-OSQM is told (osqm.c). */
#if K_RQ_LAYOUT == K_RQ_FLAGS
#define K_FLAG_WORDS ((K_MAX_THREADS + 31) / 32)
extern volatile uint32_t k_ready_bits[K_FLAG_WORDS]; /* bit i: thread i is ready */
/* The ready threads of priority prio in the order the round-robin takes them (tests). */
int rq_flags_order(uint32_t prio, k_thread_t **out, int max);
#else
extern k_queue_t k_ready[K_PRIOS]; /* rq_list.c, rq_bitmap.c */
#endif
#if K_RQ_LAYOUT == K_RQ_BITMAP
extern volatile uint32_t k_ready_bitmap; /* bit p: priority p not empty */
#endif

/* ---- core: scheduler and threads (sched.c) ---- */

k_thread_t *k_current(void);
uint32_t k_cpu_id(void);
void k_make_ready(k_thread_t *t, int front);
/* Tells the core running the lowest priority below t's (if any) to reschedule (IPI). */
void k_kick(const k_thread_t *t);
/* The thread table: index of t, thread at index i (NULL if out of range or free). The `flags`
 * ready-queue layout and the HW-OSQM name threads by index (bit offsets). */
uint32_t k_thread_index(const k_thread_t *t);
k_thread_t *k_thread_at(uint32_t i);
int k_thread_valid(const k_thread_t *t);
/* Blocks the current thread on q (NULL: only the timeout) until woken or the timeout (mtime,
 * UINT64_MAX: none); the result is set by the waker or K_ETIMEDOUT. */
void k_block(k_queue_t *q, uint64_t wake_at, int by_prio);
/* Wakes t (removed from its wait queue and timer list) with result. */
void k_wake(k_thread_t *t, int32_t result);
void k_thread_end(k_thread_t *t, int code);
/* The slot of an ended thread freed by its joiner (a task's address space with it). */
void k_thread_release(k_thread_t *t);
void k_timer_insert(k_thread_t *t);
void k_timer_remove(k_thread_t *t);
k_thread_t *k_thread_alloc(void);
void k_thread_setup_frame(k_thread_t *t, uint32_t pc, uint32_t sp, uint32_t arg, int user);
k_thread_t *k_sys_thread_create(const char *name, void (*entry)(void *), void *arg, uint32_t prio,
                                uint32_t cpu_mask);
/* A thread or task more that keeps the tile alive (task.c). */
void k_live_add(void);
/* 1 once this core entered the scheduler (before: set-up code calls the kernel directly). */
int k_started_here(void);
void k_kputs(const char *s, uint32_t len);
trap_frame_t *k_trap(trap_frame_t *f); /* kentry.S */

/* ---- core: mutexes and semaphores (sync.c), their system-call halves ---- */

int k_sys_mutex_lock(k_mutex_t *m);
int k_sys_mutex_unlock(k_mutex_t *m);
int k_sys_sem_take(k_sem_t *s, uint32_t timeout);
int k_sys_sem_give(k_sem_t *s);

/* ---- core: system calls (syscall.c) ----
 * Dispatched from a table indexed by the number (a7). A handler reads its arguments from the
 * frame and returns the result for a0; a caller it left waiting (blocked, sleeping) has a0 = K_OK
 * until its waker sets it. An
 * unset entry is K_ENOSYS; a module sets its calls when it is first used (k_syscall_set). */
struct k_thread_args { /* K_SYS_THREAD_CREATE's argument (api.c) */
    const char *name;
    void (*entry)(void *);
    void *arg;
    uint32_t prio, cpu_mask;
};
typedef int32_t (*k_syscall_fn)(k_thread_t *cur, trap_frame_t *f);
void k_syscall(trap_frame_t *f);
void k_syscall_set(uint32_t n, k_syscall_fn fn);

/* ---- core: tasks and address spaces (task.c, vm.c) ---- */

k_thread_t *k_sys_task_create(const k_task_image_t *image);
void k_task_kill(k_thread_t *t, uint32_t cause, const trap_frame_t *f);
/* The ended task's address space at its join (sched.c: k_thread_release). */
void k_task_release(k_thread_t *t);
/* A released task's space freed once its slot is idle (kernel lock held): 1 done, 0 not yet. */
int k_task_space_free(struct k_task *task);
/* Task migration: stop a task where it is (not in a kernel wait) and let it go on. Kernel lock
 * not held by the caller. */
int k_task_stop(k_thread_t *t, uint64_t *wake_at);
void k_task_unstop(k_thread_t *t, uint64_t wake_at);
void *vm_page_alloc(void);
void vm_page_free(void *p);
int vm_map(uint32_t *root, uint32_t va, uint32_t pa, uint32_t flags);
/* Physical address of [va, va+len) in the task if all of it is mapped with `flags`, else 0. */
uint32_t vm_user_range(const struct k_task *task, uint32_t va, uint32_t len, uint32_t flags);
void vm_space_free(struct k_task *task);

/* ---- core: MCAPI in threads (kmp.c; its K_SYS_MP_WAIT in syscall.c) ---- */

/* Wakes the threads waiting for the library (the external interrupt; kernel lock held). */
void k_mp_event(void);

/* ---- the optional modules' hooks ----
 * A module registers its hooks the first time it is used; NULL: the module is absent (or not used
 * yet), and the core goes on as without it. Migration needs none: the core never calls it. */
struct k_vif_hooks {                         /* NAMP-SV (vif.c) */
    void (*task_ended)(struct k_task *task); /* trap context: the vif back, READY withdrawn */
    int (*task_quiet)(struct k_task *task);  /* 1 once its slot is idle (pages may go) */
};
struct k_osqm_hooks {          /* HW-OSQM (osqm.c), kernel lock held */
    void (*sched_entry)(void); /* first at every scheduling decision (the wake-up queue) */
    void (*ext_irq)(void);     /* first in the external interrupt (the demand interrupt) */
};
struct k_mp_task_hooks { /* MCAPI in tasks (kmp_task.c) */
    /* the join of a task: 1 when the service thread took its address space (frees it later) */
    int (*task_release)(k_thread_t *t, struct k_task *task);
};
struct k_hooks {
    const struct k_vif_hooks *vif;
    const struct k_osqm_hooks *osqm;
    const struct k_mp_task_hooks *mp_task;
};
extern struct k_hooks k_hooks; /* sched.c */

/* ---- module NAMP-SV (vif.c, ksend.c): calls the core ---- */

/* The task's vif as the task sees it: saved at the source (a transfer under way ends first; one in
 * a persistent wait is aborted and started again at the destination), restored at the
 * destination (migration). */
struct k_vif_view {
    uint32_t flags, p1, p2, p3, status;
    uint32_t action; /* K_VIF_IDLE, K_VIF_PARK (finished: STATUS), K_VIF_RESTART */
};
enum { K_VIF_IDLE = 0, K_VIF_PARK = 1, K_VIF_RESTART = 2 };
int k_vif_save(struct k_task *task, struct k_vif_view *v);
void k_vif_restore(struct k_task *task, const struct k_vif_view *v);
/* A vif slot no task has and the MCAPI library does not use (lib_busy: namp_slots_busy()):
 * `preferred` if it is one, else the first; -1 when none. */
int k_vif_free_slot(unsigned preferred, uint32_t lib_busy);
/* vif slots a task holds now (tests count them). */
uint32_t k_vif_slots_taken(void);
/* 1: the slot was a vif's before (reserved from the library for good). */
int k_vif_slot_known(unsigned slot);
/* A task's vif back at its end; 1 once its slot is idle (pages may go). Registered as hooks. */
void k_vif_release(struct k_task *task);
int k_vif_quiet(struct k_task *task);
int k_vif_clear_entry(k_thread_t *t, uint32_t vid);
int k_vif_add_owned(k_thread_t *t, uint32_t tid, uint32_t kind, uint32_t pa, uint32_t limit,
                    const struct k_et_rec *rec);
/* A collective area's physical address: the task's own, writable, contiguous memory; 0 if not. */
uint32_t k_vif_ccarea_pa(const struct k_task *task, uint32_t va, uint32_t bytes);
/* K_SYS_NAMP_SEND (ksend.c), set by the vif module: the software baseline of a vif send. */
int32_t k_sys_namp_send(k_thread_t *cur, trap_frame_t *f);

/* ---- module HW-OSQM (osqm.c): calls the core ---- */

/* The wake-up queue emptied into the ready queues; the demand interrupt's critical threads.
 * Registered as hooks by k_osqm_enable_mode. */
void k_osqm_drain(void);
void k_osqm_irq(void);
/* K_SYS_OSQM_WAIT, K_SYS_OSQM_WAIT_EP (set by k_osqm_enable_mode; K_EINVAL until then). */
int32_t k_sys_osqm_wait(k_thread_t *cur, trap_frame_t *f);
int32_t k_sys_osqm_wait_ep(k_thread_t *cur, trap_frame_t *f);

/* ---- module MCAPI in tasks (kmp_task.c): calls the core and NAMP-SV; its interface for the
 * migration module is in kernel/kmp.h ---- */

/* K_SYS_MP_REQ, K_SYS_MP_RES (set when the module is first used). */
int32_t k_sys_mp_req(k_thread_t *cur, trap_frame_t *f);
int32_t k_sys_mp_res(k_thread_t *cur, trap_frame_t *f);
/* Registered as the hook: the ended task's space to the service thread, 1 if it took it. */
int kmp_task_release(k_thread_t *t, struct k_task *task);

/* ---- module migration (kmig.c, kmig_swps.c; kmig_swps.h between the two): calls the core,
 * NAMP-SV and MCAPI in tasks; nothing calls it but the firmware (kernel/migrate.h) ---- */

/* Sv32 PTE bits. */
#define PTE_V (1u << 0)
#define PTE_R (1u << 1)
#define PTE_W (1u << 2)
#define PTE_X (1u << 3)
#define PTE_U (1u << 4)
#define PTE_A (1u << 6)
#define PTE_D (1u << 7)

#define K_MUTEX_MAGIC 0x4d555458u
#define K_SEM_MAGIC   0x53454d41u

#endif
