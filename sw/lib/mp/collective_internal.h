/* Collectives (collective.c) and the transport part that runs them in the adapter
 * (collective_namp.c over the NAMP, collective_none.c elsewhere). */
#ifndef MP_COLLECTIVE_INTERNAL_H
#define MP_COLLECTIVE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mcapix_cc.h"
#include "namp_cc.h"

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

/* A gather part's layout (mcapix_gather_tx_create): 1 if it fits the root's elements. Shared with
 * the task build (mcapi_task_cc.c). */
static inline int mp_gather_layout_ok(uint32_t root_max_msg_log2, uint32_t part, uint32_t count,
                                      uint32_t base, uint32_t chunk, uint32_t stride)
{
    return part < MCAPIX_GATHER_MAX_PARTS && count != 0 && count <= 0xFFFFu && chunk != 0 &&
           root_max_msg_log2 >= 2 && root_max_msg_log2 <= 20 &&
           (uint64_t)base + (uint64_t)(count - 1) * stride + chunk <= (1ull << root_max_msg_log2);
}

/* The part's descriptor and layout words in r (desc cleared first); `handle` is the member word
 * (an address, or a vID in a task). */
static inline void mp_gather_tx_fill(mcapix_gather_tx_t *r, uint32_t handle, uint32_t part,
                                     uint32_t count, uint32_t base, uint32_t chunk, uint32_t stride)
{
    for (uint32_t i = 0; i < sizeof r->desc / 4; ++i)
        r->desc[i] = 0;
    r->desc[NAMP_CC_KIND / 4] = NAMP_CC_GATHER_WORD(count, part);
    r->desc[NAMP_CC_NUM / 4] = 1;
    r->desc[(NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE) / 4] = handle;
    r->desc[(NAMP_CC_MEMBER(0) + NAMP_CC_M_BASE) / 4] = base;
    r->desc[(NAMP_CC_MEMBER(0) + NAMP_CC_M_SIZE) / 4] = chunk;
    r->desc[NAMP_CC_GATHER_STRIDE / 4] = stride;
    r->next_id = 1;
    r->part = part;
    r->count = count;
    r->base = base;
    r->chunk = chunk;
    r->stride = stride;
}

/* ---- The MCAPI core's part (mcapi_core_cc.c, compiled once for both back ends) */
#define MP_CC_GROUP_MAGIC 0x4D434153u /* "MCAS": a created group */
/* 1 for a group created and not destroyed. */
int mp_cc_group_ok(const mcapix_mcast_group_t *g);
/* The arguments every group creation checks first (else MCAPI_ERR_PARAMETER): the group, the
 * member list, 1..MCAPIX_CC_MAX_MEMBERS members. */
int mp_cc_group_args_ok(const mcapix_mcast_group_t *g, const void *members, size_t num);
/* ... and a scatter group's: count 1..0xFFFF, bases and sizes given, no size 0. */
int mp_cc_scatter_args_ok(const mcapix_mcast_group_t *g, const void *members, size_t num,
                          uint32_t count, const uint32_t *bases, const uint32_t *sizes);
/* A group whose members are set (g->num) becomes a scatter: the descriptor's kind, stride and
 * per-member chunks, and the group's own copy of them. */
void mp_cc_scatter_layout(mcapix_mcast_group_t *g, uint32_t count, uint32_t stride,
                          const uint32_t *bases, const uint32_t *sizes);
/* 1 if every member's chunks lie within data_size bytes. */
int mp_cc_scatter_fits(const mcapix_mcast_group_t *g, size_t data_size);

/* Membership (docs/security.md "Collective membership"): a contributor's handle of root (16
 * words: the root's location and identity, the key of send_endpoint), and a root's member table
 * (the keys of n members) put in force in its receive-side descriptor. */
void mp_cc_member_handle(uint32_t *h, mcapi_endpoint_t root, mcapi_endpoint_t send_endpoint);
mcapi_status_t mp_cc_rx_members(uint32_t *table, uint32_t *desc, uint32_t n,
                                const mcapi_endpoint_t *members);

#endif
