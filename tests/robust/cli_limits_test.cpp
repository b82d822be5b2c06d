// Command-line limits of issue 12: --max-cycles range, huge tile ids in --firmware.
#include <gtest/gtest.h>

#include "vp/cli.h"
#include "vp/firmware.h"

namespace {

std::string max_cycles_error(const std::string &text) {
    try {
        vp::parse_max_cycles(text);
    } catch (const vp::usage_error &e) {
        return e.what();
    }
    return "";
}

TEST(CliLimits, NegativeMaxCyclesIsRefused) {
    EXPECT_EQ(max_cycles_error("-1"),
              "--max-cycles must be a whole number of cycles in [0, 1000000000000000], got '-1'");
}

TEST(CliLimits, MaxCyclesRange) {
    EXPECT_EQ(vp::parse_max_cycles("0"), 0u);
    EXPECT_EQ(vp::parse_max_cycles("12345"), 12345u);
    EXPECT_EQ(vp::parse_max_cycles("1000000000000000"), vp::max_cycles_limit);
    EXPECT_NE(max_cycles_error("1000000000000001"), "");
    EXPECT_NE(max_cycles_error("18446744073709551616"), "");
    EXPECT_NE(max_cycles_error("1e6"), "");
    EXPECT_NE(max_cycles_error(""), "");
}

TEST(CliLimits, HugeTileIdNamesTheTile) {
    vp::firmware_map map;
    try {
        map.add("99999999999999999999=no.elf", 16);
        FAIL() << "accepted";
    } catch (const vp::firmware_error &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("there is no tile 99999999999999999999 (the mesh has 16"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
