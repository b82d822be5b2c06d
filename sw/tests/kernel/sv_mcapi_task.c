/* The task side of kernel.sv_mcapi: plain MCAPI calls, compiled for a task (mp_task_sources: the
 * same mcapi.h, bound to the task build of the library). Runs in U-mode; its data region starts
 * with the library's state (mp/task.h), followed by struct sv_mcapi_task. */
#include <stdint.h>

#include "kernel/user.h"
#include "mcapi.h"
#include "sv_mcapi.h"

static uint8_t pattern(uint32_t msg, uint32_t i) { return (uint8_t)(msg * 31u + i * 7u + 1u); }

#define EXPECT(d, code, st, want)       \
    do {                                \
        (d)->step = (code);             \
        if ((st) != (want)) {           \
            (d)->bad_code = (code);     \
            (d)->bad_status = (uint32_t)(st); \
            (d)->misuse_fail++;         \
        }                               \
    } while (0)

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
    mcapi_msg_send(me, me, b, 4, 0, &st);   /* a local endpoint has no vID */
    EXPECT(d, 4, st, MCAPI_ERR_ENDP_INVALID);
    mcapi_msg_send(me, peer, NULL, 4, 0, &st);
    EXPECT(d, 5, st, MCAPI_ERR_PARAMETER);
    mcapi_msg_send(me, peer, b, 4096, 0, &st);
    EXPECT(d, 6, st, MCAPI_ERR_MSG_SIZE);
    mcapi_msg_recv(me, NULL, 8, &got, &st);
    EXPECT(d, 7, st, MCAPI_ERR_PARAMETER);
    mcapi_msg_recv(peer, b, 8, &got, &st);
    EXPECT(d, 8, st, MCAPI_ERR_ENDP_INVALID);
    mcapi_msg_send_i(me, peer, b, 4, 0, &req, &st);
    EXPECT(d, 9, st, MCAPI_ERR_NOT_SUPPORTED);
    mcapi_msg_recv_i(me, b, 8, &req, &st);
    EXPECT(d, 10, st, MCAPI_ERR_NOT_SUPPORTED);
    (void)mcapi_endpoint_create(SVM_TASK_PORT, &st);
    EXPECT(d, 11, st, MCAPI_ERR_ENDP_EXISTS);
    mcapi_initialize(0, 0, NULL, NULL, NULL, &st);
    EXPECT(d, 12, st, MCAPI_ERR_NODE_INITIALIZED);
    mcapi_endpoint_delete(peer, &st);
    EXPECT(d, 13, st, MCAPI_ERR_ENDP_NOTOWNER);
    mcapi_pktchan_recv_i((mcapi_pktchan_recv_hndl_t)0, NULL, &req, &st);
    EXPECT(d, 14, st, MCAPI_ERR_NOT_SUPPORTED);
    mcapi_pktchan_release(b, &st);
    EXPECT(d, 26, st, MCAPI_ERR_BUF_INVALID);   /* not a packet of an open receiving side */
    (void)mcapi_endpoint_get(0, 1, 99, 2000, &st);   /* no such port: times out */
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
    mcapi_endpoint_t prx = st == MCAPI_SUCCESS
                               ? mcapi_endpoint_get(0, 1, SVM_PEER_PKT_PORT, MCAPI_TIMEOUT_INFINITE, &st)
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
    mcapi_msg_send(pk, peer, buf, 4, 0, &st);   /* a channel's endpoint sends no messages */
    EXPECT(d, 20, st, MCAPI_ERR_CHAN_CONNECTED);
    mcapi_pktchan_send((mcapi_pktchan_send_hndl_t)me, buf, 4, &st);   /* not a channel */
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
    /* tile 1 stays until this last message: the lookup of a missing port above needs it */
    const uint8_t bye[4] = {'B', 'Y', 'E', 0};
    mcapi_msg_send(me, peer, bye, sizeof bye, 0, &st);
    d->st_bye = (uint32_t)st;
    mcapi_finalize(&st);
    d->st_final = (uint32_t)st;
    mcapi_msg_send(me, peer, buf, 4, 0, &st);   /* after finalize */
    d->st_after = (uint32_t)st;
    d->done = 1;
    u_exit(0);
}
