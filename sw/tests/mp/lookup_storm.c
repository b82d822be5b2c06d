/* Lookup storm (issue 7, hole 6): every tile but 0 calls mcapi_endpoint_get(node 0, port 1,
 * MCAPI_TIMEOUT_INFINITE) at once, before tile 0 has created the port. Tile 0 first waits, then
 * creates the port and receives one message from every client. Without a bounded lookup load the
 * progress engine of tile 0 serves "no such port" answers forever and its main never creates the
 * port (the run ends at --max-cycles). Prints "lookup_storm ok: <n> clients". */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapi.h"

#define SERVER_DELAY_US 200u /* the clients are all retrying by then */

static int server(uint32_t clients)
{
    mcapi_status_t st;
    timer_delay_us(SERVER_DELAY_US);
    mcapi_endpoint_t ep = mcapi_endpoint_create(1, &st);
    if (st != MCAPI_SUCCESS) {
        printf("lookup_storm FAIL: create -> %s\n", mcapix_status_name(st));
        return 1;
    }
    uint64_t seen = 0; /* up to 64 tiles */
    for (uint32_t i = 0; i < clients; ++i) {
        uint32_t who = 0;
        size_t got = 0;
        mcapi_msg_recv(ep, &who, sizeof who, &got, &st);
        if (st != MCAPI_SUCCESS || got != sizeof who || who == 0 || who > clients ||
            (seen & (1ull << who))) {
            printf("lookup_storm FAIL: message %u: %s, %u bytes, from %u\n", (unsigned)i,
                   mcapix_status_name(st), (unsigned)got, (unsigned)who);
            return 1;
        }
        seen |= 1ull << who;
    }
    printf("lookup_storm ok: %u clients (server: %u packets received, %u interrupts)\n",
           (unsigned)clients, (unsigned)mcapix_stats()->packets_rx,
           (unsigned)mcapix_stats()->isr_count);
    return 0;
}

static int client(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t me = mcapi_endpoint_create(1, &st);
    mcapi_endpoint_t srv = mcapi_endpoint_get(MCAPI_DOMAIN, 0, 1, MCAPI_TIMEOUT_INFINITE, &st);
    if (st != MCAPI_SUCCESS) {
        printf("lookup_storm FAIL: get -> %s\n", mcapix_status_name(st));
        return 1;
    }
    uint32_t id = tile_id();
    mcapi_msg_send(me, srv, &id, sizeof id, 0, &st);
    if (st != MCAPI_SUCCESS) {
        printf("lookup_storm FAIL: send -> %s\n", mcapix_status_name(st));
        return 1;
    }
    return 0;
}

int main(void)
{
    if (tile_core_id() != 0)
        return 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, tile_id(), NULL, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS) {
        printf("lookup_storm FAIL: initialize -> %s\n", mcapix_status_name(st));
        return 1;
    }
    uint32_t n = tile_mesh_width() * tile_mesh_height();
    int rc = tile_id() == 0 ? server(n - 1u) : client();
    mcapi_finalize(&st);
    return rc;
}
