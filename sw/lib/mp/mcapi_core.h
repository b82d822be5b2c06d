/* The MCAPI core (docs/message-passing.md "One MCAPI core, two back ends"): what both back ends of
 * the API share, compiled once (mcapi_core.c, mcapi_core_cc.c), and the small interface through
 * which it reaches the back end it is linked with. The back ends:
 *  - bare metal (mcapi.c, collective*.c over the transport interface, transport.h): M-mode
 *    firmware and the kernel; the library's state is global data;
 *  - task (mcapi_task.c, mcapi_task_cc.c; library mp_task): a U-mode task, its state in its own
 *    pages, the adapter through its vif, the kernel through system calls.
 * One image may hold both (the kernel and its tasks): kernel_firmware(... TASKS ...) links the
 * tasks with mp_task alone and makes its names local (sw/cmake/task_link.cmake), so each copy of
 * the core calls the back end it was linked with. Nothing here is renamed. */
#ifndef MP_MCAPI_CORE_H
#define MP_MCAPI_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "mcapi.h"

/* v is always evaluated: a call with a NULL status pointer still does its work */
#define SET(st, v)                   \
    do {                             \
        mcapi_status_t set_v_ = (v); \
        if (st)                      \
            *(st) = set_v_;          \
    } while (0)

/* ---- the request life cycle: mcapi_request_t.state. A request under way, or complete with its
 * status and size; any other value (0 included) is no request of the library's: never started,
 * or memory that is not one. */
#define MCAPI_REQ_DONE    0x7a5c0001u
#define MCAPI_REQ_PENDING 0x7a5c0002u

static inline int mcapi_req_known(const mcapi_request_t *r)
{
    return r && (r->state == MCAPI_REQ_DONE || r->state == MCAPI_REQ_PENDING);
}

static inline int mcapi_req_pending(const mcapi_request_t *r)
{
    return r && r->state == MCAPI_REQ_PENDING;
}

/* r under way as a request of the back end's `kind` (its result not known yet). */
static inline void mcapi_req_start(mcapi_request_t *r, uint32_t kind)
{
    r->kind = kind;
    r->status = MCAPI_PENDING;
    r->size = 0;
    r->state = MCAPI_REQ_PENDING;
}

/* r complete with status st and size bytes. */
static inline void mcapi_req_complete(mcapi_request_t *r, mcapi_status_t st, size_t size)
{
    r->status = st;
    r->size = size;
    r->state = MCAPI_REQ_DONE;
}

/* ---- the back end's part (each back end defines these once) */

/* 1 once mcapi_initialize succeeded (and no mcapi_finalize since, in a task). */
int mcapi_be_ready(void);
/* One step of pending request r; 1 when it is complete. */
int mcapi_be_progress(mcapi_request_t *r);
/* 1 for a pending send: it cannot be taken back (mcapi_cancel: MCAPI_ERR_REQUEST_INVALID). */
int mcapi_be_is_send(const mcapi_request_t *r);
/* The back end's clock, and the time on it at which a wait of `timeout` microseconds ends (not
 * MCAPI_TIMEOUT_INFINITE). */
uint64_t mcapi_be_now(void);
uint64_t mcapi_be_deadline(mcapi_timeout_t timeout);
/* One round of a wait on the n requests: progress of the back end's own work (bare metal: its
 * non-blocking sends under way), then mcapi_first_complete (below). One call per round: a wait
 * is on the send path of every non-blocking send. */
size_t mcapi_be_wait_round(size_t n, mcapi_request_t **requests);
/* Nothing of the n requests is complete in round `round` of a wait that ends at `deadline`: wait
 * until something may have changed (bare metal: sleep in wfi until an interrupt, a retry time or
 * the deadline; task: a short spin, then a tick of sleep per round). */
void mcapi_be_wait_idle(size_t n, mcapi_request_t **requests, uint64_t deadline, uint32_t round);

/* The first try of request r just started (its fields set): its status now, MCAPI_PENDING while
 * under way. mcapi_test without its checks, on the send and receive paths (a call less each). */
static inline void mcapi_req_first_try(mcapi_request_t *r, mcapi_status_t *status)
{
    SET(status, mcapi_be_progress(r) ? r->status : MCAPI_PENDING);
}

/* The first of the n requests that is complete after a step of progress, in the order given (the
 * unknown ones passed over), or n: the part of a wait round both back ends share. */
static inline size_t mcapi_first_complete(size_t n, mcapi_request_t **requests)
{
    for (size_t i = 0; i < n; ++i) {
        mcapi_request_t *r = requests[i];
        if (mcapi_req_known(r) && (r->state == MCAPI_REQ_DONE || mcapi_be_progress(r)))
            return i;
    }
    return n;
}

#endif
