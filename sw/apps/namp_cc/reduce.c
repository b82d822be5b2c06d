/* Reduction end-to-end test of the mcapix_ reduction calls (mcapix_cc.h): tiles 1..4 contribute a
 * 96-byte vector each to tile 0 for every op x type of the adapter's table (8 x 6 = 48
 * reductions). Tile 0 prints an FNV-1a checksum of each result; tests/mp/cc_reduce_check.py
 * computes the expected results on the host and compares. After each reduction tile 0 sends the
 * checksum back to every contributor (an allreduce of the checksum), which keeps the reductions in
 * lock-step for the software path. The same code runs in the adapter (preset barered) and in
 * software (no reduction in the adapter, or the software transport). */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"

#define NCONTRIB     4u
#define VSIZE        96u
#define PORT_ROOT    1u
#define PORT_CONTRIB 2u

static uint8_t vec[VSIZE] __attribute__((aligned(8)));
static uint8_t result[VSIZE + 8] __attribute__((aligned(8)));
static mcapix_reduce_rx_t rx;
static mcapix_reduce_tx_t tx;

#define CHECK(st, what)                                                         \
    do {                                                                        \
        if ((st) != MCAPI_SUCCESS) {                                            \
            printf("reduce FAIL: tile %u: %s: %s\n", (unsigned)tile_id(), what, \
                   mcapix_status_name(st));                                     \
            return 1;                                                           \
        }                                                                       \
    } while (0)

/* byte i of tile t's vector for (op, type): about a third of the bytes are 0 (logical ops) */
static uint8_t gen(uint32_t t, uint32_t op, uint32_t type, uint32_t i)
{
    uint32_t x = t * 0x9E3779B1u ^ (op * 8u + type) * 0x85EBCA77u ^ i * 0xC2B2AE3Du;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return (x % 3u) == 0 ? 0 : (uint8_t)(x >> 24);
}

static uint32_t fnv(const uint8_t *p, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static int root(void)
{
    mcapi_status_t st;
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 2, .max_msg_log2 = 7};
    mcapi_endpoint_t ep = mcapix_endpoint_create(PORT_ROOT, &a, &st);
    CHECK(st, "endpoint_create");
    mcapi_endpoint_t peers[NCONTRIB];
    for (uint32_t t = 1; t <= NCONTRIB; ++t) {
        peers[t - 1] =
            mcapi_endpoint_get(MCAPI_DOMAIN, t, PORT_CONTRIB, MCAPI_TIMEOUT_INFINITE, &st);
        CHECK(st, "endpoint_get");
    }
    static mcapix_mcast_group_t back;
    mcapix_mcast_create(&back, ep, peers, NCONTRIB, &st);
    CHECK(st, "mcast_create");
    /* the root is set up before any contribution: then the contributors may start */
    mcapix_reduce_rx_create(&rx, ep, NCONTRIB, &st);
    CHECK(st, "reduce_rx_create");
    uint32_t go = 0;
    mcapix_mcast_send(&back, &go, 4, &st);
    CHECK(st, "go");
    uint32_t hw = rx.hw;
    for (uint32_t op = 0; op < MCAPIX_OPS; ++op)
        for (uint32_t type = 0; type < MCAPIX_TYPES; ++type) {
            size_t got;
            mcapix_reduce_recv(&rx, op, type, result, sizeof result, &got, &st);
            CHECK(st, "reduce_recv");
            if (got != VSIZE) {
                printf("reduce FAIL: op %u type %u: %u bytes\n", (unsigned)op, (unsigned)type,
                       (unsigned)got);
                return 1;
            }
            uint32_t h = fnv(result, VSIZE);
            printf("reduce op=%u type=%u fnv=%08x\n", (unsigned)op, (unsigned)type, (unsigned)h);
            mcapix_mcast_send(&back, &h, 4, &st);
            CHECK(st, "result back");
        }
    printf("reduce ok: %u reductions of %u contributions, hw=%u features=0x%x\n",
           (unsigned)(MCAPIX_OPS * MCAPIX_TYPES), (unsigned)NCONTRIB, (unsigned)hw,
           (unsigned)mcapix_cc_features());
    return 0;
}

static int contributor(uint32_t me)
{
    mcapi_status_t st;
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT_CONTRIB, &st);
    CHECK(st, "endpoint_create");
    mcapi_endpoint_t rootep =
        mcapi_endpoint_get(MCAPI_DOMAIN, 0, PORT_ROOT, MCAPI_TIMEOUT_INFINITE, &st);
    CHECK(st, "endpoint_get");
    /* bad paths first: an op and a type outside the table, a size that is not a multiple */
    mcapix_reduce_tx_create(NULL, ep, rootep, &st);
    if (st != MCAPI_ERR_PARAMETER)
        CHECK(MCAPI_ERR_GENERAL, "NULL contributor accepted");
    mcapix_reduce_tx_create(&tx, ep, rootep, &st);
    CHECK(st, "reduce_tx_create");
    mcapix_reduce_send(&tx, MCAPIX_OPS, MCAPIX_T_INT8, vec, 4, &st);
    if (st != MCAPI_ERR_PARAMETER)
        CHECK(MCAPI_ERR_GENERAL, "op outside the table accepted");
    mcapix_reduce_send(&tx, MCAPIX_OP_SUM, MCAPIX_TYPES, vec, 4, &st);
    if (st != MCAPI_ERR_PARAMETER)
        CHECK(MCAPI_ERR_GENERAL, "type outside the table accepted");
    mcapix_reduce_send(&tx, MCAPIX_OP_SUM, MCAPIX_T_INT32, vec, 6, &st);
    if (st != MCAPI_ERR_PARAMETER)
        CHECK(MCAPI_ERR_GENERAL, "size 6 of int32 accepted");
    /* a NULL status pointer: unreported, neither a fault nor a contribution */
    mcapix_reduce_tx_create(NULL, ep, rootep, NULL);
    mcapix_reduce_send(&tx, MCAPIX_OPS, MCAPIX_T_INT8, vec, 4, NULL);
    mcapix_reduce_send(NULL, MCAPIX_OP_SUM, MCAPIX_T_INT32, vec, 4, NULL);
    uint32_t go;
    size_t gsz;
    mcapi_msg_recv(ep, &go, sizeof go, &gsz, &st); /* the root is ready */
    CHECK(st, "go");
    for (uint32_t op = 0; op < MCAPIX_OPS; ++op)
        for (uint32_t type = 0; type < MCAPIX_TYPES; ++type) {
            for (uint32_t i = 0; i < VSIZE; ++i)
                vec[i] = gen(me, op, type, i);
            mcapix_reduce_send(&tx, op, type, vec, VSIZE, &st);
            CHECK(st, "reduce_send");
            uint32_t h;
            size_t got;
            mcapi_msg_recv(ep, &h, sizeof h, &got, &st); /* the root has the result */
            CHECK(st, "result");
        }
    printf("reduce contributor %u ok\n", (unsigned)me);
    return 0;
}

int main(void)
{
    uint32_t me = tile_id();
    if (tile_core_id() != 0 || me > NCONTRIB)
        return 0;
    mcapi_status_t st;
    mcapi_initialize(MCAPI_DOMAIN, me, NULL, NULL, NULL, &st);
    CHECK(st, "initialize");
    return me == 0 ? root() : contributor(me);
}
