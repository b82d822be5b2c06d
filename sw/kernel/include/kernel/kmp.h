/* MCAPI from kernel threads (sw/kernel/kmp.c): every library call under kmp_lock. */
#ifndef KERNEL_KMP_H
#define KERNEL_KMP_H

void kmp_lock(void);
void kmp_unlock(void);
/* Times a thread was suspended inside the library (instead of sleeping the core). */
unsigned long kmp_wait_count(void);
#define KMP(call) do { kmp_lock(); call; kmp_unlock(); } while (0)

/* The MCAPI library in tasks (kmp_task.c, mp/task.h; needs an MCAPI library linked). */
#include <stdint.h>
#include "kernel/kernel.h"
/* Starts the kernel thread that serves the tasks' endpoint requests; stop it when done (it ends
 * within a tick). */
int kmp_task_service_start(uint32_t prio);
void kmp_task_service_stop(void);
/* Sets up task t (created suspended, data region starting with an mp_task_state_t) for the
 * library: its send buffer in the endpoint table, the vif of NAMP slot `slot`, the control words.
 * K_EBUSY: the MCAPI library uses that slot now. */
int kmp_task_attach(k_thread_t *t, unsigned slot);
/* Physical address of [va, va+len) in task t if mapped (inside one page), else NULL. */
void *kmp_task_ptr(k_thread_t *t, uint32_t va, uint32_t len);

/* For the migration runtime (kmig.c, docs/kernel.md "Task migration"). */
#include "mcapi.h"
struct kmp_task_ep {
    uint32_t kid, idx;          /* the kernel's index, the task's endpoint index (receive page) */
    mcapi_endpoint_t h;
};
struct kmp_task_ep_spec {
    uint32_t idx, port, hold;   /* hold: allocations "full" until released (its page comes later) */
    uint32_t channel_recv, peer_node, peer_handle;
};
/* The task's endpoints; how many. */
int kmp_task_list(k_thread_t *t, struct kmp_task_ep *out, int max);
/* An endpoint on the task's receive page spec->idx, owned by t: its kernel index, or K_ENOMEM,
 * K_EBUSY (the port is taken here), K_EINVAL. */
int kmp_task_adopt(k_thread_t *t, const struct kmp_task_ep_spec *spec, mcapi_endpoint_t *h);
/* The task's endpoints are not its any more (they moved: tombstones stay in the library). */
void kmp_task_forget(k_thread_t *t);
/* Deletes the task's endpoints (a migration that failed after its destination made them). */
void kmp_task_drop(k_thread_t *t);

#endif
