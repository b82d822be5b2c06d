// Common fixture of the ISS unit tests: one hart on an IssMachine, code at RAM base.
#pragma once

#include "iss_harness.h"
#include "rv_encode.h"

#include <gtest/gtest.h>

#include <initializer_list>

namespace csr {
constexpr uint32_t sstatus = 0x100, sie = 0x104, stvec = 0x105, scounteren = 0x106,
                   sscratch = 0x140, sepc = 0x141, scause = 0x142, stval = 0x143, sip = 0x144,
                   satp = 0x180;
constexpr uint32_t mstatus = 0x300, misa = 0x301, medeleg = 0x302, mideleg = 0x303, mie = 0x304,
                   mtvec = 0x305, mcounteren = 0x306, mscratch = 0x340, mepc = 0x341,
                   mcause = 0x342, mtval = 0x343, mip = 0x344;
constexpr uint32_t mcycle = 0xB00, minstret = 0xB02, mcycleh = 0xB80, minstreth = 0xB82;
constexpr uint32_t cycle = 0xC00, time = 0xC01, instret = 0xC02, cycleh = 0xC80, timeh = 0xC81;
constexpr uint32_t mvendorid = 0xF11, marchid = 0xF12, mimpid = 0xF13, mhartid = 0xF14;
}  // namespace csr

namespace st {
constexpr uint32_t SIE = 1u << 1, MIE = 1u << 3, SPIE = 1u << 5, MPIE = 1u << 7, SPP = 1u << 8,
                   MPP = 3u << 11, MPRV = 1u << 17, SUM = 1u << 18, MXR = 1u << 19, TVM = 1u << 20,
                   TW = 1u << 21, TSR = 1u << 22;
constexpr uint32_t mpp(uint32_t p) { return p << 11; }
}  // namespace st

constexpr uint32_t kIrqBit = 0x80000000u;

class IssTest : public ::testing::Test {
protected:
    static constexpr uint32_t B = IssMachine::kRamBase;
    static constexpr uint32_t kCode = B;             // test code
    static constexpr uint32_t kData = B + 0x8000;    // test data
    static constexpr uint32_t kMtvec = B + 0x4000;   // M-mode trap handler address
    static constexpr uint32_t kStvec = B + 0x5000;   // S-mode trap handler address
    static constexpr uint32_t kHelper = B + 0x6000;  // scratch code (mode switches)

    explicit IssTest(uint32_t ram_size = 1u << 20, const rv_timing &t = IssMachine::unit_timing(),
                     uint32_t rl = 0, uint32_t wl = 0)
        : m(ram_size, t, rl, wl) {}

    void SetUp() override {
        cpu = m.add_hart(0, kCode);
        ASSERT_NE(cpu, nullptr);
        // Handlers that just spin, so a trap is visible as pc == handler.
        m.code(kMtvec, {enc::jal(0, 0)});
        m.code(kStvec, {enc::jal(0, 0)});
        ASSERT_TRUE(rv_cpu_write_csr(cpu, csr::mtvec, kMtvec));
    }

    uint32_t x(unsigned r) const { return rv_cpu_get_reg(cpu, r); }
    void set(unsigned r, uint32_t v) { rv_cpu_set_reg(cpu, r, v); }
    uint32_t pc() const { return rv_cpu_get_pc(cpu); }
    rv_priv priv() const { return rv_cpu_get_priv(cpu); }
    uint32_t rd_csr(uint32_t n) const {
        uint32_t v = 0xdeadbeef;
        EXPECT_TRUE(rv_cpu_read_csr(cpu, n, &v)) << "CSR 0x" << std::hex << n;
        return v;
    }
    void wr_csr(uint32_t n, uint32_t v) {
        EXPECT_TRUE(rv_cpu_write_csr(cpu, n, v)) << "CSR 0x" << std::hex << n;
    }

    // Writes code at addr (default kCode), flushes the decode cache and points pc at it.
    void load(std::initializer_list<uint32_t> insns, uint32_t addr = kCode) {
        m.code(addr, insns);
        m.flush_code();
        rv_cpu_set_pc(cpu, addr);
    }
    void load16(std::initializer_list<uint16_t> insns, uint32_t addr = kCode) {
        m.code16(addr, insns);
        m.flush_code();
        rv_cpu_set_pc(cpu, addr);
    }
    rv_run_status step() { return rv_cpu_step(cpu); }
    void steps(int n) {
        for (int i = 0; i < n; i++) {
            rv_run_status s = step();
            ASSERT_NE(s, RV_RUN_LOCKUP) << "step " << i;
        }
    }
    // Executes one instruction at kCode.
    void exec(uint32_t insn) {
        load({insn});
        step();
    }
    // Puts the hart into privilege p at address target via mret (from M mode).
    void enter(rv_priv p, uint32_t target) {
        ASSERT_EQ(priv(), RV_PRIV_M);
        uint32_t ms = rd_csr(csr::mstatus);
        ms = (ms & ~st::MPP) | st::mpp(uint32_t(p));
        wr_csr(csr::mstatus, ms);
        wr_csr(csr::mepc, target);
        m.code(kHelper, {enc::mret()});
        m.flush_code();
        rv_cpu_set_pc(cpu, kHelper);
        step();
        ASSERT_EQ(priv(), p);
        ASSERT_EQ(pc(), target);
    }
    // Expects that the last step took an M-mode trap with this cause (and tval unless tval_any).
    void expect_mtrap(uint32_t cause, uint32_t epc, uint32_t tval, bool check_tval = true) {
        EXPECT_EQ(pc(), kMtvec);
        EXPECT_EQ(priv(), RV_PRIV_M);
        EXPECT_EQ(rd_csr(csr::mcause), cause);
        EXPECT_EQ(rd_csr(csr::mepc), epc);
        if (check_tval) {
            EXPECT_EQ(rd_csr(csr::mtval), tval);
        }
    }

    IssMachine m;
    rv_cpu *cpu = nullptr;
};
