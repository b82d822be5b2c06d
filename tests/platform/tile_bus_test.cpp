// Tile bus arbitration (tiles/tile_bus.h): first come first served in simulated time, occupancy
// per word, bursts, a calendar that serves time-decoupled masters in time order, and a core's
// access booked at its own time.
#include <functional>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

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
