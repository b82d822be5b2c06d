// Raw packets through the NoC buffers: round trip and receive-buffer backpressure.
#include "na_test_support.h"

using namespace na_test;

namespace {
void send(driver &d, unsigned buf, uint32_t header, const std::vector<uint32_t> &payload) {
    const uint32_t base = na(NA_NOCBUF_BASE(buf));
    while (!(d.rd(base + NOCBUF_TX_STATUS) & 1u)) sc_core::wait(10, sc_core::SC_NS);
    d.wr(base + NOCBUF_TX_FLIT, header);
    for (uint32_t w : payload) d.wr(base + NOCBUF_TX_FLIT, w);
}
}  // namespace

TEST(NaPackets, RoundTripOnBothBuffers) {
    bench b;
    b.run({[&] {
        // tile 0 (0,0) -> tile 3 (1,1), buffer 0; the adapter fills in the source and channel
        send(b.d(0), 0, NOC_HEADER(1, 1, 5, 4) | (3u << NOC_HDR_CHANNEL_SHIFT), {11, 22, 33});
        const uint32_t rx = na(NA_NOCBUF_BASE(0));
        const uint32_t st = poll(b, 3, rx + NOCBUF_RX_STATUS, 1, 1);
        EXPECT_EQ(st, 1u | (4u << 8) | (1u << 16));
        const uint32_t h = b.d(3).rd(rx + NOCBUF_RX_FLIT);
        EXPECT_EQ((h >> NOC_HDR_DST_X_SHIFT) & 31, 1u);
        EXPECT_EQ((h >> NOC_HDR_DST_Y_SHIFT) & 31, 1u);
        EXPECT_EQ((h >> NOC_HDR_SRC_X_SHIFT) & 31, 0u);
        EXPECT_EQ((h >> NOC_HDR_SRC_Y_SHIFT) & 31, 0u);
        EXPECT_EQ((h >> NOC_HDR_CHANNEL_SHIFT) & 3, 0u);
        EXPECT_EQ((h >> NOC_HDR_LENGTH_SHIFT) & 63, 3u);
        EXPECT_EQ(h & 15, 5u);
        EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_STATUS), 1u | (3u << 8) | (1u << 16));
        EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_FLIT), 11u);
        EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_FLIT), 22u);
        EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_FLIT), 33u);
        EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_STATUS), 0u);
        uint32_t v;
        EXPECT_FALSE(b.d(3).read(rx + NOCBUF_RX_FLIT, v));

        // reply 3 -> 0 on buffer 1 (control response); header-only packet
        send(b.d(3), 1, NOC_HEADER(0, 0, 9, 1), {});
        const uint32_t rx1 = na(NA_NOCBUF_BASE(1));
        poll(b, 0, rx1 + NOCBUF_RX_STATUS, 1, 1);
        const uint32_t h1 = b.d(0).rd(rx1 + NOCBUF_RX_FLIT);
        EXPECT_EQ((h1 >> NOC_HDR_CHANNEL_SHIFT) & 3, 1u);
        EXPECT_EQ((h1 >> NOC_HDR_SRC_X_SHIFT) & 31, 1u);
        EXPECT_EQ(h1 & 15, 9u);
        EXPECT_EQ(b.d(0).rd(na(NA_NOCBUF_BASE(0) + NOCBUF_RX_STATUS)), 0u);  // not on buffer 0
        EXPECT_EQ(b.stats(3).packets_received[0], 1u);
        EXPECT_EQ(b.stats(3).flits_received[0], 4u);
        EXPECT_EQ(b.stats(0).packets_received[1], 1u);
    }});
}

TEST(NaPackets, DiscardDropsTheRestOfThePacket) {
    bench b;
    b.run({[&] {
        send(b.d(0), 0, NOC_HEADER(1, 0, 1, 3), {1, 2});
        send(b.d(0), 0, NOC_HEADER(1, 0, 2, 2), {3});
        const uint32_t rx = na(NA_NOCBUF_BASE(0));
        poll(b, 1, rx + NOCBUF_RX_STATUS, 0xFFFF0000u, 2u << 16);
        EXPECT_EQ(b.d(1).rd(rx + NOCBUF_RX_FLIT) & 15, 1u);
        b.d(1).wr(rx + NOCBUF_RX_DISCARD, 0);
        EXPECT_EQ(b.d(1).rd(rx + NOCBUF_RX_FLIT) & 15, 2u);
        EXPECT_EQ(b.d(1).rd(rx + NOCBUF_RX_FLIT), 3u);
    }});
}

// A receive buffer of 16 flits holds two 8-flit packets: the rest waits in the network and the
// sender stalls; once the receiver reads, everything arrives in order, nothing is lost.
TEST(NaPackets, FullReceiveBufferBackpressuresWithoutLoss) {
    bench b({"noc.max_packet_flits=8", "na.rx_buffer_flits=16"});
    const unsigned count = 40;
    bool sender_done = false;
    b.run({[&] {
               for (unsigned i = 0; i < count; ++i)
                   send(b.d(0), 0, NOC_HEADER(1, 1, i & 15, 8),
                        {i, i + 1, i + 2, i + 3, i + 4, i + 5, i * 7});
               sender_done = true;
           },
           [&] {
               b.cycles(20000);
               const uint32_t rx = na(NA_NOCBUF_BASE(0));
               EXPECT_FALSE(sender_done);  // blocked by backpressure
               EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_STATUS) >> 16, 2u);
               EXPECT_GT(b.stats(3).rx_refusals, 0u);
               EXPECT_EQ(b.d(0).rd(na(NA_NOCBUF_BASE(0) + NOCBUF_TX_STATUS)) & 1u, 0u);
               for (unsigned i = 0; i < count; ++i) {
                   poll(b, 3, rx + NOCBUF_RX_STATUS, 1, 1);
                   EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_FLIT) & 15, i & 15);
                   for (unsigned k = 0; k < 6; ++k)
                       EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_FLIT), i + k);
                   EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_FLIT), i * 7);
               }
               EXPECT_EQ(b.d(3).rd(rx + NOCBUF_RX_STATUS), 0u);
           }});
    EXPECT_TRUE(sender_done);
    EXPECT_EQ(b.stats(3).packets_received[0], count);
}
