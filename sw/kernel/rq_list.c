/* What the two linked-list ready-queue layouts (rq_freertos.c, rq_sel4.c) share: one k_queue_t
 * per priority, initialisation, removal, and the scan from the highest priority down for a thread
 * allowed on the core. Only the insertion differs between them. */
#include "kinternal.h"

k_queue_t k_ready[K_PRIOS];

void rq_init(void)
{
    for (unsigned p = 0; p < K_PRIOS; ++p)
        k_ready[p].head = k_ready[p].tail = NULL;
}

void rq_remove(k_thread_t *t) { q_remove(&k_ready[t->prio], t); }

static int allowed(const k_thread_t *t, uint32_t cpu)
{
    return !t->cpu_mask || (t->cpu_mask >> cpu & 1u);
}

k_thread_t *rq_next(uint32_t cpu)
{
    for (int p = K_PRIOS - 1; p >= 0; --p)
        for (k_thread_t *t = k_ready[p].head; t; t = t->next)
            if (allowed(t, cpu))
                return t;
    return NULL;
}

void rq_take(k_thread_t *t) { rq_remove(t); }
