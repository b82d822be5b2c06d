/* Compile-time limits of the kernel. Each can be overridden with -D when building the library. */
#ifndef KERNEL_KCONFIG_H
#define KERNEL_KCONFIG_H

#ifndef K_PRIOS
#define K_PRIOS 16 /* priorities 0 (lowest) .. K_PRIOS-1; the bitmap holds 32 */
#endif
#ifndef K_MAX_THREADS
#define K_MAX_THREADS 48 /* threads and tasks, idle threads included */
#endif
#ifndef K_STACK_SIZE
#define K_STACK_SIZE 3072 /* bytes per thread stack (M-mode stack of a task) */
#endif
#ifndef K_MAX_CPUS
#define K_MAX_CPUS 4 /* cores of a tile the kernel schedules on */
#endif
#ifndef K_PAGE_POOL
#define K_PAGE_POOL 48 /* 4 KiB pages for page tables, task data and stacks */
#endif
/* Tasks with the MCAPI library (kmp_task.c, docs/security.md "Quotas"): what each task reserves
 * at kmp_task_attach unless its creator gives other numbers (kmp_task_attach_quota), what all
 * tasks of a tile may reserve together, and how long a migrated task's tombstones redirect. */
#ifndef K_TASK_Q_EPS
#define K_TASK_Q_EPS 3 /* kernel endpoints of a task (at most MP_TASK_EPS) */
#endif
#ifndef K_TASK_Q_HANDLES
/* kernel handles of a task: lookups, channels, contributor handles
 * (its endpoint table has K_VIF_ET_MAX entries: at most 15 handles) */
#define K_TASK_Q_HANDLES 15
#endif
#ifndef K_TASK_EP_SHARE
#define K_TASK_EP_SHARE 12 /* of the library's 16 endpoints: the rest stay the kernel's */
#endif
#ifndef K_TASK_HANDLES
#define K_TASK_HANDLES 120 /* the kernel's handle table for tasks (8 tasks of the default quota) */
#endif
#ifndef K_TOMBSTONE_TICKS
#define K_TOMBSTONE_TICKS 2000 /* a moved connection-less endpoint redirects late senders */
#endif
/* MCAPI ports of the kernels' own protocols (task migration: kmig.c): no task creates or looks up
 * one, so no task can speak a kernel protocol (docs/security.md "Trust boundaries"). */
#ifndef K_PORT_KERNEL_FIRST
#define K_PORT_KERNEL_FIRST 0x4B00u
#define K_PORT_KERNEL_LAST  0x4BFFu
#endif
#ifndef K_TICK_DEFAULT
#define K_TICK_DEFAULT 1000 /* mtime ticks per kernel tick (100 us at 10 MHz) */
#endif

/* Virtual layout of a task's address space (docs/kernel.md). */
#define K_USER_DATA      0x10000000u /* private data region */
#define K_USER_DATA_MAX  0x00100000u
#define K_USER_BUF       0x20000000u /* endpoint buffers mapped by the kernel */
/* the task's vif interface page, whatever its slot: the same
 * address on every tile (task migration) */
#define K_USER_VIF       0x30000000u
#define K_USER_STACK_TOP 0x7F000000u /* stack grows down from here; a guard page below */
#define K_PAGE_SIZE      4096u

#if K_PRIOS > 32
#error "K_PRIOS > 32: the bitmap layout holds one word"
#endif
#endif
