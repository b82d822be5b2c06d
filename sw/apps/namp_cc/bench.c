/* Multicast benchmark (thesis Fig. 3.21): sender overhead o_s and gap g of one multicast against
 * the number of destinations N = 1..15, software loop of point-to-point sends against NAMP-CC,
 * with identical application code (mcapix_cc_set_path switches the path). Tile 0 sends
 * CCB_K + 1 multicasts per (path, N, size) to tiles 1..N (the first one warms up); o_s counts the
 * cycles the core is awake in mcapix_mcast_send (wfi sleep not counted), g the interval between
 * consecutive sends. The members check every message. Console: one "ccbench mcast" line per
 * configuration; scripts/cc-bench turns them into tables and plots. */
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "cc_app.h"
#include "../mp_e2e/payload.h"

#define CCB_K 8u
#define NMAX 15u
#define PORT_RX 1u
#define PORT_TX 2u
static const uint32_t sizes[] = {4u, 256u, 2048u};
#define NSIZES (sizeof sizes / sizeof sizes[0])
static const char *const path_names[] = {"sw", "hw"};

static uint8_t buf[2048] __attribute__((aligned(8)));
static mcapix_mcast_group_t groups[NMAX];

#define die(what, st) cc_app_die("ccbench", what, st)

static uint32_t tag(uint32_t path, uint32_t n, uint32_t si) { return (path * 16u + n) * 4u + si; }

static int member(uint32_t me)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 4, .max_msg_log2 = 11};
    mcapi_endpoint_t ep = mcapix_endpoint_create(PORT_RX, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapi_endpoint_t root_ep = mcapi_endpoint_get(MCAPI_DOMAIN, 0, PORT_TX, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_get", st);
    uint32_t count = 0;
    for (uint32_t path = 0; path < 2; ++path)
        for (uint32_t n = me; n <= NMAX; ++n)
            for (uint32_t si = 0; si < NSIZES; ++si) {
                for (uint32_t k = 0; k <= CCB_K; ++k) {
                    size_t got;
                    mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
                    if (st != MCAPI_SUCCESS)
                        die("msg_recv", st);
                    /* every byte of the small ones; sender and sequence words of the others
                     * (the e2e tests check every byte; here the receiver must keep up) */
                    if (got != sizes[si] ||
                        payload_check(buf, got < 64u ? (uint32_t)got : 8u, tag(path, n, si), 0))
                        die("payload", MCAPI_ERR_GENERAL);
                    count++;
                }
                /* configuration boundary: the root measures the next one with empty buffers */
                mcapi_msg_send(ep, root_ep, &count, 4, 0, &st);
                if (st != MCAPI_SUCCESS)
                    die("ack", st);
            }
    printf("ccbench member %u ok: %u messages\n", (unsigned)me, (unsigned)count);
    return 0;
}

static int root(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t tx = mcapi_endpoint_create(PORT_TX, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapi_endpoint_t peers[NMAX];
    for (uint32_t t = 1; t <= NMAX; ++t) {
        peers[t - 1] = mcapi_endpoint_get(MCAPI_DOMAIN, t, PORT_RX, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
    }
    for (uint32_t n = 1; n <= NMAX; ++n) {
        mcapix_mcast_create(&groups[n - 1], tx, peers, n, &st);
        if (st != MCAPI_SUCCESS)
            die("mcast_create", st);
    }
    const mcapix_cc_stats_t *cs = mcapix_cc_stats();
    for (uint32_t path = 0; path < 2; ++path) {
        mcapix_cc_set_path(path ? MCAPIX_CC_AUTO : MCAPIX_CC_SOFTWARE);
        for (uint32_t n = 1; n <= NMAX; ++n)
            for (uint32_t si = 0; si < NSIZES; ++si) {
                payload_fill(buf, sizes[si], tag(path, n, si), 0);
                mcapix_mcast_send(&groups[n - 1], buf, sizes[si], &st);   /* warm-up */
                if (st != MCAPI_SUCCESS)
                    die("mcast_send", st);
                uint32_t hw0 = cs->hw_sends;
                uint64_t idle0 = mcapix_stats()->idle_cycles, t0 = cpu_cycles();
                for (uint32_t k = 0; k < CCB_K; ++k) {
                    mcapix_mcast_send(&groups[n - 1], buf, sizes[si], &st);
                    if (st != MCAPI_SUCCESS)
                        die("mcast_send", st);
                }
                uint64_t t1 = cpu_cycles(), idle = mcapix_stats()->idle_cycles - idle0;
                uint32_t hw = cs->hw_sends - hw0;
                if (hw != (path ? CCB_K : 0u)) {
                    printf("ccbench FAIL: path %s took %u hardware sends of %u\n", path_names[path],
                           (unsigned)hw, (unsigned)CCB_K);
                    return 1;
                }
                for (uint32_t i = 0; i < n; ++i) {   /* every member has drained its buffer */
                    uint32_t ack;
                    size_t got;
                    mcapi_msg_recv(tx, &ack, sizeof ack, &got, &st);
                    if (st != MCAPI_SUCCESS)
                        die("ack recv", st);
                }
                printf("ccbench mcast path=%s n=%u size=%u os=%u g=%u\n", path_names[path],
                       (unsigned)n, (unsigned)sizes[si], (unsigned)((t1 - t0 - idle) / CCB_K),
                       (unsigned)((t1 - t0) / CCB_K));
            }
    }
    printf("ccbench done: features=0x%x\n", (unsigned)mcapix_cc_features());
    return 0;
}

int main(void) { return cc_app_run("ccbench", NMAX + 1, root, member); }
