/* Order across a send-mode change over the NAMP (issue 7, hole 8): tile 0 sends message A in
 * buffered mode (it returns at once; the NAMP retries the refused allocation, tile 1's
 * one-element endpoint is full), switches the endpoint to unbuffered and sends B. A must arrive
 * before B: the unbuffered slot must not win the allocation when tile 1 frees the element.
 * Repeated with tile 1 freeing at 8 different times (the retry phase decides the race).
 * Prints "namp_order ok: <n> rounds in order" on tile 1. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"

#define ROUNDS 8

static int fails;

static void check(mcapi_status_t st, const char *what)
{
    if (st != MCAPI_SUCCESS) {
        printf("namp_order FAIL: %s: %s\n", what, mcapix_status_name(st));
        fails++;
    }
}

static int tile_a(void)
{
    mcapi_status_t st;
    char buf[8];
    size_t got;
    mcapi_endpoint_t ctl = mcapi_endpoint_create(9, &st);
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 1,
                                      .max_msg_log2 = 6,
                                      .send_capacity_log2 = 1,
                                      .send_mode = MP_SEND_BUFFERED};
    mcapi_endpoint_t e = mcapix_endpoint_create(1, &a, &st);
    mcapi_endpoint_t b1 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 1, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_endpoint_t b9 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 9, MCAPI_TIMEOUT_INFINITE, &st);
    check(st, "get");
    for (int k = 0; k < ROUNDS; ++k) {
        char m[2] = {'A', (char)('0' + k)};
        mcapi_msg_send(ctl, b1, "fill", 4, 0, &st);
        check(st, "fill");
        mcapi_msg_send(ctl, b9, "go", 2, 0, &st);
        mcapix_endpoint_set_send_mode(e, MP_SEND_BUFFERED, &st);
        check(st, "buffered mode");
        mcapi_msg_send(e, b1, m, 2, 0, &st);
        check(st, "send A");
        mcapix_endpoint_set_send_mode(e, MP_SEND_UNBUFFERED, &st);
        check(st, "unbuffered mode");
        m[0] = 'B';
        mcapi_msg_send(e, b1, m, 2, 0, &st);
        check(st, "send B");
        mcapi_msg_recv(ctl, buf, sizeof buf, &got, &st); /* "next" */
    }
    return fails ? 1 : 0;
}

static int tile_b(void)
{
    mcapi_status_t st;
    char buf[8];
    size_t got;
    mcapix_endpoint_attributes_t one = {.capacity_log2 = 0, .max_msg_log2 = 6};
    mcapi_endpoint_t e1 = mcapix_endpoint_create(1, &one, &st);
    mcapi_endpoint_t ctl = mcapi_endpoint_create(9, &st);
    mcapi_endpoint_t a9 = mcapi_endpoint_get(MCAPI_DOMAIN, 0, 9, MCAPI_TIMEOUT_INFINITE, &st);
    int in_order = 0;
    for (int k = 0; k < ROUNDS; ++k) {
        mcapi_msg_recv(ctl, buf, sizeof buf, &got, &st); /* "go" */
        timer_delay_ticks(100u + 3u * (uint32_t)k);      /* 30-cycle steps across a retry period */
        char seen[3][8] = {{0}};
        for (int i = 0; i < 3; ++i) {
            mcapi_msg_recv(e1, seen[i], sizeof seen[i] - 1, &got, &st);
            check(st, "recv");
        }
        int ok = strcmp(seen[0], "fill") == 0 && seen[1][0] == 'A' && seen[2][0] == 'B' &&
                 seen[1][1] == '0' + k && seen[2][1] == '0' + k;
        if (!ok) {
            printf("namp_order FAIL: round %d received %s, %s, %s\n", k, seen[0], seen[1], seen[2]);
            fails++;
        }
        in_order += ok;
        mcapi_msg_send(ctl, a9, "next", 4, 0, &st);
    }
    if (fails)
        return 1;
    printf("namp_order ok: %d rounds in order\n", in_order);
    return 0;
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1)
        return 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS) {
        printf("namp_order FAIL: initialize -> %s\n", mcapix_status_name(st));
        return 1;
    }
    return me == 0 ? tile_a() : tile_b();
}
