/* Scatter end-to-end test of mcapix_scatter_* (mcapix_cc.h) on a 4x4 mesh: tile 0 has one packet
 * channel to each of tiles 1..15; for every group size N = 1..15 and SC_ROUNDS rounds it scatters
 * a matrix of `count` rows of W bytes (odd widths and strides, 1..20 rows) so that member i
 * receives the column block [base_i, base_i + size_i) of every row (sizes 1..3), contiguous. The
 * members check every byte. Same code in the adapter (preset baresg) and in software. */
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "cc_app.h"

#ifndef SC_ROUNDS
#define SC_ROUNDS 2u
#endif
#define NMAX         15u
#define PORT_RX      1u
#define PORT_CHAN_TX 100u

static uint8_t matrix[20 * 64] __attribute__((aligned(8)));
static mcapix_mcast_group_t groups[NMAX][SC_ROUNDS];

#define die(what, st) cc_app_die("scatter", what, st)

static uint32_t mix(uint32_t a, uint32_t b)
{
    uint32_t x = a * 0x9E3779B1u ^ b * 0x85EBCA77u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    return x ^ (x >> 13);
}
static uint32_t rows(uint32_t n, uint32_t q) { return 1u + mix(n, q) % 20u; }
static uint32_t width(uint32_t n, uint32_t q) { return 3u * n + 2u + ((n + q) & 1u); }
static uint32_t base(uint32_t i, uint32_t q) { return 3u * i + (q & 1u); }
static uint32_t csize(uint32_t i, uint32_t q) { return 1u + (i + q) % 3u; }
static uint8_t elem(uint32_t n, uint32_t q, uint32_t k)
{
    return (uint8_t)(mix(n * 8u + q, k) >> 24);
}

static int member(uint32_t me)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 2, .max_msg_log2 = 8};
    mcapi_endpoint_t ep = mcapix_endpoint_create(PORT_RX, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_recv_hndl_t h;
    mcapi_pktchan_recv_open_i(&h, ep, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("recv_open", st);
    uint32_t i = me - 1, count = 0;
    for (uint32_t n = me; n <= NMAX; ++n)
        for (uint32_t q = 0; q < SC_ROUNDS; ++q) {
            void *b;
            size_t got;
            mcapi_pktchan_recv(h, &b, &got, &st);
            if (st != MCAPI_SUCCESS)
                die("pktchan_recv", st);
            const uint8_t *p = b;
            uint32_t c = rows(n, q), w = width(n, q), bs = base(i, q), s = csize(i, q);
            if (got != c * s) {
                printf("scatter FAIL: member %u group %u round %u: %u bytes, want %u\n",
                       (unsigned)me, (unsigned)n, (unsigned)q, (unsigned)got, (unsigned)(c * s));
                return 1;
            }
            for (uint32_t row = 0; row < c; ++row)
                for (uint32_t k = 0; k < s; ++k)
                    if (p[row * s + k] != elem(n, q, row * w + bs + k))
                        die("byte", MCAPI_ERR_GENERAL);
            mcapi_pktchan_release(b, &st);
            count++;
        }
    printf("scatter member %u ok: %u parts intact\n", (unsigned)me, (unsigned)count);
    return 0;
}

static int root(void)
{
    mcapi_status_t st;
    mcapi_pktchan_send_hndl_t chans[NMAX];
    for (uint32_t t = 1; t <= NMAX; ++t) {
        mcapi_request_t r;
        size_t sz;
        mcapi_endpoint_t peer =
            mcapi_endpoint_get(MCAPI_DOMAIN, t, PORT_RX, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
        mcapi_endpoint_t s = mcapi_endpoint_create(PORT_CHAN_TX + t, &st);
        mcapi_pktchan_connect_i(s, peer, &r, &st);
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("connect", st);
        mcapi_pktchan_send_open_i(&chans[t - 1], s, &r, &st);
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("send_open", st);
    }
    /* error paths: count 0, a size 0, chunks beyond the data, a scatter group given to mcast */
    uint32_t bases[NMAX], sizes[NMAX], checks = 0;
    mcapix_mcast_group_t g;
    bases[0] = 0;
    sizes[0] = 0;
    mcapix_scatter_create_chan(&g, chans, 1, 1, 4, bases, sizes, &st);
    checks += st == MCAPI_ERR_PARAMETER;
    sizes[0] = 4;
    mcapix_scatter_create_chan(&g, chans, 1, 0, 4, bases, sizes, &st);
    checks += st == MCAPI_ERR_PARAMETER;
    mcapix_scatter_create_chan(&g, chans, 1, 3, 8, bases, sizes, &st);
    checks += st == MCAPI_SUCCESS;
    mcapix_scatter_send(&g, matrix, 8 * 2 + 4 - 1, &st); /* needs 20 bytes */
    checks += st == MCAPI_ERR_PARAMETER;
    mcapix_mcast_send(&g, matrix, 4, &st);
    checks += st == MCAPI_ERR_PARAMETER;
    mcapix_scatter_send(&g, matrix, 8 * 2 + 4 - 1, NULL); /* NULL status: no fault */
    mcapix_scatter_create_chan(&g, chans, 1, 0, 4, bases, sizes, NULL);
    if (checks != 5)
        die("error paths", MCAPI_ERR_GENERAL);
    for (uint32_t n = 1; n <= NMAX; ++n)
        for (uint32_t q = 0; q < SC_ROUNDS; ++q) {
            for (uint32_t i = 0; i < n; ++i) {
                bases[i] = base(i, q);
                sizes[i] = csize(i, q);
            }
            mcapix_scatter_create_chan(&groups[n - 1][q], chans, n, rows(n, q), width(n, q), bases,
                                       sizes, &st);
            if (st != MCAPI_SUCCESS)
                die("scatter_create", st);
        }
    for (uint32_t n = 1; n <= NMAX; ++n)
        for (uint32_t q = 0; q < SC_ROUNDS; ++q) {
            uint32_t total = rows(n, q) * width(n, q);
            for (uint32_t k = 0; k < total; ++k)
                matrix[k] = elem(n, q, k);
            mcapix_scatter_send(&groups[n - 1][q], matrix, total, &st);
            if (st != MCAPI_SUCCESS)
                die("scatter_send", st);
        }
    const mcapix_cc_stats_t *s = mcapix_cc_stats();
    printf("scatter ok: 15 groups x %u rounds, hw=%u sw=%u features=0x%x, %u checks\n",
           (unsigned)SC_ROUNDS, (unsigned)s->hw_sends, (unsigned)s->sw_sends,
           (unsigned)mcapix_cc_features(), (unsigned)checks);
    return 0;
}

int main(void) { return cc_app_run("scatter", NMAX + 1, root, member); }
