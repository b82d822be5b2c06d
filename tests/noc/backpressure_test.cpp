#define SC_INCLUDE_DYNAMIC_PROCESSES
// Backpressure and message-dependent deadlock freedom.
//  - A sink that refuses one channel blocks that channel's packets in the network (they hold their
//    buffers, later packets on the channel queue behind them, the sender stalls) while packets on
//    the other channels between the same tiles keep flowing. When the sink accepts again
//    everything arrives, in order.
//  - A request/response protocol where a tile only accepts a request when it can queue the
//    response (the network adapter pattern) completes under heavy load: responses never wait for
//    requests.
#include <gtest/gtest.h>

#include <deque>
#include <ostream>

#include "noc_test_support.h"

namespace {

using noc::channel;

enum class network_kind { virtual_channels, physical_channels };
void PrintTo(network_kind k, std::ostream *os) {
    *os << (k == network_kind::physical_channels ? "physical" : "vc");
}

class backpressure : public ::testing::TestWithParam<network_kind> {};

TEST_P(backpressure, refused_channel_blocks_alone) {
    noc::config cfg;
    cfg.width = 4;
    cfg.height = 3;
    cfg.physical_channels = GetParam() == network_kind::physical_channels;
    noc::mesh net("noc", cfg);
    std::vector<noc_test::recording_sink> sinks(cfg.tiles());
    for (unsigned i = 0; i < cfg.tiles(); ++i) net.port(i).bind_sink(sinks[i]);
    noc_test::recording_sink &target = sinks[2 * cfg.width + 3];  // tile (3,2)
    target.refuse[noc::index_of(channel::data_request)] = true;

    const unsigned requests = 20, responses = 20;
    sc_core::sc_time last_request_sent, last_response_sent;
    auto sender = [&](channel ch, unsigned count, sc_core::sc_time &done) {
        for (unsigned i = 0; i < count; ++i)
            net.port(0, 0).send(noc_test::make_packet(3, 2, ch, 16, i));
        done = sc_core::sc_time_stamp();
    };
    sc_core::sc_spawn([&] { sender(channel::data_request, requests, last_request_sent); },
                      "requests");
    sc_core::sc_spawn([&] { sender(channel::data_response, responses, last_response_sent); },
                      "responses");
    sc_core::sc_spawn(
        [&] {  // traffic from another tile crossing the same links, other channels
            for (unsigned i = 0; i < 10; ++i)
                net.port(1, 0).send(
                    noc_test::make_packet(3, 2, channel::control_request, 4, 100 + i));
        },
        "crossing");

    const sc_core::sc_time release = noc_test::cycles(cfg, 5000);
    sc_core::sc_start(release);
    auto count = [&](channel ch) {
        unsigned n = 0;
        for (const auto &d : target.delivered) n += d.pkt.header.ch == ch;
        return n;
    };
    // While refused: no request got through, the requester is stalled, everything else arrived.
    EXPECT_EQ(count(channel::data_request), 0u);
    EXPECT_GT(target.refusals[noc::index_of(channel::data_request)], 0u);
    EXPECT_EQ(last_request_sent, sc_core::SC_ZERO_TIME)
        << "requests should still be stuck in the sender";
    EXPECT_EQ(count(channel::data_response), responses);
    EXPECT_EQ(count(channel::control_request), 10u);
    EXPECT_LT(last_response_sent, noc_test::cycles(cfg, 1000));
    EXPECT_GT(net.packets_in_flight(), 0u);

    target.refuse[noc::index_of(channel::data_request)] = false;
    net.port(3, 2).sink_ready(channel::data_request);
    sc_core::sc_start(noc_test::cycles(cfg, 5000));
    EXPECT_EQ(count(channel::data_request), requests);
    EXPECT_EQ(net.packets_in_flight(), 0u);
    uint64_t expected_tag = 0;
    for (const auto &d : target.delivered)
        if (d.pkt.header.ch == channel::data_request) {
            EXPECT_EQ(d.pkt.user_tag, expected_tag++) << "requests out of order";
            EXPECT_GE(d.at, release);
        }
}

// Every tile sends short requests to pseudo-random tiles, each answered by a long response; a tile accepts a request only if its response
// queue is empty, and answers each request with a response to the requester.
class request_response_tile : public noc::packet_sink {
public:
    request_response_tile(noc::mesh &net, unsigned id) : net_(net), id_(id) {}

    bool can_accept(const noc::packet &p) override {
        if (p.header.ch == channel::control_response) return true;
        if (pending_responses_.empty()) return true;
        request_refused_ = true;
        ++refusals;
        return false;
    }
    void deliver(noc::packet p) override {
        if (p.header.ch == channel::control_response) {
            ++responses_received;
            return;
        }
        ++requests_served;
        pending_responses_.push_back(noc_test::make_packet(
            p.header.src_x, p.header.src_y, channel::control_response, 24, p.user_tag));
        push_responses();
    }
    // Called when the response channel frees up.
    void push_responses() {
        noc::network_port &port = net_.port(id_);
        if (!pending_responses_.empty() && port.can_send(channel::control_response)) {
            port.try_send(std::move(pending_responses_.front()));
            pending_responses_.pop_front();
            if (request_refused_) {  // room again: let the refused request in
                request_refused_ = false;
                port.sink_ready(channel::control_request);
            }
        }
    }

    unsigned requests_served = 0, responses_received = 0, refusals = 0;

private:
    noc::mesh &net_;
    unsigned id_;
    std::deque<noc::packet> pending_responses_;
    bool request_refused_ = false;
};

TEST_P(backpressure, request_response_protocol_never_deadlocks) {
    noc::config cfg;
    cfg.width = 4;
    cfg.height = 4;
    cfg.physical_channels = GetParam() == network_kind::physical_channels;
    noc::mesh net("noc", cfg);
    std::vector<std::unique_ptr<request_response_tile>> tiles;
    for (unsigned i = 0; i < cfg.tiles(); ++i) {
        tiles.push_back(std::make_unique<request_response_tile>(net, i));
        net.port(i).bind_sink(*tiles.back());
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.dont_initialize();
        opts.set_sensitivity(&net.port(i).send_ready_event(channel::control_response));
        request_response_tile *t = tiles.back().get();
        sc_core::sc_spawn([t] { t->push_responses(); }, ("responder_" + std::to_string(i)).c_str(),
                          &opts);
    }
    const unsigned per_tile = 150;
    for (unsigned i = 0; i < cfg.tiles(); ++i)
        sc_core::sc_spawn(
            [&, i] {
                uint32_t state = 12345 + i;
                for (unsigned k = 0; k < per_tile; ++k) {
                    state = state * 1103515245u + 12345u;
                    unsigned dst = (state >> 16) % cfg.tiles();
                    if (dst == i) dst = (dst + 1) % cfg.tiles();
                    net.port(i).send(noc_test::make_packet(dst % cfg.width, dst / cfg.width,
                                                           channel::control_request, 4, k));
                }
            },
            ("requester_" + std::to_string(i)).c_str());

    sc_core::sc_start(noc_test::cycles(cfg, 200000));
    unsigned served = 0, answered = 0, refusals = 0;
    for (const auto &t : tiles) {
        served += t->requests_served;
        answered += t->responses_received;
        refusals += t->refusals;
    }
    const unsigned total = per_tile * cfg.tiles();
    EXPECT_EQ(served, total);
    EXPECT_EQ(answered, total);
    EXPECT_GT(refusals, 0u) << "the scenario should exercise refused requests";
    EXPECT_EQ(net.packets_in_flight(), 0u);
}

INSTANTIATE_TEST_SUITE_P(channels, backpressure,
                         ::testing::Values(network_kind::virtual_channels,
                                           network_kind::physical_channels));

}  // namespace
