// Reset with an odd pc (issue 12): bit 0 of the pc does not exist with IALIGN 16, as in
// rv_cpu_set_pc. From the last byte of a DMI region the decode cache had read past the host
// buffer (an ASan heap-buffer-overflow); now the hart starts at the halfword below.
#include <gtest/gtest.h>

#include "iss_harness.h"
#include "rv_encode.h"

namespace {

TEST(IssReset, OddResetPcDropsBitZero) {
    IssMachine m(4096);
    rv_cpu *cpu = m.add_hart(0, IssMachine::kRamBase + 4095);
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(rv_cpu_get_pc(cpu), IssMachine::kRamBase + 4094);
    rv_cpu_reset(cpu, IssMachine::kRamBase + 1);
    EXPECT_EQ(rv_cpu_get_pc(cpu), IssMachine::kRamBase);
}

// The last halfword of the region holds a compressed instruction: it executes, nothing is read
// past the region (ASan would report it in the sanitizer build).
TEST(IssReset, RunFromTheLastHalfwordOfRam) {
    IssMachine m(4096);
    m.w16(IssMachine::kRamBase + 4094, 0x0001);  // c.nop
    rv_cpu *cpu = m.add_hart(0, IssMachine::kRamBase + 4095);
    ASSERT_NE(cpu, nullptr);
    rv_cpu_step(cpu);
    EXPECT_EQ(rv_cpu_instret(cpu), 1u);
    EXPECT_EQ(rv_cpu_get_pc(cpu), IssMachine::kRamBase + 4096);
}

}  // namespace
