/* Reductions of the message-passing library (mcapix_cc.h): contributors and root, in the adapter
 * when the transport can (collective_namp.c), else as messages [id][data] combined by the root's
 * core. docs/message-passing.md, "Collective communication". */
#include <string.h>
#include "mp/copy.h"

#include "mcapi_core.h"
#include "collective_internal.h"
#include "mp_internal.h"
#include "namp_cc.h"

#define TX_MAGIC 0x52445458u /* "RDTX" */
#define RX_MAGIC 0x52445258u /* "RDRX" */

static uint32_t type_bytes(uint32_t type) { return NAMP_CC_TYPE_BYTES(type); }

/* one element: a op b (wrapping sum, signed or unsigned compare, logical ops give 0/1) */
#define COMBINE(T, op, a, b)                              \
    ((op) == MCAPIX_OP_SUM    ? (T)((a) + (b))            \
     : (op) == MCAPIX_OP_MIN  ? ((b) < (a) ? (b) : (a))   \
     : (op) == MCAPIX_OP_MAX  ? ((b) > (a) ? (b) : (a))   \
     : (op) == MCAPIX_OP_BAND ? (T)((a) & (b))            \
     : (op) == MCAPIX_OP_BOR  ? (T)((a) | (b))            \
     : (op) == MCAPIX_OP_BXOR ? (T)((a) ^ (b))            \
     : (op) == MCAPIX_OP_LAND ? (T)((a) != 0 && (b) != 0) \
                              : (T)((a) != 0 || (b) != 0))
#define APPLY(T)                                                     \
    do {                                                             \
        for (size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) { \
            T a, b;                                                  \
            memcpy(&a, d + i, sizeof a);                             \
            memcpy(&b, s + i, sizeof b);                             \
            T x = COMBINE(T, op, a, b);                              \
            memcpy(d + i, &x, sizeof x);                             \
        }                                                            \
    } while (0)

void mcapix_reduce_apply(uint32_t op, uint32_t type, void *dst, const void *src, size_t bytes)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    switch (type) {
    case MCAPIX_T_INT8: APPLY(int8_t); break;
    case MCAPIX_T_INT16: APPLY(int16_t); break;
    case MCAPIX_T_INT32: APPLY(int32_t); break;
    case MCAPIX_T_UINT8: APPLY(uint8_t); break;
    case MCAPIX_T_UINT16: APPLY(uint16_t); break;
    default: APPLY(uint32_t); break;
    }
}

/* software path: one message [id][data]; the root's core combines */
static uint8_t scratch[MCAPIX_REDUCE_MAX_SIZE + 4] __attribute__((aligned(8)));

void mcapix_reduce_tx_create(mcapix_reduce_tx_t *r, mcapi_endpoint_t send_endpoint,
                             mcapi_endpoint_t root, mcapi_status_t *status)
{
    if (!r) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    r->magic = 0;
    if (!send_endpoint || !send_endpoint->local || !root || root->local) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    for (uint32_t i = 0; i < sizeof r->desc / 4; ++i)
        r->desc[i] = 0;
    /* the contributor's own handle of the root: the root's words and the key of its sending
     * endpoint (a root with a member table admits only listed keys) */
    mp_cc_member_handle(r->handle, root, send_endpoint);
    r->desc[NAMP_CC_NUM / 4] = 1;
    r->desc[(NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE) / 4] = (uint32_t)(uintptr_t)r->handle;
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
        size % type_bytes(type)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!buffer) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    uint32_t id = r->next_id++;
    r->desc[NAMP_CC_KIND / 4] = NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, op, type);
    r->desc[NAMP_CC_ID / 4] = id;
    mcapi_status_t st;
    if (mp_cc_path() == MCAPIX_CC_AUTO && mp_cc_hw_reduce_send(r, buffer, (uint32_t)size, &st)) {
        SET(status, st);
        return;
    }
    if (size > MCAPIX_REDUCE_MAX_SIZE) {
        SET(status, MCAPI_ERR_MSG_SIZE);
        return;
    }
    memcpy(scratch, &id, 4);
    mp_copy(scratch + 4, buffer, size);
    mcapi_msg_send(r->send_endpoint, r->root, scratch, size + 4, 0, status);
}

void mcapix_reduce_rx_create(mcapix_reduce_rx_t *r, mcapi_endpoint_t endpoint,
                             uint32_t contributions, mcapi_status_t *status)
{
    if (!r || contributions == 0 || contributions > 0xFFFFu) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    r->magic = 0;
    if (!endpoint || !endpoint->local || endpoint->local->state != MP_EP_READY) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    for (uint32_t i = 0; i < sizeof r->desc / 4; ++i)
        r->desc[i] = 0;
    r->desc[NAMP_CC_RX_KIND / 4] = NAMP_CC_K_REDUCE;
    r->desc[NAMP_CC_RX_CONTRIB / 4] = contributions;
    r->contributions = contributions;
    r->next_id = 1;
    r->endpoint = endpoint;
    r->hw = mp_cc_path() == MCAPIX_CC_AUTO && mp_cc_hw_reduce_rx(r);
    r->magic = RX_MAGIC;
    SET(status, MCAPI_SUCCESS);
}

void mcapix_reduce_rx_members(mcapix_reduce_rx_t *r, uint32_t n, const mcapi_endpoint_t *members,
                              mcapi_status_t *status)
{
    if (!r || r->magic != RX_MAGIC || !members || n != r->contributions ||
        n > NAMP_CC_RX_MAX_MEMBERS) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    SET(status, mp_cc_rx_members(r->members, r->desc, n, members));
}

void mcapix_reduce_recv(mcapix_reduce_rx_t *r, uint32_t op, uint32_t type, void *buffer,
                        size_t buffer_size, size_t *received_size, mcapi_status_t *status)
{
    if (!r || r->magic != RX_MAGIC || !received_size || op >= MCAPIX_OPS || type >= MCAPIX_TYPES) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!buffer) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    uint32_t id = r->next_id++;
    if (r->hw) { /* the adapter combined the contributions: one message */
        mcapi_msg_recv(r->endpoint, buffer, buffer_size, received_size, status);
        return;
    }
    size_t size = 0;
    for (uint32_t k = 0; k < r->contributions; ++k) {
        size_t got;
        mcapi_status_t st;
        mcapi_msg_recv(r->endpoint, scratch, sizeof scratch, &got, &st);
        if (st != MCAPI_SUCCESS) {
            SET(status, st);
            return;
        }
        uint32_t mid;
        memcpy(&mid, scratch, 4);
        if (got < 4 || mid != id || (k && got - 4 != size)) {
            SET(status, MCAPI_ERR_GENERAL); /* another reduction's, or a different size */
            return;
        }
        size = got - 4;
        if (size > buffer_size) {
            SET(status, MCAPI_ERR_MSG_TRUNCATED);
            return;
        }
        if (k == 0)
            mp_copy(buffer, scratch + 4, size);
        else
            mcapix_reduce_apply(op, type, buffer, scratch + 4, size);
    }
    *received_size = size;
    SET(status, MCAPI_SUCCESS);
}
