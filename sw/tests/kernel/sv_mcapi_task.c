/* The task side of kernel.sv_mcapi: plain MCAPI calls, linked for a task (kernel_firmware TASKS:
 * the same mcapi.h, bound to the task back end of the library). Runs in U-mode; its data region starts
 * with the library's state (mp/task.h), followed by struct sv_mcapi_task. */
#include <stdint.h>

#include "kernel/user.h"
#include "mcapi.h"
#include "sv_mcapi.h"
#include "task_expect.h"

static uint8_t pattern(uint32_t msg, uint32_t i) { return (uint8_t)(msg * 31u + i * 7u + 1u); }

static void misuse(struct sv_mcapi_task *d, mcapi_endpoint_t me, mcapi_endpoint_t peer)
{
    mcapi_status_t st;
    uint8_t b[8] = {0};
    size_t got;
    mcapi_request_t req;
    mcapi_msg_send(NULL, peer, b, 4, 0, &st);
    EXPECT(d, 1, st, MCAPI_ERR_ENDP_INVALID);
    mcapi_msg_send(me, NULL, b, 4, 0, &st);
    EXPECT(d, 2, st, MCAPI_ERR_ENDP_INVALID);
    /* a kernel address as a handle: refused without being dereferenced */
    mcapi_msg_send(me, (mcapi_endpoint_t)0x80001000u, b, 4, 0, &st);
    EXPECT(d, 3, st, MCAPI_ERR_ENDP_INVALID);
    mcapi_msg_send(me, me, b, 4, 0, &st); /* a local endpoint has no vID */
    EXPECT(d, 4, st, MCAPI_ERR_ENDP_INVALID);
    mcapi_msg_send(me, peer, NULL, 4, 0, &st);
    EXPECT(d, 5, st, MCAPI_ERR_PARAMETER);
    mcapi_msg_send(me, peer, b, 4096, 0, &st);
    EXPECT(d, 6, st, MCAPI_ERR_MSG_SIZE);
    mcapi_msg_recv(me, NULL, 8, &got, &st);
    EXPECT(d, 7, st, MCAPI_ERR_PARAMETER);
    mcapi_msg_recv(peer, b, 8, &got, &st);
    EXPECT(d, 8, st, MCAPI_ERR_ENDP_INVALID);
    mcapix_endpoint_set_send_mode(me, 0, &st);
    EXPECT(d, 9, st, MCAPI_ERR_NOT_SUPPORTED);
    mcapi_msg_send_i(NULL, peer, b, 4, 0, &req, &st);
    EXPECT(d, 10, st, MCAPI_ERR_ENDP_INVALID);
    (void)mcapi_endpoint_create(SVM_TASK_PORT, &st);
    EXPECT(d, 11, st, MCAPI_ERR_ENDP_EXISTS);
    mcapi_initialize(0, 0, NULL, NULL, NULL, &st);
    EXPECT(d, 12, st, MCAPI_ERR_NODE_INITIALIZED);
    mcapi_endpoint_delete(peer, &st);
    EXPECT(d, 13, st, MCAPI_ERR_ENDP_NOTOWNER);
    mcapi_pktchan_recv_i((mcapi_pktchan_recv_hndl_t)0, NULL, &req, &st);
    EXPECT(d, 14, st, MCAPI_ERR_BUF_INVALID);
    mcapi_pktchan_release(b, &st);
    EXPECT(d, 26, st, MCAPI_ERR_BUF_INVALID);      /* not a packet of an open receiving side */
    (void)mcapi_endpoint_get(0, 1, 99, 2000, &st); /* no such port: times out */
    EXPECT(d, 15, st, MCAPI_TIMEOUT);
    /* a second endpoint, deleted: its handle is invalid afterwards */
    mcapi_endpoint_t tmp = mcapi_endpoint_create(SVM_TASK_PORT + 1, &st);
    EXPECT(d, 16, st, MCAPI_SUCCESS);
    mcapi_endpoint_delete(tmp, &st);
    EXPECT(d, 17, st, MCAPI_SUCCESS);
    mcapi_msg_send(tmp, peer, b, 4, 0, &st);
    EXPECT(d, 18, st, MCAPI_ERR_ENDP_INVALID);
    mcapi_endpoint_delete(tmp, &st);
    EXPECT(d, 19, st, MCAPI_ERR_ENDP_INVALID);
    d->misuse_done = 1;
}

/* The non-blocking calls with requests (after misuse: its second endpoint is free again). */
static void nonblocking(struct sv_mcapi_task *d, mcapi_endpoint_t me, mcapi_endpoint_t peer,
                        mcapi_pktchan_send_hndl_t sh)
{
    mcapi_status_t st;
    mcapi_request_t rq, r2, zero = {0};
    size_t sz;
    uint8_t buf[SVM_MAX]; /* the stack: a task has no global data */
    /* lookups: a known one completes at once; a missing one is pending until cancelled */
    mcapi_endpoint_t e2 = NULL, e3 = NULL;
    mcapi_endpoint_get_i(0, 1, SVM_PEER_PORT, &e2, &rq, &st);
    EXPECT(d, 30, st, MCAPI_SUCCESS);
    EXPECT(d, 31, e2 == peer, 1);
    mcapi_endpoint_get_i(0, 1, 98, &e3, &rq, &st);
    EXPECT(d, 32, st, MCAPI_PENDING);
    EXPECT(d, 33, mcapi_test(&rq, &sz, &st), MCAPI_FALSE);
    EXPECT(d, 34, st, MCAPI_PENDING);
    mcapi_cancel(&rq, &st);
    EXPECT(d, 35, st, MCAPI_SUCCESS);
    EXPECT(d, 36, mcapi_test(&rq, &sz, &st), MCAPI_TRUE);
    EXPECT(d, 37, st, MCAPI_ERR_REQUEST_CANCELLED);
    EXPECT(d, 38, e3 == NULL, 1);

    /* messages: two requests in turn, each waited for before it is used again */
    static const uint16_t sizes[SVM_NB_MSGS] = SVM_NB_SIZES;
    mcapi_request_t sr[2];
    for (uint32_t m = 0; m < SVM_NB_MSGS; ++m) {
        mcapi_request_t *r = &sr[m % 2];
        if (m >= 2) {
            mcapi_wait(r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
            EXPECT(d, 40, st, MCAPI_SUCCESS);
            d->nb_sent += st == MCAPI_SUCCESS && sz == sizes[m - 2];
        }
        for (uint32_t i = 0; i < sizes[m]; ++i)
            buf[i] = pattern(200 + m, i);
        mcapi_msg_send_i(me, peer, buf, sizes[m], 0, r, &st); /* copied: buf is free again */
        EXPECT(d, 41, st, MCAPI_PENDING);
        if (m == 0) { /* still under way a few instructions later */
            mcapi_msg_send_i(me, peer, buf, sizes[m], 0, r, &st);
            EXPECT(d, 42, st, MCAPI_ERR_REQUEST_INVALID); /* a pending request is not reused */
            mcapi_cancel(r, &st);
            EXPECT(d, 43, st, MCAPI_ERR_REQUEST_INVALID); /* a send is not taken back */
        }
    }
    mcapi_request_t *both[2] = {&sr[0], &sr[1]};
    for (uint32_t k = 0; k < 2; ++k) {
        mcapi_uint_t i = mcapi_wait_any(2, both, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        EXPECT(d, 44, st, MCAPI_SUCCESS);
        if (i < 2) {
            d->nb_sent += st == MCAPI_SUCCESS;
            both[i] = &zero; /* done: out of the set (an unknown request is skipped) */
        }
    }
    /* packets on the task's sending channel, non-blocking */
    static const uint16_t psizes[SVM_NB_PKTS_OUT] = SVM_NB_PKT_OUT_SIZES;
    for (uint32_t p = 0; p < SVM_NB_PKTS_OUT && sh; ++p) {
        for (uint32_t i = 0; i < psizes[p]; ++i)
            buf[i] = pattern(400 + p, i);
        mcapi_pktchan_send_i(sh, buf, psizes[p], &rq, &st);
        EXPECT(d, 45, st, MCAPI_PENDING);
        mcapi_wait(&rq, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        EXPECT(d, 46, st, MCAPI_SUCCESS);
        d->nb_pkts_out += st == MCAPI_SUCCESS && sz == psizes[p];
    }
    /* the replies (each byte complemented), received with requests */
    for (uint32_t m = 0; m < SVM_NB_MSGS; ++m) {
        mcapi_msg_recv_i(me, buf, sizeof buf, &rq, &st);
        EXPECT(d, 47, st == MCAPI_PENDING || st == MCAPI_SUCCESS, 1);
        mcapi_wait(&rq, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        EXPECT(d, 48, st, MCAPI_SUCCESS);
        uint32_t bad = sz != sizes[m];
        for (uint32_t i = 0; i < sz && !bad; ++i)
            bad = (uint8_t)(buf[i] + pattern(200 + m, i)) != 0xFFu; /* complemented */
        d->nb_received += st == MCAPI_SUCCESS && !bad;
    }
    /* a receive nothing comes for: the wait times out, the cancel ends it */
    mcapi_msg_recv_i(me, buf, sizeof buf, &rq, &st);
    EXPECT(d, 50, st, MCAPI_PENDING);
    EXPECT(d, 51, mcapi_wait(&rq, &sz, 3000, &st), MCAPI_FALSE);
    EXPECT(d, 52, st, MCAPI_TIMEOUT);
    mcapi_cancel(&rq, &st);
    EXPECT(d, 53, st, MCAPI_SUCCESS);
    mcapi_test(&rq, &sz, &st);
    EXPECT(d, 54, st, MCAPI_ERR_REQUEST_CANCELLED);
    /* misuse */
    mcapi_msg_send_i(me, peer, buf, 4, 0, NULL, &st);
    EXPECT(d, 55, st, MCAPI_ERR_PARAMETER);
    mcapi_msg_send_i(me, peer, buf, 4096, 0, &r2, &st);
    EXPECT(d, 56, st, MCAPI_ERR_MSG_SIZE);
    mcapi_msg_send_i(me, (mcapi_endpoint_t)0x80001000u, buf, 4, 0, &r2, &st);
    EXPECT(d, 57, st, MCAPI_ERR_ENDP_INVALID);
    mcapi_msg_recv_i(peer, buf, sizeof buf, &r2, &st);
    EXPECT(d, 58, st, MCAPI_ERR_ENDP_INVALID);
    mcapi_msg_recv_i(me, NULL, 8, &r2, &st);
    EXPECT(d, 59, st, MCAPI_ERR_PARAMETER);
    mcapi_pktchan_send_i((mcapi_pktchan_send_hndl_t)me, buf, 4, &r2, &st);
    EXPECT(d, 60, st, MCAPI_ERR_CHAN_INVALID);
    mcapi_pktchan_send_i(sh, buf, 2048, &r2, &st);
    EXPECT(d, 61, st, MCAPI_ERR_PKT_SIZE);
    void *pb = NULL;
    mcapi_pktchan_recv_i((mcapi_pktchan_recv_hndl_t)me, &pb, &r2, &st);
    EXPECT(d, 62, st, MCAPI_ERR_CHAN_INVALID);
    mcapi_endpoint_get_i(0, 1, SVM_PEER_PORT, NULL, &r2, &st);
    EXPECT(d, 63, st, MCAPI_ERR_PARAMETER);
    (void)mcapi_wait_any(0, NULL, &sz, 10, &st);
    EXPECT(d, 64, st, MCAPI_ERR_PARAMETER);
    mcapi_request_t *none[1] = {&zero};
    (void)mcapi_wait_any(1, none, &sz, 10, &st);
    EXPECT(d, 65, st, MCAPI_ERR_REQUEST_INVALID);
    mcapi_test(&zero, &sz, &st);
    EXPECT(d, 66, st, MCAPI_ERR_REQUEST_INVALID);
    mcapi_cancel(NULL, &st);
    EXPECT(d, 67, st, MCAPI_ERR_REQUEST_INVALID);
    /* a receive whose endpoint is deleted meanwhile ends with ENDP_INVALID, not a hang */
    mcapi_endpoint_t tmp = mcapi_endpoint_create(SVM_TASK_PORT + 4, &st);
    EXPECT(d, 68, st, MCAPI_SUCCESS);
    mcapi_msg_recv_i(tmp, buf, sizeof buf, &r2, &st);
    EXPECT(d, 69, st, MCAPI_PENDING);
    mcapi_endpoint_delete(tmp, &st);
    EXPECT(d, 70, st, MCAPI_SUCCESS);
    mcapi_wait(&r2, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    EXPECT(d, 71, st, MCAPI_ERR_ENDP_INVALID);

    /* the receiving side of a channel from tile 1, packets with requests */
    mcapi_endpoint_t rxe = mcapi_endpoint_create(SVM_TASK_RX_PORT, &st);
    EXPECT(d, 72, st, MCAPI_SUCCESS);
    mcapi_pktchan_recv_hndl_t rh = NULL;
    mcapi_pktchan_recv_open_i(&rh, rxe, &rq, &st);
    EXPECT(d, 73, st, MCAPI_SUCCESS);
    static const uint16_t isizes[SVM_NB_PKTS_IN] = SVM_NB_PKT_IN_SIZES;
    for (uint32_t p = 0; p < SVM_NB_PKTS_IN && rh; ++p) {
        pb = NULL;
        mcapi_pktchan_recv_i(rh, &pb, &rq, &st);
        EXPECT(d, 74, st == MCAPI_PENDING || st == MCAPI_SUCCESS, 1);
        mcapi_wait(&rq, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        EXPECT(d, 75, st, MCAPI_SUCCESS);
        uint32_t bad = !pb || sz != isizes[p];
        for (uint32_t i = 0; i < sz && !bad; ++i)
            bad = ((uint8_t *)pb)[i] != pattern(300 + p, i);
        d->nb_pkts_in += st == MCAPI_SUCCESS && !bad;
        if (pb) {
            mcapi_pktchan_release(pb, &st);
            EXPECT(d, 76, st, MCAPI_SUCCESS);
        }
    }
    d->nb_done = 1;
}

void sv_mcapi_task_main(void *arg)
{
    struct sv_mcapi_task *d = (struct sv_mcapi_task *)((uint8_t *)arg + SVM_STATE_BYTES);
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_initialize(0, 0, NULL, NULL, &info, &st);
    d->st_init = (uint32_t)st;
    mcapi_endpoint_t me = mcapi_endpoint_create(SVM_TASK_PORT, &st);
    d->st_create = (uint32_t)st;
    mcapi_endpoint_t peer = mcapi_endpoint_get(0, 1, SVM_PEER_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    d->st_get = (uint32_t)st;
    if (d->st_init != MCAPI_SUCCESS || d->st_create != MCAPI_SUCCESS || d->st_get != MCAPI_SUCCESS)
        u_exit(2);

    /* the send phase: the kernel counts our system calls at both marks */
    d->mark = 1;
    while (d->ack != 1)
        ;
    static const uint16_t sizes[SVM_MSGS] = SVM_SIZES;
    uint8_t buf[SVM_MAX];
    for (uint32_t m = 0; m < SVM_MSGS; ++m) {
        for (uint32_t i = 0; i < sizes[m]; ++i)
            buf[i] = pattern(m, i);
        mcapi_msg_send(me, peer, buf, sizes[m], 0, &st);
        if (st == MCAPI_SUCCESS)
            d->sent++;
        else
            d->send_fail = (uint32_t)st;
    }
    d->mark = 2;
    while (d->ack != 2)
        ;

    /* the replies: each message back with every byte complemented (at most 512 bytes) */
    for (uint32_t m = 0; m < SVM_MSGS; ++m) {
        size_t got = 0;
        uint32_t want = sizes[m] > SVM_REPLY_MAX ? SVM_REPLY_MAX : sizes[m];
        mcapi_msg_recv(me, buf, sizeof buf, &got, &st);
        if (st != MCAPI_SUCCESS || got != want) {
            d->recv_fail++;
            continue;
        }
        for (uint32_t i = 0; i < want; ++i) {
            uint8_t want_b = (uint8_t)(0xFFu - pattern(m, i));
            if (buf[i] != want_b) {
                d->byte_fail++;
                break;
            }
        }
        d->received++;
    }
    /* a packet channel to tile 1: connect and open by the kernel, packets through the vif */
    mcapi_request_t req;
    size_t sz;
    mcapi_endpoint_t pk = mcapi_endpoint_create(SVM_PKT_PORT, &st);
    mcapi_endpoint_t prx = st == MCAPI_SUCCESS ? mcapi_endpoint_get(0, 1, SVM_PEER_PKT_PORT,
                                                                    MCAPI_TIMEOUT_INFINITE, &st)
                                               : NULL;
    mcapi_pktchan_send_hndl_t sh = NULL;
    if (st == MCAPI_SUCCESS)
        mcapi_pktchan_connect_i(pk, prx, &req, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_pktchan_send_open_i(&sh, pk, &req, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    d->st_chan = (uint32_t)st;
    d->mark = 3;
    while (d->ack != 3)
        ;
    static const uint16_t psizes[SVM_PKTS] = SVM_PKT_SIZES;
    for (uint32_t p = 0; p < SVM_PKTS && sh; ++p) {
        for (uint32_t i = 0; i < psizes[p]; ++i)
            buf[i] = pattern(100 + p, i);
        mcapi_pktchan_send(sh, buf, psizes[p], &st);
        if (st == MCAPI_SUCCESS)
            d->pkts_sent++;
        else
            d->pkt_fail = (uint32_t)st;
    }
    d->mark = 4;
    while (d->ack != 4)
        ;
    mcapi_msg_send(pk, peer, buf, 4, 0, &st); /* a channel's endpoint sends no messages */
    EXPECT(d, 20, st, MCAPI_ERR_CHAN_CONNECTED);
    mcapi_pktchan_send((mcapi_pktchan_send_hndl_t)me, buf, 4, &st); /* not a channel */
    EXPECT(d, 21, st, MCAPI_ERR_CHAN_INVALID);
    mcapi_pktchan_send(sh, NULL, 4, &st);
    EXPECT(d, 22, st, MCAPI_ERR_BUF_INVALID);
    mcapi_pktchan_send(sh, buf, 2048, &st);
    EXPECT(d, 23, st, MCAPI_ERR_PKT_SIZE);
    mcapi_pktchan_connect_i(pk, prx, &req, &st);
    EXPECT(d, 24, st, MCAPI_ERR_CHAN_CONNECTED);
    (void)mcapi_test(NULL, &sz, &st);
    EXPECT(d, 25, st, MCAPI_ERR_REQUEST_INVALID);
    misuse(d, me, peer);
    nonblocking(d, me, peer, sh);
    /* tile 1 stays until this last message: the lookup of a missing port above needs it */
    const uint8_t bye[4] = {'B', 'Y', 'E', 0};
    mcapi_msg_send(me, peer, bye, sizeof bye, 0, &st);
    d->st_bye = (uint32_t)st;
    mcapi_finalize(&st);
    d->st_final = (uint32_t)st;
    mcapi_msg_send(me, peer, buf, 4, 0, &st); /* after finalize */
    d->st_after = (uint32_t)st;
    d->done = 1;
    u_exit(0);
}
