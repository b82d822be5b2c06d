/* The collectives' bookkeeping both back ends share (collective_internal.h "The MCAPI core's
 * part"): a group's validity, the arguments of the group calls, a scatter group's layout and its
 * bounds, the end of a group. Compiled once (mp_core). */
#include "collective_internal.h"
#include "mcapi_core.h"

int mp_cc_group_ok(const mcapix_mcast_group_t *g)
{
    return g && g->magic == MP_CC_GROUP_MAGIC && g->num != 0 && g->num <= MCAPIX_CC_MAX_MEMBERS;
}

int mp_cc_group_args_ok(const mcapix_mcast_group_t *g, const void *members, size_t num)
{
    return g && members && num != 0 && num <= MCAPIX_CC_MAX_MEMBERS;
}

int mp_cc_scatter_args_ok(const mcapix_mcast_group_t *g, const void *members, size_t num,
                          uint32_t count, const uint32_t *bases, const uint32_t *sizes)
{
    if (!mp_cc_group_args_ok(g, members, num) || count == 0 || count > 0xFFFFu || !bases || !sizes)
        return 0;
    for (size_t i = 0; i < num; ++i)
        if (sizes[i] == 0)
            return 0;
    return 1;
}

void mp_cc_scatter_layout(mcapix_mcast_group_t *g, uint32_t count, uint32_t stride,
                          const uint32_t *bases, const uint32_t *sizes)
{
    g->desc[NAMP_CC_KIND / 4] = NAMP_CC_SCATTER_WORD(count);
    g->desc[NAMP_CC_STRIDE / 4] = stride;
    for (uint32_t i = 0; i < g->num; ++i) {
        g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_BASE) / 4] = bases[i];
        g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_SIZE) / 4] = sizes[i];
    }
    g->scatter = 1;
    g->count = count;
    g->stride = stride;
}

int mp_cc_scatter_fits(const mcapix_mcast_group_t *g, size_t data_size)
{
    for (uint32_t i = 0; i < g->num; ++i) {
        const uint64_t end = (uint64_t)g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_BASE) / 4] +
                             (uint64_t)(g->count - 1) * g->stride +
                             g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_SIZE) / 4];
        if (end > data_size)
            return 0;
    }
    return 1;
}

void mcapix_mcast_destroy(mcapix_mcast_group_t *g, mcapi_status_t *status)
{
    if (!mp_cc_group_ok(g)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    g->magic = 0;
    SET(status, MCAPI_SUCCESS);
}
