/* NAMP stress with faults (issue 7): tile 0 sends NAMP_FAULT_COUNT random-size payloads to each
 * of tiles 1..15 (connection-less, or over packet channels with NAMP_FAULT_CHAN), destination d in
 * send mode d % 4 (0 blocking, 1 non-blocking, 2 buffered, 3 CCM), while
 *   - tile FAULT_TILE deletes its receive endpoint after half of its payloads (mid-stream), and
 *   - the platform refuses DMA data packets now and then (run with --set na.fault_dma_every=N:
 *     a remote bus error for the transfer that carries it).
 * Every payload must arrive exactly once, intact and in order, or its sender must get an error
 * status: for the blocking and non-blocking modes exactly (count and checksum of the delivered
 * sequence numbers match the successful sends); for buffered and CCM, whose errors surface at a
 * later call, fewer deliveries than sends need at least one error. Each receiver ends on an end
 * marker (the last payload, resent until it is known delivered) and reports to tile 0. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "../mp_e2e/payload.h"

#ifndef NAMP_FAULT_COUNT
#define NAMP_FAULT_COUNT 667u
#endif
#ifndef NAMP_FAULT_CHAN
#define NAMP_FAULT_CHAN 0
#endif
#define NRX 15u
#define FAULT_TILE 7u
#define MAXSZ 256u
#define END_SEQ 0xFFFFFFFFu
#define DATA_PORT 1u
#define CHAN_PORT 10u
#define CTL_PORT 3u

static uint8_t buf[NRX + 1][MAXSZ] __attribute__((aligned(8)));

#define FAIL(...)                                                                          \
    do {                                                                                   \
        printf("namp_fault FAIL: " __VA_ARGS__);                                           \
        return 1;                                                                          \
    } while (0)

static uint32_t lcg_next(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}
static uint32_t seq_sum(uint32_t sum, uint32_t seq, uint32_t size)
{
    return sum * 31u + seq * 2654435761u + size;
}

/* ------------------------------------------------------------ receiver (tiles 1..15) */
static int receiver(void)
{
    mcapi_status_t st;
    uint32_t me = tile_id();
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 1, .max_msg_log2 = 8};
    mcapi_endpoint_t ctl = mcapix_endpoint_create(CTL_PORT, &a, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("ctl create %s\n", mcapix_status_name(st));
    mcapi_endpoint_t data = mcapix_endpoint_create(NAMP_FAULT_CHAN ? CHAN_PORT : DATA_PORT, &a, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("data create %s\n", mcapix_status_name(st));
#if NAMP_FAULT_CHAN
    mcapi_pktchan_recv_hndl_t h;
    mcapi_request_t r;
    size_t sz;
    mcapi_pktchan_recv_open_i(&h, data, &r, &st);
    mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("recv_open %s\n", mcapix_status_name(st));
#endif
    uint32_t got_n = 0, sum = 0, last = 0, any = 0, deleted = 0;
    for (;;) {
        size_t got;
        const uint8_t *p;
#if NAMP_FAULT_CHAN
        void *pp;
        mcapi_pktchan_recv(h, &pp, &got, &st);
        p = pp;
#else
        mcapi_msg_recv(data, buf[0], MAXSZ, &got, &st);
        p = buf[0];
#endif
        if (st != MCAPI_SUCCESS)
            FAIL("tile %u recv %s\n", (unsigned)me, mcapix_status_name(st));
        uint32_t s, q;
        if (got < 8)
            FAIL("tile %u short payload\n", (unsigned)me);
        __builtin_memcpy(&s, p, 4);
        __builtin_memcpy(&q, p + 4, 4);
        if (s != 0 || payload_check(p, (uint32_t)got, 0, q))
            FAIL("tile %u corrupt payload (seq %u)\n", (unsigned)me, (unsigned)q);
#if NAMP_FAULT_CHAN
        mcapi_pktchan_release(pp, &st);
#endif
        if (q == END_SEQ)
            break;
        if (any && q <= last)
            FAIL("tile %u seq %u after %u: duplicate or out of order\n", (unsigned)me,
                 (unsigned)q, (unsigned)last);
        any = 1;
        last = q;
        got_n++;
        sum = seq_sum(sum, q, (uint32_t)got);
        if (me == FAULT_TILE && got_n == NAMP_FAULT_COUNT / 2) {
            mcapi_endpoint_delete(data, &st);   /* mid-stream: the sender's later sends fail */
            if (st != MCAPI_SUCCESS)
                FAIL("delete %s\n", mcapix_status_name(st));
            deleted = 1;
            break;
        }
    }
    mcapi_endpoint_t back = mcapi_endpoint_get(MCAPI_DOMAIN, 0, CTL_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    uint32_t rep[4] = {me, got_n, sum, deleted};
    mcapi_msg_send(ctl, back, rep, sizeof rep, 0, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("report %s\n", mcapix_status_name(st));
    return 0;
}

/* ------------------------------------------------------------ sender (tile 0) */
struct dest {
    mcapi_endpoint_t me, peer;
#if NAMP_FAULT_CHAN
    mcapi_pktchan_send_hndl_t h;
#endif
    mcapi_request_t req;
    int busy;
    uint32_t rng, ok, err, sum, pend_seq, pend_size;
};
static struct dest dst[NRX + 1];

static mcapi_status_t send_blocking(struct dest *x, const void *p, uint32_t size)
{
    mcapi_status_t st;
#if NAMP_FAULT_CHAN
    mcapi_pktchan_send(x->h, p, size, &st);
#else
    mcapi_msg_send(x->me, x->peer, p, size, 0, &st);
#endif
    return st;
}

/* the outcome of x's non-blocking send under way */
static void finish_pending(struct dest *x)
{
    if (!x->busy)
        return;
    size_t sz;
    mcapi_status_t st;
    mcapi_wait(&x->req, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    x->busy = 0;
    if (st == MCAPI_SUCCESS) {
        x->ok++;
        x->sum = seq_sum(x->sum, x->pend_seq, x->pend_size);
    } else {
        x->err++;
    }
}

static void send_one(uint32_t d, uint32_t q)
{
    struct dest *x = &dst[d];
    uint32_t size = 8u + lcg_next(&x->rng) % (MAXSZ - 7u);
    finish_pending(x);
    payload_fill(buf[d], size, 0, q);
    mcapi_status_t st;
    if (d % 4u == 1u) {   /* non-blocking: one under way per destination */
#if NAMP_FAULT_CHAN
        mcapi_pktchan_send_i(x->h, buf[d], size, &x->req, &st);
#else
        mcapi_msg_send_i(x->me, x->peer, buf[d], size, 0, &x->req, &st);
#endif
        if (st == MCAPI_PENDING || st == MCAPI_SUCCESS) {
            x->busy = 1;
            x->pend_seq = q;
            x->pend_size = size;
        } else {
            x->err++;
        }
        return;
    }
    st = send_blocking(x, buf[d], size);
    if (st == MCAPI_SUCCESS) {
        x->ok++;
        x->sum = seq_sum(x->sum, q, size);
    } else {
        x->err++;
    }
}

/* The end marker, in unbuffered mode after the buffered/CCM transfers are flushed (their errors
 * surface here): resent until a blocking send of it succeeds. 0 if it never could be delivered. */
static int send_end(uint32_t d)
{
    struct dest *x = &dst[d];
    mcapi_status_t st;
    finish_pending(x);
    mcapix_endpoint_set_send_mode(x->me, MP_SEND_UNBUFFERED, &st);
    if (st != MCAPI_SUCCESS)
        x->err++;
    payload_fill(buf[d], 8, 0, END_SEQ);
    for (int t = 0; t < 8; ++t)
        if (send_blocking(x, buf[d], 8) == MCAPI_SUCCESS)
            return 1;
    return 0;
}

static int sender(void)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t ca = {.capacity_log2 = 4, .max_msg_log2 = 4};
    mcapi_endpoint_t ctl = mcapix_endpoint_create(CTL_PORT, &ca, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("ctl create %s\n", mcapix_status_name(st));
    for (uint32_t d = 1; d <= NRX; ++d) {
        struct dest *x = &dst[d];
        uint32_t mode = d % 4u;
        mcapix_endpoint_attributes_t a = {.capacity_log2 = 1, .max_msg_log2 = 8,
                                          .send_capacity_log2 = mode >= 2 ? 2u : 0u,
                                          .send_mode = mode >= 2 ? mode - 1u : 0u};
        x->me = mcapix_endpoint_create(20 + d, &a, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("create %s\n", mcapix_status_name(st));
        x->peer = mcapi_endpoint_get(MCAPI_DOMAIN, d, NAMP_FAULT_CHAN ? CHAN_PORT : DATA_PORT,
                                     MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("get %s\n", mcapix_status_name(st));
        x->rng = d * 7919u;
#if NAMP_FAULT_CHAN
        mcapi_request_t r;
        size_t sz;
        mcapi_pktchan_connect_i(x->me, x->peer, &r, &st);
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("connect %s\n", mcapix_status_name(st));
        mcapi_pktchan_send_open_i(&x->h, x->me, &r, &st);
        mcapi_wait(&r, &sz, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            FAIL("send_open %s\n", mcapix_status_name(st));
#endif
    }
    for (uint32_t q = 0; q < NAMP_FAULT_COUNT; ++q)
        for (uint32_t d = 1; d <= NRX; ++d)
            send_one(d, q);
    uint32_t expect_reports = 0;
    for (uint32_t d = 1; d <= NRX; ++d)
        if (send_end(d) || d == FAULT_TILE)
            expect_reports++;
        else
            FAIL("the end marker to tile %u could not be delivered\n", (unsigned)d);
    /* reports: checks per destination */
    uint32_t faults = 0;
    for (uint32_t n = 0; n < expect_reports; ++n) {
        uint32_t rep[4];
        size_t got;
        mcapi_msg_recv(ctl, rep, sizeof rep, &got, &st);
        if (st != MCAPI_SUCCESS || got != sizeof rep || rep[0] < 1 || rep[0] > NRX)
            FAIL("report %s\n", mcapix_status_name(st));
        struct dest *x = &dst[rep[0]];
        uint32_t mode = rep[0] % 4u, rx = rep[1];
        if (x->ok + x->err + x->busy < NAMP_FAULT_COUNT)
            FAIL("tile %u: %u sends unaccounted\n", (unsigned)rep[0],
                 (unsigned)(NAMP_FAULT_COUNT - x->ok - x->err));
        if (rep[3]) {   /* deleted mid-stream: the rest must have failed, not vanished */
            if (rx != NAMP_FAULT_COUNT / 2 || x->err == 0)
                FAIL("tile %u (deleted): %u received, %u errors\n", (unsigned)rep[0],
                     (unsigned)rx, (unsigned)x->err);
            printf("namp_fault tile %u deleted its endpoint after %u: sender saw %u errors\n",
                   (unsigned)rep[0], (unsigned)rx, (unsigned)x->err);
            continue;
        }
        faults += x->err;
        if (mode <= 1u) {
            if (rx != x->ok || rep[2] != x->sum)
                FAIL("tile %u mode %u: %u delivered, %u sent ok, checksum %08x/%08x\n",
                     (unsigned)rep[0], (unsigned)mode, (unsigned)rx, (unsigned)x->ok,
                     (unsigned)rep[2], (unsigned)x->sum);
        } else if (rx > NAMP_FAULT_COUNT || (rx < NAMP_FAULT_COUNT && x->err == 0)) {
            FAIL("tile %u mode %u: %u delivered, %u errors reported\n", (unsigned)rep[0],
                 (unsigned)mode, (unsigned)rx, (unsigned)x->err);
        }
        printf("namp_fault tile %u mode %u: %u delivered exactly once in order, %u errors\n",
               (unsigned)rep[0], (unsigned)mode, (unsigned)rx, (unsigned)x->err);
    }
    printf("namp_fault ok: %u payloads to %u receivers, faults reported to the sender: %u\n",
           (unsigned)(NAMP_FAULT_COUNT * NRX), (unsigned)NRX, (unsigned)faults);
    return 0;
}

int main(void)
{
    if (tile_core_id() != 0 || tile_mesh_width() * tile_mesh_height() < NRX + 1)
        return 0;
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = MP_DEFAULT_DATA_PATH};
    mcapi_initialize(MCAPI_DOMAIN, tile_id(), &attrs, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS) {
        printf("namp_fault FAIL: initialize %s\n", mcapix_status_name(st));
        return 1;
    }
    if (tile_id() > NRX)
        return 0;
    return tile_id() == 0 ? sender() : receiver();
}
