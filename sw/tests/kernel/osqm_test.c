/* HW-OSQM with the kernel (docs/kernel.md "HW-OSQM"), preset smp + namp.osqm: on every 4-core
 * tile, SENDERS threads send messages to the next tile through their own NAMP slots and block in
 * k_osqm_wait after each start: the OSQM puts them back into the ready queue (at the layout's end)
 * when the transfer completes. Meanwhile CHURN threads on all cores keep the kernel's own queue
 * operations going (yield, sleep, semaphores). Afterwards every ready queue is walked.
 * Run with namp.osqm_cycles=20000 (see test_insertion_end) and the adapter's target, data set-up
 * and finalize steps at 1000 cycles each (a transfer outlasts the system call at any quantum: most
 * waits block).
 * OSQM_KMODE (per firmware): K_OSQM_DIRECT (the hardware inserts into the ready queue, or sets the
 * ready bit with the `flags` layout) or K_OSQM_WAKEUP (into the kernel's wake-up queue, emptied at
 * scheduler entry). In both, the odd senders are critical: their wake-ups raise the demand
 * interrupt (on core 0) while they run on all cores, so every wake-up path runs under interrupts.
 * Expected per tile: "kernel osqm ok (<layout>, <mode>): <n> wake-ups by the OSQM, queues
 * consistent". */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "ktest.h"
#include "mp/cbuffer.h"
#include "namp/namp_regs.h"
#include "namp_structs.h"

volatile unsigned ktest_failures;
extern const char *const k_rq_layout_name;
#ifndef OSQM_KMODE
#define OSQM_KMODE K_OSQM_DIRECT
#endif
#ifndef OSQM_STRESS_CRITICAL
#define OSQM_STRESS_CRITICAL 1
#endif
static const char *const mode_name = OSQM_KMODE == K_OSQM_WAKEUP ? "wakeup" : "direct";

#define SENDERS 6
#define MSGS    25
#define CHURN   6

static uint32_t ep[NAMP_EP_SIZE / 4] __attribute__((aligned(64)));
static uint8_t rxbuf[MP_CB_HEADER_SIZE + (4u << 5) + (1024u << 5)] __attribute__((aligned(8)));
static uint32_t handle[NAMP_H_SIZE / 4] __attribute__((aligned(64)));
static volatile uint32_t received, errors, churn_stop, senders_left;
static uint32_t data[SENDERS][256]; /* 1 KiB messages: the transfer outlasts the system call */

static volatile uint32_t wakeups[SENDERS];
static void sender(void *arg)
{
    uint32_t s = (uint32_t)(uintptr_t)arg; /* slot s */
    if ((s & 1) && OSQM_STRESS_CRITICAL)
        CHECK_EQ(k_thread_critical(NULL, 1), K_OK);
    for (uint32_t i = 0; i < MSGS; ++i) {
        data[s][0] = tile_id();
        data[s][1] = s;
        data[s][2] = i;
        namp_reg_slot_start(s, 0, (uint32_t)handle, (uint32_t)data[s], sizeof data[s]);
        CHECK_EQ(k_osqm_wait(s), K_OK);
        wakeups[s]++;
        /* woken: the transfer is done (the hardware inserted us only then) */
        uint32_t f = namp_reg_slot_flags(s), st = namp_reg_slot_status(s);
        CHECK(f & NAMP_FLAG_DONE);
        if (st & NAMP_STATUS_ERROR)
            __atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED);
        namp_reg_slot_set_flags(s, 0);
    }
    __atomic_fetch_sub(&senders_left, 1, __ATOMIC_RELAXED);
}

static void receiver(void *arg)
{
    (void)arg;
    mp_cbuffer_t *b = (mp_cbuffer_t *)rxbuf;
    uint32_t next[SENDERS] = {0};
    for (int idle = 0; received < SENDERS * MSGS && idle < 20000;) {
        uint32_t idx;
        if (mp_cbuffer_read(b, &idx) != 0) {
            k_sleep(1);
            idle++;
            continue;
        }
        const uint32_t *m = (const uint32_t *)mp_cbuffer_data(b, idx);
        if (m[1] < SENDERS) {
            CHECK_EQ(m[2], next[m[1]]);
            next[m[1]] = m[2] + 1;
            received++;
        }
        mp_cbuffer_free(b, idx);
    }
}

static k_sem_t sem;
static void churn(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; !churn_stop; ++i) {
        switch ((i + me) % 4) {
        case 0: k_yield(); break;
        case 1: k_sleep(1); break;
        case 2: k_sem_give(&sem); break;
        default: k_sem_take(&sem, 1); break;
        }
        for (volatile int d = 0; d < 50; ++d)
            ;
    }
}

/* Where the hardware puts a woken thread: A blocks on its send; B and C of A's priority become
 * ready while the main thread (higher priority, same core) waits for the insertion; then the
 * queue is [B, C, A] (back: FreeRTOS, bitmap) or [A, B, C] (front: seL4). All on core 1. The
 * test runs with namp.osqm_cycles = 20000 (4 ticks), so that B and C exist before the insertion. */
static volatile uint32_t order_slot_done;
static void blocked_sender(void *arg)
{
    (void)arg;
    static uint32_t adata[256];
    adata[1] = 0xFF; /* not a sender's: the receiver does not count it */
    namp_reg_slot_start(7, 0, (uint32_t)handle, (uint32_t)adata, sizeof adata);
    CHECK_EQ(k_osqm_wait(7), K_OK);
    order_slot_done = 1;
    namp_reg_slot_set_flags(7, 0);
}
static void nothing(void *arg) { (void)arg; }

static void test_insertion_end(void)
{
    k_thread_t *a = k_thread_create("A", blocked_sender, NULL, 4, 1u << 1);
    while (!(namp_reg_slot_flags(7) & NAMP_FLAG_VALID) && !order_slot_done)
        k_sleep(1); /* A started its send (and blocks in k_osqm_wait) */
    uint32_t before = namp_reg_osqm(OSQM_INSERTIONS);
    k_thread_t *b = k_thread_create("B", nothing, NULL, 4, 1u << 1);
    k_thread_t *c = k_thread_create("C", nothing, NULL, 4, 1u << 1);
    for (uint32_t n = 0; namp_reg_osqm(OSQM_INSERTIONS) == before && n < 1000000u; ++n)
        ; /* no system call: B and C stay queued behind us */
    /* wake-up mode: the insertion went into the wake-up queue; the next scheduler entry (ours:
     * main is alone at its priority and keeps running) moves A to the ready queue */
    k_yield();
    k_thread_t *q[4] = {0};
    int n = k_ready_order(4, q, 4);
    CHECK_EQ(n, 3);
    CHECK(!order_slot_done);
    /* flags: priority 4's round-robin starts after A, its thread picked last: B, C, A as at the back */
    if (K_RQ_LAYOUT == K_RQ_SEL4)
        CHECK(q[0] == a && q[1] == b && q[2] == c);
    else
        CHECK(q[0] == b && q[1] == c && q[2] == a);
    k_printf("osqm insertion (%s): %s first\n", k_rq_layout_name,
             q[0] == a   ? "A"
             : q[0] == b ? "B"
                         : "?");
    CHECK_EQ(k_join(a, 1000, NULL), K_OK);
    CHECK_EQ(k_join(b, 1000, NULL), K_OK);
    CHECK_EQ(k_join(c, 1000, NULL), K_OK);
}

/* Order and exactly once: NW threads of one priority on core 1 each start a channel transfer on
 * a handle without credits (it waits persistently: CREDIT_WAIT) and block in k_osqm_wait; main
 * (higher priority, same core) then ends the transfers by the abort, one after the other, each
 * after the previous insertion: the events come in a known order. Then it finds the threads in the
 * ready queue in event order (back: FreeRTOS, bitmap), reversed (front: seL4), or all with their
 * bit set (flags: the round-robin order is the table's, not the events'); each wakes exactly once,
 * with its transfer ABORTED. */
#define NW 4
static uint32_t chandle[NAMP_H_SIZE / 4] __attribute__((aligned(64)));
/* The waiters share a core and its time slices: a tick may preempt one between the load and the
 * store of a counter, so the counters are incremented atomically (a plain ++ lost updates). */
static volatile uint32_t wake_seq, started, aborted_ok;
static void order_waiter(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg, s = 2 + i; /* slots 2..5 */
    static uint32_t msg[NW][4];
    msg[i][1] = 0xFF; /* never delivered */
    namp_reg_slot_start(s, NAMP_FLAG_CON, (uint32_t)chandle, (uint32_t)msg[i], sizeof msg[i]);
    atomic_fetch_add_u32(&started, 1);
    CHECK_EQ(k_osqm_wait(s), K_OK);
    atomic_fetch_add_u32(&wake_seq, 1);
    uint32_t st = namp_reg_slot_status(s);
    if ((st & NAMP_STATUS_ERROR) && (st & 0xFFu) == NAMP_ERR_ABORTED)
        atomic_fetch_add_u32(&aborted_ok, 1);
    namp_reg_slot_set_flags(s, 0);
}

static void test_wake_order(void)
{
    uint32_t tiles = tile_mesh_width() * tile_mesh_height();
    memset(chandle, 0, sizeof chandle);
    chandle[NAMP_H_TILE / 4] = (tile_id() + 1) % tiles;
    chandle[NAMP_H_ENDPOINT / 4] = (uint32_t)ep;
    chandle[NAMP_H_FLAGS / 4] = NAMP_H_F_CONNECTED; /* credits 0 */
    k_thread_t *w[NW];
    for (uint32_t i = 0; i < NW; ++i)
        w[i] = k_thread_create("W", order_waiter, (void *)(uintptr_t)i, 4, 1u << 1);
    for (uint32_t n = 0; started < NW && n < 100; ++n)
        k_sleep(1); /* each started its transfer and blocked: they wait for credits */
    k_sleep(2);
    /* the first started (time slices of one tick: not always W0) waits for a credit, the others
     * behind it (allocation order per handle); the abort ends a queued one too */
    uint32_t persistent = 0;
    for (uint32_t i = 0; i < NW; ++i) {
        persistent += (namp_reg_slot_status(2 + i) & NAMP_STATUS_PERSISTENT) != 0;
        CHECK(!(namp_reg_slot_flags(2 + i) & NAMP_FLAG_DONE));
    }
    CHECK_EQ(persistent, 1);
    for (uint32_t i = 0; i < NW; ++i) {
        uint32_t before = namp_reg_osqm(OSQM_INSERTIONS);
        namp_reg_slot_abort(2 + i, 0);
        for (uint32_t n = 0; namp_reg_osqm(OSQM_INSERTIONS) == before && n < 2000000u; ++n)
            ; /* no system call: nothing runs on this core but us */
    }
    k_yield(); /* wake-up mode: the queue emptied */
    k_thread_t *q[NW + 1] = {0};
    int n = k_ready_order(4, q, NW + 1);
    CHECK_EQ(n, NW);
    int in_order = n == NW;
    for (int i = 0; i < n && in_order; ++i) {
        if (K_RQ_LAYOUT == K_RQ_FLAGS) { /* no order kept: each once, none else */
            int once = 0;
            for (int j = 0; j < n; ++j)
                once += q[j] == w[i];
            in_order = once == 1;
        } else {
            uint32_t want = K_RQ_LAYOUT == K_RQ_SEL4 ? (uint32_t)(NW - 1 - i) : (uint32_t)i;
            in_order = q[i] == w[want];
        }
    }
    CHECK(in_order);
    CHECK_EQ(wake_seq, 0); /* none ran yet */
    for (uint32_t i = 0; i < NW; ++i)
        CHECK_EQ(k_join(w[i], 1000, NULL), K_OK);
    CHECK_EQ(wake_seq, NW); /* each woke once */
    CHECK_EQ(aborted_ok, NW);
    k_printf("osqm wake order (%s, %s): %s\n", k_rq_layout_name, mode_name,
             !in_order                   ? "WRONG"
             : K_RQ_LAYOUT == K_RQ_FLAGS ? "each once"
                                         : "event order");
}

static void main_thread(void *arg)
{
    (void)arg;
    CHECK_EQ(k_osqm_enable_mode(OSQM_KMODE), K_OK);
    if (ktest_failures) {
        k_printf("FAIL: no HW-OSQM (run with namp.osqm=true)\n");
        k_exit(1);
    }
    k_sleep(20); /* every tile has its endpoint ready */
    test_insertion_end();
    test_wake_order();
    k_sem_init(&sem, 0);
    senders_left = SENDERS;
    k_thread_t *c[CHURN], *s[SENDERS];
    for (uint32_t i = 0; i < CHURN; ++i)
        c[i] = k_thread_create("churn", churn, (void *)(uintptr_t)i, 2 + i % 3, 0);
    for (uint32_t i = 0; i < SENDERS; ++i)
        s[i] = k_thread_create("sender", sender, (void *)(uintptr_t)i, 3 + i % 4, 0);
    k_thread_t *r = k_thread_create("receiver", receiver, NULL, 6, 0);
    for (uint32_t i = 0; i < SENDERS; ++i)
        CHECK_EQ(k_join(s[i], 4000, NULL), K_OK); /* a lost wake-up ends here, not in a hang */
    CHECK_EQ(k_join(r, 4000, NULL), K_OK);
    int bad_during = k_check_queues(); /* churn still running */
    churn_stop = 1;
    for (uint32_t i = 0; i < CHURN; ++i)
        CHECK_EQ(k_join(c[i], K_FOREVER, NULL), K_OK);
    int bad = k_check_queues();
    k_stats_t st;
    k_get_stats(&st);
    uint32_t inserted = namp_reg_osqm(OSQM_INSERTIONS);
    CHECK_EQ(senders_left, 0);
    CHECK_EQ(received, SENDERS * MSGS);
    CHECK_EQ(errors, 0);
    CHECK_EQ(bad_during, 0);
    CHECK_EQ(bad, 0);
    CHECK_EQ(inserted, st.osqm_waits);
    CHECK(st.osqm_waits >= SENDERS * MSGS / 2); /* most transfers outlast the call */
    for (uint32_t i = 0; i < SENDERS; ++i)
        CHECK_EQ(wakeups[i], MSGS);
    /* exactly once: every critical wait that blocked gave one demand interrupt; the wake-up
     * queue handed every insertion to the scheduler */
    CHECK_EQ(st.osqm_demand_irqs, st.osqm_critical_waits);
    CHECK(st.osqm_critical_waits > 0 || !OSQM_STRESS_CRITICAL);
    if (OSQM_KMODE == K_OSQM_WAKEUP)
        CHECK_EQ(st.osqm_drained, inserted);
    k_printf("osqm: %lu waits (%lu critical), %lu insertions by the OSQM, %lu demand interrupts, "
             "%lu drained, %lu switches\n",
             (unsigned long)st.osqm_waits, (unsigned long)st.osqm_critical_waits,
             (unsigned long)inserted, (unsigned long)st.osqm_demand_irqs,
             (unsigned long)st.osqm_drained, (unsigned long)st.switches);
    if (ktest_failures == 0)
        k_printf("kernel osqm ok (%s, %s): %lu wake-ups by the OSQM, queues consistent\n",
                 k_rq_layout_name, mode_name, (unsigned long)inserted);
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        mp_cbuffer_init(rxbuf, 5, 10, 0);
        memset(ep, 0, sizeof ep);
        ep[NAMP_EP_STATE / 4] = NAMP_EP_STATE_READY;
        ep[NAMP_EP_RX_BUFFER / 4] = (uint32_t)rxbuf;
        memset(handle, 0, sizeof handle);
        uint32_t tiles = tile_mesh_width() * tile_mesh_height();
        handle[NAMP_H_TILE / 4] = (tile_id() + 1) % tiles;
        handle[NAMP_H_ENDPOINT / 4] = (uint32_t)ep; /* same ELF: same address in every tile */
        k_config_t cfg = {.tick_ticks = 500, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 1u << 1);
    }
    k_start();
}
