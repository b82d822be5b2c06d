/* 32 kernel threads exchanging MCAPI messages across tiles (2x2 mesh, 8 threads per tile): thread
 * i of tile t sends MSGS messages to thread i of tile t+1 and receives MSGS from thread i of tile
 * t-1, with blocking calls that suspend only the calling thread (sw/kernel/kmp.c). Threads have
 * different priorities; each checks order and payload of what it receives.
 * Expected per tile: "kernel mp stress ok: tile <t>, 8 threads, <n> messages", exit 0. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "ktest.h"
#include "mcapi.h"

volatile unsigned ktest_failures;

#define THREADS 8
#define MSGS    40
#define PORT(i) (10u + (i))

struct msg {
    uint32_t tile, thread, seq, check;
    uint8_t fill[20];
};

static uint32_t me, tiles;
static volatile uint32_t received_total, idle_waits;

static void worker(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg;
    uint32_t to = (me + 1) % tiles, from = (me + tiles - 1) % tiles;
    mcapi_status_t st;
    mcapi_endpoint_t ep, dst;
    KMP(ep = mcapi_endpoint_create(PORT(i), &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(dst = mcapi_endpoint_get(0, to, PORT(i), MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    uint32_t next = 0;
    for (uint32_t s = 0; s < MSGS; ++s) {
        struct msg m = {me, i, s, me * 1000003u ^ i * 7919u ^ s, {0}};
        memset(m.fill, (int)(s & 0xff), sizeof m.fill);
        KMP(mcapi_msg_send(ep, dst, &m, sizeof m, 1, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        struct msg r;
        size_t got = 0;
        KMP(mcapi_msg_recv(ep, &r, sizeof r, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, sizeof r);
        CHECK(r.tile == from && r.thread == i && r.seq == next &&
              r.check == (from * 1000003u ^ i * 7919u ^ next) && r.fill[19] == (next & 0xff));
        next++;
        __atomic_fetch_add(&received_total, 1, __ATOMIC_RELAXED); /* threads preempt each other */
        if (s % 8 == 0)
            k_sleep(1); /* other threads of this tile run meanwhile */
    }
}

static void main_thread(void *arg)
{
    (void)arg;
    me = tile_id();
    tiles = tile_mesh_width() * tile_mesh_height();
    mcapi_status_t st;
    mcapi_info_t info;
    KMP(mcapi_initialize(0, me, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    k_thread_t *t[THREADS];
    for (uint32_t i = 0; i < THREADS; ++i)
        t[i] = k_thread_create("worker", worker, (void *)(uintptr_t)i, 2 + i % 4, 0);
    for (uint32_t i = 0; i < THREADS; ++i)
        CHECK_EQ(k_join(t[i], K_FOREVER, NULL), K_OK);
    CHECK_EQ(received_total, THREADS * MSGS);
    k_stats_t ks;
    k_get_stats(&ks);
    unsigned long waits = kmp_wait_count();
    k_printf("tile %lu: %lu switches, %lu system calls, %lu suspensions in MCAPI calls\n",
             (unsigned long)me, (unsigned long)ks.switches, (unsigned long)ks.syscalls, waits);
    CHECK(waits > 0);
    if (ktest_failures == 0)
        k_printf("kernel mp stress ok: tile %lu, %d threads, %lu messages\n", (unsigned long)me,
                 THREADS, (unsigned long)received_total);
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        k_config_t cfg = {.tick_ticks = 1000, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
