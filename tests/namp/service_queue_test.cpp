// namp::service_queue against the two waits it replaces (wake on arrival, then wait out the
// service time): every item is served at the same time and in the same delta cycle, whether the
// server is idle or busy when it arrives, for arrivals in bursts, in several delta cycles of one
// instant and during another item's service, with and without a service time.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <vector>
#include <systemc>

#include "namp/service_queue.h"

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

struct served {
    int item;
    uint64_t time_ps;
    uint64_t delta;
    bool operator==(const served &o) const {
        return item == o.item && time_ps == o.time_ps && delta == o.delta;
    }
};

// Arrivals: (delay after the previous arrival, delta cycles after it); work: time the server
// spends on an item after its service time (0: none).
struct scenario {
    sc_time service;
    std::vector<std::pair<sc_time, unsigned>> arrivals;
    std::vector<sc_time> work;
};

struct harness : sc_core::sc_module {
    SC_HAS_PROCESS(harness);
    harness(sc_core::sc_module_name n, const scenario &s) : sc_module(n), s_(s), queue_(s.service) {
        SC_THREAD(source);
        SC_THREAD(server);
        SC_THREAD(reference);
    }
    std::vector<served> got, want;

private:
    void source() {
        int k = 0;
        for (const auto &[gap, deltas] : s_.arrivals) {
            sc_core::wait(gap);
            for (unsigned d = 0; d < deltas; ++d) sc_core::wait(sc_core::SC_ZERO_TIME);
            queue_.push(k);
            ref_.push_back(k);
            ref_event_.notify(sc_core::SC_ZERO_TIME);
            ++k;
        }
    }
    void record(std::vector<served> &into, int item) {
        into.push_back({item, sc_core::sc_time_stamp().value(), sc_core::sc_delta_count()});
        const sc_time w = s_.work[size_t(item) % s_.work.size()];
        if (w != sc_core::SC_ZERO_TIME) sc_core::wait(w);
    }
    void server() {
        for (;;) {
            int item = -1;
            queue_.take(item);
            record(got, item);
        }
    }
    void reference() {  // what the adapter's threads did before
        for (;;) {
            while (ref_.empty()) sc_core::wait(ref_event_);
            const int item = ref_.front();
            ref_.pop_front();
            sc_core::wait(s_.service);
            record(want, item);
        }
    }

    const scenario &s_;
    namp::service_queue<int> queue_;
    std::deque<int> ref_;
    sc_core::sc_event ref_event_;
};

// Every test runs in a process of its own (gtest_discover_tests), so each elaborates once.
void check(const scenario &s) {
    harness h("h", s);
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));
    ASSERT_EQ(h.got.size(), s.arrivals.size());
    ASSERT_EQ(h.got.size(), h.want.size());
    for (size_t i = 0; i < h.got.size(); ++i) {
        EXPECT_EQ(h.got[i].item, h.want[i].item) << "item " << i;
        EXPECT_EQ(h.got[i].time_ps, h.want[i].time_ps) << "item " << i;
        // the delta count is global: both servers resume in the same delta cycle
        EXPECT_EQ(h.got[i].delta, h.want[i].delta) << "item " << i;
    }
}

scenario random_scenario(sc_time service, unsigned seed) {
    std::mt19937 rng(seed);
    scenario s;
    s.service = service;
    for (int i = 0; i < 300; ++i) {
        // gaps of 0 to 3 service times: idle arrivals, arrivals during a service, bursts
        const unsigned gap_ns = rng() % 4 == 0 ? 0 : rng() % 130;
        s.arrivals.push_back({sc_time(gap_ns, SC_NS), rng() % 3});
    }
    for (int i = 0; i < 7; ++i) s.work.push_back(sc_time(rng() % 3 == 0 ? 0 : rng() % 50, SC_NS));
    return s;
}

}  // namespace

TEST(ServiceQueue, AnIdleServerTakesTheItemAfterItsServiceTime) {
    scenario s;
    s.service = sc_time(40, SC_NS);
    s.arrivals = {{sc_time(100, SC_NS), 0}, {sc_time(500, SC_NS), 2}};
    s.work = {sc_time(10, SC_NS)};
    harness h("h", s);
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));
    ASSERT_EQ(h.got.size(), 2u);
    EXPECT_EQ(h.got[0].time_ps, sc_time(140, SC_NS).value());
    EXPECT_EQ(h.got[1].time_ps, sc_time(640, SC_NS).value());
    EXPECT_EQ(h.got, h.want);
}

TEST(ServiceQueue, ItemsArrivingWhileBusyAreServedOneAfterTheOther) {
    scenario s;
    s.service = sc_time(40, SC_NS);
    // three at once, a fourth during the first one's service
    s.arrivals = {{sc_time(100, SC_NS), 0},
                  {sc_time(0, SC_NS), 1},
                  {sc_time(0, SC_NS), 2},
                  {sc_time(20, SC_NS), 0}};
    s.work = {sc_time(5, SC_NS)};
    harness h("h", s);
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));
    ASSERT_EQ(h.got.size(), 4u);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(h.got[i].item, i);
        EXPECT_EQ(h.got[i].time_ps, sc_time(140 + 45 * i, SC_NS).value()) << i;
    }
    EXPECT_EQ(h.got, h.want);
}

TEST(ServiceQueue, RandomArrivalsAsBefore) { check(random_scenario(sc_time(40, SC_NS), 1)); }

TEST(ServiceQueue, RandomArrivalsWithoutWorkAsBefore) {
    scenario s = random_scenario(sc_time(20, SC_NS), 2);
    s.work = {sc_core::SC_ZERO_TIME};
    check(s);
}

TEST(ServiceQueue, NoServiceTimeTakesTheSameDeltaCycles) {
    check(random_scenario(sc_core::SC_ZERO_TIME, 3));
}
