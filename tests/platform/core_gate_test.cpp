// The cores' tie rule (tiles/core_gate.h): in an instant, everything else acts first, including
// what it causes in delta cycles; then the cores that resumed in it, in key order. Checked under
// host.event_noise's reordering: devices and cores wake every 3 cycles together, a device's
// action causes a reaction one delta later, and the cores pass the gate with keys in the reverse
// of their spawn order.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tiles/core_gate.h"
#include "vp/event_noise.h"

namespace {

const sc_core::sc_time period(10, sc_core::SC_NS);
constexpr unsigned rounds = 300, devices = 3, cores = 3;

struct bench : sc_core::sc_module {
    tiles::core_gate gate{"gate", cores};
    std::vector<std::string> order = std::vector<std::string>(rounds);
    std::vector<sc_core::sc_event> poke = std::vector<sc_core::sc_event>(devices);
    unsigned round() const { return unsigned(sc_core::sc_time_stamp() / (period * 3.0)) - 1; }
    explicit bench(sc_core::sc_module_name n) : sc_module(n) {
        for (unsigned d = 0; d < devices; ++d) {
            sc_core::sc_spawn([this, d] {
                for (unsigned i = 0; i < rounds; ++i) {
                    wait(period * 3.0);
                    order[round()] += 'D';
                    poke[d].notify(sc_core::SC_ZERO_TIME);
                }
            });
            sc_core::sc_spawn([this, d] {
                for (;;) {
                    wait(poke[d]);
                    order[round()] += 'R';
                }
            });
        }
        for (unsigned c = 0; c < cores; ++c)
            sc_core::sc_spawn([this, c] {
                for (unsigned i = 0; i < rounds; ++i) {
                    wait(period * 3.0);
                    gate.pass(cores - 1 - c);
                    order[round()] += char('0' + (cores - 1 - c));
                }
            });
    }
};

TEST(CoreGate, CoresLastInKeyOrderWhateverSystemCsOrder) {
    bench b("bench");
    vp::event_noise noise("noise", 11, period);
    sc_core::sc_start(period * 3.0 * double(rounds + 1));
    for (unsigned i = 0; i < rounds; ++i) {
        const std::string &o = b.order[i];
        ASSERT_EQ(o.size(), 2 * devices + cores) << "round " << i << ": " << o;
        // devices and their reactions (in any order among themselves), then cores 0, 1, 2
        EXPECT_EQ(o.substr(2 * devices), "012") << "round " << i << ": " << o;
        EXPECT_EQ(o.find_first_of("012"), 2 * devices) << "round " << i << ": " << o;
    }
}

}  // namespace
