/* MCAPI-style message-passing API (thesis 3.2.1) on namp-vp. One node per tile (node id = tile
 * id), one domain. Core 0 of each tile runs the API and, in its machine external interrupt handler,
 * the protocol progress engine. The transport (software protocol over the baseline network adapter)
 * sits behind sw/lib/mp/mp_transport.h so that the same API can later run over the NAMP. */
#ifndef MCAPI_H
#define MCAPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t mcapi_status_t;
typedef uint32_t mcapi_domain_t;
typedef uint32_t mcapi_node_t;
typedef uint32_t mcapi_port_t;
typedef uint32_t mcapi_timeout_t;  /* microseconds of simulated time (mtime) */
typedef uint32_t mcapi_priority_t; /* accepted, not used */
typedef int32_t mcapi_boolean_t;
typedef uint32_t mcapi_uint_t;

#define MCAPI_TRUE                 1
#define MCAPI_FALSE                0
#define MCAPI_TIMEOUT_INFINITE     0xFFFFFFFFu
#define MCAPI_DOMAIN               0u
#define MCAPI_MAX_PRIORITY         0u
#define MCAPI_RETURN_VALUE_INVALID 0xFFFFFFFFu

enum mcapi_status_codes {
    MCAPI_SUCCESS = 1,
    MCAPI_PENDING,
    MCAPI_TIMEOUT,
    MCAPI_ERR_PARAMETER,
    MCAPI_ERR_DOMAIN_INVALID,
    MCAPI_ERR_NODE_INVALID,
    MCAPI_ERR_NODE_INITFAILED,
    MCAPI_ERR_NODE_INITIALIZED,
    MCAPI_ERR_NODE_NOTINIT,
    MCAPI_ERR_PORT_INVALID,
    MCAPI_ERR_ENDP_INVALID,
    MCAPI_ERR_ENDP_EXISTS,
    MCAPI_ERR_ENDP_LIMIT,
    MCAPI_ERR_ENDP_NOTOWNER,
    MCAPI_ERR_MSG_SIZE,
    MCAPI_ERR_MSG_TRUNCATED,
    MCAPI_ERR_MEM_LIMIT,
    MCAPI_ERR_CHAN_CONNECTED,
    MCAPI_ERR_CHAN_TYPE,
    MCAPI_ERR_CHAN_DIRECTION,
    MCAPI_ERR_CHAN_NOTOPEN,
    MCAPI_ERR_CHAN_OPEN,
    MCAPI_ERR_CHAN_INVALID,
    MCAPI_ERR_PKT_SIZE,
    MCAPI_ERR_REQUEST_INVALID,
    MCAPI_ERR_REQUEST_CANCELLED,
    MCAPI_ERR_BUF_INVALID,
    MCAPI_ERR_TRANSMISSION,
    MCAPI_ERR_NOT_SUPPORTED,
    MCAPI_ERR_GENERAL
};

/* Data paths of the baseline adapter (thesis Fig. 3.6). */
enum mp_data_path { MP_PATH_BUFFER = 0, MP_PATH_RMA = 1, MP_PATH_RDMA = 2 };
#ifndef MP_DEFAULT_DATA_PATH
#define MP_DEFAULT_DATA_PATH MP_PATH_BUFFER
#endif

typedef struct mcapi_node_attributes {
    uint32_t data_path; /* enum mp_data_path, used by this node's sends */
} mcapi_node_attributes_t;
typedef struct mcapi_param {
    uint32_t reserved;
} mcapi_param_t;
typedef struct mcapi_info {
    uint32_t mcapi_version, organization_id, implementation_version, number_of_domains,
        number_of_nodes, number_of_ports;
} mcapi_info_t;

/* Endpoint attributes for mcapix_endpoint_create: receive buffer of 2^capacity_log2 messages of
 * at most 2^max_msg_log2 bytes; send buffer optional (0 = none; the baseline sends from the
 * user's buffer). */
typedef struct mcapix_endpoint_attributes {
    uint32_t capacity_log2;
    uint32_t max_msg_log2;
    uint32_t send_capacity_log2; /* 0: no send buffer */
    /* NAMP transport: enum mp_send_mode (needs a send buffer for
     * buffered and CCM); the baseline ignores it */
    uint32_t send_mode;
} mcapix_endpoint_attributes_t;
/* How the NAMP transport sends from an endpoint (thesis 3.2.4.2/3.2.4.3, Table 3.2c). */
enum mp_send_mode { MP_SEND_UNBUFFERED = 0, MP_SEND_BUFFERED = 1, MP_SEND_CCM = 2 };
#define MP_DEFAULT_CAPACITY_LOG2 3u
#define MP_DEFAULT_MAX_MSG_LOG2  12u

struct mp_ephandle;
typedef struct mp_ephandle *mcapi_endpoint_t;
struct mp_endpoint;
typedef struct mp_endpoint *mcapi_pktchan_send_hndl_t;
typedef struct mp_endpoint *mcapi_pktchan_recv_hndl_t;

typedef struct mcapi_request {
    volatile uint32_t state; /* internal */
    uint32_t kind;
    mcapi_status_t status;
    size_t size;
    struct mp_endpoint *ep;
    void *buffer;
    size_t buffer_size;
    void **pbuffer;
    mcapi_endpoint_t *out_endpoint;
    uint32_t node, port;
    uint64_t next_try;
    /* send state (transport) */
    uint32_t op, op_path, op_idx, op_slot, op_pend, op_dma, op_backoff, op_ticket, op_size;
    mcapi_status_t op_status;
    uint32_t dst_node, dst_addr;
    const struct mp_ephandle *dst_h;
    struct mp_endpoint *op_src; /* sending endpoint */
    const void *op_buf;
    uint64_t op_retry_at;
} mcapi_request_t;

void mcapi_initialize(mcapi_domain_t domain_id, mcapi_node_t node_id,
                      const mcapi_node_attributes_t *mcapi_node_attributes,
                      const mcapi_param_t *init_parameters, mcapi_info_t *mcapi_info,
                      mcapi_status_t *mcapi_status);
void mcapi_finalize(mcapi_status_t *mcapi_status);
mcapi_domain_t mcapi_domain_id_get(mcapi_status_t *mcapi_status);
mcapi_node_t mcapi_node_id_get(mcapi_status_t *mcapi_status);

mcapi_endpoint_t mcapi_endpoint_create(mcapi_port_t port_id, mcapi_status_t *mcapi_status);
mcapi_endpoint_t mcapix_endpoint_create(mcapi_port_t port_id,
                                        const mcapix_endpoint_attributes_t *attributes,
                                        mcapi_status_t *mcapi_status);
/* After mcapi_endpoint_delete: 1 once the endpoint's buffers are released (no peer or adapter
 * writes into them any more), 0 while they are quarantined. The kernel waits for it before it
 * gives a task's receive pages back (docs/kernel.md "SV isolation"). */
int mcapix_endpoint_reaped(mcapi_endpoint_t endpoint);
mcapi_endpoint_t mcapi_endpoint_get(mcapi_domain_t domain_id, mcapi_node_t node_id,
                                    mcapi_port_t port_id, mcapi_timeout_t timeout,
                                    mcapi_status_t *mcapi_status);
void mcapi_endpoint_get_i(mcapi_domain_t domain_id, mcapi_node_t node_id, mcapi_port_t port_id,
                          mcapi_endpoint_t *endpoint, mcapi_request_t *request,
                          mcapi_status_t *mcapi_status);
void mcapi_endpoint_delete(mcapi_endpoint_t endpoint, mcapi_status_t *mcapi_status);
/* One lookup of (node, port) into caller memory `out` (a struct mp_ephandle the caller owns: the
 * kernel keeps a task's handles in its own table, never in the library's shared one). The handle
 * names the endpoint found, with its identity: it never reaches another endpoint that reuses that
 * memory. MCAPI_SUCCESS; ENDP_INVALID (no such port yet); TIMEOUT (the tile did not answer within
 * timeout_us); PARAMETER; NODE_NOTINIT. */
mcapi_status_t mcapix_endpoint_lookup(mcapi_node_t node, mcapi_port_t port, uint32_t timeout_us,
                                      mcapi_endpoint_t out);
/* mcapi_pktchan_connect_i on behalf of a U-mode task (the kernel's): it gives up (MCAPI_TIMEOUT)
 * when the receiver's tile does not answer within timeout_us, and the receiver takes it only if
 * its owner has asked to open that endpoint's receiving side (else MCAPI_ERR_CHAN_NOTOPEN: ask
 * again), so a task cannot turn another party's endpoint into its channel. */
void mcapix_pktchan_connect_for_task(mcapi_endpoint_t send_endpoint,
                                     mcapi_endpoint_t receive_endpoint, uint32_t timeout_us,
                                     mcapi_status_t *mcapi_status);

void mcapi_msg_send(mcapi_endpoint_t send_endpoint, mcapi_endpoint_t receive_endpoint,
                    const void *buffer, size_t buffer_size, mcapi_priority_t priority,
                    mcapi_status_t *mcapi_status);
void mcapi_msg_send_i(mcapi_endpoint_t send_endpoint, mcapi_endpoint_t receive_endpoint,
                      const void *buffer, size_t buffer_size, mcapi_priority_t priority,
                      mcapi_request_t *request, mcapi_status_t *mcapi_status);
void mcapi_msg_recv(mcapi_endpoint_t receive_endpoint, void *buffer, size_t buffer_size,
                    size_t *received_size, mcapi_status_t *mcapi_status);
void mcapi_msg_recv_i(mcapi_endpoint_t receive_endpoint, void *buffer, size_t buffer_size,
                      mcapi_request_t *request, mcapi_status_t *mcapi_status);
mcapi_uint_t mcapi_msg_available(mcapi_endpoint_t receive_endpoint, mcapi_status_t *mcapi_status);

void mcapi_pktchan_connect_i(mcapi_endpoint_t send_endpoint, mcapi_endpoint_t receive_endpoint,
                             mcapi_request_t *request, mcapi_status_t *mcapi_status);
void mcapi_pktchan_send_open_i(mcapi_pktchan_send_hndl_t *send_handle,
                               mcapi_endpoint_t send_endpoint, mcapi_request_t *request,
                               mcapi_status_t *mcapi_status);
void mcapi_pktchan_recv_open_i(mcapi_pktchan_recv_hndl_t *receive_handle,
                               mcapi_endpoint_t receive_endpoint, mcapi_request_t *request,
                               mcapi_status_t *mcapi_status);
void mcapi_pktchan_send(mcapi_pktchan_send_hndl_t send_handle, const void *buffer, size_t size,
                        mcapi_status_t *mcapi_status);
void mcapi_pktchan_send_i(mcapi_pktchan_send_hndl_t send_handle, const void *buffer, size_t size,
                          mcapi_request_t *request, mcapi_status_t *mcapi_status);
void mcapi_pktchan_recv(mcapi_pktchan_recv_hndl_t receive_handle, void **buffer,
                        size_t *received_size, mcapi_status_t *mcapi_status);
void mcapi_pktchan_recv_i(mcapi_pktchan_recv_hndl_t receive_handle, void **buffer,
                          mcapi_request_t *request, mcapi_status_t *mcapi_status);
mcapi_uint_t mcapi_pktchan_available(mcapi_pktchan_recv_hndl_t receive_handle,
                                     mcapi_status_t *mcapi_status);
void mcapi_pktchan_release(void *buffer, mcapi_status_t *mcapi_status);

mcapi_boolean_t mcapi_test(mcapi_request_t *request, size_t *size, mcapi_status_t *mcapi_status);
mcapi_boolean_t mcapi_wait(mcapi_request_t *request, size_t *size, mcapi_timeout_t timeout,
                           mcapi_status_t *mcapi_status);
mcapi_uint_t mcapi_wait_any(size_t number, mcapi_request_t **requests, size_t *size,
                            mcapi_timeout_t timeout, mcapi_status_t *mcapi_status);
void mcapi_cancel(mcapi_request_t *request, mcapi_status_t *mcapi_status);

/* Zero-copy receive of connection-less messages: mcapix_msg_hold waits for the oldest message
 * (as mcapi_msg_recv) and gives its address in the receive buffer and its size without freeing
 * its element; the element stays taken (allocations that need it are refused "full") until
 * mcapix_msg_release. One held message per endpoint (a second hold: MCAPI_ERR_PARAMETER; release
 * without a hold: MCAPI_ERR_PARAMETER); deleting the endpoint drops a held message. */
void mcapix_msg_hold(mcapi_endpoint_t receive_endpoint, void **data, size_t *size,
                     mcapi_status_t *mcapi_status);
void mcapix_msg_release(mcapi_endpoint_t receive_endpoint, mcapi_status_t *mcapi_status);

/* Extensions: switch this node's data path at run time; statistics of the progress engine. */
void mcapix_set_data_path(uint32_t path);
uint32_t mcapix_get_data_path(void);
/* NAMP transport (mp_namp only): completion of blocking unbuffered sends (0 polling DONE, 1 wfi
 * woken by the NAMP_DONE line without a trap = default, 2 wfi + interrupt handler), and the
 * STATUS error code of the last failed slot (namp_error_name decodes it). */
void mcapix_namp_completion(int mode);
uint32_t mcapix_namp_last_error(void);
/* NAMP transport: send mode of a local endpoint (buffered and CCM need its send buffer). */
void mcapix_endpoint_set_send_mode(mcapi_endpoint_t endpoint, uint32_t mode,
                                   mcapi_status_t *status);
typedef struct mp_stats {
    uint64_t idle_cycles; /* cycles core 0 slept in wfi inside the library */
    uint64_t isr_cycles;  /* cycles serving the adapter interrupt (trap, or inline after wfi) */
    uint32_t isr_count, packets_rx, packets_tx, nacks, retries;
    uint32_t refused; /* allocations the software protocol refused "full" (receiver) */
} mp_stats_t;
const volatile mp_stats_t *mcapix_stats(void);
/* Allocation requests of other nodes this node refused because a receive buffer was full (they
 * back off and ask again), both transports: the software protocol's count, plus the NAMP target's
 * (NA_NAMP_REFUSED). Wraps. */
uint32_t mcapix_refused(void);
const char *mcapix_status_name(mcapi_status_t status);

#ifdef __cplusplus
}
#endif
#endif
