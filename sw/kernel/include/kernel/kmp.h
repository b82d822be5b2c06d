/* MCAPI from kernel threads (sw/kernel/kmp.c): every library call under kmp_lock. */
#ifndef KERNEL_KMP_H
#define KERNEL_KMP_H

void kmp_lock(void);
void kmp_unlock(void);
/* Times a thread was suspended inside the library (instead of sleeping the core). */
unsigned long kmp_wait_count(void);
#define KMP(call)     \
    do {              \
        kmp_lock();   \
        call;         \
        kmp_unlock(); \
    } while (0)

/* The MCAPI library in tasks (kmp_task.c, mp/task.h; needs an MCAPI library linked). */
#include <stdint.h>
#include "kernel/kernel.h"
/* Starts the kernel thread that serves the tasks' endpoint requests; stop it when done (it ends
 * within a tick). */
int kmp_task_service_start(uint32_t prio);
void kmp_task_service_stop(void);
/* Sets up task t (created suspended, data region starting with an mp_task_state_t) for the
 * library: its send buffer in the endpoint table, the vif of NAMP slot `slot`, the control words,
 * and its quota reserved (docs/security.md "Quotas"): K_TASK_Q_EPS kernel endpoints and
 * K_TASK_Q_HANDLES kernel handles (lookups, contributor handles), or those of q. K_EBUSY: the MCAPI
 * library uses that slot now; K_ENOMEM: the tile's tasks have reserved its share already. */
typedef struct kmp_task_quota {
    uint32_t endpoints; /* kernel endpoints at once (receive pages), at most MP_TASK_EPS */
    uint32_t handles;   /* kernel handles: lookups, contributor handles */
} kmp_task_quota_t;
int kmp_task_attach(k_thread_t *t, unsigned slot);
int kmp_task_attach_quota(k_thread_t *t, unsigned slot, const kmp_task_quota_t *q);
/* The shared tables the kernel keeps for tasks, entries in use (a test counts them before and
 * after: every entry comes back). */
typedef struct kmp_task_tables {
    uint32_t records, endpoints, handles, reserved_endpoints, reserved_handles;
    uint32_t library_endpoints; /* the MCAPI library's endpoint table (the kernel's own too) */
    /* library endpoints whose receive buffer lies in a free page
     * (a breach: must be 0) */
    uint32_t dangling;
    uint32_t vif_slots; /* vif slots tasks hold */
    uint32_t pages_free;
} kmp_task_tables_t;
void kmp_task_tables(kmp_task_tables_t *out);
/* Physical address of [va, va+len) in task t if mapped (inside one page), else NULL. */
void *kmp_task_ptr(k_thread_t *t, uint32_t va, uint32_t len);
/* Where task t stands, for a diagnosis (a test that finds a task stuck prints it): its thread
 * state and wake-up time, its vif (slot, FLAGS, STATUS as the task sees them, the slot's own
 * FLAGS and STATUS) and its send buffer's indices. K_EINVAL if t is not a kmp task. */
typedef struct kmp_task_diag {
    uint32_t thread_state, suspended;
    uint64_t wake_at;
    int32_t vif_slot;
    uint32_t vif_flags, vif_status, slot_flags, slot_status;
    uint32_t tx_rd, tx_wr;
} kmp_task_diag_t;
int kmp_task_diagnose(k_thread_t *t, kmp_task_diag_t *d);

/* For the migration runtime (kmig.c, docs/kernel.md "Task migration"). */
#include "mcapi.h"
struct kmp_task_ep {
    uint32_t kid, idx; /* the kernel's index, the task's endpoint index (receive page) */
    mcapi_endpoint_t h;
};
struct kmp_task_ep_spec {
    uint32_t idx, port, hold; /* hold: allocations "full" until released (its page comes later) */
    uint32_t channel_recv, peer_node, peer_handle;
};
/* The task's live endpoints, how many (K_ENOMEM: more than max); *deleting: endpoints it deleted
 * that are not reaped yet. */
int kmp_task_list(k_thread_t *t, struct kmp_task_ep *out, int max, int *deleting);
/* 1: no request of the task posted, under way or waiting to be collected. */
int kmp_task_requests_idle(k_thread_t *t);
/* The task's quota (its record); a new task's record with quota q reserved (the destination). */
int kmp_task_quota(k_thread_t *t, kmp_task_quota_t *q);
int kmp_task_admit(k_thread_t *t, const kmp_task_quota_t *q);
void kmp_task_unadmit(k_thread_t *t);
/* An endpoint on the task's receive page spec->idx, owned by t: its kernel index, or K_ENOMEM,
 * K_EBUSY (the port is taken here), K_EINVAL. */
int kmp_task_adopt(k_thread_t *t, const struct kmp_task_ep_spec *spec, mcapi_endpoint_t *h);
/* A kernel handle charged to t's quota (NULL: used up), and what vID vid of t is (K_ETO_*). */
struct mp_ephandle *kmp_task_handle(k_thread_t *t);
int kmp_task_set_vid(k_thread_t *t, uint32_t vid, uint32_t obj, uint32_t kid, const void *handle);
/* The task moved on: its retired (channel) endpoints' entries are free, its connection-less ones
 * tombstones for K_TOMBSTONE_TICKS, its handles free. */
void kmp_task_left(k_thread_t *t, const mcapi_endpoint_t *retired, int n);
/* Deletes the task's endpoints (a migration that failed after its destination made them). */
void kmp_task_drop(k_thread_t *t);

#endif
