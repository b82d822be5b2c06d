/* The MCAPI API in a U-mode task (library mp_task; mp/task.h, docs/kernel.md "MCAPI in tasks").
 * It defines the plain mcapi_* names; kernel_firmware(... TASKS ...) links it with the tasks'
 * sources alone, so the kernel in the same image keeps its own library. Everything here runs in U-mode and touches only the task's own pages: its state at
 * K_USER_DATA (no global data: the firmware's .data belongs to the kernel), its vif page, the
 * shared text. Sends go through the vif with endpoint vIDs and make no system call; endpoint
 * creation, deletion and lookups are kernel requests; receives pop the endpoint's receive buffer
 * (a page of the state) and sleep a tick while it is empty. The non-blocking calls keep their
 * state in the caller's request. Calls a task cannot make return MCAPI_ERR_NOT_SUPPORTED. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/kernel.h" /* error codes */
#include "kernel/user.h"
#include "mcapi.h"
#include "mcapi_core.h"
#include "mp/cbuffer.h"
#include "mp/copy.h"
#include "mp/task.h"
#include "mcapi_task_internal.h"
#include "namp/namp_regs.h"

#define S          ((mp_task_state_t *)K_USER_DATA)
#define C          (&S->u.c)
#define VIF        ((uintptr_t)C->vif) /* the vif interface page mapped into the task */
#define SPIN_POLLS 2000u /* a transfer takes microseconds: polled; longer waits sleep */
enum { MP_TASK_RK_SEND = 1, MP_TASK_RK_RECV_MSG, MP_TASK_RK_RECV_PKT, MP_TASK_RK_GET };

/* ---- kernel requests ---- */

static int32_t request(uint32_t op, uint32_t a1, uint32_t a2)
{
    long r;
    while ((r = u_syscall3(K_SYS_MP_REQ, (long)op, (long)a1, (long)a2)) == K_EAGAIN)
        u_sleep(1);
    if (r < 0)
        return MP_TASK_ERR(r == K_ENOSYS ? MCAPI_ERR_NOT_SUPPORTED : MCAPI_ERR_GENERAL);
    while ((r = u_syscall(K_SYS_MP_RES, 0, 0)) == K_EAGAIN)
        u_sleep(1);
    return (int32_t)r;
}

static void sendq_drain(void);

static mcapi_status_t status_of(int32_t r) { return r >= 0 ? MCAPI_SUCCESS : MP_TASK_STATUS(r); }

static int ready(void) { return C->magic == MP_TASK_MAGIC && C->initialized; }

/* A handle is the address of an entry of the state: anything else (NULL, a kernel handle, a
 * deleted endpoint) is found invalid without being dereferenced. */
static struct mp_task_ep *local_of(mcapi_endpoint_t e)
{
    uintptr_t a = (uintptr_t)e, base = (uintptr_t)C->ep;
    if (a < base || a >= base + sizeof C->ep || (a - base) % sizeof C->ep[0])
        return NULL;
    struct mp_task_ep *ep = (struct mp_task_ep *)a;
    return ep->used ? ep : NULL;
}

static struct mp_task_remote *remote_of(mcapi_endpoint_t e)
{
    uintptr_t a = (uintptr_t)e, base = (uintptr_t)C->rem;
    if (a < base || a >= base + sizeof C->rem || (a - base) % sizeof C->rem[0])
        return NULL;
    struct mp_task_remote *r = (struct mp_task_remote *)a;
    return r->used ? r : NULL;
}

static mp_cbuffer_t *rx_of(const struct mp_task_ep *ep)
{
    return (mp_cbuffer_t *)S->rx[ep - C->ep];
}

/* ---- node ---- */

void mcapi_initialize(mcapi_domain_t domain, mcapi_node_t node, const mcapi_node_attributes_t *attr,
                      const mcapi_param_t *param, mcapi_info_t *info, mcapi_status_t *status)
{
    (void)attr;
    (void)param;
    if (C->magic != MP_TASK_MAGIC) { /* the kernel did not set this task up (kmp_task_attach) */
        SET(status, MCAPI_ERR_NODE_INITFAILED);
        return;
    }
    if (C->initialized) {
        SET(status, MCAPI_ERR_NODE_INITIALIZED);
        return;
    }
    if (domain != MCAPI_DOMAIN) {
        SET(status, MCAPI_ERR_DOMAIN_INVALID);
        return;
    }
    if (node != C->node) { /* a task is part of its tile's node */
        SET(status, MCAPI_ERR_NODE_INVALID);
        return;
    }
    if (info) {
        info->mcapi_version = 0x2015;
        info->organization_id = 0;
        info->implementation_version = 1;
        info->number_of_domains = 1;
        info->number_of_nodes = 0;
        info->number_of_ports = MP_TASK_EPS;
    }
    C->initialized = 1;
    SET(status, MCAPI_SUCCESS);
}

void mcapi_finalize(mcapi_status_t *status)
{
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    mcapi_status_t st = MCAPI_SUCCESS;
    for (uint32_t i = 0; i < MP_TASK_EPS; ++i)
        if (C->ep[i].used) {
            mcapi_status_t s;
            mcapi_endpoint_delete((mcapi_endpoint_t)&C->ep[i], &s);
            if (s != MCAPI_SUCCESS)
                st = s;
        }
    C->initialized = 0;
    SET(status, st);
}

mcapi_domain_t mcapi_domain_id_get(mcapi_status_t *status)
{
    SET(status, ready() ? MCAPI_SUCCESS : MCAPI_ERR_NODE_NOTINIT);
    return MCAPI_DOMAIN;
}

mcapi_node_t mcapi_node_id_get(mcapi_status_t *status)
{
    SET(status, ready() ? MCAPI_SUCCESS : MCAPI_ERR_NODE_NOTINIT);
    return C->node;
}

/* ---- endpoints ---- */

mcapi_endpoint_t mcapix_endpoint_create(mcapi_port_t port, const mcapix_endpoint_attributes_t *a,
                                        mcapi_status_t *status)
{
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return NULL;
    }
    /* the receive buffer is a page of the task's state: no more than that, no send buffer */
    if (a && (a->capacity_log2 > MP_TASK_RX_N || a->max_msg_log2 > MP_TASK_RX_M ||
              a->send_capacity_log2)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return NULL;
    }
    struct mp_task_ep *ep = NULL;
    for (uint32_t i = 0; i < MP_TASK_EPS; ++i) {
        if (C->ep[i].used && C->ep[i].port == port) {
            SET(status, MCAPI_ERR_ENDP_EXISTS);
            return NULL;
        }
        if (!C->ep[i].used && !ep)
            ep = &C->ep[i];
    }
    if (!ep) {
        SET(status, MCAPI_ERR_ENDP_LIMIT);
        return NULL;
    }
    ep->gone = 0; /* before the kernel knows the endpoint: only it sets the word */
    int32_t r = request(MP_TASK_OP_CREATE, port, (uint32_t)(ep - C->ep));
    if (r < 0) {
        SET(status, status_of(r));
        return NULL;
    }
    ep->port = port;
    ep->kid = r;
    ep->used = 1;
    SET(status, MCAPI_SUCCESS);
    return (mcapi_endpoint_t)ep;
}

void mcapi_endpoint_delete(mcapi_endpoint_t e, mcapi_status_t *status)
{
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    struct mp_task_ep *ep = local_of(e);
    if (!ep) {
        SET(status, remote_of(e) ? MCAPI_ERR_ENDP_NOTOWNER : MCAPI_ERR_ENDP_INVALID);
        return;
    }
    /* the task's own sends go first: a channel's "stopped" must follow its last packet */
    sendq_drain();
    int32_t r = request(MP_TASK_OP_DELETE, (uint32_t)ep->kid, 0);
    ep->used = 0;
    SET(status, status_of(r));
}

mcapi_endpoint_t mcapi_endpoint_get(mcapi_domain_t domain, mcapi_node_t node, mcapi_port_t port,
                                    mcapi_timeout_t timeout, mcapi_status_t *status)
{
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return NULL;
    }
    if (domain != MCAPI_DOMAIN) {
        SET(status, MCAPI_ERR_DOMAIN_INVALID);
        return NULL;
    }
    struct mp_task_remote *h = NULL;
    for (uint32_t i = 0; i < MP_TASK_REMOTES; ++i) {
        if (C->rem[i].used && C->rem[i].node == node && C->rem[i].port == port) {
            SET(status, MCAPI_SUCCESS);
            return (mcapi_endpoint_t)&C->rem[i];
        }
        if (!C->rem[i].used && !h)
            h = &C->rem[i];
    }
    if (!h) {
        SET(status, MCAPI_ERR_ENDP_LIMIT);
        return NULL;
    }
    /* each request is one lookup of MP_TASK_GET_TRY_US: the timeout is counted in tries */
    uint32_t tries = timeout == MCAPI_TIMEOUT_INFINITE
                         ? UINT32_MAX
                         : (timeout + MP_TASK_GET_TRY_US - 1u) / MP_TASK_GET_TRY_US;
    for (uint32_t n = 1;; ++n) {
        int32_t r = request(MP_TASK_OP_GET, node, port);
        if (r >= 0) {
            h->node = node;
            h->port = port;
            h->vid = (uint32_t)r;
            h->used = 1;
            SET(status, MCAPI_SUCCESS);
            return (mcapi_endpoint_t)h;
        }
        mcapi_status_t st = status_of(r);
        if (st != MCAPI_TIMEOUT) {
            SET(status, st);
            return NULL;
        }
        if (tries != UINT32_MAX && n >= tries) {
            SET(status, MCAPI_TIMEOUT);
            return NULL;
        }
    }
}

/* Until the vif's transfer is DONE (with or without an error). A full receiver, one that is
 * migrating or a channel without credit holds a blocking call as long as that lasts (MCAPI's
 * blocking semantics): after a short spin the task sleeps a tick per look instead of burning its
 * slice. The way out of a peer that never drains is the kernel's: ending the task aborts its
 * slot; the adapter itself finishes every transfer (an endpoint that goes away answers ERROR). */
static void vif_wait_done(void)
{
    for (uint32_t i = 0; !(namp_vif_flags(VIF) & NAMP_FLAG_DONE); ++i)
        if (i >= SPIN_POLLS)
            u_sleep(1);
}

/* ---- the vif: one transfer at a time; non-blocking sends queue in C->sq (FIFO) ---- */

static void vif_start(uint32_t flags, uint32_t dst, uint32_t idx)
{
    namp_vif_start(VIF, flags | NAMP_FLAG_BUF, dst, C->tx_vid, idx);
}

/* A failed transfer's STATUS code as the library maps it (transport_namp.c): a peer that went
 * away is told apart from a transmission error; the vif's refusals name what the task was not
 * granted. Also a collective member's code (mcapi_task_cc.c). */
static mcapi_status_t vif_error(uint32_t code, uint32_t flags)
{
    switch (code) {
    case NAMP_ERR_NO_ENDPOINT: return MCAPI_ERR_ENDP_INVALID; /* deleted (its task killed) */
    case NAMP_ERR_CLOSED: return MCAPI_ERR_CHAN_INVALID;      /* the receiver revoked */
    case NAMP_ERR_CHANNEL: return MCAPI_ERR_CHAN_CONNECTED;
    case NAMP_ERR_TOO_LARGE:
        return (flags & NAMP_FLAG_CON) ? MCAPI_ERR_PKT_SIZE : MCAPI_ERR_MSG_SIZE;
    case NAMP_ERR_MODE_UNSUPPORTED: return MCAPI_ERR_NOT_SUPPORTED; /* absent hardware */
    case NAMP_ERR_VIF_BOUND:
    case NAMP_ERR_VIF_ENTRY: return MCAPI_ERR_ENDP_INVALID;
    case NAMP_ERR_VIF_WINDOW:
    case NAMP_ERR_WINDOW: return MCAPI_ERR_BUF_INVALID;
    default: return MCAPI_ERR_TRANSMISSION;
    }
}

/* The finished transfer's status, acknowledged (VALID off). A transfer that failed before the
 * adapter took its element (CLOSED, a refused start) leaves it committed at rd_idx, where the
 * next start would find it (SEND_EMPTY): it is dropped here. */
static mcapi_status_t vif_finish(uint32_t flags, uint32_t idx)
{
    uint32_t st = namp_vif_status(VIF);
    namp_vif_set_flags(VIF, flags | NAMP_FLAG_BUF);
    if (st & NAMP_STATUS_ERROR) {
        mp_cbuffer_t *tx = (mp_cbuffer_t *)S->tx;
        uint32_t j;
        if (tx->rd_idx == idx && mp_cbuffer_read(tx, &j) == 0)
            mp_cbuffer_free(tx, j);
        C->send_errors++;
        C->last_vif_status = st;
        return vif_error(NAMP_STATUS_CODE(st), flags);
    }
    C->sends++;
    return MCAPI_SUCCESS;
}

/* Progress of the queued sends, no system call: the one on the vif finished → its request
 * complete; the next one started. */
static void sendq_pump(void)
{
    while (C->sq_n) {
        mcapi_request_t *r = (mcapi_request_t *)C->sq[C->sq_head];
        if (!C->sq_started) {
            vif_start(r->op, r->dst_addr, r->op_idx);
            C->sq_started = 1;
        }
        if (!(namp_vif_flags(VIF) & NAMP_FLAG_DONE))
            return;
        const mcapi_status_t st = vif_finish(r->op, r->op_idx);
        mcapi_req_complete(r, st, st == MCAPI_SUCCESS ? r->op_size : 0);
        C->sq_started = 0;
        C->sq_head = (C->sq_head + 1) % MP_TASK_SENDQ;
        C->sq_n--;
    }
}

/* Until every queued send is done (a blocking send or a credit return needs the vif). */
static void sendq_drain(void)
{
    for (uint32_t i = 0; (sendq_pump(), C->sq_n); ++i)
        if (i >= SPIN_POLLS)
            u_sleep(1);
}

/* One element of the send buffer through the vif to the handle of vID dst (flags: 0 message,
 * NAMP_FLAG_CON packet); no system call. */
static mcapi_status_t vif_send(uint32_t flags, uint32_t dst, const void *buffer, size_t size)
{
    sendq_drain();
    mp_cbuffer_t *tx = (mp_cbuffer_t *)S->tx;
    uint32_t idx = 0;
    int got = 0;
    for (uint32_t i = 0; !got; ++i) { /* the adapter frees sent elements */
        got = mp_cbuffer_reserve(tx, &idx) == 0;
        if (!got && i >= SPIN_POLLS)
            u_sleep(1);
    }
    mp_copy(mp_cbuffer_data(tx, idx), buffer, (uint32_t)size);
    mp_cbuffer_commit(tx, idx, (uint32_t)size);
    vif_start(flags, dst, idx);
    vif_wait_done();
    return vif_finish(flags, idx);
}

/* A non-blocking send: the bytes are copied into a send-buffer element at once (the caller's
 * buffer is free on return), the element goes through the vif when the ones before it are done.
 * No element free (every one queued or under way): MCAPI_ERR_MEM_LIMIT, nothing queued. */
static void send_i(uint32_t flags, uint32_t dst, const void *buffer, size_t size,
                   mcapi_request_t *r, mcapi_status_t *status)
{
    sendq_pump();
    mp_cbuffer_t *tx = (mp_cbuffer_t *)S->tx;
    uint32_t idx = 0;
    if (C->sq_n >= MP_TASK_SENDQ || mp_cbuffer_reserve(tx, &idx) != 0) {
        SET(status, MCAPI_ERR_MEM_LIMIT);
        return;
    }
    mp_copy(mp_cbuffer_data(tx, idx), buffer, (uint32_t)size);
    mp_cbuffer_commit(tx, idx, (uint32_t)size);
    r->op = flags;
    r->dst_addr = dst;
    r->op_idx = idx;
    r->op_size = (uint32_t)size;
    mcapi_req_start(r, MP_TASK_RK_SEND);
    C->sq[(C->sq_head + C->sq_n) % MP_TASK_SENDQ] = (uint32_t)r;
    C->sq_n++;
    sendq_pump();
    SET(status, MCAPI_PENDING);
}

/* ---- messages ---- */

void mcapi_msg_send(mcapi_endpoint_t send_ep, mcapi_endpoint_t recv_ep, const void *buffer,
                    size_t size, mcapi_priority_t priority, mcapi_status_t *status)
{
    (void)priority;
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    struct mp_task_remote *dst = remote_of(recv_ep);
    if (!local_of(send_ep) || !dst) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    if (!buffer && size) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (size > MP_TASK_MAX_SEND) {
        SET(status, MCAPI_ERR_MSG_SIZE);
        return;
    }
    if (local_of(send_ep)->chan) {
        SET(status, MCAPI_ERR_CHAN_CONNECTED); /* as the library: a channel's endpoint */
        return;
    }
    SET(status, vif_send(0, dst->vid, buffer, size));
}

void mcapi_msg_recv(mcapi_endpoint_t recv_ep, void *buffer, size_t buffer_size,
                    size_t *received_size, mcapi_status_t *status)
{
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    struct mp_task_ep *ep = local_of(recv_ep);
    if (!ep || !buffer) {
        SET(status, ep ? MCAPI_ERR_PARAMETER : MCAPI_ERR_ENDP_INVALID);
        return;
    }
    mp_cbuffer_t *rx = rx_of(ep);
    uint32_t cap = buffer_size > MP_CB_SIZE_MASK ? MP_CB_SIZE_MASK : (uint32_t)buffer_size;
    uint32_t size = 0;
    int rc;
    while ((rc = mp_cbuffer_pop(rx, buffer, cap, &size)) == -1)
        u_sleep(1); /* blocking receive: the task sleeps a tick while the buffer is empty */
    if (received_size)
        *received_size = rc == 0 ? size : cap;
    SET(status, rc == 0 ? MCAPI_SUCCESS : MCAPI_ERR_MSG_TRUNCATED);
}

/* Committed elements from rd_idx on (what a receive would find without waiting). */
static uint32_t committed(mp_cbuffer_t *b)
{
    uint32_t rd = b->rd_idx, wr = b->wr_idx, n = 0;
    while (rd + n != wr && (mp_cbuffer_sizes(b)[mp_cbuffer_slot_of(b, rd + n)] & MP_CB_COMMITTED))
        ++n;
    return n;
}

mcapi_uint_t mcapi_msg_available(mcapi_endpoint_t recv_ep, mcapi_status_t *status)
{
    struct mp_task_ep *ep = ready() ? local_of(recv_ep) : NULL;
    if (!ep) {
        SET(status, ready() ? MCAPI_ERR_ENDP_INVALID : MCAPI_ERR_NODE_NOTINIT);
        return 0;
    }
    SET(status, MCAPI_SUCCESS);
    return committed(rx_of(ep));
}

/* ---- packet channels, sending side: connect and open are kernel requests (done when the call
 * returns: the request is complete at once), packets go through the vif with CON ---- */

void mcapi_pktchan_connect_i(mcapi_endpoint_t send_ep, mcapi_endpoint_t recv_ep, mcapi_request_t *r,
                             mcapi_status_t *status)
{
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    struct mp_task_ep *ep = local_of(send_ep);
    struct mp_task_remote *dst = remote_of(recv_ep);
    if (!r) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (!ep || !dst) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    if (ep->chan) {
        SET(status, MCAPI_ERR_CHAN_CONNECTED);
        return;
    }
    /* a task's connect is taken only by a receive endpoint whose owner has asked to open it
     * (docs/security.md): until then the kernel answers CHAN_NOTOPEN and the task asks again */
    mcapi_status_t st = MCAPI_ERR_CHAN_NOTOPEN;
    for (uint32_t tries = 0; st == MCAPI_ERR_CHAN_NOTOPEN && tries < MP_TASK_CONNECT_TRIES;
         ++tries) {
        if (tries)
            u_sleep(1);
        st = status_of(request(MP_TASK_OP_CONNECT, (uint32_t)ep->kid, dst->vid));
    }
    if (st == MCAPI_SUCCESS) {
        ep->chan = 1;
        ep->chan_vid = dst->vid;
    }
    mcapi_req_complete(r, st, 0);
    SET(status, st);
}

/* The checks both sides' open make, in MCAPI's order: the node, the handle and request
 * pointers, the endpoint (NULL with *status set when one fails). */
static struct mp_task_ep *open_endpoint(mcapi_endpoint_t e, const void *h, const mcapi_request_t *r,
                                        mcapi_status_t *status)
{
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return NULL;
    }
    struct mp_task_ep *ep = local_of(e);
    if (!h || !r) {
        SET(status, MCAPI_ERR_PARAMETER);
        return NULL;
    }
    if (!ep)
        SET(status, MCAPI_ERR_ENDP_INVALID);
    return ep;
}

void mcapi_pktchan_send_open_i(mcapi_pktchan_send_hndl_t *h, mcapi_endpoint_t send_ep,
                               mcapi_request_t *r, mcapi_status_t *status)
{
    struct mp_task_ep *ep = open_endpoint(send_ep, h, r, status);
    if (!ep)
        return;
    if (ep->chan != 1) {
        SET(status, ep->chan ? MCAPI_ERR_CHAN_OPEN : MCAPI_ERR_CHAN_NOTOPEN);
        return;
    }
    int32_t res = request(MP_TASK_OP_SEND_OPEN, (uint32_t)ep->kid, 0);
    mcapi_status_t st = status_of(res);
    if (st == MCAPI_SUCCESS) {
        ep->chan = 2;
        ep->chan_vid = (uint32_t)res;
        *h = (mcapi_pktchan_send_hndl_t)ep;
    }
    mcapi_req_complete(r, st, 0);
    SET(status, st);
}

void mcapi_pktchan_send(mcapi_pktchan_send_hndl_t h, const void *buffer, size_t size,
                        mcapi_status_t *status)
{
    struct mp_task_ep *ep = ready() ? local_of((mcapi_endpoint_t)h) : NULL;
    if (!ep || ep->chan != 2) {
        SET(status, ready() ? MCAPI_ERR_CHAN_INVALID : MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    if (!buffer && size) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    if (size > MP_TASK_MAX_SEND) {
        SET(status, MCAPI_ERR_PKT_SIZE);
        return;
    }
    SET(status, vif_send(NAMP_FLAG_CON, ep->chan_vid, buffer, size));
}

/* ---- packet channels, receiving side: open is a kernel request (the kernel gives the task the
 * channel's credit path as a vID); packets are read in place from the endpoint's buffer (a page of
 * the task); released packets go back as credits through the vif (credit mode), after half the
 * window as the library does (thesis 3.2.2.1) ---- */

void mcapi_pktchan_recv_open_i(mcapi_pktchan_recv_hndl_t *h, mcapi_endpoint_t recv_ep,
                               mcapi_request_t *r, mcapi_status_t *status)
{
    struct mp_task_ep *ep = open_endpoint(recv_ep, h, r, status);
    if (!ep)
        return;
    if (ep->chan) {
        SET(status, ep->chan == 3 ? MCAPI_ERR_CHAN_OPEN : MCAPI_ERR_CHAN_TYPE);
        return;
    }
    int32_t res;
    do /* until the sending side has connected */
        res = request(MP_TASK_OP_RECV_OPEN, (uint32_t)ep->kid, 0);
    while (res == MP_TASK_ERR(MCAPI_TIMEOUT));
    mcapi_status_t st = status_of(res);
    if (st == MCAPI_SUCCESS) {
        mp_cbuffer_t *rx = rx_of(ep);
        ep->chan = 3;
        ep->chan_vid = (uint32_t)res;
        ep->released = 0;
        ep->voids_seen = rx->voids;
        *h = (mcapi_pktchan_recv_hndl_t)ep;
    }
    mcapi_req_complete(r, st, 0);
    SET(status, st);
}

static struct mp_task_ep *recv_side(mcapi_pktchan_recv_hndl_t h)
{
    struct mp_task_ep *ep = ready() ? local_of((mcapi_endpoint_t)h) : NULL;
    return ep && ep->chan == 3 ? ep : NULL;
}

void mcapi_pktchan_recv(mcapi_pktchan_recv_hndl_t h, void **buffer, size_t *received_size,
                        mcapi_status_t *status)
{
    struct mp_task_ep *ep = recv_side(h);
    if (!ep || !buffer) {
        SET(status, !ready() ? MCAPI_ERR_NODE_NOTINIT
                    : ep     ? MCAPI_ERR_BUF_INVALID
                             : MCAPI_ERR_CHAN_INVALID);
        return;
    }
    mp_cbuffer_t *rx = rx_of(ep);
    uint32_t idx;
    while (mp_cbuffer_read(rx, &idx) != 0) {
        /* the kernel saw the sender close the channel: what came before it is read first */
        if (ep->gone) {
            if (mp_cbuffer_read(rx, &idx) == 0)
                break;
            SET(status, MCAPI_ERR_CHAN_INVALID);
            return;
        }
        u_sleep(1); /* blocking: a tick of sleep while nothing is there */
    }
    *buffer = mp_cbuffer_data(rx, idx); /* zero copy: the task's own page */
    if (received_size)
        *received_size = mp_cbuffer_size(rx, idx);
    SET(status, MCAPI_SUCCESS);
}

mcapi_uint_t mcapi_pktchan_available(mcapi_pktchan_recv_hndl_t h, mcapi_status_t *status)
{
    struct mp_task_ep *ep = recv_side(h);
    if (!ep) {
        SET(status, ready() ? MCAPI_ERR_CHAN_INVALID : MCAPI_ERR_NODE_NOTINIT);
        return 0;
    }
    const uint32_t gone = ep->gone; /* before the look: a packet before the close counts */
    const uint32_t n = committed(rx_of(ep));
    /* nothing left and nothing to come: the channel is closed, as a receive says */
    SET(status, n == 0 && gone ? MCAPI_ERR_CHAN_INVALID : MCAPI_SUCCESS);
    return n;
}

/* Credits back to the sender through the vif: credit mode on the channel's credit path. */
static mcapi_status_t return_credits(struct mp_task_ep *ep, uint32_t n)
{
    sendq_drain();
    namp_vif_start(VIF, NAMP_FLAG_COM, ep->chan_vid, n, 0);
    vif_wait_done();
    uint32_t st = namp_vif_status(VIF);
    namp_vif_set_flags(VIF, NAMP_FLAG_COM); /* acknowledge */
    if (st & NAMP_STATUS_ERROR) {
        C->send_errors++;
        C->last_vif_status = st;
        return MCAPI_ERR_TRANSMISSION;
    }
    return MCAPI_SUCCESS;
}

void mcapi_pktchan_release(void *buffer, mcapi_status_t *status)
{
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    for (uint32_t i = 0; i < MP_TASK_EPS; ++i) {
        struct mp_task_ep *ep = &C->ep[i];
        if (!ep->used || ep->chan != 3)
            continue;
        mp_cbuffer_t *b = rx_of(ep);
        uintptr_t base = (uintptr_t)mp_cbuffer_data(b, 0), a = (uintptr_t)buffer;
        uintptr_t end = base + ((uintptr_t)mp_cbuffer_capacity(b) << b->max_msg_log2);
        if (a < base || a >= end || ((a - base) & (mp_cbuffer_slot_bytes(b) - 1u)))
            continue;
        uint32_t slot = (uint32_t)((a - base) >> b->max_msg_log2);
        if (!(mp_cbuffer_sizes(b)[slot] & MP_CB_COMMITTED))
            break;
        mp_cbuffer_free(b, slot);
        uint32_t voids = b->voids; /* elements of failed transfers count as released */
        ep->released += 1u + (voids - ep->voids_seen);
        ep->voids_seen = voids;
        mcapi_status_t st = MCAPI_SUCCESS;
        if (ep->gone) /* no sender to return credits to (the kernel took the path back) */
            ep->released = 0;
        else if (ep->released >= (mp_cbuffer_capacity(b) + 1u) / 2u) {
            st = return_credits(ep, ep->released);
            if (st == MCAPI_SUCCESS)
                ep->released = 0;
        }
        SET(status, st);
        return;
    }
    SET(status, MCAPI_ERR_BUF_INVALID);
}

/* ---- non-blocking calls and requests (docs/kernel.md "MCAPI in tasks"). A request lives in the
 * caller's mcapi_request_t: state MCAPI_REQ_PENDING while under way, MCAPI_REQ_DONE with its
 * status and size once complete. Progress is made by mcapi_test/wait/wait_any (and by any later
 * call that needs the vif): sends by the vif's DONE, receives by popping the endpoint's buffer,
 * lookups by one kernel request per test. ---- */

/* A receive's endpoint, still ours and (packets) still the channel's receiving side. */
static struct mp_task_ep *req_ep(const mcapi_request_t *r)
{
    struct mp_task_ep *ep = local_of((mcapi_endpoint_t)r->ep);
    if (ep && r->kind == MP_TASK_RK_RECV_PKT && ep->chan != 3)
        return NULL;
    return ep;
}

/* ---- the core's back end (mcapi_core.h) ---- */

int mcapi_be_progress(mcapi_request_t *r)
{
    if (r->state == MCAPI_REQ_DONE)
        return 1;
    switch (r->kind) {
    case MP_TASK_RK_SEND: sendq_pump(); break;
    case MP_TASK_RK_RECV_MSG: {
        struct mp_task_ep *ep = req_ep(r);
        if (!ep) { /* deleted meanwhile */
            mcapi_req_complete(r, MCAPI_ERR_ENDP_INVALID, 0);
            break;
        }
        uint32_t cap =
            r->buffer_size > MP_CB_SIZE_MASK ? MP_CB_SIZE_MASK : (uint32_t)r->buffer_size;
        uint32_t size = 0;
        int rc = mp_cbuffer_pop(rx_of(ep), r->buffer, cap, &size);
        if (rc != -1)
            mcapi_req_complete(r, rc == 0 ? MCAPI_SUCCESS : MCAPI_ERR_MSG_TRUNCATED,
                               rc == 0 ? size : cap);
        break;
    }
    case MP_TASK_RK_RECV_PKT: {
        struct mp_task_ep *ep = req_ep(r);
        if (!ep) {
            mcapi_req_complete(r, MCAPI_ERR_CHAN_INVALID, 0);
            break;
        }
        mp_cbuffer_t *rx = rx_of(ep);
        uint32_t idx;
        const uint32_t gone = ep->gone; /* before the look: a packet before the close counts */
        if (mp_cbuffer_read(rx, &idx) == 0) {
            *r->pbuffer = mp_cbuffer_data(rx, idx);
            mcapi_req_complete(r, MCAPI_SUCCESS, mp_cbuffer_size(rx, idx));
        } else if (gone) {
            mcapi_req_complete(r, MCAPI_ERR_CHAN_INVALID, 0);
        }
        break;
    }
    case MP_TASK_RK_GET: {
        struct mp_task_remote *h = NULL;
        for (uint32_t i = 0; i < MP_TASK_REMOTES && !h; ++i)
            if (C->rem[i].used && C->rem[i].node == r->node && C->rem[i].port == r->port)
                h = &C->rem[i];
        for (uint32_t i = 0; i < MP_TASK_REMOTES && !h; ++i)
            if (!C->rem[i].used)
                h = &C->rem[i];
        if (!h) {
            mcapi_req_complete(r, MCAPI_ERR_ENDP_LIMIT, 0);
            break;
        }
        if (!h->used) { /* one lookup try (about MP_TASK_GET_TRY_US) */
            int32_t res = request(MP_TASK_OP_GET, r->node, r->port);
            if (res < 0) {
                if (status_of(res) != MCAPI_TIMEOUT)
                    mcapi_req_complete(r, status_of(res), 0);
                break;
            }
            h->node = r->node;
            h->port = r->port;
            h->vid = (uint32_t)res;
            h->used = 1;
        }
        *r->out_endpoint = (mcapi_endpoint_t)h;
        mcapi_req_complete(r, MCAPI_SUCCESS, 0);
        break;
    }
    default: mcapi_req_complete(r, MCAPI_ERR_REQUEST_INVALID, 0); break;
    }
    return r->state == MCAPI_REQ_DONE;
}

/* The checks the non-blocking receives and the lookup make, in this order: the node, the
 * arguments (bad_args unless args_ok), a request still pending, the endpoint or domain (bad_obj
 * unless obj_ok). MCAPI_SUCCESS when every one passes. */
static mcapi_status_t check_start(int args_ok, mcapi_status_t bad_args, const mcapi_request_t *r,
                                  int obj_ok, mcapi_status_t bad_obj)
{
    if (!ready())
        return MCAPI_ERR_NODE_NOTINIT;
    if (!args_ok)
        return bad_args;
    if (mcapi_req_pending(r))
        return MCAPI_ERR_REQUEST_INVALID;
    return obj_ok ? MCAPI_SUCCESS : bad_obj;
}

/* Starts r as a pending request of `kind` and makes the first try: what is there already (a
 * message, a known endpoint) completes it at the call. */
static void begin(mcapi_request_t *r, uint32_t kind, mcapi_status_t *status)
{
    mcapi_req_start(r, kind);
    mcapi_req_first_try(r, status);
}

void mcapi_msg_send_i(mcapi_endpoint_t send_ep, mcapi_endpoint_t recv_ep, const void *buffer,
                      size_t size, mcapi_priority_t priority, mcapi_request_t *r,
                      mcapi_status_t *status)
{
    (void)priority;
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    struct mp_task_ep *ep = local_of(send_ep);
    struct mp_task_remote *dst = remote_of(recv_ep);
    if (!r || (!buffer && size)) {
        SET(status, MCAPI_ERR_PARAMETER);
        return;
    }
    if (mcapi_req_pending(r)) {
        SET(status, MCAPI_ERR_REQUEST_INVALID); /* still under way: not reused */
        return;
    }
    if (!ep || !dst) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    if (size > MP_TASK_MAX_SEND) {
        SET(status, MCAPI_ERR_MSG_SIZE);
        return;
    }
    if (ep->chan) {
        SET(status, MCAPI_ERR_CHAN_CONNECTED);
        return;
    }
    send_i(0, dst->vid, buffer, size, r, status);
}

void mcapi_pktchan_send_i(mcapi_pktchan_send_hndl_t h, const void *buffer, size_t size,
                          mcapi_request_t *r, mcapi_status_t *status)
{
    struct mp_task_ep *ep = ready() ? local_of((mcapi_endpoint_t)h) : NULL;
    if (!ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return;
    }
    if (!r || mcapi_req_pending(r)) {
        SET(status, r ? MCAPI_ERR_REQUEST_INVALID : MCAPI_ERR_PARAMETER);
        return;
    }
    if (!ep || ep->chan != 2) {
        SET(status, MCAPI_ERR_CHAN_INVALID);
        return;
    }
    if (!buffer && size) {
        SET(status, MCAPI_ERR_BUF_INVALID);
        return;
    }
    if (size > MP_TASK_MAX_SEND) {
        SET(status, MCAPI_ERR_PKT_SIZE);
        return;
    }
    send_i(NAMP_FLAG_CON, ep->chan_vid, buffer, size, r, status);
}

void mcapi_msg_recv_i(mcapi_endpoint_t recv_ep, void *buffer, size_t buffer_size,
                      mcapi_request_t *r, mcapi_status_t *status)
{
    struct mp_task_ep *ep = local_of(recv_ep);
    const mcapi_status_t st =
        check_start(r && buffer, MCAPI_ERR_PARAMETER, r, ep != NULL, MCAPI_ERR_ENDP_INVALID);
    if (st != MCAPI_SUCCESS) {
        SET(status, st);
        return;
    }
    r->ep = (struct mp_endpoint *)ep;
    r->buffer = buffer;
    r->buffer_size = buffer_size;
    begin(r, MP_TASK_RK_RECV_MSG, status);
}

void mcapi_pktchan_recv_i(mcapi_pktchan_recv_hndl_t h, void **buffer, mcapi_request_t *r,
                          mcapi_status_t *status)
{
    struct mp_task_ep *ep = recv_side(h);
    const mcapi_status_t st =
        check_start(r && buffer, r ? MCAPI_ERR_BUF_INVALID : MCAPI_ERR_PARAMETER, r, ep != NULL,
                    MCAPI_ERR_CHAN_INVALID);
    if (st != MCAPI_SUCCESS) {
        SET(status, st);
        return;
    }
    r->ep = (struct mp_endpoint *)ep;
    r->pbuffer = buffer;
    begin(r, MP_TASK_RK_RECV_PKT, status);
}

void mcapi_endpoint_get_i(mcapi_domain_t domain, mcapi_node_t node, mcapi_port_t port,
                          mcapi_endpoint_t *e, mcapi_request_t *r, mcapi_status_t *status)
{
    const mcapi_status_t st = check_start(e && r, MCAPI_ERR_PARAMETER, r, domain == MCAPI_DOMAIN,
                                          MCAPI_ERR_DOMAIN_INVALID);
    if (st != MCAPI_SUCCESS) {
        SET(status, st);
        return;
    }
    r->node = node;
    r->port = port;
    r->out_endpoint = e;
    begin(r, MP_TASK_RK_GET, status);
}

int mcapi_be_ready(void) { return ready(); }
int mcapi_be_is_send(const mcapi_request_t *r) { return r->kind == MP_TASK_RK_SEND; }
uint64_t mcapi_be_now(void) { return u_time(); }

uint64_t mcapi_be_deadline(mcapi_timeout_t timeout)
{
    return u_time() + (uint64_t)timeout * C->timer_hz / 1000000u;
}

size_t mcapi_be_wait_round(size_t n, mcapi_request_t **requests)
{
    return mcapi_first_complete(n, requests);
}

void mcapi_be_wait_idle(size_t n, mcapi_request_t **requests, uint64_t deadline, uint32_t round)
{
    (void)n, (void)requests, (void)deadline;
    if (round >= SPIN_POLLS)
        u_sleep(1); /* a tick per look once the short spin is over */
}

/* ---- not available in a task: a clear status, nothing touched ---- */

#define UNSUPPORTED(st) SET(st, MCAPI_ERR_NOT_SUPPORTED)

void mcapix_endpoint_set_send_mode(mcapi_endpoint_t e, uint32_t mode, mcapi_status_t *st)
{
    (void)e, (void)mode;
    UNSUPPORTED(st);
}
/* Without a status argument: no effect in a task (the data path and completion mode are the
 * vif's; statistics are the kernel's). */
void mcapix_set_data_path(uint32_t path) { (void)path; }
uint32_t mcapix_get_data_path(void) { return MP_PATH_BUFFER; }
void mcapix_namp_completion(int mode) { (void)mode; }
uint32_t mcapix_namp_last_error(void) { return C->last_vif_status; }
const volatile mp_stats_t *mcapix_stats(void) { return NULL; }

/* ---- for the collectives (mcapi_task_cc.c, mcapi_task_internal.h) ---- */

struct mp_task_ctrl *mptask_ctrl(void) { return C; }
int mptask_ready(void) { return ready(); }
int32_t mptask_request(uint32_t op, uint32_t a1, uint32_t a2) { return request(op, a1, a2); }
struct mp_task_ep *mptask_local(mcapi_endpoint_t e) { return local_of(e); }
struct mp_task_remote *mptask_remote(mcapi_endpoint_t e) { return remote_of(e); }
volatile uint32_t *mptask_vif(void) { return (volatile uint32_t *)C->vif; }
void mptask_vif_acquire(void) { sendq_drain(); }
void mptask_vif_wait_done(void) { vif_wait_done(); }
mcapi_status_t mptask_map_error(uint32_t code, uint32_t flags) { return vif_error(code, flags); }
