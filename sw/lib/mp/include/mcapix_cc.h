/* Collective communication of the message-passing library (thesis 3.3): multicast groups, set up
 * once (at connection time) and run as often as needed. docs/message-passing.md, "Collective
 * communication (mcapix_ CC calls)", is the manual.
 *
 * The same calls run on every platform, so that benchmarks compare identical application code:
 *  - over the NAMP transport (library mp_namp) on an adapter with NAMP-CC multicast
 *    (NA_FEATURE_NAMP_CC_MCAST, preset `bare`): one collective slot sends to every member; the
 *    adapter runs the members concurrently (docs/namp.md, "Collective communication");
 *  - otherwise (no CC in the adapter, the software transport `mp`, mcapix_cc_set_path
 *    (MCAPIX_CC_SOFTWARE), or a group the hardware cannot take at that moment): a software loop of
 *    point-to-point sends, member by member, with the same results.
 *
 * All calls are blocking, core 0 only (like the rest of the library), and return through
 * *mcapi_status (never NULL). A multicast send returns when every member has finished: with
 * success, or with the status of the first member (in member order) that failed; the status of
 * every member is then available from mcapix_mcast_member_status. A member that never frees buffer
 * space delays the return (as a point-to-point send would), not the delivery to the others. */
#ifndef MCAPIX_CC_H
#define MCAPIX_CC_H

#include <stddef.h>
#include <stdint.h>

#include "mcapi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCAPIX_CC_MAX_MEMBERS 16u /* = NAMP_CC_MAX_MEMBERS of the adapter */

/* A multicast group. Opaque to the application: allocate it (static, global or on the stack of a
 * function that outlives its use), create it with mcapix_mcast_create[_chan], and do not copy or
 * move it while it is in use (the adapter reads its descriptor in place). */
typedef struct mcapix_mcast_group {
    uint32_t desc[4 + 4 * MCAPIX_CC_MAX_MEMBERS];    /* the adapter's descriptor (namp_cc.h) */
    uint32_t magic;                                  /* valid group */
    uint32_t num;                                    /* members */
    uint32_t channel;                                /* 1: members are packet channels */
    mcapi_endpoint_t send_endpoint;                  /* connection-less: sending endpoint */
    mcapi_endpoint_t members[MCAPIX_CC_MAX_MEMBERS]; /* connection-less members */
    mcapi_pktchan_send_hndl_t chans[MCAPIX_CC_MAX_MEMBERS]; /* channel members */
    mcapi_status_t member_status[MCAPIX_CC_MAX_MEMBERS];    /* of the last software send */
    uint32_t remote_only; /* connection-less: no member is a local endpoint */
    uint32_t scatter;     /* a scatter group (count, stride; bases and sizes in desc) */
    uint32_t count, stride;
    uint32_t hw_last; /* the last send ran in the adapter (statuses in desc) */
    uint32_t hw_code; /* its slot STATUS code (0: every member done) */
} __attribute__((aligned(8))) mcapix_mcast_group_t;

/* Connection-less group: `num` (1..MCAPIX_CC_MAX_MEMBERS) remote receive endpoints (from
 * mcapi_endpoint_get), sent to from the local endpoint send_endpoint.
 * Status: MCAPI_SUCCESS; MCAPI_ERR_PARAMETER (group NULL, members NULL, num 0 or too large);
 * MCAPI_ERR_ENDP_INVALID (send_endpoint or a member NULL or not a valid endpoint). */
void mcapix_mcast_create(mcapix_mcast_group_t *group, mcapi_endpoint_t send_endpoint,
                         const mcapi_endpoint_t *members, size_t num, mcapi_status_t *mcapi_status);
/* Connection-oriented group: `num` open send handles of packet channels (mcapi_pktchan_send_open_i
 * done). Status as above; MCAPI_ERR_CHAN_INVALID for a member that is not an open send handle. */
void mcapix_mcast_create_chan(mcapix_mcast_group_t *group, const mcapi_pktchan_send_hndl_t *members,
                              size_t num, mcapi_status_t *mcapi_status);
/* Sends `size` bytes from `buffer` to every member of the group (each receives one message or
 * packet). Status: MCAPI_SUCCESS; MCAPI_ERR_PARAMETER (not a created group); MCAPI_ERR_BUF_INVALID
 * (buffer NULL with size > 0); else the status of the first member that failed (e.g.
 * MCAPI_ERR_MSG_SIZE, MCAPI_ERR_ENDP_INVALID, MCAPI_ERR_CHAN_INVALID, MCAPI_ERR_PKT_SIZE). */
void mcapix_mcast_send(mcapix_mcast_group_t *group, const void *buffer, size_t size,
                       mcapi_status_t *mcapi_status);
/* Scatter (thesis 3.3.1.2, Fig. 3.22), connection-oriented: member i of `num` open channel send
 * handles receives `count` chunks of sizes[i] bytes taken from the data set at bases[i],
 * bases[i] + stride, ..., bases[i] + (count - 1) * stride, as one contiguous packet of
 * count * sizes[i] bytes (e.g. matrix columns). Status as mcapix_mcast_create_chan, and
 * MCAPI_ERR_PARAMETER for count 0, bases/sizes NULL or a size 0. In the adapter
 * (NA_FEATURE_NAMP_CC_SG, preset baresg) the DMA generates the chunk addresses; in software each
 * member's chunks are copied together and sent. */
void mcapix_scatter_create_chan(mcapix_mcast_group_t *group,
                                const mcapi_pktchan_send_hndl_t *members, size_t num,
                                uint32_t count, uint32_t stride, const uint32_t *bases,
                                const uint32_t *sizes, mcapi_status_t *mcapi_status);
/* Scatters the data set `data` of `data_size` bytes. Status as mcapix_mcast_send, and
 * MCAPI_ERR_PARAMETER when a member's chunks reach beyond data_size or the group is not a
 * scatter group (mcapix_mcast_send refuses scatter groups the same way). */
void mcapix_scatter_send(mcapix_mcast_group_t *group, const void *data, size_t data_size,
                         mcapi_status_t *mcapi_status);
/* Status of member `member` in the last mcapix_mcast_send of the group (MCAPI_ERR_PARAMETER for
 * a bad group or index). */
mcapi_status_t mcapix_mcast_member_status(const mcapix_mcast_group_t *group, size_t member);
/* The group is no longer used (a later send on it: MCAPI_ERR_PARAMETER). */
void mcapix_mcast_destroy(mcapix_mcast_group_t *group, mcapi_status_t *mcapi_status);

/* ---- reduction (thesis 3.3.2.4): `contributions` senders each send a vector of `size` bytes to
 * one root endpoint; the root receives one message, the element-wise reduction of all of them.
 * Ops (MCAPIX_OP_*) and element types (MCAPIX_T_*) are those of the adapter (namp_cc.h); size must
 * be a multiple of the type's size. Hardware path (mp_namp, NA_FEATURE_NAMP_CC_RED): each
 * contribution is one collective slot; the root's adapter combines them into one receive element
 * (docs/namp.md, "Reduction") and the root's core only receives the result. Software path: each
 * contribution is a message [id][data] and the root combines them in mcapix_reduce_recv. All
 * tiles of one reduction must take the same path (same platform and mcapix_cc_set_path). The
 * software path needs the contributions of reduction r+1 to start after the root received
 * reduction r (e.g. the root sends the result back, an allreduce); a contribution of another
 * reduction is reported as MCAPI_ERR_GENERAL, never mixed in. The root endpoint serves only this
 * reduction (no other messages). */
enum {
    MCAPIX_OP_SUM = 0,
    MCAPIX_OP_MIN,
    MCAPIX_OP_MAX,
    MCAPIX_OP_BAND,
    MCAPIX_OP_BOR,
    MCAPIX_OP_BXOR,
    MCAPIX_OP_LAND,
    MCAPIX_OP_LOR,
    MCAPIX_OPS
};
enum {
    MCAPIX_T_INT8 = 0,
    MCAPIX_T_INT16,
    MCAPIX_T_INT32,
    MCAPIX_T_UINT8,
    MCAPIX_T_UINT16,
    MCAPIX_T_UINT32,
    MCAPIX_TYPES
};
#define MCAPIX_REDUCE_MAX_SIZE        4096u /* software path: largest vector */
#define MCAPIX_REDUCE_RX_MAX_CAP_LOG2 6u    /* root endpoint: at most 64 receive elements */

typedef struct mcapix_reduce_tx { /* a contributor (opaque) */
    uint32_t desc[8];             /* the adapter's descriptor: one member, the root */
    uint32_t handle[16];          /* the contributor's handle of the root: its key */
    uint32_t magic, next_id;
    mcapi_endpoint_t send_endpoint, root;
} __attribute__((aligned(8))) mcapix_reduce_tx_t;
#define MCAPIX_CC_RX_MEMBERS 15u  /* members a root can name (a reduction: 14) */
typedef struct mcapix_reduce_rx { /* the root (opaque) */
    uint32_t desc[4 + 2 * 64];    /* the adapter's receive-side descriptor (NAMP_EP_CC) */
    uint32_t members[1 + 2 * MCAPIX_CC_RX_MEMBERS]; /* the member table (NAMP_CC_RX_MEMBERS) */
    uint32_t magic, contributions, next_id, hw;
    mcapi_endpoint_t endpoint;
} __attribute__((aligned(8))) mcapix_reduce_rx_t;

/* Contributor: to the remote endpoint `root` from local `send_endpoint`, once (connection time).
 * The k-th mcapix_reduce_send of every contributor and the k-th mcapix_reduce_recv of the root
 * belong to the same reduction (a sequence number travels with the contributions). Status:
 * MCAPI_SUCCESS, MCAPI_ERR_PARAMETER (r NULL), MCAPI_ERR_ENDP_INVALID. */
void mcapix_reduce_tx_create(mcapix_reduce_tx_t *r, mcapi_endpoint_t send_endpoint,
                             mcapi_endpoint_t root, mcapi_status_t *mcapi_status);
/* One contribution to the next reduction: `size` bytes of `type` elements combined with `op`.
 * Status: MCAPI_SUCCESS, MCAPI_ERR_PARAMETER (not created; op or type not in the table; size 0
 * or not a multiple of the type), MCAPI_ERR_BUF_INVALID, MCAPI_ERR_MSG_SIZE (too large for the
 * root's elements or, software path, above MCAPIX_REDUCE_MAX_SIZE), the send's error otherwise. */
void mcapix_reduce_send(mcapix_reduce_tx_t *r, uint32_t op, uint32_t type, const void *buffer,
                        size_t size, mcapi_status_t *mcapi_status);
/* Root: local `endpoint` (receive capacity at most 2^6 elements) combines `contributions`
 * (1..65535) vectors per reduction; once per endpoint, before any contributor sends (a
 * contribution to an endpoint without it fails: MCAPI_ERR_TRANSMISSION). Status: MCAPI_SUCCESS,
 * MCAPI_ERR_PARAMETER, MCAPI_ERR_ENDP_INVALID. Do not move r while it is in use (the adapter
 * reads it in place). */
void mcapix_reduce_rx_create(mcapix_reduce_rx_t *r, mcapi_endpoint_t endpoint,
                             uint32_t contributions, mcapi_status_t *mcapi_status);
/* Root: only these contributors may contribute (docs/security.md "Collective membership"): the
 * sending endpoints of the members, as the root looked them up (a local one: its own handle),
 * n = the root's contributions, at most NAMP_CC_RX_MAX_MEMBERS (14); each contributes once per
 * reduction. With namp.identity the adapter refuses any other contribution (NOT_MEMBER), and a
 * task's contribution carries the key its kernel gave it. A member that migrates keeps its place
 * (its kernel tells the root's). Before any contributor sends. Status: MCAPI_SUCCESS,
 * MCAPI_ERR_PARAMETER (not created, n not the contributions, NULL), MCAPI_ERR_ENDP_INVALID. */
void mcapix_reduce_rx_members(mcapix_reduce_rx_t *r, uint32_t n, const mcapi_endpoint_t *members,
                              mcapi_status_t *mcapi_status);
/* Receives the next reduction's result into buffer (blocking); op and type must be those of the
 * contributions (the software path combines with them; the adapter uses the contributions' own).
 * Status: MCAPI_SUCCESS, MCAPI_ERR_PARAMETER, MCAPI_ERR_BUF_INVALID, MCAPI_ERR_MSG_TRUNCATED,
 * MCAPI_ERR_GENERAL (software path: contributions of different sizes or of another reduction),
 * a receive error. */
void mcapix_reduce_recv(mcapix_reduce_rx_t *r, uint32_t op, uint32_t type, void *buffer,
                        size_t buffer_size, size_t *received_size, mcapi_status_t *mcapi_status);
/* The element-wise reduction in software (the software path's arithmetic; also for checks):
 * dst[i] = dst[i] op src[i] over `bytes` bytes. */
void mcapix_reduce_apply(uint32_t op, uint32_t type, void *dst, const void *src, size_t bytes);

/* ---- gather (thesis 3.3.1.3): `parts` senders each own part of one message at the root: part
 * i is `count` chunks of `chunk` bytes, placed at base, base + stride, ... in the root's message
 * of msg_size bytes (e.g. column blocks of a matrix). Hardware path (mp_namp,
 * NA_FEATURE_NAMP_CC_SG, preset baresg): each part is one collective slot; the root's adapter
 * writes the chunks in place, tracks the parts in a bit field and the root's core receives one
 * complete message. Software path: each part is a message [id][part][layout][data] and
 * mcapix_gather_recv copies the chunks into place. Same path on all tiles; the software path
 * needs the parts of gather r+1 to start after the root received gather r (as for reductions).
 * Decision: the parts' channel handles carry unlimited credits (the root's buffer is protected
 * by the allocation, NACK when full), so no credit returns are needed. */
#define MCAPIX_GATHER_MAX_PARTS 15u
typedef struct mcapix_gather_tx { /* one part (opaque) */
    uint32_t desc[9];             /* the adapter's descriptor (namp_cc.h gather layout) */
    uint32_t handle[16];          /* the part's handle of the root endpoint (credits) */
    uint32_t magic, next_id, part, count, base, chunk, stride;
    mcapi_endpoint_t send_endpoint, root;
} __attribute__((aligned(8))) mcapix_gather_tx_t;
typedef struct mcapix_gather_rx { /* the root (opaque) */
    uint32_t desc[4 + 2 * 64];    /* the adapter's receive-side descriptor (NAMP_EP_CC) */
    uint32_t members[1 + 2 * MCAPIX_CC_RX_MEMBERS]; /* the member table (NAMP_CC_RX_MEMBERS) */
    uint32_t magic, parts, msg_size, next_id, hw;
    mcapi_endpoint_t endpoint;
} __attribute__((aligned(8))) mcapix_gather_rx_t;

/* Part `part` (< MCAPIX_GATHER_MAX_PARTS) of the gathers to the remote endpoint `root`, whose
 * receive elements hold 2^root_max_msg_log2 bytes, sent from local `send_endpoint`; layout as
 * above. Status: MCAPI_SUCCESS, MCAPI_ERR_PARAMETER (bad part, count 0, chunk 0, chunks beyond
 * 2^root_max_msg_log2), MCAPI_ERR_ENDP_INVALID. */
void mcapix_gather_tx_create(mcapix_gather_tx_t *r, mcapi_endpoint_t send_endpoint,
                             mcapi_endpoint_t root, uint32_t root_max_msg_log2, uint32_t part,
                             uint32_t count, uint32_t base, uint32_t chunk, uint32_t stride,
                             mcapi_status_t *mcapi_status);
/* Sends this part of the next gather: count x chunk bytes from buffer. Status: MCAPI_SUCCESS,
 * MCAPI_ERR_PARAMETER, MCAPI_ERR_BUF_INVALID, MCAPI_ERR_MSG_SIZE (software: above 4 KiB), the
 * send's error. */
void mcapix_gather_send(mcapix_gather_tx_t *r, const void *buffer, mcapi_status_t *mcapi_status);
/* Root: local `endpoint` (capacity at most 2^6 elements) collects `parts` parts into messages of
 * msg_size bytes; before any part is sent. Status: MCAPI_SUCCESS, MCAPI_ERR_PARAMETER,
 * MCAPI_ERR_ENDP_INVALID. Do not move r while it is in use. */
void mcapix_gather_rx_create(mcapix_gather_rx_t *r, mcapi_endpoint_t endpoint, uint32_t parts,
                             uint32_t msg_size, mcapi_status_t *mcapi_status);
/* Root: part p comes only from the sending endpoint parts[p] (p < the root's parts), once per
 * gather; as mcapix_reduce_rx_members. */
void mcapix_gather_rx_members(mcapix_gather_rx_t *r, const mcapi_endpoint_t *parts,
                              mcapi_status_t *mcapi_status);
/* The kernel's migration (root side): the member key (old_tile, old_id) of the root endpoint at
 * ep_addr (identity ep_id) becomes (new_tile, new_id). 0 replaced, 1 not a member there, -1 no
 * such root. */
int mcapix_cc_rekey(uint32_t ep_addr, uint32_t ep_id, uint32_t old_tile, uint32_t old_id,
                    uint32_t new_tile, uint32_t new_id);
/* Receives the next gathered message (blocking). Status: MCAPI_SUCCESS, MCAPI_ERR_PARAMETER,
 * MCAPI_ERR_BUF_INVALID, MCAPI_ERR_MSG_TRUNCATED, MCAPI_ERR_GENERAL (software: a part of another
 * gather or outside the message), the receive's error. */
void mcapix_gather_recv(mcapix_gather_rx_t *r, void *buffer, size_t buffer_size,
                        size_t *received_size, mcapi_status_t *mcapi_status);

/* A U-mode task (task build, docs/kernel.md "Collectives in tasks"): `area` (4-byte aligned, more
 * than 0x140 bytes, the task's own memory, physically contiguous: one page always is) becomes the
 * task's collective area, once; the adapter reads a task's collectives only there (the data of one
 * send: bytes - 0x140 at most). Status: MCAPI_SUCCESS, MCAPI_ERR_PARAMETER, MCAPI_ERR_GENERAL
 * (registered before), MCAPI_ERR_BUF_INVALID (not the task's memory), MCAPI_ERR_NODE_NOTINIT.
 * Bare metal: nothing to register, MCAPI_SUCCESS. */
void mcapix_cc_area(void *area, size_t bytes, mcapi_status_t *status);

/* Which path collectives take: MCAPIX_CC_AUTO (default: the adapter's CC when it has it),
 * MCAPIX_CC_SOFTWARE (always the software loop of blocking sends, member after member) or
 * MCAPIX_CC_SOFTWARE_POSTED (multicast and scatter: the members' sends posted one after the
 * other as non-blocking sends, then waited for, as the thesis' software multicast of Fig. 3.20a;
 * a scatter waits whenever its 4 KiB staging buffer is full; gather and reduction take their
 * software path). For comparisons on the same platform. */
enum mcapix_cc_path { MCAPIX_CC_AUTO = 0, MCAPIX_CC_SOFTWARE = 1, MCAPIX_CC_SOFTWARE_POSTED = 2 };
void mcapix_cc_set_path(uint32_t path);
/* NA_FEATURE_NAMP_CC_* bits the library can use on this tile (0: software only). */
uint32_t mcapix_cc_features(void);
/* Sends done by the adapter's CC and by the software loop, since start. */
typedef struct mcapix_cc_stats {
    uint32_t hw_sends, sw_sends;
} mcapix_cc_stats_t;
const mcapix_cc_stats_t *mcapix_cc_stats(void);

#ifdef __cplusplus
}
#endif
#endif
