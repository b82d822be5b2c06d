/* NAMP all-to-all for the scale benchmark (bench/scale.py): core 0 of every tile sends one 16-byte
 * connection-less message to each of P partners and receives one from each of P senders, then
 * exits. Partners are spread over the whole mesh: tile (me + k * stride) mod N for k = 1..P, with
 * P = min(N - 1, A2A_PEERS) and stride = max(1, N / (P + 1)), so each tile also receives from P
 * tiles. With P = N - 1 (A2A_PEERS >= N - 1) it is the complete all-to-all.
 *
 * Everything is the NAMP driver (no MCAPI: its remote-handle table is sized for small meshes):
 * the endpoint and its receive buffer are at the same address in every tile (same ELF), so a
 * handle needs only the destination tile. Sends sleep until DONE (namp_run); a send to a tile
 * whose endpoint is not ready yet fails with NO_ENDPOINT and is repeated. Received messages are
 * drained between sends and afterwards, sleeping on the receive counter's interrupt.
 * Exit 0 when every message arrived with the right payload; tile 0 prints one line. */
#include <stdio.h>

#include "hal/hal.h"
#include "mp/cbuffer.h"
#include "na/na.h"
#include "namp/namp.h"

#ifndef A2A_PEERS
#define A2A_PEERS 0xffffffffu
#endif
#define RX_LOG2  6u /* 64 messages in the receive buffer */
#define MSG_LOG2 4u /* of at most 16 bytes */

static namp_endpoint_t ep __attribute__((aligned(64)));
static namp_handle_t handle __attribute__((aligned(64)));
static uint8_t rx_mem[MP_CB_HEADER_SIZE + (4u << RX_LOG2) + (1u << (RX_LOG2 + MSG_LOG2))]
    __attribute__((aligned(8)));
static uint32_t received, sender_sum;

static void drain(void)
{
    mp_cbuffer_t *rx = (mp_cbuffer_t *)rx_mem;
    uint32_t msg[4], size, got = 0;
    while (mp_cbuffer_pop(rx, msg, sizeof msg, &size) == 0) {
        received++;
        sender_sum += msg[0] ^ msg[1]; /* msg[1] = ~tile: a corrupted payload breaks the sum */
        got++;
    }
    if (got)
        namp_rx_ack(got);
}

int main(void)
{
    if (tile_core_id() != 0)
        return 0;
    const uint32_t me = tile_id(), n = tile_mesh_width() * tile_mesh_height();
    if (namp_init() == 0) {
        printf("namp_a2a FAIL: no NAMP\n");
        return 1;
    }
    mp_cbuffer_init(rx_mem, RX_LOG2, MSG_LOG2, 0);
    ep.flags = NAMP_EP_F_NOTIFY;
    ep.rx_buffer = (uint32_t)(uintptr_t)rx_mem;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    ep.state = NAMP_EP_STATE_READY;
    /* NAMP_DONE and the receive counter wake the core from wfi (interrupts stay globally off) */
    na_irq_set_mask(NA_IRQ_SRC_NAMP_DONE | NA_IRQ_SRC_RX_COUNT);
    irq_enable(IRQ_M_EXT);

    const uint32_t peers = n - 1 < A2A_PEERS ? n - 1 : A2A_PEERS;
    const uint32_t stride = n / (peers + 1) ? n / (peers + 1) : 1;
    uint32_t payload[4] = {me, ~me, 0, 0}, expected = 0, retries = 0;
    handle.endpoint = (uint32_t)(uintptr_t)&ep;
    for (uint32_t k = 1; k <= peers; k++) {
        const uint32_t src = (me + n - (k * stride) % n) % n; /* who sends to me in round k */
        expected += src ^ ~src;
        handle.tile = (me + k * stride) % n;
        for (;;) {
            int32_t e = namp_run(0, (uint32_t)(uintptr_t)&handle, (uint32_t)(uintptr_t)payload,
                                 sizeof payload, NULL);
            drain();
            if (e == 0)
                break;
            if (e != NAMP_ERR_NO_ENDPOINT) {
                printf("namp_a2a FAIL: tile %lu -> %lu: %s\n", (unsigned long)me,
                       (unsigned long)handle.tile, namp_error_name((uint32_t)e));
                return 1;
            }
            retries++; /* the partner has not started yet */
        }
    }
    while (received < peers) {
        if (namp_rx_count() == 0)
            wait_for_interrupt();
        drain();
    }
    if (sender_sum != expected) {
        printf("namp_a2a FAIL: tile %lu: wrong payloads\n", (unsigned long)me);
        return 1;
    }
    if (me == 0)
        printf("namp_a2a ok: %lu tiles, %lu messages each way per tile, %lu retries on tile 0\n",
               (unsigned long)n, (unsigned long)peers, (unsigned long)retries);
    return 0;
}
