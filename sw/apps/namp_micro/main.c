/* Driver-level sender overhead of the NAMP (tile 0 -> 1, unbuffered connection-less, 16 B): cycles
 * the core spends programming a slot (4 register writes) and finishing it after DONE (STATUS read,
 * VALID = 0), without the MCAPI layer; and for comparison the whole blocking mcapi_msg_send
 * (awake cycles = total - asleep in wfi). Marks: id = 11 << 28 | what << 20 | cycles, what = 0
 * start, 1 finish, 2 msg_send awake, 3 msg_send instructions (medians of 16 runs). */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "namp/namp.h"

#define RUNS 16
static uint8_t data[64] __attribute__((aligned(8)));

static uint32_t median(uint32_t *v)
{
    for (int i = 1; i < RUNS; ++i)
        for (int j = i; j > 0 && v[j - 1] > v[j]; --j) {
            uint32_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[RUNS / 2];
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1)
        return 0;
    /* it measures connection-less messages: a NAMP without them (baremsg has them, barechan not)
     * is a configuration this benchmark cannot run, on both tiles (no receiver waits forever) */
    if (mmio_read32(TILE_NA_BASE + NA_NAMP_SLOTS) == 0 ||
        !(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_MSG)) {
        printf("namp_micro FAIL: this NAMP has no connection-less messages\n");
        return 1;
    }
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    mcapi_endpoint_t ep = mcapi_endpoint_create(1, &st);
    if (me == 1) {
        uint8_t b[64];
        size_t got;
        for (int i = 0; i < 2 * RUNS + 3; ++i)
            mcapi_msg_recv(ep, b, sizeof b, &got, &st);
        return 0;
    }
    mcapi_endpoint_t peer = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 1, MCAPI_TIMEOUT_INFINITE, &st);
    uint32_t a[RUNS], b[RUNS], c[RUNS], d[RUNS];
    for (int i = 0; i < RUNS; ++i) {
        int s = namp_slot_alloc();
        uint64_t c0 = cpu_cycles();
        namp_slot_start((unsigned)s, 0, (uint32_t)(uintptr_t)peer, (uint32_t)(uintptr_t)data, 16);
        uint64_t c1 = cpu_cycles();
        while (!namp_slot_done((unsigned)s))
            ;
        uint64_t c2 = cpu_cycles();
        uint32_t e = namp_slot_finish((unsigned)s);
        uint64_t c3 = cpu_cycles();
        namp_slot_free((unsigned)s);
        a[i] = (uint32_t)(c1 - c0);
        b[i] = (uint32_t)(c3 - c2);
        if (e)
            printf("namp_micro FAIL: %s\n", namp_error_name(e));
    }
    for (int i = 0; i < RUNS; ++i) {
        uint64_t c0 = cpu_cycles(), n0 = cpu_instret(), i0 = mcapix_stats()->idle_cycles;
        mcapi_msg_send(ep, peer, data, 16, 0, &st);
        uint64_t c1 = cpu_cycles(), n1 = cpu_instret(), i1 = mcapix_stats()->idle_cycles;
        c[i] = (uint32_t)(c1 - c0 - (i1 - i0));
        d[i] = (uint32_t)(n1 - n0);
    }
    /* the three completion methods of blocking sends all work */
    for (int mode = 0; mode < 3; ++mode) {
        mcapix_namp_completion(mode);
        uint64_t c0 = cpu_cycles(), i0 = mcapix_stats()->idle_cycles;
        mcapi_msg_send(ep, peer, data, 16, 0, &st);
        uint64_t c1 = cpu_cycles(), i1 = mcapix_stats()->idle_cycles;
        printf("namp_micro: completion mode %d (%s): %s, %u cycles awake\n", mode,
               mode == 0 ? "poll DONE" : mode == 1 ? "wfi, no trap" : "interrupt handler",
               mcapix_status_name(st), (unsigned)(c1 - c0 - (i1 - i0)));
    }
    mcapix_namp_completion(1);
    uint32_t ms = median(a), mf = median(b), mc = median(c), mi = median(d);
    sim_mark(11u << 28 | 0u << 20 | ms);
    sim_mark(11u << 28 | 1u << 20 | mf);
    sim_mark(11u << 28 | 2u << 20 | mc);
    sim_mark(11u << 28 | 3u << 20 | mi);
    printf("namp_micro: slot start %u cycles, finish %u cycles (driver o_s %u); blocking "
           "mcapi_msg_send awake %u cycles, %u instructions\n", (unsigned)ms, (unsigned)mf,
           (unsigned)(ms + mf), (unsigned)mc, (unsigned)mi);
    return 0;
}
