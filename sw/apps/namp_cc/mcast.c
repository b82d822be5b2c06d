/* Multicast end-to-end test of the mcapix_ collective calls (mcapix_cc.h) on a 4x4 mesh: tile 0
 * creates one group per size N = 1..15 (members: tiles 1..N) and sends MCAST_ROUNDS messages of
 * random size (0..2048 bytes) to each; every member checks every byte and the order of what it
 * receives. MCAST_CHANNEL=1: the members are packet channels (one per member tile), else
 * connection-less endpoints. The same code runs on NAMP-CC (preset bare), on a NAMP without CC
 * and over the software transport (the software loop). Tile 0 also checks the calls' error paths.
 * Prints "namp_cc mcast ok: ..." with the counts of hardware and software sends. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "cc_app.h"
#include "../../tests/mp/payload.h"

#ifndef MCAST_CHANNEL
#define MCAST_CHANNEL 0
#endif
#ifndef MCAST_ROUNDS
#define MCAST_ROUNDS 2u
#endif
#define PORT_RX      1u
#define PORT_TX      2u
#define PORT_CHAN_TX 100u
#define NMAX         15u
#define MAX_SIZE     2048u

static uint8_t buf[MAX_SIZE + 8] __attribute__((aligned(8)));
#if !MCAST_CHANNEL
static uint8_t rxbuf[MAX_SIZE] __attribute__((aligned(8)));
#endif
static mcapix_mcast_group_t groups[NMAX];
#if !MCAST_CHANNEL
static uint8_t buf2[64] __attribute__((aligned(8)));
#endif

#define CHECK(st, what)                                                          \
    do {                                                                         \
        if ((st) != MCAPI_SUCCESS) {                                             \
            printf("namp_cc FAIL: tile %u: %s: %s\n", (unsigned)tile_id(), what, \
                   mcapix_status_name(st));                                      \
            return 1;                                                            \
        }                                                                        \
    } while (0)
#define EXPECT_ST(st, want, what)                                                    \
    do {                                                                             \
        if ((st) != (want)) {                                                        \
            printf("namp_cc FAIL: %s: %s (want %s)\n", what, mcapix_status_name(st), \
                   mcapix_status_name(want));                                        \
            return 1;                                                                \
        }                                                                            \
        checks++;                                                                    \
    } while (0)

/* size of round r of group N: the same on the root and the members */
static uint32_t msg_size(uint32_t n, uint32_t r)
{
    uint32_t x = n * 0x9E3779B1u + r * 0x7F4A7C15u + 12345u;
    x ^= x >> 13;
    x *= 0x5BD1E995u;
    x ^= x >> 15;
    return (r == 0 && n == NMAX) ? MAX_SIZE : x % (MAX_SIZE + 1u);
}

static int member(uint32_t me)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 2, .max_msg_log2 = 11};
    mcapi_endpoint_t ep = mcapix_endpoint_create(PORT_RX, &a, &st);
    CHECK(st, "endpoint_create");
#if MCAST_CHANNEL
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_recv_hndl_t h;
    mcapi_pktchan_recv_open_i(&h, ep, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "pktchan_recv_open");
#endif
    uint32_t count = 0;
    for (uint32_t n = me; n <= NMAX; ++n)
        for (uint32_t q = 0; q < MCAST_ROUNDS; ++q) {
            size_t got;
            const uint8_t *p;
#if MCAST_CHANNEL
            void *b;
            mcapi_pktchan_recv(h, &b, &got, &st);
            CHECK(st, "pktchan_recv");
            p = b;
#else
            mcapi_msg_recv(ep, rxbuf, sizeof rxbuf, &got, &st);
            CHECK(st, "msg_recv");
            p = rxbuf;
#endif
            if (got != msg_size(n, q) || payload_check(p, (uint32_t)got, n, q)) {
                printf("namp_cc FAIL: member %u: group %u round %u: %u bytes (want %u)%s\n",
                       (unsigned)me, (unsigned)n, (unsigned)q, (unsigned)got,
                       (unsigned)msg_size(n, q), got == msg_size(n, q) ? ", corrupt" : "");
                return 1;
            }
#if MCAST_CHANNEL
            mcapi_pktchan_release(b, &st);
            CHECK(st, "pktchan_release");
#endif
            count++;
        }
#if !MCAST_CHANNEL
    if (me == 1) { /* a non-blocking send, then a multicast: received in call order */
        for (uint32_t k = 0; k < 2; ++k) {
            size_t got;
            mcapi_msg_recv(ep, rxbuf, sizeof rxbuf, &got, &st);
            CHECK(st, "msg_recv (order)");
            if (got != (k ? 50u : 100u) || payload_check(rxbuf, (uint32_t)got, 100 + k, 0)) {
                printf("namp_cc FAIL: member 1: the multicast overtook the non-blocking send\n");
                return 1;
            }
            count++;
        }
    }
#endif
    printf("namp_cc member %u ok: %u messages intact and in order\n", (unsigned)me,
           (unsigned)count);
    return 0;
}

/* the calls' error paths (root, before the run) */
static int bad_paths(mcapi_endpoint_t tx, const mcapi_endpoint_t *peers, unsigned *pchecks)
{
    unsigned checks = 0;
    mcapi_status_t st;
    mcapix_mcast_group_t g;
    mcapi_endpoint_t with_null[2] = {peers[0], 0};
    mcapix_mcast_create(NULL, tx, peers, 1, &st);
    EXPECT_ST(st, MCAPI_ERR_PARAMETER, "create NULL group");
    mcapix_mcast_create(&g, tx, peers, 0, &st);
    EXPECT_ST(st, MCAPI_ERR_PARAMETER, "create 0 members");
    mcapix_mcast_create(&g, tx, peers, MCAPIX_CC_MAX_MEMBERS + 1, &st);
    EXPECT_ST(st, MCAPI_ERR_PARAMETER, "create too many members");
    mcapix_mcast_create(&g, tx, with_null, 2, &st);
    EXPECT_ST(st, MCAPI_ERR_ENDP_INVALID, "create NULL member");
    mcapix_mcast_create(&g, peers[0], peers, 1, &st);
    EXPECT_ST(st, MCAPI_ERR_ENDP_INVALID, "create remote send endpoint");
    mcapix_mcast_send(&g, buf, 4, &st);
    EXPECT_ST(st, MCAPI_ERR_PARAMETER, "send on a group that was not created");
    mcapix_mcast_send(NULL, buf, 4, &st);
    EXPECT_ST(st, MCAPI_ERR_PARAMETER, "send on NULL");
    mcapix_mcast_create_chan(&g, NULL, 1, &st);
    EXPECT_ST(st, MCAPI_ERR_PARAMETER, "create_chan NULL members");
    mcapi_pktchan_send_hndl_t no_chan[1] = {0};
    mcapix_mcast_create_chan(&g, no_chan, 1, &st);
    EXPECT_ST(st, MCAPI_ERR_CHAN_INVALID, "create_chan with a NULL channel");
    mcapix_mcast_create(&g, tx, peers, 1, &st);
    EXPECT_ST(st, MCAPI_SUCCESS, "create");
    mcapix_mcast_send(&g, NULL, 4, &st);
    EXPECT_ST(st, MCAPI_ERR_BUF_INVALID, "send NULL buffer");
    EXPECT_ST(mcapix_mcast_member_status(&g, 1), MCAPI_ERR_PARAMETER, "member status index");
    mcapix_mcast_destroy(&g, &st);
    EXPECT_ST(st, MCAPI_SUCCESS, "destroy");
    mcapix_mcast_send(&g, buf, 4, &st);
    EXPECT_ST(st, MCAPI_ERR_PARAMETER, "send on a destroyed group");
    /* a NULL status pointer: the error goes unreported, the call neither faults nor sends */
    mcapix_mcast_create(NULL, tx, peers, 1, NULL);
    mcapix_mcast_create(&g, tx, with_null, 2, NULL);
    mcapix_mcast_send(&g, buf, 4, NULL);
    mcapix_mcast_send(NULL, buf, 4, NULL);
    mcapix_mcast_create_chan(&g, NULL, 1, NULL);
    mcapix_mcast_destroy(NULL, NULL);
    ++checks; /* reached: none faulted */
    *pchecks = checks;
    return 0;
}

static int root(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t tx = mcapi_endpoint_create(PORT_TX, &st);
    CHECK(st, "endpoint_create");
    mcapi_endpoint_t peers[NMAX];
    for (uint32_t t = 1; t <= NMAX; ++t) {
        peers[t - 1] = mcapi_endpoint_get(MCAPI_DOMAIN, t, PORT_RX, MCAPI_TIMEOUT_INFINITE, &st);
        CHECK(st, "endpoint_get");
    }
    unsigned checks = 0;
    if (bad_paths(tx, peers, &checks))
        return 1;
#if MCAST_CHANNEL
    mcapi_pktchan_send_hndl_t chans[NMAX];
    for (uint32_t t = 1; t <= NMAX; ++t) {
        mcapi_request_t r;
        size_t sz;
        mcapi_endpoint_t s = mcapi_endpoint_create(PORT_CHAN_TX + t, &st);
        CHECK(st, "endpoint_create (channel)");
        mcapi_pktchan_connect_i(s, peers[t - 1], &r, &st);
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        CHECK(st, "pktchan_connect");
        mcapi_pktchan_send_open_i(&chans[t - 1], s, &r, &st);
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        CHECK(st, "pktchan_send_open");
    }
#endif
    /* groups are set up once, at connection time */
    for (uint32_t n = 1; n <= NMAX; ++n) {
#if MCAST_CHANNEL
        mcapix_mcast_create_chan(&groups[n - 1], chans, n, &st);
#else
        mcapix_mcast_create(&groups[n - 1], tx, peers, n, &st);
#endif
        CHECK(st, "mcast_create");
    }
    for (uint32_t n = 1; n <= NMAX; ++n)
        for (uint32_t q = 0; q < MCAST_ROUNDS; ++q) {
            uint32_t size = msg_size(n, q);
            payload_fill(buf, size, n, q);
            mcapix_mcast_send(&groups[n - 1], buf, size, &st);
            CHECK(st, "mcast_send");
            for (uint32_t i = 0; i < n; ++i)
                CHECK(mcapix_mcast_member_status(&groups[n - 1], i), "member status");
        }
#if !MCAST_CHANNEL
    /* decision (docs/message-passing.md): while a non-blocking send is under way a multicast
     * takes the software loop, so it cannot overtake that send */
    {
        mcapi_request_t req;
        size_t sz;
        payload_fill(buf, 100, 100, 0);
        mcapi_msg_send_i(tx, peers[0], buf, 100, 0, &req, &st);
        if (st != MCAPI_PENDING && st != MCAPI_SUCCESS)
            CHECK(st, "msg_send_i");
        uint32_t sw0 = mcapix_cc_stats()->sw_sends;
        payload_fill(buf2, 50, 101, 0);
        mcapix_mcast_send(&groups[0], buf2, 50, &st);
        CHECK(st, "mcast_send after send_i");
        mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        CHECK(st, "wait send_i");
        if (mcapix_cc_stats()->sw_sends != sw0 + 1) {
            printf("namp_cc FAIL: the multicast did not fall back to the software loop\n");
            return 1;
        }
        checks++;
    }
#endif
    const mcapix_cc_stats_t *s = mcapix_cc_stats();
    printf("namp_cc mcast ok: %s, 15 groups x %u rounds, hw=%u sw=%u features=0x%x, %u checks\n",
           MCAST_CHANNEL ? "channels" : "messages", (unsigned)MCAST_ROUNDS, (unsigned)s->hw_sends,
           (unsigned)s->sw_sends, (unsigned)mcapix_cc_features(), checks);
    return 0;
}

int main(void) { return cc_app_run("namp_cc", NMAX + 1, root, member); }
