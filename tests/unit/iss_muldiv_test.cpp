// M extension: multiplication (all high-part sign combinations) and division edge cases.
#include "iss_test_util.h"

#include <cstdint>

using namespace enc;

namespace {

class IssMulDivTest : public IssTest {
protected:
    uint32_t rr(uint32_t insn, uint32_t a, uint32_t b) {
        set(1, a);
        set(2, b);
        set(3, 0xcccccccc);
        exec(insn);
        EXPECT_EQ(pc(), kCode + 4);
        return x(3);
    }
};

TEST_F(IssMulDivTest, Mul) {
    EXPECT_EQ(rr(mul(3, 1, 2), 6, 7), 42u);
    EXPECT_EQ(rr(mul(3, 1, 2), uint32_t(-6), 7), uint32_t(-42));
    EXPECT_EQ(rr(mul(3, 1, 2), 0x80000000, 0xffffffff), 0x80000000u);
    EXPECT_EQ(rr(mul(3, 1, 2), 0x12345678, 0x9abcdef0), uint32_t(0x12345678ull * 0x9abcdef0ull));
}

TEST_F(IssMulDivTest, MulHighSigns) {
    const uint32_t vals[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678, 0xfedcba98};
    for (uint32_t a : vals) {
        for (uint32_t b : vals) {
            int64_t ss = int64_t(int32_t(a)) * int64_t(int32_t(b));
            uint64_t uu = uint64_t(a) * uint64_t(b);
            int64_t su = int64_t(int32_t(a)) * int64_t(uint64_t(b));
            EXPECT_EQ(rr(mulh(3, 1, 2), a, b), uint32_t(uint64_t(ss) >> 32))
                << std::hex << a << " " << b;
            EXPECT_EQ(rr(mulhu(3, 1, 2), a, b), uint32_t(uu >> 32)) << std::hex << a << " " << b;
            EXPECT_EQ(rr(mulhsu(3, 1, 2), a, b), uint32_t(uint64_t(su) >> 32))
                << std::hex << a << " " << b;
        }
    }
    // spot checks with known values
    EXPECT_EQ(rr(mulh(3, 1, 2), 0xffffffff, 0xffffffff), 0u);  // -1 * -1 = 1
    EXPECT_EQ(rr(mulhu(3, 1, 2), 0xffffffff, 0xffffffff), 0xfffffffeu);
    EXPECT_EQ(rr(mulhsu(3, 1, 2), 0xffffffff, 0xffffffff), 0xffffffffu);  // -1 * (2^32-1)
    EXPECT_EQ(rr(mulhsu(3, 1, 2), 0x80000000, 0xffffffff), 0x80000000u);
    EXPECT_EQ(rr(mulh(3, 1, 2), 0x80000000, 0x80000000), 0x40000000u);
}

TEST_F(IssMulDivTest, Division) {
    EXPECT_EQ(rr(div(3, 1, 2), 20, 6), 3u);
    EXPECT_EQ(rr(div(3, 1, 2), uint32_t(-20), 6), uint32_t(-3));  // rounds toward zero
    EXPECT_EQ(rr(div(3, 1, 2), 20, uint32_t(-6)), uint32_t(-3));
    EXPECT_EQ(rr(div(3, 1, 2), uint32_t(-20), uint32_t(-6)), 3u);
    EXPECT_EQ(rr(divu(3, 1, 2), uint32_t(-20), 6), 0xffffffecu / 6);
    EXPECT_EQ(rr(rem(3, 1, 2), 20, 6), 2u);
    EXPECT_EQ(rr(rem(3, 1, 2), uint32_t(-20), 6), uint32_t(-2));  // sign of the dividend
    EXPECT_EQ(rr(rem(3, 1, 2), 20, uint32_t(-6)), 2u);
    EXPECT_EQ(rr(remu(3, 1, 2), uint32_t(-20), 6), 0xffffffecu % 6);
}

TEST_F(IssMulDivTest, DivisionByZero) {
    EXPECT_EQ(rr(div(3, 1, 2), 123, 0), 0xffffffffu);
    EXPECT_EQ(rr(div(3, 1, 2), uint32_t(-123), 0), 0xffffffffu);
    EXPECT_EQ(rr(divu(3, 1, 2), 123, 0), 0xffffffffu);
    EXPECT_EQ(rr(rem(3, 1, 2), uint32_t(-123), 0), uint32_t(-123));
    EXPECT_EQ(rr(remu(3, 1, 2), 123, 0), 123u);
    EXPECT_EQ(rr(div(3, 1, 2), 0, 0), 0xffffffffu);
    EXPECT_EQ(rr(rem(3, 1, 2), 0, 0), 0u);
    // no trap
    EXPECT_EQ(rv_cpu_get_stats(cpu)->exceptions, 0u);
}

TEST_F(IssMulDivTest, SignedOverflow) {
    EXPECT_EQ(rr(div(3, 1, 2), 0x80000000, 0xffffffff), 0x80000000u);
    EXPECT_EQ(rr(rem(3, 1, 2), 0x80000000, 0xffffffff), 0u);
    EXPECT_EQ(rr(divu(3, 1, 2), 0x80000000, 0xffffffff), 0u);
    EXPECT_EQ(rr(remu(3, 1, 2), 0x80000000, 0xffffffff), 0x80000000u);
}

TEST_F(IssMulDivTest, SameSourceAndDestination) {
    set(1, 7);
    exec(mul(1, 1, 1));
    EXPECT_EQ(x(1), 49u);
    set(1, 49);
    exec(div(1, 1, 1));
    EXPECT_EQ(x(1), 1u);
}

}  // namespace
