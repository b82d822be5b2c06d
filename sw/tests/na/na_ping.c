/* Raw-packet ping with interrupts: tile 0 sends ROUNDS pings (NoC buffer 0, control request) to
 * every other tile; each tile answers with value + 1 on buffer 1 (control response). Both sides
 * receive in the MEIP handler (NA interrupt sources RX0 / RX1) and sleep in wfi otherwise.
 * Expected: "pong tile=<t> served <ROUNDS>" per tile, "ping ok: <n> replies"; exit 0. */
#include <stdio.h>

#include "na_fw.h"

#define ROUNDS 8
#define QUEUE  32

static volatile uint32_t q_src[QUEUE], q_val[QUEUE], q_head, q_tail, bad;

static void na_handler(trap_frame_t *frame)
{
    if (frame->mcause != (MCAUSE_INTERRUPT | IRQ_M_EXT))
        bad++;
    for (unsigned buf = 0; buf < 2; buf++) {
        while (na_rx_waiting(buf)) {
            uint32_t w[4];
            unsigned n;
            uint32_t h = na_recv(buf, w, 4, &n);
            if (n != 1 || ((h >> NOC_HDR_CHANNEL_SHIFT) & 3u) != buf || (h & 15u) != 3u + buf)
                bad++;
            q_src[q_tail % QUEUE] = na_src_tile(h);
            q_val[q_tail % QUEUE] = w[0];
            q_tail++;
        }
    }
}

static int pop(uint32_t *src, uint32_t *val)
{
    uint32_t saved = irq_global_disable();
    int got = q_head != q_tail;
    if (got) {
        *src = q_src[q_head % QUEUE];
        *val = q_val[q_head % QUEUE];
        q_head++;
    } else {
        wait_for_interrupt(); /* returns when a packet is pending, handler runs on restore */
    }
    irq_global_restore(saved);
    return got;
}

int main(void)
{
    uint32_t me = na_rd(NA_TILE_ID);
    uint32_t mesh = na_rd(NA_MESH_SIZE);
    uint32_t tiles = (mesh & 0xFFFFu) * (mesh >> 16);
    irq_set_handler(IRQ_M_EXT, na_handler);
    na_wr(NA_IRQ_BASE + NA_IRQ_MASK, me == 0 ? NA_IRQ_SRC_RX1 : NA_IRQ_SRC_RX0);
    irq_enable(IRQ_M_EXT);
    irq_global_enable();

    uint32_t src, val;
    if (me != 0) {
        unsigned served = 0;
        while (served < ROUNDS) {
            if (!pop(&src, &val))
                continue;
            uint32_t reply = val + 1;
            na_send(1, src, 4, &reply, 1);
            served++;
        }
        printf("pong tile=%lu served %u\n", (unsigned long)me, served);
        return bad ? 1 : 0;
    }
    unsigned replies = 0, wrong = 0;
    for (unsigned r = 0; r < ROUNDS; r++) {
        for (uint32_t t = 1; t < tiles; t++) {
            uint32_t v = (r << 8) | t;
            na_send(0, t, 3, &v, 1);
        }
        for (uint32_t t = 1; t < tiles;) {
            if (!pop(&src, &val))
                continue;
            if (val != (((r << 8) | src) + 1))
                wrong++;
            replies++;
            t++;
        }
    }
    if (wrong || bad || na_rd(NA_IRQ_BASE + NA_IRQ_PENDING) != 0) {
        printf("ping FAILED: %u wrong, %lu bad\n", wrong, (unsigned long)bad);
        return 1;
    }
    printf("ping ok: %u replies\n", replies);
    return 0;
}
