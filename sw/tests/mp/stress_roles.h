/* Who does what in the 4-to-1 stress tests: tile 0 receives from four sender tiles spread over the
 * 4x4 mesh; sender i uses data path i % 3 (buffer, RMA, RDMA, buffer). */
#ifndef MP_E2E_STRESS_ROLES_H
#define MP_E2E_STRESS_ROLES_H
#include <stdint.h>

#include "hal/hal.h"

#define NSEND           4u
#define STRESS_RECEIVER NSEND       /* role of tile 0 */
#define STRESS_IDLE     0xFFFFFFFFu /* other tiles and cores, and meshes smaller than 4x4 */
static const uint32_t senders[NSEND] = {3, 5, 12, 15};

/* The sender index of this tile, STRESS_RECEIVER or STRESS_IDLE. */
static inline uint32_t stress_role(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || tile_mesh_width() * tile_mesh_height() < 16)
        return STRESS_IDLE;
    if (me == 0)
        return STRESS_RECEIVER;
    for (uint32_t i = 0; i < NSEND; ++i)
        if (senders[i] == me)
            return i;
    return STRESS_IDLE;
}

static inline uint32_t stress_data_path(uint32_t role)
{
    return role == STRESS_RECEIVER ? 0 : role % 3u;
}
#endif
