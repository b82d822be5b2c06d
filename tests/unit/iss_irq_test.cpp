// Interrupts: priority, enables per privilege mode, vectored mtvec, delegation, wfi.
#include "iss_test_util.h"

using namespace enc;

namespace {

constexpr uint32_t MSI = 1u << RV_IRQ_MSIP, MTI = 1u << RV_IRQ_MTIP, MEI = 1u << RV_IRQ_MEIP;
constexpr uint32_t SSI = 1u << RV_IRQ_SSIP, STI = 1u << RV_IRQ_STIP, SEI = 1u << RV_IRQ_SEIP;

class IssIrqTest : public IssTest {
protected:
    void SetUp() override {
        IssTest::SetUp();
        // straight-line code to run on
        m.code(kCode, {addi(5, 5, 1), addi(5, 5, 1), addi(5, 5, 1), addi(5, 5, 1)});
        m.flush_code();
    }
};

TEST_F(IssIrqTest, PriorityMeiMsiMti) {
    wr_csr(csr::mie, MSI | MTI | MEI);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    rv_cpu_set_irq(cpu, RV_IRQ_MSIP, true);
    rv_cpu_set_irq(cpu, RV_IRQ_MEIP, true);
    EXPECT_EQ(rd_csr(csr::mip) & (MSI | MTI | MEI), MSI | MTI | MEI);
    EXPECT_TRUE(rv_cpu_irq_pending(cpu));

    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_pc(cpu, kCode);
    step();
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MEIP);
    EXPECT_EQ(rd_csr(csr::mepc), kCode) << "mepc = the interrupted (not executed) instruction";
    EXPECT_EQ(x(5), 0u);
    EXPECT_FALSE(rd_csr(csr::mstatus) & st::MIE);
    EXPECT_TRUE(rd_csr(csr::mstatus) & st::MPIE);

    rv_cpu_set_irq(cpu, RV_IRQ_MEIP, false);
    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_pc(cpu, kCode);
    step();
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MSIP);

    rv_cpu_set_irq(cpu, RV_IRQ_MSIP, false);
    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_pc(cpu, kCode);
    step();
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MTIP);

    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, false);
    EXPECT_FALSE(rv_cpu_irq_pending(cpu));
    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_pc(cpu, kCode);
    step();
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(x(5), 1u);
    const rv_cpu_stats *s = rv_cpu_get_stats(cpu);
    EXPECT_EQ(s->interrupts, 3u);
    ASSERT_EQ(m.traps.size(), 3u);
    EXPECT_EQ(m.traps[0].cause, kIrqBit | RV_IRQ_MEIP);
}

TEST_F(IssIrqTest, MachineInterruptsMaskedByMieInMachineMode) {
    wr_csr(csr::mie, MTI);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    wr_csr(csr::mstatus, 0);
    rv_cpu_set_pc(cpu, kCode);
    steps(2);
    EXPECT_EQ(pc(), kCode + 8);
    EXPECT_EQ(x(5), 2u);
    // the per-source enable also masks
    wr_csr(csr::mie, 0);
    wr_csr(csr::mstatus, st::MIE);
    step();
    EXPECT_EQ(pc(), kCode + 12);
    // both enabled: taken
    wr_csr(csr::mie, MTI);
    step();
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MTIP);
}

TEST_F(IssIrqTest, MachineInterruptsTakenInUserAndSupervisorModeRegardlessOfMie) {
    for (rv_priv p : {RV_PRIV_U, RV_PRIV_S}) {
        wr_csr(csr::mstatus, 0);  // MIE = 0
        wr_csr(csr::mie, MEI);
        rv_cpu_set_irq(cpu, RV_IRQ_MEIP, false);
        enter(p, kCode);
        rv_cpu_set_irq(cpu, RV_IRQ_MEIP, true);
        step();
        EXPECT_EQ(pc(), kMtvec) << p;
        EXPECT_EQ(priv(), RV_PRIV_M);
        EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MEIP);
        EXPECT_EQ(rd_csr(csr::mstatus) & st::MPP, st::mpp(uint32_t(p)));
        rv_cpu_set_irq(cpu, RV_IRQ_MEIP, false);
    }
}

TEST_F(IssIrqTest, VectoredMtvec) {
    wr_csr(csr::mtvec, kMtvec | 1);
    wr_csr(csr::mie, MTI | MSI | MEI);
    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    rv_cpu_set_pc(cpu, kCode);
    step();
    EXPECT_EQ(pc(), kMtvec + 4 * RV_IRQ_MTIP);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, false);
    rv_cpu_set_irq(cpu, RV_IRQ_MSIP, true);
    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_pc(cpu, kCode);
    step();
    EXPECT_EQ(pc(), kMtvec + 4 * RV_IRQ_MSIP);
    rv_cpu_set_irq(cpu, RV_IRQ_MSIP, false);
    rv_cpu_set_irq(cpu, RV_IRQ_MEIP, true);
    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_pc(cpu, kCode);
    step();
    EXPECT_EQ(pc(), kMtvec + 4 * RV_IRQ_MEIP);
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MEIP);
}

TEST_F(IssIrqTest, SoftwareSetSupervisorInterruptDelegated) {
    // SSIP set by software through mip, delegated to S, taken in U mode
    wr_csr(csr::mideleg, SSI);
    wr_csr(csr::stvec, kStvec);
    wr_csr(csr::mie, SSI);
    wr_csr(csr::mstatus, 0);
    enter(RV_PRIV_U, kCode);
    wr_csr(csr::mip, SSI);
    EXPECT_TRUE(rd_csr(csr::sip) & SSI);
    step();
    EXPECT_EQ(pc(), kStvec);
    EXPECT_EQ(priv(), RV_PRIV_S);
    EXPECT_EQ(rd_csr(csr::scause), kIrqBit | RV_IRQ_SSIP);
    EXPECT_EQ(rd_csr(csr::sepc), kCode);
    // in S mode with SIE = 0 it is masked
    step();
    EXPECT_EQ(pc(), kStvec);  // the handler spins (jal x0, 0)
    EXPECT_EQ(rd_csr(csr::sepc), kCode);
}

TEST_F(IssIrqTest, SupervisorInterruptInSupervisorModeNeedsSie) {
    wr_csr(csr::mideleg, STI | SSI | SEI);
    wr_csr(csr::stvec, kStvec);
    wr_csr(csr::mie, SEI);
    wr_csr(csr::mstatus, 0);
    enter(RV_PRIV_S, kCode);
    rv_cpu_set_irq(cpu, RV_IRQ_SEIP, true);
    step();
    EXPECT_EQ(pc(), kCode + 4) << "masked: SIE = 0 in S mode";
    wr_csr(csr::mstatus, rd_csr(csr::mstatus) | st::SIE);
    step();
    EXPECT_EQ(pc(), kStvec);
    EXPECT_EQ(rd_csr(csr::scause), kIrqBit | RV_IRQ_SEIP);
    EXPECT_TRUE(rd_csr(csr::mstatus) & st::SPIE);
    EXPECT_TRUE(rd_csr(csr::mstatus) & st::SPP);
}

TEST_F(IssIrqTest, UndelegatedSupervisorInterruptGoesToMachine) {
    wr_csr(csr::mideleg, 0);
    wr_csr(csr::mie, STI);
    wr_csr(csr::mstatus, 0);
    enter(RV_PRIV_S, kCode);
    wr_csr(csr::mip, STI);
    step();
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_STIP);
}

TEST_F(IssIrqTest, MachineInterruptBeforeSupervisorInterrupt) {
    wr_csr(csr::mideleg, SEI);
    wr_csr(csr::stvec, kStvec);
    wr_csr(csr::mie, SEI | MTI);
    wr_csr(csr::mstatus, st::SIE);
    enter(RV_PRIV_U, kCode);
    rv_cpu_set_irq(cpu, RV_IRQ_SEIP, true);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    step();
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MTIP);
}

TEST_F(IssIrqTest, WfiSleepsWhenNothingPending) {
    wr_csr(csr::mie, MTI);
    wr_csr(csr::mstatus, 0);
    load({addi(6, 0, 1), wfi(), addi(6, 6, 1), jal(0, 0)});
    EXPECT_EQ(rv_cpu_run(cpu, 100000), RV_RUN_WFI);
    EXPECT_EQ(x(6), 1u);
    EXPECT_FALSE(rv_cpu_irq_pending(cpu));
    EXPECT_LT(rv_cpu_cycles(cpu), 100000u) << "wfi returned at once, not after burning the budget";
    EXPECT_EQ(rv_cpu_get_stats(cpu)->wfi_count, 1u);
    // Host slept the hart, then the timer fires. MIE = 0: wakes up without taking the interrupt.
    uint64_t c0 = rv_cpu_cycles(cpu);
    rv_cpu_add_cycles(cpu, 500);
    EXPECT_EQ(rv_cpu_cycles(cpu), c0 + 500);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    EXPECT_TRUE(rv_cpu_irq_pending(cpu));
    EXPECT_EQ(rv_cpu_run(cpu, rv_cpu_cycles(cpu) + 50), RV_RUN_BUDGET);
    EXPECT_EQ(x(6), 2u) << "execution continued after wfi";
    EXPECT_NE(pc(), kMtvec);
}

TEST_F(IssIrqTest, WfiWithInterruptPendingDoesNotSleep) {
    wr_csr(csr::mie, MSI);
    wr_csr(csr::mstatus, 0);
    rv_cpu_set_irq(cpu, RV_IRQ_MSIP, true);
    load({wfi(), addi(6, 0, 7), jal(0, 0)});
    EXPECT_EQ(rv_cpu_run(cpu, 1000), RV_RUN_BUDGET);
    EXPECT_EQ(x(6), 7u);
}

TEST_F(IssIrqTest, WfiWakesIntoHandlerWhenEnabled) {
    wr_csr(csr::mie, MEI);
    wr_csr(csr::mstatus, st::MIE);
    load({wfi(), addi(6, 0, 7), jal(0, 0)});
    EXPECT_EQ(rv_cpu_run(cpu, 1000), RV_RUN_WFI);
    rv_cpu_set_irq(cpu, RV_IRQ_MEIP, true);
    rv_cpu_run(cpu, rv_cpu_cycles(cpu) + 20);
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MEIP);
    EXPECT_EQ(rd_csr(csr::mepc), kCode + 4) << "mepc = instruction after wfi";
}

TEST_F(IssIrqTest, WfiInUserModeWithTwTraps) {
    wr_csr(csr::mstatus, st::TW);
    enter(RV_PRIV_U, kCode);
    exec(wfi());
    expect_mtrap(RV_EXC_ILLEGAL, kCode, wfi());
}

TEST_F(IssIrqTest, IrqPendingIgnoresGlobalEnable) {
    wr_csr(csr::mstatus, 0);
    wr_csr(csr::mie, 0);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    EXPECT_FALSE(rv_cpu_irq_pending(cpu)) << "not enabled in mie";
    wr_csr(csr::mie, MTI);
    EXPECT_TRUE(rv_cpu_irq_pending(cpu)) << "enabled in mie, MIE = 0: still wakes wfi";
}

TEST_F(IssIrqTest, MipInputBitsAreReadOnlyForSoftware) {
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    set(5, 0);
    exec(csrrw(0, csr::mip, 5));
    EXPECT_TRUE(rd_csr(csr::mip) & MTI) << "MTIP follows the input, not csrw";
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, false);
    EXPECT_FALSE(rd_csr(csr::mip) & MTI);
}

TEST_F(IssIrqTest, RunTakesInterruptEnabledByCsrWrite) {
    // MTI pending and enabled in mie, MIE = 0: the csrrsi that sets MIE must be followed by the trap
    wr_csr(csr::mie, MTI);
    wr_csr(csr::mstatus, 0);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    load({addi(6, 0, 1), csrrsi(0, csr::mstatus, 8), addi(6, 6, 1), jal(0, 0)});
    EXPECT_EQ(rv_cpu_run(cpu, 200), RV_RUN_BUDGET);
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MTIP);
    EXPECT_EQ(rd_csr(csr::mepc), kCode + 8);
    EXPECT_EQ(x(6), 1u) << "instruction after the enabling csrrsi executed before the interrupt";
}

TEST_F(IssIrqTest, RunTakesInterruptEnabledByMieWrite) {
    wr_csr(csr::mstatus, st::MIE);
    wr_csr(csr::mie, 0);
    rv_cpu_set_irq(cpu, RV_IRQ_MEIP, true);
    set(7, MEI);
    load({addi(6, 0, 1), csrrs(0, csr::mie, 7), addi(6, 6, 1), jal(0, 0)});
    rv_cpu_run(cpu, 200);
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mepc), kCode + 8);
    EXPECT_EQ(x(6), 1u);
}

TEST_F(IssIrqTest, RunTakesInterruptRaisedByDeviceAccess) {
    // a store to a device raises MSIP while the hart runs: taken before the next instruction
    wr_csr(csr::mie, MSI);
    wr_csr(csr::mstatus, st::MIE);
    set(10, IssMachine::kIrqCtl);
    set(11, MSI);
    load({sw(11, 10, 0), addi(6, 0, 5), jal(0, 0)});
    rv_cpu_run(cpu, 200);
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), kIrqBit | RV_IRQ_MSIP);
    EXPECT_EQ(rd_csr(csr::mepc), kCode + 4);
    EXPECT_EQ(x(6), 0u);
}

TEST_F(IssIrqTest, RunTakesInterruptAfterMretToUser) {
    // mret into U mode with a machine interrupt pending and enabled in mie: taken at the target
    wr_csr(csr::mie, MTI);
    rv_cpu_set_irq(cpu, RV_IRQ_MTIP, true);
    wr_csr(csr::mstatus, st::mpp(0));  // MIE = 0 in M mode: masked until mret
    wr_csr(csr::mepc, kCode + 0x100);
    m.code(kCode + 0x100, {addi(6, 0, 9), jal(0, 0)});
    load({mret()});
    rv_cpu_run(cpu, 200);
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mepc), kCode + 0x100);
    EXPECT_EQ(rd_csr(csr::mstatus) & st::MPP, 0u);
    EXPECT_EQ(x(6), 0u);
}

TEST_F(IssIrqTest, RunWithPendingInterruptAtEntry) {
    wr_csr(csr::mie, MEI);
    wr_csr(csr::mstatus, st::MIE);
    rv_cpu_set_irq(cpu, RV_IRQ_MEIP, true);
    rv_cpu_set_pc(cpu, kCode);
    rv_cpu_run(cpu, 100);
    EXPECT_EQ(rd_csr(csr::mepc), kCode);
    EXPECT_EQ(x(5), 0u);
}

TEST_F(IssIrqTest, SeipInputAndSoftwareBitAreOred) {
    rv_cpu_set_irq(cpu, RV_IRQ_SEIP, true);
    EXPECT_TRUE(rd_csr(csr::mip) & SEI);
    rv_cpu_set_irq(cpu, RV_IRQ_SEIP, false);
    EXPECT_FALSE(rd_csr(csr::mip) & SEI);
    set(5, SEI);
    exec(csrrs(0, csr::mip, 5));  // software-writable SEIP
    EXPECT_TRUE(rd_csr(csr::mip) & SEI);
}

}  // namespace
