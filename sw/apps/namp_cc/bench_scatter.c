/* Scatter benchmark (thesis Fig. 3.23): sender overhead o_s and gap g of one scatter against the
 * number of destinations N = 1..15, software (copy the chunks, one channel send per member: "sw"
 * blocking, member after member; "post" the sends posted as non-blocking sends, the thesis'
 * software scatter) against NAMP-CC ("hw": the DMA generates the chunk addresses), identical
 * application code; "drvcc" starts the group's collective slot at the driver level (what the
 * thesis' model counts: one configuration, without the library's per-member channel turns);
 * tile.arg, when not 0, is a bitmask of the N to measure. Data set:
 * 4 rows of N x s bytes; member i receives column block i (s bytes) of every row, 4 s bytes, for
 * s = 1, 64, 512. Method as bench.c (8 measured sends after a warm-up, members acknowledge each
 * configuration). The driver-level path also reports the sleeps of its completion wait (per
 * 1000 sends) and, as os_late, o_s of K more sends whose completion is waited for, uncounted,
 * before the core looks (drv_wait.h). Console: "ccbench scatter" lines (scripts/cc-bench). */
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "cc_app.h"
#include "namp/namp.h"
#include "drv_wait.h"

#define K            8u
#define NMAX         15u
#define ROWS         4u
#define PORT_RX      1u
#define PORT_ACK     2u
#define PORT_TX      3u
#define PORT_CHAN_TX 100u
static const uint32_t chunks[] = {1u, 64u, 512u};
#define NSIZES (sizeof chunks / sizeof chunks[0])

static uint8_t data[ROWS * NMAX * 512] __attribute__((aligned(8)));
static mcapix_mcast_group_t groups[NMAX][NSIZES];
#define NPATHS 4u
enum { P_SW, P_HW, P_POST, P_DRVCC };
static const char *const path_names[NPATHS] = {"sw", "hw", "post", "drvcc"};
static const uint32_t path_modes[NPATHS] = {MCAPIX_CC_SOFTWARE, MCAPIX_CC_AUTO,
                                            MCAPIX_CC_SOFTWARE_POSTED, MCAPIX_CC_AUTO};

/* The group's collective slot started and finished at the driver level (the channels' credits
 * are taken by the adapter, as for the library's hardware path). Not inlined: the MCAPI paths'
 * loop must not pay its register saves. */
__attribute__((noinline)) static void drv_scatter(const mcapix_mcast_group_t *g, const void *d,
                                                  uint32_t size)
{
    int s;
    while ((s = namp_slot_alloc()) < 0)
        ;
    namp_slot_start((unsigned)s, NAMP_FLAG_CC | NAMP_F_CON | NAMP_F_IEN,
                    (uint32_t)(uintptr_t)g->desc, (uint32_t)(uintptr_t)d, size);
    const uint64_t slept = drv_idle;
    uint32_t e;
    if (drv_look_late) { /* finished before interrupts are on again: no DONE trap */
        uint32_t saved = irq_global_disable();
        drv_await(1u << s);
        e = namp_slot_wait_wfi((unsigned)s, NULL);
        irq_global_restore(saved);
    } else {
        e = namp_slot_wait_wfi((unsigned)s, &drv_idle);
        if (drv_idle != slept)
            drv_waits++;
    }
    namp_slot_free((unsigned)s);
    if (e) {
        printf("ccbench FAIL: driver-level scatter: %s\n", namp_error_name(e));
        exit(1);
    }
}
/* The configurations of this run (tile.arg, 0 = all): bits 0..15 the N (bit N), bits 16..19 the
 * path + 1, bits 20..23 the size index + 1 (0: all). The claims run one configuration per
 * simulation, so that none inherits the state another left behind. */
static int measured(uint32_t n)
{
    uint32_t m = tile_arg() & 0xFFFFu;
    return m == 0 || (m >> n & 1u);
}
static int in_run(uint32_t path, uint32_t n, uint32_t si)
{
    const uint32_t p = (tile_arg() >> 16) & 15u, s = (tile_arg() >> 20) & 15u;
    return measured(n) && (p == 0 || p == path + 1) && (s == 0 || s == si + 1);
}

#define die(what, st) cc_app_die("ccbench", what, st)

static int member(uint32_t me)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 4, .max_msg_log2 = 11};
    mcapi_endpoint_t ep = mcapix_endpoint_create(PORT_RX, &a, &st);
    mcapi_endpoint_t tx = mcapi_endpoint_create(PORT_TX, &st);
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_recv_hndl_t h;
    mcapi_pktchan_recv_open_i(&h, ep, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        die("recv_open", st);
    mcapi_endpoint_t ack =
        mcapi_endpoint_get(MCAPI_DOMAIN, 0, PORT_ACK, MCAPI_TIMEOUT_INFINITE, &st);
    for (uint32_t path = 0; path < NPATHS; ++path)
        for (uint32_t n = me; n <= NMAX; ++n)
            for (uint32_t si = 0; si < NSIZES; ++si) {
                if (!in_run(path, n, si))
                    continue;
                /* the driver-level path sends K more (os_late) */
                const uint32_t sends = K + 1u + (path == P_DRVCC ? K : 0u);
                for (uint32_t k = 0; k < sends; ++k) {
                    void *b;
                    size_t got;
                    mcapi_pktchan_recv(h, &b, &got, &st);
                    if (st != MCAPI_SUCCESS || got != ROWS * chunks[si])
                        die("pktchan_recv", st);
                    const uint8_t *p = b;
                    if (p[0] != (uint8_t)((me - 1) * chunks[si])) /* row 0, its first column */
                        die("data", MCAPI_ERR_GENERAL);
                    mcapi_pktchan_release(b, &st);
                }
                mcapi_msg_send(tx, ack, &n, 4, 0, &st);
                if (st != MCAPI_SUCCESS)
                    die("ack", st);
            }
    /* the root's final packet: a member measured in no configuration must not end before the
     * root has connected to it */
    void *b;
    mcapi_pktchan_recv(h, &b, &sz, &st);
    if (st != MCAPI_SUCCESS)
        die("final recv", st);
    mcapi_pktchan_release(b, &st);
    return 0;
}

static int root(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t ack = mcapi_endpoint_create(PORT_ACK, &st);
    mcapi_pktchan_send_hndl_t chans[NMAX];
    for (uint32_t t = 1; t <= NMAX; ++t) {
        mcapi_request_t r;
        size_t sz;
        mcapi_endpoint_t peer =
            mcapi_endpoint_get(MCAPI_DOMAIN, t, PORT_RX, MCAPI_TIMEOUT_INFINITE, &st);
        mcapi_endpoint_t s = mcapi_endpoint_create(PORT_CHAN_TX + t, &st);
        mcapi_pktchan_connect_i(s, peer, &r, &st);
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        mcapi_pktchan_send_open_i(&chans[t - 1], s, &r, &st);
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("channel", st);
    }
    uint32_t bases[NMAX], sizes[NMAX];
    for (uint32_t n = 1; n <= NMAX; ++n)
        for (uint32_t si = 0; si < NSIZES; ++si) {
            for (uint32_t i = 0; i < n; ++i) {
                bases[i] = i * chunks[si];
                sizes[i] = chunks[si];
            }
            mcapix_scatter_create_chan(&groups[n - 1][si], chans, n, ROWS, n * chunks[si], bases,
                                       sizes, &st);
            if (st != MCAPI_SUCCESS)
                die("scatter_create", st);
        }
    for (uint32_t k = 0; k < sizeof data; ++k)
        data[k] = (uint8_t)k; /* byte (row, column) of a row of n*s bytes: its row offset */
    const mcapix_cc_stats_t *cs = mcapix_cc_stats();
    for (uint32_t path = 0; path < NPATHS; ++path) {
        mcapix_cc_set_path(path_modes[path]);
        for (uint32_t n = 1; n <= NMAX; ++n)
            for (uint32_t si = 0; si < NSIZES; ++si) {
                if (!in_run(path, n, si))
                    continue;
                uint32_t total = ROWS * n * chunks[si];
                const mcapix_mcast_group_t *g = &groups[n - 1][si];
                if (path == P_DRVCC) /* warm-up */
                    drv_scatter(g, data, total);
                else
                    mcapix_scatter_send(&groups[n - 1][si], data, total, &st);
                if (st != MCAPI_SUCCESS)
                    die("scatter_send", st);
                uint32_t hw0 = cs->hw_sends;
                const uint32_t waits0 = drv_waits;
                uint64_t idle0 = mcapix_stats()->idle_cycles + drv_idle, t0 = cpu_cycles();
                if (path == P_DRVCC) {
                    for (uint32_t k = 0; k < K; ++k)
                        drv_scatter(g, data, total);
                } else {
                    for (uint32_t k = 0; k < K; ++k) {
                        mcapix_scatter_send(&groups[n - 1][si], data, total, &st);
                        if (st != MCAPI_SUCCESS)
                            die("scatter_send", st);
                    }
                }
                uint64_t t1 = cpu_cycles();
                uint64_t idle = mcapix_stats()->idle_cycles + drv_idle - idle0;
                uint32_t waits = drv_waits - waits0, os_late = 0;
                if (path ==
                    P_DRVCC) { /* the same sends, the completions waited for before looking */
                    drv_look_late = 1;
                    uint64_t l0 = drv_idle, l1 = cpu_cycles();
                    for (uint32_t k = 0; k < K; ++k)
                        drv_scatter(g, data, total);
                    os_late = (uint32_t)((cpu_cycles() - l1 - (drv_idle - l0)) / K);
                    drv_look_late = 0;
                }
                if (cs->hw_sends - hw0 != (path == P_HW ? K : 0u))
                    die("path", MCAPI_ERR_GENERAL);
                for (uint32_t i = 0; i < n; ++i) {
                    uint32_t v;
                    size_t got;
                    mcapi_msg_recv(ack, &v, sizeof v, &got, &st);
                }
                printf("ccbench scatter path=%s n=%u size=%u os=%u g=%u waits=%u os_late=%u\n",
                       path_names[path], (unsigned)n, (unsigned)(ROWS * chunks[si]),
                       (unsigned)((t1 - t0 - idle) / K), (unsigned)((t1 - t0) / K),
                       (unsigned)(1000u * waits / K), (unsigned)os_late);
            }
    }
    for (uint32_t t = 0; t < NMAX; ++t) {
        mcapi_pktchan_send(chans[t], data, 4, &st);
        if (st != MCAPI_SUCCESS)
            die("final send", st);
    }
    printf("ccbench scatter done\n");
    return 0;
}

int main(void) { return cc_app_run("ccbench", NMAX + 1, root, member); }
