/* The tasks of kernel.security.revoke_hold (sec_hold.h): honest channel receivers on tile 0 and
 * the attackers on tile 1 that send to them and then keep their own vif busy while the receivers
 * end: one waits for a credit a colluding receiver never gives, one floods a sink with messages. */
#include <stdint.h>

#include "kernel/user.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "sec_hold.h"

#define DATA(arg) ((struct sec_hold_task *)((uint8_t *)(arg) + sizeof(mp_task_state_t)))

static uint32_t bad_bytes(const uint8_t *b, uint32_t who, uint32_t pkt, uint32_t n)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; b && i < n; ++i)
        bad += b[i] != sh_pattern(who, pkt, i);
    return bad;
}

static void setup(struct sec_hold_task *d, mcapi_node_t node)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_initialize(0, node, NULL, NULL, &info, &st);
    if (st != MCAPI_SUCCESS)
        d->st_setup = st;
}

void sec_hold_receiver(void *arg)
{
    struct sec_hold_task *d = DATA(arg);
    mcapi_status_t st;
    mcapi_request_t req;
    size_t got = 0;
    setup(d, 0);
    mcapi_endpoint_t rx = mcapi_endpoint_create(SH_RX_PORT + d->who, &st);
    mcapi_pktchan_recv_hndl_t rh = 0;
    mcapi_pktchan_recv_open_i(&rh, rx, &req, &st);
    if (st == MCAPI_PENDING)
        mcapi_wait(&req, &got, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        d->st_setup = 0x100u | st;
    for (uint32_t p = 0; p < d->n_pkts && !d->st_setup; ++p) {
        void *pb = 0;
        mcapi_pktchan_recv(rh, &pb, &got, &st);
        d->received += st == MCAPI_SUCCESS && got == d->size[p];
        if (st != MCAPI_SUCCESS)
            d->st_after = st;
        d->byte_fail += bad_bytes(pb, d->who, p, (uint32_t)got);
        if (pb)
            mcapi_pktchan_release(pb, &st);
    }
    d->step = 1;
    if (d->expect_close && !d->st_setup) { /* the sender deletes its endpoint: the channel closes */
        void *pb = 0;
        mcapi_pktchan_recv(rh, &pb, &got, &st);
        d->st_closed = st;
        if (pb)
            mcapi_pktchan_release(pb, &st);
        d->step = 3;
    }
    while (!d->end) /* the kernel says when: the attacker holds its vif by then */
        u_sleep(1);
    u_exit(0); /* an ordinary end: its kernel revokes the channel */
}

/* The colluder: a channel receiver that takes what its credits allow and gives none back until
 * the kernel releases it (end), and a sink that takes every message; both until the kernel stops
 * it. */
void sec_hold_colluder(void *arg)
{
    struct sec_hold_task *d = DATA(arg);
    mcapi_status_t st;
    mcapi_request_t req;
    size_t got = 0;
    uint8_t b[512];
    setup(d, 0);
    mcapi_endpoint_t sink = mcapi_endpoint_create(SH_SINK_PORT, &st);
    mcapi_endpoint_t rx = mcapi_endpoint_create(SH_COLLUDER_PORT, &st);
    mcapi_pktchan_recv_hndl_t rh = 0;
    mcapi_pktchan_recv_open_i(&rh, rx, &req, &st);
    if (st == MCAPI_PENDING)
        mcapi_wait(&req, &got, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        d->st_setup = 0x400u | st;
    d->step = 1;
    /* polls, no request left pending: what is there is taken, else a sleep */
    for (uint32_t idle = 0; !d->st_setup && (idle < 20 || !d->stop);) {
        int busy = 0;
        if (mcapi_msg_available(sink, &st) > 0) {
            mcapi_msg_recv(sink, b, sizeof b, &got, &st);
            d->sent += st == MCAPI_SUCCESS; /* messages sunk */
            busy = 1;
        }
        if (d->end && mcapi_pktchan_available(rh, &st) > 0) { /* released: credits go back */
            void *pb = 0;
            mcapi_pktchan_recv(rh, &pb, &got, &st);
            d->received += st == MCAPI_SUCCESS;
            if (pb)
                mcapi_pktchan_release(pb, &st);
            busy = 1;
        }
        idle = busy ? 0 : idle + 1;
        if (!busy)
            u_sleep(1);
    }
    d->done = 1;
    u_exit(0);
}

void sec_hold_attacker(void *arg)
{
    struct sec_hold_task *d = DATA(arg);
    mcapi_status_t st;
    mcapi_request_t req;
    uint8_t b[512];
    setup(d, 1);
    mcapi_endpoint_t tx = mcapi_endpoint_create(SH_TX_PORT + d->who, &st);
    mcapi_endpoint_t hold = mcapi_endpoint_create(SH_HOLD_PORT + d->who, &st);
    mcapi_endpoint_t far = 0;
    mcapi_pktchan_send_hndl_t sh = 0, ch = 0;
#ifdef SH_MCAST_HOLD
    mcapix_mcast_group_t g; /* the credit wait as a collective's member: the slot in MEMBERS */
#endif
    if (d->who == SH_CREDIT_HOLD) { /* a channel to the colluder, who never gives a credit back */
        far = mcapi_endpoint_get(0, 0, SH_COLLUDER_PORT, MCAPI_TIMEOUT_INFINITE, &st);
        mcapi_pktchan_connect_i(hold, far, &req, &st);
        if (st == MCAPI_SUCCESS)
            mcapi_pktchan_send_open_i(&ch, hold, &req, &st);
#ifdef SH_MCAST_HOLD
        if (st == MCAPI_SUCCESS)
            mcapix_cc_area((uint8_t *)arg + SH_AREA_OFFSET, 4096, &st);
        if (st == MCAPI_SUCCESS)
            mcapix_mcast_create_chan(&g, &ch, 1, &st);
#endif
    } else {
        far = mcapi_endpoint_get(0, 0, SH_SINK_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    }
    if (st != MCAPI_SUCCESS)
        d->st_setup = 0x300u | st;
    mcapi_endpoint_t rx =
        mcapi_endpoint_get(0, 0, SH_RX_PORT + d->who, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_pktchan_connect_i(tx, rx, &req, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_pktchan_send_open_i(&sh, tx, &req, &st);
    if (st != MCAPI_SUCCESS)
        d->st_setup = 0x200u | st;
    for (uint32_t p = 0; p < d->n_pkts && !d->st_setup; ++p) { /* honest traffic first */
        for (uint32_t i = 0; i < d->size[p]; ++i)
            b[i] = sh_pattern(d->who, p, i);
        mcapi_pktchan_send(sh, b, d->size[p], &st);
        d->sent += st == MCAPI_SUCCESS;
    }
    d->step = 1;
    /* then the vif busy for as long as the kernel lets it: */
    uint32_t x = d->seed | 1u;
    while (!d->stop && !d->st_setup) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        const uint32_t n = 4u + x % 500u;
        if (d->who == SH_CREDIT_HOLD)
#ifdef SH_MCAST_HOLD
            mcapix_mcast_send(&g, b, 8, &st); /* blocks in MEMBERS once the credits are gone */
#else
            mcapi_pktchan_send(ch, b, 8, &st); /* blocks in CREDIT_WAIT once the credits are gone */
#endif
        else
            mcapi_msg_send(hold, far, b, n, 0, &st);
        d->held_sends += st == MCAPI_SUCCESS;
        d->step = 2;
        if (d->del_tx && !d->deleted) { /* its channel's endpoint goes, the flood goes on */
            mcapi_endpoint_delete(tx, &st);
            d->st_del = st;
            d->deleted = 1;
        }
    }
    mcapi_pktchan_send(sh, b, 8, &st); /* the receiver ended: its channel is closed */
    d->st_after = st;
    mcapi_finalize(&st);
    d->done = 1;
    u_exit(0);
}
