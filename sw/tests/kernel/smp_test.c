/* The kernel on a 4-core tile (preset smp): shared ready queues under the kernel lock, threads
 * spread over every core, pinned threads, cross-core wake-ups (semaphore ping-pong between two
 * pinned threads), mutual exclusion across cores.
 * Expected per tile: "kernel smp ok (<layout>): 4 cores", exit 0. */
#include <stdint.h>

#include "hal/hal.h"
#include "ktest.h"

volatile unsigned ktest_failures;
extern const char *const k_rq_layout_name;

#define TICK    500u
#define WORKERS 8
#define ROUNDS  1500

static k_mutex_t m;
static volatile uint32_t counter;
static volatile uint32_t cpus_used[WORKERS];

static void worker(void *arg)
{
    unsigned me = (unsigned)(uintptr_t)arg;
    for (unsigned i = 0; i < ROUNDS; ++i) {
        cpus_used[me] |= 1u << k_cpu();
        CHECK_EQ(k_mutex_lock(&m), K_OK);
        uint32_t v = counter;
        for (volatile int d = 0; d < 10; ++d)
            ;
        counter = v + 1;
        CHECK_EQ(k_mutex_unlock(&m), K_OK);
    }
}

static volatile uint32_t pinned_cpus;
static void pinned(void *arg)
{
    (void)arg;
    for (int i = 0; i < 200; ++i) {
        pinned_cpus |= 1u << k_cpu();
        if (i % 20 == 0)
            k_yield();
    }
}

static k_sem_t ping, pong;
static volatile uint32_t ping_cpus, pong_cpus;
static void pinger(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; ++i) {
        ping_cpus |= 1u << k_cpu();
        CHECK_EQ(k_sem_give(&ping), K_OK);
        int r = k_sem_take(&pong, 100);
        if (r != K_OK)
            k_printf("ping %d: %d at %lu\n", i, r, (unsigned long)timer_now());
        CHECK_EQ(r, K_OK);
    }
}
static void ponger(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; ++i) {
        int r = k_sem_take(&ping, 100);
        if (r != K_OK)
            k_printf("pong %d: %d at %lu\n", i, r, (unsigned long)timer_now());
        CHECK_EQ(r, K_OK);
        pong_cpus |= 1u << k_cpu();
        CHECK_EQ(k_sem_give(&pong), K_OK);
    }
}

static void main_thread(void *arg)
{
    (void)arg;
    uint32_t cores = tile_num_cores();
    CHECK_EQ(cores, 4);
    k_mutex_init(&m);
    k_thread_t *t[WORKERS];
    for (unsigned i = 0; i < WORKERS; ++i)
        t[i] = k_thread_create("worker", worker, (void *)(uintptr_t)i, 3, 0);
    k_thread_t *p = k_thread_create("pinned", pinned, NULL, 3, 1u << 3);
    k_sem_init(&ping, 0);
    k_sem_init(&pong, 0);
    k_thread_t *a = k_thread_create("ping", pinger, NULL, 5, 1u << 1);
    k_thread_t *b = k_thread_create("pong", ponger, NULL, 5, 1u << 2);
    uint32_t all = 0;
    for (unsigned i = 0; i < WORKERS; ++i) {
        CHECK_EQ(k_join(t[i], K_FOREVER, NULL), K_OK);
        all |= cpus_used[i];
    }
    CHECK_EQ(k_join(p, K_FOREVER, NULL), K_OK);
    CHECK_EQ(k_join(a, K_FOREVER, NULL), K_OK);
    CHECK_EQ(k_join(b, K_FOREVER, NULL), K_OK);
    CHECK_EQ(counter, WORKERS * ROUNDS);
    CHECK_EQ(all, (1u << cores) - 1);
    CHECK_EQ(pinned_cpus, 1u << 3);
    CHECK_EQ(ping_cpus, 1u << 1);
    CHECK_EQ(pong_cpus, 1u << 2);
    k_stats_t st;
    k_get_stats(&st);
    k_printf("smp: counter %lu, cores used 0x%lx, %lu switches, %lu IPIs\n", (unsigned long)counter,
             (unsigned long)all, (unsigned long)st.switches, (unsigned long)st.ipis);
    CHECK(st.ipis > 0);
    if (ktest_failures == 0)
        k_printf("kernel smp ok (%s): %lu cores\n", k_rq_layout_name, (unsigned long)cores);
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        k_config_t cfg = {.tick_ticks = TICK, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 1u << 0);
    }
    k_start();
}
