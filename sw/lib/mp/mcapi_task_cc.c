/* Collectives in a U-mode task (mcapix_cc.h through the task build; docs/kernel.md "Collectives in
 * tasks"): multicast, scatter, reduction contributions and gather parts run in the adapter through
 * the task's vif, without a system call. The adapter reads a task's collective only inside the
 * collective area the task registered once (mcapix_cc_area, a kernel request): each send copies the
 * group's descriptor (members as vIDs) and the data there, starts the vif and copies the results
 * back. Roots (mcapix_reduce_rx_*, mcapix_gather_rx_*) and the software paths are not part of the
 * task build: MCAPI_ERR_NOT_SUPPORTED. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mcapi.h"
#include "collective_internal.h"
#include "mcapi_core.h"
#include "mcapi_task_internal.h"
#include "mcapix_cc.h"
#include "mp/cbuffer.h"
#include "mp/copy.h"
#include "namp/namp_regs.h"
#include "namp_cc.h"

#define TX_MAGIC 0x54435458u /* "TCTX" */
#define DATA_OFF 0x140u      /* data after the largest descriptor (NAMP_CC_SIZE(16) + 4) */

void mcapix_cc_area(void *area, size_t bytes, mcapi_status_t *status)
{
    struct mp_task_ctrl *c = mptask_ctrl();
    if (!mptask_ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    if (!area || ((uintptr_t)area & 3) || bytes <= DATA_OFF || bytes > 0x100000u) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (c->cc_bytes) { /* one area per task: the kernel's table has room for little */
        SET(status, MCAPI_ERR_GENERAL);
        return;
    }
    int32_t r = mptask_request(MP_TASK_OP_CC_AREA, (uint32_t)(uintptr_t)area, (uint32_t)bytes);
    if (r < 0) {
        SET(status, MP_TASK_STATUS(r));
        return;
    }
    c->cc_vid = (uint32_t)r;
    c->cc_va = (uint32_t)(uintptr_t)area;
    c->cc_bytes = (uint32_t)bytes;
    SET(status, MCAPI_SUCCESS);
}

/* A collective through the vif: descriptor (desc_bytes of desc) and data into the area, the vif
 * started, DONE awaited, the descriptor (status words, result) back. Returns the slot's STATUS
 * code (0: every member done) or sets *st for what never started. */
static int run(uint32_t flags, uint32_t *desc, uint32_t desc_bytes, const void *data, uint32_t size,
               uint32_t *code, mcapi_status_t *st)
{
    struct mp_task_ctrl *c = mptask_ctrl();
    if (!c->cc_bytes) {
        *st = MCAPI_ERR_NOT_SUPPORTED; /* no collective area registered */
        return 0;
    }
    if (!data && size) {
        *st = MCAPI_ERR_BUF_INVALID;
        return 0;
    }
    if (size > c->cc_bytes - DATA_OFF) {
        *st = MCAPI_ERR_MSG_SIZE;
        return 0;
    }
    mptask_vif_acquire(); /* the vif is one slot: queued sends first */
    uint8_t *area = (uint8_t *)(uintptr_t)c->cc_va;
    mp_copy(area, desc, desc_bytes);
    if (size)
        mp_copy(area + DATA_OFF, data, size);
    const uintptr_t v = (uintptr_t)mptask_vif();
    namp_vif_start(v, flags | NAMP_FLAG_CC, NAMP_VIF_CC_PARAM1(c->cc_vid, 0), DATA_OFF, size);
    mptask_vif_wait_done();
    const uint32_t status = namp_vif_status(v);
    namp_vif_set_flags(v, flags | NAMP_FLAG_CC); /* acknowledged */
    mp_copy(desc, area, desc_bytes);
    *code = status & NAMP_STATUS_ERROR ? NAMP_STATUS_CODE(status) : 0u;
    return 1;
}

/* The MCAPI status of a finished collective: its first failed member's, or the slot's. */
static mcapi_status_t result(const uint32_t *desc, uint32_t num, uint32_t code, uint32_t flags)
{
    if (code != NAMP_ERR_CC_MEMBER)
        return mptask_map_error(code, flags);
    for (uint32_t i = 0; i < num; ++i) {
        uint32_t m = NAMP_CC_MSTAT_CODE(desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_STATUS) / 4]);
        if (m)
            return mptask_map_error(m, flags);
    }
    return MCAPI_ERR_TRANSMISSION;
}

/* ---- multicast and scatter groups ---- */

static void group_start(mcapix_mcast_group_t *g, uint32_t kind, size_t num, uint32_t channel)
{
    memset(g, 0, sizeof *g);
    g->desc[NAMP_CC_KIND / 4] = kind;
    g->desc[NAMP_CC_NUM / 4] = (uint32_t)num;
    g->num = (uint32_t)num;
    g->channel = channel;
}

void mcapix_mcast_create(mcapix_mcast_group_t *group, mcapi_endpoint_t send_endpoint,
                         const mcapi_endpoint_t *members, size_t num, mcapi_status_t *status)
{
    if (!mp_cc_group_args_ok(group, members, num)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    group->magic = 0;
    if (!mptask_ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    if (!mptask_local(send_endpoint)) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    group_start(group, NAMP_CC_K_MULTICAST, num, 0);
    for (size_t i = 0; i < num; ++i) {
        const struct mp_task_remote *r = mptask_remote(members[i]);
        if (!r) {
            group->num = 0;
            SET(status, MCAPI_ERR_ENDP_INVALID);
            return;
        }
        group->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE) / 4] = r->vid;
    }
    group->send_endpoint = send_endpoint;
    group->magic = MP_CC_GROUP_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

/* Members of a channel group: open send handles; their vIDs name the connected handles. */
static int chan_members(mcapix_mcast_group_t *g, const mcapi_pktchan_send_hndl_t *members,
                        size_t num, mcapi_status_t *status)
{
    if (!mptask_ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return 0;
    }
    for (size_t i = 0; i < num; ++i) {
        const struct mp_task_ep *ep = mptask_local((mcapi_endpoint_t)members[i]);
        if (!ep || ep->chan != 2) {
            g->num = 0;
            SET(status, MCAPI_ERR_CHAN_INVALID);
            return 0;
        }
        g->desc[(NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE) / 4] = ep->chan_vid;
    }
    return 1;
}

void mcapix_mcast_create_chan(mcapix_mcast_group_t *group, const mcapi_pktchan_send_hndl_t *members,
                              size_t num, mcapi_status_t *status)
{
    if (!mp_cc_group_args_ok(group, members, num)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    group_start(group, NAMP_CC_K_MULTICAST, num, 1);
    if (!chan_members(group, members, num, status))
        return;
    group->magic = MP_CC_GROUP_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

void mcapix_scatter_create_chan(mcapix_mcast_group_t *group,
                                const mcapi_pktchan_send_hndl_t *members, size_t num,
                                uint32_t count, uint32_t stride, const uint32_t *bases,
                                const uint32_t *sizes, mcapi_status_t *status)
{
    if (!mp_cc_scatter_args_ok(group, members, num, count, bases, sizes)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    group_start(group, NAMP_CC_K_MULTICAST, num, 1);
    if (!chan_members(group, members, num, status))
        return;
    mp_cc_scatter_layout(group, count, stride, bases, sizes);
    group->magic = MP_CC_GROUP_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

static void group_send(mcapix_mcast_group_t *g, const void *data, size_t size,
                       mcapi_status_t *status)
{
    uint32_t code = 0;
    mcapi_status_t st = MCAPI_SUCCESS;
    g->hw_last = 0;
    if (!run(g->channel ? NAMP_FLAG_CON : 0u, g->desc, NAMP_CC_SIZE(g->num), data, (uint32_t)size,
             &code, &st)) {
        SET(status, st);
        return;
    }
    g->hw_last = 1;
    g->hw_code = code;
    SET(status,
        code ? result(g->desc, g->num, code, g->channel ? NAMP_FLAG_CON : 0u) : MCAPI_SUCCESS);
}

void mcapix_mcast_send(mcapix_mcast_group_t *group, const void *buffer, size_t size,
                       mcapi_status_t *status)
{
    if (!mp_cc_group_ok(group) || group->scatter) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    group_send(group, buffer, size, status);
}

void mcapix_scatter_send(mcapix_mcast_group_t *group, const void *data, size_t data_size,
                         mcapi_status_t *status)
{
    if (!mp_cc_group_ok(group) || !group->scatter) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!mp_cc_scatter_fits(group, data_size)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    group_send(group, data, data_size, status);
}

mcapi_status_t mcapix_mcast_member_status(const mcapix_mcast_group_t *group, size_t member)
{
    if (!mp_cc_group_ok(group) || member >= group->num)
        return MCAPI_ERR_PARAMETER;
    if (!group->hw_last || !group->hw_code)
        return MCAPI_SUCCESS;
    const uint32_t code =
        group->hw_code == NAMP_ERR_CC_MEMBER
            ? NAMP_CC_MSTAT_CODE(group->desc[(NAMP_CC_MEMBER(member) + NAMP_CC_M_STATUS) / 4])
            : group->hw_code;
    return code ? mptask_map_error(code, group->channel ? NAMP_FLAG_CON : 0u) : MCAPI_SUCCESS;
}

/* ---- reduction contributions and gather parts ---- */

/* A contributor's ends: a local sending endpoint and a looked-up root (its vID), or NULL with
 * *status set. */
static const struct mp_task_remote *contributor(mcapi_endpoint_t send_endpoint,
                                                mcapi_endpoint_t root, mcapi_status_t *status)
{
    const struct mp_task_remote *rem = mptask_ready() ? mptask_remote(root) : NULL;
    if (rem && mptask_local(send_endpoint))
        return rem;
    SET(status, mptask_ready() ? MCAPI_ERR_ENDP_INVALID : MCAPI_ERR_NODE_NOTINIT);
    return NULL;
}

void mcapix_reduce_tx_create(mcapix_reduce_tx_t *r, mcapi_endpoint_t send_endpoint,
                             mcapi_endpoint_t root, mcapi_status_t *status)
{
    if (!r) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    r->magic = 0;
    const struct mp_task_remote *rem = contributor(send_endpoint, root, status);
    if (!rem)
        return;
    /* the contributor's own handle of the root, with the key of its sending endpoint, is the
     * kernel's (a root with a member table admits only that key): the task gets its vID */
    const struct mp_task_ep *own = mptask_local(send_endpoint);
    int32_t vid = mptask_request(MP_TASK_OP_MEMBER_HANDLE, rem->vid,
                                 MP_TASK_MEMBER((uint32_t)own->kid, 0, NAMP_CC_K_REDUCE));
    if (vid < 0) {
        SET(status, MP_TASK_STATUS(vid));
        return;
    }
    memset(r->desc, 0, sizeof r->desc);
    r->desc[NAMP_CC_NUM / 4] = 1;
    r->desc[(NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE) / 4] = (uint32_t)vid;
    r->next_id = 1;
    r->send_endpoint = send_endpoint;
    r->root = root;
    r->magic = TX_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

void mcapix_reduce_send(mcapix_reduce_tx_t *r, uint32_t op, uint32_t type, const void *buffer,
                        size_t size, mcapi_status_t *status)
{
    if (!r || r->magic != TX_MAGIC || op >= MCAPIX_OPS || type >= MCAPIX_TYPES || size == 0 ||
        size % NAMP_CC_TYPE_BYTES(type)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    r->desc[NAMP_CC_KIND / 4] = NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, op, type);
    r->desc[NAMP_CC_ID / 4] = r->next_id++;
    uint32_t code = 0;
    mcapi_status_t st = MCAPI_SUCCESS;
    if (!run(0, r->desc, NAMP_CC_SIZE(1), buffer, (uint32_t)size, &code, &st)) {
        SET(status, st);
        return;
    }
    SET(status, code ? result(r->desc, 1, code, 0u) : MCAPI_SUCCESS);
}

void mcapix_gather_tx_create(mcapix_gather_tx_t *r, mcapi_endpoint_t send_endpoint,
                             mcapi_endpoint_t root, uint32_t root_max_msg_log2, uint32_t part,
                             uint32_t count, uint32_t base, uint32_t chunk, uint32_t stride,
                             mcapi_status_t *status)
{
    if (!r || !mp_gather_layout_ok(root_max_msg_log2, part, count, base, chunk, stride)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    r->magic = 0;
    const struct mp_task_remote *rem = contributor(send_endpoint, root, status);
    if (!rem)
        return;
    /* the part's own handle of the root (connected, the root's geometry, unlimited credits, the
     * key of its sending endpoint) is the kernel's: the task gets its vID */
    const struct mp_task_ep *own = mptask_local(send_endpoint);
    int32_t vid =
        mptask_request(MP_TASK_OP_MEMBER_HANDLE, rem->vid,
                       MP_TASK_MEMBER((uint32_t)own->kid, root_max_msg_log2, NAMP_CC_K_GATHER));
    if (vid < 0) {
        SET(status, MP_TASK_STATUS(vid));
        return;
    }
    mp_gather_tx_fill(r, (uint32_t)vid, part, count, base, chunk, stride);
    r->send_endpoint = send_endpoint;
    r->root = root;
    r->magic = TX_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

void mcapix_gather_send(mcapix_gather_tx_t *r, const void *buffer, mcapi_status_t *status)
{
    if (!r || r->magic != TX_MAGIC) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!buffer) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    r->desc[NAMP_CC_ID / 4] = r->next_id++;
    uint32_t code = 0;
    mcapi_status_t st = MCAPI_SUCCESS;
    if (!run(NAMP_FLAG_CON, r->desc, NAMP_CC_GATHER_DESC_SIZE, buffer, r->count * r->chunk, &code,
             &st)) {
        SET(status, st);
        return;
    }
    SET(status, code ? result(r->desc, 1, code, NAMP_FLAG_CON) : MCAPI_SUCCESS);
}

/* ---- roots and path switches: the kernel's library only ---- */

void mcapix_reduce_rx_create(mcapix_reduce_rx_t *r, mcapi_endpoint_t endpoint,
                             uint32_t contributions, mcapi_status_t *status)
{
    (void)r, (void)endpoint, (void)contributions;
    SET(status, MCAPI_ERR_NOT_SUPPORTED);
}

void mcapix_reduce_recv(mcapix_reduce_rx_t *r, uint32_t op, uint32_t type, void *buffer,
                        size_t buffer_size, size_t *received_size, mcapi_status_t *status)
{
    (void)r, (void)op, (void)type, (void)buffer, (void)buffer_size;
    if (received_size)
        *received_size = 0;
    SET(status, MCAPI_ERR_NOT_SUPPORTED);
}

void mcapix_gather_rx_create(mcapix_gather_rx_t *r, mcapi_endpoint_t endpoint, uint32_t parts,
                             uint32_t msg_size, mcapi_status_t *status)
{
    (void)r, (void)endpoint, (void)parts, (void)msg_size;
    SET(status, MCAPI_ERR_NOT_SUPPORTED);
}

void mcapix_gather_recv(mcapix_gather_rx_t *r, void *buffer, size_t buffer_size,
                        size_t *received_size, mcapi_status_t *status)
{
    (void)r, (void)buffer, (void)buffer_size;
    if (received_size)
        *received_size = 0;
    SET(status, MCAPI_ERR_NOT_SUPPORTED);
}

void mcapix_cc_set_path(uint32_t path) { (void)path; } /* always the adapter in a task */
uint32_t mcapix_cc_features(void) { return 0; }        /* unknown: a task cannot read the adapter */
const mcapix_cc_stats_t *mcapix_cc_stats(void) { return NULL; }
