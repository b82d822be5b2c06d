/* Task migration with NAMP-PS (thesis 3.6, Table 3.3; sw/kernel/kmig.c, docs/kernel.md "Task
 * migration"): a U-mode task that uses the MCAPI library (kmp_task) moves to another tile with its
 * address space, registers, endpoints, channels and vif, warm standby, in the three phases of
 * Table 3.3; its code keeps its endpoint handles and never notices. Every tile that takes part
 * (source, destination, the tiles of the task's channel peers) runs the migration service. */
#ifndef KERNEL_MIGRATE_H
#define KERNEL_MIGRATE_H

#include <stdint.h>

#include "kernel/kernel.h"

enum k_migrate_method {
    K_MIGRATE_PAUSE = 1,    /* the state of the art: communication paused for the whole move */
    K_MIGRATE_RELOCATE = 2, /* NAMP-PS endpoint relocation at the switch-over (Fig. 3.38) */
    K_MIGRATE_DUALCAST = 3, /* NAMP-PS dualcast from the pre-migration phase on (Fig. 3.39) */
    /* protection switching by the kernels, no PS hardware (3.6.3):
     * the source forwards, the senders' kernels switch them
     * (sw/kernel/kmig_swps.c); channels only (K_ENOTSUP for a task
     * with a connection-less receive endpoint) */
    K_MIGRATE_SOFTWARE = 4,
};

typedef struct k_migrate_result {
    uint32_t tid;                              /* the task's thread id at the destination */
    uint64_t t_start, t_stop, t_resume, t_end; /* mtime: begin, task stopped, running again, done */
    uint32_t bytes_moved;                      /* pages and buffer elements copied */
    uint32_t phase1_cycles, phase2_cycles, phase3_cycles; /* this tile's cycles per phase */
    /* the task's transfer at the stop: 0 none, 1 finished (moved as
     * it was), 2 under way (aborted here, started again there) */
    uint32_t vif_action;
} k_migrate_result_t;

/* The service thread (one per tile; needs mcapi_initialize and kmp_task_service_start first). */
int k_migrate_service_start(uint32_t prio);
void k_migrate_service_stop(void);

/* Moves task t (a task of this tile set up with kmp_task_attach) to `tile`. Blocks the calling
 * kernel thread until the task runs there: K_OK, and t has ended here (exit code K_MIGRATED);
 * or an error, and the task runs on here as before: K_EINVAL (bad tile, itself, not a kmp task),
 * K_ENOTSUP (no NAMP-PS; K_MIGRATE_SOFTWARE needs none, but no connection-less endpoint), K_EBUSY (a migration of t is under way, the task sits in a kernel wait
 * or its transfer does not settle, or one of its ports is taken at the destination), K_ENOMEM
 * (the destination's pages, threads, endpoint tables or vifs are full), K_ETIMEDOUT (a tile's
 * service did not answer). A task that ends while it is being migrated: K_EINVAL. */
int k_task_migrate(k_thread_t *t, unsigned tile, int method, k_migrate_result_t *result);

/* A task that migrated to this tile and has not been taken yet (NULL: none): its creator's role
 * (join, read its data) passes to whoever takes it. */
k_thread_t *k_migrate_take_arrival(void);

#define K_MIGRATED 0x2000 /* exit code of a task's thread at the tile it left */

#endif
