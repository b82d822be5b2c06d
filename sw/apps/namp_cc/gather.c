/* Gather end-to-end test of mcapix_gather_* (mcapix_cc.h) on a 4x4 mesh: for every N = 1..15
 * tiles 1..N each own a column block (1..3 bytes wide) of a matrix of R(N) rows; tile 0 receives
 * the gathered matrix (GA_ROUNDS rounds per N) and checks every byte. After each gather tile 0
 * acknowledges to the parts (the software path's lock-step). Tile 0 also prints the receive
 * overhead of round 1 ("ccbench gather ... or=", thesis Fig. 3.25) and, with NAMP-CC, that of
 * round 2 taken in place ("... or_inplace=": hold and release, without the copy). GATHER_SW_PATH=1 makes every tile take
 * the software path (the same code, for the comparison on one platform). */
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "cc_app.h"

#ifndef GA_ROUNDS
#define GA_ROUNDS 3u /* round 1 measured; round 2 received in place where the adapter gathered */
#endif
#ifndef GATHER_SW_PATH
#define GATHER_SW_PATH 0
#endif
#define NMAX       15u
#define PORT_ROOT  10u /* + N: one root endpoint per group size */
#define PORT_PART  2u
#define PORT_ACKTX 3u

/* The group sizes of this run (tile.arg: bit N, 0 = all): a claim measures one N per simulation. */
static int in_run(uint32_t n) { return tile_arg() == 0 || (tile_arg() >> n & 1u); }

static uint8_t msg[512] __attribute__((aligned(8)));
static uint8_t part[256] __attribute__((aligned(8)));
static mcapix_gather_rx_t rx[NMAX];
static mcapix_gather_tx_t tx[NMAX];
static mcapix_mcast_group_t acks[NMAX];

#define die(what, st) cc_app_die("gather", what, st)

static uint32_t chunk(uint32_t i) { return 1u + i % 3u; }
static uint32_t rows(uint32_t n) { return 2u + n % 5u; }
static uint32_t base(uint32_t i)
{
    uint32_t b = 0;
    for (uint32_t k = 0; k < i; ++k)
        b += chunk(k);
    return b;
}
static uint32_t width(uint32_t n) { return base(n); }
static uint8_t elem(uint32_t n, uint32_t q, uint32_t row, uint32_t col)
{
    uint32_t x = (n * 64u + q) * 0x9E3779B1u ^ (row * 64u + col) * 0x85EBCA77u;
    x ^= x >> 15;
    return (uint8_t)((x * 0x2C1B3C6Du) >> 24);
}

static int root(void)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 1, .max_msg_log2 = 9};
    mcapi_endpoint_t ack_tx = mcapi_endpoint_create(PORT_ACKTX, &st);
    for (uint32_t n = 1; n <= NMAX; ++n) {
        mcapi_endpoint_t ep = mcapix_endpoint_create(PORT_ROOT + n, &a, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_create", st);
        mcapix_gather_rx_create(&rx[n - 1], ep, n, rows(n) * width(n), &st);
        if (st != MCAPI_SUCCESS)
            die("gather_rx_create", st);
    }
    mcapix_gather_rx_t bad;
    mcapix_gather_rx_create(&bad, 0, 2, 8, &st);
    if (st != MCAPI_ERR_PARAMETER && st != MCAPI_ERR_ENDP_INVALID)
        die("rx_create NULL endpoint accepted", MCAPI_ERR_GENERAL);
    mcapix_gather_rx_create(&bad, 0, 2, 8, NULL); /* NULL status: unreported, no fault */
    mcapi_endpoint_t peers[NMAX];
    for (uint32_t t = 1; t <= NMAX; ++t) {
        peers[t - 1] = mcapi_endpoint_get(MCAPI_DOMAIN, t, PORT_PART, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
    }
    for (uint32_t n = 1; n <= NMAX; ++n) {
        mcapix_mcast_create(&acks[n - 1], ack_tx, peers, n, &st);
        if (st != MCAPI_SUCCESS)
            die("mcast_create", st);
    }
    uint32_t go = 0;
    mcapix_mcast_send(&acks[NMAX - 1], &go, 4, &st); /* every root is set up */
    uint32_t hw = 0, groups = 0;
    for (uint32_t n = 1; n <= NMAX; ++n) {
        if (!in_run(n))
            continue;
        groups++;
        hw += rx[n - 1].hw;
        for (uint32_t q = 0; q < GA_ROUNDS; ++q) {
            size_t got;
            const uint8_t *m = msg;
            /* round 2 with NAMP-CC: the gathered message taken in place (mcapix_msg_hold on the
             * root endpoint, the adapter placed every part): the receive without the copy out of
             * the buffer, whose size grows with N here (docs/evaluation.md, claim gather-flat) */
            const int inplace = q == 2u && rx[n - 1].hw;
            uint64_t idle0 = mcapix_stats()->idle_cycles, t0 = cpu_cycles();
            if (inplace) {
                void *d;
                mcapix_msg_hold(rx[n - 1].endpoint, &d, &got, &st);
                m = d;
            } else {
                mcapix_gather_recv(&rx[n - 1], msg, sizeof msg, &got, &st);
            }
            uint64_t t1 = cpu_cycles(), idle = mcapix_stats()->idle_cycles - idle0;
            if (st != MCAPI_SUCCESS)
                die("gather_recv", st);
            uint32_t w = width(n);
            if (got != rows(n) * w)
                die("gathered size", MCAPI_ERR_GENERAL);
            for (uint32_t row = 0; row < rows(n); ++row)
                for (uint32_t col = 0; col < w; ++col)
                    if (m[row * w + col] != elem(n, q, row, col)) {
                        printf("gather FAIL: n %u round %u byte (%u, %u)\n", (unsigned)n,
                               (unsigned)q, (unsigned)row, (unsigned)col);
                        return 1;
                    }
            if (inplace) { /* the release is the receive's freeing: counted too */
                uint64_t r0 = cpu_cycles();
                mcapix_msg_release(rx[n - 1].endpoint, &st);
                t1 += cpu_cycles() - r0;
                if (st != MCAPI_SUCCESS)
                    die("release", st);
                rx[n - 1].next_id++; /* the gather's sequence, as mcapix_gather_recv keeps it */
                printf("ccbench gather path=hw n=%u size=%u or_inplace=%u\n", (unsigned)n,
                       (unsigned)got, (unsigned)(t1 - t0 - idle));
            }
            if (q == 1)
                printf("ccbench gather path=%s n=%u size=%u or=%u\n", rx[n - 1].hw ? "hw" : "sw",
                       (unsigned)n, (unsigned)got, (unsigned)(t1 - t0 - idle));
            mcapix_mcast_send(&acks[n - 1], &go, 4, &st);
            if (st != MCAPI_SUCCESS)
                die("ack", st);
        }
    }
    printf("gather ok: %u groups x %u rounds, hw roots=%u features=0x%x\n", (unsigned)groups,
           (unsigned)GA_ROUNDS, (unsigned)hw, (unsigned)mcapix_cc_features());
    return 0;
}

static int sender(uint32_t me)
{
    mcapi_status_t st;
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT_PART, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    uint32_t i = me - 1, count_parts = 0;
    for (uint32_t n = me; n <= NMAX; ++n) {
        mcapi_endpoint_t root =
            mcapi_endpoint_get(MCAPI_DOMAIN, 0, PORT_ROOT + n, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
        mcapix_gather_tx_create(&tx[n - 1], ep, root, 9, i, rows(n), base(i), chunk(i), width(n),
                                &st);
        if (st != MCAPI_SUCCESS)
            die("gather_tx_create", st);
    }
    mcapix_gather_tx_t bad;
    mcapix_gather_tx_create(&bad, ep, ep, 9, MCAPIX_GATHER_MAX_PARTS, 1, 0, 1, 1, &st);
    if (st != MCAPI_ERR_PARAMETER)
        die("part 15 accepted", MCAPI_ERR_GENERAL);
    mcapix_gather_tx_create(&bad, ep, ep, 9, MCAPIX_GATHER_MAX_PARTS, 1, 0, 1, 1, NULL);
    const uint32_t none = 0;
    mcapix_gather_send(NULL, &none, NULL); /* NULL status: unreported, no fault */
    uint32_t go;
    size_t got;
    mcapi_msg_recv(ep, &go, sizeof go, &got, &st); /* the roots are set up */
    for (uint32_t n = me; n <= NMAX; ++n)
        for (uint32_t q = 0; q < GA_ROUNDS && in_run(n); ++q) {
            uint32_t c = chunk(i), b = base(i);
            for (uint32_t row = 0; row < rows(n); ++row)
                for (uint32_t k = 0; k < c; ++k)
                    part[row * c + k] = elem(n, q, row, b + k);
            mcapix_gather_send(&tx[n - 1], part, &st);
            if (st != MCAPI_SUCCESS)
                die("gather_send", st);
            mcapi_msg_recv(ep, &go, sizeof go, &got, &st); /* the root has it */
            if (st != MCAPI_SUCCESS)
                die("ack", st);
            count_parts++;
        }
    printf("gather part %u ok: %u parts\n", (unsigned)me, (unsigned)count_parts);
    return 0;
}

/* the software path on the same platform is chosen before any collective runs */
static int gather_root(void)
{
    if (GATHER_SW_PATH)
        mcapix_cc_set_path(MCAPIX_CC_SOFTWARE);
    return root();
}

static int gather_sender(uint32_t me)
{
    if (GATHER_SW_PATH)
        mcapix_cc_set_path(MCAPIX_CC_SOFTWARE);
    return sender(me);
}

int main(void) { return cc_app_run("gather", NMAX + 1, gather_root, gather_sender); }
