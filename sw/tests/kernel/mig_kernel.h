/* The kernel side the task-migration firmwares share (mig_chain, mig_bad, mig_stress, mig_study):
 * the tile's set-up and end, a task's control words, waiting for a task's result. */
#ifndef MIG_KERNEL_H
#define MIG_KERNEL_H

#include <stdint.h>

#include "kernel/kernel.h"
#include "mig.h"

/* A migratable task running mig_task_main, created suspended and attached to the MCAPI service
 * with kmp_task_attach(t, vif) (checked); NULL if it could not be created. */
k_thread_t *mig_create(const char *name, uint32_t vif);
/* The control words of task t (mig.h), in its data region. */
struct mig_task *mig_ctl(k_thread_t *t);
/* Waits up to max_ticks for t to report done (checked). */
struct mig_task *mig_finish(k_thread_t *t, uint32_t max_ticks);
/* Lets t end (go = 2) and joins it; it must end with 0 (checked). */
void mig_end(k_thread_t *t);
/* MCAPI on this tile, then the task and migration services (checked). */
void mig_services_start(void);
/* The services stopped; the tile ends with the test's verdict. */
void mig_services_stop_and_exit(void);
/* main(): the kernel with tick_ticks mtime ticks per tick, tile_main as its main thread. */
__attribute__((noreturn)) void mig_kernel_main(void (*tile_main)(void *), uint32_t tick_ticks);

#endif
