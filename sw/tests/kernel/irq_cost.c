/* The kernel's interrupt path (thesis 3.5.1: o_interrupting = r_event * T_isr, "about 10% at
 * 25 kHz"), decomposed by measuring one handler per mode at every rate. Two tiles, one core each
 * (namp.enabled); tile 1 sends 4-byte messages round-robin to NWAIT notifying endpoints of tile 0
 * at a fixed rate in the first ES_ACTIVE of each 10 ms phase (event_source.h); on tile 0 one
 * worker thread counts while the RX_COUNT interrupt runs
 *   ack:   the handler acknowledges RX_COUNT, nothing else: trap entry and exit, the kernel's
 *          dispatch and scheduling decision, the acknowledgement;
 *   isr:   + the thesis' T_isr (3.5.2: the handler "looks up the thread associated with the event"
 *          and the OS resumes it): it finds the endpoints with new messages (their RX_MESSAGES
 *          counters against the last seen) and gives each one's semaphore (k_isr_sem_give);
 *   free:  + frees the delivered messages in the handler too (what this benchmark's handler did
 *          before: the freeing every signalling method pays, not part of T_isr);
 *   wake_level: osqm_bench's former interrupt mode: NWAIT threads blocked on the semaphores wake,
 *          free their messages and block again, and the handler gives the semaphore of every
 *          endpoint that still holds a message (level: a message not yet taken is signalled again
 *          by every later interrupt);
 *   wake:  the same with the isr mode's lookup (edge: one give per endpoint with new messages),
 *          what osqm_bench's interrupt mode does now.
 * In ack and isr nobody frees during the active window (the buffers hold a phase's messages); the
 * main thread frees them in the gap after it. Per phase: CPU time lost = 1 - worker count / its
 * count alone (both over the active window); cycles per event = lost cycles / events (messages
 * acknowledged); the handler's own cycles per event (rdcycle at its entry and return), of which
 * the frees; semaphore gives per event; wake-ups that found nothing to free per event; kernel
 * context switches per event (k_get_stats). Before the phases: a system call without a switch
 * (k_yield with nothing else ready) and one with a switch: "irq_cost yield" line.
 * Console: "irq_cost <mode> rate <r>/s: lost <permille> permille, <n> events, <c> cycles/event,
 * handler <h> cycles/event" and "irq_cost <mode> rate <r>/s parts: acknowledge <a>, frees <f>
 * cycles/event; gives <g>, empty wake-ups <e>, switches <s> per 1000 events"; marks id = 13 << 28 | k << 20 | cycles: k = mode * 8 + rate index (cycles per
 * event), 0x80 + mode * 8 + rate index (handler cycles per event), 0xF0 / 0xF1 (system call without
 * / with a switch). tile.arg selects one (mode, rate) (event_source.h); scripts/claims reads it. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "ktest.h"
#include "mp/cbuffer.h"
#include "na/na.h"
#include "namp/namp_regs.h"
#include "namp_structs.h"

volatile unsigned ktest_failures;

#define NWAIT       4
#define K_TICK      1000u   /* mtime ticks per kernel tick (100 us) */
#define T_START     100000u /* mtime of the first phase (10 ms: set-up done) */
#define PHASE       100000u /* mtime ticks per phase (10 ms) */
#define ES_ACTIVE   80000u  /* the source sends in the first 8 ms; 2 ms to free */
#define ES_CAP_LOG2 7u      /* 128 messages per endpoint: a phase at 40 000/s is 80 */
#define NRATES      5
static const uint32_t rates[NRATES] = {5000, 10000, 20000, 25000, 40000}; /* events per second */
enum { ACK, ISR, FREE, WAKE_LEVEL, WAKE, NMODES };
static const char *const mode_names[NMODES] = {"ack", "isr", "free", "wake_level", "wake"};
#include "event_source.h"

static k_sem_t sem[NWAIT], spare[NWAIT];
static volatile uint32_t mode, work, acked, gives, empty;
static uint32_t seen[NWAIT]; /* RX_MESSAGES of each endpoint at the last lookup */
static volatile uint64_t isr_cycles, ack_cycles, free_cycles;

static void waiter(void *arg)
{
    uint32_t i = (uint32_t)(uintptr_t)arg;
    while (!stop) {
        if (!consume(i))
            empty++;
        k_sem_take(&sem[i], K_FOREVER);
    }
}

static void isr(trap_frame_t *f)
{
    (void)f;
    uint64_t t0 = cpu_cycles();
    uint32_t n = namp_reg_rx_count();
    namp_reg_rx_ack(n); /* acknowledge */
    acked += n;
    ack_cycles += cpu_cycles() - t0;
    const uint32_t m = mode;
    for (uint32_t i = 0; i < NWAIT && m != ACK; ++i) {
        if (m == WAKE_LEVEL) {
            if (mp_cbuffer_ready((mp_cbuffer_t *)rx[i])) {
                k_isr_sem_give(&sem[i]);
                gives++;
            }
        } else {
            const uint32_t c = ((volatile uint32_t *)ep[i])[NAMP_EP_RX_MESSAGES / 4];
            if (c != seen[i]) { /* the thread associated with the new message(s) */
                seen[i] = c;
                k_isr_sem_give(m == WAKE ? &sem[i] : &spare[i]);
                gives++;
            }
        }
    }
    if (m == FREE) {
        uint64_t f0 = cpu_cycles();
        for (uint32_t i = 0; i < NWAIT; ++i)
            consume(i);
        free_cycles += cpu_cycles() - f0;
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

static void drain(void)
{
    for (uint32_t i = 0; i < NWAIT; ++i)
        consume(i);
}

static uint32_t per(uint64_t v, uint32_t ev) { return ev ? (uint32_t)(v / ev) : 0u; }

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
    na_irq_set_mask(NA_IRQ_SRC_RX_COUNT);
    k_thread_t *w = k_thread_create("worker", worker, NULL, 2, 0);
    wait_until(phase_start(0));
    uint32_t w0 = work;
    wait_until(phase_start(0) + ES_ACTIVE);
    const uint32_t base = work - w0; /* the worker alone over an active window */
    const uint64_t window = (uint64_t)ES_ACTIVE * (tile_clock_hz() / timer_hz());
    k_thread_t *wt[NWAIT] = {0};
    for (uint32_t k = 1; k < es_phases(); ++k) {
        const uint32_t m = es_mode(k), r = es_rate(k);
        if ((m == WAKE || m == WAKE_LEVEL) && !wt[0])
            for (uint32_t i = 0; i < NWAIT; ++i)
                wt[i] = k_thread_create("waiter", waiter, (void *)(uintptr_t)i, 2, 0);
        for (uint32_t i = 0; i < NWAIT; ++i)
            seen[i] = ((volatile uint32_t *)ep[i])[NAMP_EP_RX_MESSAGES / 4];
        wait_until(phase_start(k));
        for (uint32_t i = 0; i < NWAIT; ++i) /* no give of an earlier phase left over */
            while (k_sem_take(&sem[i], 0) == K_OK)
                ;
        mode = m;
        k_stats_t s0, s1;
        k_get_stats(&s0);
        const uint32_t e0 = acked, g0 = gives, m0 = empty;
        const uint64_t i0 = isr_cycles, a0 = ack_cycles, f0 = free_cycles;
        w0 = work;
        wait_until(phase_start(k) + ES_ACTIVE);
        const uint32_t got = work - w0, ev = acked - e0;
        k_get_stats(&s1);
        drain(); /* the messages nobody freed (ack, isr), before the next phase */
        const uint32_t lost = got >= base ? 0 : (uint32_t)(1000ull * (base - got) / base);
        const uint64_t lost_cycles = got >= base ? 0 : window * (base - got) / base;
        const uint32_t pc = per(lost_cycles, ev), body = per(isr_cycles - i0, ev);
        sim_mark(13u << 28 | (m * 8u + r) << 20 | (pc > 0xFFFFF ? 0xFFFFFu : pc));
        sim_mark(13u << 28 | (0x80u + m * 8u + r) << 20 | (body > 0xFFFFF ? 0xFFFFFu : body));
        k_printf("irq_cost %s rate %lu/s: lost %lu permille, %lu events, %lu cycles/event, "
                 "handler %lu cycles/event\n",
                 mode_names[m], (unsigned long)rates[r], (unsigned long)lost, (unsigned long)ev,
                 (unsigned long)pc, (unsigned long)body);
        k_printf(
            "irq_cost %s rate %lu/s parts: acknowledge %lu, frees %lu cycles/event; gives %lu, "
            "empty wake-ups %lu, switches %lu per 1000 events\n",
            mode_names[m], (unsigned long)rates[r], (unsigned long)per(ack_cycles - a0, ev),
            (unsigned long)per(free_cycles - f0, ev),
            (unsigned long)per(1000ull * (gives - g0), ev),
            (unsigned long)per(1000ull * (empty - m0), ev),
            (unsigned long)per(1000ull * (s1.switches - s0.switches), ev));
        CHECK(ev > 0);
    }
    mode = ACK;
    while (!stop) { /* the source's stop words come after the last phase */
        drain();
        k_sleep(1);
    }
    na_irq_set_mask(0);
    for (uint32_t i = 0; i < NWAIT && wt[0]; ++i) {
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
