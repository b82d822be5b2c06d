/* The task side of kernel.sv_cc: the collective calls of mcapix_cc.h in a U-mode task (task build
 * of the library). Its data region: the library's state, a page with struct sv_cc_task, a page that
 * becomes its collective area. Every collective goes through the vif; the kernel counts the task's
 * system calls during them (0). The kernel then moves the task to tile 3 and it runs a second round
 * there with the same groups, area and vIDs; then misuse of every call: each a clear status, the
 * task lives on. */
#include <stdint.h>

#include "kernel/kconfig.h"
#include "kernel/user.h"
#include "namp_cc.h"
#include <string.h>
#include "mcapi.h"
#include "mcapix_cc.h"
#include "namp/namp_regs.h"
#include "sv_cc.h"
#include "task_expect.h"

static void handshake(struct sv_cc_task *d, uint32_t n)
{
    d->mark = n;
    while (d->ack != n)
        ;
}

/* One round of the four collectives: the multicast of message m (size bytes), the scatter with
 * pattern sp, the reduction vector of contributor `who`, the gather part with pattern gp. Returns
 * a bit per collective that succeeded (1 multicast, 2 scatter, 4 reduction, 8 gather). */
static uint32_t round_of(mcapix_mcast_group_t *g, mcapix_mcast_group_t *sg, mcapix_reduce_tx_t *rt,
                         mcapix_gather_tx_t *gt, uint32_t m, uint32_t size, uint32_t sp,
                         uint32_t who, uint32_t gp)
{
    uint8_t buf[1024]; /* the stack: a task has no global data */
    mcapi_status_t st;
    uint32_t ok = 0;
    for (uint32_t i = 0; i < size; ++i)
        buf[i] = svc_byte(m, i);
    mcapix_mcast_send(g, buf, size, &st);
    ok |= st == MCAPI_SUCCESS ? 1u : 0u;
    for (uint32_t i = 0; i < SVC_SCATTER_COUNT * SVC_SCATTER_WIDTH; ++i)
        buf[i] = svc_byte(sp, i);
    mcapix_scatter_send(sg, buf, SVC_SCATTER_COUNT * SVC_SCATTER_WIDTH, &st);
    ok |= st == MCAPI_SUCCESS ? 2u : 0u;
    int32_t vec[SVC_RED_WORDS];
    for (uint32_t i = 0; i < SVC_RED_WORDS; ++i)
        vec[i] = svc_word(who, i);
    mcapix_reduce_send(rt, MCAPIX_OP_SUM, MCAPIX_T_INT32, vec, sizeof vec, &st);
    ok |= st == MCAPI_SUCCESS ? 4u : 0u;
    for (uint32_t i = 0; i < SVC_GATHER_ROWS * 3; ++i)
        buf[i] = svc_byte(gp, i);
    mcapix_gather_send(gt, buf, &st);
    ok |= st == MCAPI_SUCCESS ? 8u : 0u;
    return ok;
}

/* A multicast to the held endpoint started straight on the vif and left running (its receiver is
 * full until tile 0 lets it drain): the migration must not tear it apart. The library's layout:
 * descriptor at the area's start, data at 0x140. */
static void start_held(struct sv_cc_task *d, mcapi_endpoint_t me, mcapi_endpoint_t held)
{
    mcapi_status_t st;
    uint8_t b[SVC_HELD_SIZE];
    for (uint32_t i = 0; i < sizeof b; ++i)
        b[i] = svc_byte(20, i);
    mcapi_msg_send(me, held, b, sizeof b, 0, &st); /* fills its one element */
    mcapix_mcast_group_t hg;
    mcapix_mcast_create(&hg, me, &held, 1, &st);
    if (st != MCAPI_SUCCESS)
        return;
    const struct mp_task_ctrl *c = &((mp_task_state_t *)K_USER_DATA)->u.c;
    uint8_t *area = (uint8_t *)(uintptr_t)c->cc_va;
    memcpy(area, hg.desc, NAMP_CC_SIZE(1));
    for (uint32_t i = 0; i < sizeof b; ++i)
        area[0x140 + i] = svc_byte(21, i);
    namp_vif_start(c->vif, NAMP_FLAG_CC, NAMP_VIF_CC_PARAM1(c->cc_vid, 0), 0x140, sizeof b);
    d->held_started = 1;
}

/* After the move: the held collective finished (on the old tile, parked for this one). */
static void finish_held(struct sv_cc_task *d)
{
    const struct mp_task_ctrl *c = &((mp_task_state_t *)K_USER_DATA)->u.c;
    for (uint32_t i = 0; i < 100000 && !(namp_vif_flags(c->vif) & NAMP_FLAG_DONE); ++i)
        u_sleep(1);
    d->held_status = namp_vif_status(c->vif);
    namp_vif_set_flags(c->vif, NAMP_FLAG_CC); /* acknowledged */
    d->held_result = ((const uint32_t *)(uintptr_t)c->cc_va)[NAMP_CC_RESULT / 4];
}

static int channel_to(uint32_t tile, uint32_t port, mcapi_pktchan_send_hndl_t *sh)
{
    mcapi_status_t st;
    mcapi_request_t req;
    size_t sz;
    mcapi_endpoint_t me = mcapi_endpoint_create(port, &st);
    mcapi_endpoint_t peer =
        st == MCAPI_SUCCESS ? mcapi_endpoint_get(0, tile, SVC_CH_PORT, MCAPI_TIMEOUT_INFINITE, &st)
                            : NULL;
    if (st == MCAPI_SUCCESS)
        mcapi_pktchan_connect_i(me, peer, &req, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_pktchan_send_open_i(sh, me, &req, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_wait(&req, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    return st == MCAPI_SUCCESS;
}

static void misuse(struct sv_cc_task *d, mcapi_endpoint_t me, mcapi_endpoint_t *rx,
                   mcapix_mcast_group_t *g, mcapix_mcast_group_t *sg, mcapi_pktchan_send_hndl_t *sh)
{
    mcapi_status_t st;
    uint8_t b[16] = {0};
    mcapix_mcast_group_t bad;
    mcapix_reduce_tx_t rt;
    mcapix_reduce_rx_t rr;
    mcapix_gather_rx_t gr;
    size_t got;
    mcapix_mcast_create(NULL, me, rx, 3, &st);
    EXPECT(d, 1, st, MCAPI_ERR_PARAMETER);
    mcapix_mcast_create(&bad, me, rx, 0, &st);
    EXPECT(d, 2, st, MCAPI_ERR_PARAMETER);
    mcapix_mcast_create(&bad, me, rx, MCAPIX_CC_MAX_MEMBERS + 1, &st);
    EXPECT(d, 3, st, MCAPI_ERR_PARAMETER);
    const mcapi_endpoint_t local_member[1] = {me}; /* a local endpoint has no vID */
    mcapix_mcast_create(&bad, me, local_member, 1, &st);
    EXPECT(d, 4, st, MCAPI_ERR_ENDP_INVALID);
    const mcapi_endpoint_t kernel_member[1] = {(mcapi_endpoint_t)0x80001000u};
    mcapix_mcast_create(&bad, me, kernel_member, 1, &st);
    EXPECT(d, 5, st, MCAPI_ERR_ENDP_INVALID);
    mcapix_mcast_create(&bad, rx[0], rx, 1, &st); /* a remote endpoint cannot send */
    EXPECT(d, 6, st, MCAPI_ERR_ENDP_INVALID);
    mcapix_mcast_send(&bad, b, 4, &st); /* never created */
    EXPECT(d, 7, st, MCAPI_ERR_PARAMETER);
    mcapix_mcast_send(g, NULL, 4, &st);
    EXPECT(d, 8, st, MCAPI_ERR_BUF_INVALID);
    mcapix_mcast_send(g, b, 4000, &st); /* more than the area holds */
    EXPECT(d, 9, st, MCAPI_ERR_MSG_SIZE);
    mcapix_mcast_send(sg, b, 4, &st); /* a scatter group */
    EXPECT(d, 10, st, MCAPI_ERR_PARAMETER);
    mcapix_scatter_send(g, b, 4, &st); /* not a scatter group */
    EXPECT(d, 11, st, MCAPI_ERR_PARAMETER);
    mcapix_scatter_send(sg, b, 16, &st); /* chunks beyond the data */
    EXPECT(d, 12, st, MCAPI_ERR_PARAMETER);
    const mcapi_pktchan_send_hndl_t not_chan[1] = {(mcapi_pktchan_send_hndl_t)me};
    mcapix_mcast_create_chan(&bad, not_chan, 1, &st);
    EXPECT(d, 13, st, MCAPI_ERR_CHAN_INVALID);
    const uint32_t bases[2] = {0, 4}, zero_sizes[2] = {4, 0};
    mcapix_scatter_create_chan(&bad, sh, 2, 1, 8, bases, zero_sizes, &st);
    EXPECT(d, 14, st, MCAPI_ERR_PARAMETER);
    EXPECT(d, 15, mcapix_mcast_member_status(g, 3), MCAPI_ERR_PARAMETER);
    EXPECT(d, 16, mcapix_mcast_member_status(NULL, 0), MCAPI_ERR_PARAMETER);
    mcapix_reduce_tx_create(&rt, me, me, &st);
    EXPECT(d, 17, st, MCAPI_ERR_ENDP_INVALID);
    mcapix_reduce_tx_create(&rt, me, rx[0], &st);
    EXPECT(d, 18, st, MCAPI_SUCCESS);
    mcapix_reduce_send(&rt, MCAPIX_OPS, MCAPIX_T_INT32, b, 4, &st);
    EXPECT(d, 19, st, MCAPI_ERR_PARAMETER);
    mcapix_reduce_send(&rt, MCAPIX_OP_SUM, MCAPIX_T_INT32, b, 6, &st); /* not whole elements */
    EXPECT(d, 20, st, MCAPI_ERR_PARAMETER);
    /* a contribution to an endpoint that is no reduction root: the member fails, the task lives */
    mcapix_reduce_send(&rt, MCAPIX_OP_SUM, MCAPIX_T_INT32, b, 4, &st);
    EXPECT(d, 21, st != MCAPI_SUCCESS, 1);
    mcapix_reduce_rx_create(&rr, me, 2, &st); /* roots: the kernel's */
    EXPECT(d, 22, st, MCAPI_ERR_NOT_SUPPORTED);
    mcapix_reduce_recv(&rr, MCAPIX_OP_SUM, MCAPIX_T_INT32, b, 16, &got, &st);
    EXPECT(d, 23, st, MCAPI_ERR_NOT_SUPPORTED);
    mcapix_gather_rx_create(&gr, me, 2, 16, &st);
    EXPECT(d, 24, st, MCAPI_ERR_NOT_SUPPORTED);
    mcapix_cc_area(b, sizeof b, &st); /* too small, and twice */
    EXPECT(d, 25, st, MCAPI_ERR_PARAMETER);
    mcapix_cc_area((void *)(K_USER_DATA + SVC_AREA_OFFSET), 4096, &st);
    EXPECT(d, 26, st, MCAPI_ERR_GENERAL);
    mcapix_mcast_destroy(g, &st);
    EXPECT(d, 27, st, MCAPI_SUCCESS);
    mcapix_mcast_send(g, b, 4, &st); /* destroyed */
    EXPECT(d, 28, st, MCAPI_ERR_PARAMETER);
    mcapix_mcast_destroy(g, &st);
    EXPECT(d, 29, st, MCAPI_ERR_PARAMETER);
    d->misuse_done = 1;
}

void sv_cc_task_main(void *arg)
{
    (void)arg;
    struct sv_cc_task *d = (struct sv_cc_task *)(K_USER_DATA + sizeof(mp_task_state_t));
    void *area = (void *)(K_USER_DATA + SVC_AREA_OFFSET);
    mcapi_status_t st;
    mcapi_info_t info;
    size_t sz;
    mcapi_initialize(0, 0, NULL, NULL, &info, &st);
    mcapi_endpoint_t me = st == MCAPI_SUCCESS ? mcapi_endpoint_create(SVC_TASK_PORT, &st) : NULL;
    mcapi_endpoint_t rx[3] = {0}, red_root = NULL, gather_root = NULL;
    for (uint32_t t = 1; t <= 3 && st == MCAPI_SUCCESS; ++t)
        rx[t - 1] = mcapi_endpoint_get(0, t, SVC_RX_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    if (st == MCAPI_SUCCESS)
        red_root = mcapi_endpoint_get(0, 1, SVC_RED_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    if (st == MCAPI_SUCCESS)
        gather_root = mcapi_endpoint_get(0, 2, SVC_GATHER_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_pktchan_send_hndl_t sh[2] = {0};
    for (uint32_t k = 0; k < 2 && st == MCAPI_SUCCESS; ++k)
        if (!channel_to(1 + k, SVC_TASK_CH_PORT + k, &sh[k]))
            st = MCAPI_ERR_GENERAL;
    /* groups and contributors (set up once, as at connection time) */
    mcapix_mcast_group_t g, sg;
    mcapix_reduce_tx_t rt;
    mcapix_gather_tx_t gt;
    const uint32_t bases[2] = {0, 4}, sizes[2] = {4, 6};
    if (st == MCAPI_SUCCESS)
        mcapix_mcast_create(&g, me, rx, 3, &st);
    if (st == MCAPI_SUCCESS)
        mcapix_scatter_create_chan(&sg, sh, 2, SVC_SCATTER_COUNT, SVC_SCATTER_WIDTH, bases, sizes,
                                   &st);
    if (st == MCAPI_SUCCESS)
        mcapix_reduce_tx_create(&rt, me, red_root, &st);
    if (st == MCAPI_SUCCESS)
        mcapix_gather_tx_create(&gt, me, gather_root, 9, 0, SVC_GATHER_ROWS, 0, 3, SVC_GATHER_WIDTH,
                                &st);
    d->st_setup = (uint32_t)st;
    if (st != MCAPI_SUCCESS)
        u_exit(2);
    uint8_t buf[1024];                  /* the stack: a task has no global data */
    mcapix_mcast_send(&g, buf, 8, &st); /* before an area is registered */
    EXPECT(d, 30, st, MCAPI_ERR_NOT_SUPPORTED);
    mcapix_cc_area(NULL, 4096, &st);
    EXPECT(d, 31, st, MCAPI_ERR_PARAMETER);
    mcapix_cc_area((void *)0x80001000u, 4096, &st); /* kernel memory */
    EXPECT(d, 32, st, MCAPI_ERR_BUF_INVALID);
    mcapix_cc_area(area, 4096, &st);
    d->st_area = (uint32_t)st;
    (void)sz;

    /* the collectives: the kernel counts system calls between marks 1 and 2 */
    handshake(d, 1);
    static const uint16_t msizes[SVC_MCASTS] = SVC_MCAST_SIZES;
    for (uint32_t m = 0; m + 1 < SVC_MCASTS; ++m) {
        for (uint32_t i = 0; i < msizes[m]; ++i)
            buf[i] = svc_byte(m, i);
        mcapix_mcast_send(&g, buf, msizes[m], &st);
        d->mcasts_ok += st == MCAPI_SUCCESS;
    }
    const uint32_t ok =
        round_of(&g, &sg, &rt, &gt, SVC_MCASTS - 1, msizes[SVC_MCASTS - 1], 7, 0, 9);
    d->mcasts_ok += ok & 1u;
    d->scatter_ok = (ok >> 1) & 1u;
    d->reduce_ok = (ok >> 2) & 1u;
    d->gather_ok = (ok >> 3) & 1u;
    handshake(d, 2);
    /* the kernel moves the task to tile 3 meanwhile (first refused while a collective runs); the
     * second round runs there, and tile 3's kernel counts its system calls between marks 3 and 4 */
    mcapi_endpoint_t held = mcapi_endpoint_get(0, 1, SVC_HOLD_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    if (st == MCAPI_SUCCESS)
        start_held(d, me, held);
    handshake(d, 3);
    finish_held(d);
    d->round2_ok = round_of(&g, &sg, &rt, &gt, SVC_MCASTS, SVC_ROUND2_SIZE, 8, 4, 11) == 0xFu;
    handshake(d, 4);

    misuse(d, me, rx, &g, &sg, sh);
    handshake(d, 5); /* the kernels' receivers are done: finalize */
    mcapi_finalize(&st);
    d->done = 1;
    u_exit(0);
}
