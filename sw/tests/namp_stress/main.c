/* NAMP stress test (same application code runs over the baseline transport):
 *   NAMP_STRESS_DIR 0: the peers send NAMP_STRESS_COUNT messages each into tile 0
 *                   1: tile 0 sends NAMP_STRESS_COUNT messages to each peer
 * peers: tiles 3, 5, 12, 15 (NAMP_STRESS_NPEER 4) or tiles 1..15 (NAMP_STRESS_NPEER 15),
 * random sizes 8..NAMP_STRESS_MAX bytes into small receive buffers (2 elements), connection-less
 * (NAMP_STRESS_CHAN 0) or over packet channels (1). Sender endpoints rotate through the send
 * modes (unbuffered blocking, unbuffered non-blocking with several in flight, buffered, CCM).
 * Receivers check every message exactly once, intact, in order per sender. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "na/na.h"
#include "../mp/payload.h"

#ifndef NAMP_STRESS_COUNT
#define NAMP_STRESS_COUNT 1000u
#endif
#ifndef NAMP_STRESS_DIR
#define NAMP_STRESS_DIR 0
#endif
#ifndef NAMP_STRESS_CHAN
#define NAMP_STRESS_CHAN 0
#endif
#ifndef NAMP_STRESS_MODE
#define NAMP_STRESS_MODE 1 /* 1 -> 4: send mode of the single sender */
#endif
#define NAMP_STRESS_MAX 256u
#ifndef NAMP_STRESS_NPEER
#define NAMP_STRESS_NPEER 4u
#endif
#define NPEER NAMP_STRESS_NPEER
#if NPEER == 4
#define INFLIGHT 3u
static const uint32_t peers[NPEER] = {3, 5, 12, 15};
#else
#define INFLIGHT 1u /* 15 destinations: at most 15 requests under way */
static const uint32_t peers[NPEER] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
#endif
#if !NAMP_STRESS_CHAN
static uint8_t rxbuf[NAMP_STRESS_MAX] __attribute__((aligned(8)));
#endif
static uint8_t txbuf[NPEER][INFLIGHT][NAMP_STRESS_MAX] __attribute__((aligned(8)));

#define FAIL(...)                                 \
    do {                                          \
        printf("namp_stress FAIL: " __VA_ARGS__); \
        return 1;                                 \
    } while (0)

static uint32_t size_of(uint32_t *rng) { return 8u + lcg(rng) % (NAMP_STRESS_MAX - 7u); }

/* ------------------------------------------------------------ receiving side */
static int check(uint32_t *next, uint32_t *rng, const uint8_t *p, size_t got, uint32_t from_k)
{
    uint32_t s, q;
    if (got < 8)
        FAIL("short message (%u bytes)\n", (unsigned)got);
    __builtin_memcpy(&s, p, 4);
    __builtin_memcpy(&q, p + 4, 4);
    uint32_t k = from_k;
    if (k == NPEER) {
        for (uint32_t i = 0; i < NPEER; ++i)
            if (peers[i] == s)
                k = i;
        if (s == 0)
            k = 0;
    }
    if (k == NPEER || q != next[k])
        FAIL("from %u seq %u, expected %u\n", (unsigned)s, (unsigned)q,
             k < NPEER ? (unsigned)next[k] : 0u);
    uint32_t want = size_of(&rng[k]);
    if (got != want || payload_check(p, (uint32_t)got, s, q))
        FAIL("from %u seq %u size %u (want %u) corrupt\n", (unsigned)s, (unsigned)q, (unsigned)got,
             (unsigned)want);
    next[k]++;
    return 0;
}

/* nsrc senders (their tile ids src[], rng seeds) -> this tile, port 1 (msg) or ports 10+k (chan) */
static int receiver(const uint32_t *src, uint32_t nsrc)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 1, .max_msg_log2 = 8};
    uint32_t next[NPEER] = {0}, rng[NPEER], total = 0, sum = 0;
    for (uint32_t i = 0; i < nsrc; ++i)
        rng[i] = src[i] * 7919u + tile_id();
#if !NAMP_STRESS_CHAN
    mcapi_endpoint_t ep = mcapix_endpoint_create(1, &a, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("endpoint_create %s\n", mcapix_status_name(st));
    while (total < nsrc * NAMP_STRESS_COUNT) {
        size_t got;
        mcapi_msg_recv(ep, rxbuf, sizeof rxbuf, &got, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("recv %s\n", mcapix_status_name(st));
        if (check(next, rng, rxbuf, got, nsrc == 1 ? 0 : NPEER))
            return 1;
        sum = sum * 31u + rxbuf[got - 1];
        total++;
    }
#else
    mcapi_pktchan_recv_hndl_t h[NPEER];
    mcapi_request_t rr[NPEER], *rp[NPEER];
    void *pb[NPEER];
    for (uint32_t i = 0; i < nsrc; ++i) {
        size_t sz;
        mcapi_endpoint_t ep = mcapix_endpoint_create(10 + i, &a, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("endpoint_create %s\n", mcapix_status_name(st));
        mcapi_pktchan_recv_open_i(&h[i], ep, &rr[i], &st);
        mcapi_wait(&rr[i], &sz, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("recv_open %s\n", mcapix_status_name(st));
    }
    for (uint32_t i = 0; i < nsrc; ++i) {
        rp[i] = &rr[i];
        mcapi_pktchan_recv_i(h[i], &pb[i], &rr[i], &st);
    }
    while (total < nsrc * NAMP_STRESS_COUNT) {
        size_t got;
        mcapi_uint_t i = mcapi_wait_any(nsrc, rp, &got, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS || i >= nsrc)
            FAIL("pktchan_recv %s\n", mcapix_status_name(st));
        const uint8_t *p = pb[i];
        if (check(next, rng, p, got, i))
            return 1;
        sum = sum * 31u + p[got - 1];
        mcapi_pktchan_release(pb[i], &st);
        if (st != MCAPI_SUCCESS)
            FAIL("release %s\n", mcapix_status_name(st));
        total++;
        if (next[i] < NAMP_STRESS_COUNT)
            mcapi_pktchan_recv_i(h[i], &pb[i], &rr[i], &st);
        else
            rr[i].state = 0; /* done: wait_any skips it */
    }
#endif
    printf("namp_stress ok: %u %s from %u senders, each exactly once, intact, in order, "
           "checksum 0x%08x\n",
           (unsigned)total, NAMP_STRESS_CHAN ? "packets" : "messages", (unsigned)nsrc,
           (unsigned)sum);
    return 0;
}

/* ------------------------------------------------------------ sending side */
/* this tile sends NAMP_STRESS_COUNT messages to each of dst[] (ndst tiles); k0 = this sender's
 * index at the receiver (channel port), mode = send mode of the endpoint */
static int sender(const uint32_t *dst, uint32_t ndst, uint32_t k0, uint32_t mode)
{
    mcapi_status_t st;
    size_t sz;
    mcapi_endpoint_t me[NPEER], peer[NPEER];
    uint32_t rng[NPEER];
    mcapi_request_t req[NPEER][INFLIGHT];
    int busy[NPEER][INFLIGHT] = {{0}};
#if NAMP_STRESS_CHAN
    mcapi_pktchan_send_hndl_t h[NPEER];
#endif
    for (uint32_t d = 0; d < ndst; ++d) {
        mcapix_endpoint_attributes_t a = {.capacity_log2 = 1,
                                          .max_msg_log2 = 8,
                                          .send_capacity_log2 = mode >= 2 ? 2u : 0u,
                                          .send_mode = mode >= 2 ? mode - 1u : 0u};
        me[d] = mcapix_endpoint_create(20 + d, &a, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("endpoint_create %s\n", mcapix_status_name(st));
        peer[d] = mcapi_endpoint_get(MCAPI_DOMAIN, dst[d], NAMP_STRESS_CHAN ? 10 + k0 : 1,
                                     MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("endpoint_get %s\n", mcapix_status_name(st));
        rng[d] = tile_id() * 7919u + dst[d];
#if NAMP_STRESS_CHAN
        mcapi_request_t r;
        mcapi_pktchan_connect_i(me[d], peer[d], &r, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("connect %s\n", mcapix_status_name(st));
        mcapi_pktchan_send_open_i(&h[d], me[d], &r, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("send_open %s\n", mcapix_status_name(st));
#endif
    }
    for (uint32_t q = 0; q < NAMP_STRESS_COUNT; ++q)
        for (uint32_t d = 0; d < ndst; ++d) {
            uint32_t size = size_of(&rng[d]), k = q % INFLIGHT;
            uint8_t *p = txbuf[d][k];
            if (busy[d][k]) {
                mcapi_wait(&req[d][k], &sz, MCAPI_TIMEOUT_INFINITE, &st);
                if (st != MCAPI_SUCCESS)
                    FAIL("wait %s\n", mcapix_status_name(st));
                busy[d][k] = 0;
            }
            payload_fill(p, size, tile_id(), q);
            if (mode == 1) { /* non-blocking, several in flight */
#if NAMP_STRESS_CHAN
                mcapi_pktchan_send_i(h[d], p, size, &req[d][k], &st);
#else
                mcapi_msg_send_i(me[d], peer[d], p, size, 0, &req[d][k], &st);
#endif
                if (st != MCAPI_PENDING && st != MCAPI_SUCCESS)
                    FAIL("send_i %s\n", mcapix_status_name(st));
                busy[d][k] = 1;
                continue;
            }
#if NAMP_STRESS_CHAN
            mcapi_pktchan_send(h[d], p, size, &st);
#else
            mcapi_msg_send(me[d], peer[d], p, size, 0, &st);
#endif
            if (st != MCAPI_SUCCESS)
                FAIL("send %s\n", mcapix_status_name(st));
        }
    for (uint32_t d = 0; d < ndst; ++d)
        for (uint32_t k = 0; k < INFLIGHT; ++k)
            if (busy[d][k]) {
                mcapi_wait(&req[d][k], &sz, MCAPI_TIMEOUT_INFINITE, &st);
                if (st != MCAPI_SUCCESS)
                    FAIL("final wait %s\n", mcapix_status_name(st));
            }
    printf("namp_stress sender %u done mode=%u\n", (unsigned)tile_id(), (unsigned)mode);
    return 0;
}

int main(void)
{
    uint32_t me = tile_id(), idx = NPEER;
    if (tile_core_id() != 0 || tile_mesh_width() * tile_mesh_height() < 16)
        return 0;
    for (uint32_t i = 0; i < NPEER; ++i)
        if (peers[i] == me)
            idx = i;
    if (me != 0 && idx == NPEER)
        return 0;
#ifdef MP_TRANSPORT_NAMP
    if (na_namp_slots() == 0) {
        if (me == 0)
            printf("FAIL: no NAMP in this configuration\n");
        return 1;
    }
#endif
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = MP_DEFAULT_DATA_PATH};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("initialize %s\n", mcapix_status_name(st));
    static const uint32_t zero[1] = {0};
    int rc;
#if NAMP_STRESS_DIR == 0
    rc = me == 0 ? receiver(peers, NPEER) : sender(zero, 1, idx, idx % 4u);
#else
    rc = me == 0 ? sender(peers, NPEER, 0, NAMP_STRESS_MODE) : receiver(zero, 1);
#endif
    return rc;
}
