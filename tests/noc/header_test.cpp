// The header flit: every field survives encode/decode, the bit layout is the documented one, and
// values that do not fit are reported.
#include <gtest/gtest.h>

#include "noc/packet.h"

namespace {

TEST(header, round_trips_every_field) {
    for (unsigned ch = 0; ch < noc::channel_count; ++ch)
        for (unsigned length : {1u, 2u, 32u, 64u}) {
            noc::packet_header h;
            h.dst_x = 31;
            h.dst_y = 7;
            h.src_x = 0;
            h.src_y = 15;
            h.ch = noc::channel_from_index(ch);
            h.type = 9;
            h.length = length;
            EXPECT_EQ(noc::decode_header(noc::encode_header(h)), h);
        }
}

TEST(header, matches_documented_bit_layout) {
    noc::packet_header h;
    h.dst_x = 3;
    h.dst_y = 2;
    h.src_x = 1;
    h.src_y = 4;
    h.ch = noc::channel::data_response;
    h.type = 5;
    h.length = 32;
    // dst_x[31:27] dst_y[26:22] src_x[21:17] src_y[16:12] channel[11:10] length-1[9:4] type[3:0]
    const uint32_t expected = 3u << 27 | 2u << 22 | 1u << 17 | 4u << 12 | 3u << 10 | 31u << 4 | 5u;
    EXPECT_EQ(noc::encode_header(h), expected);
}

TEST(header, rejects_values_that_do_not_fit) {
    noc::packet_header h;
    h.dst_x = 32;
    EXPECT_THROW(noc::encode_header(h), sc_core::sc_report);
    h.dst_x = 0;
    h.length = 0;
    EXPECT_THROW(noc::encode_header(h), sc_core::sc_report);
    h.length = 65;
    EXPECT_THROW(noc::encode_header(h), sc_core::sc_report);
    h.length = 1;
    h.type = 16;
    EXPECT_THROW(noc::encode_header(h), sc_core::sc_report);
}

TEST(header, packet_to_flits_puts_header_first) {
    noc::packet p;
    p.header.dst_x = 2;
    p.header.ch = noc::channel::control_response;
    p.payload = {0xdeadbeef, 42};
    const auto flits = p.to_flits();
    ASSERT_EQ(flits.size(), 3u);
    EXPECT_EQ(noc::decode_header(flits[0]).length, 3u);
    EXPECT_EQ(noc::decode_header(flits[0]).dst_x, 2u);
    EXPECT_EQ(flits[1], 0xdeadbeefu);
    EXPECT_EQ(flits[2], 42u);
}

}  // namespace
