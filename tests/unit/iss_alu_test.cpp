// RV32I integer instructions: ALU, shifts, compares, lui/auipc, branches, jumps.
#include "iss_test_util.h"

using namespace enc;

namespace {

class IssAluTest : public IssTest {
protected:
    uint32_t rr(uint32_t insn_rd3_rs1_rs2, uint32_t a, uint32_t b) {
        set(1, a);
        set(2, b);
        set(3, 0xcccccccc);
        exec(insn_rd3_rs1_rs2);
        EXPECT_EQ(pc(), kCode + 4);
        return x(3);
    }
    uint32_t ri(uint32_t insn_rd3_rs1, uint32_t a) {
        set(1, a);
        set(3, 0xcccccccc);
        exec(insn_rd3_rs1);
        EXPECT_EQ(pc(), kCode + 4);
        return x(3);
    }
};

TEST_F(IssAluTest, ResetState) {
    EXPECT_EQ(pc(), kCode);
    EXPECT_EQ(priv(), RV_PRIV_M);
    EXPECT_EQ(x(0), 0u);
    EXPECT_EQ(rd_csr(csr::mstatus) & (st::MIE | st::SIE), 0u);
    EXPECT_EQ(rd_csr(csr::mhartid), 0u);
    // RV32 (MXL=1) with A, C, I, M, S, U
    uint32_t misa = rd_csr(csr::misa);
    EXPECT_EQ(misa >> 30, 1u);
    for (char e : {'A', 'C', 'I', 'M', 'S', 'U'}) EXPECT_TRUE(misa & (1u << (e - 'A'))) << e;
    for (char e : {'D', 'F', 'E'}) EXPECT_FALSE(misa & (1u << (e - 'A'))) << e;
}

TEST_F(IssAluTest, AddSub) {
    EXPECT_EQ(rr(add(3, 1, 2), 5, 7), 12u);
    EXPECT_EQ(rr(add(3, 1, 2), 0xffffffff, 1), 0u);           // wraps
    EXPECT_EQ(rr(add(3, 1, 2), 0x7fffffff, 1), 0x80000000u);  // signed overflow ignored
    EXPECT_EQ(rr(sub(3, 1, 2), 5, 7), uint32_t(-2));
    EXPECT_EQ(rr(sub(3, 1, 2), 0x80000000, 1), 0x7fffffffu);
    EXPECT_EQ(ri(addi(3, 1, -1), 0), 0xffffffffu);
    EXPECT_EQ(ri(addi(3, 1, 2047), 1), 2048u);
    EXPECT_EQ(ri(addi(3, 1, -2048), 0), 0xfffff800u);
}

TEST_F(IssAluTest, Logic) {
    EXPECT_EQ(rr(and_(3, 1, 2), 0xff00ff00, 0x0ff00ff0), 0x0f000f00u);
    EXPECT_EQ(rr(or_(3, 1, 2), 0xff00ff00, 0x0ff00ff0), 0xfff0fff0u);
    EXPECT_EQ(rr(xor_(3, 1, 2), 0xff00ff00, 0x0ff00ff0), 0xf0f0f0f0u);
    EXPECT_EQ(ri(andi(3, 1, -16), 0x12345678), 0x12345670u);  // sign-extended immediate
    EXPECT_EQ(ri(ori(3, 1, -2048), 0x1), 0xfffff801u);
    EXPECT_EQ(ri(xori(3, 1, -1), 0x12345678), ~0x12345678u);  // not
    EXPECT_EQ(ri(xori(3, 1, 0x7ff), 0x0), 0x7ffu);
}

TEST_F(IssAluTest, Shifts) {
    EXPECT_EQ(ri(slli(3, 1, 31), 1), 0x80000000u);
    EXPECT_EQ(ri(slli(3, 1, 0), 0x1234), 0x1234u);
    EXPECT_EQ(ri(srli(3, 1, 31), 0x80000000), 1u);
    EXPECT_EQ(ri(srai(3, 1, 31), 0x80000000), 0xffffffffu);
    EXPECT_EQ(ri(srai(3, 1, 31), 0x7fffffff), 0u);
    EXPECT_EQ(ri(srai(3, 1, 4), 0x80000010), 0xf8000001u);
    EXPECT_EQ(ri(srli(3, 1, 4), 0x80000010), 0x08000001u);
    // register shifts use only the low 5 bits of rs2
    EXPECT_EQ(rr(sll(3, 1, 2), 1, 31), 0x80000000u);
    EXPECT_EQ(rr(sll(3, 1, 2), 1, 32), 1u);
    EXPECT_EQ(rr(sll(3, 1, 2), 1, 0xffffffe1), 2u);
    EXPECT_EQ(rr(srl(3, 1, 2), 0x80000000, 31), 1u);
    EXPECT_EQ(rr(srl(3, 1, 2), 0x80000000, 63), 1u);
    EXPECT_EQ(rr(sra(3, 1, 2), 0x80000000, 31), 0xffffffffu);
    EXPECT_EQ(rr(sra(3, 1, 2), 0x80000000, 33), 0xc0000000u);
    EXPECT_EQ(rr(sra(3, 1, 2), 0x40000000, 30), 1u);
}

TEST_F(IssAluTest, ShiftImmediateWithShamt5IsIllegal) {
    // slli x3, x1, 32 (shamt[5] = 1) is reserved in RV32
    uint32_t bad = slli(3, 1, 0) | (1u << 25);
    exec(bad);
    expect_mtrap(RV_EXC_ILLEGAL, kCode, bad);
    uint32_t bad_srai = srai(3, 1, 0) | (1u << 25);
    wr_csr(csr::mstatus, 0);
    exec(bad_srai);
    expect_mtrap(RV_EXC_ILLEGAL, kCode, bad_srai);
}

TEST_F(IssAluTest, Compares) {
    EXPECT_EQ(rr(slt(3, 1, 2), uint32_t(-1), 1), 1u);
    EXPECT_EQ(rr(slt(3, 1, 2), 1, uint32_t(-1)), 0u);
    EXPECT_EQ(rr(slt(3, 1, 2), 0x80000000, 0x7fffffff), 1u);
    EXPECT_EQ(rr(slt(3, 1, 2), 5, 5), 0u);
    EXPECT_EQ(rr(sltu(3, 1, 2), uint32_t(-1), 1), 0u);
    EXPECT_EQ(rr(sltu(3, 1, 2), 1, uint32_t(-1)), 1u);
    EXPECT_EQ(rr(sltu(3, 1, 2), 0, 0), 0u);
    EXPECT_EQ(ri(slti(3, 1, -1), uint32_t(-2)), 1u);
    EXPECT_EQ(ri(slti(3, 1, -1), 0), 0u);
    EXPECT_EQ(ri(sltiu(3, 1, -1), 0xfffffffe), 1u);  // immediate sign-extended, compared unsigned
    EXPECT_EQ(ri(sltiu(3, 1, -1), 0xffffffff), 0u);
    EXPECT_EQ(ri(sltiu(3, 1, 1), 0), 1u);  // seqz
}

TEST_F(IssAluTest, X0IsHardwiredZero) {
    exec(addi(0, 0, 123));
    EXPECT_EQ(x(0), 0u);
    exec(lui(0, 0x12345));
    EXPECT_EQ(x(0), 0u);
    rv_cpu_set_reg(cpu, 0, 55);
    EXPECT_EQ(x(0), 0u);
}

TEST_F(IssAluTest, LuiAuipc) {
    exec(lui(5, 0x12345));
    EXPECT_EQ(x(5), 0x12345000u);
    exec(lui(5, 0xfffff));
    EXPECT_EQ(x(5), 0xfffff000u);
    load({nop(), auipc(6, 0x1)});
    steps(2);
    EXPECT_EQ(x(6), kCode + 4 + 0x1000);
    load({auipc(6, 0x80000)});  // -2^31: kCode (0x80000000) + 0x80000000 wraps to 0
    step();
    EXPECT_EQ(x(6), 0u);
}

TEST_F(IssAluTest, BranchesTakenAndNotTaken) {
    struct Case {
        uint32_t (*op)(uint32_t, uint32_t, int32_t);
        uint32_t a, b;
        bool taken;
    };
    const Case cases[] = {
        {beq, 5, 5, true},
        {beq, 5, 6, false},
        {bne, 5, 6, true},
        {bne, 5, 5, false},
        {blt, uint32_t(-1), 1, true},
        {blt, 1, uint32_t(-1), false},
        {blt, 3, 3, false},
        {bge, 1, uint32_t(-1), true},
        {bge, 3, 3, true},
        {bge, uint32_t(-1), 1, false},
        {bltu, 1, uint32_t(-1), true},
        {bltu, uint32_t(-1), 1, false},
        {bltu, 0, 0, false},
        {bgeu, uint32_t(-1), 1, true},
        {bgeu, 0, 0, true},
        {bgeu, 1, uint32_t(-1), false},
    };
    for (const auto &c : cases) {
        for (int32_t off : {16, -16, 4094, -4096}) {
            uint32_t at = kCode + 0x2000;
            set(1, c.a);
            set(2, c.b);
            load({c.op(1, 2, off)}, at);
            step();
            EXPECT_EQ(pc(), c.taken ? at + uint32_t(off) : at + 4)
                << "a=" << int32_t(c.a) << " b=" << int32_t(c.b) << " off=" << off;
        }
    }
}

TEST_F(IssAluTest, BranchStatistics) {
    const rv_cpu_stats *s = rv_cpu_get_stats(cpu);
    uint64_t t0 = s->branches_taken, n0 = s->branches_not_taken;
    set(1, 1);
    exec(beq(1, 0, 8));
    exec(bne(1, 0, 8));
    exec(bne(1, 0, 8));
    EXPECT_EQ(s->branches_taken - t0, 2u);
    EXPECT_EQ(s->branches_not_taken - n0, 1u);
}

// The energy model's instruction classes (docs/energy.md): every M-extension op is counted once.
TEST_F(IssAluTest, MulDivStatistics) {
    const rv_cpu_stats *s = rv_cpu_get_stats(cpu);
    const uint64_t m0 = s->muls, d0 = s->divs, i0 = s->instret;
    set(1, 7);
    set(2, 3);
    exec(mul(3, 1, 2));
    exec(mulh(3, 1, 2));
    exec(divu(3, 1, 2));
    exec(rem(3, 1, 2));
    exec(div(3, 1, 0));  // division by zero is an ordinary division here
    exec(add(3, 1, 2));
    EXPECT_EQ(s->muls - m0, 2u);
    EXPECT_EQ(s->divs - d0, 3u);
    EXPECT_EQ(s->instret - i0, 6u);
}

TEST_F(IssAluTest, Jal) {
    load({jal(1, 0x100)});
    step();
    EXPECT_EQ(pc(), kCode + 0x100);
    EXPECT_EQ(x(1), kCode + 4);
    load({jal(5, -8)}, kCode + 0x40);
    step();
    EXPECT_EQ(pc(), kCode + 0x38);
    EXPECT_EQ(x(5), kCode + 0x44);
    load({jal(0, 0xffffe)}, kCode + 0x100);  // largest forward offset, rd = x0
    step();
    EXPECT_EQ(pc(), kCode + 0x100 + 0xffffe);
    EXPECT_EQ(x(0), 0u);
}

TEST_F(IssAluTest, JalrClearsBit0) {
    set(2, kCode + 0x201);
    load({jalr(1, 2, 0)});
    step();
    EXPECT_EQ(pc(), kCode + 0x200);
    EXPECT_EQ(x(1), kCode + 4);
    set(2, kCode + 0x300);
    load({jalr(1, 2, -3)});  // 0x2fd -> 0x2fc
    step();
    EXPECT_EQ(pc(), kCode + 0x2fc);
    // rd == rs1: the target uses the old value
    set(7, kCode + 0x400);
    load({jalr(7, 7, 4)});
    step();
    EXPECT_EQ(pc(), kCode + 0x404);
    EXPECT_EQ(x(7), kCode + 4);
}

TEST_F(IssAluTest, FenceAndFenceIAreNops) {
    set(5, 77);
    load({fence(), fence_i(), addi(5, 5, 1)});
    steps(3);
    EXPECT_EQ(pc(), kCode + 12);
    EXPECT_EQ(x(5), 78u);
}

TEST_F(IssAluTest, FenceIMakesModifiedCodeVisible) {
    // The program overwrites an instruction ahead of it, executes fence.i, then runs it.
    uint32_t target = kCode + 16;
    m.code(kCode, {lui(6, 0), sw(7, 8, 0), fence_i(), nop(), addi(5, 0, 1)});
    m.flush_code();
    rv_cpu_set_pc(cpu, kCode);
    // Execute the old instruction once so it is in the decode cache
    rv_cpu_set_pc(cpu, target);
    step();
    EXPECT_EQ(x(5), 1u);
    rv_cpu_set_pc(cpu, kCode);
    set(7, addi(5, 0, 2));
    set(8, target);
    steps(5);
    EXPECT_EQ(x(5), 2u) << "store + fence.i did not make the new instruction visible";
}

TEST_F(IssAluTest, InstretCountsRetiredInstructions) {
    uint64_t i0 = rv_cpu_instret(cpu);
    load({nop(), nop(), nop()});
    steps(3);
    EXPECT_EQ(rv_cpu_instret(cpu) - i0, 3u);
    EXPECT_EQ(rv_cpu_get_stats(cpu)->instret, rv_cpu_instret(cpu));
}

TEST_F(IssAluTest, IllegalInstructions) {
    for (uint32_t bad : {0x0000000bu /* custom-0 */, i_type(0, 1, 3, 3, 0x03) /* ld: RV64 only */,
                         0x00000053u /* FP op, no F */,
                         r_type(0x40, 2, 1, 1, 3, 0x33) /* sll with bad funct7 */}) {
        wr_csr(csr::mstatus, 0);
        exec(bad);
        expect_mtrap(RV_EXC_ILLEGAL, kCode, bad);
    }
}

TEST_F(IssAluTest, StepAndRunStop) {
    // A store to the EXIT register stops the hart: rv_cpu_run returns STOPPED, then continues.
    set(10, IssMachine::kExit);
    set(11, 42);
    load({sw(11, 10, 0), addi(12, 0, 9), jal(0, 0)});
    EXPECT_EQ(rv_cpu_run(cpu, 1000), RV_RUN_STOPPED);
    EXPECT_TRUE(m.exited);
    EXPECT_EQ(m.exit_code, 42u);
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(rv_cpu_run(cpu, rv_cpu_cycles(cpu) + 100), RV_RUN_BUDGET);
    EXPECT_EQ(x(12), 9u);
    EXPECT_EQ(pc(), kCode + 8);
    EXPECT_GE(rv_cpu_cycles(cpu), 100u);
}

TEST_F(IssAluTest, ConsoleThroughBus) {
    set(10, IssMachine::kConsoleTx);
    load({addi(11, 0, 'h'), sw(11, 10, 0), addi(11, 0, 'i'), sb(11, 10, 0)});
    steps(4);
    EXPECT_EQ(m.console, "hi");
}

TEST_F(IssAluTest, CodeWrittenByOtherHartVisibleAfterFenceI) {
    rv_cpu *h1 = m.add_hart(1, kCode + 0x3000);
    ASSERT_NE(h1, nullptr);
    uint32_t target = kCode + 0x100;
    m.code(target, {addi(5, 0, 1), jal(0, 0)});
    m.code(kCode, {jal(0, 0x100)});
    m.flush_code();
    rv_cpu_set_pc(cpu, target);
    step();  // hart 0 has the old instruction decoded
    EXPECT_EQ(x(5), 1u);
    // hart 1 overwrites it with a store
    m.code(kCode + 0x3000, {sw(7, 8, 0)});
    m.flush_code();
    rv_cpu_set_reg(h1, 7, addi(5, 0, 2));
    rv_cpu_set_reg(h1, 8, target);
    rv_cpu_set_pc(h1, kCode + 0x3000);
    rv_cpu_step(h1);
    // hart 0: fence.i, then run the new instruction
    m.code(kCode + 0x200, {fence_i(), jal(0, -0x104)});  // jumps to target
    rv_cpu_set_pc(cpu, kCode + 0x200);
    rv_cpu_step(cpu);
    rv_cpu_step(cpu);
    EXPECT_EQ(pc(), target);
    rv_cpu_step(cpu);
    EXPECT_EQ(x(5), 2u) << "fence.i did not discard the stale decoded instruction";
}

TEST_F(IssAluTest, EcallAndEbreakDoNotRetire) {
    uint64_t i0 = rv_cpu_instret(cpu);
    exec(ecall());
    EXPECT_EQ(rv_cpu_instret(cpu), i0);
    exec(ebreak());
    EXPECT_EQ(rv_cpu_instret(cpu), i0);
}

}  // namespace
