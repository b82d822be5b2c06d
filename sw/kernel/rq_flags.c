/* Bitmap scheduler (thesis 3.5.2.2 "signaling with ready flag"): no ready list at all, one bit
 * per thread of the thread table in k_ready_bits, set while the thread is ready. The scheduler
 * takes, in one pass over the set bits, the highest-priority thread allowed on the core; among
 * equals it goes round-robin in table order, starting after the thread of that priority picked
 * last (rr_next[prio]), so a thread whose slice ended, or that was preempted, runs again only
 * after its ready equals (as FreeRTOS' tail insertion). The HW-OSQM's READY_FLAG mode wakes a
 * thread by setting its bit (QUEUE = k_ready_bits, THREAD = the thread's index): one field for all
 * priorities, so a priority changed while the hardware holds the event needs nothing. The kernel
 * and the hardware both change bits only with atomic operations (amoor/amoand here,
 * compare-and-swap there), and the hardware sets bits under the kernel lock too: neither loses the
 * other's. Cost of a pick: K_FLAG_WORDS word reads plus, per set bit, the thread's state,
 * priority and core mask (docs/kernel.md "Ready-queue layouts"). */
#include "kinternal.h"

volatile uint32_t k_ready_bits[K_FLAG_WORDS];
const char *const k_rq_layout_name = "flags";
static uint32_t rr_next[K_PRIOS]; /* per priority: the table index its round-robin starts at */

static void bit_clear(uint32_t i)
{
    __atomic_fetch_and(&k_ready_bits[i / 32], ~(1u << (i % 32)), __ATOMIC_SEQ_CST);
}

void rq_init(void)
{
    for (unsigned w = 0; w < K_FLAG_WORDS; ++w)
        k_ready_bits[w] = 0;
    for (unsigned p = 0; p < K_PRIOS; ++p)
        rr_next[p] = 0;
}

void rq_insert(k_thread_t *t, int front)
{
    (void)front; /* the round-robin position decides, not the insertion */
    const uint32_t i = k_thread_index(t);
    __atomic_fetch_or(&k_ready_bits[i / 32], 1u << (i % 32), __ATOMIC_SEQ_CST);
    t->queue = NULL;
}

void rq_remove(k_thread_t *t) { bit_clear(k_thread_index(t)); }

static int allowed(const k_thread_t *t, uint32_t cpu)
{
    return !t->cpu_mask || (t->cpu_mask >> cpu & 1u);
}

/* A set bit names a runnable thread: one made ready by the kernel, or one blocked in an OSQM wait
 * (in no kernel queue) whose bit the hardware set. */
static int runnable(const k_thread_t *t)
{
    return t && (t->state == KS_READY || (t->state == KS_BLOCKED && !t->queue));
}

/* Distance of table index i from priority p's round-robin start. */
static uint32_t turn(uint32_t p, uint32_t i)
{
    return (i + K_MAX_THREADS - rr_next[p]) % K_MAX_THREADS;
}

/* One pass over the set bits: the next thread of the highest priority allowed on cpu (cpu < 0:
 * any core). A bit of no runnable thread (one ended after the hardware woke it) is cleared. */
static k_thread_t *find(int cpu)
{
    k_thread_t *best = NULL;
    uint32_t best_turn = 0;
    for (uint32_t w = 0; w < K_FLAG_WORDS; ++w) {
        uint32_t bits = k_ready_bits[w];
        while (bits) {
            const uint32_t i = w * 32 + (uint32_t)__builtin_ctz(bits);
            bits &= bits - 1;
            k_thread_t *t = k_thread_at(i);
            if (!runnable(t)) {
                bit_clear(i);
                continue;
            }
            if (cpu >= 0 && !allowed(t, (uint32_t)cpu))
                continue;
            const uint32_t d = turn(t->prio, i);
            if (!best || t->prio > best->prio || (t->prio == best->prio && d < best_turn)) {
                best = t;
                best_turn = d;
            }
        }
    }
    return best;
}

k_thread_t *rq_next(uint32_t cpu) { return find((int)cpu); }

void rq_take(k_thread_t *t)
{
    const uint32_t i = k_thread_index(t);
    bit_clear(i);
    rr_next[t->prio] = (i + 1) % K_MAX_THREADS;
}

/* k_ready_order with this layout (kernel lock held): the ready threads of prio in the order the
 * scheduler would take them (its round-robin from rr_next[prio]). */
int rq_flags_order(uint32_t prio, k_thread_t **out, int max)
{
    int n = 0;
    for (uint32_t k = 0; k < K_MAX_THREADS && n < max; ++k) {
        const uint32_t i = (rr_next[prio] + k) % K_MAX_THREADS;
        k_thread_t *t = k_thread_at(i);
        if ((k_ready_bits[i / 32] >> (i % 32) & 1u) && runnable(t) && t->prio == prio)
            out[n++] = t;
    }
    return n;
}
