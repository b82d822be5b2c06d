/* Channel stress test: tiles 3, 5, 12 and 15 each connect a packet channel (2-slot receive buffer,
 * so a credit returns after every release) to their own endpoint on tile 0 and send
 * MP_STRESS_COUNT packets of random size (8 .. 512 bytes) on the data paths buffer, RMA, RDMA,
 * buffer. Tile 0 keeps a non-blocking receive posted on all four channels, takes whichever
 * completes (mcapi_wait_any), checks the payload and the order, releases the slot (zero copy) and
 * posts the next receive. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "payload.h"
#include "stress_roles.h"

#ifndef MP_STRESS_COUNT
#define MP_STRESS_COUNT 150u
#endif
static uint8_t buf[512 + 8] __attribute__((aligned(8)));

#define CHECK(st, what)                                                    \
    do {                                                                   \
        if ((st) != MCAPI_SUCCESS) {                                       \
            printf("stress FAIL: %s: %s\n", what, mcapix_status_name(st)); \
            return 1;                                                      \
        }                                                                  \
    } while (0)

static int receiver(void)
{
    mcapi_status_t st;
    mcapi_request_t req[NSEND], *rp[NSEND];
    mcapi_pktchan_recv_hndl_t h[NSEND];
    void *data[NSEND];
    uint32_t next[NSEND] = {0}, rng[NSEND], total = 0;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 1, .max_msg_log2 = 9};
    for (uint32_t i = 0; i < NSEND; ++i) {
        mcapi_endpoint_t ep = mcapix_endpoint_create(10 + i, &a, &st);
        CHECK(st, "endpoint_create");
        size_t sz;
        mcapi_pktchan_recv_open_i(&h[i], ep, &req[i], &st);
        mcapi_wait(&req[i], &sz, MCAPI_TIMEOUT_INFINITE, &st);
        CHECK(st, "recv_open");
        rng[i] = senders[i];
    }
    for (uint32_t i = 0; i < NSEND; ++i) {
        rp[i] = &req[i];
        mcapi_pktchan_recv_i(h[i], &data[i], &req[i], &st);
    }
    while (total < NSEND * MP_STRESS_COUNT) {
        size_t got;
        mcapi_uint_t k = mcapi_wait_any(NSEND, rp, &got, MCAPI_TIMEOUT_INFINITE, &st);
        CHECK(st, "wait_any");
        uint32_t want = 8u + lcg(&rng[k]) % 505u;
        if (got != want || payload_check(data[k], got, senders[k], next[k])) {
            printf("stress FAIL: channel from %u packet %u: size %u (want %u) %s\n",
                   (unsigned)senders[k], (unsigned)next[k], (unsigned)got, (unsigned)want,
                   payload_check(data[k], got, senders[k], next[k]) ? "corrupt/out of order" : "");
            return 1;
        }
        mcapi_pktchan_release(data[k], &st);
        CHECK(st, "release");
        next[k]++;
        total++;
        if (next[k] < MP_STRESS_COUNT)
            mcapi_pktchan_recv_i(h[k], &data[k], &req[k], &st);
        else
            req[k].state = 0; /* this channel is finished: wait_any skips it */
    }
    printf("stress ok: %u packets on %u channels, each exactly once, intact, in order\n",
           (unsigned)total, (unsigned)NSEND);
    return 0;
}

static int sender(uint32_t idx)
{
    mcapi_status_t st;
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_send_hndl_t h;
    uint32_t me = tile_id(), rng = me;
    mcapi_endpoint_t mine = mcapi_endpoint_create(2, &st);
    CHECK(st, "endpoint_create");
    mcapi_endpoint_t dst =
        mcapi_endpoint_get(MCAPI_DOMAIN, 0, 10 + idx, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "endpoint_get");
    mcapi_pktchan_connect_i(mine, dst, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "connect");
    mcapi_pktchan_send_open_i(&h, mine, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "send_open");
    for (uint32_t q = 0; q < MP_STRESS_COUNT; ++q) {
        uint32_t size = 8u + lcg(&rng) % 505u;
        payload_fill(buf, size, me, q);
        mcapi_pktchan_send(h, buf, size, &st);
        CHECK(st, "pktchan_send");
    }
    printf("stress sender %u done (path %u)\n", (unsigned)me, (unsigned)mcapix_get_data_path());
    return 0;
}

int main(void)
{
    uint32_t me = tile_id(), idx = stress_role();
    if (idx == STRESS_IDLE)
        return 0;
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = stress_data_path(idx)};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    CHECK(st, "initialize");
    return me == 0 ? receiver() : sender(idx);
}
