/* User tasks (docs/kernel.md): each in its own Sv32 address space, system calls by ecall; a task
 * that faults or makes a bad system call is killed and reported, everything else goes on.
 * Expected: one "k: task <name> killed: ..." line per bad task, "hello from task good",
 * "kernel tasks ok (<layout>)", exit 0. */
#include <stdint.h>

#include "hal/hal.h"
#include "kernel/user.h"
#include "ktest.h"

volatile unsigned ktest_failures;
extern const char *const k_rq_layout_name;

/* ---- task code: only its own data (a0), its stack, the shared text and read-only data ---- */
struct good_data {
    uint32_t sum;
    uint32_t tid;
    long bad_write;
    char msg[32];
};

static void task_good(void *arg)
{
    struct good_data *d = arg;
    for (uint32_t i = 1; i <= 100; ++i) {
        d->sum += i;
        if (i % 25 == 0)
            u_yield();
    }
    d->tid = (uint32_t)u_gettid();
    u_write(d->msg, 21);
    /* a pointer outside the task: an error status, not a kill */
    d->bad_write = u_write((const char *)0x80000100u + 0x40000, 4);
    u_sleep(2);
    u_exit(d->bad_write == K_EINVAL && d->sum == 5050 ? 7 : 8);
}

static volatile uint32_t kernel_secret = 0x5ec7e7;

static void task_read_kernel(void *arg)
{
    (void)arg;
    uint32_t v = *(volatile uint32_t *)&kernel_secret; /* kernel data: not mapped */
    u_exit((int)v);
}

static void task_write_text(void *arg)
{
    (void)arg;
    *(volatile uint32_t *)(uintptr_t)task_write_text = 0; /* text is read-only for tasks */
    u_exit(1);
}

static void task_bad_syscall(void *arg)
{
    (void)arg;
    u_syscall(99, 0, 0);
    u_exit(2);
}

static void task_kernel_call(void *arg)
{
    (void)arg;
    u_syscall(K_SYS_MUTEX_LOCK, 0x80000000, 0); /* a kernel-thread call */
    u_exit(3);
}

static void task_device(void *arg)
{
    (void)arg;
    *(volatile uint32_t *)0x10001000u = 99; /* simulation control: not mapped for tasks */
    u_exit(4);
}

static void task_stack_overflow(void *arg)
{
    (void)arg;
    for (uint32_t a = K_USER_STACK_TOP - 64; a > K_USER_STACK_TOP - 3 * K_PAGE_SIZE; a -= 64)
        *(volatile uint8_t *)a = 1; /* runs into the guard page below the one stack page */
    u_exit(5);
}

static void task_csr(void *arg)
{
    (void)arg;
    uint32_t v;
    __asm__ volatile("csrr %0, mstatus" : "=r"(v));
    u_exit((int)v);
}

/* ---- kernel side ---- */
static volatile uint32_t ticker_runs;
static volatile int ticker_stop;
static void ticker(void *arg)
{
    (void)arg;
    while (!ticker_stop) {
        ticker_runs++;
        k_sleep(1);
    }
}

struct bad_case {
    const char *name;
    void (*entry)(void *);
    int expect;
};

static void main_thread(void *arg)
{
    (void)arg;
    k_thread_t *tick = k_thread_create("ticker", ticker, NULL, 4, 0);

    static const struct good_data init = {0, 0, 0, "hello from task good\n"};
    k_task_image_t good = {"good", task_good, &init, sizeof init, 1, 3, 0};
    k_thread_t *g = k_task_create(&good);
    CHECK(g != NULL);

    static const struct bad_case bad[] = {
        {"read_kernel", task_read_kernel, K_KILLED + 13},
        {"write_text", task_write_text, K_KILLED + 15},
        {"bad_syscall", task_bad_syscall, K_KILLED_SYSCALL},
        {"kernel_call", task_kernel_call, K_KILLED_SYSCALL},
        {"device", task_device, K_KILLED + 15},
        {"stack_overflow", task_stack_overflow, K_KILLED + 15},
        {"csr", task_csr, K_KILLED + 2},
    };
    enum { NBAD = sizeof bad / sizeof bad[0] };
    k_thread_t *bt[NBAD];
    for (unsigned i = 0; i < NBAD; ++i) {
        k_task_image_t img = {bad[i].name, bad[i].entry, NULL, 0, 1, 3, 0};
        bt[i] = k_task_create(&img);
        CHECK(bt[i] != NULL);
    }
    int status = -1;
    CHECK_EQ(k_join(g, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 7);
    for (unsigned i = 0; i < NBAD; ++i) {
        status = -1;
        CHECK_EQ(k_join(bt[i], K_FOREVER, &status), K_OK);
        if (status != bad[i].expect)
            k_printf("task %s: status 0x%x, expected 0x%x\n", bad[i].name, status, bad[i].expect);
        CHECK_EQ(status, bad[i].expect);
    }
    /* bad images */
    k_task_image_t none = {"none", NULL, NULL, 0, 1, 3, 0};
    CHECK(k_task_create(&none) == NULL);
    CHECK(k_task_create(NULL) == NULL);
    k_task_image_t huge = {"huge", task_good, NULL, K_USER_DATA_MAX + 1, 1, 3, 0};
    CHECK(k_task_create(&huge) == NULL);

    /* the good task's results, then its slot can go: a task again in the freed pages */
    k_thread_t *g2 = k_task_create(&good);
    CHECK(g2 != NULL);
    CHECK_EQ(k_join(g2, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 7);

    ticker_stop = 1;
    CHECK_EQ(k_join(tick, K_FOREVER, NULL), K_OK);
    CHECK(ticker_runs > 3);
    k_stats_t st;
    k_get_stats(&st);
    CHECK_EQ(st.killed, NBAD);
    if (ktest_failures == 0)
        k_printf("kernel tasks ok (%s): %lu killed, the kernel went on\n", k_rq_layout_name,
                 (unsigned long)st.killed);
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        k_config_t cfg = {.tick_ticks = 500, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
