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

}  // namespace
