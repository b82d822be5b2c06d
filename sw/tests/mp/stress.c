/* Stress test: 4 sender tiles send MP_STRESS_COUNT connection-less messages of random size
 * (0 .. 512 bytes) each into one endpoint of tile 0 with a 2-slot receive buffer, so allocations
 * are refused often. The senders use different data paths (buffer, RMA, RDMA, buffer). Tile 0
 * checks that every message arrives exactly once, intact and in order per sender. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "payload.h"
#include "stress_roles.h"

#ifndef MP_STRESS_COUNT
#define MP_STRESS_COUNT 150u
#endif
static uint8_t buf[512 + 8] __attribute__((aligned(8)));

int main(void)
{
    uint32_t me = tile_id(), idx = stress_role();
    if (idx == STRESS_IDLE)
        return 0;
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = stress_data_path(idx)};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    if (me == 0) {
        mcapix_endpoint_attributes_t a = {.capacity_log2 = 1, .max_msg_log2 = 9};
        mcapi_endpoint_t ep = mcapix_endpoint_create(1, &a, &st);
        uint32_t next[NSEND] = {0}, rng[NSEND], total = 0;
        for (uint32_t i = 0; i < NSEND; ++i)
            rng[i] = senders[i];
        while (total < NSEND * MP_STRESS_COUNT) {
            size_t got;
            mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
            if (st != MCAPI_SUCCESS) {
                printf("stress FAIL: recv %s\n", mcapix_status_name(st));
                return 1;
            }
            uint32_t s = 0, q = 0;
            if (got < 8) {
                printf("stress FAIL: short message (%u bytes)\n", (unsigned)got);
                return 1;
            }
            __builtin_memcpy(&s, buf, 4);
            __builtin_memcpy(&q, buf + 4, 4);
            uint32_t k = NSEND;
            for (uint32_t i = 0; i < NSEND; ++i)
                if (senders[i] == s)
                    k = i;
            if (k == NSEND || q != next[k]) {
                printf("stress FAIL: from %u seq %u, expected seq %u\n", (unsigned)s, (unsigned)q,
                       k < NSEND ? (unsigned)next[k] : 0u);
                return 1;
            }
            uint32_t want = 8u + lcg(&rng[k]) % 505u;
            if (got != want || payload_check(buf, got, s, q)) {
                printf("stress FAIL: from %u seq %u size %u (want %u) corrupt\n", (unsigned)s,
                       (unsigned)q, (unsigned)got, (unsigned)want);
                return 1;
            }
            next[k]++;
            total++;
        }
        printf("stress ok: %u messages from %u senders, each exactly once, intact, in order\n",
               (unsigned)total, (unsigned)NSEND);
        return 0;
    }
    mcapi_endpoint_t mine = mcapi_endpoint_create(2, &st);
    mcapi_endpoint_t dst = mcapi_endpoint_get(MCAPI_DOMAIN, 0, 1, MCAPI_TIMEOUT_INFINITE, &st);
    uint32_t rng = me;
    for (uint32_t q = 0; q < MP_STRESS_COUNT; ++q) {
        uint32_t size = 8u + lcg(&rng) % 505u;
        payload_fill(buf, size, me, q);
        mcapi_msg_send(mine, dst, buf, size, 0, &st);
        if (st != MCAPI_SUCCESS) {
            printf("stress FAIL: send %s\n", mcapix_status_name(st));
            return 1;
        }
    }
    printf("stress sender %u done (path %u): %u nacks\n", (unsigned)me,
           (unsigned)mcapix_get_data_path(), (unsigned)mcapix_stats()->nacks);
    return 0;
}
