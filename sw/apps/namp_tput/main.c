/* Throughput of the scenarios of thesis Fig. 4.9 on the 4x4 mesh, sizes 4 B .. 4 KiB, messages and
 * packet channels, measured on tile 0 (the same code over the NAMP and over the baseline):
 *   scenario 0 "1to4": tile 0 streams TPUT_N messages to each of tiles 1, 4, 5, 2 (interleaved,
 *                      non-blocking, up to TPUT_INFL per receiver in flight); the time runs until
 *                      all four receivers have reported "done";
 *   scenario 1 "4to1": tiles 1, 4, 5, 2 stream TPUT_N messages each to tile 0 after its "go";
 *                      the time runs from the "go" until tile 0 has received all 4·TPUT_N.
 * Aggregate throughput = 4·TPUT_N·size / cycles, in bytes per cycle (the link limit is 4 B/cycle:
 * one 32-bit flit per cycle into or out of a tile). Also the mean latency per message on the
 * sender side (cycles per message per sender).
 * Marks: id = 10 << 28 | cfg << 20 | value, cfg = (scenario * 2 + chan) * 16 + log2(size),
 * value = throughput in milli-bytes per cycle (clamped to 2^20 - 1).
 * A Table 4.2 variant with one protocol (baremsg, barechan) runs the rows of that protocol and
 * prints one "namp_tput skipped" line per protocol it lacks; without messages the go/done notes
 * travel as packets on the data channels, in the direction the scenario leaves idle. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"

/* TPUT_ZERO_COPY=1 (namp_tput_zc): connection-less messages are received in place
 * (mcapix_msg_hold/release), not copied out: the thesis' zero-copy receive (4.3.1) */
#ifndef TPUT_ZERO_COPY
#define TPUT_ZERO_COPY 0
#endif
#ifndef TPUT_N
#define TPUT_N 32u
#endif
#ifndef TPUT_INFL
#define TPUT_INFL 4u
#endif
#ifndef TPUT_MAX_LOG2
#define TPUT_MAX_LOG2 12u
#endif
#define NP 4u
static const uint32_t peers[NP] = {1, 4, 5, 2};
static uint8_t buf[TPUT_INFL][1u << TPUT_MAX_LOG2] __attribute__((aligned(8)));
static uint8_t rbuf[1u << TPUT_MAX_LOG2] __attribute__((aligned(8)));

#ifdef MP_TRANSPORT_NAMP
#include "namp/namp.h"
#include "na_registers.h"
static int have(int chan)
{
    return (namp_features() << 8 & (chan ? NA_FEATURE_NAMP_CHAN : NA_FEATURE_NAMP_MSG)) != 0;
}
#else
static int have(int chan)
{
    (void)chan;
    return 1;
} /* the software protocol has both */
#endif

static void die(const char *what, mcapi_status_t st)
{
    printf("namp_tput FAIL: %s: %s\n", what, mcapix_status_name(st));
    sim_shutdown(1);
}
#define CK(what)                 \
    do {                         \
        if (st != MCAPI_SUCCESS) \
            die(what, st);       \
    } while (0)

struct conn {
    mcapi_endpoint_t me, peer, ctl_peer; /* data endpoints; peer's control endpoint */
    mcapi_pktchan_send_hndl_t tx;
    mcapi_pktchan_recv_hndl_t rx;
};
static mcapi_endpoint_t ctl; /* port 3: go / done notes */

static void send_one(struct conn *c, int chan, const void *p, uint32_t size, mcapi_request_t *r)
{
    mcapi_status_t st;
    if (chan)
        mcapi_pktchan_send_i(c->tx, p, size, r, &st);
    else
        mcapi_msg_send_i(c->me, c->peer, p, size, 0, r, &st);
    if (st != MCAPI_PENDING && st != MCAPI_SUCCESS)
        die("send_i", st);
}

static void recv_one(struct conn *c, int chan, uint32_t size)
{
    mcapi_status_t st;
    size_t got;
    if (chan) {
        void *p;
        mcapi_pktchan_recv(c->rx, &p, &got, &st);
        CK("pktchan_recv");
        mcapi_pktchan_release(p, &st);
        CK("release");
    } else if (TPUT_ZERO_COPY) { /* the message used in place (thesis 4.3.1's zero-copy) */
        void *p;
        mcapix_msg_hold(c->me, &p, &got, &st);
        CK("msg_hold");
        mcapix_msg_release(c->me, &st);
        CK("msg_release");
    } else {
        mcapi_msg_recv(c->me, rbuf, sizeof rbuf, &got, &st);
        CK("msg_recv");
    }
    if (got != size)
        die("size", MCAPI_ERR_GENERAL);
}

static void note(struct conn *c)
{
    mcapi_status_t st;
    uint32_t v = 1;
    if (have(0))
        mcapi_msg_send(ctl, c->ctl_peer, &v, 4, 0, &st);
    else
        mcapi_pktchan_send(c->tx, &v, 4, &st);
    CK("note");
}

/* a note from c's peer (messages: from any peer, all arrive at one control endpoint) */
static void wait_note(struct conn *c)
{
    mcapi_status_t st;
    size_t got;
    uint32_t v;
    if (have(0)) {
        mcapi_msg_recv(ctl, &v, 4, &got, &st);
    } else {
        void *p;
        mcapi_pktchan_recv(c->rx, &p, &got, &st);
        CK("wait note");
        mcapi_pktchan_release(p, &st);
    }
    CK("wait note");
}

/* stream TPUT_N messages of `size` to each connection in c[0..n) */
static void stream(struct conn *c, uint32_t n, int chan, uint32_t size)
{
    mcapi_request_t req[NP][TPUT_INFL];
    int busy[NP][TPUT_INFL];
    memset(busy, 0, sizeof busy);
    mcapi_status_t st;
    size_t sz;
    for (uint32_t q = 0; q < TPUT_N; ++q)
        for (uint32_t d = 0; d < n; ++d) {
            uint32_t k = q % TPUT_INFL;
            if (busy[d][k]) {
                mcapi_wait(&req[d][k], &sz, MCAPI_TIMEOUT_INFINITE, &st);
                CK("wait");
            }
            send_one(&c[d], chan, buf[k], size, &req[d][k]);
            busy[d][k] = 1;
        }
    for (uint32_t d = 0; d < n; ++d)
        for (uint32_t k = 0; k < TPUT_INFL; ++k)
            if (busy[d][k]) {
                mcapi_wait(&req[d][k], &sz, MCAPI_TIMEOUT_INFINITE, &st);
                CK("final wait");
            }
}

/* The configurations of this run (tile.arg, 0 = all): bits 0..3 log2(size), bits 4..5 the mode + 1
 * (message, channel), bits 8..9 the scenario + 1; a field 0: all. A claim measures one
 * configuration per simulation. */
static int in_run(uint32_t sc, int chan, uint32_t lg)
{
    const uint32_t a = tile_arg(), s = a & 15u, m = (a >> 4) & 3u, c = (a >> 8) & 3u;
    return (s == 0 || s == lg) && (m == 0 || m == (uint32_t)chan + 1) && (c == 0 || c == sc + 1);
}

int main(void)
{
    uint32_t me = tile_id(), idx = NP;
    if (tile_core_id() != 0 || tile_mesh_width() * tile_mesh_height() < 16)
        return 0;
    for (uint32_t i = 0; i < NP; ++i)
        if (peers[i] == me)
            idx = i;
    if (me != 0 && idx == NP)
        return 0;
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = MP_DEFAULT_DATA_PATH};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    CK("initialize");
    /* ports: 3 control; tile 0: 10+i data to/from peer i (messages), 20+i channel out, 30+i in;
     * peer: 10 messages, 20 channel out (to tile 0), 30 channel in */
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 3, .max_msg_log2 = TPUT_MAX_LOG2};
    ctl = mcapix_endpoint_create(
        3, &(mcapix_endpoint_attributes_t){.capacity_log2 = 3, .max_msg_log2 = 4}, &st);
    CK("create ctl");
    static struct conn c[NP];
    uint32_t n = me == 0 ? NP : 1;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t o = me == 0 ? i : 0;
        c[i].me = mcapix_endpoint_create(10 + o, &a, &st);
        CK("create");
        mcapix_endpoint_create(20 + o, &a, &st);
        CK("create");
        mcapix_endpoint_create(30 + o, &a, &st);
        CK("create");
    }
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t o = me == 0 ? i : 0, other = me == 0 ? peers[i] : 0, oo = me == 0 ? 0 : idx;
        mcapi_request_t r;
        c[i].peer = mcapi_endpoint_get(MCAPI_DOMAIN, other, 10 + oo, MCAPI_TIMEOUT_INFINITE, &st);
        CK("get");
        c[i].ctl_peer = mcapi_endpoint_get(MCAPI_DOMAIN, other, 3, MCAPI_TIMEOUT_INFINITE, &st);
        CK("get");
        if (!have(1))
            continue;
        mcapi_endpoint_t pin =
            mcapi_endpoint_get(MCAPI_DOMAIN, other, 30 + oo, MCAPI_TIMEOUT_INFINITE, &st);
        CK("get");
        mcapi_endpoint_t eout = mcapi_endpoint_get(MCAPI_DOMAIN, me, 20 + o, 0, &st);
        mcapi_endpoint_t ein = mcapi_endpoint_get(MCAPI_DOMAIN, me, 30 + o, 0, &st);
        mcapi_pktchan_connect_i(eout, pin, &r, &st);
        CK("connect");
        mcapi_pktchan_send_open_i(&c[i].tx, eout, &r, &st);
        CK("send_open");
        mcapi_pktchan_recv_open_i(&c[i].rx, ein, &r, &st);
        size_t sz;
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        CK("recv_open");
    }
    for (uint32_t sc = 0; sc < 2; ++sc)
        for (int chan = 0; chan < 2; ++chan) {
            if (!have(chan)) {
                if (me == 0)
                    printf("namp_tput skipped: %s %s (no %s on this NAMP)\n", sc ? "4to1" : "1to4",
                           chan ? "chan" : "msg", chan ? "channels" : "connection-less messages");
                continue;
            }
            for (uint32_t lg = 2; lg <= TPUT_MAX_LOG2; ++lg) {
                if (!in_run(sc, chan, lg))
                    continue;
                uint32_t size = 1u << lg, cfg = (sc * 2 + (uint32_t)chan) * 16 + lg;
                if (me == 0) {
                    uint64_t t0 = cpu_cycles();
                    if (sc == 0) {
                        stream(c, NP, chan, size);
                        for (uint32_t i = 0; i < NP; ++i)
                            wait_note(&c[i]);
                    } else {
                        for (uint32_t i = 0; i < NP; ++i)
                            note(&c[i]);
                        for (uint32_t q = 0; q < NP * TPUT_N; ++q) {
                            /* take whatever arrived, in turn per connection */
                            recv_one(&c[q % NP], chan, size);
                        }
                    }
                    uint64_t cyc = cpu_cycles() - t0;
                    uint64_t mbpc = (uint64_t)NP * TPUT_N * size * 1000u / cyc;
                    sim_mark(10u << 28 | cfg << 20 | (uint32_t)(mbpc > 0xFFFFF ? 0xFFFFF : mbpc));
                    printf("tput %-4s %-4s %5u B  %8lu cycles  %5u.%03u B/cycle  %6lu cycles/msg\n",
                           sc ? "4to1" : "1to4", chan ? "chan" : "msg", (unsigned)size,
                           (unsigned long)cyc, (unsigned)(mbpc / 1000), (unsigned)(mbpc % 1000),
                           (unsigned long)(cyc / TPUT_N));
                } else if (sc == 0) {
                    for (uint32_t q = 0; q < TPUT_N; ++q)
                        recv_one(&c[0], chan, size);
                    note(&c[0]);
                } else {
                    wait_note(&c[0]);
                    stream(c, 1, chan, size);
                }
            }
        }
    if (me == 0)
        printf("namp_tput done\n");
    return 0;
}
