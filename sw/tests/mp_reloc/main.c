/* Bare-metal endpoint relocation (mcapix_ps.h, docs/message-passing.md "Endpoint relocation"),
 * preset bareps on a 2x2 mesh. Tiles 0 and 3 each send a stream of SEQ messages (sequence number,
 * payload derived from it) to port 7 of tile 1. Tile 1 receives part of them, then relocates the
 * endpoint to tile 2 (port 8, created held there) while the streams keep coming, and tells tile 2
 * how far it got per stream. Tile 2 receives the rest: every message exactly once, in order,
 * intact. Misuse of the relocation call (NULL, to itself, a channel's endpoint, a target that is
 * not held, no PS) gets its status. Prints "mp_reloc ok" on tile 2. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_ps.h"

#define SEQ           200u
#define FIRST         70u /* messages tile 1 takes before it relocates */
#define PORT_OLD      7
#define PORT_NEW      8
#define PORT_HANDOVER 9
#define WORDS         8

static int fails;
#define EXPECT(cond, ...)                          \
    do {                                           \
        if (!(cond)) {                             \
            printf("mp_reloc FAIL: " __VA_ARGS__); \
            fails++;                               \
        }                                          \
    } while (0)

static uint32_t word(uint32_t src, uint32_t seq, uint32_t i)
{
    return src * 0x01000193u ^ seq * 0x9E3779B1u ^ i;
}

/* one message: [source][seq][payload...]; checks it and the order per source */
static void take(const uint32_t *m, size_t got, uint32_t next[4])
{
    EXPECT(got == WORDS * 4u, "size %u\n", (unsigned)got);
    const uint32_t src = m[0], seq = m[1];
    EXPECT(src == 0 || src == 3, "source %u\n", (unsigned)src);
    if (src != 0 && src != 3)
        return;
    EXPECT(seq == next[src], "stream %u: seq %u, expected %u\n", (unsigned)src, (unsigned)seq,
           (unsigned)next[src]);
    for (uint32_t i = 2; i < WORDS; ++i)
        EXPECT(m[i] == word(src, seq, i), "stream %u seq %u word %u\n", (unsigned)src,
               (unsigned)seq, (unsigned)i);
    next[src] = seq + 1;
}

static void sender(uint32_t me)
{
    mcapi_status_t st;
    mcapi_endpoint_t src = mcapi_endpoint_create(1, &st);
    mcapi_endpoint_t dst =
        mcapi_endpoint_get(MCAPI_DOMAIN, 1, PORT_OLD, MCAPI_TIMEOUT_INFINITE, &st);
    for (uint32_t seq = 0; seq < SEQ; ++seq) {
        uint32_t m[WORDS] = {me, seq};
        for (uint32_t i = 2; i < WORDS; ++i)
            m[i] = word(me, seq, i);
        mcapi_msg_send(src, dst, m, sizeof m, 0, &st);
        EXPECT(st == MCAPI_SUCCESS, "send %u: %s\n", (unsigned)seq, mcapix_status_name(st));
    }
}

static void old_location(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT_OLD, &st);
    mcapi_endpoint_t hand = mcapi_endpoint_create(PORT_HANDOVER + 1, &st);
    uint32_t next[4] = {0}, m[WORDS];
    size_t got;
    for (uint32_t k = 0; k < FIRST; ++k) {
        mcapi_msg_recv(ep, m, sizeof m, &got, &st);
        take(m, got, next);
    }
    /* misuse first: each a status, nothing moves */
    EXPECT(mcapix_endpoint_relocate(NULL, 2, PORT_NEW, 1000) == MCAPI_ERR_ENDP_INVALID, "NULL\n");
    EXPECT(mcapix_endpoint_relocate(ep, 1, PORT_NEW, 1000) == MCAPI_ERR_PARAMETER, "to itself\n");
    EXPECT(mcapix_endpoint_relocate(ep, 2, PORT_HANDOVER, 100000) == MCAPI_ERR_PARAMETER,
           "a target that is not held\n");
    const uint32_t waiting = mcapi_msg_available(ep, &st);
    EXPECT(waiting > 0, "nothing waiting to be moved\n");
    mcapi_status_t rs = mcapix_endpoint_relocate(ep, 2, PORT_NEW, MCAPI_TIMEOUT_INFINITE);
    EXPECT(rs == MCAPI_SUCCESS, "relocate: %s\n", mcapix_status_name(rs));
    /* what tile 2 must continue from, per stream */
    mcapi_endpoint_t to =
        mcapi_endpoint_get(MCAPI_DOMAIN, 2, PORT_HANDOVER, MCAPI_TIMEOUT_INFINITE, &st);
    mcapi_msg_send(hand, to, next, sizeof next, 0, &st);
    EXPECT(st == MCAPI_SUCCESS, "handover: %s\n", mcapix_status_name(st));
    /* the tombstone: a lookup of the old port still works, a send to it reaches tile 2 */
    mcapi_endpoint_t again = mcapi_endpoint_get(MCAPI_DOMAIN, 1, PORT_OLD, 1000, &st);
    EXPECT(st != MCAPI_SUCCESS || again != ep, "a local lookup of the moved port\n");
    printf("mp_reloc: tile 1 took %u + %u messages, relocated with %u waiting\n", (unsigned)next[0],
           (unsigned)next[3], (unsigned)waiting);
}

static void new_location(void)
{
    mcapi_status_t st;
    mcapi_endpoint_t ep = mcapix_endpoint_create_relocated(PORT_NEW, NULL, &st);
    EXPECT(st == MCAPI_SUCCESS, "create_relocated: %s\n", mcapix_status_name(st));
    mcapi_endpoint_t hand = mcapi_endpoint_create(PORT_HANDOVER, &st);
    uint32_t next[4], m[WORDS];
    size_t got;
    mcapi_msg_recv(hand, next, sizeof next, &got, &st);
    EXPECT(got == sizeof next, "handover size\n");
    const uint32_t first = next[0] + next[3];
    for (uint32_t k = first; k < 2 * SEQ; ++k) {
        mcapi_msg_recv(ep, m, sizeof m, &got, &st);
        EXPECT(st == MCAPI_SUCCESS, "recv: %s\n", mcapix_status_name(st));
        take(m, got, next);
    }
    EXPECT(next[0] == SEQ && next[3] == SEQ, "streams ended at %u / %u\n", (unsigned)next[0],
           (unsigned)next[3]);
    EXPECT(mcapi_msg_available(ep, &st) == 0, "a message twice\n");
    if (fails == 0)
        printf("mp_reloc ok: 2 streams of %u messages, %u at the old location, %u at the new one, "
               "each once, in order, intact\n",
               SEQ, (unsigned)first, (unsigned)(2 * SEQ - first));
}

int main(void)
{
    const uint32_t me = tile_id();
    if (tile_core_id() != 0)
        return 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS) {
        printf("mp_reloc FAIL: initialize: %s (preset bareps)\n", mcapix_status_name(st));
        return 1;
    }
    if (!mcapix_ps_available()) { /* tile 1 reports (and fails the run) */
        if (me != 1)
            return 0;
        mcapi_endpoint_t ep = mcapi_endpoint_create(PORT_OLD, &st);
        printf("mp_reloc FAIL: no NAMP-PS (relocate -> %s)\n",
               mcapix_status_name(mcapix_endpoint_relocate(ep, 2, PORT_NEW, 1000)));
        return 1;
    }
    if (me == 0 || me == 3)
        sender(me);
    else if (me == 1)
        old_location();
    else
        new_location();
    return fails != 0;
}
