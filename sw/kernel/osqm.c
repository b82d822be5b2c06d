/* HW-OSQM, the kernel side (thesis 3.5.2, 3.5.3): the kernel tells the OSQM its ready-queue layout
 * and its lock once (k_osqm_enable_mode), and a thread that waits for its NAMP slot or endpoint
 * blocks with the event's QUEUE/THREAD set to its ready queue and itself: the hardware puts it back
 * without an interrupt (docs/kernel.md "HW-OSQM"). Three uses of the thesis' extra features:
 *   - the `flags` layout is a bitmap scheduler: QUEUE = k_ready_bits, THREAD = the thread's index,
 *     the hardware sets the bit (READY_FLAG mode, "signaling with ready flag");
 *   - K_OSQM_WAKEUP: the hardware inserts into a separate wake-up queue (or wake-up bit field)
 *     that the kernel empties at every scheduler entry ("separate queue from operating system"):
 *     the wake-up becomes an ordinary one (the layout's insertion, an IPI to the right core);
 *   - a thread marked critical gets OSQM_Q_CRITICAL on its events: the OSQM raises the demand
 *     interrupt after the insertion and hands the kernel the thread, which it schedules at once
 *     ("critical events & demand interrupting"). */
#include "kinternal.h"
#include "mp/cbuffer.h"
#include "na/na.h"
#include "namp/namp_regs.h"

#if K_RQ_LAYOUT == K_RQ_FLAGS
static volatile uint32_t wakeup_bits[K_FLAG_WORDS];
#else
static k_queue_t wakeup_queue;       /* K_OSQM_WAKEUP: the OSQM's, emptied by k_osqm_drain */
#endif
static int enabled;
static unsigned osqm_mode;
static const struct k_osqm_hooks hooks = {.sched_entry = k_osqm_drain, .ext_irq = k_osqm_irq};

int k_osqm_enable(void) { return k_osqm_enable_mode(K_OSQM_DIRECT); }

int k_osqm_enable_mode(unsigned mode)
{
    if (!(na_features() & NA_FEATURE_NAMP_OSQM) || mode > K_OSQM_WAKEUP)
        return K_EINVAL;
    uint32_t m = mode == K_OSQM_WAKEUP ? OSQM_MODE_WAKEUP : 0u;
#if K_RQ_LAYOUT == K_RQ_FLAGS
    m |= OSQM_MODE_READY_FLAG; /* no list: QUEUE = the bit field, THREAD = the bit */
    namp_reg_osqm_set(OSQM_WAKEUP_QUEUE, (uint32_t)wakeup_bits);
#else
    namp_reg_osqm_set(OSQM_TYPE, 1); /* all list layouts: doubly linked */
    namp_reg_osqm_set(OSQM_DIR, K_RQ_LAYOUT == K_RQ_SEL4 ? 1u : 0u); /* seL4 wakes at the front */
    namp_reg_osqm_set(OSQM_Q_LAYOUT, (4u << 16) | 0u); /* k_queue_t: head +0, tail +4 */
    namp_reg_osqm_set(OSQM_E_LAYOUT, (4u << 16) | 0u); /* k_thread_t: next +0, prev +4 */
    /* the wake-up queue is a plain FIFO whatever the layout: the kernel's own insertion puts
     * each thread where the layout wants it when it empties the queue */
    namp_reg_osqm_set(OSQM_WAKEUP_QUEUE, (uint32_t)&wakeup_queue);
#if K_RQ_LAYOUT == K_RQ_BITMAP
    namp_reg_osqm_set(OSQM_BITMAP_ADDR, (uint32_t)&k_ready_bitmap);
    namp_reg_osqm_set(OSQM_BITMAP_QBASE, (uint32_t)&k_ready[0]);
    namp_reg_osqm_set(OSQM_BITMAP_QSTRIDE, sizeof(k_queue_t));
    if (mode == K_OSQM_DIRECT)
        m |= OSQM_MODE_BITMAP; /* a priority's bit with its list (not for the wake-up queue) */
#endif
    if (mode == K_OSQM_WAKEUP)
        namp_reg_osqm_set(OSQM_DIR, 0); /* FIFO: the order of the events */
#endif
    namp_reg_osqm_set(OSQM_MODE, m);
    namp_reg_osqm_set(OSQM_LOCK_KIND, OSQM_LOCK_TICKET); /* the kernel lock (k_ticket_lock_t) */
    namp_reg_osqm_set(OSQM_LOCK_ADDR, (uint32_t)&k_lock);
    /* the demand interrupt of critical events (NA_IRQ_TARGET: na.irq_core) */
    na_irq_enable(NA_IRQ_SRC_OSQM);
    osqm_mode = mode;
    enabled = 1;
    /* the core's hooks and system calls: in use from now on */
    k_hooks.osqm = &hooks;
    k_syscall_set(K_SYS_OSQM_WAIT, k_sys_osqm_wait);
    k_syscall_set(K_SYS_OSQM_WAIT_EP, k_sys_osqm_wait_ep);
    return K_OK;
}

/* The event words for thread t: its ready queue (or the bit field) and its element (or bit). */
static uint32_t event_queue(const k_thread_t *t)
{
#if K_RQ_LAYOUT == K_RQ_FLAGS
    uint32_t q = (uint32_t)k_ready_bits; /* one field for every priority */
#else
    uint32_t q = (uint32_t)&k_ready[t->prio];
#endif
    return q | (t->critical ? OSQM_Q_CRITICAL : 0u);
}

static uint32_t event_thread(const k_thread_t *t)
{
#if K_RQ_LAYOUT == K_RQ_FLAGS
    return k_thread_index(t);
#else
    return (uint32_t)t;
#endif
}

static k_thread_t *thread_of(uint32_t v)
{
#if K_RQ_LAYOUT == K_RQ_FLAGS
    return k_thread_at(v);
#else
    k_thread_t *t = (k_thread_t *)v;
    return k_thread_valid(t) ? t : NULL;
#endif
}

/* System call: block until slot's transfer is done. Runs under the kernel lock, which the OSQM
 * needs for its insertion, so the hardware cannot insert the thread before it has blocked. The
 * registers are set first and DONE checked after: a transfer that finished before takes no
 * insertion (the registers are still set: cleared here, no block); one that finishes after has
 * latched them and will insert the thread once the lock is free. */
int32_t k_sys_osqm_wait(k_thread_t *cur, trap_frame_t *fr)
{
    const uint32_t slot = fr->regs[REG_A0];
    if (!enabled || slot >= 32)
        return K_EINVAL;
    if (cur->task && cur->task->vif_slot != (int32_t)slot)
        return K_EINVAL; /* a task waits only for its own vif's slot */
    uint32_t f = namp_reg_slot_flags(slot);
    if (!(f & NAMP_FLAG_VALID) || (f & NAMP_FLAG_DONE))
        return K_OK; /* nothing under way */
    namp_reg_osqm_set(OSQM_SLOT_THREAD(slot), event_thread(cur));
    namp_reg_osqm_set(OSQM_SLOT_QUEUE(slot), event_queue(cur)); /* arms the event: last */
    f = namp_reg_slot_flags(slot);
    if (!(f & NAMP_FLAG_VALID) || (f & NAMP_FLAG_DONE)) {
        if (namp_reg_osqm(OSQM_SLOT_QUEUE(slot))) { /* finished before: not taken */
            namp_reg_osqm_set(OSQM_SLOT_QUEUE(slot), 0);
            namp_reg_osqm_set(OSQM_SLOT_THREAD(slot), 0);
            return K_OK;
        }
    }
    cur->state = KS_BLOCKED; /* in no kernel list: the hardware puts it into k_ready */
    cur->queue = NULL;
    k_stat.osqm_waits++;
    k_stat.osqm_critical_waits += cur->critical;
    return K_OK;
}

/* System call: block until a message arrives at endpoint ep (its receive buffer `rx` not empty):
 * the endpoint's OSQM words get the caller's queue and itself; the target side of the OSQM claims
 * them (CAS) at the next delivery. If a message is already there, or arrives before the words are
 * set, the kernel claims them back itself (CAS) and does not block. */
int32_t k_sys_osqm_wait_ep(k_thread_t *cur, trap_frame_t *fr)
{
    const uint32_t ep = fr->regs[REG_A0], rx = fr->regs[REG_A1];
    if (!enabled || (ep & 63) || !rx || cur->task)
        return K_EINVAL;
    volatile uint32_t *q = (volatile uint32_t *)(ep + 0x18), *t = (volatile uint32_t *)(ep + 0x1C);
    const uint32_t qv = event_queue(cur);
    *t = event_thread(cur);
    __atomic_store_n(q, qv, __ATOMIC_SEQ_CST);
    if (mp_cbuffer_ready((mp_cbuffer_t *)rx)) {
        uint32_t expect = qv;
        if (__atomic_compare_exchange_n(q, &expect, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            return K_OK; /* not taken by the hardware: no block */
    }
    cur->state = KS_BLOCKED;
    cur->queue = NULL;
    k_stat.osqm_waits++;
    k_stat.osqm_critical_waits += cur->critical;
    return K_OK;
}

/* Scheduler entry (kernel lock held): K_OSQM_WAKEUP's queue (bit field) into the ready queues, in
 * the order the events came, each an ordinary wake-up (k_make_ready: the layout's end, an IPI). */
void k_osqm_drain(void)
{
    if (!enabled || osqm_mode != K_OSQM_WAKEUP)
        return;
#if K_RQ_LAYOUT == K_RQ_FLAGS
    for (uint32_t w = 0; w < K_FLAG_WORDS; ++w) {
        uint32_t bits = __atomic_exchange_n(&wakeup_bits[w], 0, __ATOMIC_SEQ_CST);
        while (bits) {
            uint32_t b = (uint32_t)__builtin_ctz(bits);
            bits &= bits - 1;
            k_thread_t *t = k_thread_at(w * 32 + b);
            if (t && t->state == KS_BLOCKED && !t->queue) {
                k_make_ready(t, 1);
                k_stat.osqm_drained++;
            }
        }
    }
#else
    k_thread_t *t;
    while ((t = q_pop(&wakeup_queue)) != NULL) {
        k_make_ready(t, 1);
        k_stat.osqm_drained++;
    }
#endif
}

/* The demand interrupt (kernel lock held, on na.irq_core): each critical thread the OSQM resumed
 * is scheduled at once. Direct mode: it is in its ready queue already, so the cores are told
 * (IPI to the one running the lowest priority below it; this core reschedules on the way out of
 * the trap anyway). Wake-up mode: k_osqm_drain, which the scheduler runs next, does it. A FIFO
 * overflow (more critical events than OSQM_IRQ_FIFO_DEPTH unread) tells every core. */
void k_osqm_irq(void)
{
    if (!enabled)
        return;
    uint32_t v;
    while ((v = namp_reg_osqm(OSQM_IRQ_THREAD)) != OSQM_IRQ_NONE) {
        k_stat.osqm_demand_irqs++;
        k_thread_t *t = thread_of(v);
        if (t && osqm_mode == K_OSQM_DIRECT)
            k_kick(t);
    }
    uint32_t left = namp_reg_osqm(OSQM_IRQ);
    if (left) {
        namp_reg_osqm_set(OSQM_IRQ, left & ~OSQM_IRQ_OVERFLOW); /* acknowledged, overflow off */
        for (uint32_t c = 0; c < K_MAX_CPUS; ++c)
            if (c != k_cpu_id() && k_cpus[c].online)
                ipi_send(c);
    }
}

int k_ready_order(uint32_t prio, k_thread_t **out, int max)
{
    if (prio >= K_PRIOS || !out)
        return K_EINVAL;
    int n = 0;
    uint32_t saved = irq_global_disable();
    k_lock_take();
#if K_RQ_LAYOUT == K_RQ_FLAGS
    n = rq_flags_order(prio, out, max); /* the scheduler's round-robin order */
#else
    for (k_thread_t *t = k_ready[prio].head; t && n < max; t = t->next)
        out[n++] = t;
#endif
    k_lock_give();
    irq_global_restore(saved);
    return n;
}

/* Walks every ready queue (under the lock): links both ways, head/tail, no cycle, priorities,
 * the bitmap; with `flags` every ready bit names a thread that is ready or woken by the OSQM and
 * not running. The wake-up queue too. Returns the number of inconsistencies. */
int k_check_queues(void)
{
    int bad = 0;
    uint32_t saved = irq_global_disable();
    k_lock_take();
#if K_RQ_LAYOUT == K_RQ_FLAGS
    for (uint32_t i = 0; i < K_MAX_THREADS; ++i) {
        k_thread_t *t = k_thread_at(i);
        const int set = k_ready_bits[i / 32] >> (i % 32) & 1u;
        if (set && (!t || t->queue || (t->state != KS_READY && t->state != KS_BLOCKED)))
            bad++; /* a bit of no ready thread (nor one the OSQM woke) */
        if (!set && t && t->state == KS_READY)
            bad++; /* a ready thread without its bit */
    }
#else
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
        if (!!(k_ready_bitmap & (1u << p)) != (q->head != NULL))
            bad++;
#endif
    }
    if (osqm_mode == K_OSQM_WAKEUP) {
        k_thread_t *prev = NULL;
        for (k_thread_t *t = wakeup_queue.head; t; t = t->next) {
            if (t->prev != prev)
                bad++;
            prev = t;
        }
        if (wakeup_queue.tail != prev)
            bad++;
    }
#endif
    k_lock_give();
    irq_global_restore(saved);
    return bad;
}
