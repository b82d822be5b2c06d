/* Task migration under load (docs/kernel.md "Task migration"), preset svfull on the 4x4 mesh:
 * four pipelines source -> stage -> stage -> sink (pipelines 0 and 1 over channels, 2 and 3 over
 * connection-less messages), one task per tile at the start. A coordinator on tile 0 moves random
 * tasks (sources and sinks included) to random tiles with random methods, MIG_COUNT times, while
 * the items flow; each tile's manager migrates the tasks it hosts when asked and adopts the ones
 * that arrive. At the end every sink must have every item of its stream once, in order, intact.
 * A migration the destination refuses (its pool full) counts as refused; the task stays. */
#include <stddef.h>
#include <stdint.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "ktest.h"
#include "mcapi.h"
#include "mig.h"
#include "mig_kernel.h"
#include "mp/cbuffer.h"
#include "na_registers.h"
#include "namp_structs.h"

#ifndef MIG_COUNT
#define MIG_COUNT 100u
#endif
#ifndef ITEMS
#define ITEMS 1500u
#endif
#define PERIOD        2u
#define TASKS         16u
#define PORT_BASE(id) (100u + 4u * (id))
#define MGR_PORT      61
#define COORD_PORT    62
enum { OP_MIGRATE = 1, OP_COLLECT, OP_DONE, OP_PROGRESS, OP_DIAG };
/* a stream that moves not one item for this long after a migration is stuck */
#define STALL_TICKS 4000u

volatile unsigned ktest_failures;

static k_thread_t *local[TASKS]; /* this tile's tasks, by task id */
static mcapi_endpoint_t mgr_ep, coord_ep;

static void take_arrivals(void)
{
    k_thread_t *t;
    while ((t = k_migrate_take_arrival()) != NULL) {
        const uint32_t id = mig_ctl(t)->task_id;
        CHECK(id < TASKS);
        if (id < TASKS)
            local[id] = t;
    }
}

/* the tile of task id at the start, and its pipeline position */
static k_thread_t *create(uint32_t id)
{
    const uint32_t pipe = id / 4, pos = id % 4;
    k_thread_t *t = mig_create("stage", 1);
    if (!t)
        return NULL;
    struct mig_task *d = mig_ctl(t);
    d->role = pos == 0 ? MIG_SOURCE : pos == 3 ? MIG_SINK : MIG_STAGE;
    d->id = pipe;
    d->task_id = id;
    d->n_items = ITEMS;
    d->period_ticks = pos == 0 ? PERIOD : 0;
    d->work_loops = 30;
    d->channels = pipe < 2;
    d->n_in = pos != 0;
    d->n_out = pos != 3;
    d->out_node[0] = id + 1;      /* the next stage starts on the next tile */
    d->port_base = PORT_BASE(id); /* unique: any two tasks may meet on a tile */
    d->out_port[0] = PORT_BASE(id + 1);
    d->streams = 1;
    k_task_resume(t);
    return t;
}

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void send_to(mcapi_endpoint_t from, uint32_t tile, uint32_t port, const uint32_t *m,
                    uint32_t words)
{
    mcapi_status_t st;
    mcapi_endpoint_t to;
    KMP(to = mcapi_endpoint_get(MCAPI_DOMAIN, tile, port, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_msg_send(from, to, m, words * 4u, 0, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
}

/* One request to the manager of `tile` and its answer (up to 8 words). */
static void ask(uint32_t tile, const uint32_t m[4], uint32_t ans[8])
{
    size_t got;
    mcapi_status_t st;
    send_to(coord_ep, tile, MGR_PORT, m, 4);
    KMP(mcapi_msg_recv(coord_ep, ans, 8 * sizeof ans[0], &got, &st));
}

/* The same request to every manager, the answers' words summed. */
static void ask_all(uint32_t op, uint32_t sum[8])
{
    const uint32_t m[4] = {op, 0, 0, 0};
    for (uint32_t i = 0; i < 8; ++i)
        sum[i] = 0;
    for (uint32_t tile = 0; tile < TASKS; ++tile) {
        uint32_t ans[8] = {0};
        ask(tile, m, ans);
        for (uint32_t i = 0; i < 8; ++i)
            sum[i] += ans[i];
    }
}

/* Items each stream's sink has received (wherever the sink is now): words 0..3. */
static void progress(uint32_t out[8]) { ask_all(OP_PROGRESS, out); }

/* Liveness after migration k: every stream not finished yet moves on within STALL_TICKS. */
static int streams_move(uint32_t k)
{
    uint32_t before[8], now[8], diag[8];
    progress(before);
    for (uint32_t waited = 0; waited < STALL_TICKS; waited += 20) {
        k_sleep(20);
        progress(now);
        int all = 1;
        for (uint32_t i = 0; i < 4; ++i)
            all &= now[i] == ITEMS || now[i] > before[i];
        if (all)
            return 1;
    }
    for (uint32_t i = 0; i < 4; ++i)
        if (now[i] != ITEMS && now[i] == before[i])
            k_printf("FAIL: stream %lu stuck at item %lu after migration %lu\n", (unsigned long)i,
                     (unsigned long)now[i], (unsigned long)k);
    ask_all(OP_DIAG, diag); /* every task's state printed, one tile at a time */
    return 0;
}

static void coordinator(void *arg)
{
    (void)arg;
    uint32_t where[TASKS], seed = 0xC0FFEEu, done = 0, refused = 0, by_method[4] = {0},
                           by_vif[3] = {0};
    for (uint32_t i = 0; i < TASKS; ++i)
        where[i] = i;
    k_sleep(200); /* the pipelines are set up and flowing */
    /* MIG_COUNT migrations that happened (a refused one is tried again with other dice) */
    for (uint32_t k = 0; done < MIG_COUNT && k < 2 * MIG_COUNT; ++k) {
        const uint32_t id = rnd(&seed) % TASKS, method = 1 + rnd(&seed) % 3;
        uint32_t to = rnd(&seed) % TASKS;
        if (to == where[id])
            to = (to + 1) % TASKS;
        const uint32_t m[4] = {OP_MIGRATE, id, to, method};
        uint32_t ans[8] = {0};
        ask(where[id], m, ans);
        k_printf("migration %lu: task %lu tile %lu -> %lu, method %lu: %ld (vif %lu)\n",
                 (unsigned long)k, (unsigned long)id, (unsigned long)where[id], (unsigned long)to,
                 (unsigned long)method, (long)(int32_t)ans[0], (unsigned long)ans[1]);
        if ((int32_t)ans[0] == K_OK) {
            where[id] = to;
            ++done;
            ++by_method[method];
            ++by_vif[ans[1] < 3 ? ans[1] : 0];
        } else {
            CHECK((int32_t)ans[0] == K_ENOMEM || (int32_t)ans[0] == K_EBUSY);
            ++refused;
        }
        if (!streams_move(k)) {
            ++ktest_failures;
            break;
        }
    }
    /* the end: every manager reports its tasks' results once they are done */
    uint32_t r[8];
    ask_all(OP_COLLECT, r);
    const uint32_t received = r[1], bad = r[2], gaps = r[3], errors = r[4], sinks = r[5];
    CHECK_EQ(sinks, 4);
    CHECK_EQ(received, 4 * ITEMS);
    CHECK_EQ(bad, 0);
    CHECK_EQ(gaps, 0);
    CHECK_EQ(errors, 0);
    CHECK_EQ(done, MIG_COUNT);
    if (ktest_failures == 0)
        k_printf("mig stress ok: %lu migrations (pause %lu, relocate %lu, dualcast %lu), transfers "
                 "idle %lu "
                 "parked %lu restarted %lu, %lu refused, 4 x %u items once, in order, intact\n",
                 (unsigned long)done, (unsigned long)by_method[1], (unsigned long)by_method[2],
                 (unsigned long)by_method[3], (unsigned long)by_vif[0], (unsigned long)by_vif[1],
                 (unsigned long)by_vif[2], (unsigned long)refused, ITEMS);
    for (uint32_t tile = 0; tile < TASKS; ++tile) {
        uint32_t m[4] = {OP_DONE, 0, 0, 0};
        send_to(coord_ep, tile, MGR_PORT, m, 4);
    }
}

/* each tile: migrate its tasks on request, adopt arrivals, report at the end */
static void manager(void)
{
    for (;;) {
        uint32_t m[4];
        mcapi_status_t st;
        mcapi_request_t r;
        size_t got = 0;
        KMP(mcapi_msg_recv_i(mgr_ep, m, sizeof m, &r, &st));
        for (;;) {
            take_arrivals();
            KMP(mcapi_wait(&r, &got, 1000, &st));
            if (st != MCAPI_TIMEOUT)
                break;
        }
        take_arrivals();
        if (m[0] == OP_MIGRATE) {
            int32_t rc = K_EINVAL;
            k_migrate_result_t res = {0};
            if (m[1] < TASKS && local[m[1]]) {
                rc = k_task_migrate(local[m[1]], m[2], (int)m[3], &res);
                if (rc == K_OK) {
                    int status = -1;
                    CHECK_EQ(k_join(local[m[1]], K_FOREVER, &status), K_OK);
                    CHECK_EQ(status, K_MIGRATED);
                    local[m[1]] = NULL;
                }
            }
            uint32_t ans[4] = {(uint32_t)rc, res.vif_action, 0, 0};
            send_to(mgr_ep, 0, COORD_PORT, ans, 4);
        } else if (m[0] == OP_PROGRESS) {
            uint32_t ans[4] = {0};
            for (uint32_t id = 0; id < TASKS; ++id)
                if (local[id] && mig_ctl(local[id])->role == MIG_SINK)
                    ans[mig_ctl(local[id])->id & 3] = mig_ctl(local[id])->received;
            send_to(mgr_ep, 0, COORD_PORT, ans, 4);
        } else if (m[0] == OP_DIAG) {
            for (uint32_t id = 0; id < TASKS; ++id) {
                kmp_task_diag_t g;
                if (!local[id] || kmp_task_diagnose(local[id], &g) != K_OK)
                    continue;
                const struct mig_task *d = mig_ctl(local[id]);
                k_printf("task %lu: stage %lu sent %lu received %lu done %lu; thread %lu susp %lu "
                         "wake %lu; "
                         "vif %ld flags 0x%lx status 0x%lx slot 0x%lx 0x%lx; tx %lu..%lu\n",
                         (unsigned long)id, (unsigned long)d->stage, (unsigned long)d->sent,
                         (unsigned long)d->received, (unsigned long)d->done,
                         (unsigned long)g.thread_state, (unsigned long)g.suspended,
                         (unsigned long)g.wake_at, (long)g.vif_slot, (unsigned long)g.vif_flags,
                         (unsigned long)g.vif_status, (unsigned long)g.slot_flags,
                         (unsigned long)g.slot_status, (unsigned long)g.tx_rd,
                         (unsigned long)g.tx_wr);
            }
            uint32_t ans[4] = {0};
            send_to(mgr_ep, 0, COORD_PORT, ans, 4);
        } else if (m[0] == OP_COLLECT) {
            uint32_t ans[8] = {0};
            for (uint32_t id = 0; id < TASKS; ++id) {
                k_thread_t *t = local[id];
                if (!t)
                    continue;
                struct mig_task *d = mig_ctl(t);
                for (int i = 0; i < 20000 && !d->done; ++i)
                    k_sleep(1);
                CHECK(d->done);
                if (!d->done || d->errors)
                    k_printf(
                        "task %lu: stage %lu, sent %lu, received %lu, errors %lu (last %lu, vif "
                        "status 0x%lx)\n",
                        (unsigned long)id, (unsigned long)d->stage, (unsigned long)d->sent,
                        (unsigned long)d->received, (unsigned long)d->errors,
                        (unsigned long)d->last_status,
                        (unsigned long)*(uint32_t *)kmp_task_ptr(
                            t, K_USER_DATA + offsetof(mp_task_state_t, u.c.last_vif_status), 4));
                ans[0] += d->sent;
                if (d->role == MIG_SINK) {
                    ans[1] += d->received;
                    ans[2] += d->bad;
                    ans[3] += d->dup_or_gap;
                    ans[5]++;
                }
                ans[4] += d->errors;
            }
            send_to(mgr_ep, 0, COORD_PORT, ans, 8);
        } else if (m[0] == OP_DONE) {
            for (uint32_t id = 0; id < TASKS; ++id)
                if (local[id]) {
                    mig_ctl(local[id])->go = 2;
                    int status = -1;
                    CHECK_EQ(k_join(local[id], K_FOREVER, &status), K_OK);
                    CHECK_EQ(status, 0);
                }
            return;
        }
    }
}

static void tile_main(void *arg)
{
    (void)arg;
    mcapi_status_t st;
    const uint32_t me = tile_id();
    mig_services_start();
    KMP(mgr_ep = mcapi_endpoint_create(MGR_PORT, &st));
    local[me] = create(me);
    if (me == 0) {
        KMP(coord_ep = mcapi_endpoint_create(COORD_PORT, &st));
        k_thread_create("coord", coordinator, NULL, 11, 0);
    }
    manager();
    mig_services_stop_and_exit();
}

int main(void) { mig_kernel_main(tile_main, 1000); }
