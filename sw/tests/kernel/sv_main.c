/* Start of the NAMP-SV test firmware (sv_main.h). */
#include "sv_main.h"

#include "hal/hal.h"
#include "ktest.h"
#include "na_registers.h"

static void (*roles[4])(void);
static unsigned n_roles;

static void main_thread(void *arg)
{
    (void)arg;
    if (!(mmio_read32(TILE_NA_BASE + NA_FEATURES) & NA_FEATURE_NAMP_SV)) {
        k_printf("FAIL: no NAMP-SV (run with --preset svbase)\n");
        k_exit(1);
    }
    if (tile_id() < n_roles && roles[tile_id()])
        roles[tile_id()]();
    k_exit(ktest_failures != 0);
}

int sv_main(void (*tile0)(void), void (*tile1)(void))
{
    void (*const two[2])(void) = {tile0, tile1};
    return sv_main_tiles(two, 2);
}

int sv_main_tiles(void (*const tiles[])(void), unsigned n)
{
    if (hart_id() == 0) {
        for (unsigned i = 0; i < n && i < 4; ++i)
            roles[i] = tiles[i];
        n_roles = n < 4 ? n : 4;
        k_config_t cfg = {.tick_ticks = 1000, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
