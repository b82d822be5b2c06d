/* Reduction benchmark (thesis Fig. 3.26): receive overhead o_r of one reduction of N = 4
 * contributions of 256 bytes at the root, per op and type, software (the root's core combines)
 * against NAMP-CC (the root's adapter combines), identical application code. Root tile 0 uses one
 * endpoint per path (the adapter's reduction is set up per endpoint); tiles 1..4 contribute, and
 * wait for the root's acknowledgement between reductions. o_r counts the cycles the root's core is
 * awake in mcapix_reduce_recv (wfi not counted). Console: "ccbench reduce" lines (scripts/cc-bench). */
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "cc_app.h"

#define NCONTRIB     4u
#define VSIZE        256u
#define K            4u
#define PORT_ROOT_SW 1u
#define PORT_ROOT_HW 2u
#define PORT_CONTRIB 3u

static uint8_t vec[VSIZE] __attribute__((aligned(8)));
static uint8_t result[VSIZE] __attribute__((aligned(8)));
static mcapix_reduce_rx_t rx[2];
static mcapix_reduce_tx_t tx[2];
static mcapix_mcast_group_t back;

#define die(what, st) cc_app_die("ccbench", what, st)

/* The configurations of this run (tile.arg, 0 = all): bits 16..19 the path + 1, bits 8..15 the
 * op + 1, bits 0..7 the type + 1 (a field 0: all of them); a claim measures one per simulation. */
static int in_run(uint32_t p, uint32_t op, uint32_t type)
{
    const uint32_t a = tile_arg(), fp = (a >> 16) & 15u, fo = (a >> 8) & 0xFFu, ft = a & 0xFFu;
    return (fp == 0 || fp == p + 1) && (fo == 0 || fo == op + 1) && (ft == 0 || ft == type + 1);
}

static int root(void)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 2, .max_msg_log2 = 9};
    mcapi_endpoint_t ep[2];
    for (uint32_t p = 0; p < 2; ++p) {
        mcapix_cc_set_path(p ? MCAPIX_CC_AUTO : MCAPIX_CC_SOFTWARE);
        ep[p] = mcapix_endpoint_create(p ? PORT_ROOT_HW : PORT_ROOT_SW, &a, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_create", st);
        mcapix_reduce_rx_create(&rx[p], ep[p], NCONTRIB, &st);
        if (st != MCAPI_SUCCESS)
            die("reduce_rx_create", st);
    }
    if (rx[0].hw || !rx[1].hw)
        die("paths (preset barered needed)", MCAPI_ERR_NOT_SUPPORTED);
    mcapi_endpoint_t peers[NCONTRIB];
    for (uint32_t t = 1; t <= NCONTRIB; ++t) {
        peers[t - 1] =
            mcapi_endpoint_get(MCAPI_DOMAIN, t, PORT_CONTRIB, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
    }
    mcapix_mcast_create(&back, ep[0], peers, NCONTRIB, &st);
    if (st != MCAPI_SUCCESS)
        die("mcast_create", st);
    uint32_t go = 0;
    mcapix_mcast_send(&back, &go, 4, &st); /* both roots are set up */
    for (uint32_t p = 0; p < 2; ++p)
        for (uint32_t op = 0; op < MCAPIX_OPS; ++op)
            for (uint32_t type = 0; type < MCAPIX_TYPES; ++type) {
                if (!in_run(p, op, type))
                    continue;
                uint64_t awake = 0;
                for (uint32_t k = 0; k <= K; ++k) { /* k = 0 warms up */
                    size_t got;
                    uint64_t idle0 = mcapix_stats()->idle_cycles, t0 = cpu_cycles();
                    mcapix_reduce_recv(&rx[p], op, type, result, sizeof result, &got, &st);
                    uint64_t t1 = cpu_cycles(), idle = mcapix_stats()->idle_cycles - idle0;
                    if (st != MCAPI_SUCCESS || got != VSIZE)
                        die("reduce_recv", st);
                    if (k)
                        awake += t1 - t0 - idle;
                    mcapix_mcast_send(&back, &go, 4, &st); /* the next one may start */
                    if (st != MCAPI_SUCCESS)
                        die("ack", st);
                }
                printf("ccbench reduce path=%s op=%u type=%u or=%u\n", p ? "hw" : "sw",
                       (unsigned)op, (unsigned)type, (unsigned)(awake / K));
            }
    printf("ccbench reduce done\n");
    return 0;
}

static int contributor(uint32_t me)
{
    mcapi_status_t st;
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT_CONTRIB, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    for (uint32_t p = 0; p < 2; ++p) {
        mcapi_endpoint_t r = mcapi_endpoint_get(MCAPI_DOMAIN, 0, p ? PORT_ROOT_HW : PORT_ROOT_SW,
                                                MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
        mcapix_reduce_tx_create(&tx[p], ep, r, &st);
        if (st != MCAPI_SUCCESS)
            die("reduce_tx_create", st);
    }
    uint32_t go;
    size_t got;
    mcapi_msg_recv(ep, &go, sizeof go, &got, &st);
    for (uint32_t i = 0; i < VSIZE; ++i)
        vec[i] = (uint8_t)(me * 37u + i * 11u);
    for (uint32_t p = 0; p < 2; ++p) {
        mcapix_cc_set_path(p ? MCAPIX_CC_AUTO : MCAPIX_CC_SOFTWARE);
        for (uint32_t op = 0; op < MCAPIX_OPS; ++op)
            for (uint32_t type = 0; type < MCAPIX_TYPES; ++type)
                for (uint32_t k = 0; k <= K && in_run(p, op, type); ++k) {
                    mcapix_reduce_send(&tx[p], op, type, vec, VSIZE, &st);
                    if (st != MCAPI_SUCCESS)
                        die("reduce_send", st);
                    mcapi_msg_recv(ep, &go, sizeof go, &got, &st);
                    if (st != MCAPI_SUCCESS)
                        die("ack", st);
                }
    }
    return 0;
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > NCONTRIB)
        return 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS)
        die("initialize", st);
    return me == 0 ? root() : contributor(me);
}
