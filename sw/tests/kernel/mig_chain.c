/* Task migration, the three-task chain of thesis Fig. 3.37 (docs/kernel.md "Task migration"),
 * preset svfull on a 2x2 mesh: source A (tile 0) -> stage B (tile 1) -> sink C (tile 3), channels
 * (MIG_CHANNELS=1) or connection-less messages; after MIG_AT items B moves to tile 2 with the
 * method MIG_METHOD while the items keep coming. C checks every item once, in order, intact.
 * Prints the migration's timing on tile 1 and "mig chain ok: ..." with the latency figures on
 * tile 3. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "ktest.h"
#include "mcapi.h"
#include "mig.h"
#include "mig_kernel.h"
#include "na_registers.h"
#include "namp_ps.h"

#ifndef MIG_METHOD
#define MIG_METHOD K_MIGRATE_RELOCATE
#endif
#ifndef MIG_CHANNELS
#define MIG_CHANNELS 1
#endif
#define ITEMS        300u
/* software PS forwards channels only: with messages the migration is refused */
#define REFUSED      (MIG_METHOD == K_MIGRATE_SOFTWARE && !MIG_CHANNELS)
#define MIG_AT       100u
#define PERIOD       2u    /* ticks between the source's items */
#define TABLES_TICKS 1000u /* the message chains need 2 */

volatile unsigned ktest_failures;
static const char *const method_name[] = {"?", "pause", "relocate", "dualcast", "software"};

static int tables_same(const kmp_task_tables_t *a, const kmp_task_tables_t *b)
{
    return a->records == b->records && a->endpoints == b->endpoints && a->handles == b->handles &&
           a->reserved_endpoints == b->reserved_endpoints &&
           a->reserved_handles == b->reserved_handles &&
           a->library_endpoints == b->library_endpoints && a->vif_slots == b->vif_slots &&
           a->pages_free == b->pages_free && a->dangling == 0;
}

/* This tile's task tables and pages as before its task came, within TABLES_TICKS. */
static void check_tables_back(const kmp_task_tables_t *before)
{
    kmp_task_tables_t now;
    uint32_t k = 0;
    for (kmp_task_tables(&now); !tables_same(&now, before) && k < TABLES_TICKS;
         kmp_task_tables(&now)) {
        k_sleep(1);
        ++k;
    }
    if (!tables_same(&now, before))
        k_printf("FAIL: tile %lu after %lu ticks: records %lu/%lu endpoints %lu/%lu handles "
                 "%lu/%lu library "
                 "%lu/%lu vifs %lu/%lu pages %lu/%lu dangling %lu\n",
                 (unsigned long)tile_id(), (unsigned long)k, (unsigned long)now.records,
                 (unsigned long)before->records, (unsigned long)now.endpoints,
                 (unsigned long)before->endpoints, (unsigned long)now.handles,
                 (unsigned long)before->handles, (unsigned long)now.library_endpoints,
                 (unsigned long)before->library_endpoints, (unsigned long)now.vif_slots,
                 (unsigned long)before->vif_slots, (unsigned long)now.pages_free,
                 (unsigned long)before->pages_free, (unsigned long)now.dangling);
    else
        k_printf("mig chain: tile %lu tables and pages back %lu ticks after its task ended\n",
                 (unsigned long)tile_id(), (unsigned long)k);
    CHECK(tables_same(&now, before));
}

static k_thread_t *stage(uint32_t role, uint32_t n_in, uint32_t out_node)
{
    k_thread_t *t = mig_create("stage", 1);
    if (!t)
        return NULL;
    struct mig_task *d = mig_ctl(t);
    d->role = role;
    d->id = 0;
    d->n_items = ITEMS;
    d->period_ticks = role == MIG_SOURCE ? PERIOD : 0;
    d->work_loops = 50;
    d->channels = MIG_CHANNELS;
    d->n_in = n_in;
    d->n_out = out_node != ~0u;
    d->out_node[0] = out_node;
    d->out_port[0] = MIG_PORT_IN(0);
    d->streams = 1;
    k_task_resume(t);
    return t;
}

static void tile_main(void *arg)
{
    (void)arg;
    const uint32_t me = tile_id();
    mig_services_start();
    kmp_task_tables_t before; /* no task here yet */
    kmp_task_tables(&before);
    if (MIG_METHOD != K_MIGRATE_SOFTWARE &&
        !(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_PS)) {
        /* PS firmware without PS: the migration says so at once, and the run fails (software PS
         * needs no PS hardware) */
        if (me == 1) {
            k_thread_t *b = stage(MIG_STAGE, 1, 3);
            k_printf("FAIL: no NAMP-PS: k_task_migrate -> %d\n",
                     k_task_migrate(b, 2, MIG_METHOD, NULL));
            sim_exit(1); /* the whole run fails here (the tasks of the others wait for ever) */
        }
        for (;;)
            k_sleep(1000);
    }
    if (me == 0) {
        k_thread_t *a = stage(MIG_SOURCE, 0, 1);
        struct mig_task *d = mig_finish(a, 100000);
        CHECK_EQ(d->sent, ITEMS);
        CHECK_EQ(d->errors, 0);
        mig_end(a);
        check_tables_back(
            &before); /* also: A's "stopped" went before this kernel's service stops */
    } else if (me == 1) {
        k_thread_t *b = stage(MIG_STAGE, 1, 3);
        struct mig_task *d = mig_ctl(b);
        for (int i = 0; i < 100000 && d->received < MIG_AT; ++i)
            k_sleep(1);
        k_migrate_result_t r;
        const int rc = k_task_migrate(b, 2, MIG_METHOD, &r);
        if (REFUSED) { /* software PS and a connection-less endpoint: B streams on here */
            CHECK_EQ(rc, K_ENOTSUP);
            k_printf("mig chain: software PS refuses B (connection-less endpoints): %d\n", rc);
            struct mig_task *e = mig_finish(b, 100000);
            CHECK_EQ(e->sent, ITEMS);
            CHECK_EQ(e->errors, 0);
            mig_end(b);
            mig_services_stop_and_exit();
        }
        CHECK_EQ(rc, K_OK);
        k_printf("mig chain: %s migration of B to tile 2: %d, downtime %lu ticks, total %lu ticks, "
                 "%lu bytes moved\n",
                 method_name[MIG_METHOD], rc, (unsigned long)(r.t_resume - r.t_stop),
                 (unsigned long)(r.t_end - r.t_start), (unsigned long)r.bytes_moved);
        int status = -1;
        CHECK_EQ(k_join(b, K_FOREVER, &status), K_OK);
        CHECK_EQ(status, K_MIGRATED);
    } else if (me == 2) {
        if (REFUSED) /* nothing arrives */
            mig_services_stop_and_exit();
        k_thread_t *b = NULL;
        for (int i = 0; i < 100000 && !(b = k_migrate_take_arrival()); ++i)
            k_sleep(1);
        CHECK(b != NULL);
        if (b) {
            struct mig_task *d = mig_finish(b, 100000);
            CHECK_EQ(d->sent, ITEMS);
            CHECK_EQ(d->errors, 0);
            mig_end(b);
        }
        check_tables_back(&before);
    } else {
        k_thread_t *c = stage(MIG_SINK, 1, ~0u);
        struct mig_task *d = mig_finish(c, 100000);
        CHECK_EQ(d->received, ITEMS);
        CHECK_EQ(d->bad, 0);
        CHECK_EQ(d->dup_or_gap, 0);
        CHECK_EQ(d->errors, 0);
        CHECK_EQ(d->next_seq[0], ITEMS);
        uint32_t steady = ~0u, peak = 0;
        uint64_t extra = 0;
        for (uint32_t i = 0; i < d->n_lat; ++i) {
            steady = d->lat[i] < steady ? d->lat[i] : steady;
            peak = d->lat[i] > peak ? d->lat[i] : peak;
        }
        for (uint32_t i = 0; i < d->n_lat; ++i)
            extra += d->lat[i] - steady;
        if (ktest_failures == 0)
            k_printf(
                "mig chain ok: %s, %s, %lu items once, in order, intact; latency min %lu peak %lu "
                "ticks, extra %lu ticks\n",
                method_name[MIG_METHOD], MIG_CHANNELS ? "channels" : "messages",
                (unsigned long)d->received, (unsigned long)steady, (unsigned long)peak,
                (unsigned long)extra);
        mig_end(c);
        check_tables_back(&before);
    }
    mig_services_stop_and_exit();
}

int main(void) { mig_kernel_main(tile_main, 1000); }
