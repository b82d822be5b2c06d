// Tile bus arbitration (tiles/tile_bus.h): first come first served in simulated time, occupancy
// per word, bursts, a calendar that serves time-decoupled masters in time order, and a core's
// access booked at its own time.
#include <functional>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "tiles/initiator_id.h"
#include "tiles/sram.h"
#include "tiles/tile_bus.h"

namespace {

const sc_core::sc_time period(10, sc_core::SC_NS);

struct master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<master> socket;
    explicit master(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
    // One read of `words` words issued with annotated time `offset`; returns its delay.
    sc_core::sc_time read(uint32_t addr, unsigned words, sc_core::sc_time offset) {
        const sc_core::sc_time issued = sc_core::sc_time_stamp() + offset;
        return read_until(addr, words, offset, nullptr) - issued;
    }
    // The same, as a core (with its initiator extension) if `core` is given; returns the absolute
    // time the access ends (the bus may wait for the core's time inside the call).
    sc_core::sc_time read_until(uint32_t addr, unsigned words, sc_core::sc_time offset,
                                tiles::initiator_id *core) {
        uint32_t buf[64];
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char *>(buf));
        t.set_data_length(4 * words);
        t.set_streaming_width(4 * words);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        if (core) t.set_extension(core);
        sc_core::sc_time delay = offset;
        socket->b_transport(t, delay);
        if (core) t.clear_extension(core);
        EXPECT_TRUE(t.is_response_ok());
        return sc_core::sc_time_stamp() + delay;
    }
};

struct bench {
    rv_reservation_set res;
    tiles::tile_bus bus{"bus", 1, period};
    tiles::sram mem{"mem", 0x80000000u, 4096, 1, 1, period, &res};
    master a{"a"}, b{"b"};
    bench() {
        rv_reservations_init(&res);
        a.socket.bind(bus.masters);
        b.socket.bind(bus.masters);
        bus.devices.bind(mem.socket);
        bus.map_device(0x80000000u, 4096, "sram");
    }
};

// The bus's multi-sockets are bound at the end of elaboration: the body runs as a process.
void run(std::function<void()> body) {
    sc_core::sc_spawn(body);
    sc_core::sc_start();
}

}  // namespace

TEST(TileBus, BurstOccupiesTheBusAndTheNextMasterWaits) {
    bench t;
    run([&] {
        // a: 29-word burst = SRAM latency 1 + 28 further words; it occupies the bus 29 cycles
        EXPECT_EQ(t.a.read(0x80000000u, 29, sc_core::SC_ZERO_TIME), period * 29.0);
        // b arrives at the same time: waits 29 cycles, then its own single-word read (1 cycle)
        EXPECT_EQ(t.b.read(0x80000100u, 1, sc_core::SC_ZERO_TIME), period * 30.0);
        EXPECT_EQ(t.bus.wait_cycles(), 29u);
        EXPECT_EQ(t.bus.busy_cycles(), 30u);
    });
}

TEST(TileBus, TimeDecoupledMasterAheadDoesNotBlockAnEarlierAccess) {
    bench t;
    run([&] {
        // a's access is annotated 100 cycles ahead (a core inside its quantum)...
        EXPECT_EQ(t.a.read(0x80000000u, 1, period * 100.0), period * 1.0);
        // ...b's burst issued later in host order but at time 0 fits before it: no wait
        EXPECT_EQ(t.b.read(0x80000100u, 8, sc_core::SC_ZERO_TIME), period * 8.0);
        // a burst that would overlap a's interval is moved behind it
        EXPECT_EQ(t.b.read(0x80000200u, 10, period * 95.0), period * (6.0 + 10.0));
        EXPECT_EQ(t.bus.wait_cycles(), 6u);
    });
}

TEST(TileBus, ACoresAccessIsBookedAtItsTimeAfterTheMastersBeforeIt) {
    bench t;
    tiles::initiator_id core;  // no tie gate: a unit test has no simultaneous masters
    sc_core::sc_time core_done, burst_done;
    // The core reaches the bus at time 0 with 100 cycles of run-ahead; a 60-word burst starts at
    // cycle 50. Booked when the core's thread got there, the core took [100, 101) and pushed the
    // burst behind it; at the core's time the burst [50, 110) is already booked and the core waits.
    sc_core::sc_spawn([&] { core_done = t.a.read_until(0x80000000u, 1, period * 100.0, &core); });
    sc_core::sc_spawn([&] {
        sc_core::wait(period * 50.0);
        burst_done = t.b.read_until(0x80000100u, 60, sc_core::SC_ZERO_TIME, nullptr);
    });
    sc_core::sc_start();
    EXPECT_EQ(burst_done, period * 110.0);
    EXPECT_EQ(core_done, period * 111.0);  // 10 cycles of wait, then the SRAM's one
    EXPECT_EQ(t.bus.wait_cycles(), 10u);
}

TEST(TileBus, ZeroWordCyclesMeansAFreeBus) {
    rv_reservation_set res;
    rv_reservations_init(&res);
    tiles::tile_bus bus("bus", 0, period);
    tiles::sram mem("mem", 0x80000000u, 4096, 1, 1, period, &res);
    master a("a"), b("b");
    a.socket.bind(bus.masters);
    b.socket.bind(bus.masters);
    bus.devices.bind(mem.socket);
    bus.map_device(0x80000000u, 4096, "sram");
    run([&] {
        EXPECT_EQ(a.read(0x80000000u, 29, sc_core::SC_ZERO_TIME), period * 1.0);
        // occupancy is at least one cycle per transaction: b waits that one cycle
        EXPECT_EQ(b.read(0x80000100u, 1, sc_core::SC_ZERO_TIME), period * 2.0);
    });
}

namespace {

// A register device that, like the network adapter's registers, acts at the initiator's time
// (tiles::sync_to_initiator) and notes the SystemC time it acted at.
struct stamping_device : sc_core::sc_module {
    tlm_utils::simple_target_socket<stamping_device> socket;
    sc_core::sc_time acted_at = sc_core::sc_max_time();
    explicit stamping_device(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
        socket.register_b_transport(this, &stamping_device::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay) {
        tiles::sync_to_initiator(t, delay);
        acted_at = sc_core::sc_time_stamp();
        delay += period * 2.0;
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// Two such devices, one that allows the lookahead mode and one that does not.
struct lookahead_bench {
    tiles::tile_bus bus{"bus", 1, period};
    stamping_device allows{"allows"}, exact{"exact"};
    master core{"core"}, other{"other"};
    static constexpr uint32_t allows_base = 0x20000000u, exact_base = 0x30000000u;
    lookahead_bench() {
        core.socket.bind(bus.masters);
        other.socket.bind(bus.masters);
        bus.devices.bind(allows.socket);
        bus.map_device(allows_base, 0x1000, "allows", true);
        bus.devices.bind(exact.socket);
        bus.map_device(exact_base, 0x1000, "exact");
    }
};

}  // namespace

// The lookahead mode (docs/timing.md "The lookahead mode"): a device that allows it takes a core's
// access at SystemC's time while the core is at most its lookahead ahead; beyond it, at another
// device, or with no lookahead the bus waits for the core's time as in the exact mode. One probe
// per test: a process elaborates one model.
struct lookahead_probe {
    const char *name;
    uint32_t base;
    double lookahead, ahead;
    bool early;
};

class TileBusLookahead : public testing::TestWithParam<lookahead_probe> {};

TEST_P(TileBusLookahead, TakesACoresAccessAtOnceOnlyWithinTheLookahead) {
    const lookahead_probe &p = GetParam();
    lookahead_bench t;
    tiles::initiator_id id;
    id.lookahead = period * p.lookahead;
    sc_core::sc_time start, done;
    sc_core::sc_spawn([&] {
        sc_core::wait(period * 7.0);
        start = sc_core::sc_time_stamp();
        done = t.core.read_until(p.base, 1, period * p.ahead, &id);
    });
    sc_core::sc_start();
    stamping_device &dev = p.base == lookahead_bench::allows_base ? t.allows : t.exact;
    EXPECT_EQ(id.early, p.early);
    EXPECT_EQ(dev.acted_at, p.early ? start : start + period * p.ahead);
    // the same end either way: the core's time and the device's two cycles
    EXPECT_EQ(done, start + period * (p.ahead + 2.0));
}

INSTANTIATE_TEST_SUITE_P(
    TileBus, TileBusLookahead,
    testing::Values(lookahead_probe{"Within", lookahead_bench::allows_base, 100, 50, true},
                    lookahead_probe{"AtTheBound", lookahead_bench::allows_base, 100, 100, true},
                    lookahead_probe{"Beyond", lookahead_bench::allows_base, 100, 101, false},
                    lookahead_probe{"NoLookahead", lookahead_bench::allows_base, 0, 50, false},
                    lookahead_probe{"DeviceNotAllowing", lookahead_bench::exact_base, 100, 50,
                                    false}),
    [](const testing::TestParamInfo<lookahead_probe> &info) { return info.param.name; });

// Taken early, the access is still booked on the bus at the core's time: a master that reaches
// the bus at that time waits for it, and one before it does not.
TEST(TileBus, AnAccessTakenEarlyIsBookedAtTheCoresTime) {
    lookahead_bench t;
    tiles::initiator_id id;
    id.lookahead = period * 1000.0;
    run([&] {
        t.core.read_until(lookahead_bench::allows_base, 1, period * 40.0, &id);
        EXPECT_TRUE(id.early);
        EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);  // nobody waited
        // [39, 40) is free; at 40 the bus is the core's for a cycle (the exact device waits for
        // the other master's time: the second read is issued at 39)
        EXPECT_EQ(t.other.read(lookahead_bench::exact_base, 1, period * 39.0), period * 2.0);
        EXPECT_EQ(sc_core::sc_time_stamp(), period * 39.0);
        EXPECT_EQ(t.other.read(lookahead_bench::exact_base, 1, period * 1.0), period * 3.0);
        EXPECT_EQ(t.bus.wait_cycles(), 1u);
    });
}
