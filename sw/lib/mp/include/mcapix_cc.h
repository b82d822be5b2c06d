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

#define MCAPIX_CC_MAX_MEMBERS 16u   /* = NAMP_CC_MAX_MEMBERS of the adapter */

/* A multicast group. Opaque to the application: allocate it (static, global or on the stack of a
 * function that outlives its use), create it with mcapix_mcast_create[_chan], and do not copy or
 * move it while it is in use (the adapter reads its descriptor in place). */
typedef struct mcapix_mcast_group {
    uint32_t desc[4 + 4 * MCAPIX_CC_MAX_MEMBERS];  /* the adapter's descriptor (namp_cc.h) */
    uint32_t magic;                                /* valid group */
    uint32_t num;                                  /* members */
    uint32_t channel;                              /* 1: members are packet channels */
    mcapi_endpoint_t send_endpoint;                /* connection-less: sending endpoint */
    mcapi_endpoint_t members[MCAPIX_CC_MAX_MEMBERS];           /* connection-less members */
    mcapi_pktchan_send_hndl_t chans[MCAPIX_CC_MAX_MEMBERS];    /* channel members */
    mcapi_status_t member_status[MCAPIX_CC_MAX_MEMBERS];       /* of the last software send */
    uint32_t remote_only;    /* connection-less: no member is a local endpoint */
    uint32_t hw_last;        /* the last send ran in the adapter (statuses in desc) */
    uint32_t hw_code;        /* its slot STATUS code (0: every member done) */
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
/* Status of member `member` in the last mcapix_mcast_send of the group (MCAPI_ERR_PARAMETER for
 * a bad group or index). */
mcapi_status_t mcapix_mcast_member_status(const mcapix_mcast_group_t *group, size_t member);
/* The group is no longer used (a later send on it: MCAPI_ERR_PARAMETER). */
void mcapix_mcast_destroy(mcapix_mcast_group_t *group, mcapi_status_t *mcapi_status);

/* Which path collectives take: MCAPIX_CC_AUTO (default: the adapter's CC when it has it) or
 * MCAPIX_CC_SOFTWARE (always the software loop; for comparisons on the same platform). */
enum mcapix_cc_path { MCAPIX_CC_AUTO = 0, MCAPIX_CC_SOFTWARE = 1 };
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
