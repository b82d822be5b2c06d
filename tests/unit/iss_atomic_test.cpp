// A extension: LR/SC with a reservation set shared by two harts, every AMO, misaligned atomics.
#include "iss_test_util.h"

using namespace enc;

namespace {

class IssAtomicTest : public IssTest {
protected:
    void SetUp() override {
        IssTest::SetUp();
        cpu1 = m.add_hart(1, kCode + 0x3000);
        ASSERT_NE(cpu1, nullptr);
    }
    // Executes one instruction on hart 1 (code at kCode + 0x3000).
    void exec1(uint32_t insn) {
        m.code(kCode + 0x3000, {insn});
        m.flush_code();
        rv_cpu_set_pc(cpu1, kCode + 0x3000);
        rv_cpu_step(cpu1);
    }
    // amo rd=x3, rs2=x2, rs1=x1 on mem value old with operand b; returns (rd, new mem)
    std::pair<uint32_t, uint32_t> amo_op(uint32_t insn, uint32_t old, uint32_t b) {
        m.w32(kData, old);
        set(1, kData);
        set(2, b);
        exec(insn);
        EXPECT_EQ(pc(), kCode + 4);
        return {x(3), m.r32(kData)};
    }
    rv_cpu *cpu1 = nullptr;
};

TEST_F(IssAtomicTest, LrScSuccess) {
    m.w32(kData, 100);
    set(10, kData);
    set(7, 200);
    load({lr_w(5, 10), sc_w(6, 7, 10)});
    steps(2);
    EXPECT_EQ(x(5), 100u);
    EXPECT_EQ(x(6), 0u) << "sc.w should succeed";
    EXPECT_EQ(m.r32(kData), 200u);
    // the reservation is consumed: a second sc fails
    set(7, 300);
    load({sc_w(6, 7, 10)});
    step();
    EXPECT_NE(x(6), 0u);
    EXPECT_EQ(m.r32(kData), 200u);
}

TEST_F(IssAtomicTest, ScWithoutReservationFails) {
    m.w32(kData, 1);
    set(10, kData);
    set(7, 2);
    exec(sc_w(6, 7, 10));
    EXPECT_EQ(x(6), 1u);
    EXPECT_EQ(m.r32(kData), 1u);
}

TEST_F(IssAtomicTest, ScToOtherAddressFails) {
    m.w32(kData, 1);
    m.w32(kData + 8, 5);
    set(10, kData);
    set(11, kData + 8);
    set(7, 2);
    load({lr_w(5, 10), sc_w(6, 7, 11)});
    steps(2);
    EXPECT_NE(x(6), 0u);
    EXPECT_EQ(m.r32(kData + 8), 5u);
}

TEST_F(IssAtomicTest, ReservationBrokenByOtherHartStore) {
    m.w32(kData, 10);
    set(10, kData);
    set(7, 20);
    load({lr_w(5, 10), sc_w(6, 7, 10)});
    step();  // lr on hart 0
    EXPECT_TRUE(m.reservations.valid_mask & 1u);
    rv_cpu_set_reg(cpu1, 1, kData);
    rv_cpu_set_reg(cpu1, 2, 99);
    exec1(sw(2, 1, 0));  // hart 1 stores to the reserved word
    EXPECT_EQ(m.r32(kData), 99u);
    step();  // sc on hart 0
    EXPECT_NE(x(6), 0u) << "sc.w succeeded although hart 1 wrote the reserved word";
    EXPECT_EQ(m.r32(kData), 99u);
}

TEST_F(IssAtomicTest, ReservationBrokenByOtherHartByteStoreAndAmo) {
    m.w32(kData, 10);
    set(10, kData);
    set(7, 20);
    load({lr_w(5, 10), sc_w(6, 7, 10)});
    step();
    rv_cpu_set_reg(cpu1, 1, kData + 3);
    rv_cpu_set_reg(cpu1, 2, 0x7f);
    exec1(sb(2, 1, 0));  // one byte of the granule
    step();
    EXPECT_NE(x(6), 0u);

    load({lr_w(5, 10), sc_w(6, 7, 10)});
    step();
    rv_cpu_set_reg(cpu1, 1, kData);
    rv_cpu_set_reg(cpu1, 2, 1);
    exec1(amoadd_w(3, 2, 1));
    step();
    EXPECT_NE(x(6), 0u) << "sc.w succeeded after an AMO of hart 1";
}

TEST_F(IssAtomicTest, OtherHartStoreElsewhereKeepsReservation) {
    m.w32(kData, 10);
    set(10, kData);
    set(7, 20);
    load({lr_w(5, 10), sc_w(6, 7, 10)});
    step();
    rv_cpu_set_reg(cpu1, 1, kData + 4);  // next granule
    rv_cpu_set_reg(cpu1, 2, 1);
    exec1(sw(2, 1, 0));
    step();
    EXPECT_EQ(x(6), 0u);
    EXPECT_EQ(m.r32(kData), 20u);
}

TEST_F(IssAtomicTest, BothHartsReserveOnlyFirstScWins) {
    m.w32(kData, 0);
    set(10, kData);
    set(7, 1);
    rv_cpu_set_reg(cpu1, 10, kData);
    rv_cpu_set_reg(cpu1, 7, 2);
    load({lr_w(5, 10), sc_w(6, 7, 10)});
    m.code(kCode + 0x3000, {lr_w(5, 10), sc_w(6, 7, 10)});
    m.flush_code();
    rv_cpu_set_pc(cpu1, kCode + 0x3000);
    step();             // hart 0 lr
    rv_cpu_step(cpu1);  // hart 1 lr
    EXPECT_EQ(m.reservations.valid_mask & 3u, 3u);
    rv_cpu_step(cpu1);  // hart 1 sc: succeeds, breaks hart 0's reservation
    EXPECT_EQ(rv_cpu_get_reg(cpu1, 6), 0u);
    step();  // hart 0 sc: fails
    EXPECT_NE(x(6), 0u);
    EXPECT_EQ(m.r32(kData), 2u);
}

TEST_F(IssAtomicTest, ReservationBrokenByInvalidate) {
    m.w32(kData, 10);
    set(10, kData);
    set(7, 20);
    load({lr_w(5, 10), sc_w(6, 7, 10)});
    step();
    rv_reservations_invalidate(&m.reservations, kData + 2, 1);  // another bus master
    step();
    EXPECT_NE(x(6), 0u);
    EXPECT_EQ(m.r32(kData), 10u);

    // invalidating a neighbouring range does not break it
    load({lr_w(5, 10), sc_w(6, 7, 10)});
    step();
    rv_reservations_invalidate(&m.reservations, kData + 4, 4);
    rv_reservations_invalidate(&m.reservations, kData - 4, 4);
    step();
    EXPECT_EQ(x(6), 0u);
    EXPECT_EQ(m.r32(kData), 20u);
}

TEST_F(IssAtomicTest, ReservationBrokenByOwnStore) {
    m.w32(kData, 10);
    set(10, kData);
    set(7, 20);
    set(8, 30);
    load({lr_w(5, 10), sw(8, 10, 0), sc_w(6, 7, 10)});
    steps(3);
    EXPECT_NE(x(6), 0u);
    EXPECT_EQ(m.r32(kData), 30u);
}

TEST_F(IssAtomicTest, ReservationsInitAndInvalidateApi) {
    rv_reservation_set s;
    rv_reservations_init(&s);
    EXPECT_EQ(s.valid_mask, 0u);
    s.addr[3] = 0x80000010;
    s.valid_mask = 1u << 3;
    rv_reservations_invalidate(&s, 0x80000014, 4);
    EXPECT_EQ(s.valid_mask, 1u << 3);
    rv_reservations_invalidate(&s, 0x8000000c, 8);  // overlaps 0x10..0x13
    EXPECT_EQ(s.valid_mask, 0u);
}

TEST_F(IssAtomicTest, AmoOperations) {
    using P = std::pair<uint32_t, uint32_t>;
    EXPECT_EQ(amo_op(amoswap_w(3, 2, 1), 0x11111111, 0x22222222), P(0x11111111, 0x22222222));
    EXPECT_EQ(amo_op(amoadd_w(3, 2, 1), 0xfffffffe, 3), P(0xfffffffe, 1));
    EXPECT_EQ(amo_op(amoxor_w(3, 2, 1), 0xff00ff00, 0x0ff00ff0), P(0xff00ff00, 0xf0f0f0f0));
    EXPECT_EQ(amo_op(amoand_w(3, 2, 1), 0xff00ff00, 0x0ff00ff0), P(0xff00ff00, 0x0f000f00));
    EXPECT_EQ(amo_op(amoor_w(3, 2, 1), 0xff00ff00, 0x0ff00ff0), P(0xff00ff00, 0xfff0fff0));
    EXPECT_EQ(amo_op(amomin_w(3, 2, 1), 0xfffffff0, 5), P(0xfffffff0, 0xfffffff0));  // -16 < 5
    EXPECT_EQ(amo_op(amomin_w(3, 2, 1), 7, 5), P(7, 5));
    EXPECT_EQ(amo_op(amomax_w(3, 2, 1), 0xfffffff0, 5), P(0xfffffff0, 5));
    EXPECT_EQ(amo_op(amomax_w(3, 2, 1), 0x80000000, 0x7fffffff), P(0x80000000, 0x7fffffff));
    EXPECT_EQ(amo_op(amominu_w(3, 2, 1), 0xfffffff0, 5), P(0xfffffff0, 5));
    EXPECT_EQ(amo_op(amomaxu_w(3, 2, 1), 0xfffffff0, 5), P(0xfffffff0, 0xfffffff0));
    EXPECT_EQ(amo_op(amomaxu_w(3, 2, 1), 0, 0x80000000), P(0, 0x80000000));
    // aq/rl bits do not change the result
    EXPECT_EQ(amo_op(amo(0x00, 3, 2, 1, true, true), 40, 2), P(40, 42));
    // rd = x0 still performs the update
    m.w32(kData, 5);
    set(1, kData);
    set(2, 6);
    exec(amoadd_w(0, 2, 1));
    EXPECT_EQ(m.r32(kData), 11u);
    EXPECT_EQ(x(0), 0u);
    // rd == rs2: rd gets the old value, memory gets op(old, old rs2)
    m.w32(kData, 5);
    set(2, 6);
    exec(amoswap_w(2, 2, 1));
    EXPECT_EQ(x(2), 5u);
    EXPECT_EQ(m.r32(kData), 6u);
    EXPECT_GE(rv_cpu_get_stats(cpu)->atomics, 15u);
}

TEST_F(IssAtomicTest, MisalignedAmoIsStoreMisaligned) {
    for (uint32_t insn :
         {amoadd_w(3, 2, 1), amoswap_w(3, 2, 1), amomaxu_w(3, 2, 1), sc_w(3, 2, 1)}) {
        wr_csr(csr::mstatus, 0);
        m.w32(kData, 0);
        m.w32(kData + 4, 0);
        set(1, kData + 2);
        set(2, 0xffffffff);
        set(3, 0x1234);
        exec(insn);
        expect_mtrap(RV_EXC_STORE_MISALIGNED, kCode, kData + 2);
        EXPECT_EQ(x(3), 0x1234u);
        EXPECT_EQ(m.r32(kData), 0u);
        EXPECT_EQ(m.r32(kData + 4), 0u);
    }
}

TEST_F(IssAtomicTest, MisalignedLrIsLoadMisaligned) {
    set(1, kData + 1);
    exec(lr_w(3, 1));
    expect_mtrap(RV_EXC_LOAD_MISALIGNED, kCode, kData + 1);
}

TEST_F(IssAtomicTest, AmoAccessFault) {
    set(1, 0x30000000);
    exec(amoadd_w(3, 2, 1));
    expect_mtrap(RV_EXC_STORE_ACCESS, kCode, 0x30000000);
}

TEST_F(IssAtomicTest, AmoOnBusRam) {
    m.w32(IssMachine::kBusRamBase + 16, 40);
    set(1, IssMachine::kBusRamBase + 16);
    set(2, 2);
    exec(amoadd_w(3, 2, 1));
    EXPECT_EQ(x(3), 40u);
    EXPECT_EQ(m.r32(IssMachine::kBusRamBase + 16), 42u);
}

}  // namespace
