/* seL4-style ready queues: per priority a queue with head and end pointers (ksReadyQueues),
 * threads linked through tcbSchedNext/Prev. A thread that is woken or preempted goes to the front
 * (tcbSchedEnqueue); one whose time slice ended or that yields goes to the end (tcbSchedAppend). */
#include "kinternal.h"

k_queue_t k_ready[K_PRIOS];
const char *const k_rq_layout_name = "sel4";

void rq_init(void)
{
    for (unsigned p = 0; p < K_PRIOS; ++p)
        k_ready[p].head = k_ready[p].tail = NULL;
}

void rq_insert(k_thread_t *t, int front)
{
    if (front)
        q_prepend(&k_ready[t->prio], t);
    else
        q_append(&k_ready[t->prio], t);
}

void rq_remove(k_thread_t *t) { q_remove(&k_ready[t->prio], t); }

static int allowed(const k_thread_t *t, uint32_t cpu) { return !t->cpu_mask || (t->cpu_mask >> cpu & 1u); }

k_thread_t *rq_pick(uint32_t cpu)
{
    for (int p = K_PRIOS - 1; p >= 0; --p)
        for (k_thread_t *t = k_ready[p].head; t; t = t->next)
            if (allowed(t, cpu)) {
                q_remove(&k_ready[p], t);
                return t;
            }
    return NULL;
}

int rq_top(uint32_t cpu)
{
    for (int p = K_PRIOS - 1; p >= 0; --p)
        for (k_thread_t *t = k_ready[p].head; t; t = t->next)
            if (allowed(t, cpu))
                return p;
    return -1;
}
