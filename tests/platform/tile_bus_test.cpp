// Tile bus arbitration (tiles/tile_bus.h): first come first served in simulated time, occupancy
// per word, bursts, and a calendar that serves time-decoupled masters in time order.
#include <functional>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "tiles/sram.h"
#include "tiles/tile_bus.h"

namespace {

const sc_core::sc_time period(10, sc_core::SC_NS);

struct master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<master> socket;
    explicit master(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
    // One read of `words` words issued with annotated time `offset`; returns its delay.
    sc_core::sc_time read(uint32_t addr, unsigned words, sc_core::sc_time offset) {
        uint32_t buf[64];
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char *>(buf));
        t.set_data_length(4 * words);
        t.set_streaming_width(4 * words);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time delay = offset;
        socket->b_transport(t, delay);
        EXPECT_TRUE(t.is_response_ok());
        return delay - offset;
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
