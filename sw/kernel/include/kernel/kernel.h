/* namp-vp kernel: preemptive threads with priorities, sleep, mutexes, semaphores, SMP on the cores
 * of one tile, and user tasks in U-mode with their own Sv32 address space (docs/kernel.md).
 *
 * Every kernel service is entered through `ecall` (from M-mode threads as well as from U-mode
 * tasks), so the kernel runs only in its trap handler, with interrupts off and under the one
 * kernel lock of the tile. The functions below are the M-mode thread side of those calls. */
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/kconfig.h"
#include "kernel/syscall.h"

/* Error codes (negative return values). */
enum {
    K_OK = 0,
    K_EINVAL = -1,    /* bad argument (NULL, wrong object, out of range) */
    K_ENOMEM = -2,    /* thread, page or object pool exhausted */
    K_EDEADLK = -3,   /* mutex already held by the caller */
    K_EPERM = -4,     /* unlock by a thread that does not own the mutex */
    K_ETIMEDOUT = -5, /* the timeout of a wait expired */
    K_EAGAIN = -6,    /* would block and the timeout is 0 */
    K_ENOSYS = -7,    /* no such system call (M-mode thread; a task is killed instead) */
    K_EBUSY = -8,     /* the object is busy (a task migrating, blocked in the kernel) */
    K_ENOTSUP = -9,   /* the hardware lacks a feature the call needs (e.g. NAMP-PS) */
};

#define K_FOREVER UINT32_MAX /* timeout: wait without limit */

/* Exit status of a task the kernel killed: K_KILLED + cause (exception code; 16 = bad system
 * call). Ordinary exit codes are 0..255. */
#define K_KILLED         0x1000
#define K_KILLED_SYSCALL (K_KILLED + 16)

/* Ready-queue layouts (K_RQ_LAYOUT, chosen per kernel library). */
#define K_RQ_FREERTOS 0 /* doubly linked, append at the tail, list item in the thread */
#define K_RQ_SEL4     1 /* head/end pointers, wake-ups inserted at the front */
#define K_RQ_BITMAP   2 /* FreeRTOS lists plus a bitmap of non-empty priorities */
#define K_RQ_FLAGS    3 /* bitmap scheduler: one ready bit per thread, no list (rq_flags.c) */

typedef struct k_thread k_thread_t;

/* Queue header as the hardware sees it (HW-OSQM Q_LAYOUT: head at +0, tail at +4). */
typedef struct k_queue {
    k_thread_t *head;
    k_thread_t *tail;
} k_queue_t;

typedef struct k_mutex {
    k_thread_t *owner;
    k_queue_t waiters; /* highest priority first, FIFO among equals */
    uint32_t magic;
} k_mutex_t;

typedef struct k_sem {
    uint32_t count;
    k_queue_t waiters;
    uint32_t magic;
} k_sem_t;

typedef struct k_config {
    uint32_t tick_ticks;  /* mtime ticks per kernel tick (time-slice unit); 0 = default */
    uint32_t slice_ticks; /* kernel ticks a thread runs before an equal-priority one; 0 = 1 */
    int quiet;            /* 1: no "k: ..." lines for killed tasks */
} k_config_t;

/* ---- set-up (M-mode, before k_start) ---- */

/* Initialises the kernel (call on one core, before creating threads). */
void k_init(const k_config_t *config);
/* Every core of the tile calls this; it never returns. Cores beyond K_MAX_CPUS exit 0. When no
 * thread is left, every core exits with the tile's status (the OR of the non-zero kernel
 * thread exit codes, killed tasks excluded). */
__attribute__((noreturn)) void k_start(void);

/* Creates a kernel thread (M-mode) running entry(arg) at priority prio (0 lowest ..
 * K_PRIOS-1). Returns the thread or NULL (bad priority, no free thread). Allowed before k_start
 * and from threads. cpu_mask: cores it may run on (0 = all). */
k_thread_t *k_thread_create(const char *name, void (*entry)(void *), void *arg, uint32_t prio,
                            uint32_t cpu_mask);

/* ---- thread calls (M-mode threads) ---- */

void k_yield(void);
void k_sleep(uint32_t ticks); /* kernel ticks; 0 = yield */
__attribute__((noreturn)) void k_exit(int code);
/* Waits until t has ended and returns its exit status (K_ETIMEDOUT after timeout ticks). */
int k_join(k_thread_t *t, uint32_t timeout, int *status);
k_thread_t *k_self(void);
uint32_t k_tid(const k_thread_t *t);
uint32_t k_cpu(void);   /* core the caller runs on now */
uint64_t k_ticks(void); /* kernel ticks since k_start on core 0 */
int k_set_priority(k_thread_t *t, uint32_t prio);

int k_mutex_init(k_mutex_t *m);
int k_mutex_lock(k_mutex_t *m);
int k_mutex_unlock(k_mutex_t *m);

int k_sem_init(k_sem_t *s, uint32_t count);
int k_sem_take(k_sem_t *s, uint32_t timeout); /* 0: try; K_FOREVER: no limit */
int k_sem_give(k_sem_t *s);

/* Prints one whole line (formatted with vsnprintf on the caller's stack) in one system call, so
 * lines of threads sharing a core do not interleave. */
void k_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- user tasks ---- */

/* A task image: entry point in the shared text (mapped R-X for U), and initial contents of its
 * private data region, copied into fresh pages mapped at K_USER_DATA. */
typedef struct k_task_image {
    const char *name;
    void (*entry)(void *data); /* called with a0 = K_USER_DATA */
    const void *data_init;     /* may be NULL */
    uint32_t data_size;        /* bytes of the data region (>= sizeof init), <= K_USER_DATA_MAX */
    uint32_t stack_pages;      /* 0 = 1 */
    uint32_t prio;
    uint32_t suspended; /* 1: created suspended, k_task_resume starts it */
} k_task_image_t;

/* Creates a U-mode task in its own address space. Returns its thread or NULL. */
k_thread_t *k_task_create(const k_task_image_t *image);
/* Starts a task created suspended (after its vif and endpoint table are set up). */
int k_task_resume(k_thread_t *t);
/* Physical address of a task's data region (for the creator to check results after the task
 * has ended), or NULL. */
void *k_task_data(const k_thread_t *t);
/* Pages of the task page pool not in use (a task's pages come back once nothing can touch them:
 * docs/kernel.md "SV isolation"). */
uint32_t k_pages_free(void);
/* Tests (docs/security.md): from now on free pages hold `pattern` (0: off); k_pages_damage counts
 * the words of free pages that changed (written after the page went back to the pool);
 * k_page_free_at: addr lies in a free page of the pool. */
void k_pages_poison(uint32_t pattern);
uint32_t k_pages_damage(void);
int k_page_free_at(uint32_t addr);
/* Maps count physical pages at va into a task (before it runs): R, W per `writable`, U. For
 * endpoint buffers and virtual-interface pages. */
int k_task_map(k_thread_t *t, uint32_t va, uint32_t pa, uint32_t count, int writable);

/* ---- NAMP-SV (sw/kernel/vif.c, docs/kernel.md "NAMP-SV") ----
 * The kernel keeps each task's endpoint table; entries get virtual IDs 0, 1, ... in the order
 * they are added. The task names endpoints only by vID in its virtual interface. */
#define K_VIF_ET_MAX 16
/* Adds a remote-endpoint handle (physical address, e.g. an MCAPI endpoint from
 * mcapi_endpoint_get) to t's table; returns its vID or a negative error. */
int k_vif_add_handle(k_thread_t *t, const void *handle);
/* Adds a channel's credit path: the sender's handle the task (the channel's receiving side) may
 * start credit mode (CoM, REVOKE) on; CoM on any other entry is refused by the vif. */
int k_vif_add_credit(k_thread_t *t, const void *handle);
/* Adds a send buffer (mp_cbuffer) at task virtual address va: bytes (>= its header) of the task's
 * own contiguous memory, the window the adapter keeps every access to the buffer in. */
int k_vif_add_sendbuf(k_thread_t *t, uint32_t va, uint32_t bytes);
/* A collective area of the task (its own memory, contiguous): the vID of a NAMP_ET_CCAREA entry. */
int k_vif_add_ccarea(k_thread_t *t, uint32_t va, uint32_t bytes);
/* A contributor's member handle (NAMP_ET_MEMBER): the only member of a task's reduction or gather. */
int k_vif_add_member(k_thread_t *t, const void *handle);
/* Gives t the virtual interface of NAMP slot `slot` (a vif slot): the configuration page gets
 * t's table, the interface page is mapped into t at K_USER_VIF (returned), READY. */
uint32_t k_vif_attach(k_thread_t *t, unsigned slot);

/* ---- HW-OSQM (sw/kernel/osqm.c) ----
 * Tells the OSQM the kernel's ready-queue layout and lock (needs NA_FEATURE_NAMP_OSQM), in the
 * direct mode: the hardware inserts a woken thread into its ready queue (or, with the `flags`
 * layout, sets its ready bit). */
int k_osqm_enable(void);
/* The modes (docs/kernel.md "HW-OSQM"): K_OSQM_DIRECT as k_osqm_enable; K_OSQM_WAKEUP: the
 * hardware inserts into the kernel's separate wake-up queue (a bit field with `flags`), which the
 * kernel empties into the ready queues at every scheduler entry. */
enum { K_OSQM_DIRECT = 0, K_OSQM_WAKEUP = 1 };
int k_osqm_enable_mode(unsigned mode);
/* Marks t (NULL: the caller) critical (on = 1) or not: its OSQM events raise the demand
 * interrupt, and the kernel schedules it at once (its priority decides where, as for any wake-up). */
int k_thread_critical(k_thread_t *t, int on);
/* Blocks the calling thread until its NAMP slot's transfer is done; the hardware wakes it. */
int k_osqm_wait(unsigned slot);
/* Blocks until a message is in endpoint ep's receive buffer rx (the OSQM wakes it). */
int k_osqm_wait_ep(void *ep, void *rx);
/* For interrupt handlers the kernel runs (irq_set_handler(IRQ_M_EXT, ...)): they run inside the
 * kernel with its lock held and must not make system calls; this gives a semaphore from there. */
int k_isr_sem_give(k_sem_t *s);
/* The ready queue of priority prio, front first (at most max threads); returns how many. */
int k_ready_order(uint32_t prio, k_thread_t **out, int max);
/* Checks every ready queue (links, ends, priorities, bitmap); returns the inconsistencies. */
int k_check_queues(void);

/* ---- statistics ---- */
typedef struct k_stats {
    uint32_t switches, ticks, syscalls, ipis, killed, preemptions, osqm_waits;
    uint32_t osqm_drained;        /* threads moved from the wake-up queue to the ready queues */
    uint32_t osqm_demand_irqs;    /* critical threads the demand interrupt handed the kernel */
    uint32_t osqm_critical_waits; /* waits of critical threads that blocked */
} k_stats_t;
void k_get_stats(k_stats_t *out);
/* System calls a thread or task has made (the NAMP-SV tests count a task's). */
uint32_t k_syscalls_of(const k_thread_t *t);

#endif
