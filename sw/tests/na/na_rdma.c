/* RDMA put of odd sizes at odd offsets, tile 0 -> tile 1, checked by the receiver.
 * Tile 1 fills its destination area with 0xA5 and sends READY; tile 0 copies each block with DMA
 * slot (i % slots), waits for DONE, then sends (offset, size, checksum) on buffer 0; tile 1 checks
 * the checksum of the received bytes and that the bytes just before and after are untouched, and
 * answers with the result on buffer 1. Tiles 2.. only exit.
 * Expected: "rdma block <size> ok" per block, "rdma ok: <n> blocks, <bytes> bytes"; exit 0. */
#include <stdio.h>
#include <string.h>

#include "na_fw.h"

#define NBLOCKS 7
static const uint32_t sizes[NBLOCKS] = {1, 3, 5, 127, 4095, 10001, 2};
#define AREA 0x20000u

static uint8_t src[AREA] __attribute__((aligned(4)));
static uint8_t dst[AREA] __attribute__((aligned(4)));

static uint32_t checksum(const uint8_t *p, uint32_t n)
{
    uint32_t a = 1, b = 0; /* Adler-like, order sensitive */
    for (uint32_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

static uint32_t recv_word(unsigned buf, uint32_t *w, unsigned max)
{
    unsigned n;
    while (!na_rx_waiting(buf))
        ;
    na_recv(buf, w, max, &n);
    return n;
}

int main(void)
{
    uint32_t me = na_rd(NA_TILE_ID);
    uint32_t w[4];
    if (me == 1) {
        memset(dst, 0xA5, sizeof dst);
        w[0] = 0;
        na_send(0, 0, 1, w, 1); /* READY */
        unsigned bad = 0;
        for (unsigned i = 0; i < NBLOCKS; i++) {
            recv_word(0, w, 4);
            uint32_t off = w[0], size = w[1], sum = w[2];
            int ok =
                checksum(dst + off, size) == sum && dst[off - 1] == 0xA5 && dst[off + size] == 0xA5;
            bad += !ok;
            w[0] = ok;
            na_send(1, 0, 2, w, 1);
        }
        return bad ? 1 : 0;
    }
    if (me != 0)
        return 0;
    for (uint32_t i = 0; i < AREA; i++)
        src[i] = (uint8_t)(i * 13u + (i >> 9));
    recv_word(0, w, 4); /* READY: tile 1 has initialized dst (same address in every tile) */
    uint32_t slots = na_rd(NA_DMA_SLOTS), src_off = 1, dst_off = 3, total = 0;
    unsigned failures = 0;
    for (unsigned i = 0; i < NBLOCKS; i++) {
        uint32_t s = NA_DMA_BASE(i % slots);
        na_wr(s + DMA_LOCAL_ADDR, (uint32_t)(src + src_off));
        na_wr(s + DMA_REMOTE_TILE, 1);
        na_wr(s + DMA_REMOTE_ADDR, (uint32_t)(dst + dst_off));
        na_wr(s + DMA_SIZE, sizes[i]);
        na_wr(s + DMA_CONTROL, DMA_CTRL_START);
        uint32_t st;
        while ((st = na_rd(s + DMA_STATUS)) & DMA_STAT_BUSY)
            ;
        na_wr(s + DMA_STATUS, st);
        w[0] = dst_off;
        w[1] = sizes[i];
        w[2] = checksum(src + src_off, sizes[i]);
        na_send(0, 1, 1, w, 3);
        recv_word(1, w, 4);
        if (st != DMA_STAT_DONE || w[0] != 1) {
            printf("rdma block %lu FAILED (status %lu, remote %lu)\n", (unsigned long)sizes[i],
                   (unsigned long)st, (unsigned long)w[0]);
            failures++;
        } else {
            printf("rdma block %lu ok\n", (unsigned long)sizes[i]);
        }
        total += sizes[i];
        src_off += sizes[i] + 5;
        dst_off += sizes[i] + 7;
    }
    if (failures)
        return 1;
    printf("rdma ok: %d blocks, %lu bytes\n", NBLOCKS, (unsigned long)total);
    return 0;
}
