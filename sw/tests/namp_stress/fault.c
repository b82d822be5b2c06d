/* NAMP stress with faults (issue 7). NAMP_FAULT_DIR 0: tile 0 sends NAMP_FAULT_COUNT random-size
 * payloads to each of tiles 1..15; NAMP_FAULT_DIR 1: each of tiles 1..15 sends them to tile 0
 * (one receive endpoint per sender). Connection-less, or over packet channels with
 * NAMP_FAULT_CHAN. The stream of tile d (its receiver in direction 0, its sender in direction 1)
 * runs in send mode d % 4 (0 blocking, 1 non-blocking, 2 buffered, 3 CCM), while
 *   - the receiving endpoint of tile FAULT_TILE's stream is deleted after half of it, and
 *   - the platform refuses DMA data packets now and then (run with --set na.fault_dma_every=N:
 *     a remote bus error for the transfer that carries it).
 * Every payload must arrive exactly once, intact and in order, or its sender must get an error
 * status: for the blocking and non-blocking modes exactly (count and checksum of the delivered
 * sequence numbers match the successful sends); for buffered and CCM, whose errors surface at a
 * later call, fewer deliveries than sends need at least one error. Each stream ends on an end
 * marker (resent until it is known delivered); the receiver reports to the sender, which checks. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "../mp/payload.h"

#ifndef NAMP_FAULT_COUNT
#define NAMP_FAULT_COUNT 667u
#endif
#ifndef NAMP_FAULT_CHAN
#define NAMP_FAULT_CHAN 0
#endif
#ifndef NAMP_FAULT_DIR
#define NAMP_FAULT_DIR 0
#endif
#define NT         15u /* tiles 1..15 */
#define FAULT_TILE 7u
#define MAXSZ      256u
#define END_SEQ    0xFFFFFFFFu
#define DATA_PORT  10u /* + stream: receive endpoint of the stream of tile d */
#define CTL_PORT   3u

static uint8_t buf[NT + 1][MAXSZ] __attribute__((aligned(8)));

#define FAIL(...)                                \
    do {                                         \
        printf("namp_fault FAIL: " __VA_ARGS__); \
        return 1;                                \
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

/* ------------------------------------------------------------ receiving side */
struct stream_rx {
    mcapi_endpoint_t ep;
#if NAMP_FAULT_CHAN
    mcapi_pktchan_recv_hndl_t h;
    void *p;
#endif
    mcapi_request_t req;
    uint32_t sender, tile, got, sum, last, any, deleted, done;
};

static int rx_open(struct stream_rx *r, uint32_t stream, uint32_t sender, uint32_t tile)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 1, .max_msg_log2 = 8};
    r->sender = sender;
    r->tile = tile;
    r->ep = mcapix_endpoint_create(DATA_PORT + stream, &a, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("create %s\n", mcapix_status_name(st));
#if NAMP_FAULT_CHAN
    size_t sz;
    mcapi_pktchan_recv_open_i(&r->h, r->ep, &r->req, &st);
    mcapi_wait(&r->req, &sz, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("recv_open %s\n", mcapix_status_name(st));
#endif
    return 0;
}

static void rx_post(struct stream_rx *r, uint32_t stream)
{
    mcapi_status_t st;
#if NAMP_FAULT_CHAN
    (void)stream;
    mcapi_pktchan_recv_i(r->h, &r->p, &r->req, &st);
#else
    mcapi_msg_recv_i(r->ep, buf[stream], MAXSZ, &r->req, &st);
#endif
}

/* One payload of stream `stream` arrived: check it; 1 when the stream is over (end marker, or the
 * endpoint was deleted), -1 on a failure. */
static int rx_take(struct stream_rx *r, uint32_t stream, size_t got)
{
    mcapi_status_t st;
#if NAMP_FAULT_CHAN
    const uint8_t *p = r->p;
#else
    const uint8_t *p = buf[stream];
#endif
    uint32_t s, q;
    if (got < 8) {
        printf("namp_fault FAIL: stream %u short payload\n", (unsigned)stream);
        return -1;
    }
    __builtin_memcpy(&s, p, 4);
    __builtin_memcpy(&q, p + 4, 4);
    if (s != r->sender || payload_check(p, (uint32_t)got, r->sender, q)) {
        printf("namp_fault FAIL: stream %u corrupt payload (seq %u)\n", (unsigned)stream,
               (unsigned)q);
        return -1;
    }
#if NAMP_FAULT_CHAN
    mcapi_pktchan_release(r->p, &st);
#endif
    if (q == END_SEQ)
        return 1;
    if (r->any && q <= r->last) {
        printf("namp_fault FAIL: stream %u seq %u after %u: duplicate or out of order\n",
               (unsigned)stream, (unsigned)q, (unsigned)r->last);
        return -1;
    }
    r->any = 1;
    r->last = q;
    r->got++;
    r->sum = seq_sum(r->sum, q, (uint32_t)got);
    if (stream == FAULT_TILE && r->got == NAMP_FAULT_COUNT / 2) {
        mcapi_endpoint_delete(r->ep, &st); /* mid-stream: the sender's later sends fail */
        if (st != MCAPI_SUCCESS) {
            printf("namp_fault FAIL: delete %s\n", mcapix_status_name(st));
            return -1;
        }
        r->deleted = 1;
        return 1;
    }
    return 0;
}

static int rx_report(mcapi_endpoint_t ctl, const struct stream_rx *r, uint32_t stream)
{
    mcapi_status_t st;
    mcapi_endpoint_t back =
        mcapi_endpoint_get(MCAPI_DOMAIN, r->tile, CTL_PORT, MCAPI_TIMEOUT_INFINITE, &st);
    uint32_t rep[4] = {stream, r->got, r->sum, r->deleted};
    mcapi_msg_send(ctl, back, rep, sizeof rep, 0, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("report %s\n", mcapix_status_name(st));
    return 0;
}

static struct stream_rx rxs[NT + 1];

/* Receives the streams first..last (stream d from `sender_of(d)` on tile `tile_of(d)`). */
static int receive(mcapi_endpoint_t ctl, uint32_t first, uint32_t last, int many)
{
    uint32_t n = last - first + 1u, left = n;
    mcapi_request_t *rp[NT];
    for (uint32_t d = first; d <= last; ++d) {
        if (rx_open(&rxs[d], d, many ? d : 0u, many ? d : 0u))
            return 1;
        rx_post(&rxs[d], d);
        rp[d - first] = &rxs[d].req;
    }
    while (left) {
        size_t got;
        mcapi_status_t st;
        mcapi_uint_t i = mcapi_wait_any(n, rp, &got, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS || i >= n)
            FAIL("receive %s\n", mcapix_status_name(st));
        uint32_t d = first + (uint32_t)i;
        int over = rx_take(&rxs[d], d, got);
        if (over < 0)
            return 1;
        if (over) {
            rxs[d].req.state = 0; /* done: wait_any skips it */
            left--;
            if (rx_report(ctl, &rxs[d], d))
                return 1;
        } else {
            rx_post(&rxs[d], d);
        }
    }
    return 0;
}

/* ------------------------------------------------------------ sending side */
struct stream_tx {
    mcapi_endpoint_t me, peer;
#if NAMP_FAULT_CHAN
    mcapi_pktchan_send_hndl_t h;
#endif
    mcapi_request_t req;
    int busy;
    uint32_t rng, ok, err, sum, pend_seq, pend_size, id;
};
static struct stream_tx txs[NT + 1];

static int tx_open(struct stream_tx *x, uint32_t stream, uint32_t to_tile)
{
    mcapi_status_t st;
    uint32_t mode = stream % 4u;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 1,
                                      .max_msg_log2 = 8,
                                      .send_capacity_log2 = mode >= 2 ? 2u : 0u,
                                      .send_mode = mode >= 2 ? mode - 1u : 0u};
    x->id = tile_id();
    x->me = mcapix_endpoint_create(40 + stream, &a, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("create %s\n", mcapix_status_name(st));
    x->peer =
        mcapi_endpoint_get(MCAPI_DOMAIN, to_tile, DATA_PORT + stream, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS)
        FAIL("get %s\n", mcapix_status_name(st));
    x->rng = stream * 7919u;
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
    return 0;
}

static mcapi_status_t send_blocking(struct stream_tx *x, const void *p, uint32_t size)
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
static void finish_pending(struct stream_tx *x)
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

static void send_one(uint32_t stream, uint32_t q)
{
    struct stream_tx *x = &txs[stream];
    uint32_t size = 8u + lcg_next(&x->rng) % (MAXSZ - 7u);
    finish_pending(x);
    payload_fill(buf[stream], size, x->id, q);
    mcapi_status_t st;
    if (stream % 4u == 1u) { /* non-blocking: one under way per stream */
#if NAMP_FAULT_CHAN
        mcapi_pktchan_send_i(x->h, buf[stream], size, &x->req, &st);
#else
        mcapi_msg_send_i(x->me, x->peer, buf[stream], size, 0, &x->req, &st);
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
    st = send_blocking(x, buf[stream], size);
    if (st == MCAPI_SUCCESS) {
        x->ok++;
        x->sum = seq_sum(x->sum, q, size);
    } else {
        x->err++;
    }
}

/* The end marker, in unbuffered mode after the buffered/CCM transfers are flushed (their errors
 * surface here): resent until a blocking send of it succeeds. 0 if it never could be delivered. */
static int send_end(uint32_t stream)
{
    struct stream_tx *x = &txs[stream];
    mcapi_status_t st;
    finish_pending(x);
    mcapix_endpoint_set_send_mode(x->me, MP_SEND_UNBUFFERED, &st);
    if (st != MCAPI_SUCCESS)
        x->err++;
    payload_fill(buf[stream], 8, x->id, END_SEQ);
    for (int t = 0; t < 8; ++t)
        if (send_blocking(x, buf[stream], 8) == MCAPI_SUCCESS)
            return 1;
    return 0;
}

/* A receiver's report on stream rep[0] against what its sender saw. Returns the errors the
 * sender got (for the summary), or -1 on a failed check. */
static int check_report(const uint32_t *rep)
{
    const uint32_t stream = rep[0], mode = stream % 4u, rx = rep[1];
    const struct stream_tx *x = &txs[stream];
    if (x->ok + x->err < NAMP_FAULT_COUNT) {
        printf("namp_fault FAIL: stream %u: %u sends unaccounted\n", (unsigned)stream,
               (unsigned)(NAMP_FAULT_COUNT - x->ok - x->err));
        return -1;
    }
    if (rep[3]) { /* deleted mid-stream: the rest must have failed, not vanished */
        if (rx != NAMP_FAULT_COUNT / 2 || x->err == 0) {
            printf("namp_fault FAIL: stream %u (deleted): %u received, %u errors\n",
                   (unsigned)stream, (unsigned)rx, (unsigned)x->err);
            return -1;
        }
        printf("namp_fault tile %u deleted its endpoint after %u: sender saw %u errors\n",
               (unsigned)stream, (unsigned)rx, (unsigned)x->err);
        return 0;
    }
    if (mode <= 1u ? (rx != x->ok || rep[2] != x->sum)
                   : (rx > NAMP_FAULT_COUNT || (rx < NAMP_FAULT_COUNT && x->err == 0))) {
        printf("namp_fault FAIL: stream %u mode %u: %u delivered, %u sent ok, %u errors\n",
               (unsigned)stream, (unsigned)mode, (unsigned)rx, (unsigned)x->ok, (unsigned)x->err);
        return -1;
    }
    printf("namp_fault tile %u mode %u: %u delivered exactly once in order, %u errors\n",
           (unsigned)stream, (unsigned)mode, (unsigned)rx, (unsigned)x->err);
    return (int)x->err;
}

/* Sends the streams first..last (to tile `to` or, with to_self, to the stream's own number),
 * then checks the reports that come back on ctl. Returns the errors seen, or -1. */
static int send_and_check(mcapi_endpoint_t ctl, uint32_t first, uint32_t last, uint32_t to,
                          int to_stream)
{
    for (uint32_t d = first; d <= last; ++d)
        if (tx_open(&txs[d], d, to_stream ? d : to))
            return -1;
    for (uint32_t q = 0; q < NAMP_FAULT_COUNT; ++q)
        for (uint32_t d = first; d <= last; ++d)
            send_one(d, q);
    uint32_t reports = 0;
    for (uint32_t d = first; d <= last; ++d) {
        if (send_end(d) || d == FAULT_TILE) {
            reports++;
        } else {
            printf("namp_fault FAIL: the end marker of stream %u could not be delivered\n",
                   (unsigned)d);
            return -1;
        }
    }
    int faults = 0;
    for (uint32_t n = 0; n < reports; ++n) {
        uint32_t rep[4];
        size_t got;
        mcapi_status_t st;
        mcapi_msg_recv(ctl, rep, sizeof rep, &got, &st);
        if (st != MCAPI_SUCCESS || got != sizeof rep || rep[0] < first || rep[0] > last) {
            printf("namp_fault FAIL: report %s\n", mcapix_status_name(st));
            return -1;
        }
        int e = check_report(rep);
        if (e < 0)
            return -1;
        faults += e;
    }
    return faults;
}

int main(void)
{
    if (tile_core_id() != 0 || tile_mesh_width() * tile_mesh_height() < NT + 1)
        return 0;
    uint32_t me = tile_id();
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = MP_DEFAULT_DATA_PATH};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS) {
        printf("namp_fault FAIL: initialize %s\n", mcapix_status_name(st));
        return 1;
    }
    if (me > NT)
        return 0;
    mcapix_endpoint_attributes_t ca = {.capacity_log2 = 4, .max_msg_log2 = 4};
    mcapi_endpoint_t ctl = mcapix_endpoint_create(CTL_PORT, &ca, &st);
    if (st != MCAPI_SUCCESS) {
        printf("namp_fault FAIL: ctl create %s\n", mcapix_status_name(st));
        return 1;
    }
#if NAMP_FAULT_DIR == 0
    if (me != 0)
        return receive(ctl, me, me, 0);
    int faults = send_and_check(ctl, 1, NT, 0, 1);
#else
    if (me == 0) {
        if (receive(ctl, 1, NT, 1))
            return 1;
        printf("namp_fault receiver ok: %u streams checked\n", (unsigned)NT);
        return 0;
    }
    int faults = send_and_check(ctl, me, me, 0, 0);
    if (faults >= 0)
        printf("namp_fault sender %u done\n", (unsigned)me);
    return faults < 0;
#endif
    if (faults < 0)
        return 1;
    printf("namp_fault ok: %u payloads to %u receivers, faults reported to the sender: %u\n",
           (unsigned)(NAMP_FAULT_COUNT * NT), (unsigned)NT, (unsigned)faults);
    return 0;
}
