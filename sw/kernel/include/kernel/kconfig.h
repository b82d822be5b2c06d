/* Compile-time limits of the kernel. Each can be overridden with -D when building the library. */
#ifndef KERNEL_KCONFIG_H
#define KERNEL_KCONFIG_H

#ifndef K_PRIOS
#define K_PRIOS 16            /* priorities 0 (lowest) .. K_PRIOS-1; the bitmap holds 32 */
#endif
#ifndef K_MAX_THREADS
#define K_MAX_THREADS 48      /* threads and tasks, idle threads included */
#endif
#ifndef K_STACK_SIZE
#define K_STACK_SIZE 3072     /* bytes per thread stack (M-mode stack of a task) */
#endif
#ifndef K_MAX_CPUS
#define K_MAX_CPUS 4          /* cores of a tile the kernel schedules on */
#endif
#ifndef K_PAGE_POOL
#define K_PAGE_POOL 48        /* 4 KiB pages for page tables, task data and stacks */
#endif
#ifndef K_TICK_DEFAULT
#define K_TICK_DEFAULT 1000   /* mtime ticks per kernel tick (100 us at 10 MHz) */
#endif

/* Virtual layout of a task's address space (docs/kernel.md). */
#define K_USER_DATA 0x10000000u        /* private data region */
#define K_USER_DATA_MAX 0x00100000u
#define K_USER_BUF 0x20000000u         /* endpoint buffers mapped by the kernel */
#define K_USER_VIF 0x30000000u         /* the task's vif interface page, whatever its slot: the same
                                          address on every tile (task migration) */
#define K_USER_STACK_TOP 0x7F000000u   /* stack grows down from here; a guard page below */
#define K_PAGE_SIZE 4096u

#if K_PRIOS > 32
#error "K_PRIOS > 32: the bitmap layout holds one word"
#endif
#endif
