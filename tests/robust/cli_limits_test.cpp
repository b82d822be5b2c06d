// Command-line limits of issue 12: --max-cycles range, huge tile ids in --firmware; --args
// (issue 23): splitting, the block crt0 reads, per-tile and all-tile arguments.
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

std::string args_error(vp::firmware_map &map, const std::string &argument) {
    try {
        map.add_args(argument, 16);
    } catch (const vp::firmware_error &e) {
        return e.what();
    }
    return "";
}

TEST(CliArgs, SplitsWordsAndQuotes) {
    using v = std::vector<std::string>;
    EXPECT_EQ(vp::split_args(""), v{});
    EXPECT_EQ(vp::split_args("  -m 1:4096\t -x  10 "), (v{"-m", "1:4096", "-x", "10"}));
    EXPECT_EQ(vp::split_args("a 'b c' \"d 'e'\" f''g ''"), (v{"a", "b c", "d 'e'", "fg", ""}));
    EXPECT_THROW(vp::split_args("a 'b"), vp::firmware_error);
}

TEST(CliArgs, BlockLayout) {
    const auto b = vp::build_args_block({"fw.elf", "-x", ""}, 0x80001000, 1024);
    auto word = [&b](size_t at) {
        return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
               uint32_t(b[at + 3]) << 24;
    };
    ASSERT_EQ(b.size(), 4u * 5 + 7 + 3 + 1);
    EXPECT_EQ(word(0), 3u);                // argc
    EXPECT_EQ(word(4), 0x80001000u + 20);  // argv[0] right after argc, 3 pointers and NULL
    EXPECT_EQ(word(8), 0x80001000u + 27);
    EXPECT_EQ(word(12), 0x80001000u + 30);
    EXPECT_EQ(word(16), 0u);  // argv[argc] == NULL
    EXPECT_EQ(std::string(reinterpret_cast<const char *>(&b[20])), "fw.elf");
    EXPECT_EQ(std::string(reinterpret_cast<const char *>(&b[27])), "-x");
    EXPECT_EQ(b[30], 0);
    EXPECT_THROW(vp::build_args_block({std::string(1000, 'a'), std::string(20, 'b')}, 0, 1024),
                 vp::firmware_error);
    EXPECT_EQ(vp::build_args_block({std::string(1024 - 13, 'a')}, 0, 1024).size(), 1024u);
}

TEST(CliArgs, PerTileOverridesAll) {
    using v = std::vector<std::string>;
    vp::firmware_map map;
    EXPECT_EQ(map.argv_for(3), v{""});  // no firmware, no arguments: argv[0] only
    EXPECT_EQ(args_error(map, "-n 4"), "");
    EXPECT_EQ(args_error(map, "2=-n 8 'a b'"), "");
    EXPECT_EQ(map.argv_for(0), (v{"", "-n", "4"}));
    EXPECT_EQ(map.argv_for(2), (v{"", "-n", "8", "a b"}));
    EXPECT_EQ(args_error(map, "x"), "--args given twice for all tiles");
    EXPECT_EQ(args_error(map, "2=y"), "--args given twice for tile 2");
    EXPECT_NE(args_error(map, "16=y").find("--args 16=y: there is no tile 16"), std::string::npos);
    EXPECT_NE(args_error(map, "3='y").find("unterminated quote"), std::string::npos);
}

}  // namespace
