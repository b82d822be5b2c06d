// The tile's devices and bus, driven by a TLM test initiator (no firmware, no ISS execution).
// Each TEST builds its own SystemC model, so ctest runs each one in its own process.
#include <functional>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "tile_memory_map.h"
#include "tiles/tile.h"

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

struct recorded_run_control : tiles::run_control_if {
    std::vector<std::string> events;
    void core_exited(unsigned t, unsigned c, uint32_t code, uint64_t) override {
        events.push_back("exit " + std::to_string(t) + "." + std::to_string(c) + " " +
                         std::to_string(code));
    }
    void shutdown(unsigned t, unsigned c, uint32_t code, uint64_t) override {
        events.push_back("shutdown " + std::to_string(t) + "." + std::to_string(c) + " " +
                         std::to_string(code));
    }
    void mark(unsigned t, unsigned c, uint32_t id, uint64_t cycle) override {
        events.push_back("mark " + std::to_string(t) + "." + std::to_string(c) + " " +
                         std::to_string(id) + " @" + std::to_string(cycle));
    }
    void core_failed(unsigned, unsigned, const char *reason, uint64_t) override {
        events.push_back(std::string("failed ") + reason);
    }
};

// Runs a script of bus accesses from an SC_THREAD.
struct test_master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<test_master> socket;
    std::function<void(test_master &)> script;
    tiles::initiator_id id;
    bool as_core = true;

    SC_HAS_PROCESS(test_master);
    explicit test_master(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
        SC_THREAD(run);
    }
    void run() { script(*this); }

    tlm::tlm_response_status access(bool write, uint32_t addr, uint32_t &value, unsigned len = 4) {
        tlm::tlm_generic_payload t;
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char *>(&value));
        t.set_data_length(len);
        t.set_streaming_width(len);
        if (as_core) t.set_extension(&id);
        sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(t, delay);
        if (as_core) t.clear_extension(&id);
        wait(delay);
        return t.get_response_status();
    }
    uint32_t read(uint32_t addr) {
        uint32_t v = 0xDEADBEEF;
        EXPECT_EQ(access(false, addr, v), tlm::TLM_OK_RESPONSE) << std::hex << addr;
        return v;
    }
    void write(uint32_t addr, uint32_t v, unsigned len = 4) {
        EXPECT_EQ(access(true, addr, v, len), tlm::TLM_OK_RESPONSE) << std::hex << addr;
    }
    bool faults(bool write, uint32_t addr, unsigned len = 4) {
        uint32_t v = 0;
        return access(write, addr, v, len) != tlm::TLM_OK_RESPONSE;
    }
};

struct tile_fixture {
    recorded_run_control rc;
    std::ostringstream console_out;
    tiles::tile_config cfg;
    tiles::tile_geometry geo;
    std::unique_ptr<tiles::tile> tile;
    test_master master{"master"};

    explicit tile_fixture(unsigned cores = 2) {
        cfg.cores = cores;
        cfg.sram_size = 64 * 1024;
        cfg.timer_divider = 10;
        geo.id = 6;
        geo.x = 2;
        geo.y = 1;
        geo.mesh_width = 4;
        geo.mesh_height = 4;
        geo.cores = cores;
        geo.sram_base = TILE_SRAM_BASE;
        geo.sram_size = cfg.sram_size;
        geo.na_base = TILE_NA_BASE;
        geo.clock_hz = 100000000;
        geo.timer_hz = 10000000;
        geo.arg = 0xC0FFEE01u;
        tiles::tile::outputs out;
        out.console_out = &console_out;
        tile = std::make_unique<tiles::tile>("tile", cfg, geo, sc_time(10, SC_NS), rc, out);
        tile->bind_master(master.socket);
    }
};

}  // namespace

TEST(TileBus, UnmappedAddressesAndTheAdapterWindowAreBusErrors) {
    tile_fixture f;
    f.master.script = [](test_master &m) {
        EXPECT_TRUE(m.faults(false, 0x00000000));
        EXPECT_TRUE(m.faults(false, 0x30000000));
        EXPECT_TRUE(m.faults(true, TILE_NA_BASE));
        EXPECT_TRUE(m.faults(false, TILE_NA_BASE + TILE_NA_SIZE - 4));
        EXPECT_TRUE(m.faults(false, TILE_SRAM_BASE + 64 * 1024));        // just past the SRAM
        EXPECT_TRUE(m.faults(false, TILE_SRAM_BASE + 64 * 1024 - 2));    // straddles the end
        EXPECT_TRUE(m.faults(false, TILE_CONSOLE_BASE + 0x100));         // unpopulated register
        EXPECT_TRUE(m.faults(true, TILE_INFO_BASE + TILEINFO_TILE_ID));  // read-only block
        EXPECT_TRUE(m.faults(false, TILE_INFO_BASE + 2, 4));  // misaligned register access
    };
    sc_core::sc_start();
    EXPECT_EQ(f.tile->bus().decode_errors(), 6u);
}

TEST(TileBus, SramThroughTheBusAndDmiAgree) {
    tile_fixture f;
    f.master.script = [&](test_master &m) {
        m.write(TILE_SRAM_BASE + 0x100, 0x12345678);
        EXPECT_EQ(m.read(TILE_SRAM_BASE + 0x100), 0x12345678u);
        EXPECT_EQ(f.tile->memory().data()[0x100], 0x78);
        // The tile grants DMI to the whole SRAM at its physical address.
        tlm::tlm_generic_payload t;
        tlm::tlm_dmi dmi;
        t.set_address(TILE_SRAM_BASE + 0x40);
        ASSERT_TRUE(m.socket->get_direct_mem_ptr(t, dmi));
        EXPECT_EQ(dmi.get_start_address(), TILE_SRAM_BASE);
        EXPECT_EQ(dmi.get_end_address(), TILE_SRAM_BASE + 64 * 1024 - 1);
        EXPECT_EQ(dmi.get_dmi_ptr(), f.tile->memory().data());
    };
    sc_core::sc_start();
}

TEST(TileDevices, TileInfoDescribesTheTileAndTheCallingCore) {
    tile_fixture f;
    f.master.script = [](test_master &m) {
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_TILE_ID), 6u);
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_X), 2u);
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_Y), 1u);
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_MESH_W), 4u);
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_CORES), 2u);
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_SRAM_SIZE), 65536u);
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_NA_BASE), TILE_NA_BASE);
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_TIMER_HZ), 10000000u);
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_ARG), 0xC0FFEE01u);
        m.id.core = 1;
        EXPECT_EQ(m.read(TILE_INFO_BASE + TILEINFO_CORE_ID), 1u);
        m.as_core = false;  // another master has no core id
        EXPECT_TRUE(m.faults(false, TILE_INFO_BASE + TILEINFO_CORE_ID));
    };
    sc_core::sc_start();
}

TEST(TileDevices, ConsoleKeepsOneLineBufferPerCore) {
    tile_fixture f;
    f.master.script = [](test_master &m) {
        const auto put = [&](unsigned core, const char *s) {
            m.id.core = core;
            for (; *s; ++s) m.write(TILE_CONSOLE_BASE + CONSOLE_TX, uint8_t(*s), 1);
        };
        put(0, "hel");
        put(1, "wor");
        put(0, "lo\n");
        put(1, "ld\r\n");
        EXPECT_EQ(m.read(TILE_CONSOLE_BASE + CONSOLE_STATUS), 1u);
    };
    sc_core::sc_start();
    EXPECT_EQ(f.console_out.str(), "[2,1:0] hello\n[2,1:1] world\n");
    EXPECT_EQ(f.tile->terminal().lines_written(), 2u);
}

TEST(TileDevices, SimControlReportsExitsMarksAndShutdown) {
    tile_fixture f;
    f.master.script = [](test_master &m) {
        m.id.core = 1;
        m.id.core_cycles = 1234;
        m.write(TILE_SIMCTRL_BASE + SIMCTRL_MARK, 7);
        m.id.core_cycles = 0x100000005ull;
        EXPECT_EQ(m.read(TILE_SIMCTRL_BASE + SIMCTRL_CYCLE_LO), 5u);
        EXPECT_EQ(m.read(TILE_SIMCTRL_BASE + SIMCTRL_CYCLE_HI), 1u);
        m.write(TILE_SIMCTRL_BASE + SIMCTRL_EXIT, 3);
        EXPECT_TRUE(m.id.halt_requested);
        m.id.core = 0;
        m.write(TILE_SIMCTRL_BASE + SIMCTRL_SHUTDOWN, 0);
        m.as_core = false;  // only cores may exit
        EXPECT_TRUE(m.faults(true, TILE_SIMCTRL_BASE + SIMCTRL_EXIT));
    };
    sc_core::sc_start();
    const std::vector<std::string> expected = {"mark 6.1 7 @1234", "exit 6.1 3", "shutdown 6.0 0"};
    EXPECT_EQ(f.rc.events, expected);
}

TEST(TileDevices, ClintTimeFollowsSimulatedTimeAndRaisesTimerInterrupts) {
    tile_fixture f;
    sc_core::sc_signal<bool> *mtip = nullptr;
    f.master.script = [&](test_master &m) {
        wait(sc_time(1000, SC_NS));                             // 100 cycles = 10 ticks
        EXPECT_EQ(m.read(TILE_CLINT_BASE + CLINT_MTIME), 10u);  // read before its own latency
        EXPECT_EQ(m.read(TILE_CLINT_BASE + CLINT_MTIME + 4), 0u);
        // Compare in 50 ticks on hart 1: high word first so no spurious match.
        m.write(TILE_CLINT_BASE + CLINT_MTIMECMP(1) + 4, 0xFFFFFFFF);
        m.write(TILE_CLINT_BASE + CLINT_MTIMECMP(1), 60);
        m.write(TILE_CLINT_BASE + CLINT_MTIMECMP(1) + 4, 0);
        EXPECT_EQ(m.read(TILE_CLINT_BASE + CLINT_MTIMECMP(1)), 60u);
        EXPECT_FALSE(f.tile->cores()[1]->irq_mtip.read());
        wait(sc_time(6000, SC_NS) - sc_core::sc_time_stamp() - sc_time(1, SC_NS));
        EXPECT_FALSE(f.tile->cores()[1]->irq_mtip.read());
        wait(sc_time(2, SC_NS));
        EXPECT_TRUE(f.tile->cores()[1]->irq_mtip.read());
        EXPECT_FALSE(f.tile->cores()[0]->irq_mtip.read());
        // Software interrupt to hart 0.
        m.write(TILE_CLINT_BASE + CLINT_MSIP(0), 1);
        wait(sc_core::SC_ZERO_TIME);
        EXPECT_TRUE(f.tile->cores()[0]->irq_msip.read());
        EXPECT_EQ(m.read(TILE_CLINT_BASE + CLINT_MSIP(0)), 1u);
        EXPECT_TRUE(m.faults(false, TILE_CLINT_BASE + CLINT_MSIP(2)));  // no hart 2
    };
    (void)mtip;
    sc_core::sc_start();
}

// The timer's lookahead a core stops its slice at (docs/timing.md "Timer interrupts on time"):
// the time of each hart's pending match, none once it matched or when the compare lies in the
// past (then the interrupt is up at once), and a new time whenever software moves the compare.
TEST(TileDevices, ClintReportsEachHartsNextMatchAndItsLine) {
    tile_fixture f;
    const sc_time none = sc_core::sc_max_time();
    f.master.script = [&](test_master &m) {
        const tiles::clint &c = f.tile->timer();
        EXPECT_EQ(c.timer(0).match_at, none);
        EXPECT_EQ(c.timer(1).match_at, none);
        wait(sc_time(1000, SC_NS));  // mtime 10
        m.write(TILE_CLINT_BASE + CLINT_MTIMECMP(1) + 4, 0);
        m.write(TILE_CLINT_BASE + CLINT_MTIMECMP(1), 60);  // tick 60 = 6000 ns
        EXPECT_EQ(c.timer(1).match_at, sc_time(6000, SC_NS));
        EXPECT_EQ(c.timer(0).match_at, none);
        EXPECT_FALSE(c.timer(1).pending);
        m.write(TILE_CLINT_BASE + CLINT_MTIMECMP(1), 40);  // moved earlier: the new time
        EXPECT_EQ(c.timer(1).match_at, sc_time(4000, SC_NS));
        wait(sc_time(4000, SC_NS) - sc_core::sc_time_stamp());
        wait(sc_core::SC_ZERO_TIME);
        EXPECT_TRUE(c.timer(1).pending);  // matched: up, nothing more due
        EXPECT_EQ(c.timer(1).match_at, none);
        m.write(TILE_CLINT_BASE + CLINT_MTIMECMP(1), 5);  // in the past: up at once, none due
        EXPECT_TRUE(c.timer(1).pending);
        EXPECT_EQ(c.timer(1).match_at, none);
        m.write(TILE_CLINT_BASE + CLINT_MTIMECMP(1), 1000);  // the future: down, due again
        EXPECT_FALSE(c.timer(1).pending);
        EXPECT_EQ(c.timer(1).match_at, sc_time(100000, SC_NS));
    };
    sc_core::sc_start();
}
