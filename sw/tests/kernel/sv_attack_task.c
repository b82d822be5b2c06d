/* The tasks of the NAMP-SV isolation tests (sv_attack.h). They run in U-mode and touch only their
 * own pages, their vif page and the shared text; the attacker writes whatever it likes into its own
 * send and receive buffers' headers and its vif, as a hostile task would. */
#include <stddef.h>
#include <stdint.h>

#include "hal/mmio.h"      /* the doorbell: ordered after the payload */
#include "kernel/kernel.h" /* error codes */
#include "kernel/user.h"
#include "mcapi.h"
#include "mp/cbuffer.h"
#include "na_registers.h"
#include "namp_cc.h"
#include "sv_attack.h"
#include "tile_memory_map.h"

#define S       ((mp_task_state_t *)K_USER_DATA)
#define T       ((struct sva_task *)(K_USER_DATA + SVA_CTL_OFFSET))
#define VREG(r) (*(volatile uint32_t *)(S->u.c.vif + (r)))
#define TX      ((mp_cbuffer_t *)S->tx)
#define RX      ((mp_cbuffer_t *)S->rx[0])
#define RUNNING 0xFFFFFFFFu

static uint32_t code_of(uint32_t st) { return st & NAMP_STATUS_ERROR ? NAMP_STATUS_CODE(st) : 0u; }

/* A start through the vif; waits for DONE (at most `polls` reads), acknowledges; a transfer that
 * keeps going (CCM, a credit wait) is left (CCM), then aborted through the vif; RUNNING if even
 * that did not end it. */
static uint32_t vif_run(uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3, uint32_t polls)
{
    VREG(NAMP_VIF_PARAM1) = p1;
    VREG(NAMP_VIF_PARAM2) = p2;
    VREG(NAMP_VIF_PARAM3) = p3;
    mmio_write32_release((uintptr_t)&VREG(NAMP_VIF_FLAGS), flags | NAMP_FLAG_VALID);
    for (int round = 0; round < 3; ++round) {
        for (uint32_t i = 0; i < polls; ++i)
            if (VREG(NAMP_VIF_FLAGS) & NAMP_FLAG_DONE) {
                uint32_t st = VREG(NAMP_VIF_STATUS);
                VREG(NAMP_VIF_FLAGS) = 0;
                return st;
            }
        if (round == 0)
            mmio_write32_release((uintptr_t)&VREG(NAMP_VIF_FLAGS),
                                 (flags & ~NAMP_FLAG_CCM) | NAMP_FLAG_VALID); /* leave CCM */
        else
            VREG(NAMP_VIF_CTRL) = NAMP_SLOT_CTRL_ABORT;
    }
    return RUNNING;
}

/* Commits a message of `bytes` (words pattern ^ i, never a secret) at wr_idx of the send buffer,
 * written where mp_cbuffer_init put the elements (the header may say anything by now: the task
 * itself never follows it); returns the index. */
static uint32_t tx_message(uint32_t bytes, uint32_t pattern)
{
    const uint32_t n = MP_TASK_TX_N, m = MP_TASK_TX_M;
    const uint32_t wr = TX->wr_idx, k = wr & ((1u << n) - 1u);
    uint32_t *w = (uint32_t *)(S->tx + MP_CB_HEADER_SIZE + (4u << n) + (k << m));
    for (uint32_t i = 0; i < bytes / 4 && i < (1u << m) / 4; ++i)
        w[i] = (pattern ^ i) & 0x7FFFFFFFu;
    ((volatile uint32_t *)(S->tx + MP_CB_HEADER_SIZE))[k] = MP_CB_COMMITTED | bytes;
    TX->wr_idx = wr + 1;
    return wr;
}

static void reset_buffers(void)
{
    mp_cbuffer_init(TX, MP_TASK_TX_N, MP_TASK_TX_M, 0);
    mp_cbuffer_init(RX, MP_TASK_RX_N, MP_TASK_RX_M, 0);
}

/* Secret words anywhere in the receive buffer's data (what the adapter may have brought in). */
static uint32_t secrets_in_rx(void)
{
    const uint32_t *w = (const uint32_t *)(S->rx[0] + MP_CB_HEADER_SIZE + (4u << MP_TASK_RX_N));
    uint32_t n = 0;
    for (uint32_t i = 0; i < ((1u << (MP_TASK_RX_N + MP_TASK_RX_M)) / 4); ++i)
        n += SVA_IS_SECRET(w[i]);
    return n;
}

static uint32_t vid_of(mcapi_endpoint_t h)
{
    return h ? ((const struct mp_task_remote *)h)->vid : 0xFFFFu;
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

/* ---- the named attacks ---- */

static void attacker(void)
{
    struct sva_task *t = T;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, S->u.c.node, NULL, NULL, NULL, &st);
    (void)mcapi_endpoint_create(SVA_ATTACKER_PORT, &st);
    const uint32_t self =
        vid_of(mcapi_endpoint_get(MCAPI_DOMAIN, S->u.c.node, SVA_ATTACKER_PORT, 100000, &st));
    const uint32_t peer = vid_of(mcapi_endpoint_get(MCAPI_DOMAIN, 1, SVA_PEER_PORT, 100000, &st));
    const uint32_t victim =
        vid_of(mcapi_endpoint_get(MCAPI_DOMAIN, S->u.c.node, SVA_VICTIM_PORT, 100000, &st));
    const uint32_t txv = S->u.c.tx_vid;
    uint32_t idx;

    /* B1, B2: the send element's data at kernel / victim memory, sent to itself */
    const uint32_t data_targets[2] = {t->kernel_secret, t->victim_secret};
    for (int k = 0; k < 2; ++k) {
        reset_buffers();
        idx = tx_message(64, 0x1000u + (uint32_t)k);
        TX->data_offset = data_targets[k] - t->tx_pa;
        t->result[B1_DATA_AT_KERNEL + k] = code_of(vif_run(NAMP_FLAG_BUF, self, txv, idx, 100000));
        u_sleep(1);
        t->secrets_seen += secrets_in_rx();
    }
    /* B3: the size word at a kernel word with bit 31 set */
    reset_buffers();
    idx = tx_message(16, 0x3000);
    TX->size_offset = t->kernel_word - t->tx_pa - 4u * (idx & ((1u << MP_TASK_TX_N) - 1u));
    t->result[B3_SIZE_AT_KERNEL] = code_of(vif_run(NAMP_FLAG_BUF, self, txv, idx, 100000));
    /* B4, B5: its own receive buffer's data at kernel / victim memory */
    for (int k = 0; k < 2; ++k) {
        reset_buffers();
        RX->data_offset = data_targets[k] - t->rx_pa;
        idx = tx_message(64, 0x4000u + (uint32_t)k);
        t->result[B4_RX_DATA_AT_KERNEL + k] =
            code_of(vif_run(NAMP_FLAG_BUF, self, txv, idx, 100000));
    }
    reset_buffers();
    /* B6, B7: credit mode on message handles (its own endpoint's, tile 1's kernel endpoint's) */
    t->result[B6_COM_OWN_HANDLE] = code_of(vif_run(NAMP_FLAG_COM, self, 0x1000, 0, 100000));
    t->result[B6_REVOKE_OWN_HANDLE] =
        code_of(vif_run(NAMP_FLAG_COM, self, 0, NAMP_COM_F_REVOKE, 100000));
    t->result[B7_COM_REMOTE_KERNEL] = code_of(vif_run(NAMP_FLAG_COM, peer, 0x40, 0, 100000));
    /* B9: its own vif page as a system call's buffer */
    t->result[B9_WRITE_VIF_PAGE] = (uint32_t)u_write((const char *)S->u.c.vif, 16);
    t->result[B9_SEND_VIF_PAGE] = (uint32_t)u_namp_send(peer, (const void *)S->u.c.vif, 16);

    /* the holds: refusals by status */
    idx = tx_message(16, 0x5000);
    t->result[H_BAD_VID] = code_of(vif_run(NAMP_FLAG_BUF, 15, txv, idx, 100000));
    t->result[H_BUF0] = code_of(vif_run(0, peer, 0, 4, 100000));
    t->result[H_CC_FLAG] = code_of(vif_run(NAMP_FLAG_BUF | NAMP_FLAG_CC, peer, txv, idx, 100000));
    t->result[H_RESERVED_FLAG] =
        code_of(vif_run(NAMP_FLAG_BUF | (1u << 12), peer, txv, idx, 100000));
    t->result[H_WRONG_KIND] = code_of(vif_run(NAMP_FLAG_BUF, txv, txv, idx, 100000));
    reset_buffers();
    idx = tx_message(1024, 0x6000); /* the victim's elements are 512 bytes */
    t->result[H_TOO_LARGE] = code_of(vif_run(NAMP_FLAG_BUF, victim, txv, idx, 100000));
    t->result[H_WRITE_KERNEL_PTR] = (uint32_t)u_write((const char *)t->kernel_secret, 16);
    t->result[H_SEND_BAD_VID] = (uint32_t)u_namp_send(99, t, 16);
    t->result[H_SEND_KERNEL_PTR] = (uint32_t)u_namp_send(peer, (const void *)t->kernel_secret, 16);
    t->result[H_REQ_BAD_OP] = (uint32_t)u_syscall3(K_SYS_MP_REQ, 99, 0, 0);
    /* every kernel endpoint index but its own is someone else's: deleting one is refused */
    uint32_t refused = 0;
    for (uint32_t kid = 0; kid < 16; ++kid)
        if ((int32_t)kid != S->u.c.ep[0].kid)
            refused += request(MP_TASK_OP_DELETE, kid, 0) == MP_TASK_ERR(MCAPI_ERR_ENDP_INVALID);
    t->result[H_REQ_FOREIGN_KID] = refused;
    t->result[H_OSQM_BAD_SLOT] = (uint32_t)u_syscall(K_SYS_OSQM_WAIT, (long)(t->own_slot ^ 1u), 0);
    /* after it all: an honest message to itself arrives intact */
    reset_buffers();
    idx = tx_message(64, 0x7000);
    uint32_t code = code_of(vif_run(NAMP_FLAG_BUF, self, txv, idx, 100000));
    uint32_t got[16], size = 0;
    for (int i = 0; i < 100 && mp_cbuffer_pop(RX, got, sizeof got, &size) != 0; ++i)
        u_sleep(1);
    uint32_t intact = size == 64;
    for (uint32_t i = 0; i < 16; ++i)
        intact &= got[i] == ((0x7000u ^ i) & 0x7FFFFFFFu);
    t->result[H_SELF_SEND_OK] = code | (intact ? 0u : 0x100u);
    t->secrets_seen += secrets_in_rx();
}

/* ---- the randomized adversary ---- */

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* A header word an attacker would try: garbage, boundaries, kernel, victim, device addresses. */
static uint32_t evil(uint32_t *s, uint32_t base)
{
    struct sva_task *t = T;
    switch (rnd(s) % 10) {
    case 0: return rnd(s);
    case 1: return rnd(s) % 64;
    case 2: return MP_TASK_PAGE - rnd(s) % 64;
    case 3: return MP_TASK_PAGE + rnd(s) % 64;
    case 4: return t->kernel_secret - base + 4 * (rnd(s) % 64);
    case 5: return t->victim_secret - base + 4 * (rnd(s) % 64);
    case 6: return t->kernel_word - base - 4 * (rnd(s) % 4);
    case 7: return TILE_CONSOLE_BASE - base;
    case 8: return (uint32_t) - (int32_t)(4 * (rnd(s) % 64));
    default: return MP_CB_HEADER_SIZE + 4 * (rnd(s) % 64);
    }
}

/* A collective through the vif (kind 4): a descriptor written at a random place of its collective
 * area (its send buffer's page) with random kind, count and members (vIDs of every kind, physical
 * addresses of kernel and victim memory, garbage), random bases, sizes and strides, and random
 * area vID, descriptor offset, data offset and size in PARAM1..3. */
static void cc_attack(uint32_t *s, const uint32_t *vids, uint32_t nvids, uint32_t *flags,
                      uint32_t *p1, uint32_t *p2, uint32_t *p3)
{
    struct sva_task *t = T;
    volatile uint32_t *page = (volatile uint32_t *)S->tx;
    const uint32_t off = rnd(s) % 4 == 0 ? evil(s, t->tx_pa) & ~3u : 4u * (rnd(s) % 64u);
    static const uint32_t kinds[] = {
        NAMP_CC_K_MULTICAST, NAMP_CC_SCATTER_WORD(3), NAMP_CC_GATHER_WORD(2, 1),
        NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_T_INT32)};
    uint32_t desc[NAMP_CC_SIZE(NAMP_CC_MAX_MEMBERS) / 4 + 1];
    desc[NAMP_CC_KIND / 4] = rnd(s) % 8 == 0 ? rnd(s) : kinds[rnd(s) % 4];
    desc[NAMP_CC_NUM / 4] = rnd(s) % 4 == 0 ? rnd(s) % 20u : 1u + rnd(s) % 4u;
    desc[NAMP_CC_RESULT / 4] = rnd(s);
    desc[NAMP_CC_ID / 4] = rnd(s) % 2 ? rnd(s) % 64u : evil(s, 0);
    for (uint32_t i = 0; i < NAMP_CC_MAX_MEMBERS; ++i) {
        uint32_t *m = &desc[NAMP_CC_MEMBER(i) / 4];
        switch (rnd(s) % 6) {
        case 0: m[0] = rnd(s); break;
        case 1: m[0] = t->kernel_secret; break; /* a handle the task would forge there */
        case 2: m[0] = t->victim_secret; break;
        default: m[0] = vids[rnd(s) % nvids]; break;
        }
        m[1] = rnd(s);
        m[2] = rnd(s) % 2 ? rnd(s) % 64u : evil(s, 0);
        m[3] = rnd(s) % 2 ? 1u + rnd(s) % 64u : evil(s, 0);
    }
    desc[NAMP_CC_SIZE(NAMP_CC_MAX_MEMBERS) / 4] = rnd(s) % 2 ? rnd(s) % 64u : evil(s, 0);
    for (uint32_t i = 0; i < sizeof desc / 4; ++i) /* inside its own page, wherever off points */
        page[((off / 4u) + i) % (MP_TASK_PAGE / 4u)] = desc[i];
    *flags = NAMP_FLAG_CC | (rnd(s) % 2 ? NAMP_FLAG_CON : 0u) |
             (rnd(s) % 16 == 0 ? (1u << (rnd(s) % 12)) : 0u);
    const uint32_t area = rnd(s) % 8 ? T->area_vid : rnd(s) % 2 ? vids[rnd(s) % nvids] : rnd(s);
    *p1 = NAMP_VIF_CC_PARAM1(area, off);
    *p2 = rnd(s) % 4 ? 4u * (rnd(s) % 1024u) : evil(s, t->tx_pa);
    *p3 = rnd(s) % 4 ? 4u * (1u + rnd(s) % 64u) : evil(s, 0);
}

static void adversary(void)
{
    struct sva_task *t = T;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, S->u.c.node, NULL, NULL, NULL, &st);
    const mcapi_endpoint_t own = mcapi_endpoint_create(SVA_ATTACKER_PORT, &st);
    uint32_t vids[4];
    vids[0] = vid_of(mcapi_endpoint_get(MCAPI_DOMAIN, S->u.c.node, SVA_ATTACKER_PORT, 100000, &st));
    vids[1] = vid_of(mcapi_endpoint_get(MCAPI_DOMAIN, 1, SVA_PEER_PORT, 100000, &st));
    vids[2] = vid_of(mcapi_endpoint_get(MCAPI_DOMAIN, S->u.c.node, SVA_VICTIM_PORT, 100000, &st));
    vids[3] = S->u.c.tx_vid;
    /* its send buffer's page is also its collective area; a gather part's handle to tile 1 */
    t->area_vid = (uint32_t)request(MP_TASK_OP_CC_AREA, K_USER_DATA + offsetof(mp_task_state_t, tx),
                                    MP_TASK_PAGE);
    const uint32_t all[6] = {vids[0],
                             vids[1],
                             vids[2],
                             vids[3],
                             t->area_vid,
                             (uint32_t)request(MP_TASK_OP_MEMBER_HANDLE, vids[1],
                                               MP_TASK_MEMBER(((const struct mp_task_ep *)own)->kid,
                                                              9, NAMP_CC_K_GATHER))};
    static const uint32_t modes[] = {NAMP_FLAG_BUF,
                                     NAMP_FLAG_BUF,
                                     NAMP_FLAG_BUF | NAMP_FLAG_CON,
                                     NAMP_FLAG_BUF | NAMP_FLAG_CCM,
                                     NAMP_FLAG_BUF | NAMP_FLAG_CON | NAMP_FLAG_CCM,
                                     NAMP_FLAG_COM,
                                     0,
                                     NAMP_FLAG_CC | NAMP_FLAG_BUF,
                                     NAMP_FLAG_BUF | (1u << 10)};
    uint32_t s = t->seed | 1u;
    for (uint32_t it = 0; it < t->iterations; ++it) {
        /* kinds: 0 honest; 1 chaos (header words, flags, vIDs, numbers); 2 one send-side offset
         * or size word aimed at someone else's memory; 3 the same on the receive side; 4 a
         * collective (where the adapter has NAMP-CC) */
        const uint32_t kind = rnd(&s) % 5;
        if (kind != 1 || (rnd(&s) & 1))
            reset_buffers();
        uint32_t idx = tx_message(4u * (1u + rnd(&s) % 64), it << 8);
        if (kind == 1) {
            for (uint32_t k = rnd(&s) % 4; k > 0; --k) /* its send buffer's header */
                ((volatile uint32_t *)TX)[rnd(&s) % 8] = evil(&s, t->tx_pa);
            if (rnd(&s) % 4 == 0) /* a size word */
                ((volatile uint32_t *)(S->tx + MP_CB_HEADER_SIZE))[rnd(&s) % 2] =
                    MP_CB_COMMITTED | evil(&s, 0);
            for (uint32_t k = rnd(&s) % 3; k > 0; --k) /* its receive buffer's header */
                ((volatile uint32_t *)RX)[rnd(&s) % 8] = evil(&s, t->rx_pa);
        } else if (kind == 2) {
            static const uint32_t words[] = {MP_CB_OFF_DATA_OFS, MP_CB_OFF_SIZE_OFS,
                                             MP_CB_OFF_MAXMSG};
            const uint32_t w = words[rnd(&s) % 3];
            if (w == MP_CB_OFF_MAXMSG) /* elements as large as the rest of the window allows not */
                TX->max_msg_log2 = 11u + rnd(&s) % 10u;
            else
                ((volatile uint32_t *)TX)[w / 4] = evil(&s, t->tx_pa);
            if (rnd(&s) & 1) /* or a size beyond the element's page */
                ((volatile uint32_t *)(S->tx + MP_CB_HEADER_SIZE))[idx & 1u] =
                    MP_CB_COMMITTED | (MP_TASK_PAGE + rnd(&s) % 8192u);
        } else if (kind == 3) {
            static const uint32_t words[] = {MP_CB_OFF_DATA_OFS, MP_CB_OFF_SIZE_OFS,
                                             MP_CB_OFF_MAXMSG, MP_CB_OFF_CAPACITY};
            const uint32_t w = words[rnd(&s) % 4];
            ((volatile uint32_t *)RX)[w / 4] = w == MP_CB_OFF_MAXMSG     ? 10u + rnd(&s) % 11u
                                               : w == MP_CB_OFF_CAPACITY ? 3u + rnd(&s) % 14u
                                                                         : evil(&s, t->rx_pa);
            RX->wr_idx = RX->rd_idx = rnd(&s) % 64;
        }
        uint32_t flags =
            kind != 1 ? NAMP_FLAG_BUF
                      : (rnd(&s) % 16 == 0 ? rnd(&s) & ~NAMP_FLAG_VALID : modes[rnd(&s) % 9]);
        uint32_t r = rnd(&s) % 8;
        uint32_t p1 = kind == 3   ? vids[0]
                      : kind != 1 ? vids[rnd(&s) % 2]
                      : r == 0    ? rnd(&s)
                                  : vids[rnd(&s) % 4];
        uint32_t p2 = kind != 1                 ? vids[3]
                      : (flags & NAMP_FLAG_COM) ? rnd(&s) % 0x100
                      : r == 1                  ? rnd(&s)
                                                : vids[rnd(&s) % 4];
        uint32_t p3 = kind != 1 || r > 2 ? idx : rnd(&s);
        if (kind == 4) {
            cc_attack(&s, all, 6, &flags, &p1, &p2, &p3);
            t->cc_starts++;
        }
        const uint32_t stv = vif_run(flags, p1, p2, p3, 3000);
        if (stv == RUNNING) {
            t->stuck++; /* never: an aborted transfer ends */
            break;
        }
        if (stv & NAMP_STATUS_ERROR) {
            t->refused++;
            t->window_refusals += NAMP_STATUS_CODE(stv) == NAMP_ERR_WINDOW ||
                                  NAMP_STATUS_CODE(stv) == NAMP_ERR_VIF_WINDOW;
            t->codes[NAMP_STATUS_CODE(stv) & 63u]++;
        } else {
            t->completed++;
        }
        t->secrets_seen += secrets_in_rx();
        t->iters = it + 1;
    }
    /* honest again: self-sends arrive intact */
    reset_buffers();
    for (uint32_t k = 0; k < 3; ++k) {
        uint32_t idx = tx_message(64, 0x7000u + k), got[16], size = 0;
        if (code_of(vif_run(NAMP_FLAG_BUF, vids[0], vids[3], idx, 100000)) != 0)
            t->last_bad = 1;
        for (int i = 0; i < 100 && mp_cbuffer_pop(RX, got, sizeof got, &size) != 0; ++i)
            u_sleep(1);
        if (size != 64 || got[3] != ((0x7000u + k) ^ 3u))
            t->last_bad = 2;
    }
}

/* ---- victim, slot users, noise, probes ---- */

static void send_stream(uint32_t id, uint32_t count)
{
    struct sva_task *t = T;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, S->u.c.node, NULL, NULL, NULL, &st);
    mcapi_endpoint_t me =
        mcapi_endpoint_create(id == SVA_ID_VICTIM ? SVA_VICTIM_PORT : SVA_AFTER_PORT, &st);
    mcapi_endpoint_t peer = mcapi_endpoint_get(MCAPI_DOMAIN, 1, SVA_PEER_PORT, 100000, &st);
    t->mark = 1; /* its endpoint exists: the others may look it up */
    for (uint32_t seq = 0; seq < count; ++seq) {
        uint32_t msg[SVA_MSG_WORDS];
        msg[0] = id;
        msg[1] = seq;
        for (uint32_t i = 2; i < SVA_MSG_WORDS; ++i)
            msg[i] = (id * 0x9E3779B1u ^ seq * 0x85EBCA6Bu ^ i) & 0x7FFFFFFFu;
        mcapi_msg_send(me, peer, msg, sizeof msg, 0, &st);
        if (st == MCAPI_SUCCESS)
            t->sent++;
        else
            t->send_fail++;
        if (id == SVA_ID_VICTIM)
            u_sleep(1); /* spread over the attacks */
    }
    for (uint32_t i = 0; i < SVA_SECRET_WORDS; ++i)
        t->secrets_breached += t->secret[i] != (id == SVA_ID_VICTIM ? SVA_SECRET(0x100u + i) : 0u);
}

static void probe(uint32_t which)
{
    struct sva_task *t = T;
    volatile uint32_t *p;
    switch (which) {
    case PROBE_LOAD_KERNEL: t->last_bad = *(volatile uint32_t *)t->kernel_secret; break;
    case PROBE_STORE_KERNEL: *(volatile uint32_t *)t->kernel_secret = 0; break;
    case PROBE_DEVICE: *(volatile uint32_t *)TILE_CLINT_BASE = 1; break; /* msip of core 0 */
    case PROBE_SLOT_PAGE:
        p = (volatile uint32_t *)(TILE_NA_BASE + NA_NAMP_SLOT_BASE(t->own_slot) + NAMP_SLOT_PARAM1);
        *p = t->kernel_secret;
        break;
    case PROBE_VIF_CONFIG:
        p = (volatile uint32_t *)(TILE_NA_BASE + NA_NAMP_SLOT_BASE(t->own_slot) +
                                  NAMP_VIF_CONFIG_PAGE);
        *p = t->kernel_secret;
        break;
    case PROBE_FOREIGN_VIF: t->last_bad = *(volatile uint32_t *)t->victim_vif; break;
    case PROBE_KERNEL_CALL: u_syscall(K_SYS_THREAD_CREATE, 0, 0); break;
    }
    t->done = 1; /* not reached: every probe is killed */
}

void sva_task_main(void *arg)
{
    (void)arg;
    struct sva_task *t = T;
    switch (t->role) {
    case SVA_ATTACKER: attacker(); break;
    case SVA_ADVERSARY: adversary(); break;
    case SVA_VICTIM: send_stream(SVA_ID_VICTIM, SVA_VICTIM_MSGS); break;
    case SVA_AFTER: send_stream(SVA_ID_AFTER, SVA_AFTER_MSGS); break;
    case SVA_CCM_EXIT: {
        mcapi_status_t st;
        mcapi_initialize(MCAPI_DOMAIN, S->u.c.node, NULL, NULL, NULL, &st);
        uint32_t peer = vid_of(mcapi_endpoint_get(MCAPI_DOMAIN, 1, SVA_PEER_PORT, 100000, &st));
        mp_cbuffer_init(TX, MP_TASK_TX_N, MP_TASK_TX_M, 0);
        VREG(NAMP_VIF_PARAM1) = peer;
        VREG(NAMP_VIF_PARAM2) = S->u.c.tx_vid;
        VREG(NAMP_VIF_PARAM3) = 0;
        mmio_write32_release((uintptr_t)&VREG(NAMP_VIF_FLAGS),
                             NAMP_FLAG_BUF | NAMP_FLAG_CCM | NAMP_FLAG_VALID);
        t->mark = 1;
        u_exit(0); /* with its slot polling an empty buffer */
    }
    case SVA_SPIN:
        while (t->go != 2)
            ;
        break;
    case SVA_FLOOD:
        while (t->go != 2) /* refused starts, as fast as the vif takes them */
            (void)vif_run(NAMP_FLAG_BUF, 0xFFFFu, 0, 0, 1000);
        break;
    case SVA_PROBE: probe(t->param); break;
    }
    t->done = 1;
    while (t->go != 2 && t->role != SVA_PROBE)
        u_sleep(1);
    u_exit(0);
}
