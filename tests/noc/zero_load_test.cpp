#define SC_INCLUDE_DYNAMIC_PROCESSES
// Zero-load latency must equal the documented formula exactly:
//   T0 = (hops + 1) * router_latency + hops * link_latency + packet_flits   [cycles]
// from the send() call to the delivery of the tail, for every channel, in both the virtual-channel
// and the physical-channel configuration. send() itself returns after packet_flits cycles (the
// tail is in the router). Packets are sent one at a time, far apart, so they never meet.
#include <gtest/gtest.h>

#include <sstream>
#include <tuple>

#include "noc_test_support.h"

namespace {

using noc::channel;

struct timing {
    unsigned router_latency, link_latency, buffer_depth;
    bool physical;
};

struct one_packet {
    unsigned src_x, src_y, dst_x, dst_y, flits;
};

// Routes of 0, 1, 2, 3, 5, 7 and 10 hops on a 6x6 mesh in every direction, short and long packets
// (shorter and longer than the buffers).
const std::vector<one_packet> cases = {
    {2, 2, 2, 2, 1}, {2, 2, 2, 2, 32}, {0, 0, 1, 0, 1},  {1, 0, 0, 0, 3},  {3, 3, 3, 4, 2},
    {3, 4, 3, 3, 9}, {0, 0, 1, 1, 4},  {5, 5, 4, 3, 5},  {0, 5, 3, 3, 32}, {5, 0, 0, 2, 17},
    {0, 0, 5, 5, 1}, {0, 0, 5, 5, 8},  {5, 5, 0, 0, 32}, {4, 1, 0, 4, 16}, {1, 4, 4, 0, 31},
};

class zero_load : public ::testing::TestWithParam<timing> {};

struct observed {
    sc_core::sc_time sent, send_returned, delivered;
    unsigned hops, flits;
};

TEST_P(zero_load, latency_matches_formula_for_every_channel) {
    const timing t = GetParam();
    noc::config cfg;
    cfg.width = 6;
    cfg.height = 6;
    cfg.router_latency = t.router_latency;
    cfg.link_latency = t.link_latency;
    cfg.buffer_depth = t.buffer_depth;
    cfg.physical_channels = t.physical;
    noc::mesh net("noc", cfg);
    std::vector<noc_test::recording_sink> sinks(cfg.tiles());
    for (unsigned i = 0; i < cfg.tiles(); ++i) net.port(i).bind_sink(sinks[i]);

    std::vector<observed> runs;
    const sc_core::sc_time gap = noc_test::cycles(cfg, 500);
    sc_core::sc_spawn_options opts;
    sc_core::sc_spawn(
        [&] {
            for (unsigned ch = 0; ch < noc::channel_count; ++ch)
                for (const one_packet &c : cases) {
                    sc_core::wait(gap);
                    observed o;
                    o.hops = (c.src_x > c.dst_x ? c.src_x - c.dst_x : c.dst_x - c.src_x) +
                             (c.src_y > c.dst_y ? c.src_y - c.dst_y : c.dst_y - c.src_y);
                    o.flits = c.flits;
                    o.sent = sc_core::sc_time_stamp();
                    net.port(c.src_x, c.src_y)
                        .send(noc_test::make_packet(c.dst_x, c.dst_y, noc::channel_from_index(ch),
                                                    c.flits, runs.size()));
                    o.send_returned = sc_core::sc_time_stamp();
                    runs.push_back(o);
                }
        },
        "driver", &opts);
    sc_core::sc_start();

    ASSERT_EQ(runs.size(), cases.size() * noc::channel_count);
    std::vector<const noc_test::delivery *> by_tag(runs.size(), nullptr);
    for (const auto &s : sinks)
        for (const auto &d : s.delivered) by_tag.at(d.pkt.user_tag) = &d;
    for (size_t i = 0; i < runs.size(); ++i) {
        const observed &o = runs[i];
        const one_packet &c = cases[i % cases.size()];
        std::ostringstream what;
        what << "channel " << noc::channel_name(noc::channel_from_index(unsigned(i / cases.size())))
             << " (" << c.src_x << "," << c.src_y << ")->(" << c.dst_x << "," << c.dst_y << ") "
             << o.flits << " flits, " << o.hops << " hops";
        ASSERT_NE(by_tag[i], nullptr) << what.str();
        const uint64_t expected = cfg.zero_load_latency(o.hops, o.flits);
        EXPECT_EQ(by_tag[i]->at - o.sent, noc_test::cycles(cfg, expected)) << what.str();
        EXPECT_EQ(o.send_returned - o.sent, noc_test::cycles(cfg, o.flits)) << what.str();
        EXPECT_EQ(by_tag[i]->pkt.header.length, o.flits);
        EXPECT_EQ(by_tag[i]->pkt.header.src_x, c.src_x);
        EXPECT_EQ(by_tag[i]->pkt.header.src_y, c.src_y);
    }
    const auto &stats = net.stats();
    EXPECT_EQ(stats.delivered_packets, runs.size());
    EXPECT_EQ(net.packets_in_flight(), 0u);
    EXPECT_EQ(net.stats_json()["routers"][0]["blocked_cycles"], 0u);
}

// Readable parameter names in test lists (ctest shows them instead of a number).
void PrintTo(const timing &t, std::ostream *os) {
    *os << "router" << t.router_latency << "_link" << t.link_latency << "_depth" << t.buffer_depth
        << (t.physical ? "_physical" : "_vc");
}

INSTANTIATE_TEST_SUITE_P(timings, zero_load,
                         ::testing::Values(timing{1, 1, 4, false}, timing{1, 1, 4, true},
                                           timing{2, 1, 4, false}, timing{2, 1, 4, true},
                                           timing{1, 2, 5, false}, timing{3, 2, 8, true},
                                           timing{2, 0, 2, false}, timing{1, 1, 16, false},
                                           timing{4, 3, 10, true}));

}  // namespace
