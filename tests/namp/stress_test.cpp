// Several initiators at once: target-queue backpressure, traffic in both directions, no deadlock.
#include <cstring>

#include "na_test_support.h"

using namespace na_test;

namespace {
constexpr uint32_t sram = TILE_SRAM_BASE;
void start(driver &d, unsigned slot, uint32_t local, uint32_t tile, uint32_t remote,
           uint32_t size) {
    const uint32_t s = na(NA_DMA_BASE(slot));
    d.wr(s + DMA_LOCAL_ADDR, local);
    d.wr(s + DMA_REMOTE_TILE, tile);
    d.wr(s + DMA_REMOTE_ADDR, remote);
    d.wr(s + DMA_SIZE, size);
    d.wr(s + DMA_CONTROL, DMA_CTRL_START);
}
}  // namespace

// Three tiles copy into tile 0 while its target is slow and its request queue holds one packet:
// the NoC holds the rest, every byte arrives.
TEST(NaStress, ManyToOneRdmaWithSlowTarget) {
    bench b({"na.packet_cycles=60", "na.target_queue_flits=32"});
    for (unsigned t = 1; t < 4; ++t)
        for (uint32_t i = 0; i < 0x4000; ++i) b.mem(t)[i] = uint8_t(i * t + 17 * t);
    std::vector<std::function<void()>> bodies;
    for (unsigned t = 1; t < 4; ++t)
        bodies.push_back([&b, t] {
            start(b.d(t), 0, sram + t, 0, sram + 0x10000 * t + 1, 3001 + t);
            start(b.d(t), 1, sram + 0x2000, 0, sram + 0x10000 * t + 0x8000, 999);
            EXPECT_EQ(poll(b, t, na(NA_DMA_BASE(0) + DMA_STATUS), DMA_STAT_BUSY, 0), DMA_STAT_DONE);
            EXPECT_EQ(poll(b, t, na(NA_DMA_BASE(1) + DMA_STATUS), DMA_STAT_BUSY, 0), DMA_STAT_DONE);
        });
    b.run(bodies);
    EXPECT_GT(b.stats(0).rx_refusals, 0u);
    for (unsigned t = 1; t < 4; ++t) {
        EXPECT_EQ(std::memcmp(b.mem(0) + 0x10000 * t + 1, b.mem(t) + t, 3001 + t), 0) << t;
        EXPECT_EQ(std::memcmp(b.mem(0) + 0x10000 * t + 0x8000, b.mem(t) + 0x2000, 999), 0) << t;
    }
    EXPECT_EQ(b.stats(0).dma_bytes_written, 3u * 999 + 3002 + 3003 + 3004);
}

// Tiles 0 and 3 copy to each other and issue RMA loads to each other at the same time, with
// minimal queues: requests and responses use separate channels, so everything completes.
TEST(NaStress, CrossTrafficDoesNotDeadlock) {
    bench b({"na.target_queue_flits=32", "noc.buffer_depth=1", "na.dma_slots=4"});
    for (uint32_t i = 0; i < 0x10000; ++i) {
        b.mem(0)[i] = uint8_t(i);
        b.mem(3)[i] = uint8_t(~i);
    }
    auto body = [&b](unsigned me, unsigned other) {
        return [&b, me, other] {
            for (unsigned s = 0; s < 4; ++s)
                start(b.d(me), s, sram + 0x1000 * s, other, sram + 0x20000 + 0x1000 * s, 4000);
            for (unsigned k = 0; k < 50; ++k) {
                const uint32_t v = b.d(me).rd(RMA_ADDRESS(other, 4 * k));
                uint32_t want;
                std::memcpy(&want, b.mem(other) + 4 * k, 4);
                EXPECT_EQ(v, want);
            }
            for (unsigned s = 0; s < 4; ++s)
                EXPECT_EQ(poll(b, me, na(NA_DMA_BASE(s) + DMA_STATUS), DMA_STAT_BUSY, 0),
                          DMA_STAT_DONE);
        };
    };
    b.run({body(0, 3), body(3, 0)});
    for (unsigned s = 0; s < 4; ++s) {
        EXPECT_EQ(std::memcmp(b.mem(3) + 0x20000 + 0x1000 * s, b.mem(0) + 0x1000 * s, 4000), 0);
        EXPECT_EQ(std::memcmp(b.mem(0) + 0x20000 + 0x1000 * s, b.mem(3) + 0x1000 * s, 4000), 0);
    }
}

// An RMA load takes at least the network round trip and the target's processing.
TEST(NaStress, RmaLoadLatencyIncludesTheRoundTrip) {
    bench b({"na.packet_cycles=40"});
    b.run({[&] {
        const sc_core::sc_time t0 = sc_core::sc_time_stamp();
        b.d(0).rd(RMA_ADDRESS(3, 0));
        const double cycles = (sc_core::sc_time_stamp() - t0) / b.period;
        EXPECT_GE(cycles, 40 + 2 * 3);  // processing + two 2-hop paths, at least
        EXPECT_LT(cycles, 200);
    }});
}
