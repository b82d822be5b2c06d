/* kernel.security.revoke_hold (docs/security.md row 11, docs/kernel.md "A peer killed"): a sender
 * task must not hold, by keeping its vif busy, the endpoint, record and pages of a receiver task
 * that ended on another tile. Preset svbase, 2x1 mesh. Tile 0 runs two honest receiver tasks,
 * tile 1 their senders, two attackers (sec_hold_task.c): after the honest packets (random count
 * and sizes, every byte checked), attacker 0 waits for a credit on a channel to a colluding kernel
 * receiver that gives none, attacker 1 floods a sink with messages of random sizes. Then the
 * receivers end; every table of tile 0 (records, endpoints, handles, reservations, library
 * endpoints, vif slots, free pages) must be back within REAP_TICKS, while the attackers still
 * hold their vifs. Afterwards the attackers are released: their send on the closed channel ends
 * MCAPI_ERR_CHAN_INVALID and tile 1's tables come back too.
 * SH_MIGRATE (kernel.security.revoke_migrated_svfull, row 17): preset svfull, 3x1; once both
 * attackers hold, tile 1 moves them to tile 2 (relocation) while they hold, and they hold again
 * there. Their channels' send sides are then kernel handles on tile 2, and the "stopped" of the
 * ended receivers comes from tile 2's kernel while the tasks live and keep their vifs busy. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "ktest.h"
#include "mcapi.h"
#include "na_registers.h"
#include "sec_hold.h"
#include "sv_main.h"

volatile unsigned ktest_failures;

#define BOUND      20000u /* ticks (100 us) any other wait of the test may take */
#define REAP_TICKS 2000u  /* the receivers' tables back after their end (an ordinary reap: a few) */
#define SEED       0x5EC0107Du
#ifdef SH_MCAST_HOLD
#define HOLD_STATE NAMP_STATE_MEMBERS /* attacker 0's credit wait is a multicast member's */
#else
#define HOLD_STATE NAMP_STATE_CREDIT_WAIT
#endif
#ifdef SH_MIGRATE
#define ATTACKER_TILE 2u /* where the attackers hold when the receivers end */
#else
#define ATTACKER_TILE 1u
#endif

static kmp_task_tables_t tables0;

static struct sec_hold_task *data_of(k_thread_t *t)
{
    return kmp_task_ptr(t, K_USER_DATA + sizeof(mp_task_state_t), sizeof(struct sec_hold_task));
}

static int wait_for(volatile uint32_t *w, uint32_t v)
{
    for (uint32_t i = 0; i < BOUND && *w < v; ++i)
        k_sleep(1);
    return *w >= v;
}

static int tables_back(const kmp_task_tables_t *a)
{
    return a->records == tables0.records && a->endpoints == tables0.endpoints &&
           a->handles == tables0.handles && a->reserved_endpoints == tables0.reserved_endpoints &&
           a->reserved_handles == tables0.reserved_handles &&
           a->library_endpoints == tables0.library_endpoints && a->vif_slots == tables0.vif_slots &&
           a->pages_free == tables0.pages_free && a->dangling == 0;
}

/* Ticks until the tables are back (bound + 1 if never). */
static uint32_t wait_tables(uint32_t bound, kmp_task_tables_t *now)
{
    uint32_t k = 0;
    for (kmp_task_tables(now); !tables_back(now) && k <= bound; kmp_task_tables(now)) {
        k_sleep(1);
        ++k;
    }
    if (!tables_back(now))
        k_printf("sec hold tables tile %lu: records %lu/%lu endpoints %lu/%lu handles %lu/%lu "
                 "library %lu/%lu "
                 "vifs %lu/%lu pages %lu/%lu dangling %lu\n",
                 (unsigned long)tile_id(), (unsigned long)now->records,
                 (unsigned long)tables0.records, (unsigned long)now->endpoints,
                 (unsigned long)tables0.endpoints, (unsigned long)now->handles,
                 (unsigned long)tables0.handles, (unsigned long)now->library_endpoints,
                 (unsigned long)tables0.library_endpoints, (unsigned long)now->vif_slots,
                 (unsigned long)tables0.vif_slots, (unsigned long)now->pages_free,
                 (unsigned long)tables0.pages_free, (unsigned long)now->dangling);
    return k;
}

/* The same random packet counts and sizes on both tiles. */
static void plan(struct sec_hold_task *d, uint32_t who)
{
    uint32_t x = SEED + who * 0x9E3779B9u;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    d->who = who;
    d->seed = x;
    d->n_pkts = 1u + x % SH_MAX_PKTS;
    for (uint32_t p = 0; p < SH_MAX_PKTS; ++p) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        d->size[p] = 1u + x % 512u;
    }
}

static k_thread_t *start_task(const char *name, void (*entry)(void *), unsigned slot, uint32_t who)
{
    k_task_image_t img = {name, entry, NULL, SH_DATA_BYTES, 2, 3, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    if (!t)
        return NULL;
    CHECK_EQ(kmp_task_attach(t, slot), K_OK);
    struct sec_hold_task *d = data_of(t);
    CHECK(d != NULL);
    if (d)
        plan(d, who);
    CHECK_EQ(k_task_resume(t), K_OK);
    return d ? t : NULL;
}

static void ctl_recv(mcapi_endpoint_t ctl, const char *want)
{
    mcapi_status_t st;
    char b[8];
    size_t got = 0;
    KMP(mcapi_msg_recv(ctl, b, sizeof b, &got, &st));
    CHECK(st == MCAPI_SUCCESS && got == strlen(want) + 1 && memcmp(b, want, got) == 0);
}

static void ctl_send(mcapi_endpoint_t ctl, mcapi_node_t node, mcapi_port_t port, const char *m)
{
    mcapi_status_t st;
    mcapi_endpoint_t to;
    KMP(to = mcapi_endpoint_get(0, node, port, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_msg_send(ctl, to, m, strlen(m) + 1, 0, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
}

/* MCAPI as node `node`, the task service and, with SH_MIGRATE, the migration service. */
static void services_start(mcapi_node_t node)
{
    mcapi_status_t st;
    mcapi_info_t info;
    KMP(mcapi_initialize(0, node, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(kmp_task_service_start(8), K_OK);
#ifdef SH_MIGRATE
    CHECK_EQ(k_migrate_service_start(9), K_OK);
#endif
}

static void services_stop(void)
{
    kmp_task_service_stop();
#ifdef SH_MIGRATE
    k_migrate_service_stop();
#endif
}

/* ---- tile 0: the honest receivers ---- */

static void tile0(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t ctl;
    services_start(0);
    KMP(ctl = mcapi_endpoint_create(SH_CTL0_PORT, &st));
    kmp_task_tables_t start;
    kmp_task_tables(&start);
    k_thread_t *c = start_task("colluder", sec_hold_colluder, 3, 2);
    struct sec_hold_task *dc = c ? data_of(c) : NULL;
    if (!dc)
        return;
    CHECK(wait_for(&dc->step, 1)); /* attacker 0 connected to it */
    kmp_task_tables(&tables0);     /* the colluder stays to the end */
    k_thread_t *r[2];
    struct sec_hold_task *d[2];
    for (uint32_t i = 0; i < 2; ++i) {
        r[i] = start_task(i ? "recv1" : "recv0", sec_hold_receiver, 1 + i, i);
        d[i] = r[i] ? data_of(r[i]) : NULL;
        if (!d[i])
            return;
#ifdef SH_MIGRATE
        d[i]->expect_close = i == SH_FLOOD; /* set before its first packet can arrive */
#endif
    }
    for (uint32_t i = 0; i < 2; ++i)
        CHECK(wait_for(&d[i]->step, 1));
    for (uint32_t i = 0; i < 2; ++i) {
        CHECK_EQ(d[i]->st_setup, 0);
        CHECK_EQ(d[i]->received, d[i]->n_pkts);
        CHECK_EQ(d[i]->byte_fail, 0);
        CHECK_EQ(d[i]->st_after, 0);
    }
    ctl_recv(ctl, "HELD"); /* both attackers keep their vifs busy now */
#ifdef SH_MIGRATE
    /* the flooding sender deleted its channel's endpoint on tile 2: the receiver's channel
     * closed (its "stopped" from tile 2's kernel) while that sender floods on */
    CHECK(wait_for(&d[SH_FLOOD]->step, 3));
    CHECK_EQ(d[SH_FLOOD]->st_closed, MCAPI_ERR_CHAN_INVALID);
#endif
    const uint32_t pkts0 = d[0]->n_pkts, pkts1 = d[1]->n_pkts;
    for (uint32_t i = 0; i < 2; ++i)
        d[i]->end = 1;
    int status = -1;
    for (uint32_t i = 0; i < 2; ++i) {
        CHECK_EQ(k_join(r[i], BOUND, &status), K_OK);
        CHECK_EQ(status, 0);
    }
    kmp_task_tables_t now;
    const uint32_t ticks = wait_tables(REAP_TICKS, &now);
    CHECK(tables_back(&now));
    ctl_send(ctl, ATTACKER_TILE, SH_CTL1_PORT, "DONE"); /* the attackers may stop */
    ctl_recv(ctl, "SEEN"); /* they saw their vifs still held: only now may the credits come */
    dc->end = 1;           /* the colluder gives credits again */
    ctl_recv(ctl, "END");
    dc->stop = 1;
    CHECK(wait_for(&dc->done, 1));
    const uint32_t colluded = dc->received, sunk = dc->sent;
    CHECK_EQ(dc->st_setup, 0);
    CHECK_EQ(k_join(c, BOUND, &status), K_OK);
    tables0 = start; /* and then everything */
    (void)wait_tables(BOUND, &now);
    CHECK(tables_back(&now));
    KMP(mcapi_endpoint_delete(ctl, &st));
    services_stop();
    if (ktest_failures == 0) {
        k_printf("sec hold receivers ok: %lu and %lu packets intact, every table back %lu ticks "
                 "after their end "
                 "while the senders held their vifs\n",
                 (unsigned long)pkts0, (unsigned long)pkts1, (unsigned long)ticks);
        k_printf("sec hold colluder took %lu packets and %lu messages; every table back (%lu pages "
                 "free)\n",
                 (unsigned long)colluded, (unsigned long)sunk, (unsigned long)now.pages_free);
    }
}

/* ---- tile 1: the attackers ---- */

static uint32_t slot_state(k_thread_t *t)
{
    kmp_task_diag_t dg;
    return kmp_task_diagnose(t, &dg) == K_OK ? NAMP_STATUS_STATE(dg.slot_status) : 0xFFu;
}

/* the honest packets are out; then each attacker's vif is busy: attacker 0 in CREDIT_WAIT on the
 * colluder's channel, attacker 1 between two of its messages to the sink (at least `sends` of
 * them from now) */
static void wait_held(k_thread_t *const a[2], struct sec_hold_task *const d[2])
{
    const uint32_t sends = d[1]->held_sends + 4u;
    uint32_t k = 0;
    while (k++ < BOUND &&
           !(d[0]->step >= 1 && slot_state(a[0]) == HOLD_STATE && d[1]->held_sends >= sends))
        k_sleep(1);
    CHECK_EQ(d[0]->st_setup, 0);
    CHECK_EQ(d[1]->st_setup, 0);
    CHECK_EQ(slot_state(a[0]), HOLD_STATE);
    CHECK(d[1]->held_sends >= sends);
}

/* The attackers hold on this tile until tile 0 gave its verdict; then they stop, and this tile's
 * tables come back. */
static void hold_to_the_end(mcapi_endpoint_t ctl, k_thread_t *const a[2],
                            struct sec_hold_task *const d[2])
{
    ctl_send(ctl, 0, SH_CTL0_PORT, "HELD");
    ctl_recv(ctl, "DONE"); /* tile 0 gave its verdict */
    const uint32_t held0 = slot_state(a[0]) == HOLD_STATE, flooded = d[1]->held_sends;
    ctl_send(ctl, 0, SH_CTL0_PORT, "SEEN"); /* the colluder may give credits: the sends end */
    for (uint32_t i = 0; i < 2; ++i)
        d[i]->stop = 1;
    for (uint32_t i = 0; i < 2; ++i) {
        CHECK(wait_for(&d[i]->done, 1));
        CHECK_EQ(d[i]->sent, d[i]->n_pkts);
        CHECK_EQ(d[i]->st_after, MCAPI_ERR_CHAN_INVALID);
        int status = -1;
        CHECK_EQ(k_join(a[i], BOUND, &status), K_OK);
        CHECK_EQ(status, 0);
    }
    kmp_task_tables_t now;
    (void)wait_tables(BOUND, &now);
    CHECK(tables_back(&now));
    ctl_send(ctl, 0, SH_CTL0_PORT, "END");
    if (ktest_failures == 0)
        k_printf("sec hold attackers ok: credit wait held %s, %lu messages flooded; then the "
                 "closed channel "
                 "CHAN_INVALID, every table back\n",
                 held0 ? "to the end" : "NOT to the end", (unsigned long)flooded);
}

static void tile1(void)
{
    services_start(1);
#ifndef SH_MIGRATE
    mcapi_status_t st;
    mcapi_endpoint_t ctl;
    KMP(ctl = mcapi_endpoint_create(SH_CTL1_PORT, &st));
#endif
    kmp_task_tables(&tables0);
    k_thread_t *a[2];
    struct sec_hold_task *d[2];
    for (uint32_t i = 0; i < 2; ++i) {
        a[i] = start_task(i ? "flood" : "credit_hold", sec_hold_attacker, 1 + i, i);
        d[i] = a[i] ? data_of(a[i]) : NULL;
        if (!d[i])
            return;
    }
    wait_held(a, d);
#ifdef SH_MIGRATE
    /* moved while they hold: attacker 0's transfer waits for a credit, attacker 1 floods */
    for (uint32_t i = 0; i < 2; ++i) {
        k_migrate_result_t r;
        CHECK_EQ(k_task_migrate(a[i], 2, K_MIGRATE_RELOCATE, &r), K_OK);
        int status = -1;
        CHECK_EQ(k_join(a[i], BOUND, &status), K_OK);
        CHECK_EQ(status, K_MIGRATED);
    }
    kmp_task_tables_t now;
    (void)wait_tables(BOUND, &now);
    CHECK(tables_back(&now)); /* nothing of theirs left here */
    if (ktest_failures == 0)
        k_printf(
            "sec hold tile 1: both attackers moved to tile 2 while holding; every table back\n");
#else
    hold_to_the_end(ctl, a, d);
    KMP(mcapi_endpoint_delete(ctl, &st));
#endif
    services_stop();
}

#ifdef SH_MIGRATE
static void tile2(void)
{
    mcapi_status_t st;
    services_start(2);
    mcapi_endpoint_t ctl;
    KMP(ctl = mcapi_endpoint_create(SH_CTL1_PORT, &st));
    kmp_task_tables(&tables0);
    k_thread_t *a[2] = {NULL, NULL};
    struct sec_hold_task *d[2];
    for (uint32_t i = 0; i < 2; ++i) { /* they arrive in the order tile 1 moves them */
        for (uint32_t k = 0; k < BOUND && !(a[i] = k_migrate_take_arrival()); ++k)
            k_sleep(1);
        CHECK(a[i] != NULL);
        d[i] = a[i] ? data_of(a[i]) : NULL;
        if (!d[i])
            return;
        CHECK_EQ(d[i]->who, i);
    }
    wait_held(a, d); /* holding again, here */
    d[SH_FLOOD]->del_tx = 1;
    CHECK(wait_for(&d[SH_FLOOD]->deleted, 1));
    CHECK_EQ(d[SH_FLOOD]->st_del, MCAPI_SUCCESS);
    wait_held(a, d); /* and still holding */
    hold_to_the_end(ctl, a, d);
    KMP(mcapi_endpoint_delete(ctl, &st));
    services_stop();
}

int main(void)
{
    void (*const roles[3])(void) = {tile0, tile1, tile2};
    return sv_main_tiles(roles, 3);
}
#else
int main(void) { return sv_main(tile0, tile1); }
#endif
