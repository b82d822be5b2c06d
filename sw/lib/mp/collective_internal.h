/* Collectives (collective.c) and the transport part that runs them in the adapter
 * (collective_namp.c over the NAMP, collective_none.c elsewhere). */
#ifndef MP_COLLECTIVE_INTERNAL_H
#define MP_COLLECTIVE_INTERNAL_H

#include <stdint.h>

#include "mcapix_cc.h"

/* NA_FEATURE_NAMP_CC_* bits the transport can use (0: none). */
uint32_t mp_cc_hw_features(void);
/* Runs a multicast send of group g in the adapter (g->hw_code set): returns 1 (*st set),
 * or 0 when the adapter cannot take it now (the caller runs the software loop). */
int mp_cc_hw_mcast(mcapix_mcast_group_t *g, const void *buf, uint32_t size, mcapi_status_t *st);

/* Status of member i of the last send that ran in the adapter (g->hw_last). */
mcapi_status_t mp_cc_hw_member_status(const mcapix_mcast_group_t *g, uint32_t i);

/* Reduction in the adapter: 1 = done (*st set), 0 = take the software path. */
int mp_cc_hw_reduce_send(mcapix_reduce_tx_t *r, const void *buf, uint32_t size, mcapi_status_t *st);
/* 1 if the root r can combine in the adapter (sets the endpoint's NAMP_EP_CC). */
int mp_cc_hw_reduce_rx(mcapix_reduce_rx_t *r);
/* Gather in the adapter: 1 = done (*st set), 0 = software; and the root's set-up. */
int mp_cc_hw_gather_send(mcapix_gather_tx_t *r, const void *buf, mcapi_status_t *st);
int mp_cc_hw_gather_rx(mcapix_gather_rx_t *r);
/* the current collective path (mcapix_cc_set_path) */
uint32_t mp_cc_path(void);

#endif
