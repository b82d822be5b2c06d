/* Collectives of a U-mode task through its vif (docs/kernel.md "Collectives in tasks"), preset
 * svfull on a 2x2 mesh. Tile 0: a task (sv_cc_task.c) multicasts three messages to tiles 1..3,
 * scatters a matrix over packet channels to tiles 1 and 2, contributes to a reduction rooted on
 * tile 1 and sends a part of a gather rooted on tile 2 — all with the plain mcapix_cc.h calls of
 * the task build, 0 system calls (counted by the kernel). Then tile 0 moves the task to tile 3
 * (NAMP-PS), where it runs the four collectives again with the same groups, area and vIDs, and
 * misuses every call. Tiles 1..3: kernel threads receive with MCAPI and check every byte; tile 3
 * also contributes the other reduction vectors and gather parts from bare metal (the kernel's
 * library, its physical slot). */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "ktest.h"
#include "ktest_mcapi.h"
#include "mcapi.h"
#include "na_registers.h"
#include "mcapix_cc.h"
#include "namp_cc.h"
#include "sv_cc.h"
#include "sv_main.h"

volatile unsigned ktest_failures;

#define BYE_PORT 44 /* tiles 1..3 stay until tile 0 says the task is done */

/* Every tile checks for the collectives first: without them the test fails at once (no tile
 * waits for a collective that cannot come). */
static int features_ok(void)
{
    const uint32_t need = NA_FEATURE_NAMP_CC_MCAST | NA_FEATURE_NAMP_CC_SG | NA_FEATURE_NAMP_CC_RED;
    if ((mmio_read32(TILE_NA_BASE + NA_FEATURES) & need) == need)
        return 1;
    k_printf(
        "FAIL: no NAMP-CC multicast, scatter/gather and reduction (run with --preset svfull)\n");
    ktest_failures++;
    return 0;
}

static int wait_for(volatile uint32_t *w, uint32_t v)
{
    for (int i = 0; i < 20000 && *w != v; ++i)
        k_sleep(1);
    return *w == v;
}

static void services_start(uint32_t tile)
{
    mcapi_status_t st;
    mcapi_info_t info;
    KMP(mcapi_initialize(0, tile, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(kmp_task_service_start(8), K_OK);
    CHECK_EQ(k_migrate_service_start(9), K_OK);
}

static void services_stop(void)
{
    kmp_task_service_stop();
    k_migrate_service_stop();
}

/* Tiles 0..2 stay (endpoints, services) until tile 3 says the task is done. */
static void wait_bye(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t ep;
    char b[8];
    size_t got;
    KMP(ep = mcapi_endpoint_create(BYE_PORT, &st));
    KMP(mcapi_msg_recv(ep, b, sizeof b, &got, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
}

static void tile0(void)
{
    if (!features_ok())
        return;
    services_start(0);
    k_task_image_t img = {"cc_task", sv_cc_task_main, NULL, SVC_AREA_OFFSET + 4096u, 2, 3, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_EQ(kmp_task_attach(t, 1), K_OK);
    CHECK_EQ(k_task_resume(t), K_OK);
    struct sv_cc_task *d = kmp_task_ptr(t, K_USER_DATA + sizeof(mp_task_state_t), sizeof *d);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK(wait_for(&d->mark, 1));
    uint32_t before = k_syscalls_of(t);
    d->ack = 1;
    CHECK(wait_for(&d->mark, 2));
    uint32_t during = k_syscalls_of(t) - before;
    CHECK_EQ(d->st_setup, MCAPI_SUCCESS);
    CHECK_EQ(d->st_area, MCAPI_SUCCESS);
    CHECK_EQ(d->mcasts_ok, SVC_MCASTS);
    CHECK_EQ(d->scatter_ok, 1);
    CHECK_EQ(d->reduce_ok, 1);
    CHECK_EQ(d->gather_ok, 1);
    CHECK_EQ(during, 0);
    d->ack = 2;
    /* the task waits at mark 3: it moves to tile 3 with its area, groups and gather handle —
     * not while its collective to the held (full) endpoint runs: refused, the task stays here */
    CHECK(wait_for(&d->mark, 3));
    CHECK_EQ(d->held_started, 1);
    k_migrate_result_t r;
    int rc = k_task_migrate(t, SVC_MIGRATE_TO, K_MIGRATE_RELOCATE, &r);
    CHECK_EQ(rc, K_EBUSY);
    const int refused = rc == K_EBUSY;
    mcapi_status_t st;
    mcapi_endpoint_t me, peer;
    KMP(me = mcapi_endpoint_create(SVC_DRAIN_PORT, &st));
    KMP(peer = mcapi_endpoint_get(0, 1, SVC_DRAIN_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_msg_send(me, peer, "DRAIN", 6, 0, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    for (int i = 0;
         i < 1000 && (rc = k_task_migrate(t, SVC_MIGRATE_TO, K_MIGRATE_RELOCATE, &r)) == K_EBUSY;
         ++i)
        k_sleep(1);
    CHECK_EQ(rc, K_OK);
    int status = -1;
    CHECK_EQ(k_join(t, 20000, &status), K_OK);
    CHECK_EQ(status, K_MIGRATED);
    if (ktest_failures == 0)
        k_printf("kernel sv_cc tile 0 ok: %d multicasts, scatter, reduction, gather, %lu system "
                 "calls; moved to tile %d, refused %s while a collective ran\n",
                 SVC_MCASTS, (unsigned long)during, SVC_MIGRATE_TO, refused ? "once" : "never");
    wait_bye();
    services_stop();
}

/* Every tile 1..3: the multicast receiver. */
static mcapi_endpoint_t receive_multicasts(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t ep;
    KMP(ep = mcapi_endpoint_create(SVC_RX_PORT, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    return ep;
}

/* Messages first..last-1 (the first round's three, the second round's one), every byte. */
static void check_multicasts(mcapi_endpoint_t ep, uint32_t first, uint32_t last)
{
    static const uint16_t sizes[SVC_MCASTS + 1] = {8, 200, 1000, SVC_ROUND2_SIZE};
    static uint8_t msg[1024];
    mcapi_status_t st;
    for (uint32_t m = first; m < last; ++m) {
        size_t got = 0;
        KMP(mcapi_msg_recv(ep, msg, sizeof msg, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, sizes[m]);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < got; ++i)
            bad += msg[i] != svc_byte(m, i);
        CHECK_EQ(bad, 0);
    }
}

/* Tiles 1 and 2: the scatter's channel; columns [base, base + width) of every row. */
static void check_scatter(mcapi_pktchan_recv_hndl_t rh, uint32_t pattern, uint32_t base,
                          uint32_t width)
{
    mcapi_status_t st;
    void *pb = NULL;
    size_t got = 0;
    KMP(mcapi_pktchan_recv(rh, &pb, &got, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(got, SVC_SCATTER_COUNT * width);
    uint32_t bad = 0;
    for (uint32_t r = 0; pb && r < SVC_SCATTER_COUNT; ++r)
        for (uint32_t c = 0; c < width; ++c)
            bad += ((uint8_t *)pb)[r * width + c] !=
                   svc_byte(pattern, r * SVC_SCATTER_WIDTH + base + c);
    CHECK_EQ(bad, 0);
    if (pb)
        KMP(mcapi_pktchan_release(pb, &st));
}

static const mcapix_endpoint_attributes_t root_attrs = {.capacity_log2 = 2, .max_msg_log2 = 9};

/* The contributors a root admits (docs/security.md "Collective membership"): the task's endpoint
 * and tile 3's, by lookup; the task's key follows it when it moves to tile 3. */
static void contributors(mcapi_endpoint_t out[2])
{
    mcapi_status_t st;
    KMP(out[0] = mcapi_endpoint_get(0, 0, SVC_TASK_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(out[1] = mcapi_endpoint_get(0, 3, SVC_T3_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
}

static void tile1(void)
{
    if (!features_ok())
        return;
    services_start(1);
    mcapi_status_t st;
    mcapi_endpoint_t root;
    static mcapix_reduce_rx_t rr;
    KMP(root = mcapix_endpoint_create(SVC_RED_PORT, &root_attrs, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapix_reduce_rx_create(&rr, root, 2, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t members[2];
    contributors(members);
    KMP(mcapix_reduce_rx_members(&rr, 2, members, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    static const mcapix_endpoint_attributes_t one = {.capacity_log2 = 0, .max_msg_log2 = 9};
    mcapi_endpoint_t hold, drain;
    KMP(hold = mcapix_endpoint_create(SVC_HOLD_PORT, &one, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(drain = mcapi_endpoint_create(SVC_DRAIN_PORT, &st));
    mcapi_endpoint_t ep = receive_multicasts();
    mcapi_pktchan_recv_hndl_t rh = ktest_pktchan_recv_open(SVC_CH_PORT);
    for (uint32_t round = 0; round < 2; ++round) { /* contributors 0 + 3, then 4 + 5 */
        if (round == 1) {
            /* the held endpoint drains when tile 0 says (its migration was refused meanwhile) */
            static uint8_t m[SVC_HELD_SIZE];
            size_t got = 0;
            KMP(mcapi_msg_recv(drain, m, sizeof m, &got, &st));
            CHECK_EQ(st, MCAPI_SUCCESS);
            for (uint32_t k = 0; k < 2; ++k) {
                KMP(mcapi_msg_recv(hold, m, sizeof m, &got, &st));
                CHECK_EQ(st, MCAPI_SUCCESS);
                CHECK_EQ(got, SVC_HELD_SIZE);
                uint32_t bad = 0;
                for (uint32_t i = 0; i < got; ++i)
                    bad += m[i] != svc_byte(20 + k, i);
                CHECK_EQ(bad, 0);
            }
        }
        check_multicasts(ep, round ? SVC_MCASTS : 0, round ? SVC_MCASTS + 1 : SVC_MCASTS);
        check_scatter(rh, 7 + round, 0, 4);
        int32_t sum[SVC_RED_WORDS];
        size_t got = 0;
        KMP(mcapix_reduce_recv(&rr, MCAPIX_OP_SUM, MCAPIX_T_INT32, sum, sizeof sum, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, sizeof sum);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < SVC_RED_WORDS; ++i)
            bad += sum[i] != svc_word(round ? 4 : 0, i) + svc_word(round ? 5 : 3, i);
        CHECK_EQ(bad, 0);
    }
    wait_bye();
    services_stop();
}

static void tile2(void)
{
    if (!features_ok())
        return;
    services_start(2);
    mcapi_status_t st;
    mcapi_endpoint_t root;
    static mcapix_gather_rx_t gr;
    KMP(root = mcapix_endpoint_create(SVC_GATHER_PORT, &root_attrs, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapix_gather_rx_create(&gr, root, 2, SVC_GATHER_ROWS * SVC_GATHER_WIDTH, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t parts[2]; /* part 0 the task's, part 1 tile 3's */
    contributors(parts);
    KMP(mcapix_gather_rx_members(&gr, parts, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = receive_multicasts();
    mcapi_pktchan_recv_hndl_t rh = ktest_pktchan_recv_open(SVC_CH_PORT);
    check_multicasts(ep, 0, SVC_MCASTS + 1);
    check_scatter(rh, 7, 4, 6);
    check_scatter(rh, 8, 4, 6);
    for (uint32_t round = 0; round < 2; ++round) { /* parts 9 + 10, then 11 + 12 */
        uint8_t m[SVC_GATHER_ROWS * SVC_GATHER_WIDTH];
        size_t got = 0;
        KMP(mcapix_gather_recv(&gr, m, sizeof m, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, sizeof m);
        const uint32_t p0 = round ? 11 : 9, p1 = p0 + 1;
        uint32_t bad = 0;
        for (uint32_t r = 0; r < SVC_GATHER_ROWS; ++r)
            for (uint32_t c = 0; c < SVC_GATHER_WIDTH; ++c)
                bad += m[r * SVC_GATHER_WIDTH + c] !=
                       (c < 3 ? svc_byte(p0, r * 3 + c) : svc_byte(p1, r * 5 + c - 3));
        CHECK_EQ(bad, 0);
    }
    wait_bye();
    services_stop();
}

/* Tile 3: a multicast receiver, the bare-metal half of both rounds' reduction and gather, and the
 * task's host for the second round. */
static void tile3(void)
{
    if (!features_ok())
        return;
    services_start(3);
    mcapi_status_t st;
    mcapi_endpoint_t ep = receive_multicasts();
    mcapi_endpoint_t me, red_root, gather_root;
    static mcapix_reduce_tx_t rt;
    static mcapix_gather_tx_t gt;
    KMP(me = mcapi_endpoint_create(SVC_T3_PORT, &st));
    KMP(red_root = mcapi_endpoint_get(0, 1, SVC_RED_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(gather_root = mcapi_endpoint_get(0, 2, SVC_GATHER_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapix_reduce_tx_create(&rt, me, red_root, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapix_gather_tx_create(&gt, me, gather_root, 9, 1, SVC_GATHER_ROWS, 3, 5, SVC_GATHER_WIDTH,
                                &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    for (uint32_t round = 0; round < 2; ++round) { /* the root matches them by their ids */
        static int32_t vec[SVC_RED_WORDS];
        for (uint32_t i = 0; i < SVC_RED_WORDS; ++i)
            vec[i] = svc_word(round ? 5 : 3, i);
        KMP(mcapix_reduce_send(&rt, MCAPIX_OP_SUM, MCAPIX_T_INT32, vec, sizeof vec, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        static uint8_t part[SVC_GATHER_ROWS * 5];
        for (uint32_t i = 0; i < sizeof part; ++i)
            part[i] = svc_byte(round ? 12 : 10, i);
        KMP(mcapix_gather_send(&gt, part, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
    check_multicasts(ep, 0, SVC_MCASTS);
    /* the task arrives from tile 0 and runs its second round here */
    k_thread_t *t = NULL;
    for (int i = 0; i < 100000 && !(t = k_migrate_take_arrival()); ++i)
        k_sleep(1);
    CHECK(t != NULL);
    struct sv_cc_task *d =
        t ? kmp_task_ptr(t, K_USER_DATA + sizeof(mp_task_state_t), sizeof *d) : NULL;
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK(wait_for(&d->mark, 3));
    uint32_t before = k_syscalls_of(t);
    d->ack = 3;
    CHECK(wait_for(&d->mark, 4));
    uint32_t during = k_syscalls_of(t) - before;
    CHECK_EQ(d->round2_ok, 1);
    CHECK_EQ(during, 0);
    /* the collective under way at the first try ended on tile 0 and was handed over parked */
    CHECK_EQ(d->held_status & NAMP_STATUS_ERROR, 0);
    CHECK_EQ(NAMP_STATUS_STATE(d->held_status), NAMP_STATE_DONE);
    CHECK_EQ(NAMP_CC_RESULT_DONE(d->held_result), 1);
    check_multicasts(ep, SVC_MCASTS, SVC_MCASTS + 1);
    d->ack = 4;
    CHECK(wait_for(&d->mark, 5));
    CHECK_EQ(d->misuse_done, 1);
    CHECK_EQ(d->misuse_fail, 0);
    if (d->misuse_fail)
        k_printf("misuse step %lu: status %lu\n", (unsigned long)d->bad_code,
                 (unsigned long)d->bad_status);
    const uint32_t steps = d->step;
    mcapi_endpoint_t bye, peer;
    KMP(bye = mcapi_endpoint_create(BYE_PORT, &st));
    for (uint32_t tile = 0; tile < 3; ++tile) {
        KMP(peer = mcapi_endpoint_get(0, tile, BYE_PORT, MCAPI_TIMEOUT_INFINITE, &st));
        KMP(mcapi_msg_send(bye, peer, "BYE", 4, 0, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
    d->ack = 5;
    int status = -1;
    CHECK_EQ(k_join(t, 20000, &status), K_OK);
    CHECK_EQ(status, 0);
    if (ktest_failures == 0)
        k_printf(
            "kernel sv_cc ok: after the move to tile %d the task's multicast, scatter, reduction "
            "and gather through its vif with %lu system calls; misuse %lu steps\n",
            SVC_MIGRATE_TO, (unsigned long)during, (unsigned long)steps);
    services_stop();
}

int main(void)
{
    static void (*const roles[4])(void) = {tile0, tile1, tile2, tile3};
    return sv_main_tiles(roles, 4);
}
