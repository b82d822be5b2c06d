/* Start of the NAMP-SV test firmware (sv_main.h). */
#include "sv_main.h"

#include "hal/hal.h"
#include "ktest.h"
#include "na_registers.h"

static void (*roles[2])(void);

static void main_thread(void *arg)
{
    (void)arg;
    if (!(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_SV)) {
        k_printf("FAIL: no NAMP-SV (run with --preset svbase)\n");
        k_exit(1);
    }
    if (tile_id() < 2)
        roles[tile_id()]();
    k_exit(ktest_failures != 0);
}

int sv_main(void (*tile0)(void), void (*tile1)(void))
{
    if (hart_id() == 0) {
        roles[0] = tile0;
        roles[1] = tile1;
        k_config_t cfg = {.tick_ticks = 1000, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
