/* Multicast benchmark (thesis Fig. 3.21): sender overhead o_s and gap g of one multicast against
 * the number of destinations N = 1..15, software against NAMP-CC, with identical application code
 * (mcapix_cc_set_path switches the path): "sw" the blocking loop (one mcapi_msg_send per member),
 * "post" the members' sends posted one after the other as MCAPI non-blocking sends, then waited
 * for, "hw" NAMP-CC (mcapix_mcast_send); and at the driver level, as the thesis' model counts
 * (Fig. 3.20, 3.21): "drv" the thesis' software multicast (one slot per member programmed one
 * after the other on the NAMP, the transfers overlapping, then every completion taken), "drvcc"
 * one collective slot on the group's descriptor, its member list set up once with the group (3.3.2:
 * the collective data structure is "created and configure[d] at connection setup"), "drvccl" the
 * same with the member list written into the descriptor at every send (shown beside it). The
 * driver-level paths also report the sleeps of their completion waits (per 1000 sends) and, as
 * os_late, o_s of K more sends whose completions are waited for, uncounted, before the core looks
 * (the send without the sleep-and-wake pass, drv_wait.h). tile.arg, when not 0, is a bitmask of
 * the N to measure (bit N; the claim tests run a few). Tile 0 sends
 * CCB_K + 1 multicasts per (path, N, size) to tiles 1..N (the first one warms up); o_s counts the
 * cycles the core is awake in mcapix_mcast_send (wfi sleep not counted), g the interval between
 * consecutive sends. The members check every message. Console: one "ccbench mcast" line per
 * configuration and one "ccbench create" line per N (cycles of mcapix_mcast_create, which sets
 * up the descriptor's member list once); scripts/cc-bench
 * turns them into tables and plots. */
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "cc_app.h"
#include "../../tests/mp/payload.h"
#ifndef CCB_RDMA
#include "namp/namp.h"
#include "drv_wait.h"
#endif
#include "namp_cc.h"

#define CCB_K   8u
#define NMAX    15u
#define PORT_RX 1u
#define PORT_TX 2u
static const uint32_t sizes[] = {4u, 256u, 2048u};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define NPATHS 6u
enum { P_SW, P_HW, P_POST, P_DRV, P_DRVCC, P_DRVCCL };
static const char *const path_names[NPATHS] = {"sw", "hw", "post", "drv", "drvcc", "drvccl"};
static const uint32_t path_modes[NPATHS] = {MCAPIX_CC_SOFTWARE,        MCAPIX_CC_AUTO,
                                            MCAPIX_CC_SOFTWARE_POSTED, MCAPIX_CC_SOFTWARE,
                                            MCAPIX_CC_SOFTWARE,        MCAPIX_CC_SOFTWARE};

/* the N of this run (tile.arg: bitmask, 0 = all) */
/* The configurations of this run (tile.arg, 0 = all): bits 0..15 the N (bit N), bits 16..19 the
 * path + 1, bits 20..23 the size index + 1 (0: all). The claims run one configuration per
 * simulation, so that none inherits the state another left behind. */
static int measured(uint32_t n)
{
    uint32_t m = tile_arg() & 0xFFFFu;
    return m == 0 || (m >> n & 1u);
}
static int path_here(uint32_t path); /* the paths this firmware has */
static int in_run(uint32_t path, uint32_t n, uint32_t si)
{
    const uint32_t p = (tile_arg() >> 16) & 15u, s = (tile_arg() >> 20) & 15u;
    return path_here(path) && measured(n) && (p == 0 || p == path + 1) && (s == 0 || s == si + 1);
}

static uint8_t buf[2048] __attribute__((aligned(8)));
static mcapix_mcast_group_t groups[NMAX];

#define die(what, st) cc_app_die("ccbench", what, st)

#define HANDLE_WORD(i) ((NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE) / 4u)
#ifdef CCB_RDMA
/* namp_cc_bench_rdma: the same benchmark over the baseline adapter's RDMA transport (mp_rdma), the
 * thesis' software multicast "on this baseline" (abstract): only the MCAPI software paths */
static int path_here(uint32_t path) { return path == P_SW || path == P_POST; }
static volatile uint64_t drv_idle; /* no driver-level path here */
static volatile uint32_t drv_waits;
static volatile int drv_look_late;
static void drv_send(uint32_t path, mcapix_mcast_group_t *g, uint32_t n, const void *b,
                     uint32_t size, const uint32_t *handles)
{
    (void)path, (void)g, (void)n, (void)b, (void)size, (void)handles;
}
#else
static int path_here(uint32_t path)
{
    (void)path;
    return 1;
}

/* The thesis' software multicast at the driver level: one slot per member, programmed one after
 * the other (when no slot is free, the first one done is finished), then every completion. The
 * member handles are the group's (the descriptor's member table). Not inlined: the MCAPI paths'
 * loop must not pay its register saves. */
__attribute__((noinline)) static void drv_mcast(const mcapix_mcast_group_t *g, uint32_t n,
                                                const void *b, uint32_t size)
{
    uint32_t running = 0;
    for (uint32_t i = 0; i < n; ++i) {
        int s;
        while ((s = namp_slot_alloc()) < 0)
            running = drv_finish(running, (uint32_t)__builtin_popcount(running) - 1u);
        namp_slot_start((unsigned)s, NAMP_F_IEN, g->desc[HANDLE_WORD(i)], (uint32_t)(uintptr_t)b,
                        size);
        running |= 1u << s;
    }
    drv_finish(running, 0);
}

/* One collective slot on the group's descriptor; with list = 1 the member list is written into
 * the descriptor first, as the thesis' hardware multicast is configured per send. */
__attribute__((noinline)) static void drv_cc(mcapix_mcast_group_t *g, uint32_t n, const void *b,
                                             uint32_t size, int list, const uint32_t *handles)
{
    if (list)
        for (uint32_t i = 0; i < n; ++i)
            g->desc[HANDLE_WORD(i)] = handles[i];
    int s;
    while ((s = namp_slot_alloc()) < 0)
        ;
    namp_slot_start((unsigned)s, NAMP_FLAG_CC | NAMP_F_IEN, (uint32_t)(uintptr_t)g->desc,
                    (uint32_t)(uintptr_t)b, size);
    drv_finish(1u << s, 0);
}

static void drv_send(uint32_t path, mcapix_mcast_group_t *g, uint32_t n, const void *b,
                     uint32_t size, const uint32_t *handles)
{
    if (path == P_DRV)
        drv_mcast(g, n, b, size);
    else
        drv_cc(g, n, b, size, path == P_DRVCCL, handles);
}

#endif

static uint32_t tag(uint32_t path, uint32_t n, uint32_t si) { return (path * 16u + n) * 4u + si; }

static int member(uint32_t me)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 4, .max_msg_log2 = 11};
    mcapi_endpoint_t ep = mcapix_endpoint_create(PORT_RX, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    mcapi_endpoint_t root_ep =
        mcapi_endpoint_get(MCAPI_DOMAIN, 0, PORT_TX, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_get", st);
    uint32_t count = 0;
    for (uint32_t path = 0; path < NPATHS; ++path)
        for (uint32_t n = me; n <= NMAX; ++n)
            for (uint32_t si = 0; si < NSIZES; ++si) {
                if (!in_run(path, n, si))
                    continue;
                /* the driver-level paths send CCB_K more (os_late) */
                const uint32_t sends = CCB_K + 1u + (path >= P_DRV ? CCB_K : 0u);
                for (uint32_t k = 0; k < sends; ++k) {
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
    /* the root's final word: a member measured in no configuration must not end before the
     * root has looked it up (an ended tile answers no look-up) */
    size_t got;
    mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
    if (st != MCAPI_SUCCESS)
        die("final recv", st);
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
        uint64_t t0 = cpu_cycles();
        mcapix_mcast_create(&groups[n - 1], tx, peers, n, &st);
        uint64_t t1 = cpu_cycles();
        if (st != MCAPI_SUCCESS)
            die("mcast_create", st);
        if (measured(n))
            printf("ccbench create n=%u cycles=%u\n", (unsigned)n, (unsigned)(t1 - t0));
    }
    const mcapix_cc_stats_t *cs = mcapix_cc_stats();
    const uint32_t *handles = groups[NMAX - 1].desc; /* every member's handle, in order */
    uint32_t hlist[NMAX];
    for (uint32_t i = 0; i < NMAX; ++i)
        hlist[i] = handles[HANDLE_WORD(i)];
    for (uint32_t path = 0; path < NPATHS; ++path) {
        mcapix_cc_set_path(path_modes[path]);
        for (uint32_t n = 1; n <= NMAX; ++n)
            for (uint32_t si = 0; si < NSIZES; ++si) {
                if (!in_run(path, n, si))
                    continue;
                payload_fill(buf, sizes[si], tag(path, n, si), 0);
                const int drv = path >= P_DRV;
                if (drv) /* warm-up */
                    drv_send(path, &groups[n - 1], n, buf, sizes[si], hlist);
                else
                    mcapix_mcast_send(&groups[n - 1], buf, sizes[si], &st);
                if (st != MCAPI_SUCCESS)
                    die("mcast_send", st);
                uint32_t hw0 = cs->hw_sends;
                const uint32_t waits0 = drv_waits;
                uint64_t idle0 = mcapix_stats()->idle_cycles + drv_idle, t0 = cpu_cycles();
                if (drv) {
                    for (uint32_t k = 0; k < CCB_K; ++k)
                        drv_send(path, &groups[n - 1], n, buf, sizes[si], hlist);
                } else {
                    for (uint32_t k = 0; k < CCB_K; ++k) {
                        mcapix_mcast_send(&groups[n - 1], buf, sizes[si], &st);
                        if (st != MCAPI_SUCCESS)
                            die("mcast_send", st);
                    }
                }
                uint64_t t1 = cpu_cycles();
                uint64_t idle = mcapix_stats()->idle_cycles + drv_idle - idle0;
                uint32_t waits = drv_waits - waits0, os_late = 0;
                if (drv) { /* the same sends, the completions waited for before looking */
                    drv_look_late = 1;
                    uint64_t l0 = drv_idle, l1 = cpu_cycles();
                    for (uint32_t k = 0; k < CCB_K; ++k)
                        drv_send(path, &groups[n - 1], n, buf, sizes[si], hlist);
                    os_late = (uint32_t)((cpu_cycles() - l1 - (drv_idle - l0)) / CCB_K);
                    drv_look_late = 0;
                }
                uint32_t hw = cs->hw_sends - hw0;
                if (hw != (path == P_HW ? CCB_K : 0u)) {
                    printf("ccbench FAIL: path %s took %u hardware sends of %u\n", path_names[path],
                           (unsigned)hw, (unsigned)CCB_K);
                    return 1;
                }
                for (uint32_t i = 0; i < n; ++i) { /* every member has drained its buffer */
                    uint32_t ack;
                    size_t got;
                    mcapi_msg_recv(tx, &ack, sizeof ack, &got, &st);
                    if (st != MCAPI_SUCCESS)
                        die("ack recv", st);
                }
                printf("ccbench mcast path=%s n=%u size=%u os=%u g=%u waits=%u os_late=%u\n",
                       path_names[path], (unsigned)n, (unsigned)sizes[si],
                       (unsigned)((t1 - t0 - idle) / CCB_K), (unsigned)((t1 - t0) / CCB_K),
                       (unsigned)(1000u * waits / CCB_K), (unsigned)os_late);
            }
    }
    for (uint32_t t = 0; t < NMAX; ++t) {
        mcapi_msg_send(tx, peers[t], buf, 4, 0, &st);
        if (st != MCAPI_SUCCESS)
            die("final send", st);
    }
    printf("ccbench done: features=0x%x\n", (unsigned)mcapix_cc_features());
    return 0;
}

int main(void) { return cc_app_run("ccbench", NMAX + 1, root, member); }
