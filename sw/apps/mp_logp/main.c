/* LogP measurement of the software message-passing baseline (thesis 3.1.1): sender overhead o_s,
 * receiver overhead o_r, gap g and end-to-end latency L for message sizes 4 B .. 4 KiB, for the
 * buffer-based, RMA and RDMA data paths, connection-less messages and packet channels, between
 * tile 0 and a neighbour (tile 1) and between tile 0 and the far corner (tile W*H-1, 6 hops on 4x4).
 *
 *   L   = half the ping-pong round trip (send invocation to completion of the matching receive),
 *         LOGP_PP round trips after one warm-up;
 *   g   = interval between send invocations when streaming LOGP_N messages (sender side);
 *   o_s = cycles the sender's core is busy per streamed message (send calls and the interrupt
 *         handler; cycles asleep in wfi waiting for replies or the DMA are not counted);
 *   o_r = the same on the receiver: progress-engine interrupts plus the receive call (and copy).
 *
 * Console: one "logp" line per configuration. Statistics JSON marks (all from sim_mark):
 *   id = event << 28 | cfg << 20 | value;  cfg = ((dest * 2 + mode) * 3 + path) * 16 + log2(size)
 *   event 1/2: ping-pong begin/end (tile 0), 3/4: streaming begin/end (tile 0), value 0;
 *   event 5: o_s, 6: o_r, 7: g, 8: L, value = cycles (clamped to 2^20-1);
 *   event 9: parameters, value = LOGP_PP << 10 | LOGP_N.
 * scripts/logp-plot turns the marks into PNG plots and a table. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"

#ifndef LOGP_PP
#define LOGP_PP 8u
#endif
#ifndef LOGP_N
#define LOGP_N 16u
#endif
#ifndef LOGP_MAX_LOG2
#define LOGP_MAX_LOG2 12u
#endif

enum { EV_PP_BEGIN = 1, EV_PP_END, EV_ST_BEGIN, EV_ST_END, EV_OS, EV_OR, EV_G, EV_L, EV_PARAM };

static uint8_t buf[4096] __attribute__((aligned(8)));
static uint8_t rbuf[4096] __attribute__((aligned(8)));

#ifdef MP_TRANSPORT_NAMP
#include "namp/namp.h"
#include "na_registers.h"
/* over the NAMP the third dimension is the send mode of the endpoints (Table 3.2c) */
#define SEND_CAP_LOG2 3u
static const char *const path_name[] = {"namp", "nampbuf", "nampccm"};

/* A Table 4.2 variant without a protocol or send mode (baremsg, barechan, no BUF or CCM) skips
 * those rows instead of failing, so one firmware measures every variant (both sides decide alike). */
static int supported(int chan, uint32_t path)
{
    const uint32_t f = namp_features() << 8;
    const uint32_t need[3] = {0, NA_FEATURE_NAMP_BUF, NA_FEATURE_NAMP_CCM};
    return (f & (chan ? NA_FEATURE_NAMP_CHAN : NA_FEATURE_NAMP_MSG)) &&
           (f & need[path]) == need[path];
}
#else
#define SEND_CAP_LOG2 0u
static const char *const path_name[] = {"buffer", "rma", "rdma"};
#endif
#ifdef LOGP_COPY
#define RECV_KIND "copy"
#else
#define RECV_KIND "zero-copy"
#endif

struct link {
    mcapi_endpoint_t eout;             /* channel send endpoint */
    mcapi_endpoint_t msg_me, msg_peer; /* connection-less endpoints */
    mcapi_pktchan_send_hndl_t tx;      /* channel to the peer */
    mcapi_pktchan_recv_hndl_t rx;      /* channel from the peer */
};

static void mark(uint32_t ev, uint32_t cfg, uint64_t value)
{
    if (value > 0xFFFFFu)
        value = 0xFFFFFu;
    sim_mark(ev << 28 | cfg << 20 | (uint32_t)value);
}

static void die(const char *what, mcapi_status_t st)
{
    printf("mp_logp FAIL: %s: %s\n", what, mcapix_status_name(st));
    sim_shutdown(1);
}

static void xsend(struct link *l, int chan, const void *p, size_t size)
{
    mcapi_status_t st;
    if (chan)
        mcapi_pktchan_send(l->tx, p, size, &st);
    else
        mcapi_msg_send(l->msg_me, l->msg_peer, p, size, 0, &st);
    if (st != MCAPI_SUCCESS)
        die("send", st);
}

/* Receives one message; returns its data (rbuf or the zero-copy slot) and size. */
static void *xrecv(struct link *l, int chan, size_t *size)
{
    mcapi_status_t st;
    void *p = rbuf;
    if (chan) {
        mcapi_pktchan_recv(l->rx, &p, size, &st);
#ifdef LOGP_COPY
        if (st == MCAPI_SUCCESS) { /* copy receive: out of the slot, release at once */
            memcpy(rbuf, p, *size);
            mcapi_pktchan_release(p, &st);
            p = rbuf;
        }
#endif
    } else
        mcapi_msg_recv(l->msg_me, rbuf, sizeof rbuf, size, &st);
    if (st != MCAPI_SUCCESS)
        die("recv", st);
    return p;
}

static void xrelease(int chan, void *p)
{
    mcapi_status_t st;
#ifdef LOGP_COPY
    chan = 0;
#endif
    if (chan) {
        mcapi_pktchan_release(p, &st);
        if (st != MCAPI_SUCCESS)
            die("release", st);
    }
}

static void wait_req(mcapi_request_t *r, const char *what)
{
    mcapi_status_t st;
    size_t sz;
    mcapi_wait(r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die(what, st);
}

/* Port plan: the initiator (tile 0) uses 1 (messages), 2+2d (channel out), 3+2d (channel in) for
 * partner d; a partner uses 1, 2 (channel in), 3 (channel out). */
static void setup(struct link *l, int initiator, uint32_t peer, uint32_t d)
{
    mcapi_status_t st;
    mcapi_request_t r;
    mcapix_endpoint_attributes_t a = {
        .capacity_log2 = 3, .max_msg_log2 = LOGP_MAX_LOG2, .send_capacity_log2 = SEND_CAP_LOG2};
    uint32_t out = initiator ? 2 + 2 * d : 3, in = initiator ? 3 + 2 * d : 2;
    uint32_t peer_in = initiator ? 2 : 3 + 2 * d;
    mcapi_endpoint_t eout = mcapix_endpoint_create(out, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapi_endpoint_t ein = mcapix_endpoint_create(in, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    l->msg_peer = mcapi_endpoint_get(MCAPI_DOMAIN, peer, 1, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_get", st);
    mcapi_endpoint_t pin =
        mcapi_endpoint_get(MCAPI_DOMAIN, peer, peer_in, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_get", st);
    l->eout = eout;
    mcapi_pktchan_connect_i(eout, pin, &r, &st);
    wait_req(&r, "connect");
    mcapi_pktchan_send_open_i(&l->tx, eout, &r, &st);
    wait_req(&r, "send_open");
    mcapi_pktchan_recv_open_i(&l->rx, ein, &r, &st);
    wait_req(&r, "recv_open");
}

static void initiator_run(struct link *l, uint32_t d, uint32_t peer, int chan, uint32_t path,
                          uint32_t lg)
{
    uint32_t size = 1u << lg, cfg = ((d * 2 + (uint32_t)chan) * 3 + path) * 16 + lg;
    size_t got;
    void *p;
    for (uint32_t i = 0; i < size; ++i)
        buf[i] = (uint8_t)(i * 7 + lg);
    /* warm-up round trip, which also checks the echo (outside the timed loops) */
    xsend(l, chan, buf, size);
    p = xrecv(l, chan, &got);
    if (got != size || memcmp(p, buf, size) != 0) {
        printf("mp_logp FAIL: echo of %u bytes corrupt\n", (unsigned)size);
        sim_shutdown(1);
    }
    xrelease(chan, p);
    /* ping-pong */
    mark(EV_PP_BEGIN, cfg, 0);
    uint64_t t0 = cpu_cycles();
    for (uint32_t i = 0; i < LOGP_PP; ++i) {
        xsend(l, chan, buf, size);
        p = xrecv(l, chan, &got);
        xrelease(chan, p);
    }
    uint64_t t1 = cpu_cycles();
    mark(EV_PP_END, cfg, 0);
    uint64_t lat = (t1 - t0) / (2u * LOGP_PP);
    /* streaming */
    mark(EV_ST_BEGIN, cfg, 0);
    uint64_t idle0 = mcapix_stats()->idle_cycles, n0 = cpu_instret();
    uint32_t nack0 = mcapix_stats()->nacks;
    t0 = cpu_cycles();
    for (uint32_t i = 0; i < LOGP_N; ++i)
        xsend(l, chan, buf, size);
    t1 = cpu_cycles();
    uint64_t instr = (cpu_instret() - n0) / LOGP_N;
    uint32_t nacks = mcapix_stats()->nacks - nack0;
    uint64_t idle = mcapix_stats()->idle_cycles - idle0;
    mark(EV_ST_END, cfg, 0);
    uint64_t gap = (t1 - t0) / LOGP_N, os = (t1 - t0 - idle) / LOGP_N;
    uint32_t orr = 0;
    p = xrecv(l, chan, &got); /* the partner's report: its o_r */
    memcpy(&orr, p, 4);
    xrelease(chan, p);
    mark(EV_OS, cfg, os);
    mark(EV_G, cfg, gap);
    mark(EV_L, cfg, lat);
    printf("logp %2u->%-2u %-4s %-6s %5u B  o_s %7lu  o_r %7lu  g %7lu  L %7lu cycles"
           "  (%lu instructions per send, %u NACKs)\n",
           0u, (unsigned)peer, chan ? "chan" : "msg", path_name[path], (unsigned)size,
           (unsigned long)os, (unsigned long)orr, (unsigned long)gap, (unsigned long)lat,
           (unsigned long)instr, (unsigned)nacks);
}

static void partner_run(struct link *l, uint32_t d, int chan, uint32_t path, uint32_t lg)
{
    uint32_t size = 1u << lg, cfg = ((d * 2 + (uint32_t)chan) * 3 + path) * 16 + lg;
    size_t got;
    for (uint32_t i = 0; i < 1 + LOGP_PP; ++i) { /* warm-up + ping-pong: echo */
        void *p = xrecv(l, chan, &got);
        xsend(l, chan, p, got);
        xrelease(chan, p);
    }
    uint64_t idle0 = mcapix_stats()->idle_cycles, t0 = cpu_cycles();
    for (uint32_t i = 0; i < LOGP_N; ++i) {
        void *p = xrecv(l, chan, &got);
        if (got != size)
            die("stream size", MCAPI_ERR_GENERAL);
        xrelease(chan, p);
    }
    uint64_t t1 = cpu_cycles(), idle = mcapix_stats()->idle_cycles - idle0;
    uint32_t orr = (uint32_t)((t1 - t0 - idle) / LOGP_N);
    mark(EV_OR, cfg, orr);
    xsend(l, chan, &orr, 4);
}

/* The configurations of this run (tile.arg, 0 = all): bits 0..3 log2(size), bits 4..5 the mode + 1
 * (message, channel), bits 8..11 the path + 1, bits 12..13 the partner + 1 (neighbour, far); a
 * field 0: all. A claim measures one configuration per simulation. */
static int in_run(uint32_t partner, int chan, uint32_t path, uint32_t lg)
{
    const uint32_t a = tile_arg(), s = a & 15u, m = (a >> 4) & 3u, p = (a >> 8) & 15u,
                   d = (a >> 12) & 3u;
    return (s == 0 || s == lg) && (m == 0 || m == (uint32_t)chan + 1) &&
           (p == 0 || p == path + 1) && (d == 0 || d == partner + 1);
}

int main(void)
{
    uint32_t tiles = tile_mesh_width() * tile_mesh_height(), me = tile_id();
    uint32_t partners[2] = {1, tiles - 1};
    if (tile_core_id() != 0 || tiles < 2)
        return 0;
    uint32_t npart = tiles > 2 ? 2 : 1, d = 2;
    for (uint32_t i = 0; i < npart; ++i)
        if (partners[i] == me)
            d = i;
    if (me != 0 && d == 2)
        return 0;
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = MP_PATH_BUFFER};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS)
        die("initialize", st);
    mcapix_endpoint_attributes_t a = {
        .capacity_log2 = 3, .max_msg_log2 = LOGP_MAX_LOG2, .send_capacity_log2 = SEND_CAP_LOG2};
    mcapix_endpoint_create(1, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    static struct link links[2];
    if (me == 0) {
        sim_mark((uint32_t)EV_PARAM << 28 | LOGP_PP << 10 | LOGP_N);
        printf("mp_logp: %u round trips, %u streamed messages per point, sizes 4..%u B, "
               "%s receive of channel packets\n",
               (unsigned)LOGP_PP, (unsigned)LOGP_N, 1u << LOGP_MAX_LOG2, RECV_KIND);
        for (uint32_t i = 0; i < npart; ++i) {
            /* create every port first, so that the partners' lookups and connects find them */
            mcapix_endpoint_create(2 + 2 * i, &a, &st);
            mcapix_endpoint_create(3 + 2 * i, &a, &st);
        }
    }
    for (uint32_t i = 0; i < npart; ++i) {
        if (me != 0 && i != d)
            continue;
        struct link *l = &links[i];
        if (me == 0) {
            /* ports 2+2i and 3+2i exist already: look them up as local endpoints */
            mcapi_endpoint_t eout = mcapi_endpoint_get(MCAPI_DOMAIN, 0, 2 + 2 * i, 0, &st);
            mcapi_endpoint_t ein = mcapi_endpoint_get(MCAPI_DOMAIN, 0, 3 + 2 * i, 0, &st);
            mcapi_request_t r;
            l->msg_me = mcapi_endpoint_get(MCAPI_DOMAIN, 0, 1, 0, &st);
            l->msg_peer =
                mcapi_endpoint_get(MCAPI_DOMAIN, partners[i], 1, MCAPI_TIMEOUT_INFINITE, &st);
            mcapi_endpoint_t pin =
                mcapi_endpoint_get(MCAPI_DOMAIN, partners[i], 2, MCAPI_TIMEOUT_INFINITE, &st);
            l->eout = eout;
            mcapi_pktchan_connect_i(eout, pin, &r, &st);
            wait_req(&r, "connect");
            mcapi_pktchan_send_open_i(&l->tx, eout, &r, &st);
            wait_req(&r, "send_open");
            mcapi_pktchan_recv_open_i(&l->rx, ein, &r, &st);
            wait_req(&r, "recv_open");
        } else {
            l->msg_me = mcapi_endpoint_get(MCAPI_DOMAIN, me, 1, 0, &st);
            setup(l, 0, 0, d);
        }
        for (int chan = 0; chan < 2; ++chan)
            for (uint32_t path = 0; path < 3; ++path) {
#ifdef MP_TRANSPORT_NAMP
                if (!supported(chan, path))
                    continue;
                mcapix_endpoint_set_send_mode(chan ? l->eout : l->msg_me, path, &st);
                if (st != MCAPI_SUCCESS)
                    die("set_send_mode", st);
#else
                mcapix_set_data_path(path);
#endif
                for (uint32_t lg = 2; lg <= LOGP_MAX_LOG2; ++lg) {
                    if (!in_run(i, chan, path, lg))
                        continue;
                    if (me == 0)
                        initiator_run(l, i, partners[i], chan, path, lg);
                    else
                        partner_run(l, i, chan, path, lg);
                }
#ifdef MP_TRANSPORT_NAMP
                /* back to unbuffered: a CCM slot left behind polls its empty send buffer and
                 * would take engine and bus time from the next rows' measurements */
                mcapix_endpoint_set_send_mode(chan ? l->eout : l->msg_me, 0, &st);
                if (st != MCAPI_SUCCESS)
                    die("set_send_mode", st);
#endif
            }
    }
    if (me == 0)
        printf("mp_logp done\n");
    return 0;
}
