/* A payload stored after its doorbell (docs/kernel.md "A payload stored after its doorbell"): the
 * sender fills a message and starts its transfer with the slot's FLAGS write; if the compiler
 * moves a payload store after that write, the adapter may send the old payload, which a run shows
 * only when something delays the core in the few cycles between the two (kernel.osqm_critical
 * failed so: its tick came just after the doorbell). This test makes that happen on purpose
 * instead of by chance: before each send tile 1 reads its hart's next tick (mtimecmp) and starts
 * the send 0..NOFF-1 mtime ticks before it, plus 0..NSUB-1 cycles, so that the kernel's tick
 * interrupts the send at every point of its sequence, also right after the doorbell (the
 * transfer is then DONE at the first look: counted, and required). The timer interrupt comes at
 * its cycle (docs/timing.md), and the window is the doorbell store's own access, between it and
 * the next load: the sweep steps one cycle at a time over more than an mtime tick. Tile 0 polls its endpoint and
 * checks every message exactly once, in order, every word intact. Tiles 2x1, namp.enabled. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "ktest.h"
#include "mp/cbuffer.h"
#include "namp/namp_regs.h"
#include "namp_structs.h"
#include "tile_memory_map.h"

volatile unsigned ktest_failures;

#define K_TICK  1000u
#define T_START 100000u /* mtime ticks: tile 0's endpoint is set up long before */
#define NOFF    6u      /* the send starts 0..5 mtime ticks before the tick */
#define NSUB    16u     /* and 0..15 cycles later: phases within an mtime tick (10 cycles) */
#define NMSG    (2u * NOFF * NSUB)
#define MAGIC   0x0D00B311u

static uint32_t ep[NAMP_EP_SIZE / 4] __attribute__((aligned(64)));
static uint8_t rx[MP_CB_HEADER_SIZE + (4u << 4) + (16u << 4)] __attribute__((aligned(8)));
static uint32_t handle[NAMP_H_SIZE / 4] __attribute__((aligned(64)));

static uint32_t next_tick(void)
{
    return mmio_read32(TILE_CLINT_BASE + CLINT_MTIMECMP(hart_id())); /* low word: enough here */
}

/* n (0..NSUB-1) one-cycle instructions: a jump into a sled of nops, the same path for every n. */
static inline void delay_cycles(uint32_t n)
{
    __asm__ volatile(".option push\n.option norvc\n"
                     "la t0, 2f\n"
                     "slli t1, %0, 2\n"
                     "sub t0, t0, t1\n"
                     "jr t0\n"
                     ".rept 15\nnop\n.endr\n"
                     "2:\n"
                     ".option pop\n"
                     :
                     : "r"(n)
                     : "t0", "t1");
}

static void source(void *arg)
{
    (void)arg;
    static uint32_t msg[4]; /* plain memory, written in the loop: what the compiler may move */
    uint32_t first_look_done = 0, ticked = 0;
    while (timer_now() < T_START)
        ;
    for (uint32_t k = 0; k < NMSG; ++k) {
        const uint32_t off = k % NOFF, sub = (k / NOFF) % NSUB;
        const uint32_t tick = next_tick(), start = tick - 1u - off;
        while ((uint32_t)timer_now() < start)
            ;
        delay_cycles(sub);
        msg[0] = MAGIC;
        msg[1] = k;
        msg[2] = ~k;
        msg[3] = k * 0x9E3779B9u;
        namp_reg_slot_start(0, 0, (uint32_t)handle, (uint32_t)msg, sizeof msg); /* the doorbell */
        uint32_t f = namp_reg_slot_flags(0);
        first_look_done += (f & NAMP_FLAG_DONE) != 0; /* a delay right after the doorbell */
        for (uint32_t n = 0; !(f & NAMP_FLAG_DONE) && n < 100000u; ++n)
            f = namp_reg_slot_flags(0);
        CHECK(f & NAMP_FLAG_DONE);
        CHECK(!(namp_reg_slot_status(0) & NAMP_STATUS_ERROR));
        namp_reg_slot_set_flags(0, 0);
        ticked += next_tick() != tick;
    }
    k_printf("doorbell order: %lu sends, the tick inside %lu, right after the doorbell %lu\n",
             (unsigned long)NMSG, (unsigned long)ticked, (unsigned long)first_look_done);
    CHECK(ticked >= NMSG / 2);  /* the alignment works: most sends take a tick */
    CHECK(first_look_done > 0); /* the window after the doorbell was hit */
}

static void sink(void *arg)
{
    (void)arg;
    mp_cbuffer_t *b = (mp_cbuffer_t *)rx;
    for (uint32_t n = 0; n < NMSG;) {
        uint32_t idx;
        if (mp_cbuffer_read(b, &idx) != 0)
            continue;
        const uint32_t *m = (const uint32_t *)mp_cbuffer_data(b, idx);
        const uint32_t size = mp_cbuffer_size(b, idx), w0 = m[0], w1 = m[1], w2 = m[2], w3 = m[3];
        mp_cbuffer_free(b, idx);
        CHECK_EQ(size, 16u);
        CHECK_EQ(w0, MAGIC);
        CHECK_EQ(w1, n); /* in order, none lost, none twice */
        CHECK_EQ(w2, ~n);
        CHECK_EQ(w3, n * 0x9E3779B9u);
        ++n;
    }
}

static void main_thread(void *arg)
{
    (void)arg;
    k_thread_t *t =
        k_thread_create(tile_id() ? "source" : "sink", tile_id() ? source : sink, NULL, 5, 0);
    CHECK_EQ(k_join(t, 1000, NULL), K_OK); /* bounded: a lost message fails, never hangs */
    if (tile_id() == 0 && ktest_failures == 0)
        k_printf("doorbell order ok: %lu messages, each once, in order, intact\n",
                 (unsigned long)NMSG);
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        mp_cbuffer_init(rx, 4, 4, 0);
        memset(ep, 0, sizeof ep);
        ep[NAMP_EP_STATE / 4] = NAMP_EP_STATE_READY;
        ep[NAMP_EP_RX_BUFFER / 4] = (uint32_t)rx;
        memset(handle, 0, sizeof handle);
        handle[NAMP_H_TILE / 4] = tile_id() == 0 ? 1u : 0u;
        handle[NAMP_H_ENDPOINT / 4] = (uint32_t)ep;
        k_config_t cfg = {.tick_ticks = K_TICK, .slice_ticks = 1};
        k_init(&cfg);
        if (tile_id() < 2)
            k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
