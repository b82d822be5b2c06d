/* Bitmap scheduler: FreeRTOS lists appended at the tail plus one word whose bit p is set while
 * priority p has a ready thread, so the highest ready priority is one count-leading-zeros
 * (configUSE_PORT_OPTIMISED_TASK_SELECTION, seL4's L1 bitmap). The bitmap lives right after the
 * queues so that the HW-OSQM's bitmap mode can find it (k_ready_bitmap). */
#include "kinternal.h"

k_queue_t k_ready[K_PRIOS];
volatile uint32_t k_ready_bitmap;
const char *const k_rq_layout_name = "bitmap";

void rq_init(void)
{
    for (unsigned p = 0; p < K_PRIOS; ++p)
        k_ready[p].head = k_ready[p].tail = NULL;
    k_ready_bitmap = 0;
}

void rq_insert(k_thread_t *t, int front)
{
    (void)front;
    q_append(&k_ready[t->prio], t);
    k_ready_bitmap |= 1u << t->prio;
}

void rq_remove(k_thread_t *t)
{
    q_remove(&k_ready[t->prio], t);
    if (!k_ready[t->prio].head)
        k_ready_bitmap &= ~(1u << t->prio);
}

static int allowed(const k_thread_t *t, uint32_t cpu)
{
    return !t->cpu_mask || (t->cpu_mask >> cpu & 1u);
}

/* Highest set bit of bits; threads pinned to other cores make a priority skip to the next bit. */
k_thread_t *rq_next(uint32_t cpu)
{
    uint32_t bits = k_ready_bitmap;
    while (bits) {
        int p = 31 - __builtin_clz(bits);
        for (k_thread_t *t = k_ready[p].head; t; t = t->next)
            if (allowed(t, cpu))
                return t;
        bits &= ~(1u << p);
    }
    return NULL;
}

void rq_take(k_thread_t *t) { rq_remove(t); }
