/* The MCAPI library in a U-mode task (docs/kernel.md "MCAPI in tasks"), preset svbase on a 2x1
 * mesh. Tile 0: a task (sv_mcapi_task.c) uses the plain mcapi_* API through the task build of the
 * library: it creates an endpoint and looks up tile 1's (system calls), sends 10 messages of 1 to
 * 1024 bytes through its vif (the kernel counts its system calls around the sends: 0), receives
 * the replies and checks every byte, then tries misuse (each a clear status, the task lives on).
 * Tile 1: a kernel thread receives with MCAPI, checks every byte and replies with each byte
 * complemented (at most 512 bytes). */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "ktest.h"
#include "ktest_mcapi.h"
#include "sv_main.h"
#include "mcapi.h"
#include "na_registers.h"
#include "sv_mcapi.h"

volatile unsigned ktest_failures;

static uint8_t pattern(uint32_t msg, uint32_t i) { return (uint8_t)(msg * 31u + i * 7u + 1u); }

static struct sv_mcapi_task *task_ctl(k_thread_t *t)
{
    return kmp_task_ptr(t, K_USER_DATA + SVM_STATE_BYTES, sizeof(struct sv_mcapi_task));
}

static int wait_for(volatile uint32_t *w, uint32_t v)
{
    for (int i = 0; i < 20000 && *w != v; ++i)
        k_sleep(1);
    return *w == v;
}

static void tile0(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    KMP(mcapi_initialize(0, 0, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(kmp_task_service_start(8), K_OK);
    k_task_image_t img = {"mcapi_task",
                          sv_mcapi_task_main,
                          NULL,
                          SVM_STATE_BYTES + sizeof(struct sv_mcapi_task),
                          2,
                          3,
                          1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_EQ(kmp_task_attach(t, 1), K_OK);
    CHECK_EQ(k_task_resume(t), K_OK);
    struct sv_mcapi_task *d = task_ctl(t);
    CHECK(d != NULL);
    if (!d)
        return;

    CHECK(wait_for(&d->mark, 1));
    uint32_t before = k_syscalls_of(t);
    d->ack = 1;
    CHECK(wait_for(&d->mark, 2));
    uint32_t during = k_syscalls_of(t) - before;
    d->ack = 2;
    CHECK(wait_for(&d->mark, 3));
    CHECK_EQ(d->st_chan, MCAPI_SUCCESS);
    before = k_syscalls_of(t);
    d->ack = 3;
    CHECK(wait_for(&d->mark, 4));
    uint32_t during_pkts = k_syscalls_of(t) - before;
    d->ack = 4;
    CHECK_EQ(d->pkts_sent, SVM_PKTS);
    CHECK_EQ(d->pkt_fail, 0);
    CHECK_EQ(during_pkts, 0);
    CHECK_EQ(d->st_init, MCAPI_SUCCESS);
    CHECK_EQ(d->st_create, MCAPI_SUCCESS);
    CHECK_EQ(d->st_get, MCAPI_SUCCESS);
    CHECK_EQ(d->sent, SVM_MSGS);
    CHECK_EQ(d->send_fail, 0);
    CHECK_EQ(during, 0);

    if (!wait_for(&d->done, 1)) {
        CHECK(d->done == 1);
        k_printf("task stuck after misuse step %lu\n", (unsigned long)d->step);
    }
    /* read before the join, which frees the data region */
    CHECK_EQ(d->received, SVM_MSGS);
    CHECK_EQ(d->recv_fail, 0);
    CHECK_EQ(d->byte_fail, 0);
    CHECK_EQ(d->misuse_done, 1);
    CHECK_EQ(d->misuse_fail, 0);
    CHECK_EQ(d->st_bye, MCAPI_SUCCESS);
    CHECK_EQ(d->st_final, MCAPI_SUCCESS);
    CHECK_EQ(d->st_after, MCAPI_ERR_NODE_NOTINIT);
    CHECK_EQ(d->nb_done, 1);
    CHECK_EQ(d->nb_sent, SVM_NB_MSGS);
    CHECK_EQ(d->nb_received, SVM_NB_MSGS);
    CHECK_EQ(d->nb_pkts_out, SVM_NB_PKTS_OUT);
    CHECK_EQ(d->nb_pkts_in, SVM_NB_PKTS_IN);
    k_printf("task non-blocking: sent %lu, received %lu, packets out %lu, in %lu\n",
             (unsigned long)d->nb_sent, (unsigned long)d->nb_received,
             (unsigned long)d->nb_pkts_out, (unsigned long)d->nb_pkts_in);
    k_printf("task results: received %lu, recv_fail %lu, byte_fail %lu, misuse %lu/%lu (code %lu "
             "status %lu), finalize %lu, after %lu\n",
             (unsigned long)d->received, (unsigned long)d->recv_fail, (unsigned long)d->byte_fail,
             (unsigned long)d->misuse_done, (unsigned long)d->misuse_fail,
             (unsigned long)d->bad_code, (unsigned long)d->bad_status, (unsigned long)d->st_final,
             (unsigned long)d->st_after);
    int status = -1;
    CHECK_EQ(k_join(t, 20000, &status), K_OK);
    CHECK_EQ(status, 0);
    kmp_task_service_stop();
    if (ktest_failures == 0)
        k_printf("kernel sv_mcapi ok: task sent %d messages and %d packets through its vif with "
                 "%lu system calls\n",
                 SVM_MSGS, SVM_PKTS, (unsigned long)(during + during_pkts));
}

static void tile1(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t ep, back;
    KMP(mcapi_initialize(0, 1, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(ep = mcapi_endpoint_create(SVM_PEER_PORT, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    static const uint16_t sizes[SVM_MSGS] = SVM_SIZES;
    static uint8_t msgs[SVM_MSGS][SVM_MAX];
    uint32_t good = 0;
    for (uint32_t m = 0; m < SVM_MSGS; ++m) {
        size_t got = 0;
        KMP(mcapi_msg_recv(ep, msgs[m], SVM_MAX, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, sizes[m]);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < got; ++i)
            bad += msgs[m][i] != pattern(m, i);
        CHECK_EQ(bad, 0);
        good += bad == 0 && got == sizes[m];
    }
    KMP(back = mcapi_endpoint_get(0, 0, SVM_TASK_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    for (uint32_t m = 0; m < SVM_MSGS; ++m) {
        uint32_t n = sizes[m] > SVM_REPLY_MAX ? SVM_REPLY_MAX : sizes[m];
        for (uint32_t i = 0; i < n; ++i)
            msgs[m][i] = (uint8_t)~msgs[m][i];
        KMP(mcapi_msg_send(ep, back, msgs[m], n, 0, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
    /* the task's packet channel: every byte of every packet */
    mcapi_pktchan_recv_hndl_t rh = ktest_pktchan_recv_open(SVM_PEER_PKT_PORT);
    static const uint16_t psizes[SVM_PKTS] = SVM_PKT_SIZES;
    uint32_t good_pkts = 0;
    for (uint32_t p = 0; p < SVM_PKTS && rh; ++p) {
        void *pb = NULL;
        size_t got = 0;
        KMP(mcapi_pktchan_recv(rh, &pb, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, psizes[p]);
        uint32_t bad = 0;
        for (uint32_t i = 0; pb && i < got; ++i)
            bad += ((uint8_t *)pb)[i] != pattern(100 + p, i);
        CHECK_EQ(bad, 0);
        good_pkts += st == MCAPI_SUCCESS && bad == 0 && got == psizes[p];
        if (pb)
            KMP(mcapi_pktchan_release(pb, &st));
    }
    /* the non-blocking phase: packets on the channel, messages replied, a channel to the task */
    static const uint16_t opsizes[SVM_NB_PKTS_OUT] = SVM_NB_PKT_OUT_SIZES;
    uint32_t good_nb_pkts = 0, good_nb = 0;
    for (uint32_t p = 0; p < SVM_NB_PKTS_OUT && rh; ++p) {
        void *pb = NULL;
        size_t got = 0;
        KMP(mcapi_pktchan_recv(rh, &pb, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, opsizes[p]);
        uint32_t bad = 0;
        for (uint32_t i = 0; pb && i < got; ++i)
            bad += ((uint8_t *)pb)[i] != pattern(400 + p, i);
        CHECK_EQ(bad, 0);
        good_nb_pkts += st == MCAPI_SUCCESS && bad == 0 && got == opsizes[p];
        if (pb)
            KMP(mcapi_pktchan_release(pb, &st));
    }
    static const uint16_t nbsizes[SVM_NB_MSGS] = SVM_NB_SIZES;
    for (uint32_t m = 0; m < SVM_NB_MSGS; ++m) {
        size_t got = 0;
        KMP(mcapi_msg_recv(ep, msgs[0], SVM_MAX, &got, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
        CHECK_EQ(got, nbsizes[m]);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < got; ++i) {
            bad += msgs[0][i] != pattern(200 + m, i);
            msgs[0][i] = (uint8_t)~msgs[0][i];
        }
        CHECK_EQ(bad, 0);
        good_nb += bad == 0 && got == nbsizes[m];
        KMP(mcapi_msg_send(ep, back, msgs[0], got, 0, &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
    mcapi_endpoint_t tx, trx;
    mcapi_pktchan_send_hndl_t th = NULL;
    mcapi_request_t req;
    size_t sz;
    KMP(tx = mcapi_endpoint_create(SVM_PEER_TX_PORT, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(trx = mcapi_endpoint_get(0, 0, SVM_TASK_RX_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapi_pktchan_connect_i(tx, trx, &req, &st));
    KMP(mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapi_pktchan_send_open_i(&th, tx, &req, &st));
    KMP(mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    static const uint16_t ipsizes[SVM_NB_PKTS_IN] = SVM_NB_PKT_IN_SIZES;
    for (uint32_t p = 0; p < SVM_NB_PKTS_IN && th; ++p) {
        for (uint32_t i = 0; i < ipsizes[p]; ++i)
            msgs[1][i] = pattern(300 + p, i);
        KMP(mcapi_pktchan_send(th, msgs[1], ipsizes[p], &st));
        CHECK_EQ(st, MCAPI_SUCCESS);
    }
    /* the task's last message: it may look up a missing port here until then */
    uint8_t bye[8];
    size_t got = 0;
    KMP(mcapi_msg_recv(ep, bye, sizeof bye, &got, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK(got == 4 && memcmp(bye, "BYE", 4) == 0);
    if (ktest_failures == 0)
        k_printf("kernel sv_mcapi receiver ok: %lu messages, %lu packets, every byte; "
                 "non-blocking: %lu messages, %lu packets\n",
                 (unsigned long)good, (unsigned long)good_pkts, (unsigned long)good_nb,
                 (unsigned long)good_nb_pkts);
}

int main(void) { return sv_main(tile0, tile1); }
