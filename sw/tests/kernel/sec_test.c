/* The randomized adversaries of the isolation model, the kernels' side (sec.h; docs/security.md
 * "Tests"). One firmware per class (SEC_CLASS); preset svfull or svbase, 2x2 mesh.
 *   tile 0: victim V0, the attacker(s); moves the attacker (headers, drop) with tile 2
 *   tile 1: victim V1; the reduction root (svfull); identity: the senders to tile 0's receivers
 *   tile 2: the gather root (svfull); hosts the moved attacker
 *   tile 3: the victims' feeders and sinks, the bare-metal member of the collective rounds
 * Every tile counts its tables before anything of the test exists and again at the end, keeps a
 * secret in kernel data and a pattern in its free pages, and reports. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kconfig.h"
#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "ktest.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "mcapix_ps.h"
#include "na_registers.h"
#include "namp_cc.h"
#include "namp_ps.h"
#include "sec.h"

#ifndef SEC_CLASS
#define SEC_CLASS SEC_CLAIMS
#endif
#ifndef SEC_ITERATIONS
#define SEC_ITERATIONS 3000u
#endif
#ifndef SEC_MOVES
#define SEC_MOVES 100u
#endif
/* the test's own kernel protocol: kernel ports (no task looks them up, K_PORT_KERNEL_FIRST..) */
#define SEC_PORT_CTRL         (K_PORT_KERNEL_FIRST + 0x10u) /* each tile's control endpoint */
#define SEC_PORT_MOVER        (K_PORT_KERNEL_FIRST + 0x11u) /* tiles 0 and 2: the mover's */
/* quota: tile 1's kernel makes and deletes it during the attack */
#define SEC_PORT_KERNEL_EXTRA 500
#define BOUND_TICKS           60000u /* anything the test waits for (a hang guard) */
#define MOVE_BOUND_TICKS      3000u  /* a migration ends (or is refused) within this */
#define LOOK_TICKS            400u   /* a victim's heartbeat moves within this */

volatile unsigned ktest_failures;

static const char *const class_name[] = {"",         "headers",    "drop",  "claims",
                                         "identity", "collective", "quota", "headers_sw"};
/* the headers attacker, moved by the hardware methods or (HEADERS_SW) by software PS */
#define SEC_IS_HEADERS (SEC_CLASS == SEC_HEADERS || SEC_CLASS == SEC_HEADERS_SW)
static volatile uint32_t kernel_secret[SEC_SECRET_WORDS];
static kmp_task_tables_t tables0;
static mcapi_endpoint_t ctrl;
static uint32_t collective; /* the preset has reduction and gather: the rounds run */

enum { OP_MOVE = 1, OP_STOP, OP_DONE, OP_UP, OP_KILLED, OP_ROUNDS };

/* ---- helpers ---- */

static struct sec_task *ctl(k_thread_t *t)
{
    return kmp_task_ptr(t, K_USER_DATA + SEC_CTL_OFFSET, sizeof(struct sec_task));
}

static k_thread_t *make(uint32_t role, uint32_t who, unsigned slot, uint32_t prio)
{
    k_task_image_t img = {"sec", sec_task_main, NULL, SEC_DATA_BYTES, 1, prio, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    if (!t)
        return NULL;
    CHECK_EQ(kmp_task_attach(t, slot), K_OK);
    struct sec_task *d = ctl(t);
    d->role = role;
    d->who = who;
    d->cls = SEC_CLASS;
    d->n_msgs = SEC_MSGS;
    d->iterations = SEC_ITERATIONS;
    d->seed = 0x5EC00001u * (tile_id() + 1) + who * 0x9E37u;
    return t;
}

static int wait_word(volatile uint32_t *w, uint32_t v, uint32_t ticks)
{
    for (uint32_t i = 0; i < ticks && *w < v; ++i)
        k_sleep(1);
    return *w >= v;
}

static int end_task(k_thread_t *t)
{
    struct sec_task *d = ctl(t);
    if (d)
        d->stop = 1;
    int status = -1;
    CHECK_EQ(k_join(t, K_FOREVER, &status), K_OK);
    return status;
}

static void to_port(mcapi_endpoint_t from, uint32_t tile, uint32_t port, const uint32_t *m)
{
    mcapi_status_t st;
    mcapi_endpoint_t to;
    KMP(to = mcapi_endpoint_get(MCAPI_DOMAIN, tile, port, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_msg_send(from, to, m, 32, 0, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    if (st != MCAPI_SUCCESS)
        k_printf("to tile %lu port %lu: status %ld\n", (unsigned long)tile, (unsigned long)port,
                 (long)st);
}
static void to_tile(uint32_t tile, const uint32_t *m, uint32_t words)
{
    (void)words;
    to_port(ctrl, tile, SEC_PORT_CTRL, m);
}

static void recv_on(mcapi_endpoint_t on, uint32_t *m)
{
    size_t got;
    mcapi_status_t st;
    memset(m, 0, 32);
    KMP(mcapi_msg_recv(on, m, 32, &got, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
}
static void from_any(uint32_t *m, uint32_t words)
{
    (void)words;
    recv_on(ctrl, m);
}

/* Every tile: services, its control endpoint, the secret, the free pages' pattern, the tables as
 * they are before the test. */
static void tile_start(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    KMP(mcapi_initialize(MCAPI_DOMAIN, tile_id(), NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(kmp_task_service_start(8), K_OK);
    CHECK_EQ(k_migrate_service_start(9), K_OK);
    KMP(ctrl = mcapi_endpoint_create(SEC_PORT_CTRL, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    if ((SEC_IS_HEADERS || SEC_CLASS == SEC_DROP) && (tile_id() == 0 || tile_id() == 2)) {
        mcapi_endpoint_t mv;
        KMP(mv = mcapi_endpoint_create(SEC_PORT_MOVER, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        (void)mv;
    }
    for (uint32_t i = 0; i < SEC_SECRET_WORDS; ++i)
        kernel_secret[i] = SEC_TAG | (tile_id() << 12) | i;
    k_pages_poison(SEC_FREE_PATTERN);
    const uint32_t need = NA_FEATURE_NAMP_CC_SG | NA_FEATURE_NAMP_CC_RED;
    collective = (mmio_read32(TILE_NA_BASE + NA_FEATURES) & need) == need;
    /* the kernels' own endpoints of the test, before the tables are counted */
    static const mcapix_endpoint_attributes_t root_attrs = {2, 9, 0, 0};
    static const uint32_t tile3_ports[] = {SEC_PORT_SINK,     SEC_PORT_SINK + 1, SEC_PORT_FEED,
                                           SEC_PORT_FEED + 1, SEC_PORT_FEED + 2, SEC_PORT_MEMBER};
    static const mcapix_endpoint_attributes_t small = {1, 6, 0, 0}; /* they only send */
    mcapi_endpoint_t e;
    if (tile_id() == 3)
        for (uint32_t i = 0; i < sizeof tile3_ports / sizeof tile3_ports[0]; ++i) {
            const uint32_t p = tile3_ports[i];
            KMP(e = mcapix_endpoint_create(
                    p, p >= SEC_PORT_FEED && p < SEC_PORT_FEED_CH + 3 ? &small : NULL, &st));
            CHECK_EQ(st, MCAPI_SUCCESS);
        }
    if ((tile_id() == 1 || tile_id() == 2) && collective) {
        KMP(e = mcapix_endpoint_create(tile_id() == 1 ? SEC_PORT_ROOT_RED : SEC_PORT_ROOT_GATHER,
                                       &root_attrs, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
    if (tile_id() == 1) {
        KMP(e = mcapi_endpoint_create(SEC_PORT_ATT + 9, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
    (void)e;
}

/* an endpoint of this tile's kernel made in tile_start */
static mcapi_endpoint_t own(uint32_t port)
{
    mcapi_status_t st;
    mcapi_endpoint_t e;
    KMP(e = mcapi_endpoint_get(MCAPI_DOMAIN, tile_id(), port, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    return e;
}

static void snapshot(void) { kmp_task_tables(&tables0); }

static int tables_back(const kmp_task_tables_t *a)
{
    return a->records == tables0.records && a->endpoints == tables0.endpoints &&
           a->handles == tables0.handles && a->reserved_endpoints == tables0.reserved_endpoints &&
           a->reserved_handles == tables0.reserved_handles &&
           a->library_endpoints == tables0.library_endpoints && a->vif_slots == tables0.vif_slots &&
           a->pages_free == tables0.pages_free && a->dangling == 0;
}

/* The end of every tile: the tables back (tombstones expire), nothing written outside. */
static void tile_verdict(void)
{
    kmp_task_tables_t now;
    uint32_t waited = 0;
    for (kmp_task_tables(&now); !tables_back(&now) && waited < K_TOMBSTONE_TICKS + 2000u;
         kmp_task_tables(&now)) {
        k_sleep(10);
        waited += 10;
    }
    uint32_t secret_bad = 0;
    for (uint32_t i = 0; i < SEC_SECRET_WORDS; ++i)
        secret_bad += kernel_secret[i] != (SEC_TAG | (tile_id() << 12) | i);
    const uint32_t damage = k_pages_damage();
    CHECK(tables_back(&now));
    CHECK_EQ(secret_bad, 0);
    CHECK_EQ(damage, 0);
    if (!tables_back(&now))
        k_printf("sec tables tile %lu: records %lu/%lu endpoints %lu/%lu handles %lu/%lu reserved "
                 "%lu/%lu %lu/%lu "
                 "library %lu/%lu vifs %lu/%lu pages %lu/%lu dangling %lu\n",
                 (unsigned long)tile_id(), (unsigned long)now.records,
                 (unsigned long)tables0.records, (unsigned long)now.endpoints,
                 (unsigned long)tables0.endpoints, (unsigned long)now.handles,
                 (unsigned long)tables0.handles, (unsigned long)now.reserved_endpoints,
                 (unsigned long)tables0.reserved_endpoints, (unsigned long)now.reserved_handles,
                 (unsigned long)tables0.reserved_handles, (unsigned long)now.library_endpoints,
                 (unsigned long)tables0.library_endpoints, (unsigned long)now.vif_slots,
                 (unsigned long)tables0.vif_slots, (unsigned long)now.pages_free,
                 (unsigned long)tables0.pages_free, (unsigned long)now.dangling);
    if (ktest_failures == 0)
        k_printf("sec %s tile %lu ok: every table back (%lu endpoints, %lu handles, %lu pages "
                 "free), 0 words "
                 "changed in free pages, kernel secret intact\n",
                 class_name[SEC_CLASS], (unsigned long)tile_id(),
                 (unsigned long)now.library_endpoints, (unsigned long)now.handles,
                 (unsigned long)now.pages_free);
}

/* Looks at a victim's heartbeat every LOOK_TICKS until it is done: how often it had not moved
 * (a thread of its own, from the victim's start on). */
static struct {
    k_thread_t *v;
    volatile uint32_t starved, looks, stop, over;
} watch;

/* A victim's end: its streams whole, its secret intact, its heartbeat seen moving all along. */
static void victim_verdict(k_thread_t *v, uint32_t starved)
{
    struct sec_task *d = ctl(v);
    CHECK(wait_word(&d->done, 1, BOUND_TICKS));
    uint32_t secret_bad = 0;
    for (uint32_t i = 0; i < SEC_SECRET_WORDS; ++i)
        secret_bad += d->secret[i] != (SEC_VTAG | (0x8000u + d->who * 0x400u + i));
    CHECK_EQ(d->sent, SEC_MSGS);
    CHECK_EQ(d->received, 2 * SEC_MSGS);
    CHECK_EQ(d->bad, 0);
    CHECK_EQ(d->errors, 0);
    CHECK_EQ(secret_bad, 0);
    CHECK_EQ(starved, 0);
    CHECK_EQ(d->rounds, d->member ? SEC_ROUNDS : 0);
    if (ktest_failures == 0)
        k_printf("sec %s victim V%lu ok: %lu messages out, %lu messages and packets in, every "
                 "word, %lu rounds, "
                 "scheduled at each of %lu looks, secret intact\n",
                 class_name[SEC_CLASS], (unsigned long)d->who, (unsigned long)d->sent,
                 (unsigned long)d->received, (unsigned long)d->rounds, (unsigned long)watch.looks);
    CHECK_EQ(end_task(v), 0);
}

static void watcher(void *arg)
{
    (void)arg;
    struct sec_task *d = ctl(watch.v);
    uint32_t last = d->heartbeat;
    for (uint32_t waited = 0; !watch.stop && waited < 4 * BOUND_TICKS; waited += LOOK_TICKS) {
        k_sleep(LOOK_TICKS);
        watch.looks++;
        if (d->heartbeat == last) {
            watch.starved++;
            kmp_task_diag_t g = {0};
            (void)kmp_task_diagnose(watch.v, &g);
            k_printf("victim V%lu not scheduled for %u ticks: sent %lu, received %lu (thread state "
                     "%lu, suspended "
                     "%lu, wake %lu)\n",
                     (unsigned long)d->who, LOOK_TICKS, (unsigned long)d->sent,
                     (unsigned long)d->received, (unsigned long)g.thread_state,
                     (unsigned long)g.suspended, (unsigned long)g.wake_at);
        }
        last = d->heartbeat;
    }
    watch.over = 1;
}

static void watch_start(k_thread_t *v)
{
    watch.v = v;
    k_thread_create("watch", watcher, NULL, 9, 0);
}

/* The attack is over: the watcher's count of looks at which the victim had not moved. */
static uint32_t watch_victim(k_thread_t *v, volatile const uint32_t *unused)
{
    (void)v, (void)unused;
    watch.stop = 1;
    CHECK(wait_word(&watch.over, 1, BOUND_TICKS));
    return watch.starved;
}

/* An attacker's iterations done (or its attack stopped by the test's bound). */
static void wait_attacker(k_thread_t *a)
{
    struct sec_task *d = ctl(a);
    if (!wait_word(&d->done, 2, 4 * BOUND_TICKS))
        d->stop = 1;
    CHECK(wait_word(&d->done, 2, BOUND_TICKS));
}

static void report_attacker(const struct sec_task *a, const char *where)
{
    CHECK_EQ(a->foreign, 0);
    CHECK(a->iters > 0);
    k_printf("sec %s attacker %s: %lu iterations (%lu accepted, %lu refused; kinds %lu %lu %lu "
             "%lu), %lu foreign "
             "words read\n",
             class_name[SEC_CLASS], where, (unsigned long)a->iters, (unsigned long)a->accepted,
             (unsigned long)a->refused, (unsigned long)a->codes[0], (unsigned long)a->codes[1],
             (unsigned long)a->codes[2], (unsigned long)a->codes[3], (unsigned long)a->foreign);
}

/* ---- tile 3: the victims' feeders and sinks, the bare-metal contributor ---- */

static const mcapix_endpoint_attributes_t feed_attrs = {1, 6, 0, 0}; /* it only sends */

static void feeder(void *arg)
{
    const uint32_t v = (uint32_t)(uintptr_t)arg;
    mcapi_status_t st;
    /* the channel's endpoint lives as long as the channel: deleting it closes the channel (the
     * victim's receiving side is then reaped when it ends) */
    mcapi_endpoint_t me = own(SEC_PORT_FEED + v), ch, to, chto;
    KMP(ch = mcapix_endpoint_create(SEC_PORT_FEED_CH + v, &feed_attrs, &st));
    KMP(to = mcapi_endpoint_get(MCAPI_DOMAIN, v, SEC_PORT_VIC + v, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(chto =
            mcapi_endpoint_get(MCAPI_DOMAIN, v, SEC_PORT_VIC_CH + v, MCAPI_TIMEOUT_INFINITE, &st));
    mcapi_request_t r;
    size_t sz;
    KMP(mcapi_pktchan_connect_i(ch, chto, &r, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    mcapi_pktchan_send_hndl_t sh = NULL;
    KMP(mcapi_pktchan_send_open_i(&sh, ch, &r, &st));
    KMP(mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    uint32_t m[SEC_MSG_WORDS];
    for (uint32_t seq = 0; seq < SEC_MSGS; ++seq) {
        m[0] = 2 + v;
        m[1] = seq;
        for (uint32_t i = 2; i < SEC_MSG_WORDS; ++i)
            m[i] = sec_word(2 + v, seq, i);
        KMP(mcapi_msg_send(me, to, m, sizeof m, 0, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        m[0] = 4 + v;
        for (uint32_t i = 2; i < SEC_MSG_WORDS; ++i)
            m[i] = sec_word(4 + v, seq, i);
        KMP(mcapi_pktchan_send(sh, m, sizeof m, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
    KMP(mcapi_endpoint_delete(ch, &st));
}

static volatile uint32_t sink_ok[2], sink_count[2], sink_unsolicited[2];

static void sink(void *arg)
{
    const uint32_t v = (uint32_t)(uintptr_t)arg;
    mcapi_status_t st;
    mcapi_endpoint_t me;
    KMP(me = mcapi_endpoint_get(MCAPI_DOMAIN, 3, SEC_PORT_SINK + v, MCAPI_TIMEOUT_INFINITE, &st));
    /* a connection-less endpoint takes messages from whoever looked it up (the attackers too):
     * the victim's are the ones in its format, and they must all come, once, in order, intact */
    uint32_t bad = 0, unsolicited = 0;
    for (uint32_t seq = 0; seq < SEC_MSGS;) {
        uint32_t m[SEC_MSG_WORDS];
        size_t sz = 0;
        KMP(mcapi_msg_recv(me, m, sizeof m, &sz, &st));
        if (st != MCAPI_SUCCESS || sz != sizeof m || m[0] != v ||
            (m[2] & 0xFFFF0000u) != SEC_VTAG) {
            ++unsolicited;
            continue;
        }
        bad += m[1] != seq;
        for (uint32_t i = 2; i < SEC_MSG_WORDS; ++i)
            bad += m[i] != sec_word(v, seq, i);
        sink_count[v] = ++seq;
    }
    CHECK_EQ(bad, 0);
    sink_unsolicited[v] = unsolicited;
    sink_ok[v] = bad == 0 ? SEC_MSGS : 0;
}

/* tile 3's part of the collective rounds: reduction contributor and gather part 1 */
static void contributor(void *arg)
{
    (void)arg;
    mcapi_status_t st;
    mcapi_endpoint_t me, red, gat;
    KMP(me = mcapi_endpoint_get(MCAPI_DOMAIN, 3, SEC_PORT_MEMBER, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(red = mcapi_endpoint_get(MCAPI_DOMAIN, 1, SEC_PORT_ROOT_RED, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(gat =
            mcapi_endpoint_get(MCAPI_DOMAIN, 2, SEC_PORT_ROOT_GATHER, MCAPI_TIMEOUT_INFINITE, &st));
    static mcapix_reduce_tx_t rt;
    static mcapix_gather_tx_t gt;
    KMP(mcapix_reduce_tx_create(&rt, me, red, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapix_gather_tx_create(&gt, me, gat, 9, 1, 4, 4, 4, 8, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    for (uint32_t round = 0; round < SEC_ROUNDS; ++round) {
        /* in step with V0 (it contributes round r after its message r): the root's four elements
         * never fill with rounds V0 has not reached (a collective holds this tile's other sends) */
        CHECK(wait_word(&sink_count[0], round + 1, BOUND_TICKS));
        int32_t vec[SEC_RED_WORDS];
        for (uint32_t i = 0; i < SEC_RED_WORDS; ++i)
            vec[i] = sec_red(3, round, i);
        KMP(mcapix_reduce_send(&rt, MCAPIX_OP_SUM, MCAPIX_T_INT32, vec, sizeof vec, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        uint8_t part[16];
        for (uint32_t i = 0; i < sizeof part; ++i)
            part[i] = (uint8_t)(round * 5u + i + 100u);
        KMP(mcapix_gather_send(&gt, part, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
}

/* ---- the roots (tiles 1 and 2): members V0 and tile 3, every round exact ---- */

static void members(mcapi_endpoint_t m[2])
{
    mcapi_status_t st;
    KMP(m[0] = mcapi_endpoint_get(MCAPI_DOMAIN, 0, SEC_PORT_VIC, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(m[1] = mcapi_endpoint_get(MCAPI_DOMAIN, 3, SEC_PORT_MEMBER, MCAPI_TIMEOUT_INFINITE, &st));
}

static volatile uint32_t rounds_ok;

static void reduce_root(void *arg)
{
    mcapi_endpoint_t root = arg, m[2];
    static mcapix_reduce_rx_t rr;
    mcapi_status_t st;
    KMP(mcapix_reduce_rx_create(&rr, root, 2, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    members(m);
    KMP(mcapix_reduce_rx_members(&rr, 2, m, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    for (uint32_t round = 0; round < SEC_ROUNDS; ++round) {
        int32_t sum[SEC_RED_WORDS];
        size_t got = 0;
        KMP(mcapix_reduce_recv(&rr, MCAPIX_OP_SUM, MCAPIX_T_INT32, sum, sizeof sum, &got, &st));
        uint32_t bad = st != MCAPI_SUCCESS || got != sizeof sum;
        for (uint32_t i = 0; i < SEC_RED_WORDS; ++i)
            bad += sum[i] != sec_red(0, round, i) + sec_red(3, round, i);
        CHECK_EQ(bad, 0);
        rounds_ok += bad == 0;
    }
}

static void gather_root(void *arg)
{
    mcapi_endpoint_t root = arg, m[2];
    static mcapix_gather_rx_t gr;
    mcapi_status_t st;
    KMP(mcapix_gather_rx_create(&gr, root, 2, 32, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    members(m);
    KMP(mcapix_gather_rx_members(&gr, m, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    for (uint32_t round = 0; round < SEC_ROUNDS; ++round) {
        uint8_t msg[32];
        size_t got = 0;
        KMP(mcapix_gather_recv(&gr, msg, sizeof msg, &got, &st));
        uint32_t bad = st != MCAPI_SUCCESS || got != sizeof msg;
        for (uint32_t row = 0; row < 4; ++row)
            for (uint32_t c = 0; c < 8; ++c)
                bad += msg[row * 8 + c] != (c < 4 ? (uint8_t)(round * 3u + row * 4 + c)
                                                  : (uint8_t)(round * 5u + row * 4 + c - 4 + 100u));
        CHECK_EQ(bad, 0);
        rounds_ok += bad == 0;
    }
}

/* ---- moves (headers, drop): a mover on tiles 0 and 2 moves the attacker when asked ---- */

static k_thread_t *moving; /* the attacker, on this tile */
static mcapi_endpoint_t mover_ep;

static void mover(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t m[8];
        recv_on(mover_ep, m);
        if (m[0] == OP_DONE)
            return;
        k_thread_t *t = NULL;
        for (uint32_t i = 0; i < BOUND_TICKS && !moving && !(t = k_migrate_take_arrival()); ++i)
            k_sleep(1);
        if (t)
            moving = t;
        uint32_t ans[8] = {0};
        if (m[0] == OP_MOVE && moving) {
            ans[2] = ctl(moving)->done; /* its attack over: the coordinator stops moving it */
            ans[3] = ctl(moving)->iters;
            const uint64_t t0 = k_ticks();
            const int rc = k_task_migrate(moving, m[1], (int)m[2], NULL);
            ans[0] = (uint32_t)rc;
            ans[1] = (uint32_t)(k_ticks() - t0);
            if (rc == K_OK) {
                int status = -1;
                CHECK_EQ(k_join(moving, K_FOREVER, &status), K_OK);
                CHECK_EQ(status, K_MIGRATED);
                moving = NULL;
            }
        } else if (m[0] == OP_STOP && moving) { /* the attack's end: its counters, its end */
            struct sec_task *d = ctl(moving);
            CHECK(wait_word(&d->done, 2, BOUND_TICKS));
            report_attacker(d, tile_id() ? "(moved, on tile 2)" : "(moved, on tile 0)");
            ans[0] = d->iters;
            CHECK_EQ(end_task(moving), 0);
            moving = NULL;
        }
        to_port(mover_ep, m[7], SEC_PORT_CTRL, ans);
    }
}

/* The coordinator on tile 0: the attacker moves between tiles 0 and 2 with random methods until
 * it is done (SEC_MOVES at least for drop). */
static void coordinate_moves(void)
{
    uint32_t at = 0, seed = 0xC0DE5EC1u, moves = 0, refused = 0, longest = 0, over = 0,
             refused_by[3] = {0};
    uint32_t unsupported = 0, by_method[5] = {0};
    const uint32_t want = SEC_CLASS == SEC_DROP ? SEC_MOVES : 40u;
    while (moves < want || !over) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        /* every method: pausing, relocation and dualcast (NAMP-PS), software PS (which refuses a
         * task with a connection-less endpoint: K_ENOTSUP; HEADERS_SW has none and uses it only) */
        const uint32_t to = at ? 0 : 2, method = SEC_CLASS == SEC_HEADERS_SW
                                                     ? (uint32_t)K_MIGRATE_SOFTWARE
                                                     : 1 + seed % 4;
        const uint32_t m[8] = {OP_MOVE, to, method, 0, 0, 0, 0, 0};
        uint32_t ans[8];
        to_port(ctrl, at, SEC_PORT_MOVER, m);
        from_any(ans, 8);
        if ((int32_t)ans[0] == K_OK) {
            at = to;
            ++moves;
            ++by_method[method];
        } else {
            ++refused;
            /* refused, the task staying where it was: busy (a request or a transfer of its own under
             * way), no room there, or its own headers keeping a peer's transfer from settling */
            const int32_t rc = (int32_t)ans[0];
            if (rc == K_ENOTSUP && method == K_MIGRATE_SOFTWARE && SEC_CLASS != SEC_HEADERS_SW) {
                ++unsupported; /* software PS and a connection-less endpoint: refused, stays */
                k_sleep(2 + seed % 8);
                continue;
            }
            if (rc != K_EBUSY && rc != K_ENOMEM && rc != K_ETIMEDOUT)
                k_printf("sec moves: tile %lu -> %lu, method %lu: %ld\n", (unsigned long)at,
                         (unsigned long)to, (unsigned long)method, (long)rc);
            CHECK(rc == K_EBUSY || rc == K_ENOMEM || rc == K_ETIMEDOUT);
            refused_by[rc == K_EBUSY ? 0 : rc == K_ENOMEM ? 1 : 2]++;
        }
        longest = ans[1] > longest ? ans[1] : longest;
        over = ans[2] >= 2;
        CHECK(ans[1] < MOVE_BOUND_TICKS);
        if (moves > 4 * want + 100)
            break;
        k_sleep(
            2 +
            seed %
                8); /* the moves are the kernel's (high priority): the tile's tasks run between */
    }
    const uint32_t stop[8] = {OP_STOP, 0, 0, 0, 0, 0, 0, 0};
    uint32_t ans[8];
    to_port(ctrl, at, SEC_PORT_MOVER, stop);
    from_any(ans, 8);
    const uint32_t done[8] = {OP_DONE, 0, 0, 0, 0, 0, 0, 0};
    to_port(ctrl, 0, SEC_PORT_MOVER, done);
    to_port(ctrl, 2, SEC_PORT_MOVER, done);
    CHECK(moves >= want);
    k_printf("sec %s moves: %lu migrations (%lu refused: %lu busy, %lu no room, %lu timed out), "
             "each within %lu "
             "ticks\n",
             class_name[SEC_CLASS], (unsigned long)moves, (unsigned long)refused,
             (unsigned long)refused_by[0], (unsigned long)refused_by[1],
             (unsigned long)refused_by[2], (unsigned long)longest);
    k_printf("sec %s methods: %lu pause, %lu relocate, %lu dualcast, %lu software (%lu software "
             "refused: "
             "connection-less endpoint)\n",
             class_name[SEC_CLASS], (unsigned long)by_method[1], (unsigned long)by_method[2],
             (unsigned long)by_method[3], (unsigned long)by_method[4], (unsigned long)unsupported);
}

/* tile 3's feeder of the headers attacker: messages and packets it may or may not take, until
 * tile 0 says the attack is over (the attacker has ended: what is under way fails) */
static volatile uint32_t att_feed_stop, att_feed_over;

static void attacker_feeder(void *arg)
{
    (void)arg;
    mcapi_status_t st;
    mcapi_endpoint_t me = own(SEC_PORT_FEED + 2), ch, to, chto;
    KMP(ch = mcapix_endpoint_create(SEC_PORT_FEED_CH + 2, &feed_attrs, &st));
    to = NULL; /* HEADERS_SW: the attacker has its channel only */
    if (SEC_CLASS == SEC_HEADERS)
        KMP(to = mcapi_endpoint_get(MCAPI_DOMAIN, 0, SEC_PORT_ATT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(chto = mcapi_endpoint_get(MCAPI_DOMAIN, 0, SEC_PORT_ATT + 1, MCAPI_TIMEOUT_INFINITE, &st));
    static mcapi_request_t r, rm,
        rp; /* the library keeps requests under way: not on a stack that ends */
    size_t sz;
    KMP(mcapi_pktchan_connect_i(ch, chto, &r, &st));
    mcapi_pktchan_send_hndl_t sh = NULL;
    KMP(mcapi_pktchan_send_open_i(&sh, ch, &r, &st));
    KMP(mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st));
    static uint32_t m[SEC_MSG_WORDS];
    for (uint32_t i = 0; i < SEC_MSG_WORDS; ++i)
        m[i] = 0x1000u + i; /* nothing foreign: the attacker's own traffic */
    int msg_busy = 0, pkt_busy = 0;
    while (!att_feed_stop) {
        mcapi_boolean_t done;
        if (msg_busy) {
            KMP(done = mcapi_test(&rm, &sz, &st));
            msg_busy = !done;
        } else if (to) {
            KMP(mcapi_msg_send_i(me, to, m, sizeof m, 0, &rm, &st));
            msg_busy = st == MCAPI_PENDING;
        }
        if (pkt_busy) {
            KMP(done = mcapi_test(&rp, &sz, &st));
            pkt_busy = !done;
        } else if (sh) {
            KMP(mcapi_pktchan_send_i(sh, m, sizeof m, &rp, &st));
            pkt_busy = st == MCAPI_PENDING;
        }
        k_sleep(2);
    }
    for (uint32_t i = 0; i < 2000 && (msg_busy || pkt_busy);
         ++i) { /* the attacker's end fails them */
        mcapi_boolean_t done;
        if (msg_busy)
            KMP(msg_busy = !(done = mcapi_test(&rm, &sz, &st)));
        if (pkt_busy)
            KMP(pkt_busy = !(done = mcapi_test(&rp, &sz, &st)));
        k_sleep(1);
    }
    if (msg_busy)
        KMP(mcapi_cancel(&rm, &st));
    if (pkt_busy)
        KMP(mcapi_cancel(&rp, &st));
    KMP(mcapi_endpoint_delete(ch, &st));
    att_feed_over = 1;
}

/* ---- identity: tile 0 makes and kills receivers, tile 1 sends to them ---- */

static void identity_tile0(void)
{
    uint32_t misaddressed = 0, received = 0, skipped = 0;
    for (uint32_t k = 0; k < SEC_RECEIVERS; ++k) {
        k_thread_t *rcv = make(SEC_RECEIVER, k, 4, 3);
        if (!rcv)
            break;
        struct sec_task *d = ctl(rcv);
        CHECK_EQ(k_task_resume(rcv), K_OK);
        CHECK(wait_word(&d->done, 1, BOUND_TICKS));
        /* the attacker holds the port now: the senders are not told of this one (they would look
         * the port up and reach its owner, rightly) */
        const uint32_t up[8] = {d->errors ? OP_KILLED : OP_UP, k, 0, 0, 0, 0, 0, 0};
        skipped += d->errors != 0;
        to_tile(1, up, 8);
        uint32_t ans[8];
        from_any(ans, 8); /* tile 1 sent it some; now it dies (a fault of its own) */
        k_sleep(k % 5);
        d->stop = 2;
        /* dead, and its endpoints deleted by the kernel (within a tick or two): from then on
         * nothing reaches its memory */
        struct kmp_task_ep list[MP_TASK_EPS];
        int deleting = 0, n = 1;
        kmp_task_diag_t g = {0};
        for (uint32_t i = 0; i < BOUND_TICKS && (g.thread_state != 5 /* dead */ || n != 0); ++i) {
            (void)kmp_task_diagnose(rcv, &g);
            n = kmp_task_list(rcv, list, MP_TASK_EPS, &deleting);
            k_sleep(1);
        }
        misaddressed += d->bad;
        received += d->received;
        int status = -1;
        CHECK_EQ(k_join(rcv, K_FOREVER, &status), K_OK);
        CHECK(status >= K_KILLED);
        if (!up[0] || up[0] == OP_UP) {
            const uint32_t killed[8] = {OP_KILLED, k, 0, 0, 0, 0, 0, 0};
            to_tile(1, killed, 8);
            from_any(ans, 8); /* tile 1 sent to the dead one meanwhile: refused */
        }
    }
    CHECK_EQ(misaddressed, 0);
    CHECK(received > 0);
    k_printf("sec identity receivers: %u made and killed (%lu found their port taken), %lu "
             "messages received, "
             "%lu misaddressed\n",
             SEC_RECEIVERS, (unsigned long)skipped, (unsigned long)received,
             (unsigned long)misaddressed);
}

static void identity_tile1(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t me = own(SEC_PORT_ATT + 9);
    uint32_t sent = 0, after = 0, late_ok = 0;
    mcapi_endpoint_t h = NULL;
    for (uint32_t k = 0; k < SEC_RECEIVERS; ++k) {
        uint32_t m[8];
        from_any(m, 8);
        const uint32_t ok[8] = {1, 0, 0, 0, 0, 0, 0, 0};
        if (m[0] != OP_UP) { /* its port was taken before it: skipped */
            to_tile(0, ok, 8);
            continue;
        }
        KMP(h = mcapi_endpoint_get(MCAPI_DOMAIN, 0, SEC_PORT_RECV + k, MCAPI_TIMEOUT_INFINITE,
                                   &st));
        uint32_t msg[SEC_MSG_WORDS];
        for (uint32_t seq = 0; seq < 3; ++seq) {
            msg[0] = 0x100u + k;
            msg[1] = seq;
            for (uint32_t i = 2; i < SEC_MSG_WORDS; ++i)
                msg[i] = sec_word(0x100u + k, seq, i);
            KMP(mcapi_msg_send(me, h, msg, sizeof msg, 0, &st));
            sent += st == MCAPI_SUCCESS;
        }
        to_tile(0, ok, 8);
        from_any(m, 8);
        CHECK_EQ(m[0], OP_KILLED);
        for (uint32_t seq = 3; seq < 9; ++seq) { /* the dead one's handle: never delivered */
            msg[0] = 0x100u + k;
            msg[1] = seq;
            KMP(mcapi_msg_send(me, h, msg, sizeof msg, 0, &st));
            ++after;
            late_ok += st == MCAPI_SUCCESS;
            k_sleep(1);
        }
        to_tile(0, ok, 8);
    }
    CHECK_EQ(late_ok, 0);
    k_printf(
        "sec identity senders: %lu messages to live receivers, %lu to dead ones (%lu delivered)\n",
        (unsigned long)sent, (unsigned long)after, (unsigned long)late_ok);
}

/* ---- the tiles ---- */

static void tile0(void)
{
    k_thread_t *v0 = make(SEC_VICTIM, 0, 1, 3);
    struct sec_task *dv = ctl(v0);
    dv->member = collective && (SEC_CLASS == SEC_COLLECTIVE || SEC_CLASS == SEC_CLAIMS);
    CHECK_EQ(k_task_resume(v0), K_OK);
    k_thread_t *att[2] = {NULL, NULL};
    const uint32_t n_att = SEC_CLASS == SEC_QUOTA ? 2 : 1;
    for (uint32_t i = 0; i < n_att; ++i) {
        att[i] = make(SEC_ATTACKER, i, 2 + i, 3);
        if (!att[i])
            continue;
        ctl(att[i])->peer_tile[0] = 0; /* a kernel index that is V0's (its first endpoint) */
        CHECK_EQ(k_task_resume(att[i]), K_OK);
        CHECK(wait_word(&ctl(att[i])->done, 1, BOUND_TICKS));
    }
    dv->go = 1;
    watch_start(v0);
    for (uint32_t i = 0; i < n_att; ++i)
        if (att[i])
            ctl(att[i])->go = 1;
    if (SEC_IS_HEADERS || SEC_CLASS == SEC_DROP) {
        moving = att[0];
        mcapi_status_t st;
        KMP(mover_ep =
                mcapi_endpoint_get(MCAPI_DOMAIN, 0, SEC_PORT_MOVER, MCAPI_TIMEOUT_INFINITE, &st));
        k_thread_create("mover", mover, NULL, 9, 0);
        coordinate_moves();
        att[0] = NULL;        /* ended by its mover */
        if (SEC_IS_HEADERS) { /* its feeder's end */
            const uint32_t stop[8] = {OP_STOP, 0, 0, 0, 0, 0, 0, 0};
            to_tile(3, stop, 8);
        }
    }
    if (SEC_CLASS == SEC_IDENTITY)
        identity_tile0();
    for (uint32_t i = 0; i < n_att; ++i)
        if (att[i]) {
            if (SEC_CLASS == SEC_IDENTITY) /* its churn goes on as long as the receivers come */
                ctl(att[i])->stop = 1;
            wait_attacker(att[i]);
        }
    victim_verdict(v0, watch_victim(v0, NULL));
    for (uint32_t i = 0; i < n_att; ++i) {
        if (!att[i])
            continue;
        report_attacker(ctl(att[i]), i ? "A1 (tile 0)" : "A0 (tile 0)");
        CHECK_EQ(end_task(att[i]), 0);
    }
}

static void tile1(void)
{
    k_thread_t *v1 = make(SEC_VICTIM, 1, 1, 3);
    CHECK_EQ(k_task_resume(v1), K_OK);
    k_thread_t *a = NULL;
    if (SEC_CLASS == SEC_QUOTA) { /* a colluder on another tile */
        a = make(SEC_ATTACKER, 5, 2, 3);
        CHECK_EQ(k_task_resume(a), K_OK);
        CHECK(wait_word(&ctl(a)->done, 1, BOUND_TICKS));
        ctl(a)->go = 1;
    }
    ctl(v1)->go = 1;
    watch_start(v1);
    mcapi_status_t st;
    mcapi_endpoint_t root = NULL;
    if (collective) {
        root = own(SEC_PORT_ROOT_RED);
        if (SEC_CLASS == SEC_COLLECTIVE || SEC_CLASS == SEC_CLAIMS)
            k_thread_create("root", reduce_root, root, 6, 0);
    }
    if (SEC_CLASS == SEC_IDENTITY)
        identity_tile1();
    if (SEC_CLASS == SEC_QUOTA) { /* the kernel's own endpoints and lookups meanwhile */
        mcapi_endpoint_t e, h;
        KMP(e = mcapi_endpoint_create(SEC_PORT_KERNEL_EXTRA, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        KMP(h = mcapi_endpoint_get(MCAPI_DOMAIN, 3, SEC_PORT_CTRL, 100000, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        (void)h;
        KMP(mcapi_endpoint_delete(e, &st));
    }
    if (a)
        wait_attacker(a);
    else
        CHECK(wait_word(&ctl(v1)->done, 1, BOUND_TICKS));
    victim_verdict(v1, watch_victim(v1, NULL));
    if (a) {
        report_attacker(ctl(a), "A5 (tile 1)");
        CHECK_EQ(end_task(a), 0);
        /* every lookup table of the tile works again: an honest lookup of an existing port */
        mcapi_endpoint_t h;
        KMP(h = mcapi_endpoint_get(MCAPI_DOMAIN, 0, SEC_PORT_CTRL, 100000, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        (void)h;
    }
    if (root && (SEC_CLASS == SEC_COLLECTIVE || SEC_CLASS == SEC_CLAIMS)) {
        CHECK(wait_word(&rounds_ok, SEC_ROUNDS, BOUND_TICKS));
        k_printf("sec %s reduction root: %lu of %u rounds exact\n", class_name[SEC_CLASS],
                 (unsigned long)rounds_ok, SEC_ROUNDS);
    }
}

static void tile2(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t root = NULL;
    if (collective) {
        root = own(SEC_PORT_ROOT_GATHER);
        if (SEC_CLASS == SEC_COLLECTIVE || SEC_CLASS == SEC_CLAIMS)
            k_thread_create("root", gather_root, root, 6, 0);
    }
    if (SEC_IS_HEADERS || SEC_CLASS == SEC_DROP) {
        KMP(mover_ep =
                mcapi_endpoint_get(MCAPI_DOMAIN, 2, SEC_PORT_MOVER, MCAPI_TIMEOUT_INFINITE, &st));
        k_thread_create("mover", mover, NULL, 9, 0);
    }
    k_thread_t *a = NULL;
    if (SEC_CLASS == SEC_QUOTA) {
        a = make(SEC_ATTACKER, 6, 2, 3);
        CHECK_EQ(k_task_resume(a), K_OK);
        CHECK(wait_word(&ctl(a)->done, 1, BOUND_TICKS));
        ctl(a)->go = 1;
        wait_attacker(a);
        report_attacker(ctl(a), "A6 (tile 2)");
        CHECK_EQ(end_task(a), 0);
    }
    if (root && (SEC_CLASS == SEC_COLLECTIVE || SEC_CLASS == SEC_CLAIMS)) {
        CHECK(wait_word(&rounds_ok, SEC_ROUNDS, BOUND_TICKS));
        k_printf("sec %s gather root: %lu of %u rounds exact\n", class_name[SEC_CLASS],
                 (unsigned long)rounds_ok, SEC_ROUNDS);
    }
}

static void tile3(void)
{
    for (uint32_t v = 0; v < 2; ++v) {
        k_thread_create("feeder", feeder, (void *)(uintptr_t)v, 5, 0);
        k_thread_create("sink", sink, (void *)(uintptr_t)v, 5, 0);
    }
    if (collective && (SEC_CLASS == SEC_COLLECTIVE || SEC_CLASS == SEC_CLAIMS))
        k_thread_create("member", contributor, NULL, 5, 0);
    if (SEC_IS_HEADERS)
        k_thread_create("attfeed", attacker_feeder, NULL, 5, 0);
    k_thread_t *a = NULL;
    if (SEC_CLASS == SEC_COLLECTIVE) { /* a colluder beside the bare-metal member */
        a = make(SEC_ATTACKER, 3, 2, 3);
        CHECK_EQ(k_task_resume(a), K_OK);
        CHECK(wait_word(&ctl(a)->done, 1, BOUND_TICKS));
        ctl(a)->go = 1;
    }
    for (uint32_t v = 0; v < 2; ++v)
        CHECK(wait_word(&sink_ok[v], SEC_MSGS, BOUND_TICKS));
    if (ktest_failures == 0)
        k_printf("sec %s streams: 2 victims x %u messages each way and %u packets, once, in order, "
                 "intact "
                 "(%lu messages of others to the sinks)\n",
                 class_name[SEC_CLASS], SEC_MSGS, SEC_MSGS,
                 (unsigned long)(sink_unsolicited[0] + sink_unsolicited[1]));
    if (a) {
        wait_attacker(a);
        report_attacker(ctl(a), "A3 (tile 3)");
        CHECK_EQ(end_task(a), 0);
    }
    if (SEC_IS_HEADERS) {
        uint32_t m[8];
        from_any(m, 8);
        CHECK_EQ(m[0], OP_STOP);
        att_feed_stop = 1;
        CHECK(wait_word(&att_feed_over, 1, BOUND_TICKS));
    }
}

/* Every tile: start, count, its role; then the tiles wait for each other before the verdict (the
 * moves and the streams cross tiles), and each counts again. */
static void tile_main(void *arg)
{
    (void)arg;
    tile_start();
    static void (*const roles[4])(void) = {tile0, tile1, tile2, tile3};
    if (!mcapix_ps_available() && (SEC_CLASS == SEC_HEADERS || SEC_CLASS == SEC_DROP)) {
        k_printf("FAIL: no NAMP-PS: the %s adversary moves its task (run with --preset svfull)\n",
                 class_name[SEC_CLASS]);
        ktest_failures++;
        k_exit(1);
    }
    if (!collective && SEC_CLASS == SEC_COLLECTIVE) {
        k_printf("FAIL: no NAMP-CC reduction and gather (run with --preset svfull)\n");
        ktest_failures++;
        k_exit(1);
    }
    snapshot();
    roles[tile_id()]();
    /* the end: tile 0 says when every tile's part is over */
    uint32_t m[8];
    if (tile_id() == 0) {
        for (uint32_t t = 1; t < 4; ++t) {
            const uint32_t done[8] = {OP_DONE, 0, 0, 0, 0, 0, 0, 0};
            to_tile(t, done, 8);
        }
    } else {
        from_any(m, 8);
    }
    k_sleep(100); /* the others' last messages through this tile's adapter */
    tile_verdict();
    kmp_task_service_stop();
    k_migrate_service_stop();
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        k_config_t cfg = {.tick_ticks = 1000, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", tile_main, NULL, 10, 0);
    }
    k_start();
}
