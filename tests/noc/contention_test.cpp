// Shared resources under contention: a link carries at most one flit per cycle, shared by the
// channels' virtual channels (but not between physical networks), and an output VC is shared
// fairly (round robin) between the inputs that compete for it.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include "noc_test_support.h"

namespace {

using noc::channel;

constexpr unsigned packet_flits = 8;
constexpr uint64_t run_cycles = 4000;

// Sends back-to-back packets from (sx, sy) to (dx, dy) on `ch` until the simulation ends.
void keep_sending(noc::mesh &net, unsigned sx, unsigned sy, unsigned dx, unsigned dy, channel ch) {
    sc_core::sc_spawn([&net, sx, sy, dx, dy, ch] {
        for (uint64_t i = 0;; ++i)
            net.port(sx, sy).send(noc_test::make_packet(dx, dy, ch, packet_flits, i));
    });
}

double delivered_flits_per_cycle(const noc_test::recording_sink &sink) {
    return double(sink.delivered.size() * packet_flits) / double(run_cycles);
}

struct fixture {
    explicit fixture(bool physical) {
        cfg.width = 3;
        cfg.height = 3;
        cfg.physical_channels = physical;
        net = std::make_unique<noc::mesh>("noc", cfg);
        sinks.resize(cfg.tiles());
        for (unsigned i = 0; i < cfg.tiles(); ++i) net->port(i).bind_sink(sinks[i]);
    }
    noc::config cfg;
    std::unique_ptr<noc::mesh> net;
    std::vector<noc_test::recording_sink> sinks;
};

TEST(contention, virtual_channels_share_one_link) {
    fixture f(false);
    keep_sending(*f.net, 0, 1, 1, 1, channel::data_request);
    keep_sending(*f.net, 0, 1, 1, 1, channel::data_response);
    sc_core::sc_start(noc_test::cycles(f.cfg, run_cycles));
    const double rate = delivered_flits_per_cycle(f.sinks[1 * 3 + 1]);
    EXPECT_LE(rate, 1.0);
    EXPECT_GE(rate, 0.95);
    unsigned per_channel[noc::channel_count] = {};
    for (const auto &d : f.sinks[4].delivered) ++per_channel[noc::index_of(d.pkt.header.ch)];
    const int diff = int(per_channel[2]) - int(per_channel[3]);
    EXPECT_LE(std::abs(diff), 2) << "the two channels should share the link evenly";
}

TEST(contention, physical_networks_do_not_share) {
    fixture f(true);
    keep_sending(*f.net, 0, 1, 1, 1, channel::data_request);
    keep_sending(*f.net, 0, 1, 1, 1, channel::data_response);
    sc_core::sc_start(noc_test::cycles(f.cfg, run_cycles));
    const double rate = delivered_flits_per_cycle(f.sinks[4]);
    EXPECT_LE(rate, 2.0);
    EXPECT_GE(rate, 1.9);
}

TEST(contention, output_vcs_are_shared_round_robin) {
    fixture f(false);
    // Three tiles send to (2,1) on one channel. XY routing: (0,1) and (1,1) meet at the centre
    // router's east output (west and local input); (1,0) goes east first and comes down from
    // (2,0). At (2,1) the ejection is shared between the west input (both centre flows) and the
    // north input. Round robin at each output gives the north flow half, the others a quarter each.
    keep_sending(*f.net, 0, 1, 2, 1, channel::control_request);
    keep_sending(*f.net, 1, 1, 2, 1, channel::control_request);
    keep_sending(*f.net, 1, 0, 2, 1, channel::control_request);
    sc_core::sc_start(noc_test::cycles(f.cfg, run_cycles));
    const auto &sink = f.sinks[1 * 3 + 2];
    EXPECT_GE(delivered_flits_per_cycle(sink), 0.95);
    unsigned from[9] = {};
    for (const auto &d : sink.delivered) ++from[d.pkt.header.src_y * 3 + d.pkt.header.src_x];
    const unsigned west = from[3], centre = from[4], north = from[1];
    EXPECT_LE(std::abs(int(west) - int(centre)), 2) << west << " vs " << centre;
    EXPECT_LE(std::abs(int(north) - int(west + centre)), 2) << north << " vs " << west + centre;
    EXPECT_GT(f.net->stats_json()["routers"][4]["blocked_cycles"].get<uint64_t>(), 0u);
}

// A held output VC is free the cycle after its owner's tail has crossed, and a head that waits
// for it is granted in that cycle, not before (docs/noc.md, steps 1 and 2). The owner's tail is
// held back upstream here, so that neither the link nor the buffer behind the VC binds: (1,1)
// injects two packets at cycle 0, one to (0,1) on control_request, which books the injection
// link first (the lower VC), and one to (2,1) on data_response, whose tail therefore enters the
// router at 2L - 1 and crosses the east output at 2L - 1 + R. (0,1) sends to (2,1) on
// data_response too: its head asks for the same east VC at 2R + link and waits until 2L + R.
// Neither packet waits anywhere else, so the blocking the routers count is that wait alone.
TEST(contention, a_waiting_head_gets_the_vc_the_cycle_after_the_tail_left) {
    fixture f(false);
    const unsigned len = 8;
    const uint64_t r = f.cfg.router_latency, l = f.cfg.link_latency;
    sc_core::sc_spawn([&f, len] {
        f.net->port(1, 1).send(noc_test::make_packet(0, 1, channel::control_request, len, 0));
    });
    sc_core::sc_spawn([&f, len] {
        f.net->port(1, 1).send(noc_test::make_packet(2, 1, channel::data_response, len, 1));
    });
    sc_core::sc_spawn([&f, len] {
        f.net->port(0, 1).send(noc_test::make_packet(2, 1, channel::data_response, len, 2));
    });
    sc_core::sc_start(noc_test::cycles(f.cfg, 200));
    ASSERT_EQ(f.sinks[1 * 3 + 0].delivered.size(), 1u);
    ASSERT_EQ(f.sinks[1 * 3 + 2].delivered.size(), 2u);
    EXPECT_EQ(f.sinks[1 * 3 + 2].delivered[0].pkt.user_tag, 1u);
    const auto routers = f.net->stats_json()["routers"];
    const uint64_t waited = (2 * len + r) - (2 * r + l);
    EXPECT_EQ(routers[1 * 3 + 1]["blocked_cycles"].get<uint64_t>(), waited);
    EXPECT_EQ(routers[1 * 3 + 2]["blocked_cycles"].get<uint64_t>(), 0u);
    EXPECT_EQ(routers[1 * 3 + 0]["blocked_cycles"].get<uint64_t>(), 0u);
}

}  // namespace
