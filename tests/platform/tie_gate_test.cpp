// The tie rule (tiles/tie_gate.h): in an instant, what acts by itself goes first, with what it
// causes in delta cycles; then the bus masters that pass the gate, in key order; then, after what
// those cause, the cores, in key order. Checked under host.event_noise's reordering: devices, bus
// masters and cores wake every 3 cycles together; a device's action (D) and a master's (a, b) each
// cause a reaction (R, r) one delta later; masters and cores pass the gate with keys in the
// reverse of their spawn order. Cores wait and pass in one (tie_gate::pass_after) or, in the
// mixed bench, every other core waits and then passes: the order is the same.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tiles/tie_gate.h"
#include "vp/event_noise.h"

namespace {

using tiles::tie_gate;

const sc_core::sc_time period(10, sc_core::SC_NS);
constexpr unsigned rounds = 300, devices = 3, masters = 2, cores = 3;

enum class core_wait { wait_then_pass, pass_after, mixed };

struct bench : sc_core::sc_module {
    tie_gate gate{"gate"};
    std::vector<std::string> order = std::vector<std::string>(rounds);
    std::vector<sc_core::sc_event> poke = std::vector<sc_core::sc_event>(devices + masters);
    unsigned round() const { return unsigned(sc_core::sc_time_stamp() / (period * 3.0)) - 1; }

    // A thread that wakes every 3 cycles, passes the gate with `key` unless `gated` is false
    // (with `in_one`, waits and passes in one: pass_after), writes `mark` and, if `poked` is
    // given, causes a reaction one delta later.
    void every_round(bool gated, uint64_t key, char mark, sc_core::sc_event *poked,
                     bool in_one = false) {
        sc_core::sc_spawn([this, gated, key, mark, poked, in_one] {
            for (unsigned i = 0; i < rounds; ++i) {
                if (in_one) {
                    gate.pass_after(key, period * 3.0);
                } else {
                    wait(period * 3.0);
                    if (gated) gate.pass(key);
                }
                order[round()] += mark;
                if (poked) poked->notify(sc_core::SC_ZERO_TIME);
            }
        });
    }
    void reaction(sc_core::sc_event &e, char mark) {
        sc_core::sc_spawn([this, &e, mark] {
            for (;;) {
                wait(e);
                order[round()] += mark;
            }
        });
    }

    bench(sc_core::sc_module_name n, core_wait how) : sc_module(n) {
        for (unsigned d = 0; d < devices; ++d) {
            every_round(false, 0, 'D', &poke[d]);
            reaction(poke[d], 'R');
        }
        for (unsigned m = 0; m < masters; ++m) {
            const unsigned k = masters - 1 - m;
            every_round(true, tie_gate::key(tie_gate::bus_master, 0, k), char('a' + k),
                        &poke[devices + m]);
            reaction(poke[devices + m], 'r');
        }
        for (unsigned c = 0; c < cores; ++c) {
            const unsigned k = cores - 1 - c;
            const bool in_one =
                how == core_wait::pass_after || (how == core_wait::mixed && c % 2 == 0);
            every_round(true, tie_gate::key(tie_gate::core, 0, k), char('0' + k), nullptr, in_one);
        }
    }
};

void expect_tie_order(core_wait how) {
    bench b("bench", how);
    vp::event_noise noise("noise", 11, period);
    sc_core::sc_start(period * 3.0 * double(rounds + 1));
    for (unsigned i = 0; i < rounds; ++i) {
        const std::string &o = b.order[i];
        ASSERT_EQ(o.size(), 2 * devices + 2 * masters + cores) << "round " << i << ": " << o;
        // devices and their reactions in any order among themselves, then the masters in key
        // order, their reactions, and the cores in key order
        EXPECT_EQ(o.find_first_not_of("DR"), 2 * devices) << "round " << i << ": " << o;
        EXPECT_EQ(o.substr(2 * devices), "abrr012") << "round " << i << ": " << o;
    }
}

TEST(TieGate, MastersThenCoresInKeyOrderWhateverSystemCsOrder) {
    expect_tie_order(core_wait::wait_then_pass);
}

TEST(TieGate, CoresThatWaitAndPassInOneGoInTheSameOrder) {
    expect_tie_order(core_wait::pass_after);
}

TEST(TieGate, CoresThatPassInOneAndCoresThatWaitThenPassMeetInKeyOrder) {
    expect_tie_order(core_wait::mixed);
}

// pass_after with waiters due at different times (a heap of them, an earlier one arriving after
// a later one is armed): each returns at its own time, alone or with others of its instant in key
// order. (That a core's wait and pass in one change no simulation is checked on the platform:
// docs/timing.md "Ties".)
TEST(TieGate, PassAfterReturnsAtItsTimeWhateverTheOtherWaiters) {
    tie_gate gate("gate");
    constexpr unsigned threads = 4, steps = 400;
    struct seen {
        sc_core::sc_time at;
        unsigned who;
    };
    std::vector<seen> log;
    std::vector<std::vector<sc_core::sc_time>> due(threads);
    std::mt19937 rng(7);
    for (unsigned t = 0; t < threads; ++t) {
        sc_core::sc_time at = sc_core::SC_ZERO_TIME;
        for (unsigned i = 0; i < steps; ++i) {
            at += period * double(1 + rng() % 6);  // often two or more due together
            due[t].push_back(at);
        }
    }
    for (unsigned t = 0; t < threads; ++t) {
        sc_core::sc_spawn([&, t] {
            for (unsigned i = 0; i < steps; ++i) {
                const uint64_t before = sc_core::sc_delta_count();
                gate.pass_after(tie_gate::key(tie_gate::core, 0, threads - 1 - t),
                                due[t][i] - sc_core::sc_time_stamp());
                ASSERT_EQ(sc_core::sc_time_stamp(), due[t][i]) << "thread " << t << " step " << i;
                ASSERT_GT(sc_core::sc_delta_count(), before);
                log.push_back({sc_core::sc_time_stamp(), t});
            }
        });
    }
    sc_core::sc_start();
    ASSERT_EQ(log.size(), threads * steps);
    unsigned alone = 0, together = 0;
    for (size_t i = 0; i < log.size(); ++i) {
        const bool with_prev = i > 0 && log[i - 1].at == log[i].at;
        const bool with_next = i + 1 < log.size() && log[i + 1].at == log[i].at;
        if (with_prev) {
            EXPECT_GT(log[i - 1].who, log[i].who) << "key order at " << log[i].at;
            ++together;
        }
        if (!with_prev && !with_next) ++alone;
    }
    EXPECT_GT(alone, 100u);
    EXPECT_GT(together, 100u);
}

// Two threads with the same key (two FSMs of one component on one bus port), spawned in the
// reverse of their names' order: every round they go in the order of their names.
TEST(TieGate, ThreadsSharingAKeyGoInTheOrderOfTheirNames) {
    tie_gate gate("gate");
    std::vector<std::string> order(rounds);
    const uint64_t key = tie_gate::key(tie_gate::bus_master, 0, 0);
    for (const char *name : {"zeta", "alpha"}) {
        sc_core::sc_spawn(
            [&, name] {
                for (unsigned i = 0; i < rounds; ++i) {
                    wait(period * 3.0);
                    gate.pass(key);
                    order[i] += name[0];
                }
            },
            name);
    }
    vp::event_noise noise("noise", 5, period);
    sc_core::sc_start(period * 3.0 * double(rounds + 1));
    for (unsigned i = 0; i < rounds; ++i) EXPECT_EQ(order[i], "az") << "round " << i;
}

}  // namespace
