// The energy model (vp/src/energy.cpp, docs/energy.md): every event is its count times its
// energy.* figure, leakage is the area model's gates times the leakage per gate times the
// simulated time, the figures are configuration keys with a source each.
#include <gtest/gtest.h>

#include <cmath>

#include "vp/area.h"
#include "vp/energy.h"

namespace {

vp::platform_config config(const std::string &preset,
                           const std::vector<std::string> &overrides = {}) {
    vp::config_builder b;
    if (!preset.empty()) b.apply_preset(preset);
    for (const std::string &o : overrides) b.apply_override(o);
    return b.build();
}

const vp::energy_event &event(const vp::energy_report &r, const std::string &name) {
    for (const auto &e : r.events)
        if (e.name == name) return e;
    throw std::runtime_error("no event " + name);
}

vp::energy_counts some_counts() {
    vp::energy_counts n;
    n.instret = 1000;
    n.loads = 100;
    n.stores = 50;
    n.atomics = 2;
    n.branches = 80;
    n.muls = 10;
    n.divs = 3;
    n.sram_bus_read_words = 40;
    n.sram_bus_write_words = 30;
    n.bus_words = 90;
    n.na_flits_sent = 64;
    n.na_flits_received = 60;
    n.dma_bytes = 400;
    n.namp_steps = 25;
    n.na_register_accesses = 12;
    n.noc.buffer_writes = n.noc.buffer_reads = n.noc.crossbar_traversals = 300;
    n.noc.route_computations = 40;
    n.noc.link_traversals = 200;
    n.cycles = 100000;  // 1 ms at 100 MHz
    return n;
}

}  // namespace

TEST(Energy, EveryEventIsItsCountTimesItsFigure) {
    const vp::energy_report r = vp::estimate_energy(config("bare"), some_counts(), true);
    // 1000 instructions: 100 + 50 + 2 + 80 + 10 + 3 special, the rest ALU class
    EXPECT_EQ(event(r, "alu").count, 755u);
    EXPECT_EQ(event(r, "alu").fj_each, 100u);
    EXPECT_EQ(event(r, "mul").count, 10u);
    EXPECT_EQ(event(r, "mul").fj_each, 3100u);
    EXPECT_EQ(event(r, "div").fj_each, 3200u);
    EXPECT_EQ(event(r, "instruction_fetch").count, 1000u);
    EXPECT_EQ(event(r, "instruction_fetch").fj_each, 50000u);  // 1 MiB SRAM
    EXPECT_EQ(event(r, "data_read").count, 102u);
    EXPECT_EQ(event(r, "data_write").count, 52u);
    EXPECT_EQ(event(r, "na_buffer_write").count, 124u);
    EXPECT_EQ(event(r, "dma_word").count, 100u);
    // router buffers grow with their depth: 269 + 4 x 44 fJ at the default depth
    EXPECT_EQ(event(r, "router_buffer_write").fj_each, 269u + 4 * 44);
    // a 32-bit flit over 1 mm of link
    EXPECT_EQ(event(r, "link").fj_each, 32u * 49);
    double sum = 0;
    for (const auto &e : r.events) sum += double(e.count) * double(e.fj_each) / 1000;
    EXPECT_DOUBLE_EQ(r.dynamic_pj(), sum);
    double groups = 0;
    for (const std::string &g : vp::energy_groups()) groups += r.group_pj(g);
    EXPECT_NEAR(groups, r.dynamic_pj(), 1e-6);
}

TEST(Energy, AFigureIsAConfigurationKey) {
    const vp::energy_report a = vp::estimate_energy(config("bare"), some_counts(), true);
    const vp::energy_report b =
        vp::estimate_energy(config("bare", {"energy.mul_fj=6200"}), some_counts(), true);
    EXPECT_EQ(event(b, "mul").fj_each, 6200u);
    EXPECT_NEAR(b.dynamic_pj() - a.dynamic_pj(), 10 * 3.1, 1e-9);
    const vp::energy_report c =
        vp::estimate_energy(config("bare", {"noc.buffer_depth=8"}), some_counts(), true);
    EXPECT_EQ(event(c, "router_buffer_read").fj_each, 120u + 8 * 44);
}

TEST(Energy, SramEnergyScalesWithTheSquareRootOfItsSize) {
    const vp::energy_report r =
        vp::estimate_energy(config("", {"tile.sram_size=262144"}), some_counts(), true);
    EXPECT_EQ(event(r, "instruction_fetch").fj_each, 25000u);  // a quarter of the size: half
}

TEST(Energy, LeakageIsTheAreaModelsGatesOverTheSimulatedTime) {
    const vp::platform_config c = config("bare");
    const vp::energy_report r = vp::estimate_energy(c, some_counts(), true);
    const vp::area_estimate a = vp::estimate_area(c);
    double gates = 0;
    for (const auto &p : r.leakage) gates += p.gates;
    const double adapters = a.adapter_kgates() * 1000 * a.tiles;
    EXPECT_NEAR(gates, adapters + vp::router_gates(c) * 16, 1e-6);
    EXPECT_NEAR(r.seconds, 1e-3, 1e-15);
    EXPECT_NEAR(r.leakage_pj(), gates * 18800 * 1e-3, 1e-3);  // pW x s = pJ
    // twice the time, twice the leakage; no adapters (--traffic), only the routers leak
    vp::energy_counts longer = some_counts();
    longer.cycles *= 2;
    EXPECT_NEAR(vp::estimate_energy(c, longer, true).leakage_pj(), 2 * r.leakage_pj(), 1e-6);
    const vp::energy_report noc_only = vp::estimate_energy(c, some_counts(), false);
    ASSERT_EQ(noc_only.leakage.size(), 1u);
    EXPECT_EQ(noc_only.leakage[0].name, "routers");
    EXPECT_DOUBLE_EQ(noc_only.group_pj("adapter"), 0.0);
}

TEST(Energy, RouterAreaCountsBuffersAndCrossbars) {
    // 5 ports x 4 channels x 4 flits of 32 storage bits (7 gates each by default) + one crossbar
    // with its allocators
    EXPECT_DOUBLE_EQ(vp::router_gates(config("")), 5 * 4 * 4 * 32 * 7.0 + 2740);
    // one network per channel: four crossbars
    EXPECT_DOUBLE_EQ(vp::router_gates(config("", {"noc.physical_channels=true"})),
                     5 * 4 * 4 * 32 * 7.0 + 4 * 2740);
    const auto j = vp::noc_area_json(config(""));
    EXPECT_EQ(j["links"].get<unsigned>(), 48u);  // 4x4: 24 neighbour pairs, both directions
    EXPECT_DOUBLE_EQ(j["router_kgates"].get<double>(), 20.66);
}

TEST(Energy, EveryFigureNamesItsSource) {
    const std::string table = vp::energy_figures_table();
    unsigned keys = 0;
    for (const auto &k : vp::config_schema()) {
        if (k.path.compare(0, 7, "energy.") != 0) continue;
        ++keys;
        EXPECT_NE(table.find("`" + k.path + "`"), std::string::npos) << k.path;
        // a published figure or a derivation from one (or an assumption, said as such)
        const bool sourced = k.description.find("Source:") != std::string::npos ||
                             k.description.find("Derived") != std::string::npos ||
                             k.description.find("assumption") != std::string::npos;
        EXPECT_TRUE(sourced) << k.path << ": " << k.description;
    }
    EXPECT_GE(keys, 15u);
}

TEST(Energy, PerMessageFiguresNeedMessages) {
    vp::energy_counts n = some_counts();
    n.noc_packets_delivered = 10;
    n.namp_transfers = 0;
    n.data_bytes = 400;
    const auto j = vp::energy_json(vp::estimate_energy(config("bare"), n, true));
    EXPECT_TRUE(j["per_message"]["pj_per_namp_transfer"].is_null());
    EXPECT_GT(j["per_message"]["network_pj_per_noc_packet"].get<double>(), 0.0);
    EXPECT_NEAR(j["per_message"]["pj_per_data_byte"].get<double>(),
                j["total_pj"].get<double>() / 400, 1e-3);
}
