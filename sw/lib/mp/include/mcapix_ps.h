/* Endpoint relocation with NAMP-PS (thesis 3.6.4): the MCAPI library's calls for moving a
 * receiving endpoint to another tile (library mp_namp; docs/message-passing.md "Endpoint
 * relocation"). All need the adapter's ENABLE_PS (mcapix_ps_available) unless noted.
 *
 * Bare metal, moving a connection-less endpoint E from node A to node B:
 *   on B:  mcapix_endpoint_create_relocated(port_b, ...)   the new endpoint, held ("full")
 *   on A:  mcapix_endpoint_relocate(E, B, port_b, timeout) redirects E's senders (NAK_RELOC),
 *          waits until no transfer writes into E any more, copies E's messages (in order, at the
 *          same indices) into the new buffer and lets B's endpoint take over.
 * E stays a tombstone on A: senders that still allocate there follow the relocation; A's own
 * senders holding E send to B; lookups of E's port on A answer with the tombstone.
 * The kernel's task migration (sw/kernel/kmig.c) uses the steps one by one. */
#ifndef MCAPIX_PS_H
#define MCAPIX_PS_H

#include <stdint.h>

#include "mcapi.h"

/* 1 when the adapter has NAMP-PS. Needs no PS. */
int mcapix_ps_available(void);

mcapi_endpoint_t mcapix_endpoint_create_relocated(mcapi_port_t port,
                                                  const mcapix_endpoint_attributes_t *attributes,
                                                  mcapi_status_t *status);
/* MCAPI_SUCCESS; ENDP_INVALID (not a local endpoint), CHAN_TYPE (a channel's endpoint),
 * NOT_SUPPORTED (no PS), PARAMETER (B is this node, or its endpoint is not held or has another
 * geometry), TIMEOUT (the lookup, or transfers that never finished), TRANSMISSION (a copy failed). */
mcapi_status_t mcapix_endpoint_relocate(mcapi_endpoint_t endpoint, mcapi_node_t node,
                                        mcapi_port_t port, mcapi_timeout_t timeout);

/* ---- the steps (the kernel's migration runtime) ---- */
typedef struct mcapix_endpoint_info {
    uint32_t endpoint; /* the hardware endpoint's address */
    uint32_t id;       /* its identity (NAMP_EP_ID) */
    uint32_t rx;       /* its receive buffer */
    uint32_t capacity_log2, max_msg_log2, port;
    uint32_t channel_recv, channel_send;
    uint32_t peer_node, peer_handle; /* a channel's other end: node, its handle there */
    uint32_t credit_path;            /* receiving side: the handle its credits go through */
    uint32_t send_handle;            /* sending side: the handle its packets go through */
} mcapix_endpoint_info_t;
/* 0, or -1 for no local endpoint. Needs no PS. */
int mcapix_endpoint_inspect(mcapi_endpoint_t endpoint, mcapix_endpoint_info_t *info);
/* The local endpoint whose hardware endpoint is at addr (NULL: none). */
mcapi_endpoint_t mcapix_endpoint_by_addr(uint32_t addr);
/* held: allocations answered "full" (NAMP_EP_STATE_PAUSED), FINALs of earlier ones still commit;
 * 0 releases. Needs no PS. */
mcapi_status_t mcapix_endpoint_hold(mcapi_endpoint_t endpoint, int held);
/* Allocations granted and not yet finalized (counted with PS, or for a task's endpoint). */
uint32_t mcapix_endpoint_inflight(mcapi_endpoint_t endpoint);
/* The endpoint moved to (node, endpoint address there, its identity): the tombstone, after the
 * transfers granted before have finished (TIMEOUT if they do not). The tombstone keeps no buffer
 * (NAMP_EP_STATE_MOVED): the memory it had may be given to someone else. */
mcapi_status_t mcapix_endpoint_redirect(mcapi_endpoint_t endpoint, uint32_t node, uint32_t addr,
                                        uint32_t id);
/* A tombstone (MOVED) no sender needs any more: the library takes the entry back (its identity
 * goes with it: a sender that still holds it is answered NO_ENDPOINT). */
mcapi_status_t mcapix_endpoint_bury(mcapi_endpoint_t endpoint);
/* A relocated channel endpoint's tombstone is not needed (its one sender was switched, by RELOC or
 * by its kernel): the library takes the entry back. Needs no PS. */
mcapi_status_t mcapix_endpoint_retire(mcapi_endpoint_t endpoint);
/* A migration that did not happen: deletes an endpoint created for it (adopted, never switched to)
 * without telling the channel's sender, which still sends to the original endpoint. */
void mcapix_endpoint_discard(mcapi_endpoint_t endpoint, mcapi_status_t *status);
/* A new endpoint becomes the receiving side of an existing channel (its sender at peer_node with
 * its handle at peer_handle), without a connect handshake. */
mcapi_status_t mcapix_endpoint_adopt_recv(mcapi_endpoint_t endpoint, uint32_t peer_node,
                                          uint32_t peer_handle);
/* The receiving side's view after its credit path was relocated (RELOC) to the sender's new
 * handle. */
mcapi_status_t mcapix_chan_credit_path_moved(mcapi_endpoint_t endpoint, uint32_t node,
                                             uint32_t handle);
/* The sending side of a channel that the library does not hold as an endpoint (a migrated task's
 * channel handle, kept by the kernel) stopped writing: the set-up protocol's "stopped" to the
 * receive endpoint at addr on tile node, whose deletion waits for it. Needs no PS. */
void mcapix_chan_stopped(uint32_t node, uint32_t addr);

/* An RDMA copy to another tile (the adapter's last user DMA slot, polled): 0 or -1. */
int mp_rdma_put(uint32_t tile, uint32_t dst, const void *src, uint32_t size);

#endif
