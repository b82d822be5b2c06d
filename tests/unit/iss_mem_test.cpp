// Loads and stores: widths, sign/zero extension, misalignment, bus (non-DMI) path, access faults.
#include "iss_test_util.h"

using namespace enc;

namespace {

using IssMemTest = IssTest;

TEST_F(IssMemTest, LoadsSignAndZeroExtend) {
    m.w32(kData, 0x8081f2f3);  // bytes f3 f2 81 80
    set(1, kData);
    exec(lb(3, 1, 0));
    EXPECT_EQ(x(3), 0xfffffff3u);
    exec(lbu(3, 1, 0));
    EXPECT_EQ(x(3), 0xf3u);
    exec(lb(3, 1, 3));
    EXPECT_EQ(x(3), 0xffffff80u);
    exec(lh(3, 1, 0));
    EXPECT_EQ(x(3), 0xfffff2f3u);
    exec(lhu(3, 1, 0));
    EXPECT_EQ(x(3), 0xf2f3u);
    exec(lh(3, 1, 2));
    EXPECT_EQ(x(3), 0xffff8081u);
    exec(lhu(3, 1, 2));
    EXPECT_EQ(x(3), 0x8081u);
    exec(lw(3, 1, 0));
    EXPECT_EQ(x(3), 0x8081f2f3u);
    m.w32(kData + 4, 0x017f7f01);
    exec(lb(3, 1, 5));
    EXPECT_EQ(x(3), 0x7fu);
    exec(lh(3, 1, 4));
    EXPECT_EQ(x(3), 0x7f01u);
}

TEST_F(IssMemTest, LoadStoreOffsets) {
    set(1, kData + 0x800);
    m.w32(kData, 0x11111111);
    m.w32(kData + 0x800 + 0x7fc, 0x22222222);
    exec(lw(3, 1, -2048));
    EXPECT_EQ(x(3), 0x11111111u);
    exec(lw(3, 1, 2044));
    EXPECT_EQ(x(3), 0x22222222u);
    set(5, 0xa5a5a5a5);
    exec(sw(5, 1, -2048));
    EXPECT_EQ(m.r32(kData), 0xa5a5a5a5u);
}

TEST_F(IssMemTest, StoresOfAllWidths) {
    m.w32(kData, 0xffffffff);
    m.w32(kData + 4, 0xffffffff);
    set(1, kData);
    set(5, 0x12345678);
    exec(sb(5, 1, 1));
    EXPECT_EQ(m.r32(kData), 0xffff78ffu);
    exec(sh(5, 1, 2));
    EXPECT_EQ(m.r32(kData), 0x567878ffu);
    exec(sw(5, 1, 4));
    EXPECT_EQ(m.r32(kData + 4), 0x12345678u);
    exec(sb(0, 1, 0));
    EXPECT_EQ(m.r32(kData), 0x56787800u);
    const rv_cpu_stats *s = rv_cpu_get_stats(cpu);
    EXPECT_GE(s->stores, 4u);
}

TEST_F(IssMemTest, LoadToX0IsDiscarded) {
    m.w32(kData, 0x1234);
    set(1, kData);
    exec(lw(0, 1, 0));
    EXPECT_EQ(x(0), 0u);
    EXPECT_EQ(pc(), kCode + 4);
}

TEST_F(IssMemTest, MisalignedLoadsTrap) {
    struct C {
        uint32_t insn;
        uint32_t off;
    } cases[] = {
        {lh(3, 1, 1), 1}, {lhu(3, 1, 3), 3}, {lw(3, 1, 1), 1}, {lw(3, 1, 2), 2}, {lw(3, 1, 3), 3}};
    for (auto c : cases) {
        wr_csr(csr::mstatus, 0);
        set(1, kData);
        set(3, 0x5555);
        exec(c.insn);
        expect_mtrap(RV_EXC_LOAD_MISALIGNED, kCode, kData + c.off);
        EXPECT_EQ(x(3), 0x5555u) << "destination written by a trapping load";
    }
}

TEST_F(IssMemTest, MisalignedStoresTrap) {
    m.w32(kData, 0);
    m.w32(kData + 4, 0);
    struct C {
        uint32_t insn;
        uint32_t off;
    } cases[] = {{sh(5, 1, 1), 1}, {sw(5, 1, 2), 2}, {sw(5, 1, 7), 7}};
    for (auto c : cases) {
        wr_csr(csr::mstatus, 0);
        set(1, kData);
        set(5, 0xffffffff);
        exec(c.insn);
        expect_mtrap(RV_EXC_STORE_MISALIGNED, kCode, kData + c.off);
    }
    EXPECT_EQ(m.r32(kData), 0u);
    EXPECT_EQ(m.r32(kData + 4), 0u);
}

TEST_F(IssMemTest, BusPathLoadsAndStores) {
    m.device_latency = 0;
    set(1, IssMachine::kBusRamBase);
    set(5, 0xcafe8001);
    exec(sw(5, 1, 8));
    EXPECT_EQ(m.r32(IssMachine::kBusRamBase + 8), 0xcafe8001u);
    exec(lb(3, 1, 8));
    EXPECT_EQ(x(3), 0x1u);
    exec(lh(3, 1, 8));
    EXPECT_EQ(x(3), 0xffff8001u);
    exec(lhu(3, 1, 10));
    EXPECT_EQ(x(3), 0xcafeu);
    exec(lw(3, 1, 8));
    EXPECT_EQ(x(3), 0xcafe8001u);
    exec(sb(5, 1, 0));
    exec(sh(5, 1, 2));
    EXPECT_EQ(m.r32(IssMachine::kBusRamBase), 0x80010001u);
    ASSERT_FALSE(m.bus_log.empty());
    const auto &last = m.bus_log.back();
    EXPECT_EQ(last.kind, RV_ACCESS_WRITE);
    EXPECT_EQ(last.addr, IssMachine::kBusRamBase + 2);
    EXPECT_EQ(last.len, 2u);
    EXPECT_EQ(last.data & 0xffff, 0x8001u);
}

TEST_F(IssMemTest, LoadAccessFault) {
    set(1, 0x30000000);
    set(3, 0x77);
    exec(lw(3, 1, 4));
    expect_mtrap(RV_EXC_LOAD_ACCESS, kCode, 0x30000004);
    EXPECT_EQ(x(3), 0x77u);
    EXPECT_EQ(rv_cpu_get_stats(cpu)->exceptions_by_cause[RV_EXC_LOAD_ACCESS], 1u);
    ASSERT_EQ(m.traps.size(), 1u);
    EXPECT_EQ(m.traps[0].cause, uint32_t(RV_EXC_LOAD_ACCESS));
    EXPECT_EQ(m.traps[0].epc, kCode);
    EXPECT_EQ(m.traps[0].tval, 0x30000004u);
}

TEST_F(IssMemTest, StoreAccessFault) {
    set(1, 0x30000000);
    exec(sb(3, 1, 1));
    expect_mtrap(RV_EXC_STORE_ACCESS, kCode, 0x30000001);
    // Unmapped gap right after the RAM
    wr_csr(csr::mstatus, 0);
    set(1, IssMachine::kRamBase + uint32_t(m.ram.size()));
    exec(sw(3, 1, 0));
    expect_mtrap(RV_EXC_STORE_ACCESS, kCode, IssMachine::kRamBase + uint32_t(m.ram.size()));
}

TEST_F(IssMemTest, FetchAccessFault) {
    set(1, 0x30000000);
    exec(jalr(0, 1, 0));
    EXPECT_EQ(pc(), 0x30000000u);
    step();
    expect_mtrap(RV_EXC_INSN_ACCESS, 0x30000000, 0x30000000);
}

TEST_F(IssMemTest, FetchThroughBus) {
    // Code in the bus-only RAM runs through the bus callback (no DMI).
    m.code(IssMachine::kBusRamBase, {addi(5, 0, 33), addi(5, 5, 1)});
    rv_cpu_set_pc(cpu, IssMachine::kBusRamBase);
    steps(2);
    EXPECT_EQ(x(5), 34u);
    EXPECT_EQ(pc(), IssMachine::kBusRamBase + 8);
    bool fetched = false;
    for (const auto &a : m.bus_log)
        fetched |= a.kind == RV_ACCESS_FETCH && a.addr == IssMachine::kBusRamBase;
    EXPECT_TRUE(fetched);
}

TEST_F(IssMemTest, LockupWhenTrapVectorIsUnfetchable) {
    wr_csr(csr::mtvec, 0x30000000);
    set(1, 0x30000000);
    load({lw(3, 1, 0)});
    EXPECT_EQ(rv_cpu_run(cpu, 1000), RV_RUN_LOCKUP);
    uint32_t cause = 0, lpc = 0, tval = 0;
    rv_cpu_lockup(cpu, &cause, &lpc, &tval);
    EXPECT_EQ(cause, uint32_t(RV_EXC_INSN_ACCESS));
    EXPECT_EQ(lpc, 0x30000000u);
    EXPECT_EQ(tval, 0x30000000u);
}

TEST_F(IssMemTest, DmiConfiguration) {
    // Overlapping regions are refused; a second disjoint one is accepted.
    static uint8_t extra[4096];
    EXPECT_EQ(rv_cpu_add_dmi(cpu, IssMachine::kRamBase + 0x1000, 0x1000, extra, 0, 0), -1);
    EXPECT_EQ(rv_cpu_add_dmi(cpu, 0x60000000, sizeof extra, extra, 0, 0), 0);
    extra[0] = 0x5a;
    set(1, 0x60000000);
    exec(lbu(3, 1, 0));
    EXPECT_EQ(x(3), 0x5au);
}

TEST_F(IssMemTest, CreateRejectsBadConfig) {
    rv_config cfg{};
    cfg.reservations = &m.reservations;
    EXPECT_EQ(rv_cpu_create(&cfg), nullptr) << "no bus callback";
    EXPECT_EQ(rv_cpu_create(nullptr), nullptr);
    cfg.bus_access = [](void *, rv_cpu *, rv_access, uint32_t, void *, uint32_t, uint32_t *) {
        return 1;
    };
    cfg.reservations = nullptr;
    EXPECT_EQ(rv_cpu_create(&cfg), nullptr) << "no reservation set";
    cfg.reservations = &m.reservations;
    cfg.hart_id = RV_MAX_HARTS;  // beyond the reservation set
    EXPECT_EQ(rv_cpu_create(&cfg), nullptr) << "hart id outside the reservation set";
    cfg.hart_id = 1;
    rv_cpu *ok = rv_cpu_create(&cfg);
    EXPECT_NE(ok, nullptr);
    rv_cpu_destroy(ok);
}

}  // namespace
