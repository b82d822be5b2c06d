/* End-to-end test of the message-passing library: tile 0 sends MP_E2E_COUNT messages of varying
 * size (1 .. 1024 bytes, unaligned buffers too) to the last tile of the mesh, connection-less
 * (MP_E2E_CHANNEL=0) or over a packet channel (1), on the data path MP_DEFAULT_DATA_PATH. The
 * receiver has a small buffer (4 x 1 KiB) so that NACK/back-off and credit return are exercised,
 * and checks every payload byte and the order. Prints "mp_e2e ok" and exits 0. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "na/na.h"
#include "payload.h"

#ifndef MP_E2E_CHANNEL
#define MP_E2E_CHANNEL 0
#endif
#ifndef MP_E2E_COUNT
#define MP_E2E_COUNT 40u
#endif
/* NAMP transport: sending endpoint mode (enum mp_send_mode; buffered and CCM need a send buffer) */
#ifndef MP_E2E_SEND_MODE
#define MP_E2E_SEND_MODE MP_SEND_UNBUFFERED
#endif
#define PORT_RX 1u
#define PORT_TX 2u

static uint8_t txbuf[3][1024 + 4] __attribute__((aligned(8)));
#if !MP_E2E_CHANNEL
static uint8_t rxbuf[1024] __attribute__((aligned(8)));
#endif

static uint32_t msg_size(uint32_t seq) { return seq == 0 ? 1024u : 1u + (seq * 97u) % 1024u; }

#define CHECK(st, what)                                                    \
    do {                                                                   \
        if ((st) != MCAPI_SUCCESS) {                                       \
            printf("mp_e2e FAIL: %s: %s\n", what, mcapix_status_name(st)); \
            return 1;                                                      \
        }                                                                  \
    } while (0)

static int sender(uint32_t rx_node)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 1,
                                      .max_msg_log2 = 10,
                                      .send_capacity_log2 = MP_E2E_SEND_MODE ? 2u : 0u,
                                      .send_mode = MP_E2E_SEND_MODE};
    mcapi_endpoint_t me = mcapix_endpoint_create(PORT_TX, &a, &st);
    CHECK(st, "endpoint_create");
    mcapi_endpoint_t peer =
        mcapi_endpoint_get(MCAPI_DOMAIN, rx_node, PORT_RX, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "endpoint_get");
#if MP_E2E_CHANNEL
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_send_hndl_t h;
    mcapi_pktchan_connect_i(me, peer, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "pktchan_connect");
    mcapi_pktchan_send_open_i(&h, me, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "pktchan_send_open");
#endif
    /* first half blocking, second half non-blocking with up to 3 sends in flight (more than the
     * adapter's 2 DMA slots), completed in turn by mcapi_wait_any / mcapi_wait */
    mcapi_request_t reqs[3], *rp[3] = {&reqs[0], &reqs[1], &reqs[2]};
    int busy[3] = {0, 0, 0};
    for (uint32_t seq = 0; seq < MP_E2E_COUNT; ++seq) {
        uint32_t size = msg_size(seq);
        uint32_t k = seq % 3u;
        uint8_t *p = txbuf[k] + (seq & 3u); /* unaligned sources too */
        size_t done;
        if (busy[k]) { /* this buffer's previous send must be over */
            mcapi_wait(rp[k], &done, MCAPI_TIMEOUT_INFINITE, &st);
            CHECK(st, "wait for send");
            busy[k] = 0;
        }
        payload_fill(p, size, 0, seq);
        if (seq < MP_E2E_COUNT / 2) {
#if MP_E2E_CHANNEL
            mcapi_pktchan_send(h, p, size, &st);
            CHECK(st, "pktchan_send");
#else
            mcapi_msg_send(me, peer, p, size, 0, &st);
            CHECK(st, "msg_send");
#endif
            continue;
        }
#if MP_E2E_CHANNEL
        mcapi_pktchan_send_i(h, p, size, rp[k], &st);
#else
        mcapi_msg_send_i(me, peer, p, size, 0, rp[k], &st);
#endif
        if (st != MCAPI_PENDING)
            CHECK(st, "send_i");
        busy[k] = 1;
        if (seq % 5u == 0) { /* sometimes wait for whichever finishes first */
            mcapi_uint_t i = mcapi_wait_any(3, rp, &done, MCAPI_TIMEOUT_INFINITE, &st);
            CHECK(st, "wait_any");
            if (i < 3)
                busy[i] = 0;
            rp[i]->state = 0; /* consumed: wait_any skips it now */
        }
    }
    for (uint32_t k = 0; k < 3; ++k)
        if (busy[k]) {
            size_t done;
            mcapi_wait(rp[k], &done, MCAPI_TIMEOUT_INFINITE, &st);
            CHECK(st, "final wait");
        }
    const volatile mp_stats_t *s = mcapix_stats();
    printf("mp_e2e sender done: %u messages, %u nacks, %u packets\n", (unsigned)MP_E2E_COUNT,
           (unsigned)s->nacks, (unsigned)s->packets_tx);
    return 0;
}

static int receiver(void)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {
        .capacity_log2 = 2, .max_msg_log2 = 10, .send_capacity_log2 = 0};
    mcapi_endpoint_t me = mcapix_endpoint_create(PORT_RX, &a, &st);
    CHECK(st, "endpoint_create");
#if MP_E2E_CHANNEL
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_recv_hndl_t h;
    mcapi_pktchan_recv_open_i(&h, me, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "pktchan_recv_open");
#endif
    uint32_t sum = 0;
    for (uint32_t seq = 0; seq < MP_E2E_COUNT; ++seq) {
        size_t got;
        const uint8_t *p;
#if MP_E2E_CHANNEL
        void *buf;
        if (seq & 1u) { /* blocking and non-blocking receive */
            mcapi_pktchan_recv(h, &buf, &got, &st);
        } else {
            mcapi_pktchan_recv_i(h, &buf, &r, &st);
            mcapi_wait(&r, &got, MCAPI_TIMEOUT_INFINITE, &st);
        }
        CHECK(st, "pktchan_recv");
        p = buf;
#else
        if (seq & 1u) {
            mcapi_msg_recv(me, rxbuf, sizeof rxbuf, &got, &st);
        } else {
            mcapi_request_t r;
            mcapi_msg_recv_i(me, rxbuf, sizeof rxbuf, &r, &st);
            mcapi_wait(&r, &got, MCAPI_TIMEOUT_INFINITE, &st);
        }
        CHECK(st, "msg_recv");
        p = rxbuf;
#endif
        if (got != msg_size(seq) || payload_check(p, got, 0, seq)) {
            printf("mp_e2e FAIL: message %u: size %u (want %u), payload %s\n", (unsigned)seq,
                   (unsigned)got, (unsigned)msg_size(seq),
                   payload_check(p, got, 0, seq) ? "corrupt" : "ok");
            return 1;
        }
        for (size_t i = 0; i < got; ++i)
            sum = sum * 31u + p[i];
#if MP_E2E_CHANNEL
        mcapi_pktchan_release(buf, &st);
        CHECK(st, "pktchan_release");
#endif
    }
    printf("mp_e2e ok: %s, path %u, mode %u, %u messages intact and in order, checksum 0x%08x\n",
           MP_E2E_CHANNEL ? "channel" : "messages", (unsigned)mcapix_get_data_path(),
           (unsigned)MP_E2E_SEND_MODE, (unsigned)MP_E2E_COUNT, (unsigned)sum);
    return 0;
}

int main(void)
{
    uint32_t tiles = tile_mesh_width() * tile_mesh_height();
    uint32_t me = tile_id(), rx = tiles - 1u;
    if (tile_core_id() != 0 || (me != 0 && me != rx) || tiles < 2)
        return 0;
#ifdef MP_TRANSPORT_NAMP
    if (na_namp_slots() == 0) {
        printf("FAIL: no NAMP in this configuration\n");
        return 1;
    }
#endif
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = MP_DEFAULT_DATA_PATH};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    CHECK(st, "initialize");
    int rc = me == rx ? receiver() : sender(rx);
    mcapi_finalize(&st);
    return rc;
}
