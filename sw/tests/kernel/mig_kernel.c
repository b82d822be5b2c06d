/* The kernel side the task-migration firmwares share (mig_kernel.h). */
#include "mig_kernel.h"

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "kernel/migrate.h"
#include "ktest.h"
#include "mcapi.h"

k_thread_t *mig_create(const char *name, uint32_t vif)
{
    k_task_image_t img = {name, mig_task_main, NULL, MIG_DATA_BYTES, 1, 3, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    if (t)
        CHECK_EQ(kmp_task_attach(t, vif), K_OK);
    return t;
}

struct mig_task *mig_ctl(k_thread_t *t)
{
    return kmp_task_ptr(t, K_USER_DATA + MIG_CTL_OFFSET, sizeof(struct mig_task));
}

struct mig_task *mig_finish(k_thread_t *t, uint32_t max_ticks)
{
    struct mig_task *d = mig_ctl(t);
    for (uint32_t i = 0; i < max_ticks && d && !d->done; ++i)
        k_sleep(1);
    CHECK(d && d->done);
    return d;
}

void mig_end(k_thread_t *t)
{
    mig_ctl(t)->go = 2;
    int status = -1;
    CHECK_EQ(k_join(t, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 0);
}

void mig_services_start(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    KMP(mcapi_initialize(MCAPI_DOMAIN, tile_id(), NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(kmp_task_service_start(8), K_OK);
    CHECK_EQ(k_migrate_service_start(9), K_OK);
}

void mig_services_stop_and_exit(void)
{
    kmp_task_service_stop();
    k_migrate_service_stop();
    k_exit(ktest_failures != 0);
}

void mig_kernel_main(void (*tile_main)(void *), uint32_t tick_ticks)
{
    if (hart_id() == 0) {
        k_config_t cfg = {.tick_ticks = tick_ticks, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", tile_main, NULL, 10, 0);
    }
    k_start();
}
