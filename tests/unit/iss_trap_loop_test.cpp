// A trap handler that traps at once, with trap entry costing 0 cycles (found by fuzz_iss): every
// trap must still move the cycle count on, or rv_cpu_run never reaches its budget and the host
// hangs (ctest's timeout would end this test as a failure).
#include <gtest/gtest.h>

#include "iss_harness.h"

namespace {

TEST(IssTrapLoop, ZeroCostTrapsStillReachTheBudget) {
    IssMachine m(4096);  // unit timing: trap entry 0 cycles
    rv_cpu *cpu = m.add_hart(0, IssMachine::kRamBase);
    ASSERT_NE(cpu, nullptr);
    m.w32(IssMachine::kRamBase, 0);  // illegal instruction, and mtvec points at it
    ASSERT_TRUE(rv_cpu_write_csr(cpu, 0x305, IssMachine::kRamBase));
    EXPECT_EQ(rv_cpu_run(cpu, 1000), RV_RUN_BUDGET);
    EXPECT_EQ(rv_cpu_cycles(cpu), 1000u);
    EXPECT_EQ(m.traps.size(), 1000u);  // one cycle per trap
}

}  // namespace
