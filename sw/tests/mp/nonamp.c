/* A firmware linked against the NAMP transport on a platform without a NAMP (issue 7, hole 7):
 * mcapi_initialize must report MCAPI_ERR_NOT_SUPPORTED (no store access fault), the node stays
 * uninitialised, and the firmware exits normally. Every tile checks; tile 0 prints the result. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"

int main(void)
{
    if (tile_core_id() != 0)
        return 0;
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_initialize(MCAPI_DOMAIN, tile_id(), NULL, NULL, NULL, &st);
    if (st != MCAPI_ERR_NOT_SUPPORTED) {
        printf("mp_nonamp FAIL: initialize -> %s\n", mcapix_status_name(st));
        return 1;
    }
    mcapi_status_t st2 = MCAPI_SUCCESS;
    mcapi_endpoint_create(1, &st2); /* the failed initialisation left the node uninitialised */
    if (st2 != MCAPI_ERR_NODE_NOTINIT) {
        printf("mp_nonamp FAIL: create after failed initialize -> %s\n", mcapix_status_name(st2));
        return 1;
    }
    if (tile_id() == 0)
        printf("mp_nonamp ok: initialize -> %s\n", mcapix_status_name(st));
    return 0;
}
