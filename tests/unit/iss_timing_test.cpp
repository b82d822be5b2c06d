// Cycle model: the cost of every instruction class as configured in rv_timing, memory latencies of
// DMI and bus accesses, trap entry, mcycle/minstret CSRs, run budgets.
#include "iss_test_util.h"

using namespace enc;

namespace {

rv_timing distinct_timing() {
    rv_timing t;
    t.alu = 2;
    t.mul = 3;
    t.div = 5;
    t.load = 7;
    t.store = 11;
    t.branch_taken = 13;
    t.branch_not_taken = 17;
    t.jump = 19;
    t.csr = 23;
    t.atomic = 29;
    t.system = 31;
    t.trap = 37;
    return t;
}
constexpr uint32_t kReadLat = 100, kWriteLat = 200;

class IssTimingTest : public IssTest {
protected:
    IssTimingTest() : IssTest(1u << 20, distinct_timing(), kReadLat, kWriteLat) {}
    const rv_timing t = distinct_timing();

    uint64_t cost(uint32_t insn) {
        load({insn});
        uint64_t c0 = rv_cpu_cycles(cpu);
        step();
        return rv_cpu_cycles(cpu) - c0;
    }
    uint64_t cost16(uint16_t insn) {
        load16({insn});
        uint64_t c0 = rv_cpu_cycles(cpu);
        step();
        return rv_cpu_cycles(cpu) - c0;
    }
};

TEST_F(IssTimingTest, AluClass) {
    set(1, 5);
    set(2, 3);
    EXPECT_EQ(cost(addi(3, 1, 1)), t.alu);
    EXPECT_EQ(cost(add(3, 1, 2)), t.alu);
    EXPECT_EQ(cost(sra(3, 1, 2)), t.alu);
    EXPECT_EQ(cost(sltu(3, 1, 2)), t.alu);
    EXPECT_EQ(cost(lui(3, 1)), t.alu);
    EXPECT_EQ(cost(auipc(3, 1)), t.alu);
    EXPECT_EQ(cost16(c_addi(3, 1)), t.alu);
    EXPECT_EQ(cost16(c_mv(3, 1)), t.alu);
    EXPECT_EQ(cost16(c_lui(3, 1)), t.alu);
}

TEST_F(IssTimingTest, MulDivClasses) {
    set(1, 100);
    set(2, 7);
    for (uint32_t insn : {mul(3, 1, 2), mulh(3, 1, 2), mulhsu(3, 1, 2), mulhu(3, 1, 2)})
        EXPECT_EQ(cost(insn), t.mul);
    for (uint32_t insn : {div(3, 1, 2), divu(3, 1, 2), rem(3, 1, 2), remu(3, 1, 2)})
        EXPECT_EQ(cost(insn), t.div);
    set(2, 0);
    EXPECT_EQ(cost(div(3, 1, 2)), t.div) << "division by zero";
}

TEST_F(IssTimingTest, LoadsAndStoresAddDmiLatency) {
    set(1, kData);
    for (uint32_t insn : {lb(3, 1, 0), lbu(3, 1, 1), lh(3, 1, 2), lhu(3, 1, 2), lw(3, 1, 4)})
        EXPECT_EQ(cost(insn), t.load + kReadLat);
    for (uint32_t insn : {sb(3, 1, 0), sh(3, 1, 2), sw(3, 1, 4)})
        EXPECT_EQ(cost(insn), t.store + kWriteLat);
    set(9, kData);
    EXPECT_EQ(cost16(c_lw(8, 9, 4)), t.load + kReadLat);
    EXPECT_EQ(cost16(c_sw(8, 9, 4)), t.store + kWriteLat);
}

TEST_F(IssTimingTest, BusAccessesAddReportedLatency) {
    m.device_latency = 9;
    set(1, IssMachine::kBusRamBase);
    EXPECT_EQ(cost(lw(3, 1, 0)), t.load + 9);
    EXPECT_EQ(cost(sw(3, 1, 0)), t.store + 9);
    set(1, IssMachine::kConsoleTx);
    set(3, 'x');
    EXPECT_EQ(cost(sw(3, 1, 0)), t.store + 9);
}

TEST_F(IssTimingTest, BranchesAndJumps) {
    set(1, 1);
    EXPECT_EQ(cost(beq(1, 1, 8)), t.branch_taken);
    EXPECT_EQ(cost(beq(1, 0, 8)), t.branch_not_taken);
    EXPECT_EQ(cost(bltu(0, 1, -8)), t.branch_taken);
    EXPECT_EQ(cost(bgeu(0, 1, -8)), t.branch_not_taken);
    set(9, 0);
    EXPECT_EQ(cost16(c_beqz(9, 8)), t.branch_taken);
    EXPECT_EQ(cost16(c_bnez(9, 8)), t.branch_not_taken);
    EXPECT_EQ(cost(jal(1, 16)), t.jump);
    set(2, kCode + 0x100);
    EXPECT_EQ(cost(jalr(1, 2, 0)), t.jump);
    EXPECT_EQ(cost16(c_j(16)), t.jump);
    EXPECT_EQ(cost16(c_jalr(2)), t.jump);
}

TEST_F(IssTimingTest, CsrAndSystem) {
    EXPECT_EQ(cost(csrr(5, csr::mscratch)), t.csr);
    EXPECT_EQ(cost(csrrwi(5, csr::mscratch, 3)), t.csr);
    EXPECT_EQ(cost(fence()), t.system);
    EXPECT_EQ(cost(fence_i()), t.system);
    EXPECT_EQ(cost(sfence_vma()), t.system);
    wr_csr(csr::mepc, kCode + 0x40);
    wr_csr(csr::mstatus, st::mpp(3));
    EXPECT_EQ(cost(mret()), t.system);
}

TEST_F(IssTimingTest, AtomicsAddReadAndWriteLatency) {
    set(1, kData);
    set(2, 1);
    EXPECT_EQ(cost(amoadd_w(3, 2, 1)), t.atomic + kReadLat + kWriteLat);
    EXPECT_EQ(cost(amoswap_w(3, 2, 1)), t.atomic + kReadLat + kWriteLat);
    EXPECT_EQ(cost(lr_w(3, 1)), t.atomic + kReadLat);
    EXPECT_EQ(cost(sc_w(3, 2, 1)), t.atomic + kWriteLat) << "successful sc.w";
    EXPECT_EQ(x(3), 0u);
}

TEST_F(IssTimingTest, TrapEntryCost) {
    // ecall: a system-class instruction plus trap entry
    EXPECT_EQ(cost(ecall()), t.system + t.trap);
    EXPECT_EQ(cost(ebreak()), t.system + t.trap);
    // interrupt: trap entry only (no instruction executed)
    wr_csr(csr::mie, 1u << RV_IRQ_MTIP);
    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    uint64_t c0 = rv_cpu_cycles(cpu);
    load({nop()});
    step();
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rv_cpu_cycles(cpu) - c0, t.trap);
}

TEST_F(IssTimingTest, ProgramTotalIsSumOfClasses) {
    // 10 iterations of: addi, mul, lw, sw, bne (taken 9x, not taken 1x)
    set(10, 10);
    set(11, kData);
    load({addi(10, 10, -1), mul(12, 10, 10), lw(13, 11, 0), sw(12, 11, 4), bne(10, 0, -16),
          jal(0, 0)});
    uint64_t c0 = rv_cpu_cycles(cpu), i0 = rv_cpu_instret(cpu);
    steps(50);
    EXPECT_EQ(pc(), kCode + 20);
    uint64_t expected = 10 * (t.alu + t.mul + t.load + kReadLat + t.store + kWriteLat) +
                        9 * t.branch_taken + 1 * t.branch_not_taken;
    EXPECT_EQ(rv_cpu_cycles(cpu) - c0, expected);
    EXPECT_EQ(rv_cpu_instret(cpu) - i0, 50u);
    const rv_cpu_stats *s = rv_cpu_get_stats(cpu);
    EXPECT_EQ(s->cycles, rv_cpu_cycles(cpu));
    EXPECT_GE(s->loads, 10u);
    EXPECT_GE(s->stores, 10u);
}

TEST_F(IssTimingTest, RunStopsAtBudget) {
    load({jal(0, 0)});
    uint64_t c0 = rv_cpu_cycles(cpu);
    EXPECT_EQ(rv_cpu_run(cpu, c0 + 1000), RV_RUN_BUDGET);
    uint64_t c1 = rv_cpu_cycles(cpu);
    EXPECT_GE(c1, c0 + 1000);
    EXPECT_LT(c1, c0 + 1000 + t.jump);
    // a limit already reached executes nothing
    uint64_t i1 = rv_cpu_instret(cpu);
    EXPECT_EQ(rv_cpu_run(cpu, c1), RV_RUN_BUDGET);
    EXPECT_EQ(rv_cpu_instret(cpu), i1);
}

TEST_F(IssTimingTest, AddCycles) {
    uint64_t c0 = rv_cpu_cycles(cpu);
    rv_cpu_add_cycles(cpu, 12345);
    EXPECT_EQ(rv_cpu_cycles(cpu), c0 + 12345);
    uint32_t v = 0;
    ASSERT_TRUE(rv_cpu_read_csr(cpu, csr::mcycle, &v));
    EXPECT_EQ(v, uint32_t(c0 + 12345));
}

TEST_F(IssTimingTest, McycleAndMinstretCsrs) {
    load({nop(), nop(), nop(), csrr(5, csr::mcycle), csrr(6, csr::minstret), csrr(7, csr::mcycleh),
          csrr(8, csr::minstreth), csrr(9, csr::cycle), csrr(10, csr::instret)});
    uint64_t i0 = rv_cpu_instret(cpu);
    steps(3);
    uint64_t c_before = rv_cpu_cycles(cpu);
    step();
    EXPECT_GE(x(5), uint32_t(c_before));
    EXPECT_LE(x(5), uint32_t(rv_cpu_cycles(cpu)));
    step();
    EXPECT_EQ(x(6), uint32_t(i0 + 4)) << "minstret counts the instructions retired before the csrr";
    steps(4);
    EXPECT_EQ(x(7), uint32_t(rv_cpu_cycles(cpu) >> 32));
    EXPECT_EQ(x(8), 0u);
    EXPECT_GE(x(9), x(5));
    EXPECT_EQ(x(10), uint32_t(i0 + 8));
}

TEST_F(IssTimingTest, MinstretWriteAndCarry) {
    set(5, 0xffffffff);
    load({csrw(csr::minstret, 5), csrw(csr::minstreth, 0), nop(), csrr(6, csr::minstret),
          csrr(7, csr::minstreth)});
    steps(5);
    // after the writes: minstret = 0xffffffff, minstreth = 0 (increment suppressed), the nop carries
    EXPECT_EQ(x(6), 0u);
    EXPECT_EQ(x(7), 1u);
}

TEST_F(IssTimingTest, McycleWritable) {
    set(5, 1000);
    load({csrw(csr::mcycle, 5), csrr(6, csr::mcycle)});
    steps(2);
    EXPECT_GE(x(6), 1000u);
    EXPECT_LE(x(6), 1000u + 2 * t.csr);
}

}  // namespace
