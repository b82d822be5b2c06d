/* A mixed-priority workload where the arbitration policy must matter: on tile 0, BULK_SLOTS
 * slots stream BULK_SIZE-byte messages in continuous mode (CCM, connection-less) from send
 * buffers filled beforehand to tiles 1, 4, 5, 2, so the egress FSM always has many due slots and
 * the core is free; one more slot, PRIORITY 255, sends a 4-byte urgent message to tile 3 every
 * URGENT_EVERY cycles (the bulk slots have PRIORITY 0). Under QoS (namp.arbitration=qos) the
 * urgent slot's steps go first; under LRS and MAP it waits its turn among the bulk slots. Driver
 * level (raw slot registers and buffers, no MCAPI), so that only the adapter decides. Needs
 * namp.slots >= BULK_SLOTS + 1.
 * Measured on tile 0: the urgent messages' latency from VALID to DONE (mean and worst; the core
 * spins on the urgent slot's FLAGS) and the bulk throughput while they ran. Marks: id = 15 << 28
 * | metric << 20 | value, metric 0 urgent mean latency, 1 its worst, 2 bulk bytes per 1000
 * cycles. */
#include <stdio.h>
#include <string.h>

#include "hal/hal.h"
#include "mp/cbuffer.h"
#include "na/na.h"
#include "namp/namp_regs.h"
#include "namp_structs.h"

#define BULK_SLOTS   15u
#define BULK_SIZE    64u
#define URGENT_N     32u
#define URGENT_EVERY 1500u
#define SEND_N       7u /* 128 elements per bulk send buffer: enough for the measurement */
#define NR           5u
static const uint32_t rx_tile[NR] = {1, 4, 5, 2, 3}; /* the last one receives the urgent ones */

static uint32_t ep[NAMP_EP_SIZE / 4] __attribute__((aligned(64)));
static uint8_t rx[MP_CB_HEADER_SIZE + (4u << 6) + (BULK_SIZE << 6)] __attribute__((aligned(64)));
static uint32_t handle[NR][NAMP_H_SIZE / 4] __attribute__((aligned(64)));
static uint8_t data[BULK_SIZE] __attribute__((aligned(8)));
static uint8_t sendbuf[BULK_SLOTS][MP_CB_HEADER_SIZE + (4u << SEND_N) + (BULK_SIZE << SEND_N)]
    __attribute__((aligned(64)));

static void start(uint32_t s, uint32_t r, uint32_t size)
{
    namp_reg_slot_start(s, 0, (uint32_t)handle[r], (uint32_t)data, size);
}

static int finish(uint32_t s)
{
    uint32_t st = namp_reg_slot_status(s);
    namp_reg_slot_set_flags(s, 0);
    if (st & NAMP_STATUS_ERROR) {
        printf("namp_qos FAIL: slot %u status 0x%x\n", (unsigned)s, (unsigned)st);
        return 1;
    }
    return 0;
}

static int receiver(void)
{
    mp_cbuffer_t *b = (mp_cbuffer_t *)rx;
    for (;;) {
        uint32_t idx;
        if (mp_cbuffer_read(b, &idx) != 0)
            continue;
        uint32_t w = *(const uint32_t *)mp_cbuffer_data(b, idx);
        mp_cbuffer_free(b, idx);
        if (w == 0xDEADu)
            return 0;
    }
}

int main(void)
{
    const uint32_t me = tile_id();
    if (tile_core_id() != 0 || tile_mesh_width() * tile_mesh_height() < 16)
        return 0;
    mp_cbuffer_init(rx, 6, 6, 0);
    memset(ep, 0, sizeof ep);
    ep[NAMP_EP_STATE / 4] = NAMP_EP_STATE_READY;
    ep[NAMP_EP_RX_BUFFER / 4] = (uint32_t)rx;
    for (uint32_t r = 0; r < NR; ++r) {
        if (rx_tile[r] == me)
            return receiver();
        memset(handle[r], 0, sizeof handle[r]);
        handle[r][NAMP_H_TILE / 4] = rx_tile[r];
        handle[r][NAMP_H_ENDPOINT / 4] = (uint32_t)ep; /* the same address on every tile */
    }
    if (me != 0)
        return 0;
    if (na_namp_slots() < BULK_SLOTS + 1) {
        printf("namp_qos FAIL: needs namp.slots >= %u\n", (unsigned)(BULK_SLOTS + 1));
        return 1;
    }
    const uint32_t urgent = BULK_SLOTS, arb = mmio_read32(TILE_NA_BASE + NA_NAMP_ARBITRATION);
    for (uint32_t s = 0; s <= BULK_SLOTS; ++s)
        namp_reg_slot_set_priority(s, s == urgent ? 255u : 0u);
    memset(data, 0x11, sizeof data);
    /* the receivers start their loops after their own (short) set-up */
    for (uint64_t t = cpu_cycles() + 20000; cpu_cycles() < t;)
        ;
    uint32_t queued = 0;
    for (uint32_t s = 0; s < BULK_SLOTS; ++s) {
        mp_cbuffer_init(sendbuf[s], SEND_N, 6, 0);
        while (mp_cbuffer_push((mp_cbuffer_t *)sendbuf[s], data, BULK_SIZE) == 0)
            queued++;
    }
    const uint64_t t0 = cpu_cycles();
    for (uint32_t s = 0; s < BULK_SLOTS; ++s) {
        namp_reg_slot_start(s, NAMP_FLAG_BUF | NAMP_FLAG_CCM, (uint32_t)handle[s % 4u],
                            (uint32_t)sendbuf[s], 0);
    }
    uint64_t lat_sum = 0, lat_max = 0;
    for (uint32_t n = 0; n < URGENT_N; ++n) {
        uint64_t t = t0 + (uint64_t)(n + 1) * URGENT_EVERY;
        while (cpu_cycles() < t)
            ;
        uint64_t ts = cpu_cycles();
        start(urgent, 4, 4);
        while (!(namp_reg_slot_flags(urgent) & NAMP_FLAG_DONE))
            ;
        uint64_t l = cpu_cycles() - ts;
        if (finish(urgent))
            return 1;
        lat_sum += l;
        lat_max = l > lat_max ? l : lat_max;
    }
    const uint64_t t1 = cpu_cycles();
    uint32_t left = 0;
    for (uint32_t s = 0; s < BULK_SLOTS; ++s)
        left += (uint32_t)(mp_cbuffer_used((mp_cbuffer_t *)sendbuf[s]));
    if (left == 0) {
        printf("namp_qos FAIL: the bulk streams ran dry before the urgent messages ended\n");
        return 1;
    }
    const uint32_t bulk_done = queued - left;
    for (uint32_t s = 0; s < BULK_SLOTS; ++s) /* leave CCM: the slots end after their element */
        namp_reg_slot_set_flags(s, NAMP_FLAG_BUF | NAMP_FLAG_VALID);
    for (uint32_t s = 0; s < BULK_SLOTS; ++s) {
        while (!(namp_reg_slot_flags(s) & NAMP_FLAG_DONE))
            ;
        if (finish(s))
            return 1;
    }
    static uint32_t stop = 0xDEADu;
    for (uint32_t r = 0; r < NR; ++r) { /* tell the receivers, behind everything else */
        namp_reg_slot_start(0, 0, (uint32_t)handle[r], (uint32_t)&stop, 4);
        while (!(namp_reg_slot_flags(0) & NAMP_FLAG_DONE))
            ;
        if (finish(0))
            return 1;
    }
    uint32_t mean = (uint32_t)(lat_sum / URGENT_N);
    uint64_t mbpc = (uint64_t)bulk_done * BULK_SIZE * 1000u / (t1 - t0);
    sim_mark(15u << 28 | 0u << 20 | (mean > 0xFFFFF ? 0xFFFFFu : mean));
    sim_mark(15u << 28 | 1u << 20 | (uint32_t)(lat_max > 0xFFFFF ? 0xFFFFF : lat_max));
    sim_mark(15u << 28 | 2u << 20 | (uint32_t)(mbpc > 0xFFFFF ? 0xFFFFF : mbpc));
    printf("namp_qos arbitration %s: urgent latency mean %u max %u cycles; bulk %u messages, "
           "%u.%03u B/cycle\n",
           arb == NAMP_ARB_QOS   ? "qos"
           : arb == NAMP_ARB_MAP ? "map"
                                 : "lrs",
           (unsigned)mean, (unsigned)lat_max, (unsigned)bulk_done, (unsigned)(mbpc / 1000),
           (unsigned)(mbpc % 1000));
    return 0;
}
