// Host harness for driving the RV32 ISS (tiles/iss) without SystemC: flat DMI RAM at 0x80000000,
// a bus callback with a console byte register (0x10000000), the simulation-control EXIT register
// (0x10001000, stops the hart), a bus-only RAM window (0x20000000, exercises the non-DMI path) and
// bus errors everywhere else. Several harts can share the RAM and one LR/SC reservation set.
#pragma once

#include "iss/rv32.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

class IssMachine {
public:
    static constexpr uint32_t kRamBase = 0x80000000u;
    static constexpr uint32_t kConsoleTx = 0x10000000u;
    static constexpr uint32_t kConsoleStatus = 0x10000004u;
    static constexpr uint32_t kExit = 0x10001000u;
    // W: drives the interrupt inputs of the writing hart: bit n = level of mip bit n for
    // n in {MSIP, MTIP, MEIP, SEIP} (a device raising an interrupt during an access).
    static constexpr uint32_t kIrqCtl = 0x10003000u;
    static constexpr uint32_t kBusRamBase = 0x20000000u;  // RAM reached through the bus callback
    static constexpr uint32_t kBusRamSize = 0x1000u;

    struct BusAccess {
        uint32_t hart;
        rv_access kind;
        uint32_t addr;
        uint32_t len;
        uint32_t data;
    };
    struct TrapEvent {
        uint32_t hart;
        uint32_t cause, epc, tval;
    };

    static rv_timing unit_timing();  // every class costs 1 cycle, trap entry 0
    // Engine of rv_cpu_run for harts added from now on: environment variable ISS_TEST_ENGINE
    // (interpreter, block or jit; the ISS tests are registered once per engine), else interpreter.
    static rv_engine default_engine();

    explicit IssMachine(uint32_t ram_size = 1u << 20, const rv_timing &timing = unit_timing(),
                        uint32_t ram_read_latency = 0, uint32_t ram_write_latency = 0);
    ~IssMachine();
    IssMachine(const IssMachine &) = delete;
    IssMachine &operator=(const IssMachine &) = delete;

    // Creates a hart sharing the RAM and the reservation set; NULL if rv_cpu_create refuses.
    rv_cpu *add_hart(uint32_t hart_id, uint32_t reset_pc = kRamBase);
    rv_cpu *hart(size_t i = 0) const { return harts_.at(i); }
    size_t hart_count() const { return harts_.size(); }

    // Physical memory helpers (RAM or bus RAM). Writing code? call flush_code() afterwards if a hart
    // already executed from there.
    uint8_t *host(uint32_t paddr, uint32_t len = 1);
    void w8(uint32_t a, uint8_t v);
    void w16(uint32_t a, uint16_t v);
    void w32(uint32_t a, uint32_t v);
    uint8_t r8(uint32_t a);
    uint16_t r16(uint32_t a);
    uint32_t r32(uint32_t a);
    // Places 32-bit instruction words from addr on; returns the address after the last one.
    uint32_t code(uint32_t addr, std::initializer_list<uint32_t> insns);
    // Places 16-bit (compressed) instructions; returns the address after the last one.
    uint32_t code16(uint32_t addr, std::initializer_list<uint16_t> insns);
    void load(uint32_t addr, const void *data, size_t len);
    void flush_code();

    // Runs hart i until it stops (EXIT store), sleeps in wfi with nothing to wake it, locks up or
    // reaches max_cycles. wfi with an interrupt pending continues.
    rv_run_status run(size_t i = 0, uint64_t max_cycles = 1000000);

    // Observed device activity
    std::string console;
    bool exited = false;
    uint32_t exit_code = 0;
    uint32_t exit_hart = 0;
    std::vector<BusAccess> bus_log;
    std::vector<TrapEvent> traps;
    uint32_t device_latency = 0;  // extra cycles reported for every bus access
    uint64_t mtime = 0;
    rv_engine engine = default_engine();
    rv_jit_pool *jit_pool = nullptr;       // harts added from now on share its translations
    std::function<void()> during_console;  // called inside every console write (nested runs)
    std::vector<uint8_t> ram;
    std::vector<uint8_t> bus_ram;
    rv_reservation_set reservations;

private:
    static int bus_access(void *ctx, rv_cpu *cpu, rv_access kind, uint32_t addr, void *data,
                          uint32_t len, uint32_t *extra_cycles);
    static void on_trap(void *ctx, rv_cpu *cpu, uint32_t cause, uint32_t epc, uint32_t tval);
    static uint64_t read_time(void *ctx);
    uint32_t hart_index(const rv_cpu *cpu) const;

    rv_timing timing_;
    uint32_t ram_read_latency_, ram_write_latency_;
    std::vector<rv_cpu *> harts_;
    std::vector<uint32_t> hart_ids_;
};
