/* Bitmap scheduler (thesis 3.5.2.2 "signaling with ready flag"): no ready list at all, one bit per
 * thread of the thread table in k_ready_bits, set while the thread is ready. The scheduler picks
 * the highest-priority ready thread allowed on the core; among equals it goes round-robin in table
 * order, starting after the thread picked last, so a thread whose slice ended runs again only
 * after its equals. The HW-OSQM's READY_FLAG mode wakes a thread by setting its bit (QUEUE = the
 * field, THREAD = the thread's index): the kernel and the hardware both change bits only with
 * atomic operations (amoor/amoand here, compare-and-swap there), so neither loses the other's. */
#include "kinternal.h"

#define K_FLAG_WORDS ((K_MAX_THREADS + 31) / 32)
volatile uint32_t k_ready_bits[K_FLAG_WORDS];
const char *const k_rq_layout_name = "flags";
static uint32_t rr_next;   /* table index the next scan starts at */

void rq_init(void)
{
    for (unsigned w = 0; w < K_FLAG_WORDS; ++w)
        k_ready_bits[w] = 0;
    rr_next = 0;
}

void rq_insert(k_thread_t *t, int front)
{
    (void)front;   /* no order to keep: the scan decides */
    uint32_t i = k_thread_index(t);
    __atomic_fetch_or(&k_ready_bits[i / 32], 1u << (i % 32), __ATOMIC_SEQ_CST);
    t->queue = NULL;
}

void rq_remove(k_thread_t *t)
{
    uint32_t i = k_thread_index(t);
    __atomic_fetch_and(&k_ready_bits[i / 32], ~(1u << (i % 32)), __ATOMIC_SEQ_CST);
}

static int allowed(const k_thread_t *t, uint32_t cpu) { return !t->cpu_mask || (t->cpu_mask >> cpu & 1u); }

/* One pass over the table from rr_next: the first thread of the highest ready priority. A set bit
 * whose slot holds no thread (a thread that ended after the hardware woke it) is cleared. */
static k_thread_t *find(uint32_t cpu, int *prio)
{
    k_thread_t *best = NULL;
    int bp = -1;
    for (uint32_t n = 0; n < K_MAX_THREADS; ++n) {
        uint32_t i = (rr_next + n) % K_MAX_THREADS;
        if (!(k_ready_bits[i / 32] >> (i % 32) & 1u))
            continue;
        k_thread_t *t = k_thread_at(i);
        if (!t || t->state == KS_DEAD || t->state == KS_RUNNING) {
            __atomic_fetch_and(&k_ready_bits[i / 32], ~(1u << (i % 32)), __ATOMIC_SEQ_CST);
            continue;
        }
        if (allowed(t, cpu) && (int)t->prio > bp) {
            best = t;
            bp = (int)t->prio;
        }
    }
    *prio = bp;
    return best;
}

k_thread_t *rq_pick(uint32_t cpu)
{
    int p;
    k_thread_t *t = find(cpu, &p);
    if (t) {
        rq_remove(t);
        rr_next = (k_thread_index(t) + 1) % K_MAX_THREADS;
    }
    return t;
}

int rq_top(uint32_t cpu)
{
    int p = -1;
    find(cpu, &p);
    return p;
}
