// Bad configurations and bad packets are reported as SystemC errors (an sc_report exception with
// a message naming the problem), never a crash.
#include <gtest/gtest.h>

#include <string>

#include "noc/mesh.h"
#include "noc_test_support.h"

namespace {

// Runs `f`, expects an sc_report whose message contains `needle`.
template <typename F>
void expect_error(F f, const std::string &needle) {
    try {
        f();
        ADD_FAILURE() << "no error reported (expected one mentioning '" << needle << "')";
    } catch (const sc_core::sc_report &r) {
        EXPECT_NE(std::string(r.what()).find(needle), std::string::npos) << r.what();
    }
}

TEST(config_error, empty_mesh) {
    noc::config cfg;
    cfg.width = 0;
    cfg.height = 0;
    expect_error([&] { noc::mesh net("noc", cfg); }, "mesh size 0x0");
}

TEST(config_error, mesh_too_large_for_header) {
    noc::config cfg;
    cfg.width = 65;
    expect_error([&] { cfg.validate(); }, "at most 64");
}

TEST(config_error, zero_buffer_depth) {
    noc::config cfg;
    cfg.buffer_depth = 0;
    expect_error([&] { noc::mesh net("noc", cfg); }, "buffer_depth 0");
}

TEST(config_error, zero_router_latency) {
    noc::config cfg;
    cfg.router_latency = 0;
    expect_error([&] { cfg.validate(); }, "router_latency 0");
}

TEST(config_error, max_packet_length_beyond_header) {
    noc::config cfg;
    cfg.max_packet_flits = 65;
    expect_error([&] { cfg.validate(); }, "max_packet_flits 65");
}

TEST(config_error, packet_longer_than_max) {
    noc::config cfg;
    cfg.max_packet_flits = 16;
    noc::mesh net("noc", cfg);
    expect_error(
        [&] {
            net.port(0, 0).try_send(noc_test::make_packet(1, 1, noc::channel::data_request, 17));
        },
        "exceeds max_packet_flits 16");
    EXPECT_TRUE(net.port(0, 0).can_send(noc::channel::data_request));  // nothing was taken
}

TEST(config_error, destination_outside_mesh) {
    noc::config cfg;
    noc::mesh net("noc", cfg);
    expect_error(
        [&] {
            net.port(1, 1).try_send(noc_test::make_packet(4, 0, noc::channel::control_request, 2));
        },
        "outside the 4x4 mesh");
    expect_error(
        [&] {
            net.port(1, 1).try_send(noc_test::make_packet(0, 9, noc::channel::control_request, 2));
        },
        "outside the 4x4 mesh");
}

TEST(config_error, port_outside_mesh) {
    noc::config cfg;
    noc::mesh net("noc", cfg);
    expect_error([&] { net.port(4, 0); }, "no tile (4,0)");
}

TEST(config_error, delivery_without_sink) {
    noc::config cfg;
    noc::mesh net("noc", cfg);
    net.port(0, 0).try_send(noc_test::make_packet(1, 0, noc::channel::control_request, 1));
    expect_error([&] { sc_core::sc_start(noc_test::cycles(cfg, 100)); }, "no sink is bound");
}

TEST(config_error, small_buffers_warn_but_work) {
    noc::config cfg;
    cfg.buffer_depth = 1;
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_THROW);
    expect_error([&] { noc::mesh net("noc", cfg); }, "below the credit round trip");
}

}  // namespace
