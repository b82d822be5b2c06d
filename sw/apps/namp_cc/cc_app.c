/* Start and error report of the NAMP-CC firmware (cc_app.h). */
#include "cc_app.h"

#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mcapix_cc.h"

void cc_app_die(const char *name, const char *what, mcapi_status_t st)
{
    printf("%s FAIL: tile %u: %s: %s\n", name, (unsigned)tile_id(), what, mcapix_status_name(st));
    exit(1);
}

int cc_app_run(const char *name, uint32_t tiles, int (*root)(void), int (*member)(uint32_t))
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0)
        return 0;
    if (tile_mesh_width() * tile_mesh_height() < tiles) {
        if (me == 0)
            printf("%s FAIL: needs a 4x4 mesh\n", name);
        return me == 0;
    }
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS)
        cc_app_die(name, "initialize", st);
    return me == 0 ? root() : member(me);
}
