/* Scheduling order, priorities, time slices and preemption on one core (docs/kernel.md).
 * Run with every ready-queue layout; the layout-specific rule (where a preempted thread goes)
 * is checked against the layout's own expectation.
 * Expected: "kernel sched ok (<layout>)", exit 0. */
#include <stdint.h>

#include "hal/hal.h"
#include "kernel/user.h"
#include "ktest.h"

volatile unsigned ktest_failures;
extern const char *const k_rq_layout_name;

#define TICK 500u /* mtime ticks per kernel tick */

/* ---- 1. priorities: created low, mid, high; they run highest first ---- */
static volatile char order[8];
static volatile unsigned n_order;

static void record(void *arg) { order[n_order++] = (char)(uintptr_t)arg; }

static void test_priorities(void)
{
    n_order = 0;
    k_thread_t *t[3] = {
        k_thread_create("low", record, (void *)'L', 1, 0),
        k_thread_create("mid", record, (void *)'M', 5, 0),
        k_thread_create("high", record, (void *)'H', 8, 0),
    };
    for (int i = 0; i < 3; ++i)
        CHECK_EQ(k_join(t[i], K_FOREVER, NULL), K_OK);
    CHECK_EQ(n_order, 3);
    CHECK(order[0] == 'H' && order[1] == 'M' && order[2] == 'L');
}

/* ---- 2. time slices: three busy threads of one priority rotate, one slice each ---- */
#define RR_THREADS  3
#define RR_SWITCHES 30
static volatile unsigned rr_log[RR_SWITCHES + 4];
static volatile uint64_t rr_time[RR_SWITCHES + 4];
static volatile unsigned rr_n;
static volatile int rr_stop;

static void spinner(void *arg)
{
    unsigned me = (unsigned)(uintptr_t)arg;
    while (!rr_stop) {
        unsigned n = rr_n;
        if (n == 0 || rr_log[n - 1] != me) { /* first instruction of a new slice of ours */
            if (n < RR_SWITCHES) {
                rr_log[n] = me;
                rr_time[n] = timer_now();
                rr_n = n + 1;
            } else {
                rr_stop = 1;
            }
        }
    }
}

static void test_time_slices(void)
{
    rr_n = 0;
    rr_stop = 0;
    k_thread_t *t[RR_THREADS];
    for (unsigned i = 0; i < RR_THREADS; ++i)
        t[i] = k_thread_create("rr", spinner, (void *)(uintptr_t)i, 3, 0);
    for (unsigned i = 0; i < RR_THREADS; ++i)
        CHECK_EQ(k_join(t[i], K_FOREVER, NULL), K_OK);
    CHECK_EQ(rr_n, RR_SWITCHES);
    /* strict rotation 0 1 2 0 1 2 ... */
    unsigned bad = 0;
    for (unsigned i = 0; i < RR_SWITCHES; ++i)
        bad += rr_log[i] != i % RR_THREADS;
    CHECK_EQ(bad, 0);
    /* each slice (after the first, which starts at the creation) lasts 2 ticks of TICK */
    uint64_t min = UINT64_MAX, max = 0;
    for (unsigned i = 2; i < RR_SWITCHES; ++i) {
        uint64_t d = rr_time[i] - rr_time[i - 1];
        min = d < min ? d : min;
        max = d > max ? d : max;
    }
    k_printf("time slices: %u switches, slice %lu..%lu mtime ticks (configured %u)\n", rr_n,
             (unsigned long)min, (unsigned long)max, 2 * TICK);
    CHECK(min >= 2 * TICK * 9 / 10 && max <= 2 * TICK * 11 / 10);
}

/* ---- 3. a sleeping high-priority thread preempts a busy low one when it wakes ---- */
static volatile unsigned busy_count, busy_stop;
static volatile uint64_t woke_at, slept_from;
static volatile unsigned busy_seen_at_wake;

static void busy(void *arg)
{
    (void)arg;
    while (!busy_stop)
        busy_count++;
}

static void sleeper(void *arg)
{
    (void)arg;
    slept_from = timer_now();
    k_sleep(3);
    woke_at = timer_now();
    busy_seen_at_wake = busy_count;
    for (volatile int i = 0; i < 2000; ++i) /* busy cannot run while we do */
        ;
    CHECK_EQ(busy_count, busy_seen_at_wake);
    busy_stop = 1;
}

static void test_preemption(void)
{
    busy_count = busy_stop = 0;
    k_thread_t *b = k_thread_create("busy", busy, NULL, 2, 0);
    k_thread_t *s = k_thread_create("sleeper", sleeper, NULL, 6, 0);
    CHECK_EQ(k_join(s, K_FOREVER, NULL), K_OK);
    CHECK_EQ(k_join(b, K_FOREVER, NULL), K_OK);
    uint64_t slept = woke_at - slept_from;
    k_printf("sleep 3 ticks: woke after %lu mtime ticks\n", (unsigned long)slept);
    CHECK(slept >= 3 * TICK && slept <= 5 * TICK);
    CHECK(busy_seen_at_wake > 0);
}

/* ---- 4. where a preempted thread goes: seL4 front, FreeRTOS/bitmap tail ---- */
static volatile char seq[16];
static volatile unsigned n_seq;
static volatile int hi_go;

static void peer(void *arg)
{
    char me = (char)(uintptr_t)arg;
    seq[n_seq++] = me;
    if (me == 'A') {
        hi_go = 1;
        while (hi_go != 2) /* preempted here by the high thread at the next tick */
            ;
        seq[n_seq++] = 'a';
    }
}

static void high(void *arg)
{
    (void)arg;
    while (!hi_go)
        k_sleep(1);
    seq[n_seq++] = 'H';
    hi_go = 2;
}

static void test_preempted_position(void)
{
    n_seq = 0;
    hi_go = 0;
    /* B yields to nobody: slices are long here (the main thread sets them below). */
    k_thread_t *h = k_thread_create("high", high, NULL, 7, 0);
    k_thread_t *a = k_thread_create("A", peer, (void *)'A', 4, 0);
    k_thread_t *b = k_thread_create("B", peer, (void *)'B', 4, 0);
    CHECK_EQ(k_join(h, K_FOREVER, NULL), K_OK);
    CHECK_EQ(k_join(a, K_FOREVER, NULL), K_OK);
    CHECK_EQ(k_join(b, K_FOREVER, NULL), K_OK);
    seq[n_seq] = 0;
    /* A runs, H preempts it; then seL4 puts A back at the front (A finishes before B starts),
     * FreeRTOS and the bitmap layout at the tail (B runs first). */
    /* flags: the scan of priority 4 starts after the thread of 4 picked last (A): B first */
    const char *expect = K_RQ_LAYOUT == K_RQ_SEL4 ? "AHaB" : "AHBa";
    k_printf("preempted thread order (%s): %s\n", k_rq_layout_name, (const char *)seq);
    unsigned i = 0;
    while (expect[i] && seq[i] == expect[i])
        ++i;
    CHECK(expect[i] == 0 && n_seq == 4);
}

/* ---- 5. bad calls ---- */
static void test_bad_calls(void)
{
    CHECK(k_thread_create("bad", NULL, NULL, 1, 0) == NULL);
    CHECK(k_thread_create("bad", busy, NULL, K_PRIOS, 0) == NULL);
    CHECK_EQ(k_join(NULL, 0, NULL), K_EINVAL);
    CHECK_EQ(k_join(k_self(), 0, NULL), K_EINVAL);
    CHECK_EQ(k_set_priority(NULL, K_PRIOS), K_EINVAL);
    /* Numbers no entry of the system-call table serves: K_ENOSYS, the caller goes on. Among them
     * K_SYS_START once started, and the calls of MCAPI in tasks, whose module this firmware does
     * not link. The calls of modules not in use answer as without them (no endpoint table, no
     * OSQM): K_EINVAL. */
    static const long unset[] = {
        0,  K_SYS_USER_LAST + 1, K_SYS_START - 1, K_SYS_START, K_SYS_LAST, K_SYS_LAST + 1, 1000,
        -1, K_SYS_MP_REQ,        K_SYS_MP_RES};
    unsigned enosys = 0;
    for (unsigned i = 0; i < sizeof unset / sizeof unset[0]; ++i) {
        const long r = u_syscall3(unset[i], 1, 2, 3);
        CHECK_EQ(r, K_ENOSYS);
        enosys += r == K_ENOSYS;
    }
    CHECK_EQ(u_syscall3(K_SYS_NAMP_SEND, 0, 0, 16), K_EINVAL);
    CHECK_EQ(u_syscall3(K_SYS_OSQM_WAIT, 0, 0, 0), K_EINVAL);
    CHECK_EQ(u_syscall3(K_SYS_OSQM_WAIT_EP, 0, 0, 0), K_EINVAL);
    k_printf("unset system calls: %u of %u K_ENOSYS\n", enosys,
             (unsigned)(sizeof unset / sizeof unset[0]));
}

/* ---- 6. a running thread that lowers its priority below a ready one gives way at once ----
 * The scheduler skips its scan when nothing became ready since its last decision (docs/kernel.md
 * "SMP"); a priority change must still count as a change. */
static volatile int lower_ran;

static void lower(void *arg)
{
    (void)arg;
    lower_ran = 1;
}

static void test_priority_drop(void)
{
    lower_ran = 0;
    k_thread_t *t = k_thread_create("lower", lower, NULL, 7, 0);
    for (int i = 0; i < 4; ++i) /* its own priority again: main, above "lower", keeps the core */
        k_set_priority(NULL, 10);
    CHECK_EQ(lower_ran, 0);
    CHECK_EQ(k_set_priority(NULL, 5), K_OK); /* now below "lower": it runs before this returns */
    CHECK_EQ(lower_ran, 1);
    CHECK_EQ(k_set_priority(NULL, 10), K_OK);
    CHECK_EQ(k_join(t, K_FOREVER, NULL), K_OK);
}

static void main_thread(void *arg)
{
    (void)arg;
    test_priorities();
    test_time_slices();
    test_preemption();
    test_preempted_position();
    test_bad_calls();
    test_priority_drop();
    k_stats_t st;
    k_get_stats(&st);
    k_printf("stats: %lu switches, %lu preemptions, %lu ticks, %lu system calls\n",
             (unsigned long)st.switches, (unsigned long)st.preemptions, (unsigned long)st.ticks,
             (unsigned long)st.syscalls);
    if (ktest_failures == 0)
        k_printf("kernel sched ok (%s)\n", k_rq_layout_name);
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        k_config_t cfg = {.tick_ticks = TICK, .slice_ticks = 2};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
