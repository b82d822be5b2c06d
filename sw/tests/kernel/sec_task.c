/* The tasks of the isolation adversaries (sec.h): victims that stream checksummed data with tile 3
 * (and contribute to the collective rounds), short-lived receivers (identity), and the attackers,
 * one per class. Every task runs in U-mode; the attackers use the MCAPI library where it suits
 * them and raw system calls, vif registers and their own buffers' words where it does not. */
#include <stddef.h>
#include <stdint.h>

#include "hal/mmio.h" /* the doorbell: ordered after the payload */
#include "kernel/kconfig.h"
#include "kernel/kernel.h" /* error codes */
#include "kernel/user.h"
#include "mcapi.h"
#include "mcapix_cc.h"
#include "mp/cbuffer.h"
#include "na_registers.h"
#include "namp_cc.h"
#include "sec.h"

#define S       ((mp_task_state_t *)K_USER_DATA)
#define T       ((struct sec_task *)(K_USER_DATA + SEC_CTL_OFFSET))
#define VREG(r) (*(volatile uint32_t *)(S->u.c.vif + (r)))

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static long request(uint32_t op, uint32_t a1, uint32_t a2)
{
    long r;
    while ((r = u_syscall3(K_SYS_MP_REQ, (long)op, (long)a1, (long)a2)) == K_EAGAIN)
        u_sleep(1);
    if (r < 0)
        return r;
    while ((r = u_syscall(K_SYS_MP_RES, 0, 0)) == K_EAGAIN)
        u_sleep(1);
    return r;
}

static uint32_t vid_of(mcapi_endpoint_t h)
{
    return h ? ((const struct mp_task_remote *)h)->vid : 0xFFFFu;
}
static uint32_t kid_of(mcapi_endpoint_t h)
{
    return h ? (uint32_t)((const struct mp_task_ep *)h)->kid : 0xFFu;
}

/* A start through the vif; DONE within `polls` looks, or it is aborted (the task's own slot). */
static uint32_t vif_run(uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3, uint32_t polls)
{
    VREG(NAMP_VIF_PARAM1) = p1;
    VREG(NAMP_VIF_PARAM2) = p2;
    VREG(NAMP_VIF_PARAM3) = p3;
    mmio_write32_release((uintptr_t)&VREG(NAMP_VIF_FLAGS), flags | NAMP_FLAG_VALID);
    for (int round = 0; round < 3; ++round) {
        for (uint32_t i = 0; i < polls; ++i)
            if (VREG(NAMP_VIF_FLAGS) & NAMP_FLAG_DONE) {
                const uint32_t st = VREG(NAMP_VIF_STATUS);
                VREG(NAMP_VIF_FLAGS) = 0;
                return st;
            }
        if (round == 0)
            mmio_write32_release((uintptr_t)&VREG(NAMP_VIF_FLAGS),
                                 (flags & ~NAMP_FLAG_CCM) | NAMP_FLAG_VALID); /* leave CCM */
        else
            VREG(NAMP_VIF_CTRL) = NAMP_SLOT_CTRL_ABORT;
    }
    return 0xFFFFFFFFu;
}

/* Foreign words anywhere in the attacker's own data region (its buffers included): counted and
 * wiped (counted once). */
static uint32_t scan_foreign(void)
{
    volatile uint32_t *w = (volatile uint32_t *)K_USER_DATA;
    uint32_t n = 0;
    for (uint32_t i = 0; i < SEC_DATA_BYTES / 4; ++i)
        if (SEC_IS_FOREIGN(w[i])) {
            ++n;
            w[i] = 0;
        }
    return n;
}

/* A word aimed at someone else: near the task's own buffers, far away, a kernel-looking address. */
static uint32_t evil(uint32_t *s)
{
    switch (rnd(s) % 6) {
    case 0: return rnd(s);
    case 1: return rnd(s) % 64u;
    case 2: return 0x80000000u + (rnd(s) % 0x100000u);
    case 3: return 0xFFFFFFFFu - rnd(s) % 64u;
    case 4: return MP_TASK_PAGE + rnd(s) % 0x4000u;
    default: return 1u << (rnd(s) % 32u);
    }
}

/* ---- victims ---- */

static void fill_msg(uint32_t *m, uint32_t who, uint32_t seq)
{
    m[0] = who;
    m[1] = seq;
    for (uint32_t i = 2; i < SEC_MSG_WORDS; ++i)
        m[i] = sec_word(who, seq, i);
}

static uint32_t msg_bad(const uint32_t *m, uint32_t who, uint32_t seq)
{
    uint32_t bad = m[0] != who || m[1] != seq;
    for (uint32_t i = 2; i < SEC_MSG_WORDS; ++i)
        bad += m[i] != sec_word(who, seq, i);
    return bad;
}

/* The victim: messages to tile 3's sink and from tile 3's feeder, packets from its channel, every
 * word checked; V0 also contributes to the collective rounds (reduction rooted on tile 1, gather
 * part 0 rooted on tile 2) where the kernel says so. */
static void victim(void)
{
    struct sec_task *t = T;
    const uint32_t who = t->who;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, S->u.c.node, NULL, NULL, NULL, &st);
    mcapi_endpoint_t in = mcapi_endpoint_create(SEC_PORT_VIC + who, &st);
    mcapi_endpoint_t chin = mcapi_endpoint_create(SEC_PORT_VIC_CH + who, &st);
    mcapi_endpoint_t sink =
        mcapi_endpoint_get(MCAPI_DOMAIN, 3, SEC_PORT_SINK + who, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_pktchan_recv_hndl_t rh;
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_recv_open_i(&rh, chin, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        t->errors++;
    mcapix_reduce_tx_t rt;
    mcapix_gather_tx_t gt;
    if (t->member) {
        mcapi_endpoint_t red =
            mcapi_endpoint_get(MCAPI_DOMAIN, 1, SEC_PORT_ROOT_RED, MCAPI_TIMEOUT_INFINITE, &st);
        mcapi_endpoint_t gat =
            mcapi_endpoint_get(MCAPI_DOMAIN, 2, SEC_PORT_ROOT_GATHER, MCAPI_TIMEOUT_INFINITE, &st);
        mcapix_reduce_tx_create(&rt, in, red, &st);
        t->errors += st != MCAPI_SUCCESS;
        mcapix_gather_tx_create(&gt, in, gat, 9, 0, 4, 0, 4, 8, &st);
        t->errors += st != MCAPI_SUCCESS;
        mcapix_cc_area((void *)(K_USER_DATA + SEC_CTL_OFFSET + 2048u), 2048u, &st);
        t->errors += st != MCAPI_SUCCESS;
    }
    for (uint32_t i = 0; i < SEC_SECRET_WORDS; ++i)
        t->secret[i] = SEC_VTAG | (0x8000u + who * 0x400u + i);
    while (!t->go)
        u_sleep(1);
    uint32_t m[SEC_MSG_WORDS];
    for (uint32_t seq = 0; seq < t->n_msgs; ++seq) {
        fill_msg(m, who, seq);
        mcapi_msg_send(in, sink, m, sizeof m, 0, &st);
        t->sent += st == MCAPI_SUCCESS;
        t->errors += st != MCAPI_SUCCESS;
        /* its connection-less endpoint takes messages from whoever looked it up: the feeder's
         * are those in its format, every one of them once, in order, intact */
        for (;;) {
            mcapi_msg_recv(in, m, sizeof m, &sz, &st);
            if (st == MCAPI_SUCCESS && sz == sizeof m && m[0] == 2 + who &&
                (m[2] & 0xFFFF0000u) == SEC_VTAG)
                break;
            t->refused++; /* someone else's */
        }
        t->bad += msg_bad(m, 2 + who, seq);
        t->received++;
        void *pkt;
        mcapi_pktchan_recv(rh, &pkt, &sz, &st);
        if (st == MCAPI_SUCCESS) {
            t->bad += sz != sizeof m || msg_bad((const uint32_t *)pkt, 4 + who, seq);
            t->received++;
            mcapi_pktchan_release(pkt, &st);
        } else {
            t->bad++;
        }
        if (t->member && seq < SEC_ROUNDS) { /* one round of each collective */
            int32_t vec[SEC_RED_WORDS];
            for (uint32_t i = 0; i < SEC_RED_WORDS; ++i)
                vec[i] = sec_red(0, seq, i);
            mcapix_reduce_send(&rt, MCAPIX_OP_SUM, MCAPIX_T_INT32, vec, sizeof vec, &st);
            t->errors += st != MCAPI_SUCCESS;
            uint8_t part[16];
            for (uint32_t i = 0; i < sizeof part; ++i)
                part[i] = (uint8_t)(seq * 3u + i);
            mcapix_gather_send(&gt, part, &st);
            t->errors += st != MCAPI_SUCCESS;
            t->rounds++;
        }
        t->heartbeat++;
    }
    t->done = 1;
    while (!t->stop) { /* alive, and seen to be scheduled, until the attack is over */
        t->heartbeat++;
        u_sleep(1);
    }
    u_exit(0);
}

/* Identity: receiver instance `who` takes messages on port SEC_PORT_RECV + who until the kernel
 * kills it; every message must be addressed to this instance. */
static void receiver(void)
{
    struct sec_task *t = T;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, S->u.c.node, NULL, NULL, NULL, &st);
    mcapi_endpoint_t in = mcapi_endpoint_create(SEC_PORT_RECV + t->who, &st);
    t->errors += st != MCAPI_SUCCESS;
    t->done = 1; /* the port is there (errors: it was not) */
    for (;;) {
        if (t->stop == 2)
            *(volatile uint32_t *)0 = 0; /* the kernel's kill: a fault */
        uint32_t m[SEC_MSG_WORDS];
        size_t sz;
        if (mcapi_msg_available(in, &st) == 0) {
            u_sleep(1);
            continue;
        }
        mcapi_msg_recv(in, m, sizeof m, &sz, &st);
        if (st != MCAPI_SUCCESS)
            continue;
        t->received++;
        t->bad += sz != sizeof m || m[0] != 0x100u + t->who || msg_bad(m, m[0], m[1]) != 0;
        t->heartbeat++;
    }
}

/* ---- attackers ---- */

/* Class SEC_HEADERS: its receive buffers' and send buffer's header words, indices and size words,
 * random, over and over, while its kernel moves it between tiles (and its feeder keeps sending). */
static void attack_headers(uint32_t *s)
{
    struct sec_task *t = T;
    mcapi_status_t st;
    const int chan_only = t->cls == SEC_HEADERS_SW;
    mcapi_endpoint_t e0 = chan_only ? NULL : mcapi_endpoint_create(SEC_PORT_ATT, &st);
    mcapi_endpoint_t e1 = mcapi_endpoint_create(SEC_PORT_ATT + 1, &st);
    mcapi_pktchan_recv_hndl_t rh = NULL;
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_recv_open_i(&rh, e1, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    t->errors += st != MCAPI_SUCCESS;
    (void)e0;
    t->done = 1; /* set up: the feeder and the moves begin */
    while (!t->go)
        u_sleep(1);
    for (uint32_t it = 0; it < t->iterations && !t->stop; ++it) {
        const uint32_t which = chan_only ? 1 + rnd(s) % 2 : rnd(s) % 3;
        volatile uint32_t *b = (volatile uint32_t *)(which == 2 ? S->tx : S->rx[which]);
        const uint32_t n = which == 2 ? MP_TASK_TX_N : MP_TASK_RX_N;
        switch (rnd(s) % 6) {
        case 0: /* a header word: geometry, offsets, indices */
            b[rnd(s) % (MP_CB_HEADER_SIZE / 4)] = evil(s);
            break;
        case 1: /* the indices, far apart */
            ((volatile mp_cbuffer_t *)b)->rd_idx = evil(s);
            ((volatile mp_cbuffer_t *)b)->wr_idx = evil(s);
            break;
        case 2: /* size words: committed, any size */
            for (uint32_t k = 0; k < (1u << n); ++k)
                b[MP_CB_HEADER_SIZE / 4 + k] =
                    MP_CB_COMMITTED | (rnd(s) % 2 ? evil(s) : rnd(s) % 0x10000u);
            break;
        case 3:
            if (chan_only) { /* a packet through its library, the buffer as created first */
                void *pkt;
                mp_cbuffer_init((mp_cbuffer_t *)S->rx[1], MP_TASK_RX_N, MP_TASK_RX_M, 0);
                if (mcapi_pktchan_available(rh, &st) > 0) {
                    mcapi_pktchan_recv(rh, &pkt, &sz, &st);
                    if (st == MCAPI_SUCCESS) {
                        t->accepted++;
                        mcapi_pktchan_release(pkt, &st);
                    }
                }
                break;
            }
            /* a receive through its library: the buffer's header as created first (the
             * library trusts its own task's words: reading them as written would kill
             * the attacker, not anyone else); waited for a while only */
            {
                uint32_t m[SEC_MSG_WORDS]; /* a task has no static data: its stack */
                mcapi_request_t rr;
                mp_cbuffer_init((mp_cbuffer_t *)S->rx[0], MP_TASK_RX_N, MP_TASK_RX_M, 0);
                mcapi_msg_recv_i(e0, m, sizeof m, &rr, &st);
                if (st == MCAPI_SUCCESS || st == MCAPI_PENDING) {
                    mcapi_wait(&rr, &sz, 2000, &st);
                    if (st == MCAPI_TIMEOUT)
                        mcapi_cancel(&rr, &st);
                    else
                        t->accepted += st == MCAPI_SUCCESS;
                }
                break;
            }
        case 4: /* the buffers as created again (its own data: nobody else's business) */
            mp_cbuffer_init((mp_cbuffer_t *)b, n, which == 2 ? MP_TASK_TX_M : MP_TASK_RX_M, 0);
            break;
        default:
            u_sleep(rnd(s) % 2); /* a kernel wait: the move takes it here or elsewhere */
            break;
        }
        t->foreign += scan_foreign();
        t->iters++;
    }
}

/* One raw request with random (and some plausible) arguments of every operation. */
static long random_request(uint32_t *s, const uint32_t *vids, uint32_t nvids, const uint32_t *kids,
                           uint32_t nkids)
{
    const uint32_t op = 1 + rnd(s) % (MP_TASK_OP_LAST + 1);
    uint32_t a1 = rnd(s), a2 = rnd(s);
    const uint32_t pick = rnd(s) % 4;
    switch (op) {
    case MP_TASK_OP_CREATE:
        a1 = pick == 0 ? K_PORT_KERNEL_FIRST + rnd(s) % 256 : SEC_PORT_ATT + rnd(s) % 8;
        a2 = pick == 1 ? rnd(s) : rnd(s) % MP_TASK_EPS;
        break;
    case MP_TASK_OP_DELETE:
    case MP_TASK_OP_SEND_OPEN:
    case MP_TASK_OP_RECV_OPEN:
        a1 = pick ? kids[rnd(s) % nkids] : rnd(s) % 32; /* its own, another task's, any */
        break;
    case MP_TASK_OP_GET:
        a1 = pick ? rnd(s) % 4 : rnd(s);
        a2 = pick == 1   ? K_PORT_KERNEL_FIRST + 0x4D
             : pick == 2 ? SEC_PORT_VIC + rnd(s) % 4
                         : rnd(s) % 128;
        break;
    case MP_TASK_OP_CONNECT:
        a1 = kids[rnd(s) % nkids];
        a2 = pick ? vids[rnd(s) % nvids] : rnd(s) % 32;
        break;
    case MP_TASK_OP_MEMBER_HANDLE:
        a1 = pick ? vids[rnd(s) % nvids] : rnd(s) % 32;
        a2 = MP_TASK_MEMBER(kids[rnd(s) % nkids], pick == 1 ? rnd(s) % 32 : 9,
                            pick == 2    ? rnd(s)
                            : rnd(s) % 2 ? NAMP_CC_K_REDUCE
                                         : NAMP_CC_K_GATHER);
        break;
    case MP_TASK_OP_CC_AREA:
        a1 = pick ? K_USER_DATA + 4u * (rnd(s) % 0x2000u) : evil(s);
        a2 = pick == 1 ? rnd(s) : 4u * (rnd(s) % 0x800u);
        break;
    default: break;
    }
    long r = u_syscall3(K_SYS_MP_REQ, (long)op, (long)a1, (long)a2);
    if (r != K_OK)
        return r;
    while ((r = u_syscall(K_SYS_MP_RES, 0, 0)) == K_EAGAIN)
        u_sleep(1);
    return r;
}

/* Random vif starts: every flag, vIDs of every kind and none, collectives with random members and
 * descriptors in the area, and system-call sends. */
static void random_start(uint32_t *s, uint32_t area_vid, const uint32_t *vids, uint32_t nvids)
{
    struct sec_task *t = T;
    volatile uint32_t *area = (volatile uint32_t *)(K_USER_DATA + SEC_CTL_OFFSET + 2048u);
    uint32_t flags = rnd(s) % 3 ? NAMP_FLAG_BUF : (rnd(s) & 0x1FFu);
    uint32_t p1 = rnd(s) % 4 ? vids[rnd(s) % nvids] : rnd(s),
             p2 = rnd(s) % 2 ? S->u.c.tx_vid : rnd(s) % 32;
    uint32_t p3 = rnd(s) % 8;
    if (rnd(s) % 3 == 0 && area_vid < K_VIF_ET_MAX) { /* a collective in the area */
        const uint32_t num = 1 + rnd(s) % 4;
        static const uint32_t kinds[] = {NAMP_CC_K_MULTICAST, NAMP_CC_K_REDUCE, NAMP_CC_K_GATHER,
                                         NAMP_CC_K_SCATTER};
        const uint32_t k = kinds[rnd(s) % 4];
        area[0] = k == NAMP_CC_K_GATHER    ? NAMP_CC_GATHER_WORD(1 + rnd(s) % 4, rnd(s) % 16)
                  : k == NAMP_CC_K_REDUCE  ? NAMP_CC_KIND_WORD(k, rnd(s) % 8, rnd(s) % 6)
                  : k == NAMP_CC_K_SCATTER ? NAMP_CC_SCATTER_WORD(1 + rnd(s) % 4)
                                           : k;
        area[1] = num;
        area[3] = rnd(s) % 4 ? rnd(s) % 8 : rnd(s); /* id (the honest ones are small) / stride */
        for (uint32_t i = 0; i < num; ++i) {
            area[4 + 4 * i] = rnd(s) % 4 ? vids[rnd(s) % nvids] : rnd(s);
            area[6 + 4 * i] = rnd(s) % 64;
            area[7 + 4 * i] = 1 + rnd(s) % 16;
        }
        area[NAMP_CC_GATHER_STRIDE / 4] = rnd(s) % 32;
        flags = NAMP_FLAG_CC |
                (k == NAMP_CC_K_GATHER || k == NAMP_CC_K_SCATTER || rnd(s) % 8 == 0 ? NAMP_FLAG_CON
                                                                                    : 0u);
        p1 = NAMP_VIF_CC_PARAM1(area_vid, 0);
        p2 = 0x200u;
        p3 = 4u * (1u + rnd(s) % 16u);
        for (uint32_t i = 0; i < p3 / 4; ++i)
            area[0x80 + i] = rnd(s) & 0x7FFFFFFFu & ~0x0FFF0000u; /* never a tag */
    } else if (rnd(s) % 8 == 0) { /* the system-call send of the software baseline */
        const long rc = u_namp_send(p1, (const void *)(K_USER_DATA + SEC_CTL_OFFSET + 2048u),
                                    4u * (1u + rnd(s) % 32u));
        t->accepted += rc == K_OK;
        t->refused += rc != K_OK;
        return;
    } else if (flags & NAMP_FLAG_BUF) { /* a message in its send buffer first */
        mp_cbuffer_t *tx = (mp_cbuffer_t *)S->tx;
        uint32_t idx;
        if (mp_cbuffer_reserve(tx, &idx) == 0) {
            mp_cbuffer_commit(tx, idx, 4u * (1u + rnd(s) % 32u));
            p3 = idx;
        }
    }
    const uint32_t stv = vif_run(flags, p1, p2, p3, 3000);
    if (stv == 0xFFFFFFFFu || (stv & NAMP_STATUS_ERROR))
        t->refused++;
    else
        t->accepted++;
    t->codes[stv & NAMP_STATUS_ERROR ? (NAMP_STATUS_CODE(stv) >= 0x20 ? 1 : 2) : 0]++;
    mp_cbuffer_init((mp_cbuffer_t *)S->tx, MP_TASK_TX_N, MP_TASK_TX_M, 0); /* its own again */
}

/* Classes SEC_DROP and SEC_CLAIMS: objects made, used and dropped by random requests (DROP: while
 * it is migrated; CLAIMS: with every argument random, beside the victims and the roots). */
static void attack_requests(uint32_t *s, int starts)
{
    struct sec_task *t = T;
    mcapi_status_t st;
    mcapi_endpoint_t own = mcapi_endpoint_create(SEC_PORT_ATT + (t->who & 3u), &st);
    uint32_t vids[12], kids[4];
    uint32_t nv = 0;
    vids[nv++] = S->u.c.tx_vid;
    for (uint32_t k = 0; k < 4; ++k) { /* lookups of the victims' and roots' ports */
        mcapi_endpoint_t h = mcapi_endpoint_get(MCAPI_DOMAIN, k,
                                                k < 2    ? SEC_PORT_VIC + k
                                                : k == 2 ? SEC_PORT_ROOT_GATHER
                                                         : SEC_PORT_SINK,
                                                20000, &st);
        if (st == MCAPI_SUCCESS)
            vids[nv++] = vid_of(h);
    }
    kids[0] = kid_of(own);
    kids[1] = t->peer_tile[0]; /* another task's kernel index (the kernel put it here) */
    kids[2] = 0;
    kids[3] = 15;
    const long area = request(MP_TASK_OP_CC_AREA, K_USER_DATA + SEC_CTL_OFFSET + 2048u, 2048u);
    vids[nv++] = area >= 0 ? (uint32_t)area : 0;
    const long mh =
        request(MP_TASK_OP_MEMBER_HANDLE, vids[1], MP_TASK_MEMBER(kids[0], 0, NAMP_CC_K_REDUCE));
    vids[nv++] = mh >= 0 ? (uint32_t)mh : 1;
    vids[nv++] = 0x7FFu;
    t->done = 1;
    while (!t->go)
        u_sleep(1);
    for (uint32_t it = 0; it < t->iterations && !t->stop; ++it) {
        if (!starts || rnd(s) % 3 == 0) {
            const long r = random_request(s, vids, nv, kids, 4);
            if (r >= 0) {
                t->accepted++;
                if (r < (long)K_VIF_ET_MAX && nv < 12)
                    vids[nv++] = (uint32_t)r; /* a new vID: used in later attacks */
            } else {
                t->refused++;
            }
        } else {
            random_start(s, area >= 0 ? (uint32_t)area : 0xFFFFu, vids, nv);
        }
        t->foreign += scan_foreign();
        t->iters++;
    }
}

/* Class SEC_IDENTITY: endpoints made and deleted as fast as the kernel allows, on the ports of
 * the receivers the kernel kills (their memory is taken again), waiting for a message meant for
 * one of them. */
static void attack_identity(uint32_t *s)
{
    struct sec_task *t = T;
    mcapi_status_t st;
    t->done = 1;
    while (!t->go)
        u_sleep(1);
    mcapi_endpoint_t mine[MP_TASK_EPS] = {0};
    for (uint32_t it = 0; it < t->iterations && !t->stop; ++it) {
        const uint32_t k = rnd(s) % MP_TASK_EPS;
        if (mine[k]) {
            uint32_t m[SEC_MSG_WORDS];
            size_t sz;
            while (mcapi_msg_available(mine[k], &st) > 0) { /* anything for it: foreign */
                mcapi_msg_recv(mine[k], m, sizeof m, &sz, &st);
                if (st == MCAPI_SUCCESS) {
                    t->received++;
                    t->foreign += sz / 4;
                }
            }
            mcapi_endpoint_delete(mine[k], &st);
            mine[k] = NULL;
        } else {
            mine[k] = mcapi_endpoint_create(SEC_PORT_RECV + rnd(s) % SEC_RECEIVERS, &st);
            t->accepted += st == MCAPI_SUCCESS;
            t->refused += st != MCAPI_SUCCESS;
            if (st != MCAPI_SUCCESS)
                mine[k] = NULL;
        }
        t->foreign += scan_foreign();
        t->iters++;
        if (rnd(s) % 4 == 0)
            u_sleep(1);
    }
}

/* Class SEC_COLLECTIVE: contributions to the honest roots under random (and the honest) ids, gather
 * parts under every part index, through its own member handles, lookups and everything else. */
static void attack_collective(uint32_t *s)
{
    struct sec_task *t = T;
    mcapi_status_t st;
    mcapi_endpoint_t own = mcapi_endpoint_create(SEC_PORT_ATT + (t->who & 3u), &st);
    mcapi_endpoint_t red =
        mcapi_endpoint_get(MCAPI_DOMAIN, 1, SEC_PORT_ROOT_RED, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_endpoint_t gat =
        mcapi_endpoint_get(MCAPI_DOMAIN, 2, SEC_PORT_ROOT_GATHER, MCAPI_TIMEOUT_INFINITE, &st);
    const long area = request(MP_TASK_OP_CC_AREA, K_USER_DATA + SEC_CTL_OFFSET + 2048u, 2048u);
    const uint32_t vids[6] = {vid_of(red),
                              vid_of(gat),
                              (uint32_t)request(MP_TASK_OP_MEMBER_HANDLE, vid_of(red),
                                                MP_TASK_MEMBER(kid_of(own), 0, NAMP_CC_K_REDUCE)),
                              (uint32_t)request(MP_TASK_OP_MEMBER_HANDLE, vid_of(gat),
                                                MP_TASK_MEMBER(kid_of(own), 9, NAMP_CC_K_GATHER)),
                              (uint32_t)request(MP_TASK_OP_MEMBER_HANDLE, vid_of(gat),
                                                MP_TASK_MEMBER(kid_of(own), 9, NAMP_CC_K_REDUCE)),
                              S->u.c.tx_vid};
    t->done = 1;
    while (!t->go)
        u_sleep(1);
    volatile uint32_t *a = (volatile uint32_t *)(K_USER_DATA + SEC_CTL_OFFSET + 2048u);
    for (uint32_t it = 0; it < t->iterations && !t->stop; ++it) {
        const int gather = rnd(s) % 2;
        const uint32_t id = rnd(s) % 3 ? 1 + rnd(s) % (SEC_ROUNDS + 2) : rnd(s);
        a[0] = gather
                   ? NAMP_CC_GATHER_WORD(rnd(s) % 3 ? 4 : 1 + rnd(s) % 8,
                                         rnd(s) % 3 ? rnd(s) % 2 : rnd(s) % 16)
                   : NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, rnd(s) % 3 ? NAMP_CC_OP_SUM : rnd(s) % 8,
                                       rnd(s) % 3 ? NAMP_CC_T_INT32 : rnd(s) % 6);
        a[1] = 1;
        a[2] = 0;
        a[3] = id;
        a[4] = vids[rnd(s) % 4 ? 2u + (uint32_t)gather : rnd(s) % 6u];
        a[6] = gather ? (rnd(s) % 3 ? 0 : rnd(s) % 16) : 0;
        a[7] = gather ? 4 : 0;
        a[NAMP_CC_GATHER_STRIDE / 4] = 8;
        const uint32_t bytes = gather ? 16u : 4u * SEC_RED_WORDS;
        for (uint32_t i = 0; i < bytes / 4; ++i)
            a[0x80 + i] = 0x01010101u * (1u + rnd(s) % 100u); /* would spoil any sum it reached */
        const uint32_t stv =
            vif_run(NAMP_FLAG_CC | (gather ? NAMP_FLAG_CON : 0u),
                    NAMP_VIF_CC_PARAM1(area >= 0 ? (uint32_t)area : 0, 0), 0x200u, bytes, 20000);
        const uint32_t mcode = NAMP_CC_MSTAT_CODE(a[NAMP_CC_MEMBER(0) / 4 + 1]);
        if (stv == 0xFFFFFFFFu || (stv & NAMP_STATUS_ERROR))
            t->refused++;
        else
            t->accepted++; /* reached a root: the kernel's check of the rounds says whether it counted */
        t->codes[mcode == NAMP_ERR_NOT_MEMBER ? 0 : mcode >= 0x20 ? 1 : mcode ? 2 : 3]++;
        t->foreign += scan_foreign();
        t->iters++;
    }
}

/* Class SEC_QUOTA: every shared table, as fast as it goes: endpoints, lookups (of ports that exist
 * and of ports that never will: each a millisecond of the kernel's service), member handles,
 * areas, channel opens on any endpoint index, requests abandoned by ending with one under way. */
static void attack_quota(uint32_t *s)
{
    struct sec_task *t = T;
    t->done = 1;
    while (!t->go)
        u_sleep(1);
    for (uint32_t it = 0; it < t->iterations && !t->stop; ++it) {
        const uint32_t what = rnd(s) % 6;
        long r;
        if (what == 0)
            r = request(MP_TASK_OP_CREATE, SEC_PORT_ATT + rnd(s) % 256, rnd(s) % MP_TASK_EPS);
        else if (what == 1)
            r = request(MP_TASK_OP_GET, rnd(s) % 4,
                        rnd(s) % 2 ? SEC_PORT_VIC + rnd(s) % 2 : 0x300 + rnd(s) % 256);
        else if (what == 2)
            r = request(MP_TASK_OP_MEMBER_HANDLE, rnd(s) % 16,
                        MP_TASK_MEMBER(rnd(s) % 16, 0, NAMP_CC_K_REDUCE));
        else if (what == 3)
            r = request(MP_TASK_OP_CC_AREA, K_USER_DATA + SEC_CTL_OFFSET + 2048u, 2048u);
        else if (what == 4)
            r = u_syscall3(K_SYS_MP_REQ, MP_TASK_OP_GET, 3,
                           (long)(0x400u + rnd(s) % 64u)); /* never collected */
        else /* channel opens with the handle quota full: refused before anything opens */
            r = request(rnd(s) % 2 ? MP_TASK_OP_SEND_OPEN : MP_TASK_OP_RECV_OPEN, rnd(s) % 32, 0);
        if (r >= 0)
            t->accepted++;
        else
            t->refused++;
        t->foreign += scan_foreign();
        t->iters++;
    }
}

static void attacker(void)
{
    struct sec_task *t = T;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, S->u.c.node, NULL, NULL, NULL, &st);
    uint32_t s = t->seed | 1u;
    switch (t->cls) {
    case SEC_HEADERS:
    case SEC_HEADERS_SW: attack_headers(&s); break;
    case SEC_DROP: attack_requests(&s, 0); break;
    case SEC_CLAIMS: attack_requests(&s, 1); break;
    case SEC_IDENTITY: attack_identity(&s); break;
    case SEC_COLLECTIVE: attack_collective(&s); break;
    default: attack_quota(&s); break;
    }
    t->done = 2;
    while (!t->stop)
        u_sleep(1);
    u_exit(0);
}

void sec_task_main(void *arg)
{
    (void)arg;
    switch (T->role) {
    case SEC_VICTIM: victim(); break;
    case SEC_RECEIVER: receiver(); break;
    default: attacker(); break;
    }
    u_exit(1);
}
