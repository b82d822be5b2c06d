/* The kernel's interrupt path on its own (thesis 3.5.1: o_interrupting = r_event * T_isr, "about
 * 10% at 25 kHz"): the CPU time one adapter interrupt costs, split into its parts by measuring
 * three handlers at every rate. Two tiles, one core each (namp.enabled); tile 1 sends 4-byte
 * messages round-robin to NWAIT notifying endpoints of tile 0 at a fixed rate per 10 ms phase, as
 * in osqm_bench.c; on tile 0 one worker thread counts, and the RX_COUNT interrupt runs
 *   ack:  the handler acknowledges RX_COUNT and frees the delivered messages itself (the least
 *         an interrupt must do): trap entry and exit, dispatch, the acknowledgement, the frees;
 *   sem:  the same plus one semaphore give per waiting endpoint (k_isr_sem_give, nobody waits):
 *         the thesis' T_isr (the handler makes the waiting thread ready);
 *   wake: osqm_bench's interrupt mode: the handler gives the semaphore of each endpoint with
 *         messages, NWAIT threads blocked on them wake, free their messages and block again
 *         (T_isr plus the switches to the woken thread and back and its system call).
 * Per phase: CPU time lost = 1 - worker count / its count alone; cycles per event = lost cycles /
 * events; the handler's own cycles (rdcycle at its entry and return) per event; kernel context
 * switches per event (k_get_stats). So trap entry + exit = ack - handler body, T_sem = sem - ack,
 * the wake-up (switches, the thread) = wake - sem, each measured. Before the phases: the
 * handler's acknowledgement alone, a system call without a switch (k_yield with nothing else
 * ready) and one with a switch (two threads yielding to each other): "irq_cost yield" line.
 * Console: "irq_cost <mode> rate <r>/s: lost <permille> permille, <n> events, <c> cycles/event,
 * handler <h> cycles/event ..."; marks id = 13 << 28 | k << 20 | cycles: k = mode * 8 + rate
 * index (cycles per event), 0x80 + mode * 8 + rate index (handler cycles per event), 0xF0 / 0xF1
 * (system call without / with a switch). scripts/claims reads them. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "ktest.h"
#include "mp/cbuffer.h"
#include "na_registers.h"
#include "namp_structs.h"

volatile unsigned ktest_failures;

#define NWAIT 4
#define K_TICK 1000u                  /* mtime ticks per kernel tick (100 us) */
#define T_START 100000u               /* mtime of the first phase (10 ms: set-up done) */
#define PHASE 100000u                 /* mtime ticks per phase (10 ms) */
#define NRATES 5
static const uint32_t rates[NRATES] = {5000, 10000, 20000, 25000, 40000};   /* events per second */
enum { ACK, SEM, WAKE, NMODES };
static const char *const mode_names[NMODES] = {"ack", "sem", "wake"};
#define NPHASES (1 + NMODES * NRATES)
#include "event_source.h"

static k_sem_t sem[NWAIT], spare[NWAIT];
static volatile uint32_t mode, work;
static volatile uint64_t isr_cycles, ack_cycles;

static void waiter(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg;
    while (!stop) {
        consume(i);
        k_sem_take(&sem[i], K_FOREVER);
    }
}

static void isr(trap_frame_t *f)
{
    (void)f;
    uint64_t t0 = cpu_cycles();
    uint32_t n = NA(NA_NAMP_RX_COUNT);
    NA(NA_NAMP_RX_COUNT) = n;   /* acknowledge */
    ack_cycles += cpu_cycles() - t0;
    for (uint32_t i = 0; i < NWAIT; ++i) {
        if (mode == WAKE) {
            if (mp_cbuffer_ready((mp_cbuffer_t *)rx[i]))
                k_isr_sem_give(&sem[i]);
        } else if (consume(i) && mode == SEM) {
            k_isr_sem_give(&spare[i]);
        }
    }
    isr_cycles += cpu_cycles() - t0;
}

static void worker(void *arg)
{
    (void)arg;
    while (!stop)
        work++;
}

/* k_yield in a loop: alone (no switch) or against a second yielder (a switch per call) */
#define NYIELD 64u
static volatile uint64_t yield_cycles;
static void yielder(void *arg)
{
    uint64_t t0 = cpu_cycles();
    for (uint32_t i = 0; i < NYIELD; ++i)
        k_yield();
    if (arg)
        yield_cycles = cpu_cycles() - t0;
}

static void main_thread(void *arg)
{
    (void)arg;
    es_role();
    k_thread_t *y = k_thread_create("yield", yielder, (void *)1, 3, 0);
    CHECK_EQ(k_join(y, K_FOREVER, NULL), K_OK);
    const uint32_t alone = (uint32_t)(yield_cycles / NYIELD);
    k_thread_t *y2 = k_thread_create("yield2", yielder, NULL, 3, 0);
    y = k_thread_create("yield", yielder, (void *)1, 3, 0);
    CHECK_EQ(k_join(y, K_FOREVER, NULL), K_OK);
    CHECK_EQ(k_join(y2, K_FOREVER, NULL), K_OK);
    /* with two yielders every k_yield of the measured one is followed by one of the other */
    const uint32_t pair = (uint32_t)(yield_cycles / NYIELD / 2u);
    sim_mark(13u << 28 | 0xF0u << 20 | alone);
    sim_mark(13u << 28 | 0xF1u << 20 | pair);
    k_printf("irq_cost yield: system call without a switch %lu cycles, with a switch %lu cycles\n",
             (unsigned long)alone, (unsigned long)pair);
    irq_set_handler(IRQ_M_EXT, isr);
    mode = ACK;
    NA(NA_IRQ_BASE + NA_IRQ_MASK) = NA_IRQ_SRC_RX_COUNT;
    k_thread_t *w = k_thread_create("worker", worker, NULL, 2, 0);
    wait_until(phase_start(0));
    uint32_t w0 = work;
    wait_until(phase_start(1));
    const uint32_t base = work - w0;
    const uint64_t phase_cycles = (uint64_t)PHASE * (tile_clock_hz() / timer_hz());
    k_thread_t *wt[NWAIT] = {0};
    for (uint32_t k = 1; k < NPHASES; ++k) {
        uint32_t m = (k - 1) / NRATES, r = (k - 1) % NRATES;
        if (m == WAKE && !wt[0])
            for (uint32_t i = 0; i < NWAIT; ++i)
                wt[i] = k_thread_create("waiter", waiter, (void *)(uintptr_t)i, 2, 0);
        mode = m;
        k_stats_t s0, s1;
        k_get_stats(&s0);
        uint32_t e0 = events;
        uint64_t i0 = isr_cycles, a0 = ack_cycles;
        w0 = work;
        wait_until(phase_start(k + 1));
        uint32_t got = work - w0, ev = events - e0;
        k_get_stats(&s1);
        uint32_t lost = got >= base ? 0 : (uint32_t)(1000ull * (base - got) / base);
        uint64_t lost_cycles = got >= base ? 0 : phase_cycles * (base - got) / base;
        uint32_t per = ev ? (uint32_t)(lost_cycles / ev) : 0;
        uint32_t body = ev ? (uint32_t)((isr_cycles - i0) / ev) : 0;
        uint32_t sw = ev ? (uint32_t)(1000ull * (s1.switches - s0.switches) / ev) : 0;
        uint32_t ack = ev ? (uint32_t)((ack_cycles - a0) / ev) : 0;
        sim_mark(13u << 28 | (m * 8u + r) << 20 | (per > 0xFFFFF ? 0xFFFFFu : per));
        sim_mark(13u << 28 | (0x80u + m * 8u + r) << 20 | (body > 0xFFFFF ? 0xFFFFFu : body));
        k_printf("irq_cost %s rate %lu/s: lost %lu permille, %lu events, %lu cycles/event, "
                 "handler %lu cycles/event (acknowledge %lu), switches %lu per 1000 events\n",
                 mode_names[m], (unsigned long)rates[r], (unsigned long)lost, (unsigned long)ev,
                 (unsigned long)per, (unsigned long)body, (unsigned long)ack, (unsigned long)sw);
        CHECK(ev > 0);
    }
    NA(NA_IRQ_BASE + NA_IRQ_MASK) = 0;
    for (uint32_t i = 0; i < NWAIT; ++i) {
        k_sem_give(&sem[i]);
        CHECK_EQ(k_join(wt[i], 200, NULL), K_OK);
    }
    CHECK_EQ(k_join(w, 200, NULL), K_OK);
    if (ktest_failures == 0)
        k_printf("irq_cost done\n");
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        es_init();
        for (uint32_t i = 0; i < NWAIT; ++i) {
            k_sem_init(&sem[i], 0);
            k_sem_init(&spare[i], 0);
        }
        k_config_t cfg = {.tick_ticks = K_TICK, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
