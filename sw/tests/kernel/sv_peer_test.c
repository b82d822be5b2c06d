/* kernel.sv_peer: what a peer sees when the task at the other end is killed (docs/kernel.md "MCAPI
 * in tasks"), preset svbase on a 2x1 mesh. Tile 0 runs three victim tasks (sv_peer_task.c), each
 * killed by the kernel (a store to an unmapped address) while its peer is in the middle of a call
 * only the victim could end. Tile 1 runs the peers: two tasks (the task build of the library,
 * sending through their vifs) and two kernel threads (the kernel's library on physical slots).
 *   messages: the task peer is blocked sending into the victim's full buffer (ENDP_INVALID at the
 *     kill), the kernel peer waits with a timeout for a message only the victim sends (TIMEOUT);
 *   channels: each peer is blocked on a packet without credit to the victim (CHAN_INVALID: the
 *     kernel revoked the channel) and then blocks receiving on the victim's channel to it
 *     (CHAN_INVALID: the kernel closed it);
 * then every peer uses the dead victim's handles again (misuse). Tile 0 checks that the kernel
 * deleted the victims' endpoints before anyone joined them and that every page comes back. */
#include <stdint.h>
#include <string.h>

#include "hal/hal.h"
#include "kernel/kmp.h"
#include "ktest.h"
#include "mcapi.h"
#include "sv_main.h"
#include "sv_peer.h"

volatile unsigned ktest_failures;

#define BOUND                  20000u /* ticks (100 us each) any wait of the test may take */
#define WAIT_US                30000u /* the kernel peer's receive timeout: the kill falls into it */
#define CAUSE_STORE_PAGE_FAULT 15

static const char *name(mcapi_status_t st) { return mcapix_status_name(st); }

static struct sv_peer_task *data_of(k_thread_t *t)
{
    return kmp_task_ptr(t, K_USER_DATA + sizeof(mp_task_state_t), sizeof(struct sv_peer_task));
}

static int wait_for(volatile uint32_t *w, uint32_t v)
{
    for (uint32_t i = 0; i < BOUND && *w != v; ++i)
        k_sleep(1);
    return *w == v;
}

static k_thread_t *start_task(const char *tname, void (*entry)(void *), unsigned slot)
{
    k_task_image_t img = {tname, entry, NULL, SVP_DATA_BYTES, 2, 3, 1};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    if (!t)
        return NULL;
    CHECK_EQ(kmp_task_attach(t, slot), K_OK);
    CHECK_EQ(k_task_resume(t), K_OK);
    return t;
}

/* ---- tile 0: the victims ---- */

static void tile0(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t ctl, ctl1;
    KMP(mcapi_initialize(0, 0, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(kmp_task_service_start(8), K_OK);
    KMP(ctl = mcapi_endpoint_create(SVP_CTL0_PORT, &st));
    const uint32_t pages0 = k_pages_free();
    static const struct {
        const char *name;
        void (*entry)(void *);
    } vs[3] = {
        {"victim_msg", sv_peer_vm}, {"victim_chan", sv_peer_vt}, {"victim_kchan", sv_peer_vk}};
    k_thread_t *v[3];
    struct sv_peer_task *d[3];
    for (unsigned i = 0; i < 3; ++i) {
        v[i] = start_task(vs[i].name, vs[i].entry, 1 + i);
        d[i] = v[i] ? data_of(v[i]) : NULL;
        CHECK(d[i] != NULL);
        if (!d[i])
            return;
    }
    /* each dies by itself; the kernel deletes its endpoints without waiting for a join */
    uint32_t gone_ticks[3];
    for (unsigned i = 0; i < 3; ++i) {
        CHECK(wait_for(&d[i]->step, 99));
        const uint64_t t0 = k_ticks();
        struct kmp_task_ep list[4];
        int n = 1, deleting = 0;
        for (uint32_t k = 0; k < BOUND && (n = kmp_task_list(v[i], list, 4, &deleting)) != 0; ++k)
            k_sleep(1);
        gone_ticks[i] = (uint32_t)(k_ticks() - t0);
        CHECK_EQ(n, 0);
        kmp_task_diag_t dg;
        CHECK_EQ(kmp_task_diagnose(v[i], &dg), K_OK);
        CHECK_EQ(dg.vif_slot, -1); /* its vif went at the kill */
    }
    /* what the victims got before they died: every byte (read before the join) */
    CHECK_EQ(d[0]->st_setup, 0);
    CHECK_EQ(d[0]->sent, SVP_MSGS_PM + SVP_MSGS_KM);
    CHECK_EQ(d[0]->send_fail, 0);
    CHECK_EQ(d[0]->avail, SVP_FILL); /* the peer's messages were delivered, none lost */
    for (unsigned i = 1; i < 3; ++i) {
        CHECK_EQ(d[i]->st_setup, 0);
        CHECK_EQ(d[i]->sent, SVP_PKTS_OUT);
        CHECK_EQ(d[i]->send_fail, 0);
        CHECK_EQ(d[i]->received, 2);
        CHECK_EQ(d[i]->byte_fail, 0);
        CHECK_EQ(d[i]->avail, SVP_FILL - 2);
    }
    KMP(ctl1 = mcapi_endpoint_get(0, 1, SVP_CTL1_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_msg_send(ctl, ctl1, "GO", 3, 0, &st)); /* the peers may use the dead handles */
    CHECK_EQ(st, MCAPI_SUCCESS);
    int killed = 0;
    for (unsigned i = 0; i < 3; ++i) {
        int status = -1;
        CHECK_EQ(k_join(v[i], BOUND, &status), K_OK);
        CHECK_EQ(status, K_KILLED + CAUSE_STORE_PAGE_FAULT);
        killed += status == K_KILLED + CAUSE_STORE_PAGE_FAULT;
    }
    /* nothing dangles: the receive pages are quiet once the peers' "stopped" came */
    uint32_t k = 0;
    while (k++ < BOUND && k_pages_free() != pages0)
        k_sleep(1);
    CHECK_EQ(k_pages_free(), pages0);
    /* the peers still look the dead ports up here (the progress engine answers): stay until then */
    uint8_t b[8];
    size_t got = 0;
    KMP(mcapi_msg_recv(ctl, b, sizeof b, &got, &st));
    CHECK(st == MCAPI_SUCCESS && got == 4 && memcmp(b, "END", 4) == 0);
    KMP(mcapi_endpoint_delete(ctl, &st));
    kmp_task_service_stop();
    k_printf(
        "sv_peer victims: endpoints deleted %lu/%lu/%lu ticks after the kill, before the join\n",
        (unsigned long)gone_ticks[0], (unsigned long)gone_ticks[1], (unsigned long)gone_ticks[2]);
    if (ktest_failures == 0)
        k_printf(
            "kernel sv_peer victims ok: %d killed, endpoints deleted before the join, every page "
            "back\n",
            killed);
}

/* ---- tile 1: the peers ---- */

static volatile uint32_t go, km_done, kc_done;
static struct {
    uint32_t received, byte_fail, wait_ticks;
    mcapi_status_t st_wait, st_cancel, st_after, st_get;
} km;
static struct {
    uint32_t received, byte_fail, chan_sent, blocked_ticks, recv_gone_ticks, avail;
    mcapi_status_t st_setup, st_chan_blocked, st_recv_gone, st_after, st_send_i, st_recv_again,
        st_recv_i, st_avail;
} kc;

static void wait_go(void)
{
    for (uint32_t i = 0; i < BOUND && !go; ++i)
        k_sleep(1);
}

/* The kernel-thread peer of the message victim (the kernel's library, physical slots). */
static void km_main(void *arg)
{
    (void)arg;
    mcapi_status_t st;
    mcapi_endpoint_t me, vm;
    mcapi_request_t req;
    size_t got = 0;
    static uint8_t b[512];
    KMP(me = mcapi_endpoint_create(SVP_KM_PORT, &st));
    KMP(vm = mcapi_endpoint_get(0, 0, SVP_VM_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    for (uint32_t m = SVP_MSGS_PM; m < SVP_MSGS_PM + SVP_MSGS_KM; ++m) {
        KMP(mcapi_msg_recv(me, b, sizeof b, &got, &st));
        km.received += st == MCAPI_SUCCESS && got == SVP_SIZE(m);
        for (uint32_t i = 0; i < got; ++i)
            km.byte_fail += b[i] != svp_pattern(m, i);
    }
    /* a legitimate wait for the victim, which is killed meanwhile: it times out */
    const uint64_t t0 = k_ticks();
    KMP(mcapi_msg_recv_i(me, b, sizeof b, &req, &st));
    KMP(mcapi_wait(&req, &got, WAIT_US, &km.st_wait));
    km.wait_ticks = (uint32_t)(k_ticks() - t0);
    KMP(mcapi_cancel(&req, &km.st_cancel));
    wait_go();
    KMP(mcapi_msg_send(me, vm, b, 8, 0, &km.st_after)); /* the dead victim's handle */
    KMP((void)mcapi_endpoint_get(0, 0, SVP_VM_PORT, 3000, &km.st_get)); /* its port is gone */
    KMP(mcapi_endpoint_delete(me, &st));
    km_done = 1;
}

/* The kernel-thread peer of the channel victim. */
static void kc_main(void *arg)
{
    (void)arg;
    mcapi_status_t st;
    mcapi_endpoint_t tx, rx, vrx;
    mcapi_request_t req;
    size_t got = 0;
    static uint8_t b[512];
    mcapi_pktchan_send_hndl_t sh = NULL;
    mcapi_pktchan_recv_hndl_t rh = NULL;
    KMP(tx = mcapi_endpoint_create(SVP_KC_TX_PORT, &st));
    KMP(rx = mcapi_endpoint_create(SVP_KC_RX_PORT, &st));
    KMP(mcapi_pktchan_recv_open_i(&rh, rx, &req, &st));
    KMP(mcapi_wait(&req, &got, MCAPI_TIMEOUT_INFINITE, &st));
    kc.st_setup = st;
    KMP(vrx = mcapi_endpoint_get(0, 0, SVP_VK_RX_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_pktchan_connect_i(tx, vrx, &req, &st));
    KMP(mcapi_wait(&req, &got, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_pktchan_send_open_i(&sh, tx, &req, &st));
    KMP(mcapi_wait(&req, &got, MCAPI_TIMEOUT_INFINITE, &st));
    if (kc.st_setup == MCAPI_SUCCESS)
        kc.st_setup = st;
    for (uint32_t p = 0; p < SVP_PKTS_OUT && rh; ++p) {
        void *pb = NULL;
        KMP(mcapi_pktchan_recv(rh, &pb, &got, &st));
        kc.received += st == MCAPI_SUCCESS && got == SVP_SIZE(p);
        for (uint32_t i = 0; pb && i < got; ++i)
            kc.byte_fail += ((uint8_t *)pb)[i] != svp_pattern(60 + p, i);
        if (pb)
            KMP(mcapi_pktchan_release(pb, &st));
    }
    for (uint32_t p = 0; p < SVP_FILL; ++p) {
        for (uint32_t i = 0; i < SVP_SIZE(p); ++i)
            b[i] = svp_pattern(70 + p, i);
        KMP(mcapi_pktchan_send(sh, b, SVP_SIZE(p), &st));
        kc.chan_sent += st == MCAPI_SUCCESS;
    }
    uint64_t t0 = k_ticks();
    KMP(mcapi_pktchan_send(sh, b, 8, &kc.st_chan_blocked)); /* no credit until the kill */
    kc.blocked_ticks = (uint32_t)(k_ticks() - t0);
    void *pb = NULL;
    t0 = k_ticks();
    KMP(mcapi_pktchan_recv(rh, &pb, &got, &kc.st_recv_gone)); /* the victim's channel closes */
    kc.recv_gone_ticks = (uint32_t)(k_ticks() - t0);
    wait_go();
    KMP(mcapi_pktchan_send(sh, b, 8, &kc.st_after));
    KMP(mcapi_pktchan_send_i(sh, b, 8, &req, &st));
    if (st == MCAPI_PENDING)
        KMP(mcapi_wait(&req, &got, 100000, &st));
    kc.st_send_i = st;
    KMP(mcapi_pktchan_recv(rh, &pb, &got, &kc.st_recv_again));
    KMP(mcapi_pktchan_recv_i(rh, &pb, &req, &st));
    if (st == MCAPI_PENDING)
        KMP(mcapi_wait(&req, &got, 2000, &st));
    kc.st_recv_i = st;
    KMP(kc.avail = mcapi_pktchan_available(rh, &kc.st_avail));
    KMP(mcapi_endpoint_delete(tx, &st));
    KMP(mcapi_endpoint_delete(rx, &st));
    kc_done = 1;
}

static void tile1(void)
{
    mcapi_status_t st;
    mcapi_info_t info;
    mcapi_endpoint_t ctl;
    KMP(mcapi_initialize(0, 1, NULL, NULL, &info, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    CHECK_EQ(kmp_task_service_start(8), K_OK);
    KMP(ctl = mcapi_endpoint_create(SVP_CTL1_PORT, &st));
    const uint32_t pages0 = k_pages_free();
    k_thread_t *kmt = k_thread_create("km", km_main, NULL, 5, 0);
    k_thread_t *kct = k_thread_create("kc", kc_main, NULL, 5, 0);
    k_thread_t *pm = start_task("peer_msg", sv_peer_pm, 1);
    k_thread_t *pt = start_task("peer_chan", sv_peer_pt, 2);
    struct sv_peer_task *dm = pm ? data_of(pm) : NULL, *dt = pt ? data_of(pt) : NULL;
    CHECK(kmt && kct && dm && dt);
    if (!kmt || !kct || !dm || !dt)
        return;
    uint8_t b[8];
    size_t got = 0;
    KMP(mcapi_msg_recv(ctl, b, sizeof b, &got, &st)); /* tile 0: every victim's endpoints gone */
    CHECK(st == MCAPI_SUCCESS && got == 3 && memcmp(b, "GO", 3) == 0);
    dm->ack = dt->ack = 1;
    go = 1;
    CHECK(wait_for(&dm->done, 1));
    CHECK(wait_for(&dt->done, 1));
    CHECK(wait_for(&km_done, 1));
    CHECK(wait_for(&kc_done, 1));
    if (!dm->done || !dt->done)
        k_printf("peer stuck: msg step %lu, chan step %lu\n", (unsigned long)dm->step,
                 (unsigned long)dt->step);

    /* messages: delivered before the kill intact, the blocked send and later sends refused */
    CHECK_EQ(dm->st_setup, 0);
    CHECK_EQ(dm->received, SVP_MSGS_PM);
    CHECK_EQ(dm->byte_fail, 0);
    CHECK_EQ(dm->fill_ok, SVP_FILL);
    CHECK_EQ(dm->st_blocked, MCAPI_ERR_ENDP_INVALID);
    CHECK_EQ(dm->st_wait, MCAPI_TIMEOUT);
    CHECK_EQ(dm->st_cancel, MCAPI_SUCCESS);
    CHECK_EQ(dm->st_after, MCAPI_ERR_ENDP_INVALID);
    CHECK_EQ(dm->st_after_i, MCAPI_ERR_ENDP_INVALID);
    CHECK_EQ(dm->st_mcast, MCAPI_ERR_ENDP_INVALID);
    CHECK_EQ(dm->st_mcast_member, MCAPI_ERR_ENDP_INVALID);
    CHECK_EQ(km.received, SVP_MSGS_KM);
    CHECK_EQ(km.byte_fail, 0);
    CHECK_EQ(km.st_wait, MCAPI_TIMEOUT);
    CHECK(km.wait_ticks >= WAIT_US / 100u - 1u); /* not ended early by the kill */
    CHECK_EQ(km.st_cancel, MCAPI_SUCCESS);
    CHECK_EQ(km.st_after, MCAPI_ERR_ENDP_INVALID);
    CHECK_EQ(km.st_get, MCAPI_TIMEOUT);
    k_printf("sv_peer msg: task peer got %lu/%d intact, filled %lu, blocked send %s, wait %s\n",
             (unsigned long)dm->received, SVP_MSGS_PM, (unsigned long)dm->fill_ok,
             name(dm->st_blocked), name(dm->st_wait));
    k_printf("sv_peer msg after the kill: send %s, send_i %s, multicast %s\n", name(dm->st_after),
             name(dm->st_after_i), name(dm->st_mcast));
    k_printf("sv_peer kmsg: kernel peer got %lu/%d intact, wait %s, then send %s, lookup %s\n",
             (unsigned long)km.received, SVP_MSGS_KM, name(km.st_wait), name(km.st_after),
             name(km.st_get));

    /* channels: the task peer (vif) and the kernel peer (physical slots) */
    CHECK_EQ(dt->st_setup, 0);
    CHECK_EQ(dt->received, SVP_PKTS_OUT);
    CHECK_EQ(dt->byte_fail, 0);
    CHECK_EQ(dt->chan_sent, SVP_FILL);
    CHECK_EQ(dt->st_chan_blocked, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(dt->st_recv_gone, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(dt->st_after, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(dt->st_send_i, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(dt->st_recv_again, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(dt->st_recv_i, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(dt->avail, 0);
    CHECK_EQ(dt->st_avail, MCAPI_ERR_CHAN_INVALID); /* empty and its sender gone: closed */
    CHECK_EQ(kc.st_setup, MCAPI_SUCCESS);
    CHECK_EQ(kc.received, SVP_PKTS_OUT);
    CHECK_EQ(kc.byte_fail, 0);
    CHECK_EQ(kc.chan_sent, SVP_FILL);
    CHECK_EQ(kc.st_chan_blocked, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(kc.st_recv_gone, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(kc.st_after, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(kc.st_send_i, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(kc.st_recv_again, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(kc.st_recv_i, MCAPI_ERR_CHAN_INVALID);
    CHECK_EQ(kc.avail, 0);
    CHECK_EQ(kc.st_avail, MCAPI_ERR_CHAN_INVALID);
    k_printf("sv_peer chan: task peer got %lu/%d intact, sent %lu, blocked send %s, recv %s\n",
             (unsigned long)dt->received, SVP_PKTS_OUT, (unsigned long)dt->chan_sent,
             name(dt->st_chan_blocked), name(dt->st_recv_gone));
    k_printf("sv_peer chan after the kill: send %s, send_i %s, recv %s, recv_i %s\n",
             name(dt->st_after), name(dt->st_send_i), name(dt->st_recv_again), name(dt->st_recv_i));
    k_printf("sv_peer kchan: kernel peer got %lu/%d intact, sent %lu, blocked send %s, recv %s\n",
             (unsigned long)kc.received, SVP_PKTS_OUT, (unsigned long)kc.chan_sent,
             name(kc.st_chan_blocked), name(kc.st_recv_gone));
    k_printf("sv_peer kchan after the kill: send %s, send_i %s, recv %s, recv_i %s\n",
             name(kc.st_after), name(kc.st_send_i), name(kc.st_recv_again), name(kc.st_recv_i));
    /* bounded: each blocked call ended soon after the kill (tasks count mtime, threads ticks) */
    const uint32_t send_us = (uint32_t)((uint64_t)dt->blocked_ticks * 1000000u / timer_hz());
    const uint32_t recv_us = (uint32_t)((uint64_t)dt->recv_gone_ticks * 1000000u / timer_hz());
    CHECK(send_us < 100000u && recv_us < 100000u);
    CHECK(kc.blocked_ticks < 1000u && kc.recv_gone_ticks < 1000u);
    k_printf("sv_peer blocked for (us): task send %lu recv %lu, kernel send %lu recv %lu\n",
             (unsigned long)send_us, (unsigned long)recv_us,
             (unsigned long)(kc.blocked_ticks * 100u), (unsigned long)(kc.recv_gone_ticks * 100u));
    int status = -1;
    CHECK_EQ(k_join(pm, BOUND, &status), K_OK);
    CHECK_EQ(status, 0);
    CHECK_EQ(k_join(pt, BOUND, &status), K_OK);
    CHECK_EQ(status, 0);
    CHECK_EQ(k_join(kmt, BOUND, &status), K_OK);
    CHECK_EQ(k_join(kct, BOUND, &status), K_OK);
    uint32_t k = 0;
    while (k++ < BOUND && k_pages_free() != pages0)
        k_sleep(1);
    CHECK_EQ(k_pages_free(), pages0);
    mcapi_endpoint_t ctl0;
    KMP(ctl0 = mcapi_endpoint_get(0, 0, SVP_CTL0_PORT, MCAPI_TIMEOUT_INFINITE, &st));
    KMP(mcapi_msg_send(ctl, ctl0, "END", 4, 0, &st));
    CHECK_EQ(st, MCAPI_SUCCESS);
    KMP(mcapi_endpoint_delete(ctl, &st));
    kmp_task_service_stop();
    if (ktest_failures == 0)
        k_printf("kernel sv_peer peers ok: every call on a killed peer ended with its status\n");
}

int main(void) { return sv_main(tile0, tile1); }
