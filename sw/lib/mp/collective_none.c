/* Collectives on a transport without NAMP-CC (the software protocol): always the software loop. */
#include "collective_internal.h"

uint32_t mp_cc_hw_features(void) { return 0; }

int mp_cc_hw_mcast(mcapix_mcast_group_t *g, const void *buf, uint32_t size, mcapi_status_t *st)
{
    (void)g;
    (void)buf;
    (void)size;
    (void)st;
    return 0;
}

mcapi_status_t mp_cc_hw_member_status(const mcapix_mcast_group_t *g, uint32_t i)
{
    (void)g;
    (void)i;
    return MCAPI_ERR_GENERAL; /* never called: no send runs in the adapter */
}

int mp_cc_hw_reduce_send(mcapix_reduce_tx_t *r, const void *buf, uint32_t size, mcapi_status_t *st)
{
    (void)r;
    (void)buf;
    (void)size;
    (void)st;
    return 0;
}

int mp_cc_hw_reduce_rx(mcapix_reduce_rx_t *r)
{
    (void)r;
    return 0;
}

int mp_cc_hw_gather_send(mcapix_gather_tx_t *r, const void *buf, mcapi_status_t *st)
{
    (void)r;
    (void)buf;
    (void)st;
    return 0;
}

int mp_cc_hw_gather_rx(mcapix_gather_rx_t *r)
{
    (void)r;
    return 0;
}
