/* Energy per message (docs/energy.md): the same application code on every transport, so that two
 * runs that differ only in the number of messages give the energy of those messages
 * (scripts/energy-bench subtracts the run with count 0 from the run with count K; set-up, exit and
 * the idle tiles cancel out).
 *
 * tile.arg = count << 12 | members << 8 | path << 6 | kind << 4 | log2(size):
 *   kind 0  point to point: tile 0 sends `count` blocking connection-less messages to tile 1;
 *           path (software transport, energy_msg_sw): the data path, 0 buffer, 1 RMA, 2 RDMA;
 *           over the NAMP (energy_msg_namp) path must be 0 (unbuffered send mode);
 *   kind 1  multicast: tile 0 sends `count` multicasts to tiles 1..members with
 *           mcapix_mcast_send; path 0 the adapter's NAMP-CC where it has it (MCAPIX_CC_AUTO),
 *           1 the software loop of blocking sends (MCAPIX_CC_SOFTWARE).
 * Every receiver checks the size and the first and last word of every message (O(1): the check
 * costs the same whatever the transport). Then tile 0 sends each receiver a 4-byte end message,
 * so that no receiver leaves before tile 0 has looked its endpoint up (also with count 0); tiles
 * not involved exit at once.
 * Console: "energy_msg ok: ..." on tile 0; "energy_msg FAIL: ..." and exit 1 otherwise. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mcapix_cc.h"

#define PORT     1u
#define MAX_LOG2 12u

static uint8_t buf[1u << MAX_LOG2] __attribute__((aligned(8)));
static uint8_t rbuf[1u << MAX_LOG2] __attribute__((aligned(8)));
static mcapix_mcast_group_t group;

static void die(const char *what, mcapi_status_t st)
{
    printf("energy_msg FAIL: tile %u: %s: %s\n", (unsigned)tile_id(), what, mcapix_status_name(st));
    sim_shutdown(1);
}

static uint32_t word_of(uint32_t k, uint32_t i) { return k * 0x9e3779b1u ^ i; }

/* the first word (from 8 bytes on) and the last word of message k */
static void fill(uint32_t k, uint32_t size)
{
    uint32_t first = word_of(k, 0), last = word_of(k, 1);
    if (size >= 8)
        memcpy(buf, &first, 4);
    memcpy(buf + size - 4, &last, 4);
}

static void receive(mcapi_endpoint_t ep, uint32_t count, uint32_t size)
{
    for (uint32_t k = 0; k <= count; ++k) { /* the last one is the end message */
        mcapi_status_t st;
        size_t got = 0;
        mcapi_msg_recv(ep, rbuf, sizeof rbuf, &got, &st);
        if (st != MCAPI_SUCCESS)
            die("recv", st);
        if (k == count) {
            if (got != 4)
                die("end message", MCAPI_ERR_MSG_SIZE);
            return;
        }
        uint32_t first, last;
        memcpy(&first, rbuf, 4);
        memcpy(&last, rbuf + size - 4, 4);
        if (got != size || (size >= 8 && first != word_of(k, 0)) || last != word_of(k, 1)) {
            printf("energy_msg FAIL: tile %u: message %u: %u bytes (want %u) or corrupt\n",
                   (unsigned)tile_id(), (unsigned)k, (unsigned)got, (unsigned)size);
            sim_shutdown(1);
        }
    }
}

int main(void)
{
    const uint32_t arg = tile_arg(), me = tile_id();
    const uint32_t lg = arg & 15u, kind = (arg >> 4) & 3u, path = (arg >> 6) & 3u;
    const uint32_t members = kind == 1 ? (arg >> 8) & 15u : 1u, count = arg >> 12;
    const uint32_t size = 1u << lg, tiles = tile_mesh_width() * tile_mesh_height();
    if (tile_core_id() != 0 || me > members)
        return 0;
    if (lg < 2 || lg > MAX_LOG2 || kind > 1 || members == 0 || members >= tiles ||
        (kind == 0 && path > 2) || (kind == 1 && path > 1)) {
        if (me == 0)
            printf("energy_msg FAIL: tile.arg 0x%08lx: size 2^%u, kind %u, path %u, %u members on "
                   "%u tiles is not a workload\n",
                   (unsigned long)arg, (unsigned)lg, (unsigned)kind, (unsigned)path,
                   (unsigned)members, (unsigned)tiles);
        return me == 0 ? 1 : 0;
    }
    mcapi_status_t st;
    mcapi_node_attributes_t attrs = {.data_path = kind == 0 ? path : MP_PATH_BUFFER};
    mcapi_initialize(MCAPI_DOMAIN, me, &attrs, NULL, NULL, &st);
    if (st != MCAPI_SUCCESS)
        die("initialize", st);
    mcapix_endpoint_attributes_t a = {.capacity_log2 = 3, .max_msg_log2 = MAX_LOG2};
    mcapi_endpoint_t ep = mcapix_endpoint_create(PORT, &a, &st);
    if (st != MCAPI_SUCCESS)
        die("endpoint_create", st);
    if (me != 0) {
        receive(ep, count, size);
        return 0;
    }
    mcapi_endpoint_t peers[MCAPIX_CC_MAX_MEMBERS];
    for (uint32_t m = 0; m < members; ++m) {
        peers[m] = mcapi_endpoint_get(MCAPI_DOMAIN, 1 + m, PORT, MCAPI_TIMEOUT_INFINITE, &st);
        if (st != MCAPI_SUCCESS)
            die("endpoint_get", st);
    }
    memset(buf, 0x5a, size);
    if (kind == 1) {
        mcapix_cc_set_path(path == 0 ? MCAPIX_CC_AUTO : MCAPIX_CC_SOFTWARE);
        mcapix_mcast_create(&group, ep, peers, members, &st);
        if (st != MCAPI_SUCCESS)
            die("mcast_create", st);
    }
    for (uint32_t k = 0; k < count; ++k) {
        fill(k, size);
        if (kind == 1)
            mcapix_mcast_send(&group, buf, size, &st);
        else
            mcapi_msg_send(ep, peers[0], buf, size, 0, &st);
        if (st != MCAPI_SUCCESS)
            die("send", st);
    }
    for (uint32_t m = 0; m < members; ++m) {
        mcapi_msg_send(ep, peers[m], buf, 4, 0, &st);
        if (st != MCAPI_SUCCESS)
            die("end message", st);
    }
    printf("energy_msg ok: %u %s of %u bytes to %u tile%s\n", (unsigned)count,
           kind == 1 ? "multicasts" : "messages", (unsigned)size, (unsigned)members,
           members == 1 ? "" : "s");
    return 0;
}
