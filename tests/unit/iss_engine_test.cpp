// The block engines (block interpreter and JIT) against the interpreter: the same program on two
// machines, one per engine, run with rv_cpu_run under the same budgets, must leave identical
// state after every run (registers, pc, privilege, trap CSRs, every statistics counter, device
// accesses, traps). Covered: block boundaries and budgets inside blocks, chaining inside a page
// and across pages, self-modifying code with and without fence.i, a trap in the middle of a
// block, an interrupt raised by a device access inside a block, 32-bit instructions straddling a
// page, sfence.vma after remapping code, a DMI region added later, and random programs.
#include "iss_engine_compare.h"

#include <algorithm>
#include <random>
#include <string>

using namespace enc;

namespace {

constexpr uint32_t B = IssMachine::kRamBase;
constexpr uint32_t kMtvec = B + 0x4000;
constexpr uint32_t kData = B + 0x8000;

rv_timing mixed_timing() {
    rv_timing t;
    t.alu = 1;
    t.mul = 3;
    t.div = 34;
    t.load = 2;
    t.store = 1;
    t.branch_taken = 3;
    t.branch_not_taken = 1;
    t.jump = 2;
    t.csr = 2;
    t.atomic = 2;
    t.system = 3;
    t.trap = 4;
    return t;
}

// Two machines with the same memory image: the reference interpreter and the engine under test.
class EngineTest : public ::testing::TestWithParam<rv_engine> {
protected:
    EngineTest() : ref(1u << 20, mixed_timing(), 1, 2), dut(1u << 20, mixed_timing(), 1, 2) {
        ref.engine = RV_ENGINE_INTERPRETER;
        dut.engine = GetParam();
    }
    void SetUp() override {
        r = ref.add_hart(0, B);
        d = dut.add_hart(0, B);
        ASSERT_NE(r, nullptr);
        ASSERT_NE(d, nullptr);
        if (GetParam() == RV_ENGINE_JIT) {
            // the JIT is what this host has, or the block engine where it has none
            EXPECT_TRUE(rv_cpu_engine(d) == RV_ENGINE_JIT || rv_cpu_engine(d) == RV_ENGINE_BLOCK);
        } else {
            EXPECT_EQ(rv_cpu_engine(d), GetParam());
        }
        both([](IssMachine &m, rv_cpu *c) {
            m.code(kMtvec, {jal(0, 0)});
            rv_cpu_write_csr(c, csr::mtvec, kMtvec);
        });
    }
    template <class F>
    void both(F f) {
        f(ref, r);
        f(dut, d);
    }
    void code(uint32_t at, std::initializer_list<uint32_t> insns) {
        both([&](IssMachine &m, rv_cpu *) { m.code(at, insns); });
    }
    void code16(uint32_t at, std::initializer_list<uint16_t> insns) {
        both([&](IssMachine &m, rv_cpu *) { m.code16(at, insns); });
    }
    void w32(uint32_t at, uint32_t v) {
        both([&](IssMachine &m, rv_cpu *) { m.w32(at, v); });
    }
    // rv_cpu_run on both to the same cycle limit; the status and the whole state must agree.
    rv_run_status run_to(uint64_t limit) { return run_both_to(r, ref, d, dut, limit); }
    // Runs `cycles` more cycles in slices of `slice` cycles, comparing after each.
    void run_sliced(uint64_t slice, uint64_t cycles) {
        const uint64_t end = rv_cpu_cycles(r) + cycles;
        while (rv_cpu_cycles(r) < end && !::testing::Test::HasFailure()) {
            rv_run_status s = run_to(std::min(end, rv_cpu_cycles(r) + slice));
            if (s == RV_RUN_STOPPED || s == RV_RUN_LOCKUP) return;
        }
    }
    rv_engine_counters counters() const { return engine_counters(d); }
    uint32_t x(unsigned n) const { return rv_cpu_get_reg(d, n); }

    IssMachine ref, dut;
    rv_cpu *r = nullptr, *d = nullptr;
};

// A loop of straight-line code with loads and stores, a CSR read in the middle (a block ends
// before it) and a taken and a not-taken branch; stopped at every budget from 1 to 400 cycles,
// so budgets fall inside blocks.
TEST_P(EngineTest, BudgetInsideBlocksStopsAtTheSameInstruction) {
    code(B, {lui(10, kData >> 12), addi(11, 0, 40),  // x10 = data, x11 = count
             lw(12, 10, 0), addi(12, 12, 3), sw(12, 10, 4), mul(13, 12, 11),
             csrr(14, csr::mcycle),  // ends a block
             add(15, 14, 13), sb(15, 10, 8), lbu(16, 10, 8), andi(17, 11, 1), beq(17, 0, 8),
             addi(18, 18, 1),  // taken every other round
             addi(11, 11, -1), bne(11, 0, -48), sw(18, 10, 12), jal(0, 0)});
    for (uint64_t limit = 1; limit <= 400 && !HasFailure(); limit++) run_to(limit);
    run_to(5000);
    EXPECT_EQ(x(11), 0u);
    EXPECT_EQ(x(18), 20u);
    EXPECT_GT(counters().blocks_built, 0u);
}

// Blocks chained inside a page and calls into another page (jal there, jalr back): the loop runs
// long enough for the JIT to translate and chain every block.
TEST_P(EngineTest, ChainsInsideAPageAndAcrossPages) {
    const uint32_t fn = B + 0x3000;                                          // another page
    code(B, {addi(5, 0, 200), addi(6, 0, 0), jal(1, int32_t(fn - (B + 8))),  // call fn
             addi(6, 6, 1), addi(5, 5, -1), bne(5, 0, -12), lui(7, 0x12345), jal(0, 0)});
    code(fn, {slli(8, 6, 2), xor_(9, 9, 8), addi(9, 9, 7), jalr(0, 1, 0)});
    run_sliced(997, 30000);
    EXPECT_EQ(x(6), 200u);
    EXPECT_EQ(x(7), 0x12345000u);
    if (GetParam() == RV_ENGINE_JIT && rv_cpu_engine(d) == RV_ENGINE_JIT) {
        EXPECT_GT(counters().translations, 2u);
    }
}

// Self-modifying code. An instruction not executed yet is decoded when it first runs, so a store
// to it before that is seen; code that already ran stays as decoded until fence.i.
TEST_P(EngineTest, SelfModifyingCodeWithAndWithoutFenceI) {
    const uint32_t target = B + 0x100;
    code(B, {lui(10, target >> 12), addi(10, 10, int32_t(target & 0xfff)),
             lw(11, 10, 0x40),  // the new instruction
             addi(20, 0, 3),    // rounds
             // loop: run the patched instruction, then patch it again
             jal(1, int32_t(target - (B + 16))), sw(11, 10, 0),  // store over code that ran
             addi(20, 20, -1), bne(20, 0, -12), fence_i(),
             jal(1, int32_t(target - (B + 36))),  // seen after fence.i
             jal(0, 0)});
    code(target, {addi(12, 12, 1), jalr(0, 1, 0)});
    code(target + 0x40, {addi(12, 12, 100)});
    run_sliced(50, 2000);
    // 3 calls of the old instruction (it ran before the first store), then 1 of the new one
    EXPECT_EQ(x(12), 3u + 100u);

    // A store into the next, not yet executed instruction of straight-line code is seen at once.
    const uint32_t p = B + 0x1000;
    code(p, {lui(10, p >> 12), lw(11, 10, 0x40), sw(11, 10, 12), addi(13, 0, 1), jal(0, 0)});
    code(p + 0x40, {addi(13, 0, 77)});
    both([&](IssMachine &, rv_cpu *c) { rv_cpu_set_pc(c, p); });
    run_to(rv_cpu_cycles(r) + 200);
    EXPECT_EQ(x(13), 77u);
}

// A load access fault and a misaligned store in the middle of blocks: the trap CSRs, cycles,
// instret and load/store counts at the trap are the interpreter's.
TEST_P(EngineTest, TrapInTheMiddleOfABlock) {
    const uint32_t handler = B + 0x2000;
    code(B, {lui(10, kData >> 12), addi(11, 0, 5), addi(12, 0, 0), sw(11, 10, 0), lw(13, 10, 0),
             lui(14, 0x40080), lw(15, 14, 0),  // faults (no device)
             addi(12, 12, 1), sh(11, 10, 3),   // misaligned
             addi(12, 12, 1), jal(0, 0)});
    // the handler skips the faulting instruction and counts
    code(handler,
         {csrr(20, csr::mepc), addi(20, 20, 4), csrw(csr::mepc, 20), addi(21, 21, 1), mret()});
    both([&](IssMachine &, rv_cpu *c) { rv_cpu_write_csr(c, csr::mtvec, handler); });
    // small slices step through the blocks, large ones run them whole
    for (uint64_t slice : {7, 500, 5000}) {
        both([](IssMachine &, rv_cpu *c) { rv_cpu_set_pc(c, B); });
        run_sliced(slice, 500);
    }
    EXPECT_EQ(x(21), 6u);
    EXPECT_EQ(rv_cpu_get_stats(d)->exceptions_by_cause[RV_EXC_LOAD_ACCESS], 3u);
    EXPECT_EQ(rv_cpu_get_stats(d)->exceptions_by_cause[RV_EXC_STORE_MISALIGNED], 3u);
}

// A device access inside a block raises MEIP (the harness's IRQ register) with interrupts
// enabled: the interrupt is taken right after that instruction, at the interpreter's cycle.
TEST_P(EngineTest, InterruptRaisedInsideABlock) {
    const uint32_t handler = B + 0x2000;
    code(B, {lui(10, IssMachine::kIrqCtl >> 12), addi(11, 0, 1), slli(11, 11, RV_IRQ_MEIP),
             csrw(csr::mie, 11), csrrsi(0, csr::mstatus, 8),  // MEIE, MIE
             addi(20, 0, 4), addi(12, 12, 1), addi(12, 12, 1), sw(11, 10, 0), addi(12, 12, 1),
             addi(12, 12, 1), addi(20, 20, -1), bne(20, 0, -24), jal(0, 0)});
    // handler: drop the line, count, return
    code(handler, {lui(10, IssMachine::kIrqCtl >> 12), sw(0, 10, 0), addi(21, 21, 1), mret()});
    both([&](IssMachine &, rv_cpu *c) { rv_cpu_write_csr(c, csr::mtvec, handler); });
    run_sliced(1000, 2000);
    EXPECT_EQ(x(21), 4u);
    EXPECT_EQ(x(12), 16u);
    EXPECT_EQ(rv_cpu_get_stats(d)->interrupts, 4u);
}

// Every computational instruction on corner values, in a loop long enough to be translated.
TEST_P(EngineTest, AluAndMulDivOnCornerValues) {
    const uint32_t v[] = {0,           1,  0x7fffffffu, 0x80000000u, 0xffffffffu,
                          0xfffffffeu, 31, 33,          0x12345678u, 0x87654321u};
    const uint32_t data = kData + 0x100;
    for (unsigned i = 0; i < 10; i++) w32(data + 4 * i, v[i]);
    // x5, x6 = v[i], v[j] for every pair; results folded into x20 with add and xor
    std::vector<uint32_t> ops = {
        add(7, 5, 6),   sub(7, 5, 6),     sll(7, 5, 6),    slt(7, 5, 6),   sltu(7, 5, 6),
        xor_(7, 5, 6),  srl(7, 5, 6),     sra(7, 5, 6),    or_(7, 5, 6),   and_(7, 5, 6),
        mul(7, 5, 6),   mulh(7, 5, 6),    mulhsu(7, 5, 6), mulhu(7, 5, 6), div(7, 5, 6),
        divu(7, 5, 6),  rem(7, 5, 6),     remu(7, 5, 6),   slti(7, 5, -1), sltiu(7, 5, -1),
        xori(7, 5, -1), ori(7, 5, 0x555), andi(7, 5, -16), slli(7, 5, 31), srli(7, 5, 31),
        srai(7, 5, 31), add(5, 5, 6),     sub(6, 5, 6),    mul(6, 6, 5),   sra(5, 6, 5)};
    std::vector<uint32_t> prog = {lui(10, data >> 12), addi(10, 10, int32_t(data & 0xfff)),
                                  addi(11, 0, 0)};  // i * 4
    const size_t outer = prog.size();
    prog.insert(prog.end(), {addi(12, 0, 0)});  // j * 4
    const size_t inner = prog.size();
    prog.insert(prog.end(), {add(13, 10, 11), lw(5, 13, 0), add(13, 10, 12), lw(6, 13, 0)});
    for (uint32_t op : ops)
        prog.insert(prog.end(),
                    {op, add(20, 20, 7), xor_(21, 21, 7), slli(22, 21, 1), or_(21, 21, 22)});
    prog.insert(prog.end(), {addi(12, 12, 4), addi(14, 0, 40),
                             bne(12, 14, -int32_t(4 * (prog.size() + 2 - inner)))});
    prog.insert(prog.end(),
                {addi(11, 11, 4), bne(11, 14, -int32_t(4 * (prog.size() + 1 - outer))), jal(0, 0)});
    for (size_t i = 0; i < prog.size(); i++) w32(B + 4 * uint32_t(i), prog[i]);
    run_sliced(100000, 400000);
    EXPECT_EQ(rv_cpu_get_pc(d), B + 4 * uint32_t(prog.size() - 1));
    if (GetParam() == RV_ENGINE_JIT && rv_cpu_engine(d) == RV_ENGINE_JIT) {
        EXPECT_GT(counters().translations, 0u);
    }
}

// Calls back and forth between two pages whose fetch TLB entries are the same slot (64 pages
// apart): every call evicts the other page, so a lookup must check the entry's page.
TEST_P(EngineTest, CodePagesSharingAFetchTlbEntry) {
    const uint32_t f = B + 0x10000, g = f + 64 * 0x1000;
    code(B, {addi(5, 0, 60), jal(1, int32_t(f - (B + 4))), jal(1, int32_t(g - (B + 8))),
             addi(5, 5, -1), bne(5, 0, -12), jal(0, 0)});
    code(f, {addi(12, 12, 1), jalr(0, 1, 0)});
    code(g, {addi(13, 13, 2), jalr(0, 1, 0)});
    run_sliced(1000, 5000);
    EXPECT_EQ(x(12), 60u);
    EXPECT_EQ(x(13), 120u);
}

// With an LR/SC reservation held, every store of a block checks the reservations (a call to C
// from translated code, with guest registers in caller-saved host registers around it); stores
// elsewhere keep the reservation, a store to its word breaks it.
TEST_P(EngineTest, StoresWithAReservationHeld) {
    code(B, {lui(10, kData >> 12), lr_w(11, 10), addi(5, 0, 50),
             // many registers in use, so the block keeps some in caller-saved host registers
             addi(12, 12, 1), addi(13, 13, 2), addi(14, 14, 3), addi(15, 15, 4), addi(16, 16, 5),
             sw(12, 10, 8), sw(13, 10, 12), add(17, 12, 13), add(18, 14, 15), add(19, 16, 17),
             sw(19, 10, 16), addi(5, 5, -1), bne(5, 0, -48), sc_w(20, 12, 10),  // succeeds: x20 = 0
             lr_w(11, 10), sw(0, 10, 0), sc_w(21, 12, 10), jal(0, 0)});  // breaks it: x21 = 1
    run_sliced(2000, 6000);
    EXPECT_EQ(x(12), 50u);
    EXPECT_EQ(x(19), 50u * 5u + 50u + 100u);
    EXPECT_EQ(x(20), 0u);
    EXPECT_EQ(x(21), 1u);
}

// An interrupt input raised by the host between runs is taken before the next instruction.
TEST_P(EngineTest, InterruptRaisedBetweenRuns) {
    const uint32_t handler = B + 0x2000;
    code(B, {addi(5, 0, 1), slli(5, 5, RV_IRQ_MEIP), csrw(csr::mie, 5), csrrsi(0, csr::mstatus, 8),
             addi(12, 12, 1), addi(13, 13, 2), jal(0, -8)});
    code(handler, {addi(21, 21, 1), jal(0, 0)});
    both([&](IssMachine &, rv_cpu *c) { rv_cpu_write_csr(c, csr::mtvec, handler); });
    run_to(333);
    both([](IssMachine &, rv_cpu *c) { rv_cpu_set_irq(c, RV_IRQ_MEIP, true); });
    run_to(400);
    EXPECT_EQ(x(21), 1u);
}

// 32-bit instructions straddling a 4 KiB page boundary inside a loop (fetched uncached every time,
// never part of a block), next to compressed ones.
TEST_P(EngineTest, InstructionsStraddlingAPage) {
    const uint32_t page2 = B + 0x2000;
    const uint32_t start = page2 - 6;
    code(B, {addi(5, 0, 50), jal(0, int32_t(start - (B + 4)))});
    code16(start, {c_addi(12, 1), c_addi(13, 3)});
    both([&](IssMachine &m, rv_cpu *) {
        const uint32_t w = addi(14, 14, 5);  // at page2 - 2: its upper half is in the next page
        m.w16(page2 - 2, uint16_t(w));
        m.w16(page2, uint16_t(w >> 16));
    });
    code(page2 + 2, {addi(5, 5, -1), bne(5, 0, -int32_t((page2 + 6) - start)), jal(0, 0)});
    run_sliced(11, 3000);
    EXPECT_EQ(x(12), 50u);
    EXPECT_EQ(x(13), 150u);
    EXPECT_EQ(x(14), 250u);
}

// Sv32: a virtual code page is remapped to another physical page with other code; after
// sfence.vma the new code runs (in S mode, with blocks and translations of the old page around).
TEST_P(EngineTest, SfenceVmaAfterRemappingCode) {
    constexpr uint32_t V = 1, R = 2, W = 4, X = 8, A = 64, D = 128;
    const auto pte = [](uint32_t pa, uint32_t f) { return ((pa >> 12) << 10) | f; };
    const uint32_t root = B + 0x10000, l0 = B + 0x11000;
    const uint32_t va = 0x00400000, pa_old = B + 0x20000, pa_new = B + 0x21000;
    w32(root + 4 * (B >> 22), pte(B, V | R | W | X | A | D));  // the RAM, identity
    w32(root + 4 * (va >> 22), pte(l0, V));
    w32(l0, pte(pa_old, V | R | X | A));
    // code in both physical pages: a loop that adds 1 (old) or 10 (new) to x12, then returns
    code(pa_old, {addi(5, 0, 30), addi(12, 12, 1), addi(5, 5, -1), bne(5, 0, -8), jalr(0, 1, 0)});
    code(pa_new, {addi(5, 0, 30), addi(12, 12, 10), addi(5, 5, -1), bne(5, 0, -8), jalr(0, 1, 0)});
    // M mode: satp, drop to S at the driver below
    const uint32_t drv = B + 0x3000;
    code(B, {lui(5, 0x80000 | (root >> 24)), addi(5, 5, int32_t((root >> 12) & 0xfff)),
             csrw(csr::satp, 5), sfence_vma(), lui(6, drv >> 12), csrw(csr::mepc, 6), lui(7, 1),
             addi(7, 7, -2048),  // MPP = S
             csrw(csr::mstatus, 7), mret()});
    // S mode driver: call the page 8 times, remap (store to the PTE), sfence.vma, call 8 times
    code(drv, {addi(20, 0, 8), lui(8, va >> 12), jalr(1, 8, 0), addi(20, 20, -1), bne(20, 0, -8),
               lui(9, l0 >> 12), lui(10, pa_new >> 12), srli(10, 10, 2), ori(10, 10, V | R | X | A),
               sw(10, 9, 0), sfence_vma(), addi(20, 0, 8), jalr(1, 8, 0), addi(20, 20, -1),
               bne(20, 0, -8), jal(0, 0)});
    run_sliced(101, 15000);
    EXPECT_EQ(rv_cpu_get_priv(d), RV_PRIV_S);
    EXPECT_EQ(x(12), 8u * 30u + 8u * 300u);
}

// A PTE of code changed without sfence.vma: the old mapping stays in the fetch TLB until the entry
// is evicted (a page 64 pages away takes its slot); then the new code runs, in the interpreter and
// in every engine (no jump into remembered code of the old mapping).
TEST_P(EngineTest, RemapWithoutSfenceSeenAfterTlbEviction) {
    constexpr uint32_t V = 1, R = 2, W = 4, X = 8, A = 64, D = 128;
    const auto pte = [](uint32_t pa, uint32_t f) { return ((pa >> 12) << 10) | f; };
    const uint32_t root = B + 0x10000, l0 = B + 0x11000;
    const uint32_t va = 0x00400000, va2 = va + 64 * 0x1000;
    const uint32_t pa_old = B + 0x20000, pa_new = B + 0x21000, pa_other = B + 0x22000;
    w32(root + 4 * (B >> 22), pte(B, V | R | W | X | A | D));
    w32(root + 4 * (va >> 22), pte(l0, V));
    w32(l0, pte(pa_old, V | R | X | A));
    w32(l0 + 4 * 0x40, pte(pa_other, V | R | X | A));
    code(pa_old, {addi(5, 0, 30), addi(12, 12, 1), addi(5, 5, -1), bne(5, 0, -8), jalr(0, 1, 0)});
    code(pa_new, {addi(5, 0, 30), addi(12, 12, 10), addi(5, 5, -1), bne(5, 0, -8), jalr(0, 1, 0)});
    code(pa_other, {addi(13, 13, 1), jalr(0, 1, 0)});
    const uint32_t drv = B + 0x3000;
    code(B, {lui(5, 0x80000 | (root >> 24)), addi(5, 5, int32_t((root >> 12) & 0xfff)),
             csrw(csr::satp, 5), sfence_vma(), lui(6, drv >> 12), csrw(csr::mepc, 6), lui(7, 1),
             addi(7, 7, -2048), csrw(csr::mstatus, 7), mret()});
    // 8 calls per phase: enough for the calling blocks to be translated (jumps through the jump cache)
    code(drv, {addi(20, 0, 8),
               lui(8, va >> 12),
               jalr(1, 8, 0),
               addi(20, 20, -1),
               bne(20, 0, -8),
               lui(9, l0 >> 12),
               lui(10, pa_new >> 12),
               srli(10, 10, 2),
               ori(10, 10, V | R | X | A),
               sw(10, 9, 0),  // no sfence.vma
               addi(20, 0, 8),
               jalr(1, 8, 0),
               addi(20, 20, -1),
               bne(20, 0, -8),  // still the old code
               lui(11, va2 >> 12),
               jalr(1, 11, 0),  // evicts va's fetch entry
               addi(20, 0, 8),
               jalr(1, 8, 0),
               addi(20, 20, -1),
               bne(20, 0, -8),  // the new code
               jal(0, 0)});
    run_sliced(97, 20000);
    EXPECT_EQ(x(13), 1u);
    EXPECT_EQ(x(12), 16u * 30u + 8u * 300u);
}

// A DMI region added after code ran (its latency larger than any before): blocks are dropped
// and their budget bounds recomputed.
TEST_P(EngineTest, DmiRegionAddedLater) {
    code(B, {lui(10, kData >> 12), addi(5, 0, 100), lw(11, 10, 0), addi(11, 11, 1), sw(11, 10, 0),
             addi(5, 5, -1), bne(5, 0, -16), jal(0, 0)});
    run_to(300);
    rv_engine_counters before = counters();
    std::vector<uint8_t> slow(4096, 0);
    std::vector<uint8_t> slow2(4096, 0);
    ASSERT_EQ(rv_cpu_add_dmi(r, 0x30000000, 4096, slow.data(), 50, 60), 0);
    ASSERT_EQ(rv_cpu_add_dmi(d, 0x30000000, 4096, slow2.data(), 50, 60), 0);
    EXPECT_GT(counters().drops, before.drops);
    code(B + 28, {lui(10, 0x30000), jal(0, -24)});  // now on the slow region: back into the loop
    both([](IssMachine &, rv_cpu *c) {
        rv_cpu_flush_decode_cache(c);
        rv_cpu_set_reg(c, 5, 100);
        rv_cpu_set_pc(c, B + 28);
    });
    run_sliced(77, 3000);
}

// Random straight-line code with every block instruction, random registers and corner values,
// loads and stores into a data window (x31 holds its base, never written), a bounded loop (x30),
// forward branches, CSR reads and compressed instructions; 40 programs, sliced budgets.
TEST_P(EngineTest, RandomPrograms) {
    std::mt19937 rng(12345);
    const auto pick = [&](unsigned n) { return unsigned(rng() % n); };
    const uint32_t corner[] = {0,           1,           2,  0x7fffffffu, 0x80000000u,
                               0xffffffffu, 0xfffffffeu, 31, 32,          0x12345678u};
    for (int prog = 0; prog < 40 && !HasFailure(); prog++) {
        const uint32_t at =
            B + 0x1000 + uint32_t(pick(8)) * 0x200 + uint32_t(pick(2)) * 2 + 0x0e00 * (prog % 2);
        std::vector<uint16_t> halves;
        const auto put32 = [&](uint32_t w) {
            halves.push_back(uint16_t(w));
            halves.push_back(uint16_t(w >> 16));
        };
        const auto reg = [&]() { return 1 + pick(29); };  // x1..x29
        put32(lui(31, kData >> 12));
        put32(addi(30, 0, int32_t(3 + pick(6))));
        const size_t loop = halves.size();
        const unsigned n = 8 + pick(40);
        for (unsigned i = 0; i < n; i++) {
            unsigned rd = reg(), a = reg(), b = reg();
            int32_t imm = int32_t(pick(4096)) - 2048;
            switch (pick(16)) {
            case 0:
                put32(addi(rd, 0, 0));
                put32(lui(rd, corner[pick(10)] >> 12));
                put32(addi(rd, rd, int32_t(corner[pick(10)] & 0x7ff)));
                break;
            case 1: put32(r_type(0, b, a, pick(8), rd, 0x33)); break;

            case 2: put32(r_type(0x20, b, a, 0, rd, 0x33)); break;     // sub
            case 3: put32(r_type(0x20, b, a, 5, rd, 0x33)); break;     // sra
            case 4: put32(r_type(1, b, a, pick(8), rd, 0x33)); break;  // M
            case 5: put32(i_type(imm, a, 0, rd, 0x13)); break;
            case 6: {
                const uint32_t f3[] = {2, 3, 4, 6, 7};
                put32(i_type(imm, a, f3[pick(5)], rd, 0x13));
                break;
            }
            case 7: {
                const uint32_t sh = pick(32);
                put32(pick(3) == 0 ? slli(rd, a, sh) : pick(2) ? srli(rd, a, sh) : srai(rd, a, sh));
                break;
            }
            case 8: {
                const uint32_t off = pick(64) * 4;
                const uint32_t k = pick(5);
                const uint32_t f3[] = {0, 1, 2, 4, 5};
                put32(i_type(int32_t(off + (k == 2 ? 0 : pick(4) & (k == 1 || k == 4 ? 2 : 3))), 31,
                             f3[k], rd, 0x03));
                break;
            }
            case 9: {
                const uint32_t f3 = pick(3), off = pick(64) * 4 + (f3 == 0   ? pick(4)
                                                                   : f3 == 1 ? pick(2) * 2
                                                                             : 0);
                put32(s_type(int32_t(off), b, 31, f3, 0x23));
                break;
            }
            case 10: put32(auipc(rd, pick(1 << 20))); break;
            case 11: put32(csrr(rd, pick(2) ? csr::mcycle : csr::minstret)); break;
            case 12: halves.push_back(c_addi(8 + pick(8), int32_t(pick(31)) - 15)); break;
            case 13: halves.push_back(c_mv(rd, b)); break;
            case 14: {  // a forward branch over the next instruction
                static const uint32_t f3[] = {0, 1, 4, 5, 6, 7};
                put32(b_type(8, b, a, f3[pick(6)]));
                put32(addi(rd, a, imm));
                break;
            }
            default: halves.push_back(c_slli(rd, 1 + pick(31))); break;
            }
        }
        put32(addi(30, 30, -1));
        const int32_t back = -int32_t(2 * (halves.size() - loop));
        put32(bne(30, 0, back));
        put32(jal(0, 0));
        both([&](IssMachine &m, rv_cpu *c) {
            for (size_t i = 0; i < halves.size(); i++) m.w16(at + 2 * uint32_t(i), halves[i]);
            for (unsigned k = 1; k < 30; k++)
                rv_cpu_set_reg(c, k, corner[(k * 7 + unsigned(prog)) % 10] ^ uint32_t(k << 20));
            rv_cpu_flush_decode_cache(c);
            rv_cpu_set_pc(c, at);
        });
        const uint64_t c0 = rv_cpu_cycles(r);
        for (uint64_t slice = 1 + pick(40), limit = c0 + slice; limit < c0 + 4000 && !HasFailure();
             limit += slice)
            run_to(limit);
    }
}

INSTANTIATE_TEST_SUITE_P(Engines, EngineTest, ::testing::Values(RV_ENGINE_BLOCK, RV_ENGINE_JIT),
                         [](const ::testing::TestParamInfo<rv_engine> &p) {
                             return std::string(p.param == RV_ENGINE_BLOCK ? "Block" : "Jit");
                         });

}  // namespace
