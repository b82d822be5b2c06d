// Status block contents and the bus errors of the register window.
#include "na_test_support.h"

using namespace na_test;

TEST(NaRegisters, StatusBlockDescribesTheInstance) {
    bench b({"na.dma_slots=3", "na.rx_buffer_flits=64", "noc.max_packet_flits=16"});
    b.run({[&] {
        driver &d = b.d(3);
        EXPECT_EQ(d.rd(na(NA_VERSION)), 0x10000u);
        EXPECT_EQ(d.rd(na(NA_FEATURES)), NA_FEATURE_NOC_BUFFERS | NA_FEATURE_DMA | NA_FEATURE_RMA);
        EXPECT_EQ(d.rd(na(NA_DMA_SLOTS)), 3u);
        EXPECT_EQ(d.rd(na(NA_NAMP_SLOTS)), 0u);
        EXPECT_EQ(d.rd(na(NA_TILE_ID)), 3u);
        EXPECT_EQ(d.rd(na(NA_MAX_PACKET_FLITS)), 16u);
        EXPECT_EQ(d.rd(na(NA_RX_BUFFER_FLITS)), 64u);
        EXPECT_EQ(d.rd(na(NA_RMA_OUTSTANDING)), 0u);
        EXPECT_EQ(d.rd(na(NA_RMA_ERRORS)), 0u);
        EXPECT_EQ(d.rd(na(NA_MESH_SIZE)), (2u << 16) | 2u);
        EXPECT_EQ(d.rd(na(NOCBUF_TX_STATUS + NA_NOCBUF_BASE(0))), 1u);  // ready, nothing expected
        EXPECT_EQ(d.rd(na(NOCBUF_RX_STATUS + NA_NOCBUF_BASE(1))), 0u);
    }});
}

TEST(NaRegisters, UnpopulatedAndBadAccessesAreBusErrors) {
    bench b;
    b.run({[&] {
        driver &d = b.d(0);
        uint32_t v = 0;
        EXPECT_FALSE(d.read(na(NA_STATUS_LAST + 4), v));             // past the status block
        EXPECT_FALSE(d.write(na(NA_VERSION), 1));                    // read-only
        EXPECT_FALSE(d.write(na(NA_IRQ_BASE + NA_IRQ_PENDING), 1));  // read-only
        EXPECT_FALSE(d.read(na(NA_IRQ_BASE + 0x10), v));
        EXPECT_FALSE(d.read(na(NA_NOCBUF_BASE(2)), v));                   // no third buffer
        EXPECT_FALSE(d.read(na(NA_NOCBUF_BASE(0) + NOCBUF_RX_FLIT), v));  // nothing received
        EXPECT_FALSE(d.write(na(NA_NOCBUF_BASE(0) + NOCBUF_RX_DISCARD), 0));
        EXPECT_FALSE(d.read(na(NA_NOCBUF_BASE(0) + 0x14), v));
        EXPECT_FALSE(d.read(na(NA_DMA_BASE(2) + DMA_STATUS), v));  // absent slot (2 slots)
        EXPECT_TRUE(d.read(na(NA_DMA_BASE(1) + DMA_STATUS), v));
        EXPECT_FALSE(d.read(na(NA_DMA_BASE(0) + 0x18), v));
        EXPECT_FALSE(d.read(na(NA_NAMP_SLOT_BASE(0)), v));  // no NAMP
        EXPECT_FALSE(d.read(na(TILE_NA_SIZE - 4), v));
        uint8_t byte = 0;
        EXPECT_FALSE(d.access(tlm::TLM_READ_COMMAND, na(NA_VERSION), &byte, 1));  // width
        EXPECT_FALSE(d.read(na(NA_VERSION + 2), v));                              // misaligned
        // Bad values are refused, not silently accepted.
        EXPECT_FALSE(d.write(na(NA_IRQ_BASE + NA_IRQ_MASK), 1u << 4));
        EXPECT_EQ(d.rd(na(NA_IRQ_BASE + NA_IRQ_MASK)), 0u);
        EXPECT_FALSE(d.write(na(NA_DMA_BASE(0) + DMA_CONTROL), 1u << 1));
        EXPECT_FALSE(d.write(na(NA_NOCBUF_BASE(0)), NOC_HEADER(2, 0, 0, 2)));   // x outside mesh
        EXPECT_FALSE(d.write(na(NA_NOCBUF_BASE(0)), NOC_HEADER(0, 5, 0, 2)));   // y outside mesh
        EXPECT_FALSE(d.write(na(NA_NOCBUF_BASE(0)), NOC_HEADER(1, 0, 0, 33)));  // too long
        EXPECT_EQ(d.rd(na(NA_NOCBUF_BASE(0) + NOCBUF_TX_STATUS)), 1u);          // nothing started
        EXPECT_EQ(b.stats(0).packets_sent[0], 0u);
        EXPECT_TRUE(d.write(na(NA_RMA_ERRORS), 0));  // clearing is allowed
        EXPECT_EQ(b.stats(0).bus_errors, 19u);
    }});
}

TEST(NaRegisters, DisabledAdapterLeavesTheWindowsUnpopulated) {
    bench b({"na.enabled=false"});
    EXPECT_EQ(b.plat->adapter(0), nullptr);
    b.run({[&] {
        uint32_t v = 0;
        EXPECT_FALSE(b.d(0).read(na(NA_VERSION), v));
        EXPECT_FALSE(b.d(0).read(RMA_ADDRESS(1, 0), v));
    }});
}
