/* Collective communication of the message-passing library (mcapix_cc.h): multicast groups. The
 * descriptor of the adapter (namp_cc.h) is built once when the group is created; a send runs it
 * in the adapter when the transport can (collective_namp.c), else as a software loop of
 * point-to-point sends. docs/message-passing.md, "Collective communication". */
#include <string.h>
#include "mp/copy.h"

#include "mcapi_core.h"
#include "collective_internal.h"
#include "mp_internal.h"
#include "namp_cc.h"
#include "namp_structs.h"

static uint32_t cc_path = MCAPIX_CC_AUTO;
static mcapix_cc_stats_t cc_stats;

void mcapix_cc_set_path(uint32_t path)
{
    cc_path =
        path == MCAPIX_CC_SOFTWARE || path == MCAPIX_CC_SOFTWARE_POSTED ? path : MCAPIX_CC_AUTO;
}
uint32_t mcapix_cc_features(void) { return mp_cc_hw_features(); }
void mcapix_cc_area(void *area, size_t bytes, mcapi_status_t *status)
{
    (void)area, (void)bytes; /* bare metal: the adapter reads the caller's memory directly */
    SET(status, MCAPI_SUCCESS);
}
uint32_t mp_cc_path(void) { return cc_path; }

/* ---- membership (docs/security.md "Collective membership") ---- */

void mp_cc_member_handle(uint32_t *h, mcapi_endpoint_t root, mcapi_endpoint_t send_endpoint)
{
    memset(h, 0, 16 * sizeof *h);
    h[NAMP_H_ID / 4] = root->hw[NAMP_H_ID / 4];
    h[NAMP_H_TILE / 4] = root->hw[NAMP_H_TILE / 4];
    h[NAMP_H_ENDPOINT / 4] = root->hw[NAMP_H_ENDPOINT / 4];
    h[NAMP_H_KEY_TILE / 4] = send_endpoint->node;
    h[NAMP_H_KEY_ID / 4] = send_endpoint->id;
}

mcapi_status_t mp_cc_rx_members(uint32_t *table, uint32_t *desc, uint32_t n,
                                const mcapi_endpoint_t *members)
{
    if (n == 0 || n > MCAPIX_CC_RX_MEMBERS)
        return MCAPI_ERR_PARAMETER;
    for (uint32_t i = 0; i < n; ++i)
        if (!members[i] || (!members[i]->local && !members[i]->id))
            return MCAPI_ERR_ENDP_INVALID;
    desc[NAMP_CC_RX_MEMBERS / 4] = 0; /* no half-written table is ever in force */
    for (uint32_t i = 0; i < n; ++i) {
        table[1 + 2 * i] = members[i]->node;
        table[2 + 2 * i] = members[i]->id;
    }
    table[0] = n;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    desc[NAMP_CC_RX_MEMBERS / 4] = (uint32_t)(uintptr_t)table;
    return MCAPI_SUCCESS;
}

int mcapix_cc_rekey(uint32_t ep_addr, uint32_t ep_id, uint32_t old_tile, uint32_t old_id,
                    uint32_t new_tile, uint32_t new_id)
{
    const struct mp_endpoint *ep = mp_ep_from_addr(ep_addr);
    if (!ep || ep->state != MP_EP_READY || ep->id != ep_id)
        return -1;
    uint32_t *desc = (uint32_t *)(uintptr_t)ep->hw[NAMP_EP_CC / 4];
    uint32_t *table = desc ? (uint32_t *)(uintptr_t)desc[NAMP_CC_RX_MEMBERS / 4] : NULL;
    for (uint32_t i = 0; table && i < table[0] && i < MCAPIX_CC_RX_MEMBERS; ++i)
        if (table[1 + 2 * i] == old_tile && table[2 + 2 * i] == old_id) {
            table[2 + 2 * i] = 0; /* never a mix of the old and the new key */
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            table[1 + 2 * i] = new_tile;
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            table[2 + 2 * i] = new_id;
            return 0;
        }
    return 1;
}
const mcapix_cc_stats_t *mcapix_cc_stats(void) { return &cc_stats; }

/* The adapter's descriptor: a multicast to the handles of the members. For a channel the handle
 * is the sender's handle of the receive endpoint (peer_h), which carries the channel's credits. */
static void build_descriptor(mcapix_mcast_group_t *g)
{
    for (uint32_t i = 0; i < sizeof g->desc / 4; ++i)
        g->desc[i] = 0;
    g->desc[NAMP_CC_KIND / 4] = NAMP_CC_KIND_WORD(NAMP_CC_K_MULTICAST, 0, 0);
    g->desc[NAMP_CC_NUM / 4] = g->num;
    for (uint32_t i = 0; i < g->num; ++i) {
        const uint32_t *hw = g->channel ? g->chans[i]->peer_h.hw : g->members[i]->hw;
        g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE) / 4] = (uint32_t)(uintptr_t)hw;
    }
}

static void reset(mcapix_mcast_group_t *g, uint32_t num, uint32_t channel)
{
    g->magic = 0;
    g->num = (uint32_t)num;
    g->channel = channel;
    g->send_endpoint = 0;
    g->remote_only = 1;
    g->scatter = 0;
    g->count = 0;
    g->stride = 0;
    g->hw_last = 0;
    g->hw_code = 0;
    for (uint32_t i = 0; i < MCAPIX_CC_MAX_MEMBERS; ++i) {
        g->members[i] = 0;
        g->chans[i] = 0;
        g->member_status[i] = MCAPI_SUCCESS;
    }
}

void mcapix_mcast_create(mcapix_mcast_group_t *g, mcapi_endpoint_t send_endpoint,
                         const mcapi_endpoint_t *members, size_t num, mcapi_status_t *status)
{
    if (!mp_cc_group_args_ok(g, members, num)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    reset(g, (uint32_t)num, 0);
    if (!send_endpoint || !send_endpoint->local) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    for (size_t i = 0; i < num; ++i) {
        if (!members[i]) {
            SET(status, MCAPI_ERR_ENDP_INVALID);
            return;
        }
        g->members[i] = members[i];
        if (members[i]->local)
            g->remote_only = 0;
    }
    g->send_endpoint = send_endpoint;
    build_descriptor(g);
    g->magic = MP_CC_GROUP_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

void mcapix_mcast_create_chan(mcapix_mcast_group_t *g, const mcapi_pktchan_send_hndl_t *members,
                              size_t num, mcapi_status_t *status)
{
    if (!mp_cc_group_args_ok(g, members, num)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    reset(g, (uint32_t)num, 1);
    for (size_t i = 0; i < num; ++i) {
        struct mp_endpoint *ep = members[i];
        if (!ep || ep->state != MP_EP_READY || !(ep->flags & MP_EPF_CHAN_SEND) ||
            !(ep->flags & MP_EPF_OPEN)) {
            SET(status, MCAPI_ERR_CHAN_INVALID);
            return;
        }
        g->chans[i] = ep;
    }
    build_descriptor(g);
    g->magic = MP_CC_GROUP_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

void mcapix_scatter_create_chan(mcapix_mcast_group_t *g, const mcapi_pktchan_send_hndl_t *members,
                                size_t num, uint32_t count, uint32_t stride, const uint32_t *bases,
                                const uint32_t *sizes, mcapi_status_t *status)
{
    if (!mp_cc_scatter_args_ok(g, members, num, count, bases, sizes)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    mcapi_status_t st;
    mcapix_mcast_create_chan(g, members, num, &st);
    SET(status, st);
    if (st == MCAPI_SUCCESS)
        mp_cc_scatter_layout(g, count, stride, bases, sizes);
}

static uint32_t m_base(const mcapix_mcast_group_t *g, uint32_t i)
{
    return g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_BASE) / 4];
}
static uint32_t m_size(const mcapix_mcast_group_t *g, uint32_t i)
{
    return g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_SIZE) / 4];
}

/* software scatter: each member's chunks copied together, then one packet per member */
static uint8_t scatter_buf[4096] __attribute__((aligned(8)));

static mcapi_status_t software_scatter(mcapix_mcast_group_t *g, const uint8_t *data)
{
    mcapi_status_t first = MCAPI_SUCCESS;
    for (uint32_t i = 0; i < g->num; ++i) {
        mcapi_status_t st;
        uint32_t sz = m_size(g, i), n = sz * g->count;
        if (n > sizeof scatter_buf) {
            st = MCAPI_ERR_PKT_SIZE;
        } else {
            for (uint32_t k = 0; k < g->count; ++k)
                mp_copy(scatter_buf + k * sz, data + m_base(g, i) + k * g->stride, sz);
            mcapi_pktchan_send(g->chans[i], scatter_buf, n, &st);
        }
        g->member_status[i] = st;
        if (st != MCAPI_SUCCESS && first == MCAPI_SUCCESS)
            first = st;
    }
    cc_stats.sw_sends++;
    return first;
}

/* Waits for the posted sends of members [from, to) (req[i] is valid where the start left the
 * member's status PENDING or SUCCESS) and records each member's status; returns the first error
 * of them, or `first` if there was one already. */
static mcapi_status_t wait_posted(mcapix_mcast_group_t *g, mcapi_request_t *req, uint32_t from,
                                  uint32_t to, mcapi_status_t first)
{
    for (uint32_t i = from; i < to; ++i) {
        mcapi_status_t st = g->member_status[i];
        size_t sz;
        if (st == MCAPI_PENDING || st == MCAPI_SUCCESS)
            mcapi_wait(&req[i], &sz, MCAPI_TIMEOUT_INFINITE, &st);
        g->member_status[i] = st;
        if (st != MCAPI_SUCCESS && first == MCAPI_SUCCESS)
            first = st;
    }
    return first;
}

/* Posted software scatter (the thesis' software scatter, like its multicast): each member's chunks
 * are copied into the staging buffer and its packet started as a non-blocking send; when the
 * buffer is full, the sends under way are waited for and the buffer is used again from the
 * start. */
static mcapi_status_t software_scatter_posted(mcapix_mcast_group_t *g, const uint8_t *data)
{
    mcapi_request_t req[MCAPIX_CC_MAX_MEMBERS];
    mcapi_status_t first = MCAPI_SUCCESS;
    uint32_t pos = 0, oldest = 0;
    for (uint32_t i = 0; i <= g->num; ++i) {
        uint32_t n = i < g->num ? m_size(g, i) * g->count : 0;
        if (i == g->num || pos + n > sizeof scatter_buf) { /* the buffer is needed again */
            first = wait_posted(g, req, oldest, i, first);
            oldest = i;
            pos = 0;
            if (i == g->num)
                break;
        }
        if (n > sizeof scatter_buf) {
            g->member_status[i] = MCAPI_ERR_PKT_SIZE;
            continue;
        }
        uint32_t sz = m_size(g, i);
        for (uint32_t k = 0; k < g->count; ++k)
            mp_copy(scatter_buf + pos + k * sz, data + m_base(g, i) + k * g->stride, sz);
        mcapi_pktchan_send_i(g->chans[i], scatter_buf + pos, n, &req[i], &g->member_status[i]);
        pos += (n + 7u) & ~7u;
    }
    cc_stats.sw_sends++;
    return first;
}

void mcapix_scatter_send(mcapix_mcast_group_t *g, const void *data, size_t data_size,
                         mcapi_status_t *status)
{
    if (!mp_cc_group_ok(g) || !g->scatter) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!data) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    if (!mp_cc_scatter_fits(g, data_size)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    mcapi_status_t st;
    if (cc_path == MCAPIX_CC_AUTO && mp_cc_hw_mcast(g, data, (uint32_t)data_size, &st)) {
        SET(status, st);
        g->hw_last = 1;
        cc_stats.hw_sends++;
        return;
    }
    g->hw_last = 0;
    SET(status, cc_path == MCAPIX_CC_SOFTWARE_POSTED ? software_scatter_posted(g, data)
                                                     : software_scatter(g, data));
}

/* The posted software multicast of the thesis (Fig. 3.20a, 3.21): the transfers are started one
 * after the other as non-blocking sends, so they overlap in the transport (several NAMP slots),
 * and then all are waited for. A member whose start is refused does not stop the others. */
static mcapi_status_t software_mcast_posted(mcapix_mcast_group_t *g, const void *buf, size_t size)
{
    mcapi_request_t req[MCAPIX_CC_MAX_MEMBERS];
    for (uint32_t i = 0; i < g->num; ++i) {
        mcapi_status_t st;
        if (g->channel)
            mcapi_pktchan_send_i(g->chans[i], buf, size, &req[i], &st);
        else
            mcapi_msg_send_i(g->send_endpoint, g->members[i], buf, size, 0, &req[i], &st);
        g->member_status[i] = st;
    }
    cc_stats.sw_sends++;
    return wait_posted(g, req, 0, g->num, MCAPI_SUCCESS);
}

/* The software loop: one blocking point-to-point send per member; a failed member does not stop
 * the others. */
static mcapi_status_t software_mcast(mcapix_mcast_group_t *g, const void *buf, size_t size)
{
    mcapi_status_t first = MCAPI_SUCCESS;
    for (uint32_t i = 0; i < g->num; ++i) {
        mcapi_status_t st;
        if (g->channel)
            mcapi_pktchan_send(g->chans[i], buf, size, &st);
        else
            mcapi_msg_send(g->send_endpoint, g->members[i], buf, size, 0, &st);
        g->member_status[i] = st;
        if (st != MCAPI_SUCCESS && first == MCAPI_SUCCESS)
            first = st;
    }
    cc_stats.sw_sends++;
    return first;
}

void mcapix_mcast_send(mcapix_mcast_group_t *g, const void *buffer, size_t size,
                       mcapi_status_t *status)
{
    if (!mp_cc_group_ok(g) || g->scatter) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!buffer && size) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    mcapi_status_t st;
    if (cc_path == MCAPIX_CC_AUTO && mp_cc_hw_mcast(g, buffer, (uint32_t)size, &st)) {
        SET(status, st);
        g->hw_last = 1;
        cc_stats.hw_sends++;
        return;
    }
    g->hw_last = 0;
    SET(status, cc_path == MCAPIX_CC_SOFTWARE_POSTED ? software_mcast_posted(g, buffer, size)
                                                     : software_mcast(g, buffer, size));
}

mcapi_status_t mcapix_mcast_member_status(const mcapix_mcast_group_t *g, size_t member)
{
    if (!mp_cc_group_ok(g) || member >= g->num)
        return MCAPI_ERR_PARAMETER;
    /* after a send in the adapter the statuses are read from the descriptor only when asked:
     * the send itself does no per-member work */
    return g->hw_last ? mp_cc_hw_member_status(g, (uint32_t)member) : g->member_status[member];
}
