// Ties are ordered by the model, not by SystemC: two meshes simulated side by side get the same
// random traffic, one with each cycle's packets injected in tile order, the other in reverse order
// (as if SystemC ran the tiles' processes the other way round). Every delivery (cycle, source,
// packet) and every statistic must be the same.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>

#include "noc_test_support.h"

namespace {

using noc::channel;

struct planned {
    uint64_t cycle;
    unsigned src, dst, flits;
    channel ch;
    uint64_t tag;
};

// Dense random traffic (deterministic xorshift): several sources per cycle, all four channels,
// hot-spots so that heads meet at the same output VCs in the same cycle.
std::vector<planned> make_plan(const noc::config &cfg, uint64_t cycles, uint32_t seed) {
    std::vector<planned> plan;
    uint32_t s = seed;
    auto next = [&s] {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        return s;
    };
    uint64_t tag = 0;
    for (uint64_t c = 0; c < cycles; c += 4)
        for (unsigned src = 0; src < cfg.tiles(); ++src) {
            if (next() % 3) continue;
            const unsigned dst = next() % 4 ? next() % cfg.tiles() : 0;  // tile 0 is a hot-spot
            plan.push_back({c, src, dst, 2 + next() % 10, static_cast<channel>(next() % 4), tag++});
        }
    return plan;
}

struct rig {
    rig(const char *name, const noc::config &cfg) : net(name, cfg), sinks(cfg.tiles()) {
        for (unsigned i = 0; i < cfg.tiles(); ++i) net.port(i).bind_sink(sinks[i]);
    }
    noc::mesh net;
    std::vector<noc_test::recording_sink> sinks;
};

// One driver per mesh: at each cycle it offers the due packets (and those refused earlier, in
// their order) in the given tile order; a busy channel is retried the next cycle. It ends when
// every packet is in (a thread still waiting at the end would leak its locals: LeakSanitizer).
void drive(rig &r, const noc::config &cfg, const std::vector<planned> &plan, bool reversed) {
    sc_core::sc_spawn([&r, &cfg, &plan, reversed] {
        std::vector<std::deque<planned>> waiting(cfg.tiles());
        size_t next = 0;
        size_t sent = 0;
        for (uint64_t c = 0; sent < plan.size(); ++c) {
            while (next < plan.size() && plan[next].cycle == c) {
                waiting[plan[next].src].push_back(plan[next]);
                ++next;
            }
            for (unsigned i = 0; i < cfg.tiles(); ++i) {
                const unsigned t = reversed ? cfg.tiles() - 1 - i : i;
                for (auto it = waiting[t].begin(); it != waiting[t].end();) {
                    const unsigned w = cfg.width;
                    if (r.net.port(t).try_send(noc_test::make_packet(it->dst % w, it->dst / w,
                                                                     it->ch, it->flits, it->tag))) {
                        it = waiting[t].erase(it);
                        ++sent;
                    } else {
                        ++it;
                    }
                }
            }
            sc_core::wait(noc_test::cycles(cfg, 1));
        }
    });
}

TEST(tie_order, injection_order_within_a_cycle_changes_nothing) {
    noc::config cfg;
    cfg.width = 4;
    cfg.height = 4;
    const std::vector<planned> plan = make_plan(cfg, 2000, 0x2545f491u);
    rig forward("forward", cfg), backward("backward", cfg);
    drive(forward, cfg, plan, false);
    drive(backward, cfg, plan, true);
    sc_core::sc_start(noc_test::cycles(cfg, 12000));

    size_t total = 0;
    for (unsigned t = 0; t < cfg.tiles(); ++t) {
        const auto &a = forward.sinks[t].delivered, &b = backward.sinks[t].delivered;
        ASSERT_EQ(a.size(), b.size()) << "tile " << t;
        for (size_t i = 0; i < a.size(); ++i) {
            ASSERT_EQ(a[i].pkt.user_tag, b[i].pkt.user_tag) << "tile " << t << " delivery " << i;
            ASSERT_EQ(a[i].at, b[i].at) << "tile " << t << " delivery " << i;
        }
        total += a.size();
    }
    EXPECT_EQ(total, plan.size()) << "every planned packet delivered";
    const nlohmann::json stats = forward.net.stats_json();
    EXPECT_TRUE(stats == backward.net.stats_json()) << "the statistics differ";
    // The traffic must make heads compete, or the test proves nothing.
    uint64_t blocked = 0;
    for (const auto &r : stats["routers"]) blocked += r["blocked_cycles"].get<uint64_t>();
    EXPECT_GT(blocked, 100000u);
}

}  // namespace
