/* Task migration, the bad paths (docs/kernel.md "Task migration"), preset svfull on a 2x2 mesh.
 * Tile 0 hosts task X, a source that streams items to a sink on tile 1, and task Y, which only
 * waits. Tile 0's kernel tries to migrate them where it must fail, and X keeps streaming through all
 * of it (the sink checks every item once, in order, intact); then X moves to tile 3 for real:
 *  - bad arguments (NULL, a kernel thread, itself, no such tile, no such method): K_EINVAL;
 *  - tile 2's page pool full: K_ENOMEM; tile 2's endpoint table full: K_ENOMEM; X's port taken on
 *    tile 3: K_EBUSY; a second migration of X while one is under way: K_EBUSY;
 *  - Y ends while it is being migrated: K_EINVAL, Y's end is its own;
 *  - afterwards every page of tiles 2 and 3 is back. The tiles' kernels coordinate by messages. */
#include <stddef.h>
#include <stdint.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "ktest.h"
#include "mcapi.h"
#include "mig.h"
#include "mig_kernel.h"

#define ITEMS     400u
#define CTRL_PORT 60
enum { STEP_FILL_PAGES = 1, STEP_FILL_EPS, STEP_TAKE_PORT, STEP_FREE, STEP_DONE };

volatile unsigned ktest_failures;

static k_thread_t *task(uint32_t role, uint32_t out_node, uint32_t period)
{
    k_thread_t *t = mig_create("task", 1 + (uint32_t)(role == 0));
    if (!t)
        return NULL;
    struct mig_task *d = mig_ctl(t);
    d->role = role;
    d->n_items = ITEMS;
    d->period_ticks = period;
    d->channels = 1;
    d->n_in = role == MIG_SINK;
    d->n_out = role == MIG_SOURCE;
    d->out_node[0] = out_node;
    d->out_port[0] = MIG_PORT_IN(0);
    d->streams = 1;
    k_task_resume(t);
    return t;
}

static mcapi_endpoint_t ctrl;
static k_thread_t *x_of_tile0;
static void mig_bad_second(void *arg);

/* a step for another tile's kernel, and its answer */
static void ask(uint32_t tile, uint32_t step)
{
    mcapi_status_t st;
    mcapi_endpoint_t to;
    uint32_t m = step;
    size_t got;
    KMP(to = mcapi_endpoint_get(MCAPI_DOMAIN, tile, CTRL_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_msg_send(ctrl, to, &m, 4, 0, &st));
    KMP(mcapi_msg_recv(ctrl, &m, 4, &got, &st));
    CHECK_EQ(m, step);
}

static void tile0(void)
{
    k_thread_t *x = task(MIG_SOURCE, 1, 1), *y = task(0, 0, 0);
    k_migrate_result_t r;
    /* bad arguments */
    CHECK_EQ(k_task_migrate(NULL, 2, K_MIGRATE_RELOCATE, &r), K_EINVAL);
    CHECK_EQ(k_task_migrate(k_self(), 2, K_MIGRATE_RELOCATE, &r), K_EINVAL);
    CHECK_EQ(k_task_migrate(x, 0, K_MIGRATE_RELOCATE, &r), K_EINVAL);
    CHECK_EQ(k_task_migrate(x, 4, K_MIGRATE_RELOCATE, &r), K_EINVAL);
    CHECK_EQ(k_task_migrate(x, 2, 7, &r), K_EINVAL);
    /* a full destination: pages, then the endpoint table; a port taken */
    ask(2, STEP_FILL_PAGES);
    CHECK_EQ(k_task_migrate(x, 2, K_MIGRATE_RELOCATE, &r), K_ENOMEM);
    ask(2, STEP_FREE);
    ask(2, STEP_FILL_EPS);
    CHECK_EQ(k_task_migrate(x, 2, K_MIGRATE_DUALCAST, &r), K_ENOMEM);
    ask(2, STEP_FREE);
    ask(3, STEP_TAKE_PORT);
    CHECK_EQ(k_task_migrate(x, 3, K_MIGRATE_PAUSE, &r), K_EBUSY);
    ask(3, STEP_FREE);
    /* Y ends while it is being migrated */
    mig_ctl(y)->go = 3;
    CHECK_EQ(k_task_migrate(y, 2, K_MIGRATE_RELOCATE, &r), K_EINVAL);
    int status = -1;
    CHECK_EQ(k_join(y, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 3);
    /* X is still here and streaming; now it moves, and a second migration of it meanwhile is
     * refused (a helper thread tries while this one waits inside the first) */
    CHECK(mig_ctl(x)->sent < ITEMS);
    static volatile int second = 1;
    x_of_tile0 = x;
    k_thread_create("second", mig_bad_second, (void *)&second, 9, 0);
    const int rc = k_task_migrate(x, 3, K_MIGRATE_RELOCATE, &r);
    CHECK_EQ(rc, K_OK);
    CHECK_EQ(second, K_EBUSY);
    CHECK_EQ(k_join(x, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, K_MIGRATED);
    if (ktest_failures == 0)
        k_printf("mig bad ok: bad arguments 5, pages full, endpoints full, port taken, busy, task "
                 "ended; moved\n");
    ask(2, STEP_DONE);
    ask(3, STEP_DONE);
}

/* a second migration of the same task, started while the first waits for an answer (this thread
 * runs below the first's priority: only when that one waits) */
static void mig_bad_second(void *arg)
{
    volatile int *res = arg;
    k_migrate_result_t r;
    *res = k_task_migrate(x_of_tile0, 2, K_MIGRATE_RELOCATE, &r);
}

/* tiles 2 and 3: fill, free and report on request */
static void helper_tile(uint32_t me)
{
    static k_thread_t *fill[48];
    static mcapi_endpoint_t eps[32];
    uint32_t n_fill = 0, n_eps = 0;
    const uint32_t pages = k_pages_free();
    for (;;) {
        uint32_t m;
        size_t got;
        mcapi_status_t st;
        KMP(mcapi_msg_recv(ctrl, &m, 4, &got, &st));
        if (m == STEP_FILL_PAGES) {
            k_task_image_t img = {"fill", mig_task_main, NULL, K_PAGE_SIZE * 2, 1, 2, 1};
            while (n_fill < 48 && (fill[n_fill] = k_task_create(&img)) != NULL)
                ++n_fill;
        } else if (m == STEP_FILL_EPS) {
            const mcapix_endpoint_attributes_t small = {0, 2, 0, 0}; /* one 4-byte element */
            while (n_eps < 32) {
                KMP(eps[n_eps] = mcapix_endpoint_create(100 + n_eps, &small, &st));
                if (st != MCAPI_SUCCESS)
                    break;
                ++n_eps;
            }

        } else if (m == STEP_TAKE_PORT) {
            KMP(eps[n_eps] = mcapi_endpoint_create(MIG_PORT_OUT(0), &st));
            CHECK_EQ(st, MCAPI_SUCCESS);
            ++n_eps;
        } else if (m == STEP_FREE) {
            for (uint32_t i = 0; i < n_fill; ++i) { /* they end at once (nothing mapped there) */
                k_task_resume(fill[i]);
                int status;
                CHECK_EQ(k_join(fill[i], K_FOREVER, &status), K_OK);
            }
            for (uint32_t i = 0; i < n_eps; ++i)
                KMP(mcapi_endpoint_delete(eps[i], &st));
            n_fill = n_eps = 0;
        }
        mcapi_endpoint_t to;
        KMP(to = mcapi_endpoint_get(MCAPI_DOMAIN, 0, CTRL_PORT, MCAPI_TIMEOUT_INFINITE, &st));
        KMP(mcapi_msg_send(ctrl, to, &m, 4, 0, &st));
        if (m == STEP_DONE && me == 3) {
            k_thread_t *x = NULL; /* X arrived here: let it finish */
            for (int i = 0; i < 100000 && !(x = k_migrate_take_arrival()); ++i)
                k_sleep(1);
            CHECK(x != NULL);
            if (x) {
                struct mig_task *d = mig_ctl(x);
                for (int i = 0; i < 100000 && !d->done; ++i)
                    k_sleep(1);
                CHECK_EQ(d->sent, ITEMS);
                CHECK_EQ(d->errors, 0);
                d->go = 2;
                int status;
                CHECK_EQ(k_join(x, K_FOREVER, &status), K_OK);
            }
            break;
        }
        if (m == STEP_DONE)
            break;
    }
    for (int i = 0; i < 200 && k_pages_free() != pages; ++i)
        k_sleep(1);
    CHECK_EQ(k_pages_free(), pages);
}

static void tile_main(void *arg)
{
    (void)arg;
    mcapi_status_t st;
    const uint32_t me = tile_id();
    mig_services_start();
    KMP(ctrl = mcapi_endpoint_create(CTRL_PORT, &st));
    if (me == 0) {
        tile0();
    } else if (me == 1) {
        k_thread_t *sink = task(MIG_SINK, 0, 0);
        struct mig_task *d = mig_ctl(sink);
        for (int i = 0; i < 200000 && !d->done; ++i)
            k_sleep(1);
        CHECK_EQ(d->received, ITEMS);
        CHECK_EQ(d->dup_or_gap, 0);
        CHECK_EQ(d->bad, 0);
        if (ktest_failures == 0)
            k_printf("mig bad sink ok: %lu items once, in order, intact\n",
                     (unsigned long)d->received);
        d->go = 2;
        int status;
        CHECK_EQ(k_join(sink, K_FOREVER, &status), K_OK);
    } else {
        helper_tile(me);
    }
    mig_services_stop_and_exit();
}

int main(void) { mig_kernel_main(tile_main, 1000); }
