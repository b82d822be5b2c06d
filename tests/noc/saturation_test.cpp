// Saturation: every tile offers one flit per cycle on each injection link (1 flit/cycle with
// virtual channels, 4 with one physical network per channel) for 20k cycles, then
// generation stops and the network must drain to empty. The generator's sinks check that nothing
// is lost, duplicated, corrupted, misrouted or reordered within a (source, destination, channel).
#include <gtest/gtest.h>

#include <ostream>

#include "noc/mesh.h"
#include "noc/traffic/generator.h"

namespace {

using noc::traffic::pattern;

struct scenario {
    pattern kind;
    bool physical;
    unsigned packet_flits;
    unsigned buffer_depth = 4, router_latency = 1, link_latency = 1;
};

void PrintTo(const scenario &s, std::ostream *os) {
    *os << noc::traffic::pattern_name(s.kind) << (s.physical ? "_physical" : "_vc") << "_len"
        << s.packet_flits << "_depth" << s.buffer_depth << "_router" << s.router_latency << "_link"
        << s.link_latency;
}

class saturation : public ::testing::TestWithParam<scenario> {};

TEST_P(saturation, drains_without_loss_or_reordering) {
    const scenario s = GetParam();
    noc::config cfg;
    cfg.width = 4;
    cfg.height = 4;
    cfg.physical_channels = s.physical;
    cfg.buffer_depth = s.buffer_depth;
    cfg.router_latency = s.router_latency;
    cfg.link_latency = s.link_latency;
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    noc::mesh net("noc", cfg);
    noc::traffic::traffic_config tc;
    tc.kind = s.kind;
    tc.injection_rate = s.physical ? 4.0 : 1.0;
    tc.packet_flits = s.packet_flits;
    tc.seed = 7;
    noc::traffic::traffic_generator gen("traffic", net, tc);

    const sc_core::sc_time period = cfg.clock_period;
    sc_core::sc_start(period * 1000.0);
    gen.start_measurement();
    sc_core::sc_start(period * 19000.0);
    gen.stop_measurement();
    gen.stop_generation();
    for (int slice = 0; slice < 200 && !gen.drained(); ++slice) sc_core::sc_start(period * 1000.0);

    const auto &r = gen.results();
    EXPECT_TRUE(gen.drained()) << "generated " << r.generated << ", delivered " << r.delivered;
    EXPECT_EQ(net.packets_in_flight(), 0u);
    EXPECT_EQ(r.delivered, r.generated);
    EXPECT_EQ(r.order_errors, 0u);
    EXPECT_EQ(r.corrupt, 0u);
    EXPECT_EQ(r.misrouted, 0u);
    EXPECT_GT(r.generated, 1000u);
    EXPECT_EQ(net.stats().injected_packets, net.stats().delivered_packets);
    // Physical limits: no link carries more than one flit per cycle.
    EXPECT_LE(net.stats_json()["max_link_utilization"].get<double>(), 1.0);
    // The source queues stayed full: the network, not the generator, set the pace.
    EXPECT_GT(r.throttled, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    patterns, saturation,
    ::testing::Values(
        scenario{pattern::uniform, false, 8}, scenario{pattern::uniform, true, 8},
        scenario{pattern::transpose, false, 8}, scenario{pattern::transpose, true, 8},
        scenario{pattern::bit_complement, false, 8}, scenario{pattern::bit_complement, true, 8},
        scenario{pattern::hotspot, false, 8}, scenario{pattern::hotspot, true, 8},
        scenario{pattern::nearest_neighbour, false, 8},
        scenario{pattern::nearest_neighbour, true, 8}, scenario{pattern::uniform, false, 1},
        scenario{pattern::uniform, false, 32}, scenario{pattern::hotspot, true, 32},
        scenario{pattern::uniform, false, 5, 2, 2, 2},
        scenario{pattern::transpose, true, 13, 3, 1, 1}, scenario{pattern::bit_reverse, false, 8},
        scenario{pattern::shuffle, false, 8}, scenario{pattern::butterfly, true, 8}));

}  // namespace
