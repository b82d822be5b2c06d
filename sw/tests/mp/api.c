/* API test of the message-passing library between tile 0 (A) and tile 1 (B): status codes,
 * lookups with timeout, wait_any, truncation, cancel, msg_available, endpoint delete, channel
 * errors, same-node messages, size limits. Prints "mp_api ok: <n> checks" on tile 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"

static unsigned checks, failures;

static void expect_st(mcapi_status_t got, mcapi_status_t want, const char *what)
{
    ++checks;
    if (got != want) {
        ++failures;
        printf("mp_api FAIL: %s: %s, expected %s\n", what, mcapix_status_name(got),
               mcapix_status_name(want));
    }
}

static void expect_true(int cond, const char *what)
{
    ++checks;
    if (!cond) {
        ++failures;
        printf("mp_api FAIL: %s\n", what);
    }
}

static int finish(const char *who)
{
    if (failures)
        return 1;
    printf("mp_api ok: %s, %u checks\n", who, checks);
    return 0;
}

/* B's side of "peer gone": receive A's packet, delete the channel's receive endpoint, fill the
 * heap with blocks of the receive buffer's size (one takes the freed buffer's place) and check
 * that A's next pktchan_send wrote nothing into them. */
static void chan_peer_gone_b(mcapi_endpoint_t e1, mcapi_endpoint_t e4, mcapi_endpoint_t a1)
{
    mcapi_status_t st;
    mcapi_request_t r;
    size_t got;
    char buf[16];
    mcapi_pktchan_recv_hndl_t h;
    mcapi_pktchan_recv_open_i(&h, e4, &r, &st);
    mcapi_wait(&r, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_SUCCESS, "B recv_open");
    void *pkt;
    mcapi_pktchan_recv(h, &pkt, &got, &st);
    expect_true(st == MCAPI_SUCCESS && got == 2 && memcmp(pkt, "p1", 2) == 0, "B pktchan_recv");
    mcapi_pktchan_release(pkt, &st);
    mcapi_endpoint_delete(e4, &st);
    expect_st(st, MCAPI_SUCCESS, "B delete the channel's receive endpoint");
    /* blocks like the freed receive buffers (e2's and e4's), so that one of them takes e4's place */
    enum { BLOCKS = 3 };
    size_t n = 32u + 8u * 4u + 8u * 4096u;
    unsigned char *heap[BLOCKS];
    for (int i = 0; i < BLOCKS; ++i) {
        heap[i] = aligned_alloc(8, n);
        if (heap[i])
            memset(heap[i], 0x5A, n);
    }
    mcapi_msg_send(e1, a1, "chan-gone", 9, 0, &st);
    mcapi_msg_recv(e1, buf, sizeof buf, &got, &st); /* A tried to send */
    expect_true(st == MCAPI_SUCCESS && got == 8 && memcmp(buf, "p2-tried", 8) == 0, "B p2-tried");
    size_t bad = 0;
    for (int i = 0; i < BLOCKS; ++i) {
        for (size_t k = 0; heap[i] && k < n; ++k)
            bad += heap[i][k] != 0x5A;
        free(heap[i]);
    }
    expect_true(bad == 0, "B no write into the deleted endpoint's memory");
    mcapi_endpoint_create(4, &st);
    expect_st(st, MCAPI_SUCCESS, "B create the deleted port again");
}

#define QUEUED 16 /* non-blocking sends under way at most (MP_MAX_ACTIVE) */

/* B's side of "blocking behind non-blocking": QUEUED + 1 messages in call order. */
static void queued_sends_b(mcapi_endpoint_t e1)
{
    char buf[8];
    size_t got;
    mcapi_status_t st;
    int in_order = 1;
    for (int i = 0; i <= QUEUED; ++i) {
        mcapi_msg_recv(e1, buf, sizeof buf, &got, &st);
        in_order &= st == MCAPI_SUCCESS && got == 2 && buf[0] == 'q' && buf[1] == 'A' + i;
    }
    expect_true(in_order, "B queued sends arrive in call order");
}

static int tile_b(void)
{
    mcapi_status_t st;
    char buf[64];
    size_t got;
    mcapix_endpoint_attributes_t small = {.capacity_log2 = 1, .max_msg_log2 = 6};
    mcapi_endpoint_t e1 = mcapix_endpoint_create(1, &small, &st);
    expect_st(st, MCAPI_SUCCESS, "B create 1");
    mcapi_endpoint_t e2 = mcapi_endpoint_create(2, &st);
    expect_st(st, MCAPI_SUCCESS, "B create 2");
    mcapi_endpoint_t e4 = mcapi_endpoint_create(4, &st); /* channel receive endpoint for A */
    expect_st(st, MCAPI_SUCCESS, "B create 4");
    mcapi_endpoint_create(1, &st);
    expect_st(st, MCAPI_ERR_ENDP_EXISTS, "B create duplicate port");
    mcapi_endpoint_t a1 = mcapi_endpoint_get(MCAPI_DOMAIN, 0, 1, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_SUCCESS, "B get A:1");

    /* A sends m1 (8 B) to 1, m2 (12 B) to 2, m3 (40 B) to 1 */
    mcapi_request_t r1, r2, *rs[2] = {&r1, &r2};
    char b1[64], b2[64];
    mcapi_msg_recv_i(e1, b1, sizeof b1, &r1, &st);
    mcapi_msg_recv_i(e2, b2, sizeof b2, &r2, &st);
    unsigned done = 0;
    while (done != 3u) {
        mcapi_uint_t i = mcapi_wait_any(2, rs, &got, MCAPI_TIMEOUT_INFINITE, &st);
        expect_st(st, MCAPI_SUCCESS, "B wait_any");
        if (i > 1) {
            expect_true(0, "B wait_any index");
            break;
        }
        done |= 1u << i;
        expect_true(got == (i == 0 ? 8u : 12u), "B wait_any size");
        expect_true(memcmp(i == 0 ? b1 : b2, i == 0 ? "message1" : "message2-xyz", got) == 0,
                    "B wait_any data");
        rs[i]->state = 0; /* completed: wait_any skips it now */
    }
    /* wait for m3 to be complete, then check msg_available and truncation */
    while (mcapi_msg_available(e1, &st) == 0)
        timer_delay_us(5);
    expect_true(mcapi_msg_available(e1, &st) == 1, "B msg_available 1");
    mcapi_msg_recv(e1, buf, 4, &got, &st);
    expect_st(st, MCAPI_ERR_MSG_TRUNCATED, "B recv truncated");
    expect_true(got == 4 && memcmp(buf, "mess", 4) == 0, "B truncated data");
    expect_true(mcapi_msg_available(e1, &st) == 0, "B msg_available 0");
    /* timeout and cancel */
    mcapi_request_t r3;
    mcapi_msg_recv_i(e2, buf, sizeof buf, &r3, &st);
    expect_st(st, MCAPI_PENDING, "B recv_i pending");
    mcapi_wait(&r3, &got, 50, &st);
    expect_st(st, MCAPI_TIMEOUT, "B wait timeout");
    mcapi_cancel(&r3, &st);
    expect_st(st, MCAPI_SUCCESS, "B cancel");
    mcapi_test(&r3, &got, &st);
    expect_st(st, MCAPI_ERR_REQUEST_CANCELLED, "B test cancelled");
    mcapi_endpoint_delete(e2, &st);
    expect_st(st, MCAPI_SUCCESS, "B delete 2");
    mcapi_endpoint_delete(a1, &st);
    expect_st(st, MCAPI_ERR_ENDP_NOTOWNER, "B delete remote");
    mcapi_msg_send(e1, a1, "B-done", 6, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "B send done");
    /* both sides: non-blocking send, then a blocking receive (the receive must drive the send) */
    mcapi_request_t rx;
    mcapi_msg_send_i(e1, a1, "cross-B", 7, 0, &rx, &st);
    expect_true(st == MCAPI_PENDING || st == MCAPI_SUCCESS, "B cross send_i");
    mcapi_msg_recv(e1, buf, sizeof buf, &got, &st);
    expect_true(st == MCAPI_SUCCESS && got == 7 && memcmp(buf, "cross-A", 7) == 0, "B cross recv");
    mcapi_wait(&rx, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_true(st == MCAPI_SUCCESS && got == 7, "B cross send done");
    chan_peer_gone_b(e1, e4, a1);
    queued_sends_b(e1);
    /* zero-copy receive (mcapix_msg_hold/release), its misuse first */
    void *held = NULL, *again = NULL;
    mcapix_msg_release(e1, &st);
    expect_st(st, MCAPI_ERR_PARAMETER, "B release without a hold");
    mcapix_msg_hold(e1, NULL, &got, &st);
    expect_st(st, MCAPI_ERR_PARAMETER, "B hold without a data pointer");
    mcapix_msg_hold(a1, &held, &got, &st);
    expect_st(st, MCAPI_ERR_ENDP_INVALID, "B hold on a remote endpoint");
    mcapix_msg_hold(e1, &held, &got, &st);
    expect_true(st == MCAPI_SUCCESS && got == 9 && held && memcmp(held, "no-status", 9) == 0,
                "B hold a send whose status pointer was NULL");
    mcapix_msg_hold(e1, &again, &got, &st);
    expect_st(st, MCAPI_ERR_PARAMETER, "B a second hold");
    mcapix_msg_release(e1, &st);
    expect_st(st, MCAPI_SUCCESS, "B release");
    mcapix_msg_release(e1, &st);
    expect_st(st, MCAPI_ERR_PARAMETER, "B release twice");
    /* stay until A says bye (A still talks to this node's progress engine) */
    mcapi_msg_recv(e1, buf, sizeof buf, &got, &st);
    expect_st(st, MCAPI_SUCCESS, "B recv bye");
    return finish("B");
}

/* A's side of "peer gone": after B deleted the channel's receive endpoint the channel is
 * invalid; sending a message from the channel's send endpoint is refused too. */
static void chan_peer_gone_a(mcapi_endpoint_t e1, mcapi_endpoint_t e3, mcapi_endpoint_t b1)
{
    mcapi_status_t st;
    mcapi_request_t r;
    size_t got;
    char buf[16];
    mcapi_pktchan_send_hndl_t h;
    mcapi_pktchan_send_open_i(&h, e3, &r, &st);
    expect_st(st, MCAPI_SUCCESS, "A send_open");
    mcapi_pktchan_send(h, "p1", 2, &st);
    expect_st(st, MCAPI_SUCCESS, "A pktchan_send p1");
    mcapi_msg_send(e3, b1, "x", 1, 0, &st);
    expect_st(st, MCAPI_ERR_CHAN_CONNECTED, "A message from a channel's send endpoint");
    mcapi_msg_send_i(e3, b1, "x", 1, 0, &r, &st);
    expect_st(st, MCAPI_ERR_CHAN_CONNECTED, "A message_i from a channel's send endpoint");
    mcapi_msg_recv(e1, buf, sizeof buf, &got, &st);
    expect_true(st == MCAPI_SUCCESS && got == 9 && memcmp(buf, "chan-gone", 9) == 0,
                "A recv chan-gone");
    mcapi_pktchan_send(h, "p2", 2, &st);
    expect_st(st, MCAPI_ERR_CHAN_INVALID, "A pktchan_send after the receiver was deleted");
    mcapi_pktchan_send_i(h, "p3", 2, &r, &st);
    expect_st(st, MCAPI_ERR_CHAN_INVALID, "A pktchan_send_i after the receiver was deleted");
    mcapi_msg_send(e1, b1, "p2-tried", 8, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "A send p2-tried");
}

/* A blocking send behind QUEUED non-blocking sends to the same endpoint (all request slots of
 * the library taken): it waits for room and goes last, it does not fail. */
static void queued_sends_a(mcapi_endpoint_t e1, mcapi_endpoint_t b1)
{
    static char msgs[QUEUED + 1][2];
    mcapi_request_t r[QUEUED];
    mcapi_status_t st;
    size_t got;
    int ok = 1;
    for (int i = 0; i <= QUEUED; ++i) {
        msgs[i][0] = 'q';
        msgs[i][1] = (char)('A' + i);
    }
    for (int i = 0; i < QUEUED; ++i) {
        mcapi_msg_send_i(e1, b1, msgs[i], 2, 0, &r[i], &st);
        ok &= st == MCAPI_PENDING || st == MCAPI_SUCCESS;
    }
    expect_true(ok, "A queued send_i");
    mcapi_msg_send(e1, b1, msgs[QUEUED], 2, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "A blocking send behind 16 send_i");
    for (int i = 0; i < QUEUED; ++i) {
        mcapi_wait(&r[i], &got, MCAPI_TIMEOUT_INFINITE, &st);
        ok &= st == MCAPI_SUCCESS && got == 2;
    }
    expect_true(ok, "A queued send_i complete");
}

static int tile_a(void)
{
    mcapi_status_t st;
    char buf[64];
    size_t got;
    mcapi_info_t info;
    mcapi_initialize(MCAPI_DOMAIN, 0, NULL, NULL, &info, &st);
    expect_st(st, MCAPI_ERR_NODE_INITIALIZED, "A initialize twice");
    expect_true(mcapi_node_id_get(&st) == 0 && st == MCAPI_SUCCESS, "A node id");
    expect_true(mcapi_domain_id_get(&st) == MCAPI_DOMAIN, "A domain id");
    mcapi_endpoint_t e1 = mcapi_endpoint_create(1, &st);
    mcapi_endpoint_t e3 = mcapi_endpoint_create(3, &st);
    mcapi_endpoint_t e5 = mcapi_endpoint_create(5, &st);
    expect_st(st, MCAPI_SUCCESS, "A create");
    mcapi_endpoint_get(MCAPI_DOMAIN, 1, 99, 200, &st);
    expect_st(st, MCAPI_TIMEOUT, "A get missing port times out");
    mcapi_endpoint_get(MCAPI_DOMAIN, 77, 1, 0, &st);
    expect_st(st, MCAPI_ERR_NODE_INVALID, "A get bad node");
    mcapi_request_t rg;
    mcapi_endpoint_t b1 = NULL, b2, b4;
    mcapi_endpoint_get_i(MCAPI_DOMAIN, 1, 1, &b1, &rg, &st);
    mcapi_wait(&rg, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_SUCCESS, "A get_i B:1");
    b2 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 2, MCAPI_TIMEOUT_INFINITE, &st);
    b4 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 4, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_SUCCESS, "A get B:2, B:4");

    char big[100] = {0};
    mcapi_msg_send(e1, b1, big, sizeof big, 0, &st);
    expect_st(st, MCAPI_ERR_MSG_SIZE, "A send larger than the slot");
    mcapi_msg_send(e1, b1, "message1", 8, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "A send m1");
    mcapi_request_t rs;
    mcapi_msg_send_i(e1, b2, "message2-xyz", 12, 0, &rs, &st);
    mcapi_wait(&rs, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_SUCCESS, "A send_i m2");
    expect_true(got == 12, "A send_i size");
    mcapi_msg_send(e1, b1, "message3 is forty bytes long, exactly...", 40, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "A send m3");

    mcapi_msg_recv(e1, NULL, sizeof buf, &got, &st);
    expect_st(st, MCAPI_ERR_PARAMETER, "A msg_recv into NULL");
    mcapi_msg_recv_i(e1, NULL, sizeof buf, &rs, &st);
    expect_st(st, MCAPI_ERR_PARAMETER, "A msg_recv_i into NULL");
    mcapi_msg_recv(e1, buf, sizeof buf, &got, &st);
    expect_true(st == MCAPI_SUCCESS && got == 6 && memcmp(buf, "B-done", 6) == 0, "A recv B-done");
    mcapi_msg_send(e1, b2, "x", 1, 0, &st);
    expect_st(st, MCAPI_ERR_ENDP_INVALID, "A send to deleted endpoint");

    /* channels */
    mcapi_request_t rc;
    mcapi_pktchan_send_hndl_t h;
    mcapi_pktchan_send(NULL, "x", 1, &st);
    expect_st(st, MCAPI_ERR_CHAN_INVALID, "A pktchan_send without a channel");
    mcapi_pktchan_send_open_i(&h, e3, &rc, &st);
    expect_st(st, MCAPI_ERR_CHAN_INVALID, "A send_open before connect");
    mcapi_pktchan_connect_i(e3, b4, &rc, &st);
    mcapi_wait(&rc, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_SUCCESS, "A connect");
    mcapi_pktchan_connect_i(e3, b4, &rc, &st);
    expect_st(st, MCAPI_ERR_CHAN_CONNECTED, "A connect twice (local)");
    mcapi_pktchan_connect_i(e5, b4, &rc, &st);
    expect_st(st, MCAPI_ERR_CHAN_CONNECTED, "A connect to a connected endpoint (remote)");
    mcapi_msg_send(e1, b4, "x", 1, 0, &st);
    expect_st(st, MCAPI_ERR_CHAN_CONNECTED, "A message to a channel endpoint");
    mcapi_msg_recv(e3, buf, sizeof buf, &got, &st);
    expect_st(st, MCAPI_ERR_CHAN_CONNECTED, "A msg_recv on a channel endpoint");

    /* same node */
    mcapi_msg_send(e1, e5, "local", 5, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "A local send");
    expect_true(mcapi_msg_available(e5, &st) == 1, "A local available");
    mcapi_msg_recv(e5, buf, sizeof buf, &got, &st);
    expect_true(st == MCAPI_SUCCESS && got == 5 && memcmp(buf, "local", 5) == 0, "A local recv");

    mcapi_request_t rx;
    mcapi_msg_send_i(e1, b1, "cross-A", 7, 0, &rx, &st);
    expect_true(st == MCAPI_PENDING || st == MCAPI_SUCCESS, "A cross send_i");
    mcapi_msg_recv(e1, buf, sizeof buf, &got, &st);
    expect_true(st == MCAPI_SUCCESS && got == 7 && memcmp(buf, "cross-B", 7) == 0, "A cross recv");
    mcapi_cancel(&rx, &st);
    expect_true(st == MCAPI_ERR_REQUEST_INVALID || st == MCAPI_SUCCESS, "A cancel of a send");
    mcapi_wait(&rx, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_true(st == MCAPI_SUCCESS && got == 7, "A cross send done");
    chan_peer_gone_a(e1, e3, b1);
    queued_sends_a(e1, b1);
    /* a NULL status pointer must not turn the call into a no-op (the message would be lost) */
    mcapi_msg_send(e1, b1, "no-status", 9, 0, NULL);
    mcapi_msg_send(e1, b1, "bye", 3, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "A send bye");
    mcapi_endpoint_delete(e5, &st);
    expect_st(st, MCAPI_SUCCESS, "A delete");
    mcapi_msg_send(e1, e5, "x", 1, 0, &st);
    expect_st(st, MCAPI_ERR_ENDP_INVALID, "A send to deleted local endpoint");
    mcapi_finalize(&st);
    expect_st(st, MCAPI_SUCCESS, "A finalize");
    return finish("A");
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1 || tile_mesh_width() * tile_mesh_height() < 2)
        return 0;
    mcapi_status_t st;
    mcapi_endpoint_create(1, &st);
    expect_st(st, MCAPI_ERR_NODE_NOTINIT, "create before initialize");
    /* the request life cycle (the MCAPI core): memory that is no started request is refused, and
     * a wait on nothing but such requests returns at once instead of waiting for ever */
    mcapi_request_t junk;
    mcapi_request_t *jr[1] = {&junk};
    size_t got;
    memset(&junk, 0xA5, sizeof junk);
    mcapi_wait_any(1, jr, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_ERR_NODE_NOTINIT, "wait_any before initialize");
    mcapi_initialize(MCAPI_DOMAIN, me == 0 ? 1 : 0, NULL, NULL, NULL, &st);
    expect_st(st, MCAPI_ERR_NODE_INVALID, "initialize with a foreign node id");
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    expect_st(st, MCAPI_SUCCESS, "initialize");
    expect_true(!mcapi_test(&junk, &got, &st) && st == MCAPI_ERR_REQUEST_INVALID,
                "test of a request never started");
    mcapi_wait_any(1, jr, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_ERR_REQUEST_INVALID, "wait_any on no started request");
    expect_true(!mcapi_wait(&junk, &got, 1000, &st) && st == MCAPI_ERR_REQUEST_INVALID,
                "wait on a request never started");
    mcapi_cancel(&junk, &st);
    expect_st(st, MCAPI_ERR_REQUEST_INVALID, "cancel of a request never started");
    expect_true(
        strcmp(mcapix_status_name(MCAPI_ERR_REQUEST_INVALID), "MCAPI_ERR_REQUEST_INVALID") == 0,
        "status name");
    return me == 0 ? tile_a() : tile_b();
}
