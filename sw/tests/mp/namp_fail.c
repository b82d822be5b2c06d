/* Failed buffered and CCM transfers over the NAMP (issue 7, hole 3). Tile 1 has two one-element
 * endpoints; tile 0 fills one, so that its CCM slot is refused (NACK, retry in hardware) while
 * tile 0 keeps sending, then tile 1 deletes it: the retry fails with NO_ENDPOINT. Every failure
 * must reach the caller as an error status and no call may hang:
 *  - CCM, send buffer full behind the failed transfer: the send that waits for room returns the
 *    error (MCAPI_ERR_ENDP_INVALID);
 *  - CCM with elements left behind a failed transfer, then another send mode: leaving CCM ends
 *    on the slot's error (returned by mcapix_endpoint_set_send_mode) instead of waiting for a
 *    drain that never comes;
 *  - buffered sends to the deleted endpoint: one reports the failure; deleting the sending
 *    endpoint while a buffered send is under way returns;
 *  - a CCM channel whose slot waits for credit when tile 1 deletes the receive endpoint: the
 *    next send returns MCAPI_ERR_CHAN_INVALID and deleting the sending endpoint returns.
 * Prints "namp_fail ok: <n> checks" on tile 0. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"

#define DELETE_DELAY_US 100u /* tile 1 deletes an endpoint this long after being told */

static unsigned checks, failures;

static void expect_st(mcapi_status_t got, mcapi_status_t want, const char *what)
{
    ++checks;
    if (got != want) {
        ++failures;
        printf("namp_fail FAIL: %s: %s, expected %s\n", what, mcapix_status_name(got),
               mcapix_status_name(want));
    }
}

/* Sends from e to dst until a send fails (at most 8, delay_us apart); returns the error or
 * MCAPI_SUCCESS. */
static mcapi_status_t send_until_error(mcapi_endpoint_t e, mcapi_endpoint_t dst, uint32_t delay_us)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    for (int i = 0; i < 8 && st == MCAPI_SUCCESS; ++i) {
        mcapi_msg_send(e, dst, "0123456789abcdef", 16, 0, &st);
        if (delay_us)
            timer_delay_us(delay_us);
    }
    return st;
}

/* Fills tile 1's one-element endpoint dst, then asks tile 1 to delete it after a delay. */
static void fill_and_doom(mcapi_endpoint_t ctl, mcapi_endpoint_t dst, mcapi_endpoint_t b_ctl)
{
    mcapi_status_t st;
    mcapi_msg_send(ctl, dst, "fill", 4, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "fill the receiver");
    mcapi_msg_send(ctl, b_ctl, "delete", 6, 0, &st);
}

static void wait_deleted(mcapi_endpoint_t ctl)
{
    char buf[16];
    size_t got;
    mcapi_status_t st;
    mcapi_msg_recv(ctl, buf, sizeof buf, &got, &st);
    expect_st(st, MCAPI_SUCCESS, "tile 1 deleted the endpoint");
    timer_delay_us(50); /* the next hardware retry fails */
}

/* A CCM channel to tile 1's one-element endpoint 3: one packet takes the only credit, two wait in
 * the send buffer, then tile 1 deletes the receive endpoint. */
static void chan_peer_gone(mcapi_endpoint_t ctl, mcapi_endpoint_t b9)
{
    mcapi_status_t st;
    mcapi_request_t r;
    size_t got;
    mcapix_endpoint_attributes_t a = {
        .capacity_log2 = 1, .max_msg_log2 = 6, .send_capacity_log2 = 2, .send_mode = MP_SEND_CCM};
    mcapi_endpoint_t ec = mcapix_endpoint_create(3, &a, &st);
    mcapi_endpoint_t b3 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 3, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_pktchan_connect_i(ec, b3, &r, &st);
    mcapi_wait(&r, &got, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_SUCCESS, "connect the CCM channel");
    mcapi_pktchan_send_hndl_t h;
    mcapi_pktchan_send_open_i(&h, ec, &r, &st);
    for (int i = 0; i < 3; ++i) {
        mcapi_pktchan_send(h, "p", 1, &st);
        expect_st(st, MCAPI_SUCCESS, "CCM packet");
    }
    mcapi_msg_send(ctl, b9, "delete", 6, 0, &st);
    wait_deleted(ctl);
    mcapi_pktchan_send(h, "q", 1, &st);
    expect_st(st, MCAPI_ERR_CHAN_INVALID, "CCM packet after the receiver was deleted");
    mcapi_endpoint_delete(ec, &st);
    expect_st(st, MCAPI_SUCCESS, "delete a CCM sender waiting for credit");
}

static int tile_a(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t ctl = mcapi_endpoint_create(9, &st);
    mcapix_endpoint_attributes_t a = {
        .capacity_log2 = 1, .max_msg_log2 = 6, .send_capacity_log2 = 2, .send_mode = MP_SEND_CCM};
    mcapi_endpoint_t e = mcapix_endpoint_create(1, &a, &st);
    expect_st(st, MCAPI_SUCCESS, "create the sending endpoint");
    mcapi_endpoint_t b1 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 1, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_endpoint_t b2 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 2, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_endpoint_t b9 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 9, MCAPI_TIMEOUT_INFINITE, &st);
    expect_st(st, MCAPI_SUCCESS, "get B:1, B:2, B:9");

    /* CCM, full: one element taken and retried, three in the buffer, the fifth waits for room */
    fill_and_doom(ctl, b1, b9);
    expect_st(send_until_error(e, b1, 0), MCAPI_ERR_ENDP_INVALID, "CCM send on a full buffer");
    wait_deleted(ctl);

    /* CCM, leave: one element taken and retried, two left in the buffer when it fails */
    fill_and_doom(ctl, b2, b9);
    for (int i = 0; i < 3; ++i)
        mcapi_msg_send(e, b2, "0123456789abcdef", 16, 0, &st);
    wait_deleted(ctl);
    mcapix_endpoint_set_send_mode(e, MP_SEND_BUFFERED, &st); /* leaves CCM first */
    expect_st(st, MCAPI_ERR_ENDP_INVALID, "leaving a failed CCM slot");

    /* buffered */
    expect_st(send_until_error(e, b1, 20), MCAPI_ERR_ENDP_INVALID, "buffered failure");
    mcapi_msg_send(e, b1, "y", 1, 0, &st);
    mcapi_endpoint_delete(e, &st);
    expect_st(st, MCAPI_SUCCESS, "delete with a buffered send under way");

    chan_peer_gone(ctl, b9);

    mcapi_msg_send(ctl, b9, "bye", 3, 0, &st);
    expect_st(st, MCAPI_SUCCESS, "send bye");
    if (failures)
        return 1;
    printf("namp_fail ok: %u checks\n", checks);
    return 0;
}

static int tile_b(void)
{
    mcapi_status_t st;
    char buf[16];
    size_t got;
    mcapix_endpoint_attributes_t one = {.capacity_log2 = 0, .max_msg_log2 = 6};
    mcapi_endpoint_t e[3];
    e[0] = mcapix_endpoint_create(1, &one, &st);
    e[1] = mcapix_endpoint_create(2, &one, &st);
    e[2] = mcapix_endpoint_create(3, &one, &st); /* a channel's receive endpoint */
    mcapi_endpoint_t ctl = mcapi_endpoint_create(9, &st);
    mcapi_endpoint_t a9 = mcapi_endpoint_get(MCAPI_DOMAIN, 0, 9, MCAPI_TIMEOUT_INFINITE, &st);
    for (int i = 0; i < 3; ++i) {
        mcapi_msg_recv(ctl, buf, sizeof buf, &got, &st); /* "delete" */
        timer_delay_us(DELETE_DELAY_US);
        mcapi_endpoint_delete(e[i], &st);
        expect_st(st, MCAPI_SUCCESS, "B delete");
        mcapi_msg_send(ctl, a9, "deleted", 7, 0, &st);
    }
    mcapi_msg_recv(ctl, buf, sizeof buf, &got, &st); /* "bye" */
    return failures ? 1 : 0;
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1)
        return 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS) {
        printf("namp_fail FAIL: initialize -> %s\n", mcapix_status_name(st));
        return 1;
    }
    return me == 0 ? tile_a() : tile_b();
}
