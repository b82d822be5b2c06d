// Debugger support of the ISS (iss/rv32_debug.h): breakpoints stop before the instruction,
// watchpoints before the access of the matching kind, single steps after one instruction, and the
// debug translation has no side effects.
#include "iss/rv32_debug.h"
#include "iss_test_util.h"

using namespace enc;

namespace {

using IssDebugTest = IssTest;

TEST_F(IssDebugTest, BreakpointStopsBeforeTheInstructionAndSkipFirstResumes) {
    m.code(kCode, {addi(1, 0, 1), addi(1, 1, 1), addi(1, 1, 1), jal(0, 0)});
    const uint32_t bp = kCode + 8;
    rv_debug_points p{&bp, 1, nullptr, 0};
    rv_debug_hit hit{};
    ASSERT_EQ(rv_cpu_run_debug(cpu, 1000, &p, false, false, &hit), RV_RUN_DEBUG);
    EXPECT_EQ(hit.reason, RV_DEBUG_BREAKPOINT);
    EXPECT_EQ(pc(), bp);
    EXPECT_EQ(x(1), 2u);  // the third addi has not run
    // Resuming from the breakpoint executes it instead of stopping again.
    EXPECT_EQ(rv_cpu_run_debug(cpu, 20, &p, true, false, &hit), RV_RUN_BUDGET);
    EXPECT_EQ(x(1), 3u);
}

TEST_F(IssDebugTest, SingleStepRunsOneInstruction) {
    m.code(kCode, {addi(1, 0, 5), addi(2, 0, 6), jal(0, 0)});
    rv_debug_hit hit{};
    ASSERT_EQ(rv_cpu_run_debug(cpu, 1000, nullptr, true, true, &hit), RV_RUN_DEBUG);
    EXPECT_EQ(hit.reason, RV_DEBUG_STEP);
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(x(1), 5u);
    EXPECT_EQ(x(2), 0u);
}

TEST_F(IssDebugTest, WatchpointsFireBeforeTheAccessOfTheirKind) {
    set(5, kData);
    set(6, 0x1234);
    m.code(kCode, {lw(7, 5, 0), sw(6, 5, 0), jal(0, 0)});
    const rv_watchpoint write_watch{kData, 4, RV_WATCH_WRITE};
    rv_debug_points p{nullptr, 0, &write_watch, 1};
    rv_debug_hit hit{};
    // The load does not match a write watchpoint; the store does, before it writes.
    ASSERT_EQ(rv_cpu_run_debug(cpu, 1000, &p, false, false, &hit), RV_RUN_DEBUG);
    EXPECT_EQ(hit.reason, RV_DEBUG_WATCHPOINT);
    EXPECT_EQ(hit.watch_kind, unsigned(RV_WATCH_WRITE));
    EXPECT_EQ(hit.watch_addr, kData);
    EXPECT_EQ(pc(), kCode + 4);
    EXPECT_EQ(m.r32(kData), 0u);

    // A read watchpoint on a byte inside the word fires on the load.
    rv_cpu_set_pc(cpu, kCode);
    const rv_watchpoint read_watch{kData + 3, 1, RV_WATCH_READ};
    rv_debug_points r{nullptr, 0, &read_watch, 1};
    ASSERT_EQ(rv_cpu_run_debug(cpu, 1000, &r, false, false, &hit), RV_RUN_DEBUG);
    EXPECT_EQ(hit.watch_kind, unsigned(RV_WATCH_READ));
    EXPECT_EQ(pc(), kCode);

    // No overlap: the run reaches its budget.
    const rv_watchpoint elsewhere{kData + 4, 4, RV_WATCH_ACCESS};
    rv_debug_points e{nullptr, 0, &elsewhere, 1};
    EXPECT_EQ(rv_cpu_run_debug(cpu, 100, &e, false, false, &hit), RV_RUN_BUDGET);
    EXPECT_EQ(m.r32(kData), 0x1234u);
}

TEST_F(IssDebugTest, TranslateIsIdentityWithoutPagingAndCostsNothing) {
    uint32_t pa = 0;
    const uint64_t cycles = rv_cpu_cycles(cpu);
    ASSERT_TRUE(rv_cpu_debug_translate(cpu, kData + 12, &pa));
    EXPECT_EQ(pa, kData + 12);
    EXPECT_EQ(rv_cpu_cycles(cpu), cycles);
}

// The code watch (issue 35): the fast engine returns RV_RUN_WATCH before the first instruction
// in a watched page, the checked loop with leave_code_watch before the first one outside; running
// that way gives the same state as running without a watch (every engine: the ISS tests run once
// per engine).
TEST_F(IssDebugTest, CodeWatchStopsAtPageBordersAndChangesNothing) {
    const uint32_t func = kCode + 0x1000;
    // main: 40 calls of func, then spin; func: x5 += 1, return
    m.code(kCode, {addi(6, 0, 40), jal(1, int32_t(func - (kCode + 4))), addi(6, 6, -1),
                   bne(6, 0, -8), jal(0, 0)});
    m.code(func, {addi(5, 5, 1), jalr(0, 1, 0)});
    m.flush_code();
    const uint32_t range[2] = {func, func + 4};
    ASSERT_EQ(rv_cpu_set_code_watch(cpu, range, 1), 0);
    EXPECT_TRUE(rv_cpu_code_watched(cpu, func + 0x800));  // the whole page
    EXPECT_FALSE(rv_cpu_code_watched(cpu, kCode));
    const uint64_t budget = 2000;
    unsigned into = 0, out_of = 0;
    rv_debug_points leave{};
    leave.leave_code_watch = true;
    rv_debug_hit hit{};
    for (;;) {
        rv_run_status st;
        if (rv_cpu_code_watched(cpu, pc())) {
            st = rv_cpu_run_debug(cpu, budget, &leave, false, false, &hit);
            if (st == RV_RUN_WATCH) {
                ++out_of;
                EXPECT_FALSE(rv_cpu_code_watched(cpu, pc()));
            }
        } else {
            st = rv_cpu_run(cpu, budget);
            if (st == RV_RUN_WATCH) {
                ++into;
                EXPECT_EQ(pc(), func);
            }
        }
        if (st != RV_RUN_WATCH) {
            ASSERT_EQ(st, RV_RUN_BUDGET);
            break;
        }
    }
    EXPECT_EQ(into, 40u);
    EXPECT_EQ(out_of, 40u);
    EXPECT_EQ(x(5), 40u);
    const uint64_t cycles = rv_cpu_cycles(cpu), instret = rv_cpu_instret(cpu);

    // the same without a watch
    ASSERT_EQ(rv_cpu_set_code_watch(cpu, nullptr, 0), 0);
    IssMachine other;
    rv_cpu *ref = other.add_hart(0, kCode);
    other.code(kCode, {addi(6, 0, 40), jal(1, int32_t(func - (kCode + 4))), addi(6, 6, -1),
                       bne(6, 0, -8), jal(0, 0)});
    other.code(func, {addi(5, 5, 1), jalr(0, 1, 0)});
    other.flush_code();
    ASSERT_EQ(rv_cpu_run(ref, budget), RV_RUN_BUDGET);
    EXPECT_EQ(rv_cpu_cycles(ref), cycles);
    EXPECT_EQ(rv_cpu_instret(ref), instret);
    EXPECT_EQ(rv_cpu_get_reg(ref, 5), 40u);
    EXPECT_EQ(rv_cpu_get_pc(ref), pc());
}

// Steps count every rv_cpu_step: instructions retired, exceptions and interrupts taken; a replay
// target stops before the step that would pass it.
TEST_F(IssDebugTest, StepsCountTrapsAndTargetsStopBeforeTheStep) {
    m.code(kCode, {addi(1, 0, 1), ecall(), addi(1, 1, 1), jal(0, 0)});
    m.code(kMtvec, {csrr(2, csr::mepc), addi(2, 2, 4), csrw(csr::mepc, 2), 0x30200073 /* mret */});
    m.flush_code();
    EXPECT_EQ(rv_cpu_steps(cpu), 0u);
    steps(2);  // addi, ecall (an exception: no instruction retired)
    EXPECT_EQ(rv_cpu_steps(cpu), 2u);
    EXPECT_EQ(rv_cpu_instret(cpu), 1u);
    rv_debug_points target{};
    target.has_target = true;
    target.target_steps = 6;
    rv_debug_hit hit{};
    ASSERT_EQ(rv_cpu_run_debug(cpu, 1000, &target, false, false, &hit), RV_RUN_DEBUG);
    EXPECT_EQ(hit.reason, RV_DEBUG_TARGET);
    EXPECT_EQ(rv_cpu_steps(cpu), 6u);
    EXPECT_EQ(pc(), kCode + 8);  // the four handler instructions ran, the addi after ecall not yet
}

// What the commit log is made of: registers, CSRs and memory an instruction wrote, its privilege.
TEST_F(IssDebugTest, CommitReportsTheResultsOfAnInstruction) {
    set(5, kData);
    set(6, 7);
    m.w32(kData, 5);
    m.code(kCode, {amoadd_w(7, 6, 5), sw(6, 5, 4), csrrw(8, csr::mscratch, 6), ecall(), jal(0, 0)});
    m.flush_code();
    rv_commit c;
    rv_cpu_commit_begin(cpu, &c);
    step();
    rv_cpu_commit_end(cpu, &c);
    EXPECT_TRUE(c.retired);
    EXPECT_EQ(c.rd, 7u);
    EXPECT_EQ(c.rd_value, 5u);
    EXPECT_TRUE(c.load && c.store);
    EXPECT_EQ(c.addr, kData);
    EXPECT_EQ(c.store_value, 12u);
    EXPECT_EQ(c.bits, amoadd_w(7, 6, 5));
    EXPECT_EQ(c.priv, RV_PRIV_M);
    rv_cpu_commit_begin(cpu, &c);
    step();
    rv_cpu_commit_end(cpu, &c);
    EXPECT_TRUE(c.store && !c.load);
    EXPECT_EQ(c.rd, 0u);
    EXPECT_EQ(c.addr, kData + 4);
    EXPECT_EQ(c.size, 4u);
    EXPECT_EQ(c.store_value, 7u);
    rv_cpu_commit_begin(cpu, &c);
    step();
    rv_cpu_commit_end(cpu, &c);
    EXPECT_EQ(c.rd, 8u);
    ASSERT_EQ(c.csr_count, 1u);
    EXPECT_EQ(c.csr[0], csr::mscratch);
    EXPECT_EQ(c.csr_value[0], 7u);
    rv_cpu_commit_begin(cpu, &c);
    step();  // ecall: a trap commits nothing
    rv_cpu_commit_end(cpu, &c);
    EXPECT_FALSE(c.retired);
}

TEST_F(IssDebugTest, NextWriteGivesTheBytesAStoreOrAmoWillWrite) {
    set(5, kData);
    set(6, 0x11223344);
    m.w32(kData, 0x10);
    m.code(kCode, {sb(6, 5, 2), amoadd_w(7, 6, 5), lw(7, 5, 0)});
    m.flush_code();
    uint32_t addr = 0, len = 0, value = 0;
    ASSERT_TRUE(rv_cpu_debug_next_write(cpu, &addr, &len, &value));
    EXPECT_EQ(addr, kData + 2);
    EXPECT_EQ(len, 1u);
    EXPECT_EQ(value, 0x44u);
    step();
    ASSERT_TRUE(rv_cpu_debug_next_write(cpu, &addr, &len, &value));
    EXPECT_EQ(addr, kData);
    EXPECT_EQ(value, m.r32(kData) + 0x11223344u);
    step();
    EXPECT_FALSE(rv_cpu_debug_next_write(cpu, &addr, &len, &value));  // a load writes nothing
}

}  // namespace
