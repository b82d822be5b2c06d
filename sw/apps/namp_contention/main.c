/* Contention scenarios of thesis Fig. 4.9 / 4.12: several message streams at once on the 4x4
 * mesh, with the traffic drawn from a seed, so that a sweep over seeds gives the spread of gap
 * and latency (the error bars of Fig. 4.12).
 *   CONTENTION_CROSS: eight streams crossing the chip (0->15, 15->0, 3->12, 12->3, 4->7, 11->8,
 *                     1->13, 14->2; Fig. 4.9a), contention in the network;
 *   otherwise (4to1): tiles 1, 4, 5, 2 stream to tile 0 (Fig. 4.9b), contention at the receiver.
 * Every stream sends CONT_M blocking messages (then packet channels) of 16, 256 and 1024 bytes;
 * before each send the sender pauses a time drawn uniformly from [0, CONT_THINK) cycles from
 * the seed tile.arg (xor the stream), so each seed interleaves the streams differently.
 *   g = mean duration of the send call (the transfer's protocol handling until completion);
 *   L = mean time from the send call to the return of the matching receive (core cycle counters
 *       are the simulated time on every tile, so the stamp in the payload is comparable).
 * Marks: id = 14 << 28 | k << 20 | value, k = ((mode * 3 + size index) * 8 + stream) * 4 + metric,
 * metric 0 g (sender), 1 L (receiver); mode 0 messages, 1 channels. Console: "contention" lines. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"

#ifndef CONT_M
#define CONT_M 16u
#endif
#define CONT_THINK 2000u
#define CONT_START 1000000u /* every stream starts at this cycle (the set-up is done by then) */
#define NSIZES     3u
static const uint32_t sizes[NSIZES] = {16u, 256u, 1024u};
#ifdef CONTENTION_CROSS
#define NS 8u
static const uint32_t src[NS] = {0, 15, 3, 12, 4, 11, 1, 14};
static const uint32_t dst[NS] = {15, 0, 12, 3, 7, 8, 13, 2};
#define NAME "cross"
#else
#define NS   4u
static const uint32_t src[NS] = {1, 4, 5, 2};
static const uint32_t dst[NS] = {0, 0, 0, 0};
#define NAME "4to1"
#endif
#define PORT_MSG(s)  (10u + (s))
#define PORT_CIN(s)  (30u + (s))
#define PORT_COUT(s) (50u + (s))
#define PORT_MOUT(s) (70u + (s)) /* a channel's endpoint sends no messages: one for them */

static uint8_t buf[1024] __attribute__((aligned(8)));
static uint8_t rbuf[1024] __attribute__((aligned(8)));

static void die(const char *what, mcapi_status_t st)
{
    printf("namp_contention FAIL: tile %u: %s: %s\n", (unsigned)tile_id(), what,
           mcapix_status_name(st));
    sim_shutdown(1);
}
#define CK(what)                 \
    do {                         \
        if (st != MCAPI_SUCCESS) \
            die(what, st);       \
    } while (0)

struct stream_rx { /* a stream this tile receives */
    mcapi_endpoint_t ep;
    mcapi_pktchan_recv_hndl_t rx;
    uint32_t got;
    uint64_t lat[2][NSIZES];
};

static void mark(uint32_t mode, uint32_t si, uint32_t s, uint32_t metric, uint64_t v)
{
    uint32_t k = ((mode * NSIZES + si) * 8u + s) * 4u + metric;
    sim_mark(14u << 28 | k << 20 | (uint32_t)(v > 0xFFFFF ? 0xFFFFF : v));
}

static void spin(uint32_t cycles)
{
    uint64_t t = cpu_cycles() + cycles;
    while (cpu_cycles() < t)
        ;
}

/* one receive on stream r if something is there; 1 when received */
static int try_recv(struct stream_rx *r, int chan)
{
    mcapi_status_t st;
    size_t got;
    const uint8_t *p = rbuf;
    if (chan) {
        if (mcapi_pktchan_available(r->rx, &st) == 0)
            return 0;
        void *q;
        mcapi_pktchan_recv(r->rx, &q, &got, &st);
        CK("pktchan_recv");
        p = q;
    } else {
        if (mcapi_msg_available(r->ep, &st) == 0)
            return 0;
        mcapi_msg_recv(r->ep, rbuf, sizeof rbuf, &got, &st);
        CK("msg_recv");
    }
    uint64_t now = cpu_cycles(), stamp;
    memcpy(&stamp, p, sizeof stamp);
    uint32_t si = (r->got / CONT_M) % NSIZES;
    if (got != sizes[si])
        die("size", MCAPI_ERR_GENERAL);
    r->lat[chan][si] += now - stamp;
    if (chan)
        mcapi_pktchan_release((void *)p, &st);
    r->got++;
    return 1;
}

int main(void)
{
    const uint32_t me = tile_id();
    if (tile_core_id() != 0 || tile_mesh_width() * tile_mesh_height() < 16)
        return 0;
    int role = 0;
    for (uint32_t s = 0; s < NS; ++s)
        role |= src[s] == me || dst[s] == me;
    if (!role)
        return 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    CK("initialize");
    static struct stream_rx rx[NS];
    mcapi_endpoint_t tx_ep[NS], tx_msg[NS], tx_peer[NS];
    mcapi_pktchan_send_hndl_t tx_ch[NS];
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 2, .max_msg_log2 = 10};
    for (uint32_t s = 0; s < NS; ++s) {
        if (dst[s] == me) {
            rx[s].ep = mcapix_endpoint_create(PORT_MSG(s), &a, &st);
            CK("create");
            mcapix_endpoint_create(PORT_CIN(s), &a, &st);
            CK("create");
        }
        if (src[s] == me) {
            tx_ep[s] = mcapix_endpoint_create(PORT_COUT(s), &a, &st);
            CK("create");
            tx_msg[s] = mcapix_endpoint_create(PORT_MOUT(s), &a, &st);
            CK("create");
        }
    }
    for (uint32_t s = 0; s < NS; ++s) {
        mcapi_request_t r;
        size_t sz;
        if (src[s] == me) {
            tx_peer[s] =
                mcapi_endpoint_get(MCAPI_DOMAIN, dst[s], PORT_MSG(s), MCAPI_TIMEOUT_INFINITE, &st);
            CK("get");
            mcapi_endpoint_t pin =
                mcapi_endpoint_get(MCAPI_DOMAIN, dst[s], PORT_CIN(s), MCAPI_TIMEOUT_INFINITE, &st);
            CK("get");
            mcapi_pktchan_connect_i(tx_ep[s], pin, &r, &st);
            mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
            CK("connect");
            mcapi_pktchan_send_open_i(&tx_ch[s], tx_ep[s], &r, &st);
            mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
            CK("send_open");
        }
        if (dst[s] == me) {
            mcapi_endpoint_t ein = mcapi_endpoint_get(MCAPI_DOMAIN, me, PORT_CIN(s), 0, &st);
            CK("get");
            mcapi_pktchan_recv_open_i(&rx[s].rx, ein, &r, &st);
            mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
            CK("recv_open");
        }
    }
    /* this tile's sending stream (at most one per tile in both scenarios) and its seed */
    uint32_t my = NS;
    for (uint32_t s = 0; s < NS; ++s)
        if (src[s] == me)
            my = s;
    uint32_t rng = (tile_arg() * 0x9E3779B9u) ^ (my * 0x85EBCA6Bu) ^ 0x1234567u;
    uint32_t sent = 0, total = 2u * NSIZES * CONT_M;
    uint64_t gsum = 0;
    uint32_t expect = 0;
    for (uint32_t s = 0; s < NS; ++s)
        expect += dst[s] == me ? total : 0u;
    uint32_t received = 0;
    if (cpu_cycles() >= CONT_START)
        die("set-up slower than CONT_START", MCAPI_ERR_GENERAL);
    spin((uint32_t)(CONT_START - cpu_cycles()));
    uint64_t next_send = cpu_cycles();
    /* one loop serves both roles: send when the pause is over, receive whatever has arrived */
    while ((my < NS && sent < total) || received < expect) {
        if (my < NS && sent < total && cpu_cycles() >= next_send) {
            uint32_t mode = sent / (NSIZES * CONT_M), si = (sent / CONT_M) % NSIZES;
            uint64_t t0 = cpu_cycles();
            memcpy(buf, &t0, sizeof t0);
            if (mode)
                mcapi_pktchan_send(tx_ch[my], buf, sizes[si], &st);
            else
                mcapi_msg_send(tx_msg[my], tx_peer[my], buf, sizes[si], 0, &st);
            CK("send");
            gsum += cpu_cycles() - t0;
            if (++sent % CONT_M == 0) {
                mark(mode, si, my, 0, gsum / CONT_M);
                printf("contention %s seed %u stream %u %s %4u B: g %u\n", NAME,
                       (unsigned)tile_arg(), (unsigned)my, mode ? "chan" : "msg ",
                       (unsigned)sizes[si], (unsigned)(gsum / CONT_M));
                gsum = 0;
            }
            rng ^= rng << 13;
            rng ^= rng >> 17;
            rng ^= rng << 5;
            next_send = cpu_cycles() + rng % CONT_THINK;
        }
        for (uint32_t s = 0; s < NS; ++s) {
            if (dst[s] != me || rx[s].got >= total)
                continue;
            int chan = rx[s].got >= NSIZES * CONT_M;
            if (try_recv(&rx[s], chan))
                received++;
        }
        if (my == NS || sent == total)
            spin(20); /* a receiver only: poll a little less often */
    }
    for (uint32_t s = 0; s < NS; ++s)
        if (dst[s] == me)
            for (uint32_t mode = 0; mode < 2; ++mode)
                for (uint32_t si = 0; si < NSIZES; ++si) {
                    uint64_t l = rx[s].lat[mode][si] / CONT_M;
                    mark(mode, si, s, 1, l);
                    printf("contention %s seed %u stream %u %s %4u B: L %u\n", NAME,
                           (unsigned)tile_arg(), (unsigned)s, mode ? "chan" : "msg ",
                           (unsigned)sizes[si], (unsigned)l);
                }
    return 0;
}
