// host.event_noise (vp/event_noise.h) must change the order in which SystemC runs processes that
// wake at the same time, and nothing else: four racers wake every 3 cycles; the order in which
// they run is recorded per wake-up. Without the noise SystemC keeps to two orders here (the
// control), with it nearly all 24 appear, while every racer still wakes at the same times.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "vp/event_noise.h"

namespace {

const sc_core::sc_time period(10, sc_core::SC_NS);
constexpr unsigned racers = 4, rounds = 400;

struct race : sc_core::sc_module {
    std::vector<std::string> order = std::vector<std::string>(rounds);
    std::vector<unsigned> wakes = std::vector<unsigned>(racers);
    explicit race(sc_core::sc_module_name n) : sc_module(n) {
        for (unsigned r = 0; r < racers; ++r)
            sc_core::sc_spawn([this, r] {
                for (unsigned i = 0; i < rounds; ++i) {
                    wait(period * 3.0);
                    if (sc_core::sc_time_stamp() == period * 3.0 * double(i + 1)) ++wakes[r];
                    order[i] += char('0' + r);
                }
            });
    }
};

std::set<std::string> orders_seen(uint32_t seed) {
    race r("race");
    std::unique_ptr<vp::event_noise> noise;
    if (seed) noise = std::make_unique<vp::event_noise>("noise", seed, period);
    sc_core::sc_start(period * 3.0 * double(rounds + 1));
    for (unsigned w : r.wakes) EXPECT_EQ(w, rounds) << "a racer woke at another time";
    return std::set<std::string>(r.order.begin(), r.order.end());
}

TEST(EventNoise, WithoutNoiseFewOrders) { EXPECT_LE(orders_seen(0).size(), 3u); }

TEST(EventNoise, NoiseChangesTheOrderOfSimultaneousProcesses) {
    EXPECT_GE(orders_seen(7).size(), 12u);
}

}  // namespace
