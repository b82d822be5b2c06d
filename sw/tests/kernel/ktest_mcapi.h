/* MCAPI steps the kernel test firmwares share. Kernel threads call MCAPI under the library lock
 * (KMP); a failed step is a FAIL line (ktest.h). */
#ifndef KTEST_MCAPI_H
#define KTEST_MCAPI_H

#include "kernel/kmp.h"
#include "ktest.h"
#include "mcapi.h"

/* Creates the endpoint `port` and opens the receive side of a packet channel on it (the sender
 * connects). NULL, with a FAIL line, when either step fails. */
static inline mcapi_pktchan_recv_hndl_t ktest_pktchan_recv_open(mcapi_port_t port)
{
    mcapi_status_t st;
    mcapi_endpoint_t ep;
    mcapi_pktchan_recv_hndl_t rh = NULL;
    mcapi_request_t req;
    size_t sz;
    KMP(ep = mcapi_endpoint_create(port, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapi_pktchan_recv_open_i(&rh, ep, &req, &st));
    KMP(mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    return rh;
}

#endif
