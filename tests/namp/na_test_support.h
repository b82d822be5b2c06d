// Test bench for the network adapter: a small namp-vp platform without firmware, plus one test bus
// master per tile that plays the role of a core (register accesses, RMA loads and stores).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "na_registers.h"
#include "tile_memory_map.h"
#include "vp/platform.h"

namespace na_test {

// A bus master on one tile bus; every access waits its latency (like a core that synchronizes).
struct driver : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<driver> socket;
    explicit driver(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}

    bool access(tlm::tlm_command cmd, uint32_t addr, void *data, unsigned len) {
        tlm::tlm_generic_payload t;
        t.set_command(cmd);
        t.set_address(addr);
        t.set_data_ptr(static_cast<unsigned char *>(data));
        t.set_data_length(len);
        t.set_streaming_width(len);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(t, delay);
        sc_core::wait(delay);
        return t.is_response_ok();
    }
    bool read(uint32_t addr, uint32_t &v) { return access(tlm::TLM_READ_COMMAND, addr, &v, 4); }
    bool write(uint32_t addr, uint32_t v) { return access(tlm::TLM_WRITE_COMMAND, addr, &v, 4); }
    uint32_t rd(uint32_t addr) {
        uint32_t v = 0xDEADBEEF;
        EXPECT_TRUE(read(addr, v)) << std::hex << "read 0x" << addr;
        return v;
    }
    void wr(uint32_t addr, uint32_t v) {
        EXPECT_TRUE(write(addr, v)) << std::hex << "write 0x" << addr;
    }
};

inline uint32_t na(uint32_t off) { return TILE_NA_BASE + off; }

struct bench {
    std::unique_ptr<vp::platform> plat;
    std::vector<std::unique_ptr<driver>> drv;
    sc_core::sc_time period;

    explicit bench(const std::vector<std::string> &overrides = {}) {
        vp::config_builder b;
        b.apply_override("mesh.width=2");
        b.apply_override("mesh.height=2");
        b.apply_override("console.echo=false");
        for (const std::string &o : overrides) b.apply_override(o);
        const vp::platform_config cfg = b.build();
        vp::run_options opt;
        opt.quiet = true;
        plat = std::make_unique<vp::platform>("vp", cfg, opt);
        period = plat->clock_period();
        for (size_t i = 0; i < plat->tiles().size(); ++i) {
            drv.push_back(std::make_unique<driver>(("drv" + std::to_string(i)).c_str()));
            plat->tiles()[i]->bind_master(drv.back()->socket);
        }
    }
    driver &d(unsigned tile) { return *drv[tile]; }
    uint8_t *mem(unsigned tile) { return plat->tiles()[tile]->memory().data(); }
    const namp::na_stats &stats(unsigned tile) { return plat->adapter(tile)->stats(); }
    // counters of NAMP slot i of a tile (the NAMP must be enabled)
    const namp::slot::counters &slot_stats(unsigned tile, unsigned i) {
        return plat->adapter(tile)->namp()->slots().at(i)->stats();
    }
    uint64_t namp_atomics(unsigned tile) {
        const namp::namp_unit *u = plat->adapter(tile)->namp();
        return u->init.port.atomics() + u->target.port.atomics();
    }
    bool meip(unsigned tile) { return plat->tiles()[tile]->external_irq(0).read(); }
    void cycles(uint64_t n) { sc_core::wait(period * double(n)); }

    // Runs the bodies as concurrent threads; the simulation ends when all have returned.
    void run(std::vector<std::function<void()>> bodies, double limit_ms = 100) {
        auto left = std::make_shared<unsigned>(unsigned(bodies.size()));
        for (auto &body : bodies) {
            sc_core::sc_spawn([body, left] {
                body();
                if (--*left == 0) sc_core::sc_stop();
            });
        }
        sc_core::sc_start(sc_core::sc_time(limit_ms, sc_core::SC_MS));
        EXPECT_EQ(*left, 0u) << "a test thread did not finish (deadlock or lost packet)";
    }
};

// Polls until (read & mask) == want, at most `tries` times 10 cycles apart; returns the last value.
inline uint32_t poll(bench &b, unsigned tile, uint32_t addr, uint32_t mask, uint32_t want,
                     unsigned tries = 100000) {
    uint32_t v = 0;
    for (unsigned i = 0; i < tries; ++i) {
        v = b.d(tile).rd(addr);
        if ((v & mask) == want) return v;
        b.cycles(10);
    }
    ADD_FAILURE() << std::hex << "poll 0x" << addr << " timed out, last 0x" << v;
    return v;
}

}  // namespace na_test
