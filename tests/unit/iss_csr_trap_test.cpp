// Zicsr instructions and access rights, exceptions, delegation, mret/sret, nested traps.
#include "iss_test_util.h"

using namespace enc;

namespace {

using IssCsrTest = IssTest;
using IssTrapTest = IssTest;

// ---- CSR instructions ------------------------------------------------------------------------

TEST_F(IssCsrTest, ReadModifyWriteForms) {
    wr_csr(csr::mscratch, 0xf0f0);
    set(5, 0x0ff0);
    exec(csrrw(6, csr::mscratch, 5));
    EXPECT_EQ(x(6), 0xf0f0u);
    EXPECT_EQ(rd_csr(csr::mscratch), 0x0ff0u);
    exec(csrrs(6, csr::mscratch, 7));  // x7 = 0 from reset? set explicitly
    set(7, 0xf000000f);
    exec(csrrs(6, csr::mscratch, 7));
    EXPECT_EQ(x(6), 0x0ff0u);
    EXPECT_EQ(rd_csr(csr::mscratch), 0xf0000fffu);
    set(7, 0x000000ff);
    exec(csrrc(6, csr::mscratch, 7));
    EXPECT_EQ(x(6), 0xf0000fffu);
    EXPECT_EQ(rd_csr(csr::mscratch), 0xf0000f00u);
    exec(csrrwi(6, csr::mscratch, 31));
    EXPECT_EQ(x(6), 0xf0000f00u);
    EXPECT_EQ(rd_csr(csr::mscratch), 31u);
    exec(csrrci(6, csr::mscratch, 1));
    EXPECT_EQ(rd_csr(csr::mscratch), 30u);
    exec(csrrsi(6, csr::mscratch, 0x11));
    EXPECT_EQ(x(6), 30u);
    EXPECT_EQ(rd_csr(csr::mscratch), 31u);
    // rd = rs1: the old value goes to rd, the write uses the old rs1
    set(8, 0x1234);
    exec(csrrw(8, csr::mscratch, 8));
    EXPECT_EQ(x(8), 31u);
    EXPECT_EQ(rd_csr(csr::mscratch), 0x1234u);
}

TEST_F(IssCsrTest, IdentificationRegisters) {
    exec(csrr(5, csr::mhartid));
    EXPECT_EQ(x(5), 0u);
    rv_cpu *h7 = m.add_hart(7);
    ASSERT_NE(h7, nullptr);
    uint32_t v = 1;
    EXPECT_TRUE(rv_cpu_read_csr(h7, csr::mhartid, &v));
    EXPECT_EQ(v, 7u);
    for (uint32_t c : {csr::mvendorid, csr::marchid, csr::mimpid}) {
        wr_csr(csr::mstatus, 0);
        exec(csrr(5, c));
        EXPECT_EQ(pc(), kCode + 4) << std::hex << c;
    }
}

TEST_F(IssCsrTest, WriteToReadOnlyCsrIsIllegal) {
    for (uint32_t insn :
         {csrrw(5, csr::mhartid, 6), csrrw(0, csr::mvendorid, 6), csrrs(5, csr::mhartid, 6),
          csrrwi(5, csr::marchid, 0), csrrci(5, csr::mimpid, 1), csrrw(0, csr::cycle, 5)}) {
        wr_csr(csr::mstatus, 0);
        set(6, 1);
        exec(insn);
        expect_mtrap(RV_EXC_ILLEGAL, kCode, insn);
    }
}

TEST_F(IssCsrTest, ReadOnlyCsrWithoutWriteIsFine) {
    // csrrs/csrrc with rs1 = x0 and csrrsi/csrrci with uimm = 0 do not write
    for (uint32_t insn :
         {csrrs(5, csr::mhartid, 0), csrrc(5, csr::mhartid, 0), csrrsi(5, csr::mvendorid, 0),
          csrrci(5, csr::marchid, 0), csrrs(5, csr::cycle, 0), csrrs(0, csr::instret, 0)}) {
        exec(insn);
        EXPECT_EQ(pc(), kCode + 4) << std::hex << insn;
    }
}

TEST_F(IssCsrTest, UnknownCsrIsIllegalWithInstructionInMtval) {
    for (uint32_t n :
         {0x800u /* custom, not implemented */, 0x5c0u, 0x7b0u /* dcsr: debug mode only */}) {
        uint32_t insn = csrrs(5, n, 0);
        wr_csr(csr::mstatus, 0);
        set(5, 0x99);
        exec(insn);
        expect_mtrap(RV_EXC_ILLEGAL, kCode, insn);
        EXPECT_EQ(x(5), 0x99u);
        uint32_t v;
        EXPECT_FALSE(rv_cpu_read_csr(cpu, n, &v)) << std::hex << n;
    }
}

TEST_F(IssCsrTest, UserModeCannotAccessMachineOrSupervisorCsrs) {
    for (uint32_t n :
         {csr::mstatus, csr::mscratch, csr::mepc, csr::sstatus, csr::sscratch, csr::satp}) {
        enter(RV_PRIV_U, kCode);
        uint32_t insn = csrr(5, n);
        exec(insn);
        expect_mtrap(RV_EXC_ILLEGAL, kCode, insn);
        EXPECT_EQ(rd_csr(csr::mstatus) & st::MPP, 0u) << "trap came from U";
    }
}

TEST_F(IssCsrTest, SupervisorModeCsrRights) {
    enter(RV_PRIV_S, kCode);
    uint32_t insn = csrr(5, csr::mstatus);
    exec(insn);
    expect_mtrap(RV_EXC_ILLEGAL, kCode, insn);
    enter(RV_PRIV_S, kCode);
    wr_csr(csr::sscratch, 0x77);
    exec(csrr(5, csr::sscratch));
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(x(5), 0x77u);
    EXPECT_EQ(priv(), RV_PRIV_S);
}

TEST_F(IssCsrTest, CounterAccessFromUserMode) {
    wr_csr(csr::mcounteren, 0);
    enter(RV_PRIV_U, kCode);
    uint32_t insn = csrr(5, csr::cycle);
    exec(insn);
    expect_mtrap(RV_EXC_ILLEGAL, kCode, insn);
    // mcounteren alone opens the counters to S mode; U mode also needs scounteren
    wr_csr(csr::mcounteren, 0x7);  // CY, TM, IR
    wr_csr(csr::scounteren, 0);
    enter(RV_PRIV_S, kCode);
    exec(csrr(5, csr::cycle));
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(priv(), RV_PRIV_S);
    exec(ecall());
    enter(RV_PRIV_U, kCode);
    exec(insn);
    expect_mtrap(RV_EXC_ILLEGAL, kCode, insn);
    wr_csr(csr::scounteren, 0x7);
    enter(RV_PRIV_U, kCode);
    exec(csrr(5, csr::cycle));
    EXPECT_EQ(pc(), kCode + 4);
    m.mtime = 0x123456789abull;
    load({csrr(5, csr::time), csrr(6, csr::timeh), csrr(7, csr::instret)});
    steps(3);
    EXPECT_EQ(pc(), kCode + 12);
    EXPECT_EQ(x(5), 0x456789abu);
    EXPECT_EQ(x(6), 0x123u);
}

TEST_F(IssCsrTest, SstatusIsAViewOfMstatus) {
    wr_csr(csr::mstatus, st::mpp(3) | st::MPIE);
    exec(csrrsi(0, csr::sstatus, 2));  // SIE
    EXPECT_TRUE(rd_csr(csr::mstatus) & st::SIE);
    uint32_t ss = rd_csr(csr::sstatus);
    EXPECT_TRUE(ss & st::SIE);
    EXPECT_EQ(ss & (st::MPP | st::MPIE | st::MIE), 0u) << "M-only fields visible in sstatus";
    set(5, 0xffffffff);
    exec(csrrc(0, csr::sstatus, 5));  // clearing all of sstatus keeps M fields
    EXPECT_EQ(rd_csr(csr::mstatus) & st::MPP, st::mpp(3));
    EXPECT_TRUE(rd_csr(csr::mstatus) & st::MPIE);
    EXPECT_FALSE(rd_csr(csr::mstatus) & st::SIE);
}

TEST_F(IssCsrTest, MstatusMppIsWarl) {
    set(5, st::mpp(2));  // 2 is reserved
    exec(csrrw(0, csr::mstatus, 5));
    uint32_t mpp = (rd_csr(csr::mstatus) & st::MPP) >> 11;
    EXPECT_NE(mpp, 2u);
}

TEST_F(IssCsrTest, RawCsrApi) {
    EXPECT_TRUE(rv_cpu_write_csr(cpu, csr::mscratch, 0xabc));
    uint32_t v = 0;
    EXPECT_TRUE(rv_cpu_read_csr(cpu, csr::mscratch, &v));
    EXPECT_EQ(v, 0xabcu);
    EXPECT_FALSE(rv_cpu_read_csr(cpu, 0x800, &v));
    EXPECT_FALSE(rv_cpu_write_csr(cpu, 0x800, 1));
}

// ---- exceptions -----------------------------------------------------------------------------

TEST_F(IssTrapTest, EcallFromMachineMode) {
    wr_csr(csr::mstatus, st::MIE);
    load({nop(), ecall()});
    steps(2);
    expect_mtrap(RV_EXC_ECALL_M, kCode + 4, 0);
    uint32_t ms = rd_csr(csr::mstatus);
    EXPECT_EQ(ms & st::MPP, st::mpp(3));
    EXPECT_TRUE(ms & st::MPIE);
    EXPECT_FALSE(ms & st::MIE);
    const rv_cpu_stats *s = rv_cpu_get_stats(cpu);
    EXPECT_EQ(s->exceptions, 1u);
    EXPECT_EQ(s->exceptions_by_cause[RV_EXC_ECALL_M], 1u);
    ASSERT_EQ(m.traps.size(), 1u);
    EXPECT_EQ(m.traps[0].cause, uint32_t(RV_EXC_ECALL_M));
    EXPECT_EQ(m.traps[0].epc, kCode + 4);
}

TEST_F(IssTrapTest, EcallFromSupervisorAndUser) {
    enter(RV_PRIV_S, kCode);
    exec(ecall());
    expect_mtrap(RV_EXC_ECALL_S, kCode, 0);
    EXPECT_EQ(rd_csr(csr::mstatus) & st::MPP, st::mpp(1));
    enter(RV_PRIV_U, kCode + 0x10);
    load({ecall()}, kCode + 0x10);
    step();
    expect_mtrap(RV_EXC_ECALL_U, kCode + 0x10, 0);
    EXPECT_EQ(rd_csr(csr::mstatus) & st::MPP, 0u);
}

TEST_F(IssTrapTest, Ebreak) {
    load({nop(), ebreak()});
    steps(2);
    expect_mtrap(RV_EXC_BREAKPOINT, kCode + 4, 0, false);
    EXPECT_EQ(rv_cpu_get_stats(cpu)->exceptions_by_cause[RV_EXC_BREAKPOINT], 1u);
}

TEST_F(IssTrapTest, TrapDoesNotRetireOrWriteRd) {
    uint64_t i0 = rv_cpu_instret(cpu);
    set(5, 0x42);
    set(1, 0x30000000);
    exec(lw(5, 1, 0));
    EXPECT_EQ(x(5), 0x42u);
    EXPECT_EQ(rv_cpu_instret(cpu), i0) << "a trapping instruction must not retire";
}

TEST_F(IssTrapTest, MretRestoresState) {
    wr_csr(csr::mstatus, st::MPIE | st::mpp(0));
    wr_csr(csr::mepc, kCode + 0x100);
    exec(mret());
    EXPECT_EQ(pc(), kCode + 0x100);
    EXPECT_EQ(priv(), RV_PRIV_U);
    uint32_t ms = rd_csr(csr::mstatus);
    EXPECT_TRUE(ms & st::MIE) << "MIE = MPIE";
    EXPECT_TRUE(ms & st::MPIE) << "MPIE = 1";
    EXPECT_EQ(ms & st::MPP, 0u) << "MPP = U";
}

TEST_F(IssTrapTest, MretToMachineKeepsMprvAndToUserClearsIt) {
    wr_csr(csr::mstatus, st::mpp(3) | st::MPRV);
    wr_csr(csr::mepc, kCode + 0x100);
    exec(mret());
    EXPECT_EQ(priv(), RV_PRIV_M);
    EXPECT_TRUE(rd_csr(csr::mstatus) & st::MPRV);
    wr_csr(csr::mstatus, st::mpp(0) | st::MPRV);
    wr_csr(csr::mepc, kCode + 0x100);
    exec(mret());
    EXPECT_EQ(priv(), RV_PRIV_U);
    EXPECT_FALSE(rd_csr(csr::mstatus) & st::MPRV) << "mret to a mode below M clears MPRV";
}

TEST_F(IssTrapTest, MretWithMppSupervisor) {
    wr_csr(csr::mstatus, st::mpp(1));
    wr_csr(csr::mepc, kCode + 0x100);
    exec(mret());
    EXPECT_EQ(priv(), RV_PRIV_S);
    EXPECT_FALSE(rd_csr(csr::mstatus) & st::MIE);
}

TEST_F(IssTrapTest, SretRestoresState) {
    enter(RV_PRIV_S, kCode);
    wr_csr(csr::mstatus, (rd_csr(csr::mstatus) & ~st::SPP) | st::SPIE);  // SPP = U
    wr_csr(csr::sepc, kCode + 0x200);
    exec(sret());
    EXPECT_EQ(pc(), kCode + 0x200);
    EXPECT_EQ(priv(), RV_PRIV_U);
    uint32_t ms = rd_csr(csr::mstatus);
    EXPECT_TRUE(ms & st::SIE);
    EXPECT_TRUE(ms & st::SPIE);
    EXPECT_FALSE(ms & st::SPP);

    // sret from M mode with SPP = S
    exec(ecall());  // back to M
    ASSERT_EQ(priv(), RV_PRIV_M);
    wr_csr(csr::mstatus, st::SPP);
    wr_csr(csr::sepc, kCode + 0x300);
    exec(sret());
    EXPECT_EQ(priv(), RV_PRIV_S);
    EXPECT_EQ(pc(), kCode + 0x300);
    EXPECT_FALSE(rd_csr(csr::mstatus) & st::SPP) << "SPP = U after sret";
}

TEST_F(IssTrapTest, PrivilegedReturnsFromLowerModesAreIllegal) {
    enter(RV_PRIV_U, kCode);
    exec(sret());
    expect_mtrap(RV_EXC_ILLEGAL, kCode, sret());
    enter(RV_PRIV_U, kCode);
    exec(mret());
    expect_mtrap(RV_EXC_ILLEGAL, kCode, mret());
    enter(RV_PRIV_S, kCode);
    exec(mret());
    expect_mtrap(RV_EXC_ILLEGAL, kCode, mret());
    // TSR: sret in S mode traps
    wr_csr(csr::mstatus, st::TSR);
    enter(RV_PRIV_S, kCode);
    exec(sret());
    expect_mtrap(RV_EXC_ILLEGAL, kCode, sret());
    // U-mode wfi and sfence.vma are illegal
    wr_csr(csr::mstatus, 0);
    enter(RV_PRIV_U, kCode);
    exec(sfence_vma());
    expect_mtrap(RV_EXC_ILLEGAL, kCode, sfence_vma());
}

TEST_F(IssTrapTest, TvmMakesSatpAndSfenceIllegalInSupervisor) {
    wr_csr(csr::mstatus, st::TVM);
    enter(RV_PRIV_S, kCode);
    exec(csrr(5, csr::satp));
    expect_mtrap(RV_EXC_ILLEGAL, kCode, csrr(5, csr::satp));
    enter(RV_PRIV_S, kCode);
    exec(sfence_vma());
    expect_mtrap(RV_EXC_ILLEGAL, kCode, sfence_vma());
}

TEST_F(IssTrapTest, DelegationToSupervisor) {
    wr_csr(csr::medeleg, 1u << RV_EXC_ECALL_U);
    wr_csr(csr::stvec, kStvec);
    wr_csr(csr::mcause, 0x55);
    wr_csr(csr::mstatus, st::SIE);
    enter(RV_PRIV_U, kCode);
    exec(ecall());
    EXPECT_EQ(pc(), kStvec);
    EXPECT_EQ(priv(), RV_PRIV_S);
    EXPECT_EQ(rd_csr(csr::scause), uint32_t(RV_EXC_ECALL_U));
    EXPECT_EQ(rd_csr(csr::sepc), kCode);
    EXPECT_EQ(rd_csr(csr::stval), 0u);
    EXPECT_EQ(rd_csr(csr::mcause), 0x55u) << "M-mode trap CSRs untouched";
    uint32_t ms = rd_csr(csr::mstatus);
    EXPECT_FALSE(ms & st::SPP) << "came from U";
    EXPECT_TRUE(ms & st::SPIE);
    EXPECT_FALSE(ms & st::SIE);
}

TEST_F(IssTrapTest, DelegatedTrapFromSupervisorSetsSpp) {
    wr_csr(csr::medeleg, 1u << RV_EXC_BREAKPOINT);
    wr_csr(csr::stvec, kStvec);
    enter(RV_PRIV_S, kCode);
    exec(ebreak());
    EXPECT_EQ(pc(), kStvec);
    EXPECT_EQ(priv(), RV_PRIV_S);
    EXPECT_TRUE(rd_csr(csr::mstatus) & st::SPP);
    EXPECT_EQ(rd_csr(csr::scause), uint32_t(RV_EXC_BREAKPOINT));
}

TEST_F(IssTrapTest, DelegationDoesNotApplyInMachineMode) {
    wr_csr(csr::medeleg, 0xffff);
    wr_csr(csr::stvec, kStvec);
    exec(ecall());
    expect_mtrap(RV_EXC_ECALL_M, kCode, 0);
}

TEST_F(IssTrapTest, DelegatedLoadFaultHasStval) {
    wr_csr(csr::medeleg, 1u << RV_EXC_LOAD_MISALIGNED);
    wr_csr(csr::stvec, kStvec);
    enter(RV_PRIV_U, kCode);
    set(1, kData + 1);
    exec(lw(3, 1, 0));
    EXPECT_EQ(pc(), kStvec);
    EXPECT_EQ(rd_csr(csr::scause), uint32_t(RV_EXC_LOAD_MISALIGNED));
    EXPECT_EQ(rd_csr(csr::stval), kData + 1);
}

TEST_F(IssTrapTest, NestedTrapInHandler) {
    // U-mode ecall (MIE=1 -> MPIE=1, MPP=U), then ebreak inside the M handler
    wr_csr(csr::mstatus, st::MPIE);  // mret into U sets MIE = MPIE = 1
    m.code(kMtvec, {ebreak()});
    m.flush_code();
    enter(RV_PRIV_U, kCode);
    ASSERT_TRUE(rd_csr(csr::mstatus) & st::MIE);
    exec(ecall());
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), uint32_t(RV_EXC_ECALL_U));
    uint32_t ms = rd_csr(csr::mstatus);
    EXPECT_EQ(ms & st::MPP, 0u);
    EXPECT_TRUE(ms & st::MPIE);
    EXPECT_FALSE(ms & st::MIE);
    step();  // ebreak at the handler: traps again to the same handler
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), uint32_t(RV_EXC_BREAKPOINT));
    EXPECT_EQ(rd_csr(csr::mepc), kMtvec) << "mepc overwritten by the nested trap";
    ms = rd_csr(csr::mstatus);
    EXPECT_EQ(ms & st::MPP, st::mpp(3)) << "MPP = M (trap from the handler)";
    EXPECT_FALSE(ms & st::MPIE) << "MPIE = MIE of the handler (0)";
    EXPECT_FALSE(ms & st::MIE);
}

TEST_F(IssTrapTest, MtvecVectoredModeOnlyAffectsInterrupts) {
    wr_csr(csr::mtvec, kMtvec | 1);
    exec(ecall());
    EXPECT_EQ(pc(), kMtvec) << "exceptions go to the base in vectored mode";
}

TEST_F(IssTrapTest, TrapToVectorWithMtvecLowBitsMasked) {
    // mode 1 in mtvec is vectored; mtvec[1] must read as 0 (mode 2/3 reserved), base is 4-aligned
    wr_csr(csr::mtvec, kMtvec | 1);
    EXPECT_EQ(rd_csr(csr::mtvec), kMtvec | 1);
    set(5, kMtvec | 2);
    exec(csrrw(0, csr::mtvec, 5));
    EXPECT_NE(rd_csr(csr::mtvec) & 3u, 2u);
}

TEST_F(IssTrapTest, TrapCallbackReportsEveryTrap) {
    load({ecall()});
    step();
    m.code(kMtvec, {ebreak()});
    m.flush_code();
    step();
    ASSERT_EQ(m.traps.size(), 2u);
    EXPECT_EQ(m.traps[0].cause, uint32_t(RV_EXC_ECALL_M));
    EXPECT_EQ(m.traps[1].cause, uint32_t(RV_EXC_BREAKPOINT));
    EXPECT_EQ(m.traps[1].epc, kMtvec);
    EXPECT_EQ(rv_cpu_get_stats(cpu)->exceptions, 2u);
}

TEST_F(IssTrapTest, ResetRestoresMachineMode) {
    enter(RV_PRIV_U, kCode);
    wr_csr(csr::mscratch, 5);
    uint64_t i0 = rv_cpu_instret(cpu);
    rv_cpu_reset(cpu, kCode + 0x40);
    EXPECT_EQ(priv(), RV_PRIV_M);
    EXPECT_EQ(pc(), kCode + 0x40);
    EXPECT_EQ(rd_csr(csr::mstatus) & (st::MIE | st::MPRV), 0u);
    EXPECT_EQ(rv_cpu_instret(cpu), i0) << "counters kept over reset";
}

}  // namespace
