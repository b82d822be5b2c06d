/* 4x4 stress test mixing collectives and point-to-point traffic (every byte checked): in each of
 * ROUNDS rounds tile 0 multicasts a random-size message to tiles 1..N (N = 1 + round % 15), then
 * receives the sum (uint32) of vectors contributed by tiles 1..15 and a matrix gathered from them
 * (4 columns each), and multicasts the sum back to all of them (an allreduce: the software path's
 * reductions and gathers need this lock-step); meanwhile every tile 1..15
 * sends a random-size point-to-point message to its successor (1 -> 2 -> ... -> 15 -> 1) and
 * receives one from its predecessor. Multicast payloads, point-to-point payloads and their order,
 * and the reductions are checked. Over NAMP-CC (preset barered) the collectives run in the
 * adapters while the point-to-point messages use the same adapters. */
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "cc_app.h"
#include "../../tests/mp/payload.h"

#ifndef ROUNDS
#define ROUNDS 30u
#endif
#define NT            15u
#define RVEC          32u /* uint32 elements per contribution */
#define PORT_MC       1u
#define PORT_P2P      2u
#define PORT_TX       3u
#define PORT_ROOT_TX  10u
#define PORT_ROOT_RED 11u

static uint8_t buf[1024 + 8] __attribute__((aligned(8)));
static uint8_t pbuf[1024 + 8] __attribute__((aligned(8)));
static uint32_t rvec[RVEC], rres[RVEC];
static mcapix_mcast_group_t groups[NT];
static mcapix_reduce_rx_t rrx;
static mcapix_reduce_tx_t rtx;
static mcapix_gather_rx_t grx;
static mcapix_gather_tx_t gtx;
static uint8_t gmsg[NT * 4 * 3] __attribute__((aligned(8)));
#define PORT_ROOT_GATHER 12u
#define GROWS            3u /* gathered matrix: 3 rows of 15 x 4 bytes; tile t owns 4 columns */

#define die(what, st) cc_app_die("cc_stress", what, st)

static uint32_t mix(uint32_t a, uint32_t b)
{
    uint32_t x = a * 0x9E3779B1u ^ b * 0x85EBCA77u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    return x ^ (x >> 13);
}
static uint32_t mc_size(uint32_t r) { return mix(r, 1) % 1025u; }
static uint32_t p2p_size(uint32_t t, uint32_t r) { return mix(t, r + 1000) % 1025u; }
static uint32_t contrib(uint32_t t, uint32_t r, uint32_t i) { return mix(t * 64 + i, r); }

static int root(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t tx = mcapi_endpoint_create(PORT_ROOT_TX, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 3, .max_msg_log2 = 8};
    mcapi_endpoint_t red = mcapix_endpoint_create(PORT_ROOT_RED, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create red", st);
    mcapix_reduce_rx_create(&rrx, red, NT, &st); /* before any contributor can see the port */
    if (st != MCAPI_SUCCESS)
        die("reduce_rx_create", st);
    mcapi_endpoint_t gat = mcapix_endpoint_create(PORT_ROOT_GATHER, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create gather", st);
    mcapix_gather_rx_create(&grx, gat, NT, sizeof gmsg, &st);
    if (st != MCAPI_SUCCESS)
        die("gather_rx_create", st);
    mcapi_endpoint_t peers[NT];
    for (uint32_t t = 1; t <= NT; ++t) {
        peers[t - 1] = mcapi_endpoint_get(MCAPI_DOMAIN, t, PORT_MC, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
    }
    for (uint32_t n = 1; n <= NT; ++n) {
        mcapix_mcast_create(&groups[n - 1], tx, peers, n, &st);
        if (st != MCAPI_SUCCESS)
            die("mcast_create", st);
    }
    for (uint32_t r = 0; r < ROUNDS; ++r) {
        uint32_t n = 1 + r % NT, size = mc_size(r);
        payload_fill(buf, size, 0, r);
        mcapix_mcast_send(&groups[n - 1], buf, size, &st);
        if (st != MCAPI_SUCCESS)
            die("mcast_send", st);
        size_t got;
        mcapix_reduce_recv(&rrx, MCAPIX_OP_SUM, MCAPIX_T_UINT32, rres, sizeof rres, &got, &st);
        if (st != MCAPI_SUCCESS || got != sizeof rres)
            die("reduce_recv", st);
        for (uint32_t i = 0; i < RVEC; ++i) {
            uint32_t want = 0;
            for (uint32_t t = 1; t <= NT; ++t)
                want += contrib(t, r, i);
            if (rres[i] != want) {
                printf("cc_stress FAIL: round %u: sum[%u] = %08x, want %08x\n", (unsigned)r,
                       (unsigned)i, (unsigned)rres[i], (unsigned)want);
                return 1;
            }
        }
        mcapix_gather_recv(&grx, gmsg, sizeof gmsg, &got, &st);
        if (st != MCAPI_SUCCESS || got != sizeof gmsg)
            die("gather_recv", st);
        for (uint32_t k = 0; k < sizeof gmsg; ++k) /* row, tile, byte */
            if (gmsg[k] != (uint8_t)mix(1 + (k % (NT * 4)) / 4, r * 16 + k / (NT * 4) * 4 + k % 4))
                die("gathered byte", MCAPI_ERR_GENERAL);
        mcapix_mcast_send(&groups[NT - 1], rres, sizeof rres, &st); /* allreduce */
        if (st != MCAPI_SUCCESS)
            die("result multicast", st);
    }
    const mcapix_cc_stats_t *s = mcapix_cc_stats();
    printf("cc_stress ok: %u rounds, hw=%u sw=%u reduce_hw=%u gather_hw=%u\n", (unsigned)ROUNDS,
           (unsigned)s->hw_sends, (unsigned)s->sw_sends, (unsigned)rrx.hw, (unsigned)grx.hw);
    return 0;
}

static int member(uint32_t me)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 2, .max_msg_log2 = 10};
    mcapi_endpoint_t mc = mcapix_endpoint_create(PORT_MC, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapi_endpoint_t p2p = mcapix_endpoint_create(PORT_P2P, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapi_endpoint_t tx = mcapi_endpoint_create(PORT_TX, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    uint32_t next = me % NT + 1, prev = me == 1 ? NT : me - 1;
    mcapi_endpoint_t nx =
        mcapi_endpoint_get(MCAPI_DOMAIN, next, PORT_P2P, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_get", st);
    mcapi_endpoint_t root =
        mcapi_endpoint_get(MCAPI_DOMAIN, 0, PORT_ROOT_RED, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_get root", st);
    mcapix_reduce_tx_create(&rtx, tx, root, &st);
    if (st != MCAPI_SUCCESS)
        die("reduce_tx_create", st);
    mcapi_endpoint_t groot =
        mcapi_endpoint_get(MCAPI_DOMAIN, 0, PORT_ROOT_GATHER, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_get gather root", st);
    mcapix_gather_tx_create(&gtx, tx, groot, 8, me - 1, GROWS, 4 * (me - 1), 4, NT * 4, &st);
    if (st != MCAPI_SUCCESS)
        die("gather_tx_create", st);
    uint32_t mcasts = 0;
    for (uint32_t r = 0; r < ROUNDS; ++r) {
        size_t got;
        /* point-to-point to the successor, before and around the collectives */
        uint32_t ps = p2p_size(me, r);
        payload_fill(pbuf, ps, me, r);
        mcapi_msg_send(tx, nx, pbuf, ps, 0, &st);
        if (st != MCAPI_SUCCESS)
            die("p2p send", st);
        if (me <= 1 + r % NT) { /* a member of this round's multicast */
            mcapi_msg_recv(mc, buf, sizeof buf, &got, &st);
            if (st != MCAPI_SUCCESS)
                die("mcast recv", st);
            if (got != mc_size(r) || payload_check(buf, (uint32_t)got, 0, r))
                die("mcast payload", MCAPI_ERR_GENERAL);
            mcasts++;
        }
        for (uint32_t i = 0; i < RVEC; ++i)
            rvec[i] = contrib(me, r, i);
        mcapix_reduce_send(&rtx, MCAPIX_OP_SUM, MCAPIX_T_UINT32, rvec, sizeof rvec, &st);
        if (st != MCAPI_SUCCESS)
            die("reduce_send", st);
        uint8_t gpart[GROWS * 4];
        for (uint32_t row = 0; row < GROWS; ++row)
            for (uint32_t b = 0; b < 4; ++b)
                gpart[row * 4 + b] = (uint8_t)mix(me, r * 16 + row * 4 + b);
        mcapix_gather_send(&gtx, gpart, &st);
        if (st != MCAPI_SUCCESS)
            die("gather_send", st);
        mcapi_msg_recv(p2p, buf, sizeof buf, &got, &st);
        if (st != MCAPI_SUCCESS)
            die("p2p recv", st);
        if (got != p2p_size(prev, r) || payload_check(buf, (uint32_t)got, prev, r))
            die("p2p payload or order", MCAPI_ERR_GENERAL);
        uint32_t *res = (uint32_t *)(void *)pbuf;
        mcapi_msg_recv(mc, res, sizeof pbuf, &got, &st); /* the allreduce result */
        if (st != MCAPI_SUCCESS || got != sizeof rres)
            die("result recv", st);
        for (uint32_t i = 0; i < RVEC; ++i) {
            uint32_t want = 0;
            for (uint32_t t = 1; t <= NT; ++t)
                want += contrib(t, r, i);
            if (res[i] != want)
                die("allreduce result", MCAPI_ERR_GENERAL);
        }
    }
    printf("cc_stress member %u ok: %u multicasts, %u point-to-point\n", (unsigned)me,
           (unsigned)mcasts, (unsigned)ROUNDS);
    return 0;
}

int main(void) { return cc_app_run("cc_stress", NT + 1, root, member); }
