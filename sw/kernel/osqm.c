/* HW-OSQM, the kernel side (thesis 3.5.3): the kernel tells the OSQM its ready-queue layout and
 * its lock once (k_osqm_enable), and a thread that waits for its NAMP slot blocks with the slot's
 * QUEUE/THREAD registers set to its ready queue and itself: the hardware puts it back into the
 * ready queue when the transfer completes, without an interrupt (docs/kernel.md "HW-OSQM"). */
#include "kinternal.h"
#include "mp/cbuffer.h"
#include "na_registers.h"
#include "tile_memory_map.h"

#define OSQM(reg) (*(volatile uint32_t *)(TILE_NA_BASE + NA_OSQM_BASE + (reg)))
#define SLOTF(s) (*(volatile uint32_t *)(TILE_NA_BASE + NA_NAMP_SLOT_BASE(s) + NAMP_SLOT_FLAGS))

extern k_queue_t k_ready[K_PRIOS];
static int enabled;

int k_osqm_enable(void)
{
    if (!(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_OSQM))
        return K_EINVAL;
    OSQM(OSQM_TYPE) = 1;                                   /* all layouts: doubly linked */
    OSQM(OSQM_DIR) = K_RQ_LAYOUT == K_RQ_SEL4 ? 1u : 0u;   /* seL4 wakes at the front */
    OSQM(OSQM_Q_LAYOUT) = (4u << 16) | 0u;                 /* k_queue_t: head +0, tail +4 */
    OSQM(OSQM_E_LAYOUT) = (4u << 16) | 0u;                 /* k_thread_t: next +0, prev +4 */
#if K_RQ_LAYOUT == K_RQ_BITMAP
    extern volatile uint32_t k_ready_bitmap;
    OSQM(OSQM_BITMAP_ADDR) = (uint32_t)&k_ready_bitmap;
    OSQM(OSQM_BITMAP_QBASE) = (uint32_t)&k_ready[0];
    OSQM(OSQM_BITMAP_QSTRIDE) = sizeof(k_queue_t);
    OSQM(OSQM_MODE) = OSQM_MODE_BITMAP;
#else
    OSQM(OSQM_MODE) = 0;
#endif
    OSQM(OSQM_LOCK_KIND) = OSQM_LOCK_TICKET;               /* the kernel lock (k_ticket_lock_t) */
    OSQM(OSQM_LOCK_ADDR) = (uint32_t)&k_lock;
    enabled = 1;
    return K_OK;
}

/* System call: block until slot's transfer is done. Runs under the kernel lock, which the OSQM
 * needs for its insertion, so the hardware cannot insert the thread before it has blocked. The
 * registers are set first and DONE checked after: a transfer that finished before takes no
 * insertion (the registers are still set: cleared here, no block); one that finishes after has
 * latched them and will insert the thread once the lock is free. */
int32_t k_sys_osqm_wait(k_thread_t *cur, uint32_t slot)
{
    if (!enabled || slot >= 32)
        return K_EINVAL;
    if (cur->task && cur->task->vif_slot != (int32_t)slot)
        return K_EINVAL;   /* a task waits only for its own vif's slot */
    uint32_t f = SLOTF(slot);
    if (!(f & NAMP_FLAG_VALID) || (f & NAMP_FLAG_DONE))
        return K_OK;       /* nothing under way */
    OSQM(OSQM_SLOT_QUEUE(slot)) = (uint32_t)&k_ready[cur->prio];
    OSQM(OSQM_SLOT_THREAD(slot)) = (uint32_t)cur;
    f = SLOTF(slot);
    if (!(f & NAMP_FLAG_VALID) || (f & NAMP_FLAG_DONE)) {
        if (OSQM(OSQM_SLOT_QUEUE(slot))) {   /* finished before: not taken */
            OSQM(OSQM_SLOT_QUEUE(slot)) = 0;
            OSQM(OSQM_SLOT_THREAD(slot)) = 0;
            return K_OK;
        }
    }
    cur->state = KS_BLOCKED;   /* in no kernel list: the hardware puts it into k_ready */
    cur->queue = NULL;
    k_stat.osqm_waits++;
    return K_OK;
}

/* System call: block until a message arrives at endpoint ep (its receive buffer `rx` not empty):
 * the endpoint's OSQM words get the caller's queue and itself; the target side of the OSQM claims
 * them (CAS) at the next delivery. If a message is already there, or arrives before the words are
 * set, the kernel claims them back itself (CAS) and does not block. */
int32_t k_sys_osqm_wait_ep(k_thread_t *cur, uint32_t ep, uint32_t rx)
{
    if (!enabled || (ep & 63) || !rx || cur->task)
        return K_EINVAL;
    volatile uint32_t *q = (volatile uint32_t *)(ep + 0x18), *t = (volatile uint32_t *)(ep + 0x1C);
    *t = (uint32_t)cur;
    __atomic_store_n(q, (uint32_t)&k_ready[cur->prio], __ATOMIC_SEQ_CST);
    if (mp_cbuffer_ready((mp_cbuffer_t *)rx)) {
        uint32_t expect = (uint32_t)&k_ready[cur->prio];
        if (__atomic_compare_exchange_n(q, &expect, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            return K_OK;   /* not taken by the hardware: no block */
    }
    cur->state = KS_BLOCKED;
    cur->queue = NULL;
    k_stat.osqm_waits++;
    return K_OK;
}

int k_ready_order(uint32_t prio, k_thread_t **out, int max)
{
    if (prio >= K_PRIOS || !out)
        return K_EINVAL;
    int n = 0;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    for (k_thread_t *t = k_ready[prio].head; t && n < max; t = t->next)
        out[n++] = t;
    k_lock_give();
    irq_global_restore(saved);
    return n;
}

/* Walks every ready queue (under the lock): links both ways, head/tail, no cycle, priorities,
 * the bitmap. Returns the number of inconsistencies. */
int k_check_queues(void)
{
    int bad = 0;
    uint32_t saved = irq_global_disable();
    k_lock_take();
    for (uint32_t p = 0; p < K_PRIOS; ++p) {
        k_queue_t *q = &k_ready[p];
        k_thread_t *prev = NULL;
        uint32_t n = 0;
        for (k_thread_t *t = q->head; t; t = t->next) {
            if (t->prev != prev || t->prio != p || ++n > K_MAX_THREADS) {
                bad++;
                break;
            }
            prev = t;
        }
        if (q->tail != prev)
            bad++;
#if K_RQ_LAYOUT == K_RQ_BITMAP
        extern volatile uint32_t k_ready_bitmap;
        if (!!(k_ready_bitmap & (1u << p)) != (q->head != NULL))
            bad++;
#endif
    }
    k_lock_give();
    irq_global_restore(saved);
    return bad;
}
