// The tie rule (tiles/tie_gate.h): in an instant, what acts by itself goes first, with what it
// causes in delta cycles; then the bus masters that pass the gate, in key order; then, after what
// those cause, the cores, in key order. Checked under host.event_noise's reordering: devices, bus
// masters and cores wake every 3 cycles together; a device's action (D) and a master's (a, b) each
// cause a reaction (R, r) one delta later; masters and cores pass the gate with keys in the
// reverse of their spawn order.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tiles/tie_gate.h"
#include "vp/event_noise.h"

namespace {

using tiles::tie_gate;

const sc_core::sc_time period(10, sc_core::SC_NS);
constexpr unsigned rounds = 300, devices = 3, masters = 2, cores = 3;

struct bench : sc_core::sc_module {
    tie_gate gate{"gate"};
    std::vector<std::string> order = std::vector<std::string>(rounds);
    std::vector<sc_core::sc_event> poke = std::vector<sc_core::sc_event>(devices + masters);
    unsigned round() const { return unsigned(sc_core::sc_time_stamp() / (period * 3.0)) - 1; }

    // A thread that wakes every 3 cycles, passes the gate with `key` unless `gated` is false,
    // writes `mark` and, if `poked` is given, causes a reaction one delta later.
    void every_round(bool gated, uint64_t key, char mark, sc_core::sc_event *poked) {
        sc_core::sc_spawn([this, gated, key, mark, poked] {
            for (unsigned i = 0; i < rounds; ++i) {
                wait(period * 3.0);
                if (gated) gate.pass(key);
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

    explicit bench(sc_core::sc_module_name n) : sc_module(n) {
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
            every_round(true, tie_gate::key(tie_gate::core, 0, k), char('0' + k), nullptr);
        }
    }
};

TEST(TieGate, MastersThenCoresInKeyOrderWhateverSystemCsOrder) {
    bench b("bench");
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
