/* MCAPI-style API (thesis 3.2.1) over the transport interface (transport.h) and the endpoint
 * layer (endpoints.h). */
#include <stdlib.h>
#include <string.h>

#include "mcapi_core.h"
#include "mp_internal.h"

static struct mp_ephandle remotes[MP_MAX_REMOTE];
static uint32_t n_remotes;
/* identities of this tile's endpoints (endpoints.h): never 0, never
 * reused (not reset by mcapi_initialize) */
static uint32_t last_ep_id;
static int initialized;
static uint32_t my_node;

/* "No such port (yet)" lookups are retried after 64 mtime ticks, doubling up to 4096 (about 41 us
 * at the default 10 MHz): many tiles waiting for a port that does not exist yet must not keep
 * the owner's progress engine so busy that its main never creates the port (issue 7, hole 6). */
#define MP_LOOKUP_BACKOFF_MIN 64u
#define MP_LOOKUP_BACKOFF_MAX 4096u
enum { K_NONE, K_MSG_RECV, K_PKT_RECV, K_RECV_OPEN, K_GET_EP, K_SEND, K_SEND_LOCAL };

/* A message to an endpoint of this node whose buffer is full waits as a K_SEND_LOCAL request
 * and tries again every MP_LOCAL_RETRY mtime ticks: the receiver may be another core of the tile
 * (MPI ranks per core), and two of them sending to each other must not both block in the call. */
#define MP_LOCAL_RETRY 64u
static uint32_t local_seq; /* call order of the waiting same-node sends (op_idx) */

/* Non-blocking sends under way. Every blocking wait of the library drives them too, so a send_i
 * followed by a blocking receive cannot deadlock against the peer doing the same. */
#define MP_MAX_ACTIVE 16u
static mcapi_request_t *active[MP_MAX_ACTIVE];
static uint32_t n_active;
static void progress_all(void);
static int active_hint(uint64_t *wake);

/* Sleep in wfi until cond holds, driving the non-blocking sends meanwhile. */
#define WAIT_PROGRESS(cond)                           \
    do {                                              \
        for (;;) {                                    \
            if (n_active)                             \
                progress_all();                       \
            uint32_t saved_ = irq_global_disable();   \
            if (cond) {                               \
                irq_global_restore(saved_);           \
                break;                                \
            }                                         \
            uint64_t wake_ = UINT64_MAX;              \
            if (!(n_active && active_hint(&wake_))) { \
                mp_idle(wake_);                       \
            }                                         \
            irq_global_restore(saved_);               \
        }                                             \
    } while (0)

/* ---------------------------------------------------------------- node */

void mcapi_initialize(mcapi_domain_t domain_id, mcapi_node_t node_id,
                      const mcapi_node_attributes_t *attrs, const mcapi_param_t *params,
                      mcapi_info_t *info, mcapi_status_t *status)
{
    (void)params;
    if (initialized) {
        SET(status, MCAPI_ERR_NODE_INITIALIZED);
        return;
    }
    if (domain_id != MCAPI_DOMAIN) {
        SET(status, MCAPI_ERR_DOMAIN_INVALID);
        return;
    }
    if (node_id != tile_id() || tile_core_id() != 0) {
        SET(status, MCAPI_ERR_NODE_INVALID);
        return;
    }
    my_node = node_id;
    mp_data_path = attrs ? attrs->data_path : MP_DEFAULT_DATA_PATH;
    memset(mp_endpoints, 0, sizeof mp_endpoints);
    n_remotes = 0;
    mcapi_status_t st = mp_tr_init();
    if (st != MCAPI_SUCCESS) { /* e.g. the NAMP transport on a platform without a NAMP */
        SET(status, st);
        return;
    }
    initialized = 1;
    if (info) {
        info->mcapi_version = 0x00020000;
        info->organization_id = 0;
        info->implementation_version = 1;
        info->number_of_domains = 1;
        info->number_of_nodes = tile_mesh_width() * tile_mesh_height();
        info->number_of_ports = MP_MAX_ENDPOINTS;
    }
    SET(status, MCAPI_SUCCESS);
}

void mcapi_finalize(mcapi_status_t *status)
{
    /* Endpoints stay valid: other tiles may still deliver to them while this core finishes. */
    SET(status, initialized ? MCAPI_SUCCESS : MCAPI_ERR_NODE_NOTINIT);
}

mcapi_domain_t mcapi_domain_id_get(mcapi_status_t *status)
{
    SET(status, initialized ? MCAPI_SUCCESS : MCAPI_ERR_NODE_NOTINIT);
    return MCAPI_DOMAIN;
}

mcapi_node_t mcapi_node_id_get(mcapi_status_t *status)
{
    SET(status, initialized ? MCAPI_SUCCESS : MCAPI_ERR_NODE_NOTINIT);
    return my_node;
}

void mcapix_set_data_path(uint32_t path) { mp_data_path = path; }

void mcapix_endpoint_set_send_mode(mcapi_endpoint_t e, uint32_t mode, mcapi_status_t *status)
{
    struct mp_endpoint *ep = e ? e->local : NULL;
    if (!ep || ep->state != MP_EP_READY) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    if (mode > MP_SEND_CCM || (mode != MP_SEND_UNBUFFERED && !ep->tx)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    /* the old mode's transfers first: a send in the new mode must not overtake them; the mode
     * changes even if one of them failed (its error is returned here) */
    mcapi_status_t st = mode != ep->send_mode ? mp_tr_send_mode_leave(ep) : MCAPI_SUCCESS;
    ep->send_mode = mode;
    SET(status, st);
}
uint32_t mcapix_get_data_path(void) { return mp_data_path; }
const volatile mp_stats_t *mcapix_stats(void) { return &mp_stats; }
uint32_t mcapix_refused(void) { return mp_tr_refused(); }

/* ---------------------------------------------------------------- endpoints */

/* Frees a deleted endpoint's buffers; the table entry may be reused afterwards. */
void mp_ep_release(struct mp_endpoint *ep)
{
    uint32_t saved = irq_global_disable(); /* the progress engine looks at rx */
    mp_cbuffer_t *rx = ep->rx, *tx = ep->tx;
    ep->rx = ep->tx = NULL;
    ep->state = MP_EP_DELETED;
    irq_global_restore(saved);
    if (!ep->rx_given)
        free(rx);
    free(tx);
    mp_tr_endpoint_init(ep); /* the hardware view loses its buffers too */
}

/* Frees the quarantined buffers of deleted endpoints that no peer writes into any more. */
static void reap_closing(void)
{
    for (uint32_t i = 0; i < MP_MAX_ENDPOINTS; ++i)
        if (mp_endpoints[i].state == MP_EP_CLOSING && mp_tr_endpoint_reapable(&mp_endpoints[i]))
            mp_ep_release(&mp_endpoints[i]);
}

static struct mp_endpoint *local_ep(mcapi_endpoint_t e)
{
    if (!e || !e->local || e->local->state != MP_EP_READY)
        return NULL;
    return e->local;
}

static mcapi_endpoint_t endpoint_create(mcapi_port_t port, const mcapix_endpoint_attributes_t *a,
                                        void *rx_mem, mcapi_status_t *status);

mcapi_endpoint_t mcapix_endpoint_create(mcapi_port_t port, const mcapix_endpoint_attributes_t *a,
                                        mcapi_status_t *status)
{
    return endpoint_create(port, a, NULL, status);
}

/* The receive buffer in caller memory (the kernel: a page of a task, mp/task.h); not freed on
 * deletion. */
mcapi_endpoint_t mcapix_endpoint_create_in(mcapi_port_t port, const mcapix_endpoint_attributes_t *a,
                                           void *rx_mem, mcapi_status_t *status)
{
    if (!rx_mem || ((uintptr_t)rx_mem & 7u) || (a && a->send_capacity_log2)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return NULL;
    }
    return endpoint_create(port, a, rx_mem, status);
}

static mcapi_endpoint_t endpoint_create(mcapi_port_t port, const mcapix_endpoint_attributes_t *a,
                                        void *rx_mem, mcapi_status_t *status)
{
    if (!initialized) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return NULL;
    }
    uint32_t n = a ? a->capacity_log2 : MP_DEFAULT_CAPACITY_LOG2;
    uint32_t m = a ? a->max_msg_log2 : MP_DEFAULT_MAX_MSG_LOG2;
    if (n > MP_CB_MAX_CAP_LOG2 || m < MP_CB_MIN_MSG_LOG2 || m > MP_CB_MAX_MSG_LOG2) {
        SET(status, MCAPI_ERR_PARAMETER);
        return NULL;
    }
    if (mp_find_port(port)) {
        SET(status, MCAPI_ERR_ENDP_EXISTS);
        return NULL;
    }
    reap_closing();
    struct mp_endpoint *ep = NULL;
    for (uint32_t i = 0; i < MP_MAX_ENDPOINTS && !ep; ++i)
        if (mp_endpoints[i].state == MP_EP_FREE || mp_endpoints[i].state == MP_EP_DELETED)
            ep = &mp_endpoints[i];
    if (!ep) {
        SET(status, MCAPI_ERR_ENDP_LIMIT);
        return NULL;
    }
    void *mem = rx_mem ? rx_mem : aligned_alloc(8, (mp_cbuffer_footprint(n, m) + 7u) & ~(size_t)7u);
    void *smem = NULL;
    if (mem && a && a->send_capacity_log2) {
        smem =
            aligned_alloc(8, (mp_cbuffer_footprint(a->send_capacity_log2, m) + 7u) & ~(size_t)7u);
        if (!smem) {
            free(mem);
            mem = NULL;
        }
    }
    if (!mem) {
        SET(status, MCAPI_ERR_MEM_LIMIT);
        return NULL;
    }
    memset(ep, 0, sizeof *ep);
    if (++last_ep_id == 0)
        ++last_ep_id;
    ep->id = last_ep_id;
    mp_cbuffer_init(mem, n, m, 0);
    if (smem)
        mp_cbuffer_init(smem, a->send_capacity_log2, m, 0);
    ep->rx = (mp_cbuffer_t *)mem;
    ep->tx = (mp_cbuffer_t *)smem;
    ep->rx_given = rx_mem != NULL;
    ep->rx_n = n;
    ep->rx_m = m;
    ep->h.domain = MCAPI_DOMAIN;
    ep->h.node = my_node;
    ep->h.port = port;
    ep->h.addr = (uint32_t)(uintptr_t)ep;
    ep->h.id = ep->id;
    ep->h.geometry = n | m << 8;
    ep->h.local = ep;
    ep->ccm_slot = -1;
    ep->send_mode = (a && smem) ? a->send_mode : MP_SEND_UNBUFFERED;
    mp_tr_endpoint_init(ep);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    ep->state = MP_EP_READY; /* visible to lookups from now on */
    SET(status, MCAPI_SUCCESS);
    return &ep->h;
}

int mcapix_endpoint_reaped(mcapi_endpoint_t e)
{
    if (!e || !e->local)
        return 1;
    reap_closing();
    return e->local->state != MP_EP_CLOSING;
}

void mcapi_endpoint_delete(mcapi_endpoint_t e, mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(e);
    if (!ep) {
        SET(status, e ? MCAPI_ERR_ENDP_NOTOWNER : MCAPI_ERR_ENDP_INVALID);
        return;
    }
    uint32_t saved = irq_global_disable();
    ep->state = MP_EP_CLOSING; /* no lookup, allocation, connect or receive from now on */
    irq_global_restore(saved);
    /* the transport stops the endpoint's own transfers and tells a channel's sender; buffers a
     * peer may still write into stay allocated until they are quiet (reap_closing) */
    if (mp_tr_endpoint_closing(ep))
        mp_ep_release(ep);
    reap_closing();
    SET(status, MCAPI_SUCCESS);
}

/* The node's handle of (node, port) as a lookup found it. A later lookup that finds another
 * endpoint there (its identity differs) updates the handle in place: the node's threads share
 * their handles (a task never gets one of these: mcapix_endpoint_lookup). */
static mcapi_endpoint_t remote_handle(uint32_t node, uint32_t port, const struct mp_ephandle *found)
{
    struct mp_ephandle *h = NULL;
    for (uint32_t i = 0; i < n_remotes && !h; ++i)
        if (remotes[i].node == node && remotes[i].port == port)
            h = &remotes[i];
    if (!h && n_remotes == MP_MAX_REMOTE)
        return NULL;
    if (!h)
        h = &remotes[n_remotes++];
    h->domain = MCAPI_DOMAIN;
    h->node = node;
    h->port = port;
    h->addr = found->addr;
    h->id = found->id;
    h->geometry = found->geometry;
    h->local = NULL;
    mp_tr_handle_init(h);
    return h;
}

/* One lookup attempt: local table or a LOOKUP request to the owning tile (no central server). */
static mcapi_status_t try_get(uint32_t node, uint32_t port, mcapi_endpoint_t *out)
{
    if (node == my_node) {
        struct mp_endpoint *ep = mp_find_port(port);
        if (!ep)
            return MCAPI_ERR_ENDP_INVALID;
        *out = &ep->h;
        return MCAPI_SUCCESS;
    }
    struct mp_ephandle found;
    mcapi_status_t st = mp_tr_lookup(node, port, 0, &found);
    if (st != MCAPI_SUCCESS)
        return st;
    *out = remote_handle(node, port, &found);
    return *out ? MCAPI_SUCCESS : MCAPI_ERR_ENDP_LIMIT;
}

mcapi_status_t mcapix_endpoint_lookup(mcapi_node_t node, mcapi_port_t port, uint32_t timeout_us,
                                      mcapi_endpoint_t out)
{
    if (!initialized)
        return MCAPI_ERR_NODE_NOTINIT;
    if (!out || node >= tile_mesh_width() * tile_mesh_height())
        return MCAPI_ERR_PARAMETER;
    struct mp_ephandle found = {0};
    mcapi_status_t st = MCAPI_SUCCESS;
    if (node == my_node) { /* a copy of the local endpoint's handle: the same identity */
        const struct mp_endpoint *ep = mp_find_port(port);
        if (!ep)
            return MCAPI_ERR_ENDP_INVALID;
        found = ep->h;
    } else if ((st = mp_tr_lookup(node, port, timeout_us ? timeout_us : 1u, &found)) !=
               MCAPI_SUCCESS) {
        return st;
    }
    memset(out, 0, sizeof *out);
    out->domain = MCAPI_DOMAIN;
    out->node = node;
    out->port = port;
    out->addr = found.addr;
    out->id = found.id;
    out->geometry = found.geometry;
    out->local = NULL;
    mp_tr_handle_init(out);
    return MCAPI_SUCCESS;
}

static int node_ok(uint32_t node) { return node < tile_mesh_width() * tile_mesh_height(); }

mcapi_endpoint_t mcapi_endpoint_get(mcapi_domain_t domain, mcapi_node_t node, mcapi_port_t port,
                                    mcapi_timeout_t timeout, mcapi_status_t *status)
{
    mcapi_request_t r;
    mcapi_endpoint_t e = NULL;
    mcapi_endpoint_get_i(domain, node, port, &e, &r, status);
    if (status && *status != MCAPI_PENDING && *status != MCAPI_SUCCESS)
        return NULL;
    size_t sz;
    mcapi_wait(&r, &sz, timeout, status);
    return (status == NULL || *status == MCAPI_SUCCESS) ? e : NULL;
}

void mcapi_endpoint_get_i(mcapi_domain_t domain, mcapi_node_t node, mcapi_port_t port,
                          mcapi_endpoint_t *endpoint, mcapi_request_t *r, mcapi_status_t *status)
{
    if (!initialized) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    if (domain != MCAPI_DOMAIN || !node_ok(node) || !endpoint || !r) {
        SET(status, !r || !endpoint          ? MCAPI_ERR_PARAMETER
                    : domain != MCAPI_DOMAIN ? MCAPI_ERR_DOMAIN_INVALID
                                             : MCAPI_ERR_NODE_INVALID);
        return;
    }
    mcapi_req_start(r, K_GET_EP);
    r->node = node;
    r->port = port;
    r->out_endpoint = endpoint;
    r->next_try = 0;
    r->op_backoff = MP_LOOKUP_BACKOFF_MIN;
    SET(status, MCAPI_PENDING);
}

/* ---------------------------------------------------------------- connection-less messages */

static void track(mcapi_request_t *r)
{
    for (uint32_t i = 0; i < MP_MAX_ACTIVE; ++i)
        if (!active[i]) {
            active[i] = r;
            n_active++;
            return;
        }
}

static void untrack(mcapi_request_t *r)
{
    for (uint32_t i = 0; i < MP_MAX_ACTIVE; ++i)
        if (active[i] == r) {
            active[i] = NULL;
            n_active--;
            return;
        }
}

/* A same-node send to d that was queued before seq waits. */
static int local_waiting_before(const struct mp_endpoint *d, uint32_t seq)
{
    for (uint32_t i = 0; i < MP_MAX_ACTIVE; ++i) {
        const mcapi_request_t *a = active[i];
        if (a && a->kind == K_SEND_LOCAL && a->ep == d && (int32_t)(a->op_idx - seq) < 0)
            return 1;
    }
    return 0;
}
static int local_waiting(const struct mp_endpoint *d)
{
    return n_active && local_waiting_before(d, local_seq);
}

/* Same-node delivery. A receive buffer in task memory (mcapix_endpoint_create_in) is pushed with
 * the geometry it was created with: the task can write its header (docs/kernel.md "SV isolation"). */
static int local_push(struct mp_endpoint *d, const void *buf, uint32_t size)
{
    return d->rx_given ? mp_cbuffer_push_untrusted(d->rx, d->rx_n, d->rx_m, buf, size)
                       : mp_cbuffer_push(d->rx, buf, size);
}

/* One attempt of a waiting same-node send: its turn (the oldest to its endpoint) and room. */
static int local_send_progress(mcapi_request_t *r)
{
    if (r->ep->state != MP_EP_READY) { /* the receiving endpoint was deleted meanwhile */
        untrack(r);
        mcapi_req_complete(r, MCAPI_ERR_ENDP_INVALID, 0);
        return 1;
    }
    uint64_t now = timer_now();
    if (now < r->next_try)
        return 0;
    if (local_waiting_before(r->ep, r->op_idx) || local_push(r->ep, r->op_buf, r->op_size) != 0) {
        r->next_try = now + MP_LOCAL_RETRY;
        return 0;
    }
    untrack(r);
    mcapi_req_complete(r, MCAPI_SUCCESS, r->op_size);
    return 1;
}

/* Never "ready": the waiter sleeps until the retry time even when it has passed (a wfi that
 * returns at once), because only the receiver frees room. Its core gives the node up in that
 * sleep (MPI ranks per core, mpi_node.c), which lets the receiver's core in. */
static int local_send_hint(const mcapi_request_t *r, uint64_t *wake)
{
    if (r->next_try < *wake)
        *wake = r->next_try;
    return 0;
}

/* Argument errors of a connection-less send. An endpoint of a packet channel neither sends nor
 * receives connection-less messages (the receiving side is refused by its tile). */
static inline __attribute__((always_inline)) mcapi_status_t
msg_send_check(mcapi_endpoint_t send_ep, mcapi_endpoint_t recv_ep, const void *buffer, size_t size)
{
    if (!initialized)
        return MCAPI_ERR_NODE_NOTINIT;
    if (!local_ep(send_ep) || !recv_ep)
        return MCAPI_ERR_ENDP_INVALID;
    if (send_ep->local->flags & (MP_EPF_CHAN_SEND | MP_EPF_CHAN_RECV))
        return MCAPI_ERR_CHAN_CONNECTED;
    if (!buffer && size)
        return MCAPI_ERR_BUF_INVALID;
    if (size > MP_CB_SIZE_MASK)
        return MCAPI_ERR_MSG_SIZE;
    return MCAPI_SUCCESS;
}

/* A blocking send queues behind the non-blocking ones under way; with all MP_MAX_ACTIVE of them
 * taken it waits (driving them) for one to complete instead of failing with
 * MCAPI_ERR_MEM_LIMIT as a non-blocking send does. */
static void wait_send_room(void)
{
    if (n_active == MP_MAX_ACTIVE)
        WAIT_PROGRESS(n_active < MP_MAX_ACTIVE);
}

void mcapi_msg_send_i(mcapi_endpoint_t send_ep, mcapi_endpoint_t recv_ep, const void *buffer,
                      size_t size, mcapi_priority_t prio, mcapi_request_t *r,
                      mcapi_status_t *status)
{
    (void)prio;
    if (!r) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    r->kind = K_NONE;
    mcapi_status_t st = msg_send_check(send_ep, recv_ep, buffer, size);
    if (st == MCAPI_SUCCESS && recv_ep->local) { /* same node: straight into the local buffer */
        struct mp_endpoint *d = local_ep(recv_ep);
        if (!d)
            st = MCAPI_ERR_ENDP_INVALID;
        else if (d->flags & (MP_EPF_CHAN_RECV | MP_EPF_CHAN_SEND))
            st = MCAPI_ERR_CHAN_CONNECTED;
        else if (size > (1u << d->rx_m))
            st = MCAPI_ERR_MSG_SIZE;
        else if (local_waiting(d) || local_push(d, buffer, (uint32_t)size) != 0) {
            if (n_active == MP_MAX_ACTIVE) {
                st = MCAPI_ERR_MEM_LIMIT;
            } else { /* full, or earlier sends to d wait: queue behind them (message order) */
                mcapi_req_start(r, K_SEND_LOCAL);
                r->ep = d;
                r->op_buf = buffer;
                r->op_size = (uint32_t)size;
                r->op_idx = local_seq++;
                r->next_try = timer_now() + MP_LOCAL_RETRY;
                track(r);
                SET(status, MCAPI_PENDING);
                return;
            }
        }
        mcapi_req_complete(r, st, st == MCAPI_SUCCESS ? size : 0);
        SET(status, st);
        return;
    }
    if (st == MCAPI_SUCCESS && n_active == MP_MAX_ACTIVE)
        st = MCAPI_ERR_MEM_LIMIT;
    if (st == MCAPI_SUCCESS) {
        mcapi_req_start(r, K_SEND);
        r->ep = NULL;
        r->dst_node = recv_ep->node;
        r->dst_addr = recv_ep->addr;
        r->dst_h = recv_ep;
        r->op_src = send_ep->local;
        r->op_buf = buffer;
        r->op_size = (uint32_t)size;
        st = mp_tr_send_start(r);
    }
    if (st != MCAPI_SUCCESS) {
        mcapi_req_complete(r, st, 0);
        SET(status, st);
        return;
    }
    track(r);
    mcapi_req_first_try(r, status);
}

void mcapi_msg_send(mcapi_endpoint_t send_ep, mcapi_endpoint_t recv_ep, const void *buffer,
                    size_t size, mcapi_priority_t prio, mcapi_status_t *status)
{
    mcapi_request_t r;
    mcapi_status_t st;
    size_t sz;
    /* The transport's blocking path only while no non-blocking send is under way: otherwise this
     * send queues behind them as a request, and the transport's per-destination turns keep the
     * call order (a blocking send must not overtake an earlier send_i to the same endpoint). */
    if (n_active == 0 && recv_ep && !recv_ep->local &&
        msg_send_check(send_ep, recv_ep, buffer, size) == MCAPI_SUCCESS) {
        SET(status, mp_tr_msg_send(send_ep->local, recv_ep, buffer, (uint32_t)size));
        return;
    }
    wait_send_room();
    mcapi_msg_send_i(send_ep, recv_ep, buffer, size, prio, &r, &st); /* errors, same node */
    if (st == MCAPI_PENDING)
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    SET(status, st);
}

static int try_msg_recv(struct mp_endpoint *ep, void *buffer, size_t cap, size_t *got,
                        mcapi_status_t *st)
{
    uint32_t size;
    int rc = mp_cbuffer_pop(ep->rx, buffer, cap > MP_CB_SIZE_MASK ? MP_CB_SIZE_MASK : (uint32_t)cap,
                            &size);
    if (rc == -1)
        return 0;
    *got = rc == 0 ? size : cap;
    *st = rc == 0 ? MCAPI_SUCCESS : MCAPI_ERR_MSG_TRUNCATED;
    return 1;
}

void mcapi_msg_recv(mcapi_endpoint_t recv_ep, void *buffer, size_t buffer_size,
                    size_t *received_size, mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(recv_ep);
    if (!ep || !buffer) {
        SET(status, ep ? MCAPI_ERR_PARAMETER : MCAPI_ERR_ENDP_INVALID);
        return;
    }
    if (ep->flags & (MP_EPF_CHAN_RECV | MP_EPF_CHAN_SEND)) {
        SET(status, MCAPI_ERR_CHAN_CONNECTED);
        return;
    }
    size_t got = 0;
    mcapi_status_t st;
    for (;;) {
        if (try_msg_recv(ep, buffer, buffer_size, &got, &st))
            break;
        WAIT_PROGRESS(mp_cbuffer_ready(ep->rx));
    }
    if (received_size)
        *received_size = got;
    SET(status, st);
}

void mcapi_msg_recv_i(mcapi_endpoint_t recv_ep, void *buffer, size_t buffer_size,
                      mcapi_request_t *r, mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(recv_ep);
    if (!ep || !r || !buffer) {
        SET(status, r && buffer ? MCAPI_ERR_ENDP_INVALID : MCAPI_ERR_PARAMETER);
        return;
    }
    if (ep->flags & (MP_EPF_CHAN_RECV | MP_EPF_CHAN_SEND)) {
        SET(status, MCAPI_ERR_CHAN_CONNECTED);
        return;
    }
    mcapi_req_start(r, K_MSG_RECV);
    r->ep = ep;
    r->buffer = buffer;
    r->buffer_size = buffer_size;
    mcapi_req_first_try(r, status);
}

void mcapix_msg_hold(mcapi_endpoint_t recv_ep, void **data, size_t *size, mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(recv_ep);
    if (!ep || !data || (ep && ep->holding)) {
        SET(status, ep ? MCAPI_ERR_PARAMETER : MCAPI_ERR_ENDP_INVALID);
        return;
    }
    if (ep->flags & (MP_EPF_CHAN_RECV | MP_EPF_CHAN_SEND)) {
        SET(status, MCAPI_ERR_CHAN_CONNECTED);
        return;
    }
    uint32_t idx;
    while (mp_cbuffer_read(ep->rx, &idx) != 0)
        WAIT_PROGRESS(mp_cbuffer_ready(ep->rx));
    ep->holding = 1;
    ep->held_idx = idx;
    *data = mp_cbuffer_data(ep->rx, idx);
    if (size)
        *size = mp_cbuffer_size(ep->rx, idx);
    SET(status, MCAPI_SUCCESS);
}

void mcapix_msg_release(mcapi_endpoint_t recv_ep, mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(recv_ep);
    if (!ep || !ep->holding) {
        SET(status, ep ? MCAPI_ERR_PARAMETER : MCAPI_ERR_ENDP_INVALID);
        return;
    }
    ep->holding = 0;
    mp_cbuffer_free(ep->rx, ep->held_idx);
    SET(status, MCAPI_SUCCESS);
}

mcapi_uint_t mcapi_msg_available(mcapi_endpoint_t recv_ep, mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(recv_ep);
    if (!ep) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return 0;
    }
    SET(status, MCAPI_SUCCESS);
    /* committed messages from rd_idx on, in order */
    mp_cbuffer_t *b = ep->rx;
    uint32_t rd = b->rd_idx, wr = b->wr_idx, n = 0;
    while (rd + n != wr && (mp_cbuffer_sizes(b)[mp_cbuffer_slot_of(b, rd + n)] & MP_CB_COMMITTED))
        ++n;
    return n;
}

/* ---------------------------------------------------------------- packet channels */

/* mcapix_pktchan_connect_for_task: for this call only */
static uint32_t connect_timeout_us, connect_for_task;

void mcapi_pktchan_connect_i(mcapi_endpoint_t send_ep, mcapi_endpoint_t recv_ep, mcapi_request_t *r,
                             mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(send_ep);
    mcapi_status_t st;
    if (!r) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!ep || !recv_ep)
        st = ep ? MCAPI_ERR_ENDP_INVALID : MCAPI_ERR_ENDP_NOTOWNER; /* sender must be local */
    else if (ep->flags & (MP_EPF_CHAN_SEND | MP_EPF_CHAN_RECV))
        st = MCAPI_ERR_CHAN_CONNECTED;
    else if (recv_ep->local || recv_ep->node == my_node)
        st = MCAPI_ERR_NOT_SUPPORTED; /* channels between endpoints of one node */
    else
        st = mp_tr_connect(ep, recv_ep, connect_timeout_us, connect_for_task);
    r->kind = K_NONE;
    mcapi_req_complete(r, st, 0);
    SET(status, st);
}

void mcapix_pktchan_connect_for_task(mcapi_endpoint_t send_ep, mcapi_endpoint_t recv_ep,
                                     uint32_t timeout_us, mcapi_status_t *status)
{
    mcapi_request_t r;
    connect_timeout_us = timeout_us;
    connect_for_task = 1;
    mcapi_pktchan_connect_i(send_ep, recv_ep, &r, status);
    connect_timeout_us = connect_for_task = 0;
}

void mcapi_pktchan_send_open_i(mcapi_pktchan_send_hndl_t *h, mcapi_endpoint_t send_ep,
                               mcapi_request_t *r, mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(send_ep);
    mcapi_status_t st = MCAPI_SUCCESS;
    if (!r || !h) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!ep)
        st = MCAPI_ERR_ENDP_INVALID;
    else if (!(ep->flags & MP_EPF_CHAN_SEND))
        st = (ep->flags & MP_EPF_CHAN_RECV) ? MCAPI_ERR_CHAN_DIRECTION : MCAPI_ERR_CHAN_INVALID;
    else if (ep->flags & MP_EPF_OPEN)
        st = MCAPI_ERR_CHAN_OPEN;
    else {
        __atomic_fetch_or(&ep->flags, MP_EPF_OPEN, __ATOMIC_RELAXED); /* vs. a revoke */
        *h = ep;
    }
    r->kind = K_NONE;
    mcapi_req_complete(r, st, 0);
    SET(status, st);
}

void mcapi_pktchan_recv_open_i(mcapi_pktchan_recv_hndl_t *h, mcapi_endpoint_t recv_ep,
                               mcapi_request_t *r, mcapi_status_t *status)
{
    struct mp_endpoint *ep = local_ep(recv_ep);
    if (!r || !h) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!ep) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    /* completes when the sender's connect request has arrived; from now on a task's connect is
     * taken too (docs/security.md: a task cannot turn someone's endpoint into its channel) */
    __atomic_fetch_or(&ep->flags, MP_EPF_OPEN_WANTED, __ATOMIC_RELAXED);
    mcapi_req_start(r, K_RECV_OPEN);
    r->ep = ep;
    r->pbuffer = (void **)h;
    mcapi_req_first_try(r, status);
}

/* 1 if the receive endpoint of ep's channel was deleted: the channel is invalid from then on (a
 * send must neither succeed nor write into the receiver's memory). */
static int peer_gone(struct mp_endpoint *ep)
{
    if (!(ep->flags & MP_EPF_PEER_GONE))
        return 0;
    mp_tr_chan_peer_gone(ep); /* tells the receiver once no send is under way */
    return 1;
}

void mcapi_pktchan_send_i(mcapi_pktchan_send_hndl_t ep, const void *buffer, size_t size,
                          mcapi_request_t *r, mcapi_status_t *status)
{
    if (!r) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    r->kind = K_NONE;
    mcapi_status_t st = MCAPI_SUCCESS;
    if (!ep || ep->state != MP_EP_READY || !(ep->flags & MP_EPF_CHAN_SEND) ||
        !(ep->flags & MP_EPF_OPEN))
        st = MCAPI_ERR_CHAN_INVALID;
    else if (peer_gone(ep))
        st = MCAPI_ERR_CHAN_INVALID;
    else if (!buffer && size)
        st = MCAPI_ERR_BUF_INVALID;
    else if (n_active == MP_MAX_ACTIVE)
        st = MCAPI_ERR_MEM_LIMIT;
    if (st == MCAPI_SUCCESS) {
        mcapi_req_start(r, K_SEND);
        r->ep = ep;
        r->dst_node = ep->peer_node;
        r->dst_addr = ep->peer_ep;
        r->dst_h = &ep->peer_h;
        r->op_src = ep;
        r->op_buf = buffer;
        r->op_size = (uint32_t)size;
        st = mp_tr_send_start(r);
    }
    if (st != MCAPI_SUCCESS) {
        mcapi_req_complete(r, st, 0);
        SET(status, st);
        return;
    }
    track(r);
    mcapi_req_first_try(r, status);
}

void mcapi_pktchan_send(mcapi_pktchan_send_hndl_t ep, const void *buffer, size_t size,
                        mcapi_status_t *status)
{
    /* flags is volatile (interrupt context sets PEER_GONE): one load for all three tests */
    const uint32_t need = MP_EPF_CHAN_SEND | MP_EPF_OPEN;
    if (!ep || ep->state != MP_EP_READY || (ep->flags & (need | MP_EPF_PEER_GONE)) != need) {
        if (ep && (ep->flags & MP_EPF_PEER_GONE))
            (void)peer_gone(ep); /* tells the receiver once no send is under way */
        SET(status, MCAPI_ERR_CHAN_INVALID);
        return;
    }
    if (!buffer && size) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    if (n_active == 0) {
        SET(status, mp_tr_chan_send(ep, buffer, (uint32_t)size));
        return;
    }
    mcapi_request_t r; /* behind non-blocking sends: queue up and drive them all */
    mcapi_status_t st;
    size_t sz;
    wait_send_room();
    mcapi_pktchan_send_i(ep, buffer, size, &r, &st);
    if (st == MCAPI_PENDING)
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    SET(status, st);
}

static int try_pkt_recv(struct mp_endpoint *ep, void **buffer, size_t *got)
{
    uint32_t idx;
    if (mp_cbuffer_read(ep->rx, &idx) != 0)
        return 0;
    *buffer = mp_cbuffer_data(ep->rx, idx); /* zero copy: released by mcapi_pktchan_release */
    *got = mp_cbuffer_size(ep->rx, idx);
    return 1;
}

static int recv_handle_ok(struct mp_endpoint *ep)
{
    return ep && ep->state == MP_EP_READY && (ep->flags & MP_EPF_CHAN_RECV) &&
           (ep->flags & MP_EPF_OPEN);
}

void mcapi_pktchan_recv(mcapi_pktchan_recv_hndl_t ep, void **buffer, size_t *received_size,
                        mcapi_status_t *status)
{
    if (!recv_handle_ok(ep) || !buffer) {
        SET(status, buffer ? MCAPI_ERR_CHAN_INVALID : MCAPI_ERR_PARAMETER);
        return;
    }
    size_t got;
    while (!try_pkt_recv(ep, buffer, &got)) {
        /* the sender closed the channel (its endpoint deleted, e.g. its task killed): what it
         * sent before is received first, then the channel is invalid */
        if (ep->flags & MP_EPF_SENDER_GONE) {
            if (try_pkt_recv(ep, buffer, &got))
                break;
            SET(status, MCAPI_ERR_CHAN_INVALID);
            return;
        }
        WAIT_PROGRESS(mp_cbuffer_ready(ep->rx) || (ep->flags & MP_EPF_SENDER_GONE));
    }
    if (received_size)
        *received_size = got;
    SET(status, MCAPI_SUCCESS);
}

void mcapi_pktchan_recv_i(mcapi_pktchan_recv_hndl_t ep, void **buffer, mcapi_request_t *r,
                          mcapi_status_t *status)
{
    if (!recv_handle_ok(ep) || !buffer || !r) {
        SET(status, buffer && r ? MCAPI_ERR_CHAN_INVALID : MCAPI_ERR_PARAMETER);
        return;
    }
    mcapi_req_start(r, K_PKT_RECV);
    r->ep = ep;
    r->pbuffer = buffer;
    mcapi_req_first_try(r, status);
}

mcapi_uint_t mcapi_pktchan_available(mcapi_pktchan_recv_hndl_t ep, mcapi_status_t *status)
{
    if (!recv_handle_ok(ep)) {
        SET(status, MCAPI_ERR_CHAN_INVALID);
        return 0;
    }
    const int gone = (ep->flags & MP_EPF_SENDER_GONE) != 0; /* before the look */
    const mcapi_uint_t n = mcapi_msg_available(&ep->h, status);
    if (n == 0 && gone) /* nothing left and nothing to come: the channel is closed, as recv says */
        SET(status, MCAPI_ERR_CHAN_INVALID);
    return n;
}

void mcapi_pktchan_release(void *buffer, mcapi_status_t *status)
{
    uintptr_t a = (uintptr_t)buffer;
    for (uint32_t i = 0; i < MP_MAX_ENDPOINTS; ++i) {
        struct mp_endpoint *ep = &mp_endpoints[i];
        if (ep->state != MP_EP_READY || !(ep->flags & MP_EPF_CHAN_RECV))
            continue;
        uintptr_t base = (uintptr_t)mp_cbuffer_data(ep->rx, 0);
        uintptr_t end = base + ((uintptr_t)mp_cbuffer_capacity(ep->rx) << ep->rx->max_msg_log2);
        if (a < base || a >= end)
            continue;
        uint32_t slot = (uint32_t)((a - base) >> ep->rx->max_msg_log2);
        if ((mp_cbuffer_sizes(ep->rx)[slot] & MP_CB_COMMITTED) == 0)
            break;
        mp_cbuffer_free(ep->rx, slot);
        mp_tr_chan_released(ep);
        SET(status, MCAPI_SUCCESS);
        return;
    }
    SET(status, MCAPI_ERR_BUF_INVALID);
}

/* ---------------------------------------------------------------- requests */

/* ---------------------------------------------------------------- the core's back end
 * (mcapi_core.h) */

int mcapi_be_progress(mcapi_request_t *r)
{
    if (r->state != MCAPI_REQ_PENDING)
        return 1;
    switch (r->kind) {
    case K_MSG_RECV: {
        size_t got;
        mcapi_status_t st;
        if (r->ep->state != MP_EP_READY) {
            mcapi_req_complete(r, MCAPI_ERR_ENDP_INVALID, 0);
            return 1;
        }
        if (try_msg_recv(r->ep, r->buffer, r->buffer_size, &got, &st)) {
            mcapi_req_complete(r, st, got);
            return 1;
        }
        return 0;
    }
    case K_PKT_RECV: {
        size_t got;
        if (r->ep->state != MP_EP_READY) {
            mcapi_req_complete(r, MCAPI_ERR_CHAN_INVALID, 0);
            return 1;
        }
        const int gone = (r->ep->flags & MP_EPF_SENDER_GONE) != 0; /* before the look */
        if (try_pkt_recv(r->ep, r->pbuffer, &got)) {
            mcapi_req_complete(r, MCAPI_SUCCESS, got);
            return 1;
        }
        if (gone) { /* closed by its sender and empty */
            mcapi_req_complete(r, MCAPI_ERR_CHAN_INVALID, 0);
            return 1;
        }
        return 0;
    }
    case K_RECV_OPEN:
        if (r->ep->state != MP_EP_READY) {
            mcapi_req_complete(r, MCAPI_ERR_ENDP_INVALID, 0);
            return 1;
        }
        if (r->ep->flags & MP_EPF_CHAN_RECV) {
            if (r->ep->flags & MP_EPF_OPEN) {
                mcapi_req_complete(r, MCAPI_ERR_CHAN_OPEN, 0);
            } else {
                r->ep->flags |= MP_EPF_OPEN;
                *(mcapi_pktchan_recv_hndl_t *)r->pbuffer = r->ep;
                mcapi_req_complete(r, MCAPI_SUCCESS, 0);
            }
            return 1;
        }
        return 0;
    case K_SEND_LOCAL: return local_send_progress(r);
    case K_SEND:
        if (mp_tr_send_progress(r)) {
            untrack(r);
            mcapi_req_complete(r, r->op_status, r->op_status == MCAPI_SUCCESS ? r->op_size : 0);
            return 1;
        }
        return 0;
    case K_GET_EP: {
        if (timer_now() < r->next_try)
            return 0;
        mcapi_endpoint_t e;
        if (try_get(r->node, r->port, &e) == MCAPI_SUCCESS) {
            *r->out_endpoint = e;
            mcapi_req_complete(r, MCAPI_SUCCESS, 0);
            return 1;
        }
        r->next_try = timer_now() + r->op_backoff; /* not created yet: ask again later */
        if (r->op_backoff < MP_LOOKUP_BACKOFF_MAX)
            r->op_backoff *= 2u;
        return 0;
    }
    default: return 1;
    }
}

/* 1 if mcapi_be_progress could advance r now; otherwise 0, and *wake is lowered to the mtime at which
 * it could without an interrupt (retry and back-off times). Called with interrupts off. */
static int ready_hint(mcapi_request_t *r, uint64_t *wake)
{
    switch (r->kind) {
    case K_MSG_RECV:
    case K_PKT_RECV: /* a deleted endpoint (or a closed channel) completes the request at once */
        return r->ep->state != MP_EP_READY || mp_cbuffer_ready(r->ep->rx) ||
               (r->kind == K_PKT_RECV && (r->ep->flags & MP_EPF_SENDER_GONE));
    case K_RECV_OPEN: return r->ep->state != MP_EP_READY || (r->ep->flags & MP_EPF_CHAN_RECV) != 0;
    case K_SEND: return mp_tr_send_hint(r, wake);
    case K_SEND_LOCAL: return local_send_hint(r, wake);
    case K_GET_EP:
        if (timer_now() >= r->next_try)
            return 1;
        if (r->next_try < *wake)
            *wake = r->next_try;
        return 0;
    default: return 1;
    }
}

/* The sends under way take the lowest free entries (track): the scan stops after the last of
 * those there were when it began. */
static void progress_all(void)
{
    mp_tr_poll();
    for (uint32_t i = 0, left = n_active; i < MP_MAX_ACTIVE && left; ++i)
        if (active[i]) {
            --left;
            mcapi_be_progress(active[i]);
        }
}

static int active_hint(uint64_t *wake)
{
    for (uint32_t i = 0; i < MP_MAX_ACTIVE; ++i)
        if (active[i] && ready_hint(active[i], wake))
            return 1;
    return 0;
}

int mcapi_be_ready(void) { return initialized; }

int mcapi_be_is_send(const mcapi_request_t *r)
{
    return r->kind == K_SEND || r->kind == K_SEND_LOCAL;
}

uint64_t mcapi_be_now(void) { return timer_now(); }

uint64_t mcapi_be_deadline(mcapi_timeout_t timeout)
{
    return timer_now() + timer_us_to_ticks(timeout);
}

size_t mcapi_be_wait_round(size_t n, mcapi_request_t **requests)
{
    if (n_active)
        progress_all();
    return mcapi_first_complete(n, requests);
}

/* Sleep until the progress engine has done something for one of the requests, a back-off or
 * retry time has come, or the deadline; checked with interrupts off so that no wake-up is lost.
 * The timer interrupt handler disarms the timer. */
void mcapi_be_wait_idle(size_t n, mcapi_request_t **requests, uint64_t deadline, uint32_t round)
{
    (void)round;
    uint32_t saved = irq_global_disable();
    uint64_t wake = deadline;
    int h = 0;
    for (size_t i = 0; i < n && !h; ++i)
        h = mcapi_req_pending(requests[i]) && ready_hint(requests[i], &wake);
    if (!h && n_active)
        h = active_hint(&wake);
    if (!h)
        mp_idle(wake);
    irq_global_restore(saved);
}
