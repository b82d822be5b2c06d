/* The tasks of kernel.sv_peer (kernel_firmware TASKS: plain MCAPI calls bound to mp_task).
 * Victims on tile 0 exchange a little with their peers, wait until the peer is in the middle of
 * a call that only they can end, and then die by a store to an unmapped address. Peers on tile 1
 * record what each call returns, during and after the kill. */
#include <stdint.h>

#include "kernel/kconfig.h"
#include "kernel/user.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "sv_peer.h"

#define DATA(arg)   ((struct sv_peer_task *)((uint8_t *)(arg) + sizeof(mp_task_state_t)))
#define BOUND_TICKS 20000u /* a victim waits at most this long for its peer, then dies anyway */

static void fill(uint8_t *b, uint32_t msg, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        b[i] = svp_pattern(msg, i);
}

static uint32_t bad_bytes(const uint8_t *b, uint32_t msg, uint32_t n)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; b && i < n; ++i)
        bad += b[i] != svp_pattern(msg, i);
    return bad;
}

static __attribute__((noreturn)) void die(struct sv_peer_task *d)
{
    d->step = 99; /* the kernel watches for this, then for the endpoints to go */
    *(volatile uint32_t *)SVP_BAD_VA = 1; /* the kernel kills the task here */
    for (;;)
        u_yield();
}

static void wait_ack(struct sv_peer_task *d)
{
    while (!d->ack)
        u_sleep(1);
}

static void setup(struct sv_peer_task *d, mcapi_node_t node)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_initialize(0, node, NULL, NULL, &info, &st);
    if (st != MCAPI_SUCCESS)
        d->st_setup = st;
}

/* ---- messages ---- */

void sv_peer_vm(void *arg)
{
    struct sv_peer_task *d = DATA(arg);
    mcapi_status_t st;
    uint8_t b[512];
    setup(d, 0);
    mcapi_endpoint_t me = mcapi_endpoint_create(SVP_VM_PORT, &st);
    mcapi_endpoint_t pm = mcapi_endpoint_get(0, 1, SVP_PM_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_endpoint_t km = mcapi_endpoint_get(0, 1, SVP_KM_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    for (uint32_t m = 0; m < SVP_MSGS_PM + SVP_MSGS_KM; ++m) {
        const uint32_t n = SVP_SIZE(m);
        fill(b, m, n);
        mcapi_msg_send(me, m < SVP_MSGS_PM ? pm : km, b, n, 0, &st);
        d->sent += st == MCAPI_SUCCESS;
        d->send_fail += st != MCAPI_SUCCESS;
    }
    /* the peer fills this endpoint (never read here) and blocks on one more: then die */
    for (uint32_t i = 0; i < BOUND_TICKS && mcapi_msg_available(me, &st) < SVP_FILL; ++i)
        u_sleep(1);
    d->avail = mcapi_msg_available(me, &st);
    u_sleep(5);
    die(d);
}

void sv_peer_pm(void *arg)
{
    struct sv_peer_task *d = DATA(arg);
    mcapi_status_t st;
    mcapi_request_t req;
    size_t got = 0;
    uint8_t b[512];
    setup(d, 1);
    mcapi_endpoint_t me = mcapi_endpoint_create(SVP_PM_PORT, &st);
    mcapi_endpoint_t vm = mcapi_endpoint_get(0, 0, SVP_VM_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    for (uint32_t m = 0; m < SVP_MSGS_PM; ++m) { /* exactly what came before the kill */
        mcapi_msg_recv(me, b, sizeof b, &got, &st);
        d->received += st == MCAPI_SUCCESS && got == SVP_SIZE(m);
        d->byte_fail += bad_bytes(b, m, (uint32_t)got);
    }
    d->step = 1;
    for (uint32_t m = 0; m < SVP_FILL; ++m) { /* into the victim's buffer: delivered */
        fill(b, 50 + m, SVP_SIZE(m));
        mcapi_msg_send(me, vm, b, SVP_SIZE(m), 0, &st);
        d->fill_ok += st == MCAPI_SUCCESS;
        if (st != MCAPI_SUCCESS)
            d->st_fill = st;
    }
    d->step = 2;
    uint64_t t0 = u_time();
    mcapi_msg_send(me, vm, b, 8, 0, &st); /* the buffer is full: held until the kill */
    d->blocked_ticks = (uint32_t)(u_time() - t0);
    d->st_blocked = st;
    d->step = 3;
    /* a receive only the dead victim would have served: a legitimate wait, it times out */
    mcapi_msg_recv_i(me, b, sizeof b, &req, &st);
    mcapi_wait(&req, &got, 2000, &st);
    d->st_wait = st;
    mcapi_cancel(&req, &st);
    d->st_cancel = st;
    wait_ack(d);
    d->step = 4;
    mcapi_msg_send(me, vm, b, 8, 0, &st); /* its handle, after the kill */
    d->st_after = st;
    mcapi_msg_send_i(me, vm, b, 8, 0, &req, &st);
    if (st == MCAPI_PENDING)
        mcapi_wait(&req, &got, 100000, &st);
    d->st_after_i = st;
    /* a collective through its vif with the dead victim as member: the member fails, not a hang */
    mcapix_mcast_group_t g;
    mcapix_cc_area((void *)(K_USER_DATA + SVP_AREA_OFFSET), 4096, &st);
    if (st == MCAPI_SUCCESS)
        mcapix_mcast_create(&g, me, &vm, 1, &st);
    if (st == MCAPI_SUCCESS)
        mcapix_mcast_send(&g, b, 8, &st);
    d->st_mcast = st;
    d->st_mcast_member = mcapix_mcast_member_status(&g, 0);
    mcapi_finalize(&st);
    d->done = 1;
    u_exit(0);
}

/* ---- channels: the victim sends on one and receives on the other ---- */

static void chan_victim(void *arg, mcapi_port_t rx_port, mcapi_port_t tx_port,
                        mcapi_port_t peer_rx_port, uint32_t pat_out, uint32_t pat_in)
{
    struct sv_peer_task *d = DATA(arg);
    mcapi_status_t st;
    mcapi_request_t req;
    size_t got = 0;
    uint8_t b[512];
    setup(d, 0);
    mcapi_endpoint_t rx = mcapi_endpoint_create(rx_port, &st);
    mcapi_endpoint_t tx = mcapi_endpoint_create(tx_port, &st);
    mcapi_endpoint_t prx = mcapi_endpoint_get(0, 1, peer_rx_port, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_pktchan_send_hndl_t sh = 0;
    mcapi_pktchan_recv_hndl_t rh = 0;
    mcapi_pktchan_connect_i(tx, prx, &req, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_pktchan_send_open_i(&sh, tx, &req, &st);
    if (st != MCAPI_SUCCESS)
        d->st_setup = st;
    for (uint32_t p = 0; p < SVP_PKTS_OUT; ++p) {
        fill(b, pat_out + p, SVP_SIZE(p));
        mcapi_pktchan_send(sh, b, SVP_SIZE(p), &st);
        d->sent += st == MCAPI_SUCCESS;
        d->send_fail += st != MCAPI_SUCCESS;
    }
    mcapi_pktchan_recv_open_i(&rh, rx, &req, &st); /* once the peer connected */
    if (st != MCAPI_SUCCESS)
        d->st_setup = st;
    for (uint32_t p = 0; p < 2; ++p) { /* read, never released: no credit goes back */
        void *pb = 0;
        mcapi_pktchan_recv(rh, &pb, &got, &st);
        d->received += st == MCAPI_SUCCESS && got == SVP_SIZE(p);
        d->byte_fail += bad_bytes(pb, pat_in + p, (uint32_t)got);
    }
    /* the peer used every credit and waits for one more: then die */
    for (uint32_t i = 0; i < BOUND_TICKS && mcapi_pktchan_available(rh, &st) < SVP_FILL - 2; ++i)
        u_sleep(1);
    d->avail = mcapi_pktchan_available(rh, &st);
    u_sleep(5);
    die(d);
}

void sv_peer_vt(void *arg)
{
    chan_victim(arg, SVP_VT_RX_PORT, SVP_VT_TX_PORT, SVP_PT_RX_PORT, 20, 30);
}
void sv_peer_vk(void *arg)
{
    chan_victim(arg, SVP_VK_RX_PORT, SVP_VK_TX_PORT, SVP_KC_RX_PORT, 60, 70);
}

void sv_peer_pt(void *arg)
{
    struct sv_peer_task *d = DATA(arg);
    mcapi_status_t st;
    mcapi_request_t req;
    size_t got = 0;
    uint8_t b[512];
    setup(d, 1);
    mcapi_endpoint_t tx = mcapi_endpoint_create(SVP_PT_TX_PORT, &st);
    mcapi_endpoint_t rx = mcapi_endpoint_create(SVP_PT_RX_PORT, &st);
    mcapi_pktchan_send_hndl_t sh = 0;
    mcapi_pktchan_recv_hndl_t rh = 0;
    mcapi_pktchan_recv_open_i(&rh, rx, &req, &st); /* once the victim connected */
    mcapi_endpoint_t vrx = mcapi_endpoint_get(0, 0, SVP_VT_RX_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_pktchan_connect_i(tx, vrx, &req, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_pktchan_send_open_i(&sh, tx, &req, &st);
    if (st != MCAPI_SUCCESS)
        d->st_setup = st;
    for (uint32_t p = 0; p < SVP_PKTS_OUT; ++p) { /* exactly what the victim sent */
        void *pb = 0;
        mcapi_pktchan_recv(rh, &pb, &got, &st);
        d->received += st == MCAPI_SUCCESS && got == SVP_SIZE(p);
        d->byte_fail += bad_bytes(pb, 20 + p, (uint32_t)got);
        if (pb)
            mcapi_pktchan_release(pb, &st);
    }
    d->step = 1;
    for (uint32_t p = 0; p < SVP_FILL; ++p) { /* one per credit */
        fill(b, 30 + p, SVP_SIZE(p));
        mcapi_pktchan_send(sh, b, SVP_SIZE(p), &st);
        d->chan_sent += st == MCAPI_SUCCESS;
    }
    d->step = 2;
    uint64_t t0 = u_time();
    mcapi_pktchan_send(sh, b, 8, &st); /* no credit: waits until the victim's kill revokes */
    d->blocked_ticks = (uint32_t)(u_time() - t0);
    d->st_chan_blocked = st;
    d->step = 3;
    void *pb = 0;
    t0 = u_time();
    mcapi_pktchan_recv(rh, &pb, &got, &st); /* nothing more comes: the kernel closes it */
    d->recv_gone_ticks = (uint32_t)(u_time() - t0);
    d->st_recv_gone = st;
    wait_ack(d);
    d->step = 4;
    mcapi_pktchan_send(sh, b, 8, &st);
    d->st_after = st;
    mcapi_pktchan_send_i(sh, b, 8, &req, &st);
    if (st == MCAPI_PENDING)
        mcapi_wait(&req, &got, 100000, &st);
    d->st_send_i = st;
    mcapi_pktchan_recv(rh, &pb, &got, &st);
    d->st_recv_again = st;
    mcapi_pktchan_recv_i(rh, &pb, &req, &st);
    if (st == MCAPI_PENDING)
        mcapi_wait(&req, &got, 2000, &st);
    d->st_recv_i = st;
    d->avail = mcapi_pktchan_available(rh, &st);
    d->st_avail = st;
    mcapi_finalize(&st);
    d->done = 1;
    u_exit(0);
}
