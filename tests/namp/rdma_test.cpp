// RDMA put: byte-exact copies of any alignment and size, concurrent slots, errors.
#include <cstring>

#include "na_test_support.h"

using namespace na_test;

namespace {
constexpr uint32_t sram = TILE_SRAM_BASE;

void program(driver &d, unsigned slot, uint32_t local, uint32_t tile, uint32_t remote,
             uint32_t size, uint32_t ctrl = DMA_CTRL_START) {
    const uint32_t s = na(NA_DMA_BASE(slot));
    d.wr(s + DMA_LOCAL_ADDR, local);
    d.wr(s + DMA_REMOTE_TILE, tile);
    d.wr(s + DMA_REMOTE_ADDR, remote);
    d.wr(s + DMA_SIZE, size);
    d.wr(s + DMA_CONTROL, ctrl);
}

uint32_t wait_slot(bench &b, unsigned tile, unsigned slot) {
    return poll(b, tile, na(NA_DMA_BASE(slot) + DMA_STATUS), DMA_STAT_BUSY, 0);
}
}  // namespace

TEST(NaRdma, UnalignedOddSizesAreByteExact) {
    bench b;
    const uint32_t sizes[] = {1, 3, 5, 127, 4095};
    uint8_t *src = b.mem(0), *dst = b.mem(3);
    for (uint32_t i = 0; i < 0x10000; ++i) src[i] = uint8_t(i * 7 + (i >> 8));
    std::memset(dst, 0xAA, 0x20000);
    b.run({[&] {
        uint32_t src_off = 0x1001, dst_off = 0x10003;
        for (uint32_t size : sizes) {
            program(b.d(0), 0, sram + src_off, 3, sram + dst_off, size);
            EXPECT_EQ(wait_slot(b, 0, 0), DMA_STAT_DONE) << "size " << size;
            EXPECT_EQ(std::memcmp(dst + dst_off, src + src_off, size), 0) << "size " << size;
            EXPECT_EQ(dst[dst_off - 1], 0xAA) << "byte before, size " << size;
            EXPECT_EQ(dst[dst_off + size], 0xAA) << "byte after, size " << size;
            b.d(0).wr(na(NA_DMA_BASE(0) + DMA_STATUS), DMA_STAT_DONE);
            EXPECT_EQ(b.d(0).rd(na(NA_DMA_BASE(0) + DMA_STATUS)), 0u);
            src_off += size + 2;
            dst_off += size + 6;
        }
        EXPECT_EQ(b.stats(0).dma_bytes, 1u + 3 + 5 + 127 + 4095);
        EXPECT_EQ(b.stats(3).dma_bytes_written, 1u + 3 + 5 + 127 + 4095);
        // 4095 bytes at 116 bytes per packet (32-flit packets) = 36 packets
        EXPECT_GE(b.stats(0).packets_sent[2], 36u + 4);
    }});
    for (uint32_t i = 0x10000; i < 0x20000; ++i) {
        // every byte outside the copied ranges is untouched
        bool inside = false;
        uint32_t d = 0x10003;
        for (uint32_t size : sizes) {
            if (i >= d && i < d + size) inside = true;
            d += size + 6;
        }
        if (!inside) ASSERT_EQ(dst[i], 0xAA) << "offset " << std::hex << i;
    }
}

TEST(NaRdma, ConcurrentSlotsShareTheChannel) {
    bench b({"na.dma_slots=4"});
    uint8_t *src = b.mem(1);
    for (uint32_t i = 0; i < 0x8000; ++i) src[i] = uint8_t(i ^ (i >> 7));
    b.run({[&] {
        for (unsigned s = 0; s < 4; ++s)
            program(b.d(1), s, sram + 0x1000 * s + s, s == 1 ? 0 : s,
                    sram + 0x40000 + 0x1000 * s + 1, 2000 + s, DMA_CTRL_START | DMA_CTRL_IEN);
        // all four are busy at once
        for (unsigned s = 0; s < 4; ++s)
            EXPECT_EQ(b.d(1).rd(na(NA_DMA_BASE(s) + DMA_STATUS)), DMA_STAT_BUSY);
        for (unsigned s = 0; s < 4; ++s) EXPECT_EQ(wait_slot(b, 1, s), DMA_STAT_DONE);
        EXPECT_TRUE(b.d(1).rd(na(NA_IRQ_BASE + NA_IRQ_PENDING)) & NA_IRQ_SRC_DMA);
    }});
    for (unsigned s = 0; s < 4; ++s) {
        const unsigned tile = s == 1 ? 0 : s;
        EXPECT_EQ(
            std::memcmp(b.mem(tile) + 0x40000 + 0x1000 * s + 1, src + 0x1000 * s + s, 2000 + s), 0);
    }
}

TEST(NaRdma, ErrorsEndInErrorStatus) {
    bench b({"tile.sram_size=65536"});
    b.run({[&] {
        driver &d = b.d(0);
        // local range beyond the SRAM
        program(d, 0, sram + 0xFF00, 1, sram, 0x200);
        EXPECT_EQ(wait_slot(b, 0, 0), DMA_STAT_ERROR);
        d.wr(na(NA_DMA_BASE(0) + DMA_STATUS), DMA_STAT_ERROR);
        // local address not in the SRAM at all
        program(d, 0, 0x10000000, 1, sram, 4);
        EXPECT_EQ(wait_slot(b, 0, 0), DMA_STAT_ERROR);
        d.wr(na(NA_DMA_BASE(0) + DMA_STATUS), DMA_STAT_ERROR);
        // no such tile
        program(d, 0, sram, 4, sram, 4);
        EXPECT_EQ(wait_slot(b, 0, 0), DMA_STAT_ERROR);
        d.wr(na(NA_DMA_BASE(0) + DMA_STATUS), DMA_STAT_ERROR);
        // remote range beyond the remote SRAM: the remote tile refuses, nothing written there
        std::memset(b.mem(1) + 0xFF00, 0x55, 0x100);
        program(d, 0, sram, 1, sram + 0xFF80, 0x100);
        EXPECT_EQ(wait_slot(b, 0, 0), DMA_STAT_ERROR);
        d.wr(na(NA_DMA_BASE(0) + DMA_STATUS), DMA_STAT_ERROR);
        // remote address in a device, not in the SRAM
        program(d, 0, sram, 1, TILE_CONSOLE_BASE, 4);
        EXPECT_EQ(wait_slot(b, 0, 0), DMA_STAT_ERROR);
        d.wr(na(NA_DMA_BASE(0) + DMA_STATUS), DMA_STAT_ERROR);
        // size 0 completes at once
        program(d, 1, sram, 1, sram, 0);
        EXPECT_EQ(d.rd(na(NA_DMA_BASE(1) + DMA_STATUS)), DMA_STAT_DONE);
        // START while busy: ERROR, the running transfer still completes
        program(d, 0, sram, 1, sram + 0x100, 0x2000);
        d.wr(na(NA_DMA_BASE(0) + DMA_CONTROL), DMA_CTRL_START);
        uint32_t v;
        EXPECT_FALSE(d.write(na(NA_DMA_BASE(0) + DMA_SIZE), 4));  // parameters locked while busy
        EXPECT_EQ(wait_slot(b, 0, 0), DMA_STAT_DONE | DMA_STAT_ERROR);
        EXPECT_TRUE(d.read(na(NA_DMA_BASE(0) + DMA_SIZE), v));
        EXPECT_EQ(v, 0x2000u);
        // the adapter still works after errors
        d.wr(na(NA_DMA_BASE(0) + DMA_STATUS), DMA_STAT_DONE | DMA_STAT_ERROR);
        program(d, 0, sram + 3, 1, sram + 0x8001, 77);
        EXPECT_EQ(wait_slot(b, 0, 0), DMA_STAT_DONE);
        EXPECT_EQ(b.stats(0).dma_errors, 5u);
    }});
    for (unsigned i = 0; i < 0x100; ++i) ASSERT_EQ(b.mem(1)[0xFF00 + i], 0x55);
    EXPECT_EQ(std::memcmp(b.mem(1) + 0x8001, b.mem(0) + 3, 77), 0);
}
