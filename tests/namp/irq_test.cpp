// Interrupt controller: level-sensitive line = PENDING & MASK, sources RX0, RX1, DMA, RMA_ERROR.
#include "na_test_support.h"

using namespace na_test;

TEST(NaIrq, MaskGatesTheLevelSensitiveLine) {
    bench b;
    b.run({[&] {
        const uint32_t irq = na(NA_IRQ_BASE);
        driver &rx = b.d(1);
        b.d(0).wr(na(NA_NOCBUF_BASE(0) + NOCBUF_TX_FLIT), NOC_HEADER(1, 0, 0, 2));
        b.d(0).wr(na(NA_NOCBUF_BASE(0) + NOCBUF_TX_FLIT), 42);
        poll(b, 1, irq + NA_IRQ_PENDING, NA_IRQ_SRC_RX0, NA_IRQ_SRC_RX0);
        b.cycles(2);
        EXPECT_EQ(rx.rd(irq + NA_IRQ_ACTIVE), 0u);
        EXPECT_FALSE(b.meip(1));
        rx.wr(irq + NA_IRQ_MASK, NA_IRQ_SRC_RX1);  // other source only
        b.cycles(2);
        EXPECT_FALSE(b.meip(1));
        rx.wr(irq + NA_IRQ_MASK, NA_IRQ_SRC_RX0 | NA_IRQ_SRC_DMA);
        b.cycles(2);
        EXPECT_TRUE(b.meip(1));
        EXPECT_EQ(rx.rd(irq + NA_IRQ_ACTIVE), NA_IRQ_SRC_RX0);
        rx.rd(na(NA_NOCBUF_BASE(0) + NOCBUF_RX_FLIT));  // header only: the packet still waits
        b.cycles(2);
        EXPECT_TRUE(b.meip(1));
        rx.rd(na(NA_NOCBUF_BASE(0) + NOCBUF_RX_FLIT));  // packet consumed: source drops
        b.cycles(2);
        EXPECT_FALSE(b.meip(1));
        EXPECT_EQ(rx.rd(irq + NA_IRQ_PENDING), 0u);
        // DMA source only with IEN
        const uint32_t s = na(NA_DMA_BASE(0));
        rx.wr(s + DMA_LOCAL_ADDR, TILE_SRAM_BASE);
        rx.wr(s + DMA_REMOTE_TILE, 0);
        rx.wr(s + DMA_REMOTE_ADDR, TILE_SRAM_BASE + 0x1000);
        rx.wr(s + DMA_SIZE, 8);
        rx.wr(s + DMA_CONTROL, DMA_CTRL_START);
        poll(b, 1, s + DMA_STATUS, DMA_STAT_DONE, DMA_STAT_DONE);
        b.cycles(2);
        EXPECT_EQ(rx.rd(irq + NA_IRQ_PENDING), 0u);
        EXPECT_FALSE(b.meip(1));
        rx.wr(s + DMA_CONTROL, DMA_CTRL_START | DMA_CTRL_IEN);
        poll(b, 1, irq + NA_IRQ_PENDING, NA_IRQ_SRC_DMA, NA_IRQ_SRC_DMA);
        b.cycles(2);
        EXPECT_TRUE(b.meip(1));
        rx.wr(s + DMA_STATUS, DMA_STAT_DONE);
        b.cycles(2);
        EXPECT_FALSE(b.meip(1));
        EXPECT_FALSE(b.meip(0));
    }});
}

TEST(NaIrq, DrivesTheConfiguredCore) {
    bench b({"tile.cores=2", "na.irq_core=1"});
    b.run({[&] {
        b.d(2).wr(na(NA_IRQ_BASE + NA_IRQ_MASK), NA_IRQ_SRC_RX1);
        b.d(0).wr(na(NA_NOCBUF_BASE(1) + NOCBUF_TX_FLIT), NOC_HEADER(0, 1, 0, 1));
        poll(b, 2, na(NA_IRQ_BASE + NA_IRQ_ACTIVE), ~0u, NA_IRQ_SRC_RX1);
        b.cycles(2);
        EXPECT_TRUE(b.plat->tiles()[2]->external_irq(1).read());
        EXPECT_FALSE(b.plat->tiles()[2]->external_irq(0).read());
    }});
}

// NA_IRQ_TARGET: resets to na.irq_core, moves the line to another core at run time (the MPI
// library hands it to the core that holds the tile's MCAPI node), refuses a core that does not exist.
TEST(NaIrq, TargetRegisterMovesTheLine) {
    bench b({"tile.cores=3", "na.irq_core=1"});
    b.run({[&] {
        driver &d = b.d(2);
        const uint32_t target = na(NA_IRQ_BASE + NA_IRQ_TARGET);
        auto line = [&](unsigned core) { return b.plat->tiles()[2]->external_irq(core).read(); };
        EXPECT_EQ(d.rd(target), 1u);
        d.wr(na(NA_IRQ_BASE + NA_IRQ_MASK), NA_IRQ_SRC_RX1);
        b.d(0).wr(na(NA_NOCBUF_BASE(1) + NOCBUF_TX_FLIT), NOC_HEADER(0, 1, 0, 1));
        poll(b, 2, na(NA_IRQ_BASE + NA_IRQ_ACTIVE), ~0u, NA_IRQ_SRC_RX1);
        b.cycles(2);
        EXPECT_TRUE(line(1));
        EXPECT_FALSE(line(0));
        d.wr(target, 2);
        b.cycles(2);
        EXPECT_EQ(d.rd(target), 2u);
        EXPECT_TRUE(line(2));
        EXPECT_FALSE(line(1));
        EXPECT_FALSE(line(0));
        uint32_t v = 0;
        EXPECT_FALSE(d.write(target, 3));  // tile has cores 0..2
        EXPECT_TRUE(d.read(target, v));
        EXPECT_EQ(v, 2u);
        d.wr(target, 0);
        b.cycles(2);
        EXPECT_TRUE(line(0));
        EXPECT_FALSE(line(2));
        d.rd(na(NA_NOCBUF_BASE(1) + NOCBUF_RX_FLIT));  // consumed: no line anywhere
        b.cycles(2);
        EXPECT_FALSE(line(0) || line(1) || line(2));
    }});
}
