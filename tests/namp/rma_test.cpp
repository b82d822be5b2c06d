// Remote memory access through the RMA window.
#include <cstring>

#include "na_test_support.h"

using namespace na_test;

TEST(NaRma, StoresAndLoadsReachTheRemoteSram) {
    bench b;
    b.run({[&] {
        driver &d = b.d(0);
        d.wr(RMA_ADDRESS(3, 0x100), 0x11223344);
        uint8_t byte = 0x99;
        EXPECT_TRUE(d.access(tlm::TLM_WRITE_COMMAND, RMA_ADDRESS(3, 0x105), &byte, 1));
        uint16_t half = 0xBEEF;
        EXPECT_TRUE(d.access(tlm::TLM_WRITE_COMMAND, RMA_ADDRESS(3, 0x10A), &half, 2));
        EXPECT_GE(d.rd(na(NA_RMA_OUTSTANDING)), 1u);  // posted
        // a load after stores to the same tile sees them (same channel, in order)
        EXPECT_EQ(d.rd(RMA_ADDRESS(3, 0x100)), 0x11223344u);
        EXPECT_EQ(d.rd(RMA_ADDRESS(3, 0x104)), 0x9900u);
        EXPECT_EQ(d.rd(RMA_ADDRESS(3, 0x108)), 0xBEEF0000u);
        uint8_t rb = 0;
        EXPECT_TRUE(d.access(tlm::TLM_READ_COMMAND, RMA_ADDRESS(3, 0x103), &rb, 1));
        EXPECT_EQ(rb, 0x11);
        poll(b, 0, na(NA_RMA_OUTSTANDING), ~0u, 0);
        // to itself and to another tile
        d.wr(RMA_ADDRESS(0, 0x200), 7);
        EXPECT_EQ(d.rd(RMA_ADDRESS(0, 0x200)), 7u);
        EXPECT_EQ(b.d(2).rd(RMA_ADDRESS(3, 0x100)), 0x11223344u);
    }});
    uint32_t w;
    std::memcpy(&w, b.mem(3) + 0x100, 4);
    EXPECT_EQ(w, 0x11223344u);
    EXPECT_EQ(b.mem(3)[0x105], 0x99);
    EXPECT_EQ(b.mem(3)[0x104], 0x00);
    EXPECT_EQ(b.mem(3)[0x106], 0x00);
    EXPECT_EQ(b.stats(0).rma_stores, 4u);
    EXPECT_EQ(b.stats(0).rma_loads, 5u);
    EXPECT_EQ(b.stats(3).rma_served, 8u);
}

TEST(NaRma, RefusedAccesses) {
    bench b({"tile.sram_size=65536"});
    b.run({[&] {
        driver &d = b.d(1);
        uint32_t v = 0;
        // load beyond the remote SRAM: bus error (load access fault on a core)
        EXPECT_FALSE(d.read(RMA_ADDRESS(2, 0x10000), v));
        // store beyond it: posted, then counted and signalled
        EXPECT_TRUE(d.write(RMA_ADDRESS(2, 0x20000), 5));
        poll(b, 1, na(NA_RMA_ERRORS), ~0u, 1);
        EXPECT_EQ(d.rd(na(NA_IRQ_BASE + NA_IRQ_PENDING)) & NA_IRQ_SRC_RMA_ERROR,
                  NA_IRQ_SRC_RMA_ERROR);
        EXPECT_EQ(d.rd(na(NA_RMA_OUTSTANDING)), 0u);
        d.wr(na(NA_RMA_ERRORS), 0);
        EXPECT_EQ(d.rd(na(NA_IRQ_BASE + NA_IRQ_PENDING)) & NA_IRQ_SRC_RMA_ERROR, 0u);
        // synchronous errors: no such tile, misaligned
        EXPECT_FALSE(d.read(RMA_ADDRESS(4, 0), v));
        EXPECT_FALSE(d.write(RMA_ADDRESS(200, 0), 1));
        EXPECT_FALSE(d.read(RMA_ADDRESS(2, 2), v));
        // the last word of the remote SRAM is fine
        d.wr(RMA_ADDRESS(2, 0xFFFC), 0xCAFE);
        EXPECT_EQ(d.rd(RMA_ADDRESS(2, 0xFFFC)), 0xCAFEu);
        EXPECT_EQ(d.rd(na(NA_RMA_ERRORS)), 0u);
    }});
}
