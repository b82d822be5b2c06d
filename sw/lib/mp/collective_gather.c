/* Gathers of the message-passing library (mcapix_cc.h): parts and root, in the adapter when the
 * transport can (collective_namp.c), else messages [id][part][count][base][chunk][stride][data]
 * placed by the root's core. docs/message-passing.md, "Collective communication". */
#include <string.h>
#include "mp/copy.h"

#include "mcapi_core.h"
#include "collective_internal.h"
#include "mp_internal.h"
#include "namp_cc.h"
#include "namp_structs.h"

#define TX_MAGIC 0x47545458u /* "GTTX" */
#define RX_MAGIC 0x47545258u /* "GTRX" */
#define SW_HDR   24u         /* software part header: six words */

static uint8_t scratch[4096 + SW_HDR] __attribute__((aligned(8)));

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
    if (!send_endpoint || !send_endpoint->local || !root || root->local) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    /* the part's own handle of the root endpoint: tile, endpoint, identity, geometry for the
     * bounds check, the key of its sending endpoint */
    mp_cc_member_handle(r->handle, root, send_endpoint);
    r->handle[NAMP_H_FLAGS / 4] = NAMP_H_F_CONNECTED | NAMP_H_GEOMETRY(0, root_max_msg_log2);
    mp_gather_tx_fill(r, (uint32_t)(uintptr_t)r->handle, part, count, base, chunk, stride);
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
    uint32_t id = r->next_id++, size = r->count * r->chunk;
    r->desc[NAMP_CC_ID / 4] = id;
    mcapi_status_t st;
    if (mp_cc_path() == MCAPIX_CC_AUTO && mp_cc_hw_gather_send(r, buffer, &st)) {
        SET(status, st);
        return;
    }
    if (size > sizeof scratch - SW_HDR) {
        SET(status, MCAPI_ERR_MSG_SIZE);
        return;
    }
    uint32_t hdr[6] = {id, r->part, r->count, r->base, r->chunk, r->stride};
    memcpy(scratch, hdr, SW_HDR);
    mp_copy(scratch + SW_HDR, buffer, size);
    mcapi_msg_send(r->send_endpoint, r->root, scratch, size + SW_HDR, 0, status);
}

void mcapix_gather_rx_create(mcapix_gather_rx_t *r, mcapi_endpoint_t endpoint, uint32_t parts,
                             uint32_t msg_size, mcapi_status_t *status)
{
    if (!r || parts == 0 || parts > MCAPIX_GATHER_MAX_PARTS || msg_size == 0) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    r->magic = 0;
    if (!endpoint || !endpoint->local || endpoint->local->state != MP_EP_READY) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    memset(r->desc, 0, sizeof r->desc);
    r->desc[NAMP_CC_RX_KIND / 4] = NAMP_CC_K_GATHER;
    r->desc[NAMP_CC_RX_CONTRIB / 4] = parts;
    r->desc[NAMP_CC_RX_MSGSIZE / 4] = msg_size;
    r->parts = parts;
    r->msg_size = msg_size;
    r->next_id = 1;
    r->endpoint = endpoint;
    r->hw = mp_cc_path() == MCAPIX_CC_AUTO && mp_cc_hw_gather_rx(r);
    r->magic = RX_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

void mcapix_gather_rx_members(mcapix_gather_rx_t *r, const mcapi_endpoint_t *parts,
                              mcapi_status_t *status)
{
    if (!r || r->magic != RX_MAGIC || !parts) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    SET(status, mp_cc_rx_members(r->members, r->desc, r->parts, parts));
}

void mcapix_gather_recv(mcapix_gather_rx_t *r, void *buffer, size_t buffer_size,
                        size_t *received_size, mcapi_status_t *status)
{
    if (!r || r->magic != RX_MAGIC || !received_size) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!buffer) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    uint32_t id = r->next_id++;
    if (r->hw) { /* the adapter placed every part: one message */
        mcapi_msg_recv(r->endpoint, buffer, buffer_size, received_size, status);
        return;
    }
    if (r->msg_size > buffer_size) {
        SET(status, MCAPI_ERR_MSG_TRUNCATED);
        return;
    }
    uint8_t *out = buffer;
    for (uint32_t k = 0; k < r->parts; ++k) {
        size_t got;
        mcapi_status_t st;
        mcapi_msg_recv(r->endpoint, scratch, sizeof scratch, &got, &st);
        if (st != MCAPI_SUCCESS) {
            SET(status, st);
            return;
        }
        uint32_t h[6];
        memcpy(h, scratch, SW_HDR);
        uint32_t count = h[2], base = h[3], chunk = h[4], stride = h[5];
        if (got < SW_HDR || h[0] != id || h[1] >= r->parts || chunk == 0 ||
            got - SW_HDR != (size_t)count * chunk ||
            (uint64_t)base + (uint64_t)(count - 1) * stride + chunk > r->msg_size) {
            SET(status, MCAPI_ERR_GENERAL);
            return;
        }
        for (uint32_t c = 0; c < count; ++c) /* the software's part: the copy into place */
            mp_copy(out + base + c * stride, scratch + SW_HDR + c * chunk, chunk);
    }
    *received_size = r->msg_size;
    SET(status, MCAPI_SUCCESS);
}
