// C extension: every RV32C encoding, reserved encodings, mixing 16- and 32-bit instructions.
#include "iss_test_util.h"

using namespace enc;

namespace {

class IssCompressedTest : public IssTest {
protected:
    // Executes one compressed instruction at kCode.
    void exec16(uint16_t insn) {
        load16({insn});
        step();
    }
    void expect_next() { EXPECT_EQ(pc(), kCode + 2); }
};

TEST_F(IssCompressedTest, Addi4spn) {
    set(2, kData);
    exec16(c_addi4spn(9, 1020));
    expect_next();
    EXPECT_EQ(x(9), kData + 1020);
    exec16(c_addi4spn(8, 4));
    EXPECT_EQ(x(8), kData + 4);
    exec16(c_addi4spn(15, 40));
    EXPECT_EQ(x(15), kData + 40);
}

TEST_F(IssCompressedTest, LwSw) {
    m.w32(kData + 124, 0x8badf00d);
    set(9, kData);
    exec16(c_lw(8, 9, 124));
    expect_next();
    EXPECT_EQ(x(8), 0x8badf00du);
    set(12, 0x13572468);
    set(13, kData);
    exec16(c_sw(12, 13, 68));
    expect_next();
    EXPECT_EQ(m.r32(kData + 68), 0x13572468u);
    exec16(c_lw(15, 13, 68));
    EXPECT_EQ(x(15), 0x13572468u);
}

TEST_F(IssCompressedTest, NopAddiLi) {
    set(5, 10);
    exec16(c_nop());
    expect_next();
    EXPECT_EQ(x(5), 10u);
    exec16(c_addi(5, -32));
    expect_next();
    EXPECT_EQ(x(5), uint32_t(-22));
    exec16(c_addi(5, 31));
    EXPECT_EQ(x(5), 9u);
    exec16(c_li(10, -1));
    EXPECT_EQ(x(10), 0xffffffffu);
    exec16(c_li(7, 17));
    EXPECT_EQ(x(7), 17u);
    exec16(c_li(7, -32));
    EXPECT_EQ(x(7), uint32_t(-32));
}

TEST_F(IssCompressedTest, Addi16spAndLui) {
    set(2, kData + 0x1000);
    exec16(c_addi16sp(-512));
    expect_next();
    EXPECT_EQ(x(2), kData + 0x1000 - 512);
    exec16(c_addi16sp(496));
    EXPECT_EQ(x(2), kData + 0x1000 - 16);
    exec16(c_addi16sp(0x150));
    EXPECT_EQ(x(2), kData + 0x1000 - 16 + 0x150);
    exec16(c_lui(5, 1));
    expect_next();
    EXPECT_EQ(x(5), 0x1000u);
    exec16(c_lui(6, 0x3f));  // nzimm = -1 -> 0xfffff000
    EXPECT_EQ(x(6), 0xfffff000u);
    exec16(c_lui(7, 0x1f));
    EXPECT_EQ(x(7), 0x1f000u);
    exec16(c_lui(7, 0x20));  // imm[17] set -> negative
    EXPECT_EQ(x(7), 0xfffe0000u);
}

TEST_F(IssCompressedTest, ShiftsAndAndi) {
    set(8, 0x80000000);
    exec16(c_srli(8, 31));
    expect_next();
    EXPECT_EQ(x(8), 1u);
    set(9, 0x80000000);
    exec16(c_srai(9, 31));
    EXPECT_EQ(x(9), 0xffffffffu);
    set(9, 0x80000002);
    exec16(c_srai(9, 1));
    EXPECT_EQ(x(9), 0xc0000001u);
    set(10, 0x12345678);
    exec16(c_andi(10, -1));
    EXPECT_EQ(x(10), 0x12345678u);
    exec16(c_andi(10, -16));
    EXPECT_EQ(x(10), 0x12345670u);
    set(11, 0xff);
    exec16(c_andi(11, 21));
    EXPECT_EQ(x(11), 21u);
    set(5, 1);
    exec16(c_slli(5, 31));
    expect_next();
    EXPECT_EQ(x(5), 0x80000000u);
    set(31, 3);
    exec16(c_slli(31, 1));
    EXPECT_EQ(x(31), 6u);
}

TEST_F(IssCompressedTest, RegisterArithmetic) {
    set(8, 10);
    set(9, 3);
    exec16(c_sub(8, 9));
    expect_next();
    EXPECT_EQ(x(8), 7u);
    set(8, 3);
    exec16(c_sub(8, 9));
    EXPECT_EQ(x(8), 0u);
    set(10, 0xff00ff00);
    set(11, 0x0ff00ff0);
    exec16(c_xor(10, 11));
    EXPECT_EQ(x(10), 0xf0f0f0f0u);
    set(12, 0xff00ff00);
    set(13, 0x0ff00ff0);
    exec16(c_or(12, 13));
    EXPECT_EQ(x(12), 0xfff0fff0u);
    set(14, 0xff00ff00);
    set(15, 0x0ff00ff0);
    exec16(c_and(14, 15));
    EXPECT_EQ(x(14), 0x0f000f00u);
    set(5, 0);
    set(6, 0xabcdef01);
    exec16(c_mv(5, 6));
    expect_next();
    EXPECT_EQ(x(5), 0xabcdef01u);
    set(20, 0x7fffffff);
    set(21, 1);
    exec16(c_add(20, 21));
    expect_next();
    EXPECT_EQ(x(20), 0x80000000u);
}

TEST_F(IssCompressedTest, JumpsAndLinks) {
    load16({c_j(0x7fe)});
    step();
    EXPECT_EQ(pc(), kCode + 0x7fe);
    load16({c_j(-2)}, kCode + 0x100);
    step();
    EXPECT_EQ(pc(), kCode + 0xfe);
    load16({c_j(-2048)}, kCode + 0x1000);
    step();
    EXPECT_EQ(pc(), kCode + 0x800);
    load16({c_jal(0x554)}, kCode + 0x10);
    step();
    EXPECT_EQ(pc(), kCode + 0x10 + 0x554);
    EXPECT_EQ(x(1), kCode + 0x12) << "c.jal links pc + 2";
    load16({c_jal(-0x10)}, kCode + 0x40);
    step();
    EXPECT_EQ(pc(), kCode + 0x30);
    EXPECT_EQ(x(1), kCode + 0x42);

    set(7, kCode + 0x201);
    load16({c_jr(7)});
    step();
    EXPECT_EQ(pc(), kCode + 0x200) << "c.jr clears bit 0";
    set(7, kCode + 0x300);
    set(1, 0);
    load16({c_jalr(7)});
    step();
    EXPECT_EQ(pc(), kCode + 0x300);
    EXPECT_EQ(x(1), kCode + 2);
    // c.jalr x1: target from the old x1, link written after
    set(1, kCode + 0x400);
    load16({c_jalr(1)});
    step();
    EXPECT_EQ(pc(), kCode + 0x400);
    EXPECT_EQ(x(1), kCode + 2);
}

TEST_F(IssCompressedTest, Branches) {
    struct Case {
        bool bnez;
        uint32_t val;
        int32_t off;
        bool taken;
    } cases[] = {
        {false, 0, 254, true}, {false, 0, -256, true}, {false, 5, 254, false},
        {true, 5, 0xaa, true}, {true, 5, -0x56, true}, {true, 0, 0xaa, false},
    };
    for (auto c : cases) {
        uint32_t at = kCode + 0x1000;
        set(9, c.val);
        load16({c.bnez ? c_bnez(9, c.off) : c_beqz(9, c.off)}, at);
        step();
        EXPECT_EQ(pc(), c.taken ? at + uint32_t(c.off) : at + 2)
            << c.bnez << " " << c.val << " " << c.off;
    }
}

TEST_F(IssCompressedTest, StackPointerLoadStore) {
    set(2, kData);
    m.w32(kData + 252, 0x600dcafe);
    exec16(c_lwsp(1, 252));
    expect_next();
    EXPECT_EQ(x(1), 0x600dcafeu);
    m.w32(kData + 0x64, 77);
    exec16(c_lwsp(9, 0x64));
    EXPECT_EQ(x(9), 77u);
    set(31, 0x31313131);
    exec16(c_swsp(31, 0x44));
    expect_next();
    EXPECT_EQ(m.r32(kData + 0x44), 0x31313131u);
    set(1, 0xabcdabcd);
    exec16(c_swsp(1, 252));
    EXPECT_EQ(m.r32(kData + 252), 0xabcdabcdu);
}

TEST_F(IssCompressedTest, Ebreak) {
    exec16(c_ebreak());
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), uint32_t(RV_EXC_BREAKPOINT));
    EXPECT_EQ(rd_csr(csr::mepc), kCode);
}

TEST_F(IssCompressedTest, ReservedEncodingsAreIllegal) {
    const uint16_t bad[] = {
        0x0000,            // defined illegal instruction
        c_addi4spn(9, 0),  // nzuimm = 0
        c_lui(5, 0),       // nzimm = 0
        c_addi16sp(0),     // nzimm = 0
        c_lwsp(0, 4),      // rd = 0
        c_jr(0),           // rs1 = 0
    };
    for (uint16_t insn : bad) {
        wr_csr(csr::mstatus, 0);
        wr_csr(csr::mtval, 0x5a5a5a5a);
        exec16(insn);
        EXPECT_EQ(pc(), kMtvec) << std::hex << insn;
        EXPECT_EQ(rd_csr(csr::mcause), uint32_t(RV_EXC_ILLEGAL)) << std::hex << insn;
        EXPECT_EQ(rd_csr(csr::mepc), kCode) << std::hex << insn;
        EXPECT_EQ(rd_csr(csr::mtval), uint32_t(insn))
            << "mtval = the 16-bit instruction, insn " << std::hex << insn;
    }
}

TEST_F(IssCompressedTest, MixedLengthsAndUnalignedWordInstructions) {
    // c.li, then a 32-bit addi at a 2-byte aligned address, then c.add
    m.code16(kCode, {c_li(10, 5)});
    m.w16(kCode + 2, uint16_t(addi(11, 10, 100) & 0xffff));
    m.w16(kCode + 4, uint16_t(addi(11, 10, 100) >> 16));
    m.code16(kCode + 6, {c_add(11, 10)});
    m.flush_code();
    rv_cpu_set_pc(cpu, kCode);
    steps(3);
    EXPECT_EQ(x(11), 110u);
    EXPECT_EQ(pc(), kCode + 8);
}

TEST_F(IssCompressedTest, WordInstructionCrossingPageBoundary) {
    uint32_t at = kCode + 0x0ffe;  // upper half in the next 4 KiB page
    uint32_t insn = addi(12, 0, 0x123);
    m.w16(at, uint16_t(insn & 0xffff));
    m.w16(at + 2, uint16_t(insn >> 16));
    m.code16(at + 4, {c_addi(12, 1)});
    m.flush_code();
    rv_cpu_set_pc(cpu, at);
    steps(2);
    EXPECT_EQ(x(12), 0x124u);
    EXPECT_EQ(pc(), at + 6);
}

TEST_F(IssCompressedTest, CompressedAtEndOfRam) {
    uint32_t last = IssMachine::kRamBase + uint32_t(m.ram.size()) - 2;
    load16({c_li(13, 9)}, last);
    step();
    EXPECT_EQ(x(13), 9u);
    EXPECT_EQ(pc(), last + 2);
    step();  // fetch beyond RAM
    EXPECT_EQ(pc(), kMtvec);
    EXPECT_EQ(rd_csr(csr::mcause), uint32_t(RV_EXC_INSN_ACCESS));
}

}  // namespace
