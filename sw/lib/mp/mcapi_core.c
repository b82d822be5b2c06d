/* The MCAPI core (mcapi_core.h): the request life cycle (mcapi_test, mcapi_wait, mcapi_wait_any,
 * mcapi_cancel), the status names and the calls that are other calls, compiled once for both back
 * ends. */
#include "mcapi_core.h"

mcapi_endpoint_t mcapi_endpoint_create(mcapi_port_t port, mcapi_status_t *status)
{
    return mcapix_endpoint_create(port, NULL, status);
}

/* ---- requests */

mcapi_boolean_t mcapi_test(mcapi_request_t *r, size_t *size, mcapi_status_t *status)
{
    if (!mcapi_req_known(r)) {
        SET(status, MCAPI_ERR_REQUEST_INVALID);
        return MCAPI_FALSE;
    }
    if (r->state == MCAPI_REQ_PENDING && !mcapi_be_progress(r)) {
        SET(status, MCAPI_PENDING);
        return MCAPI_FALSE;
    }
    if (size)
        *size = r->size;
    SET(status, r->status);
    return MCAPI_TRUE;
}

static mcapi_uint_t waited(const mcapi_request_t *r, size_t i, size_t *size, mcapi_status_t *status)
{
    if (size)
        *size = r->size;
    SET(status, r->status);
    return (mcapi_uint_t)i;
}

/* The rounds after the first (kept out of the callers' frames: most waits end in the first). */
static __attribute__((noinline)) mcapi_uint_t wait_more(size_t number, mcapi_request_t **requests,
                                                        size_t *size, mcapi_timeout_t timeout,
                                                        mcapi_status_t *status)
{
    const uint64_t deadline =
        timeout == MCAPI_TIMEOUT_INFINITE ? UINT64_MAX : mcapi_be_deadline(timeout);
    for (uint32_t round = 1;; ++round) { /* the first was the caller's */
        if (deadline != UINT64_MAX && mcapi_be_now() >= deadline) {
            SET(status, MCAPI_TIMEOUT);
            return MCAPI_RETURN_VALUE_INVALID;
        }
        mcapi_be_wait_idle(number, requests, deadline, round);
        const size_t i = mcapi_be_wait_round(number, requests);
        if (i < number)
            return waited(requests[i], i, size, status);
    }
}

/* The first of the requests that is complete, in the order given; the unknown ones (NULL, never
 * started) are passed over, and a wait on nothing but those is refused rather than endless. A
 * timeout of 0 tries once. */
mcapi_uint_t mcapi_wait_any(size_t number, mcapi_request_t **requests, size_t *size,
                            mcapi_timeout_t timeout, mcapi_status_t *status)
{
    if (!mcapi_be_ready()) {
        SET(status, MCAPI_ERR_NODE_NOTINIT);
        return MCAPI_RETURN_VALUE_INVALID;
    }
    if (!requests || number == 0) {
        SET(status, MCAPI_ERR_PARAMETER);
        return MCAPI_RETURN_VALUE_INVALID;
    }
    size_t known = 0;
    for (size_t i = 0; i < number; ++i)
        known += mcapi_req_known(requests[i]);
    if (!known) {
        SET(status, MCAPI_ERR_REQUEST_INVALID);
        return MCAPI_RETURN_VALUE_INVALID;
    }
    const size_t i = mcapi_be_wait_round(number, requests);
    if (i < number)
        return waited(requests[i], i, size, status);
    return wait_more(number, requests, size, timeout, status);
}

mcapi_boolean_t mcapi_wait(mcapi_request_t *r, size_t *size, mcapi_timeout_t timeout,
                           mcapi_status_t *status)
{
    if (!mcapi_req_known(r)) {
        SET(status, MCAPI_ERR_REQUEST_INVALID);
        return MCAPI_FALSE;
    }
    mcapi_request_t *one[1] = {r};
    return mcapi_wait_any(1, one, size, timeout, status) == 0 ? MCAPI_TRUE : MCAPI_FALSE;
}

/* Receives and lookups under way are cancelled (MCAPI_ERR_REQUEST_CANCELLED); a send under way
 * cannot be taken back (MCAPI_ERR_REQUEST_INVALID). */
void mcapi_cancel(mcapi_request_t *r, mcapi_status_t *status)
{
    if (!mcapi_req_known(r)) {
        SET(status, MCAPI_ERR_REQUEST_INVALID);
        return;
    }
    if (r->state == MCAPI_REQ_PENDING) {
        if (mcapi_be_is_send(r)) {
            SET(status, MCAPI_ERR_REQUEST_INVALID);
            return;
        }
        mcapi_req_complete(r, MCAPI_ERR_REQUEST_CANCELLED, 0);
    }
    SET(status, MCAPI_SUCCESS);
}

/* ---- status names */

const char *mcapix_status_name(mcapi_status_t s)
{
    static const char *const names[] = {"?",
                                        "MCAPI_SUCCESS",
                                        "MCAPI_PENDING",
                                        "MCAPI_TIMEOUT",
                                        "MCAPI_ERR_PARAMETER",
                                        "MCAPI_ERR_DOMAIN_INVALID",
                                        "MCAPI_ERR_NODE_INVALID",
                                        "MCAPI_ERR_NODE_INITFAILED",
                                        "MCAPI_ERR_NODE_INITIALIZED",
                                        "MCAPI_ERR_NODE_NOTINIT",
                                        "MCAPI_ERR_PORT_INVALID",
                                        "MCAPI_ERR_ENDP_INVALID",
                                        "MCAPI_ERR_ENDP_EXISTS",
                                        "MCAPI_ERR_ENDP_LIMIT",
                                        "MCAPI_ERR_ENDP_NOTOWNER",
                                        "MCAPI_ERR_MSG_SIZE",
                                        "MCAPI_ERR_MSG_TRUNCATED",
                                        "MCAPI_ERR_MEM_LIMIT",
                                        "MCAPI_ERR_CHAN_CONNECTED",
                                        "MCAPI_ERR_CHAN_TYPE",
                                        "MCAPI_ERR_CHAN_DIRECTION",
                                        "MCAPI_ERR_CHAN_NOTOPEN",
                                        "MCAPI_ERR_CHAN_OPEN",
                                        "MCAPI_ERR_CHAN_INVALID",
                                        "MCAPI_ERR_PKT_SIZE",
                                        "MCAPI_ERR_REQUEST_INVALID",
                                        "MCAPI_ERR_REQUEST_CANCELLED",
                                        "MCAPI_ERR_BUF_INVALID",
                                        "MCAPI_ERR_TRANSMISSION",
                                        "MCAPI_ERR_NOT_SUPPORTED",
                                        "MCAPI_ERR_GENERAL"};
    if (s < 0 || (size_t)s >= sizeof names / sizeof names[0])
        return "?";
    return names[s];
}
