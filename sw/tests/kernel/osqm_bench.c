/* Thesis Fig. 3.33: CPU time lost to event signalling against the event rate, for polling,
 * interrupts and HW-OSQM. Two tiles, one core each (namp.osqm). Tile 1 sends messages round-robin
 * to NWAIT endpoints of tile 0 at a fixed rate per phase (phases are fixed mtime windows, the
 * same on both tiles). On tile 0, NWAIT threads wait for their endpoint's messages, by
 *   poll: check the receive buffer, yield when empty (every waiting thread polls once per turn);
 *   irq:  block on a semaphore that the adapter's RX_COUNT interrupt handler gives (the handler
 *         looks up the endpoints with new messages by their RX_MESSAGES counters and gives each
 *         one's semaphore once: kernel_irq_cost's "wake" mode; its "wake_level" mode measures the
 *         former handler, which gave every endpoint still holding a message again at every
 *         interrupt, so that its gives, and the waiters' empty wake-ups, grew with the rate);
 *   osqm: block in k_osqm_wait_ep; the OSQM puts the thread back into the ready queue;
 * while one worker thread of the same priority counts. CPU time lost = 1 - worker count / worker
 * count of the baseline phase (worker alone). Time slice = SLICE_TICKS ticks of K_TICK mtime.
 * Prints "osqm_bench <mode> rate <r>/s: lost <permille> permille" per phase, and
 * "osqm_bench ok" when the claims hold on these numbers: HW-OSQM loses less than interrupts at
 * every rate and less than polling up to 20 000 events/s, and the interrupts' loss grows with the
 * rate. tile.arg selects one (mode, rate) phase after the baseline (event_source.h: a claim's
 * fresh simulation); the claims are then not checked.
 * scripts/osqm-bench writes docs/namp-osqm-bench.md from it. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "ktest.h"
#include "mp/cbuffer.h"
#include "na/na.h"
#include "namp/namp_regs.h"
#include "namp_structs.h"

volatile unsigned ktest_failures;
extern const char *const k_rq_layout_name;

/* The parameters of Fig. 3.33, set per firmware variant (sw/tests/kernel/CMakeLists.txt): the
 * number of waiting threads and the time slice in kernel ticks. The claims are checked for the
 * default variant only (4 threads, one tick); the others are measured by scripts/osqm-bench. */
#ifndef NWAIT
#define NWAIT 4
#endif
#ifndef SLICE_TICKS
#define SLICE_TICKS 1u
#endif
#ifndef OSQM_BENCH_CLAIMS
#define OSQM_BENCH_CLAIMS 1
#endif
/* The HW-OSQM mode of the hw-osqm phases (scripts/osqm-bench makes them columns): the kernel's
 * mode (direct insertion, or the wake-up queue the kernel empties at scheduler entry), and
 * whether the waiting threads are critical (each wake-up also raises the demand interrupt). The
 * ready-queue layout (list or the `flags` bitmap scheduler) is the library's. */
#ifndef OSQM_KMODE
#define OSQM_KMODE K_OSQM_DIRECT
#endif
#ifndef OSQM_CRITICAL
#define OSQM_CRITICAL 0
#endif
#define K_TICK  1000u   /* mtime ticks per kernel tick (100 us) */
#define T_START 100000u /* mtime of the first phase (10 ms: set-up done) */
#define PHASE   100000u /* mtime ticks per phase (10 ms) */
#define NRATES  4
static const uint32_t rates[NRATES] = {5000, 10000, 20000, 40000}; /* events per second */
enum { POLL, IRQ, OSQM, NMODES };
static const char *const mode_names[NMODES] = {"polling", "interrupts", "hw-osqm"};
#include "event_source.h"

static k_sem_t sem[NWAIT];
static volatile uint32_t mode, work;
static uint32_t seen[NWAIT]; /* RX_MESSAGES of each endpoint at the handler's last lookup */

static void waiter(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg;
    if (OSQM_CRITICAL)
        k_thread_critical(NULL, 1);
    while (!stop) {
        switch (mode) {
        case POLL:
            if (!consume(i))
                k_yield();
            break;
        case IRQ:
            consume(i);
            k_sem_take(&sem[i], K_FOREVER); /* the mode switch gives it too */
            break;
        default:
            if (!consume(i))
                k_osqm_wait_ep(ep[i], rx[i]);
            break;
        }
    }
}

static void isr(trap_frame_t *f)
{
    (void)f;
    uint32_t n = namp_reg_rx_count();
    namp_reg_rx_ack(n); /* acknowledge */
    for (uint32_t i = 0; i < NWAIT; ++i) {
        const uint32_t c = ((volatile uint32_t *)ep[i])[NAMP_EP_RX_MESSAGES / 4];
        if (c != seen[i]) { /* new messages: wake the thread waiting for them */
            seen[i] = c;
            k_isr_sem_give(&sem[i]);
        }
    }
}

static void worker(void *arg)
{
    (void)arg;
    while (!stop)
        work++;
}

static void main_thread(void *arg)
{
    (void)arg;
    es_role();
    if (k_osqm_enable_mode(OSQM_KMODE) != K_OK) {
        k_printf("FAIL: no HW-OSQM (run with namp.osqm=true)\n");
        k_exit(1);
    }
    irq_set_handler(IRQ_M_EXT, isr);
    k_printf("osqm_bench params: %u waiting threads, time slice %lu mtime ticks\n", (unsigned)NWAIT,
             (unsigned long)(SLICE_TICKS * K_TICK));
    k_printf("osqm_bench mode: layout %s, %s, %s\n", k_rq_layout_name,
             OSQM_KMODE == K_OSQM_WAKEUP ? "wake-up queue" : "direct",
             OSQM_CRITICAL ? "critical (demand interrupts)" : "not critical");
    mode = POLL;
    k_thread_t *w = k_thread_create("worker", worker, NULL, 2, 0);
    uint32_t lost[NMODES][NRATES] = {{0}};
    wait_until(phase_start(0));
    uint32_t w0 = work;
    wait_until(phase_start(1));
    uint32_t base = work - w0;
    k_thread_t *wt[NWAIT];
    for (uint32_t i = 0; i < NWAIT; ++i)
        wt[i] = k_thread_create("waiter", waiter, (void *)(uintptr_t)i, 2, 0);
    for (uint32_t k = 1; k < es_phases(); ++k) {
        uint32_t m = es_mode(k), r = es_rate(k);
        wait_until(phase_start(k));
        if (m != mode) {
            uint32_t was = mode;
            for (uint32_t i = 0; i < NWAIT; ++i) /* the handler signals what comes from now on */
                seen[i] = ((volatile uint32_t *)ep[i])[NAMP_EP_RX_MESSAGES / 4];
            mode = m;
            /* the OSQM's demand interrupt stays the kernel's */
            na_irq_set_mask((m == IRQ ? NA_IRQ_SRC_RX_COUNT : 0u) | NA_IRQ_SRC_OSQM);
            if (was == IRQ)
                for (uint32_t i = 0; i < NWAIT; ++i)
                    k_sem_give(&sem[i]); /* out of the interrupt-mode wait */
        }
        uint32_t e0 = events;
        w0 = work;
        wait_until(phase_start(k + 1));
        uint32_t got = work - w0;
        lost[m][r] = got >= base ? 0 : (uint32_t)(1000ull * (base - got) / base);
        k_printf("osqm_bench %s rate %lu/s: lost %lu permille, %lu events\n", mode_names[m],
                 (unsigned long)rates[r], (unsigned long)lost[m][r], (unsigned long)(events - e0));
    }
    na_irq_set_mask(NA_IRQ_SRC_OSQM);
    if (mode == IRQ) { /* the last phase waited on interrupts: poll for the stop words */
        mode = POLL;
        for (uint32_t i = 0; i < NWAIT; ++i)
            k_sem_give(&sem[i]);
    }
    for (uint32_t i = 0; i < NWAIT; ++i)
        CHECK_EQ(k_join(wt[i], 200, NULL), K_OK);
    CHECK_EQ(k_join(w, 200, NULL), K_OK);
    /* the claims: HW-OSQM below interrupts at every rate and below polling up to 20 000
     * events/s (at higher rates every poll finds an event); the interrupts' loss grows with the
     * rate (linear in the thesis' model) */
    for (uint32_t r = 0; r < NRATES && OSQM_BENCH_CLAIMS && !tile_arg(); ++r) {
        CHECK(lost[OSQM][r] < lost[IRQ][r]);
        /* polling against HW-OSQM depends on the ready-queue layout (with seL4's front
         * insertion polling is cheaper; measured): claimed for the FreeRTOS layout only */
        if (rates[r] <= 20000 && K_RQ_LAYOUT == K_RQ_FREERTOS)
            CHECK(lost[OSQM][r] < lost[POLL][r]);
        if (r)
            CHECK(lost[IRQ][r] > lost[IRQ][r - 1]);
    }
    if (ktest_failures == 0)
        k_printf("osqm_bench ok\n");
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        es_init();
        for (uint32_t i = 0; i < NWAIT; ++i)
            k_sem_init(&sem[i], 0);
        k_config_t cfg = {.tick_ticks = K_TICK, .slice_ticks = SLICE_TICKS};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
