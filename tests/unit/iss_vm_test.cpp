// Sv32 virtual memory: page-table walk, permissions, U/SUM/MXR, A/D bits, page faults, sfence.vma.
#include "iss_test_util.h"

using namespace enc;

namespace {

constexpr uint32_t V = 1, R = 2, W = 4, X = 8, U = 16, A = 64, D = 128;
[[maybe_unused]] constexpr uint32_t G = 32;  // global: the walk ignores it (no ASIDs)

class IssVmTest : public IssTest {
protected:
    static constexpr uint32_t kRoot = B + 0x10000;  // level-1 table
    static constexpr uint32_t kL0 = B + 0x11000;    // level-0 table for VA 0x00400000..0x007fffff
    static constexpr uint32_t kPage0 = B + 0x20000, kPageU = B + 0x21000, kPageRO = B + 0x22000,
                              kPageXO = B + 0x23000, kPageAlt = B + 0x24000;
    static constexpr uint32_t VA0 = 0x00400000, VA_INVALID = 0x00401000, VA_U = 0x00402000,
                              VA_RO = 0x00403000, VA_XO = 0x00404000;

    static uint32_t pte(uint32_t pa, uint32_t flags) { return ((pa >> 12) << 10) | flags; }
    uint32_t &l0(uint32_t va) {
        return *reinterpret_cast<uint32_t *>(m.host(kL0 + 4 * ((va >> 12) & 0x3ff), 4));
    }
    uint32_t l0_entry(uint32_t va) { return m.r32(kL0 + 4 * ((va >> 12) & 0x3ff)); }

    void SetUp() override {
        IssTest::SetUp();
        // identity megapage for code/data/handlers at 0x80000000 (supervisor only)
        m.w32(kRoot + 4 * (B >> 22), pte(B, V | R | W | X | A | D));
        m.w32(kRoot + 4 * (VA0 >> 22), pte(kL0, V));
        m.w32(kL0 + 4 * 0, pte(kPage0, V | R | W));  // A/D clear
        m.w32(kL0 + 4 * 1, 0);                       // invalid
        m.w32(kL0 + 4 * 2, pte(kPageU, V | R | W | X | U | A | D));
        m.w32(kL0 + 4 * 3, pte(kPageRO, V | R | A));
        m.w32(kL0 + 4 * 4, pte(kPageXO, V | X | A));
        m.w32(kPage0, 0x00000a0a);
        m.w32(kPageU, 0x0000b0b0);
        m.w32(kPageRO, 0x0000c0c0);
        m.w32(kPageXO, 0x0000d0d0);
        m.w32(kPageAlt, 0x0000e0e0);
        // satp: Sv32, root PPN; written by an instruction, then sfence.vma
        set(20, 0x80000000u | (kRoot >> 12));
        load({csrw(csr::satp, 20), sfence_vma()}, kHelper + 0x100);
        steps(2);
        ASSERT_EQ(rd_csr(csr::satp), 0x80000000u | (kRoot >> 12));
    }
    // Runs one instruction in S mode at kCode (identity mapped).
    void to_m() {
        if (priv() != RV_PRIV_M) exec(ecall());  // back to M mode through a trap
        ASSERT_EQ(priv(), RV_PRIV_M);
    }
    void s_exec(uint32_t insn) {
        to_m();
        enter(RV_PRIV_S, kCode);
        exec(insn);
    }
};

TEST_F(IssVmTest, LoadThroughMappingSetsAccessedBit) {
    set(6, VA0);
    s_exec(lw(5, 6, 0));
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(x(5), 0x0a0au);
    uint32_t e = l0_entry(VA0);
    EXPECT_TRUE(e & A) << "A bit set by the page-table walk";
    EXPECT_FALSE(e & D) << "a load does not set D";
}

TEST_F(IssVmTest, StoreThroughMappingSetsDirtyBit) {
    set(6, VA0);
    set(7, 0x12345678);
    s_exec(sw(7, 6, 8));
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(m.r32(kPage0 + 8), 0x12345678u);
    uint32_t e = l0_entry(VA0);
    EXPECT_TRUE(e & A);
    EXPECT_TRUE(e & D);
}

TEST_F(IssVmTest, StoreAfterLoadSetsDirtyBit) {
    // A load fills the TLB with a clean entry; the store must still set D.
    set(6, VA0);
    set(7, 1);
    enter(RV_PRIV_S, kCode);
    load({lw(5, 6, 0), sw(7, 6, 0)});
    steps(2);
    EXPECT_EQ(pc(), kCode + 8);
    EXPECT_TRUE(l0_entry(VA0) & D);
    EXPECT_EQ(m.r32(kPage0), 1u);
}

TEST_F(IssVmTest, InvalidPteFaults) {
    set(6, VA_INVALID);
    s_exec(lw(5, 6, 8));
    expect_mtrap(RV_EXC_LOAD_PAGE_FAULT, kCode, VA_INVALID + 8);
    s_exec(sw(5, 6, 4));
    expect_mtrap(RV_EXC_STORE_PAGE_FAULT, kCode, VA_INVALID + 4);
    s_exec(amoadd_w(5, 0, 6));
    expect_mtrap(RV_EXC_STORE_PAGE_FAULT, kCode, VA_INVALID);
    s_exec(jalr(0, 6, 0));
    EXPECT_EQ(pc(), VA_INVALID);
    step();
    expect_mtrap(RV_EXC_INSN_PAGE_FAULT, VA_INVALID, VA_INVALID);
    EXPECT_EQ(rd_csr(csr::mstatus) & st::MPP, st::mpp(1));
}

TEST_F(IssVmTest, UnmappedLevel1EntryFaults) {
    set(6, 0x40000000);  // root entry 0x100 is zero
    s_exec(lw(5, 6, 0));
    expect_mtrap(RV_EXC_LOAD_PAGE_FAULT, kCode, 0x40000000);
}

TEST_F(IssVmTest, WriteOnlyPteIsReserved) {
    l0(VA0) = pte(kPage0, V | W | A | D);  // W without R: reserved
    set(6, VA0);
    s_exec(lw(5, 6, 0));
    expect_mtrap(RV_EXC_LOAD_PAGE_FAULT, kCode, VA0);
}

TEST_F(IssVmTest, ReadOnlyPage) {
    set(6, VA_RO);
    s_exec(lw(5, 6, 0));
    EXPECT_EQ(x(5), 0xc0c0u);
    s_exec(sw(5, 6, 0));
    expect_mtrap(RV_EXC_STORE_PAGE_FAULT, kCode, VA_RO);
    EXPECT_FALSE(l0_entry(VA_RO) & D);
}

TEST_F(IssVmTest, SupervisorAccessToUserPageNeedsSum) {
    set(6, VA_U);
    s_exec(lw(5, 6, 0));
    expect_mtrap(RV_EXC_LOAD_PAGE_FAULT, kCode, VA_U);
    set(5, 0);
    // SUM is set by an instruction
    enter(RV_PRIV_S, kCode);
    load({csrrs(0, csr::sstatus, 21), lw(5, 6, 0)});
    set(21, st::SUM);
    steps(2);
    EXPECT_EQ(pc(), kCode + 8);
    EXPECT_EQ(x(5), 0xb0b0u);
    // even with SUM, S mode may not execute from a user page
    load({jalr(0, 6, 0)});
    step();
    step();
    expect_mtrap(RV_EXC_INSN_PAGE_FAULT, VA_U, VA_U);
}

TEST_F(IssVmTest, UserModeAccess) {
    // user code on the U page: load from a U page works, from a supervisor page faults
    m.code(kPageU + 0x100, {lw(5, 6, 0), lw(7, 8, 0)});
    m.flush_code();
    set(6, VA_U);
    set(8, VA0);
    enter(RV_PRIV_U, VA_U + 0x100);
    step();
    EXPECT_EQ(x(5), 0xb0b0u);
    EXPECT_EQ(pc(), VA_U + 0x104);
    step();
    expect_mtrap(RV_EXC_LOAD_PAGE_FAULT, VA_U + 0x104, VA0);
    EXPECT_EQ(rd_csr(csr::mstatus) & st::MPP, 0u);
    // U mode cannot fetch from a supervisor page
    enter(RV_PRIV_U, kCode);
    step();
    expect_mtrap(RV_EXC_INSN_PAGE_FAULT, kCode, kCode);
}

TEST_F(IssVmTest, MxrMakesExecuteOnlyReadable) {
    set(6, VA_XO);
    s_exec(lw(5, 6, 0));
    expect_mtrap(RV_EXC_LOAD_PAGE_FAULT, kCode, VA_XO);
    enter(RV_PRIV_S, kCode);
    set(21, st::MXR);
    load({csrrs(0, csr::sstatus, 21), lw(5, 6, 0)});
    steps(2);
    EXPECT_EQ(pc(), kCode + 8);
    EXPECT_EQ(x(5), 0xd0d0u);
}

TEST_F(IssVmTest, SfenceVmaMakesNewMappingVisible) {
    set(6, VA0);
    s_exec(lw(5, 6, 0));
    EXPECT_EQ(x(5), 0x0a0au);
    l0(VA0) = pte(kPageAlt, V | R | W | A | D);  // remap (memory write by "software")
    to_m();
    enter(RV_PRIV_S, kCode);
    load({sfence_vma(), lw(5, 6, 0)});
    steps(2);
    EXPECT_EQ(x(5), 0xe0e0u) << "stale translation used after sfence.vma";
    // sfence.vma with an address operand also works
    l0(VA0) = pte(kPage0, V | R | W | A | D);
    load({sfence_vma(6, 0), lw(5, 6, 0)});
    steps(2);
    EXPECT_EQ(x(5), 0x0a0au);
}

TEST_F(IssVmTest, InvalidatedPteFaultsAfterSfence) {
    set(6, VA0);
    s_exec(lw(5, 6, 0));
    l0(VA0) = 0;
    to_m();
    enter(RV_PRIV_S, kCode);
    load({sfence_vma(), lw(5, 6, 0)});
    steps(2);
    expect_mtrap(RV_EXC_LOAD_PAGE_FAULT, kCode + 4, VA0);
}

TEST_F(IssVmTest, MachineModeIsNotTranslated) {
    set(6, kData);
    m.w32(kData, 0x5151);
    exec(lw(5, 6, 0));
    EXPECT_EQ(x(5), 0x5151u);
    set(6, VA0);
    exec(lw(5, 6, 0));  // VA0 is not physical memory
    expect_mtrap(RV_EXC_LOAD_ACCESS, kCode, VA0);
}

TEST_F(IssVmTest, MprvTranslatesMachineModeData) {
    set(6, VA0);
    set(21, st::MPRV | st::mpp(1));
    set(22, st::MPP);
    load({csrrc(0, csr::mstatus, 22), csrrs(0, csr::mstatus, 21), lw(5, 6, 0)});
    steps(3);
    EXPECT_EQ(pc(), kCode + 12) << "trap cause " << rd_csr(csr::mcause) << " tval " << std::hex
                                << rd_csr(csr::mtval) << " epc " << rd_csr(csr::mepc);
    EXPECT_EQ(x(5), 0x0a0au);
    // fetches stay untranslated in M mode (kCode is identity mapped anyway; VA0 page is data only)
    EXPECT_EQ(priv(), RV_PRIV_M);
}

TEST_F(IssVmTest, MisalignedSuperpageFaults) {
    m.w32(kRoot + 4 * 2, pte(B + 0x1000, V | R | W | A | D));  // megapage with PPN[0] != 0
    set(6, 0x00800000);
    s_exec(lw(5, 6, 0));
    expect_mtrap(RV_EXC_LOAD_PAGE_FAULT, kCode, 0x00800000);
}

TEST_F(IssVmTest, MegapageTranslation) {
    m.w32(kRoot + 4 * 3, pte(B, V | R | W | A | D));  // VA 0x00c00000 -> PA 0x80000000 (4 MiB)
    m.w32(kData + 0x10, 0x3c3c);
    set(6, 0x00c00000 + (kData - B) + 0x10);
    s_exec(lw(5, 6, 0));
    EXPECT_EQ(x(5), 0x3c3cu);
}

TEST_F(IssVmTest, PageFaultDelegatedToSupervisor) {
    wr_csr(csr::medeleg, 1u << RV_EXC_LOAD_PAGE_FAULT);
    wr_csr(csr::stvec, kStvec);
    set(6, VA_INVALID);
    s_exec(lw(5, 6, 12));
    EXPECT_EQ(pc(), kStvec);
    EXPECT_EQ(priv(), RV_PRIV_S);
    EXPECT_EQ(rd_csr(csr::scause), uint32_t(RV_EXC_LOAD_PAGE_FAULT));
    EXPECT_EQ(rd_csr(csr::stval), VA_INVALID + 12);
    EXPECT_EQ(rd_csr(csr::sepc), kCode);
}

TEST_F(IssVmTest, BareModeInSupervisor) {
    enter(RV_PRIV_S, kCode);
    set(20, 0);
    load({csrw(csr::satp, 20), sfence_vma(), lw(5, 6, 0)});
    set(6, kData);
    m.w32(kData, 0x7777);
    steps(3);
    EXPECT_EQ(x(5), 0x7777u);
    EXPECT_EQ(pc(), kCode + 12);
}

TEST_F(IssVmTest, PageWalkOutsideMemoryIsAccessFault) {
    m.w32(kRoot + 4 * 4, pte(0x30000000, V));  // level-0 table in unmapped space
    set(6, 0x01000000);
    s_exec(lw(5, 6, 0));
    expect_mtrap(RV_EXC_LOAD_ACCESS, kCode, 0x01000000);
}

TEST_F(IssVmTest, InstructionStraddlingIntoUnmappedPage) {
    // 32-bit instruction whose upper half lies in the next (invalid) virtual page
    m.w32(kRoot + 4 * 5, pte(B + 0x12000, V));           // VA 0x01400000..: level-0 table
    m.w32(B + 0x12000 + 0, pte(kPageU, V | R | X | A));  // VA 0x01400000 -> kPageU, page 1 invalid
    m.w32(B + 0x12000 + 4, 0);
    uint32_t insn = addi(5, 0, 1);
    m.w16(kPageU + 0xffe, uint16_t(insn & 0xffff));
    m.flush_code();
    to_m();
    enter(RV_PRIV_S, 0x01400ffe);
    step();
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), uint32_t(RV_EXC_INSN_PAGE_FAULT));
    EXPECT_EQ(rd_csr(csr::mepc), 0x01400ffeu) << "mepc = start of the instruction";
    uint32_t tval = rd_csr(csr::mtval);
    EXPECT_TRUE(tval == 0x01401000u || tval == 0)
        << "mtval = address of the faulting part, got " << std::hex << tval;
    EXPECT_EQ(x(5), 0u);
}

TEST_F(IssVmTest, RawSatpWriteTakesEffect) {
    // rv_cpu_write_csr is the host's way to set up a hart: translation must follow it
    set(6, VA0);
    to_m();
    enter(RV_PRIV_S, kCode);
    wr_csr(csr::satp, 0);
    exec(lw(5, 6, 0));
    EXPECT_EQ(pc(), kMtvec)
        << "satp = 0 written by the host: VA0 must be an (unmapped) physical address";
    EXPECT_EQ(rd_csr(csr::mcause), uint32_t(RV_EXC_LOAD_ACCESS));
    wr_csr(csr::satp, 0x80000000u | (kRoot >> 12));
    enter(RV_PRIV_S, kCode);
    exec(lw(5, 6, 0));
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(x(5), 0x0a0au);
}

}  // namespace
