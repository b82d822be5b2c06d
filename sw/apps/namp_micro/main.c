/* Driver-level sender overhead of the NAMP (tile 0 -> 1, unbuffered connection-less, 16 B): cycles
 * the core spends programming a slot (4 register writes) and finishing it after DONE (STATUS read,
 * VALID = 0), without the MCAPI layer; and for comparison the whole blocking mcapi_msg_send
 * (awake cycles = total - asleep in wfi); with channels also the awake cycles of one blocking
 * mcapi_pktchan_send (16 B, tile 0 -> 1). Marks: id = 11 << 28 | what << 20 | cycles, what = 0
 * start, 1 finish, 2 msg_send awake, 3 msg_send instructions, 4 pktchan_send awake, 5 its
 * instructions (medians of 16 runs). A NAMP without one protocol (baremsg, barechan) runs the
 * parts of the other and prints a "namp_micro skipped" line for each part it leaves out. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "na/na.h"
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

/* The channel part: the awake cycles of one blocking mcapi_pktchan_send, 16 B to tile 1. */
static int chan_part(mcapi_endpoint_t cep)
{
    mcapi_status_t st;
    mcapi_endpoint_t rx = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 2, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_request_t r;
    mcapi_pktchan_send_hndl_t tx;
    size_t got;
    mcapi_pktchan_connect_i(cep, rx, &r, &st);
    mcapi_pktchan_send_open_i(&tx, cep, &r, &st);
    mcapi_wait(&r, &got, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS) {
        printf("namp_micro FAIL: channel set-up: %s\n", mcapix_status_name(st));
        return 1;
    }
    uint32_t c[RUNS], d[RUNS];
    for (int i = 0; i < RUNS; ++i) {
        uint64_t c0 = cpu_cycles(), n0 = cpu_instret(), i0 = mcapix_stats()->idle_cycles;
        mcapi_pktchan_send(tx, data, 16, &st);
        uint64_t c1 = cpu_cycles(), n1 = cpu_instret(), i1 = mcapix_stats()->idle_cycles;
        if (st != MCAPI_SUCCESS) {
            printf("namp_micro FAIL: pktchan_send: %s\n", mcapix_status_name(st));
            return 1;
        }
        c[i] = (uint32_t)(c1 - c0 - (i1 - i0));
        d[i] = (uint32_t)(n1 - n0);
    }
    uint32_t mc = median(c), mi = median(d);
    sim_mark(11u << 28 | 4u << 20 | mc);
    sim_mark(11u << 28 | 5u << 20 | mi);
    printf("namp_micro: blocking mcapi_pktchan_send awake %u cycles, %u instructions\n",
           (unsigned)mc, (unsigned)mi);
    return 0;
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1)
        return 0;
    /* both tiles decide alike from the features, so no receiver waits for a part never sent */
    const uint32_t f = na_features();
    if (na_namp_slots() == 0 || !(f & (NA_FEATURE_NAMP_MSG | NA_FEATURE_NAMP_CHAN))) {
        printf("namp_micro FAIL: this adapter has no NAMP messages or channels\n");
        return 1;
    }
    const int msg = (f & NA_FEATURE_NAMP_MSG) != 0, chan = (f & NA_FEATURE_NAMP_CHAN) != 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    mcapi_endpoint_t ep = mcapi_endpoint_create(1, &st);
    mcapi_endpoint_t cep = mcapi_endpoint_create(2, &st);
    if (me == 1) {
        uint8_t b[64];
        size_t got;
        for (int i = 0; msg && i < 2 * RUNS + 3; ++i)
            mcapi_msg_recv(ep, b, sizeof b, &got, &st);
        if (chan) {
            mcapi_request_t r;
            mcapi_pktchan_recv_hndl_t rx;
            mcapi_pktchan_recv_open_i(&rx, cep, &r, &st);
            mcapi_wait(&r, &got, MCAPI_TIMEOUT_INFINITE, &st);
            for (int i = 0; i < RUNS; ++i) {
                void *p;
                mcapi_pktchan_recv(rx, &p, &got, &st);
                mcapi_pktchan_release(p, &st);
            }
        }
        return st == MCAPI_SUCCESS ? 0 : 1;
    }
    if (msg) {
        mcapi_endpoint_t peer = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 1, MCAPI_TIMEOUT_INFINITE, &st);
        uint32_t a[RUNS], b[RUNS], c[RUNS], d[RUNS];
        for (int i = 0; i < RUNS; ++i) {
            int s = namp_slot_alloc();
            uint64_t c0 = cpu_cycles();
            namp_slot_start((unsigned)s, 0, (uint32_t)(uintptr_t)peer, (uint32_t)(uintptr_t)data,
                            16);
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
                   mode == 0   ? "poll DONE"
                   : mode == 1 ? "wfi, no trap"
                               : "interrupt handler",
                   mcapix_status_name(st), (unsigned)(c1 - c0 - (i1 - i0)));
        }
        mcapix_namp_completion(1);
        uint32_t ms = median(a), mf = median(b), mc = median(c), mi = median(d);
        sim_mark(11u << 28 | 0u << 20 | ms);
        sim_mark(11u << 28 | 1u << 20 | mf);
        sim_mark(11u << 28 | 2u << 20 | mc);
        sim_mark(11u << 28 | 3u << 20 | mi);
        printf("namp_micro: slot start %u cycles, finish %u cycles (driver o_s %u); blocking "
               "mcapi_msg_send awake %u cycles, %u instructions\n",
               (unsigned)ms, (unsigned)mf, (unsigned)(ms + mf), (unsigned)mc, (unsigned)mi);
    } else {
        printf("namp_micro skipped: driver-level slot and mcapi_msg_send (no connection-less "
               "messages on this NAMP)\n");
    }
    if (!chan) {
        printf("namp_micro skipped: mcapi_pktchan_send (no channels on this NAMP)\n");
        return 0;
    }
    return chan_part(cep);
}
