/* Out-of-tree SDK example: tile 0 sends one MCAPI message to the last tile of the mesh, which
 * prints it. Every core exits 0 when the message arrived intact. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"

#define PORT 1u

int main(void)
{
    const uint32_t tiles = tile_mesh_width() * tile_mesh_height();
    const uint32_t me = tile_id(), last = tiles - 1u;
    if (tile_core_id() != 0 || (me != 0 && me != last) || tiles < 2)
        return 0;
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = MP_DEFAULT_DATA_PATH};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT, &st);
    if (st != MCAPI_SUCCESS)
        return 1;
    static const char text[] = "hello from the installed SDK";
    if (me == 0) {
        mcapi_endpoint_t peer =
            mcapi_endpoint_get(MCAPI_DOMAIN, last, PORT, MCAPI_TIMEOUT_INFINITE, &st);
        mcapi_msg_send(ep, peer, text, sizeof text, 0, &st);
    } else {
        char buf[64];
        size_t got = 0;
        mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
        if (st != MCAPI_SUCCESS || got != sizeof text || memcmp(buf, text, got) != 0)
            return 2;
        printf("sdk_hello: tile %lu received '%s'\n", (unsigned long)me, buf);
    }
    mcapi_finalize(&st);
    return st == MCAPI_SUCCESS ? 0 : 3;
}
