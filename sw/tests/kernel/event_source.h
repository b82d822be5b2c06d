/* The event source of the signalling benchmarks (osqm_bench.c, irq_cost.c), one copy for both:
 * tile 1 sends 4-byte messages round-robin to NWAIT notifying endpoints of tile 0 at a fixed rate
 * per phase (phases are fixed mtime windows, the same on both tiles); tile 0 frees them. The
 * includer defines NWAIT, T_START, PHASE, NMODES, NRATES and rates[] before including it (one
 * translation unit per firmware), and may define ES_ACTIVE (mtime ticks at the start of each phase
 * in which the source sends; default the whole phase) and ES_CAP_LOG2 (receive buffer capacity,
 * default 16 messages).
 * tile.arg selects the phases (the same on both tiles): 0 runs every mode at every rate, one phase
 * each after the baseline phase; (mode + 1) << 8 | (rate index + 1) runs the baseline phase and
 * that one configuration (a claim's run: a fresh simulation per configuration). */
#ifndef EVENT_SOURCE_H
#define EVENT_SOURCE_H

#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "ktest.h"
#include "mp/cbuffer.h"
#include "namp/namp_regs.h"
#include "namp_structs.h"

#ifndef ES_ACTIVE
#define ES_ACTIVE PHASE
#endif
#ifndef ES_CAP_LOG2
#define ES_CAP_LOG2 4u
#endif

static uint32_t ep[NWAIT][NAMP_EP_SIZE / 4] __attribute__((aligned(64)));
static uint8_t rx[NWAIT][MP_CB_HEADER_SIZE + (4u << ES_CAP_LOG2) + (16u << ES_CAP_LOG2)]
    __attribute__((aligned(8)));
static uint32_t handle[NWAIT][NAMP_H_SIZE / 4] __attribute__((aligned(64)));
static volatile uint32_t stop, events; /* the stop word arrived; messages freed */

static uint64_t phase_start(uint32_t k) { return T_START + (uint64_t)k * PHASE; }

/* The phases of this run (tile.arg, see above): their number, and the mode and rate index of
 * phase k >= 1. */
static uint32_t es_phases(void) { return tile_arg() ? 2u : 1u + NMODES * NRATES; }
static uint32_t es_mode(uint32_t k)
{
    return tile_arg() ? ((tile_arg() >> 8) & 0xFFu) - 1u : (k - 1) / NRATES;
}
static uint32_t es_rate(uint32_t k)
{
    return tile_arg() ? (tile_arg() & 0xFFu) - 1u : (k - 1) % NRATES;
}
static int es_arg_ok(void)
{
    const uint32_t a = tile_arg(), m = (a >> 8) & 0xFFu, r = a & 0xFFu;
    return a == 0 || (m >= 1 && m <= NMODES && r >= 1 && r <= NRATES && (a >> 16) == 0);
}

/* ---- tile 1: the event source ---- */
static void send_one(uint32_t i, uint32_t word)
{
    static uint32_t msg[4];
    msg[0] = word;
    namp_reg_slot_start(0, 0, (uint32_t)handle[i], (uint32_t)msg, 4);
    for (uint32_t n = 0; !(namp_reg_slot_flags(0) & NAMP_FLAG_DONE) && n < 100000u; ++n)
        ;
    namp_reg_slot_set_flags(0, 0);
}

/* Event n of a phase is sent at a pseudo-random point of its own period [n gap, (n + 1) gap):
 * the rate is exact, but the arrivals do not keep one phase against the kernel's tick. Strictly
 * periodic ones did (10 000/s is one per tick): each event then met the same point of the
 * scheduler's cycle, so a few cycles more anywhere in the kernel moved every event's cost at once,
 * and the claims on the ratio of two rates with it (docs/namp-osqm-bench.md). */
static uint32_t es_jitter(uint32_t *state, uint32_t gap)
{
    uint32_t x = *state; /* xorshift32: deterministic, the same on every run */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (uint32_t)(((uint64_t)x * gap) >> 32);
}

static void source(void *arg)
{
    (void)arg;
    uint32_t hz = timer_hz(), n = 0, seed = 0x2545F491u;
    for (uint32_t k = 1; k < es_phases(); ++k) {
        uint32_t rate = rates[es_rate(k)];
        uint64_t end = phase_start(k) + ES_ACTIVE, gap = hz / rate;
        for (uint64_t slot = phase_start(k); slot + gap <= end; slot += gap) {
            const uint64_t t = slot + es_jitter(&seed, (uint32_t)gap);
            while (timer_now() < t)
                ;
            send_one(n++ % NWAIT, 1);
        }
    }
    for (uint32_t i = 0; i < NWAIT; ++i)
        send_one(i, 0); /* stop */
}

/* ---- tile 0: waiting threads, the worker, the interrupt handler ---- */
static int consume(uint32_t i)
{
    mp_cbuffer_t *b = (mp_cbuffer_t *)rx[i];
    uint32_t idx;
    int got = 0;
    while (mp_cbuffer_read(b, &idx) == 0) {
        if (*(const uint32_t *)mp_cbuffer_data(b, idx) == 0)
            stop = 1;
        mp_cbuffer_free(b, idx);
        __atomic_fetch_add(&events, 1, __ATOMIC_RELAXED);
        got = 1;
    }
    return got;
}

/* tile 0's endpoints and tile 1's handles of them (the same addresses on both tiles) */
static void es_init(void)
{
    uint32_t other = tile_id() == 0 ? 1u : 0u;
    for (uint32_t i = 0; i < NWAIT; ++i) {
        mp_cbuffer_init(rx[i], ES_CAP_LOG2, 4, 0);
        memset(ep[i], 0, sizeof ep[i]);
        ep[i][NAMP_EP_STATE / 4] = NAMP_EP_STATE_READY;
        ep[i][NAMP_EP_FLAGS / 4] = NAMP_EP_F_NOTIFY;
        ep[i][NAMP_EP_RX_BUFFER / 4] = (uint32_t)rx[i];
        memset(handle[i], 0, sizeof handle[i]);
        handle[i][NAMP_H_TILE / 4] = other;
        handle[i][NAMP_H_ENDPOINT / 4] = (uint32_t)ep[i];
    }
}

static void wait_until(uint64_t t)
{
    while (timer_now() < t)
        k_sleep(1);
}

/* Tile 1 runs the source and ends, tiles other than 0 end: returns on tile 0 only. */
static void es_role(void)
{
    if (!es_arg_ok()) {
        k_printf("FAIL: tile.arg %lu selects no phase\n", (unsigned long)tile_arg());
        k_exit(1);
    }
    if (tile_id() == 1) {
        k_thread_t *s = k_thread_create("source", source, NULL, 5, 0);
        CHECK_EQ(k_join(s, K_FOREVER, NULL), K_OK);
        k_exit(ktest_failures != 0);
    }
    if (tile_id() != 0)
        k_exit(0);
}

#endif
