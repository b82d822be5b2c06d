/* Refused configurations: run on a NAMP without channels (preset baremsg). Tile 0:
 *  - driver level: a slot with a reserved flag bit, a slot whose handle address is outside SRAM,
 *    and a connection-oriented transfer each finish with DONE + STATUS ERROR and the expected code;
 *  - API level: a packet channel to tile 1 connects (set-up is software), then pktchan_send
 *    returns MCAPI_ERR_NOT_SUPPORTED; a connection-less message still gets through.
 * Prints "namp_refused ok" and exits 0. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "na/na.h"
#include "namp/namp.h"

static int fails;
#define EXPECT(cond, ...)                              \
    do {                                               \
        if (!(cond)) {                                 \
            printf("namp_refused FAIL: " __VA_ARGS__); \
            fails++;                                   \
        }                                              \
    } while (0)

static uint32_t run(uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3, uint32_t *status)
{
    int s = namp_slot_alloc();
    namp_slot_start((unsigned)s, flags, p1, p2, p3);
    while (!namp_slot_done((unsigned)s))
        ;
    *status = namp_slot_status((unsigned)s);
    uint32_t e = namp_slot_finish((unsigned)s);
    namp_slot_free((unsigned)s);
    return e;
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > 1)
        return 0;
    if (na_namp_slots() == 0) {
        if (me == 0)
            printf("FAIL: no NAMP in this configuration\n");
        return 1;
    }
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    if (me == 1) {
        mcapi_endpoint_t a = mcapi_endpoint_create(1, &st);
        mcapi_endpoint_t b = mcapi_endpoint_create(2, &st);
        char buf[16];
        size_t got;
        mcapi_msg_recv(b, buf, sizeof buf, &got, &st);
        printf("namp_refused: tile 1 got %u bytes: %s\n", (unsigned)got, mcapix_status_name(st));
        (void)a;
        return 0;
    }
    uint32_t feat = na_features();
    printf("namp_refused: features 0x%08x, %u slots\n", (unsigned)feat, (unsigned)na_namp_slots());
    static namp_handle_t h __attribute__((aligned(8)));
    static uint32_t data[4];
    h.tile = 1;
    uint32_t status, e;
    e = run(NAMP_FLAG_VALID | (1u << 7), (uint32_t)(uintptr_t)&h, (uint32_t)(uintptr_t)data, 4,
            &status);
    printf("namp_refused: reserved flag -> 0x%08x %s\n", (unsigned)status, namp_error_name(e));
    EXPECT(e == NAMP_ERR_MODE_UNSUPPORTED || e == NAMP_ERR_INVALID_FLAGS, "reserved flag: %u\n",
           (unsigned)e);
    e = run(0, 0x10u, (uint32_t)(uintptr_t)data, 4, &status);
    printf("namp_refused: handle outside SRAM -> 0x%08x %s\n", (unsigned)status,
           namp_error_name(e));
    EXPECT(e == NAMP_ERR_BAD_PARAM, "bad handle: %u\n", (unsigned)e);
    if (!(feat & NA_FEATURE_NAMP_CHAN)) {
        e = run(NAMP_FLAG_CON, (uint32_t)(uintptr_t)&h, (uint32_t)(uintptr_t)data, 4, &status);
        printf("namp_refused: channel mode -> 0x%08x %s\n", (unsigned)status, namp_error_name(e));
        EXPECT(e == NAMP_ERR_MODE_UNSUPPORTED, "channel mode: %u\n", (unsigned)e);
        /* API level */
        mcapi_endpoint_t mine = mcapi_endpoint_create(5, &st);
        mcapi_endpoint_t peer = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 1, MCAPI_TIMEOUT_INFINITE, &st);
        mcapi_request_t r;
        mcapi_pktchan_send_hndl_t sh;
        mcapi_pktchan_connect_i(mine, peer, &r, &st);
        EXPECT(st == MCAPI_SUCCESS, "connect: %s\n", mcapix_status_name(st));
        mcapi_pktchan_send_open_i(&sh, mine, &r, &st);
        mcapi_pktchan_send(sh, data, 4, &st);
        printf("namp_refused: pktchan_send -> %s\n", mcapix_status_name(st));
        EXPECT(st == MCAPI_ERR_NOT_SUPPORTED, "pktchan_send: %s\n", mcapix_status_name(st));
        mcapi_endpoint_t m2 = mcapi_endpoint_get(MCAPI_DOMAIN, 1, 2, MCAPI_TIMEOUT_INFINITE, &st);
        mcapi_msg_send(mine, m2, "hello", 6, 0, &st); /* a channel's endpoint: refused */
        EXPECT(st == MCAPI_ERR_CHAN_CONNECTED, "msg_send from a channel: %s\n",
               mcapix_status_name(st));
        mcapi_endpoint_t other = mcapi_endpoint_create(6, &st);
        mcapi_msg_send(other, m2, "hello", 6, 0, &st);
        printf("namp_refused: msg_send -> %s\n", mcapix_status_name(st));
        EXPECT(st == MCAPI_SUCCESS, "msg_send: %s\n", mcapix_status_name(st));
    }
    if (fails)
        return 1;
    printf("namp_refused ok\n");
    return 0;
}
