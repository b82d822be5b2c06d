/* Mutex and semaphore semantics (docs/kernel.md): mutual exclusion under preemption, ownership
 * errors, waiters served by priority, semaphore counting, try and timeout.
 * Expected: "kernel sync ok (<layout>)", exit 0. */
#include <stdint.h>

#include "hal/hal.h"
#include "ktest.h"

volatile unsigned ktest_failures;
extern const char *const k_rq_layout_name;

#define TICK 500u

/* ---- mutual exclusion: a read-modify-write spread over a yield and a time slice ---- */
static k_mutex_t m;
static volatile uint32_t shared, inside, overlap;

static void incrementer(void *arg)
{
    unsigned n = (unsigned)(uintptr_t)arg;
    for (unsigned i = 0; i < n; ++i) {
        CHECK_EQ(k_mutex_lock(&m), K_OK);
        if (inside++)
            overlap++;
        uint32_t v = shared;
        if (i % 16 == 0)
            k_yield(); /* others run, and must block on m */
        for (volatile int d = 0; d < 20; ++d)
            ;
        shared = v + 1;
        inside--;
        CHECK_EQ(k_mutex_unlock(&m), K_OK);
    }
}

static void test_mutex_exclusion(void)
{
    k_mutex_init(&m);
    shared = 0;
    k_thread_t *t[4];
    for (int i = 0; i < 4; ++i)
        t[i] = k_thread_create("inc", incrementer, (void *)500, 3, 0);
    for (int i = 0; i < 4; ++i)
        CHECK_EQ(k_join(t[i], K_FOREVER, NULL), K_OK);
    CHECK_EQ(shared, 2000);
    CHECK_EQ(overlap, 0);
}

/* ---- ownership errors ---- */
static k_mutex_t held;
static int other_unlock_result;
static void other_unlock(void *arg)
{
    (void)arg;
    other_unlock_result = k_mutex_unlock(&held);
}

static void test_mutex_errors(void)
{
    k_mutex_t never_initialised = {0};
    CHECK_EQ(k_mutex_lock(NULL), K_EINVAL);
    CHECK_EQ(k_mutex_lock(&never_initialised), K_EINVAL);
    CHECK_EQ(k_mutex_init(NULL), K_EINVAL);
    k_mutex_init(&held);
    CHECK_EQ(k_mutex_unlock(&held), K_EPERM); /* nobody owns it */
    CHECK_EQ(k_mutex_lock(&held), K_OK);
    CHECK_EQ(k_mutex_lock(&held), K_EDEADLK); /* not recursive */
    k_thread_t *t = k_thread_create("other", other_unlock, NULL, 11, 0);
    CHECK_EQ(k_join(t, K_FOREVER, NULL), K_OK);
    CHECK_EQ(other_unlock_result, K_EPERM);
    CHECK_EQ(k_mutex_unlock(&held), K_OK);
}

/* ---- waiters are served highest priority first, FIFO among equals ---- */
static k_mutex_t gate;
static volatile char got[8];
static volatile unsigned n_got;

static void waiter(void *arg)
{
    k_mutex_lock(&gate);
    got[n_got++] = (char)(uintptr_t)arg;
    k_mutex_unlock(&gate);
}

static void test_mutex_priority_order(void)
{
    k_mutex_init(&gate);
    n_got = 0;
    CHECK_EQ(k_mutex_lock(&gate), K_OK);
    /* created above the main thread's priority: each runs at once and blocks on gate */
    k_thread_t *t[4] = {
        k_thread_create("w1", waiter, (void *)'1', 11, 0),
        k_thread_create("w3", waiter, (void *)'3', 13, 0),
        k_thread_create("w2a", waiter, (void *)'a', 12, 0),
        k_thread_create("w2b", waiter, (void *)'b', 12, 0),
    };
    CHECK_EQ(n_got, 0);
    CHECK_EQ(k_mutex_unlock(&gate), K_OK);
    for (int i = 0; i < 4; ++i)
        CHECK_EQ(k_join(t[i], K_FOREVER, NULL), K_OK);
    got[n_got] = 0;
    CHECK(got[0] == '3' && got[1] == 'a' && got[2] == 'b' && got[3] == '1');
}

/* ---- semaphores ---- */
static k_sem_t items, spaces;
static volatile uint32_t ring[4], produced_sum, consumed_sum;
static volatile unsigned wr, rd;

static void producer(void *arg)
{
    (void)arg;
    for (uint32_t i = 1; i <= 200; ++i) {
        CHECK_EQ(k_sem_take(&spaces, K_FOREVER), K_OK);
        ring[wr++ % 4] = i;
        produced_sum += i;
        CHECK_EQ(k_sem_give(&items), K_OK);
    }
}

static void consumer(void *arg)
{
    (void)arg;
    for (uint32_t i = 1; i <= 200; ++i) {
        CHECK_EQ(k_sem_take(&items, K_FOREVER), K_OK);
        uint32_t v = ring[rd++ % 4];
        CHECK_EQ(v, i);
        consumed_sum += v;
        CHECK_EQ(k_sem_give(&spaces), K_OK);
    }
}

static void test_semaphores(void)
{
    k_sem_t s;
    CHECK_EQ(k_sem_take(NULL, 0), K_EINVAL);
    CHECK_EQ(k_sem_init(&s, 2), K_OK);
    CHECK_EQ(k_sem_take(&s, 0), K_OK);
    CHECK_EQ(k_sem_take(&s, 0), K_OK);
    CHECK_EQ(k_sem_take(&s, 0), K_EAGAIN);
    uint64_t t0 = timer_now();
    CHECK_EQ(k_sem_take(&s, 3), K_ETIMEDOUT);
    uint64_t waited = timer_now() - t0;
    CHECK(waited >= 3 * TICK && waited <= 5 * TICK);
    CHECK_EQ(k_sem_give(&s), K_OK);
    CHECK_EQ(k_sem_take(&s, 3), K_OK);

    k_sem_init(&items, 0);
    k_sem_init(&spaces, 4);
    k_thread_t *c = k_thread_create("consumer", consumer, NULL, 4, 0);
    k_thread_t *p = k_thread_create("producer", producer, NULL, 4, 0);
    CHECK_EQ(k_join(p, K_FOREVER, NULL), K_OK);
    CHECK_EQ(k_join(c, K_FOREVER, NULL), K_OK);
    CHECK_EQ(produced_sum, 20100);
    CHECK_EQ(consumed_sum, 20100);
}

static void main_thread(void *arg)
{
    (void)arg;
    test_mutex_exclusion();
    test_mutex_errors();
    test_mutex_priority_order();
    test_semaphores();
    if (ktest_failures == 0)
        k_printf("kernel sync ok (%s)\n", k_rq_layout_name);
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        k_config_t cfg = {.tick_ticks = TICK, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
