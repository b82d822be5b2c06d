// Configuration inputs of issue 12 and the limits of vp/config_limits.h: each is refused with a
// message naming the key, quickly, and without recursion over the input.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>

#include <gtest/gtest.h>

#include "vp/config.h"
#include "vp/config_limits.h"

namespace {

using vp::config_builder;

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const vp::config_error &e) {
        return e.what();
    }
    return "";
}

std::string repeat(const std::string &s, size_t n) {
    std::string r;
    for (size_t i = 0; i < n; ++i) r += s;
    return r;
}

// {"a":{"a":...1...}} with `levels` objects: the 20 KB file that overflowed the stack.
std::string nested(size_t levels, const std::string &key = "a") {
    return repeat("{\"" + key + "\":", levels) + "1" + repeat("}", levels);
}

TEST(ConfigLimits, DeeplyNestedFileIsRefusedByDepth) {
    const std::string path = testing::TempDir() + "deep.json";
    std::ofstream(path) << nested(4000);
    const std::string e = error_of([&] { config_builder().apply_file(path); });
    EXPECT_EQ(e, path + ": nesting deeper than 8 levels under 'a.a.a.a.a.a.a.a'");
    std::remove(path.c_str());
}

TEST(ConfigLimits, DeeplyNestedSetValueGivesAShortMessage) {
    const std::string e =
        error_of([&] { config_builder().apply_override("mesh.width=" + repeat("[", 5000)); });
    EXPECT_EQ(e.find("--set: 'mesh.width' must be an integer in [1, 64], got \"[[[["), 0u) << e;
    EXPECT_LT(e.size(), 200u);
}

// Was 24 s: the key path was copied at every level and unknown keys were walked.
TEST(ConfigLimits, HugeNestedDocumentIsRefusedQuickly) {
    const std::string doc = nested(520000, "k");  // 3.6 MB
    const auto start = std::chrono::steady_clock::now();
    const std::string e = error_of([&] { config_builder().apply_text(doc, "big.json"); });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(e, "big.json: the configuration has " + std::to_string(doc.size()) +
                     " bytes (at most 1048576)");
    EXPECT_LT(seconds, 2.0);
}

TEST(ConfigLimits, UnknownGroupIsNotWalked) {
    EXPECT_EQ(error_of([&] { config_builder().apply_text(nested(8, "zz"), "c.json"); }),
              "c.json: unknown configuration key 'zz'");
    EXPECT_EQ(
        error_of([&] { config_builder().apply_text(R"({"tile": {"x": {"y": 1}}})", "c.json"); }),
        "c.json: unknown configuration key 'tile.x'");
}

TEST(ConfigLimits, LongKeyAndLongStringAreNamed) {
    const std::string long_key = "{\"tile\": {\"" + repeat("k", 200) + "\": 1}}";
    EXPECT_EQ(
        error_of([&] { config_builder().apply_text(long_key, "c.json"); }),
        "c.json: a key of 200 bytes (at most 128) under 'tile': '" + repeat("k", 64) + "...'");
    const std::string long_string = "{\"console\": {\"file\": \"" + repeat("f", 5000) + "\"}}";
    EXPECT_EQ(error_of([&] { config_builder().apply_text(long_string, "c.json"); }),
              "c.json: the string under 'console.file' has 5000 bytes (at most 4096)");
    EXPECT_NE(error_of([&] {
                  config_builder().apply_override("console.file=" + repeat("f", 5000));
              }).find("'console.file' must be a UTF-8 string of at most 4096 bytes"),
              std::string::npos);
}

TEST(ConfigLimits, InvalidUtf8StringIsRefused) {
    EXPECT_NE(error_of([&] {
                  config_builder().apply_override("console.file=\xff");
              }).find("'console.file' must be a UTF-8 string"),
              std::string::npos);
}

TEST(ConfigLimits, LongSetArgumentIsRefused) {
    EXPECT_EQ(error_of([&] { config_builder().apply_override("mesh.width=" + repeat("1", 9000)); }),
              "--set: the argument has 9011 bytes (at most 8192)");
}

// Accepted before, then the NAMP's 5-flit FINAL packet stopped the run with exit 3.
TEST(ConfigLimits, NampNeedsFiveFlitPackets) {
    config_builder b;
    b.apply_preset("bare");
    b.apply_override("noc.max_packet_flits=4");
    b.apply_override("na.rx_buffer_flits=4");
    EXPECT_EQ(error_of([&] { b.build(); }),
              "'noc.max_packet_flits' (4) must be at least 5 with namp.enabled: the NAMP's FINAL "
              "message is that long");
    b.apply_override("noc.max_packet_flits=5");
    b.apply_override("na.rx_buffer_flits=5");
    EXPECT_EQ(error_of([&] { b.build(); }), "");
}

// Issue 22: accepted before, then a reduction member's 6-flit ALLOC_REQ stopped the run with exit 3.
TEST(ConfigLimits, CcReductionAndScatterGatherNeedSixFlitPackets) {
    for (const char *preset : {"barecc", "barered", "baresg"}) {
        config_builder b;
        b.apply_preset(preset);
        b.apply_override("noc.max_packet_flits=5");
        EXPECT_EQ(error_of([&] { b.build(); }),
                  "'noc.max_packet_flits' (5) must be at least 6 with namp.enable_cc_reduction or "
                  "namp.enable_cc_scattergather: their ALLOC_REQ message is that long")
            << preset;
        b.apply_override("noc.max_packet_flits=6");
        EXPECT_EQ(error_of([&] { b.build(); }), "") << preset;
    }
    config_builder multicast_only;  // multicast members ask with 4 flits: 5 is still enough
    multicast_only.apply_preset("bare");
    multicast_only.apply_override("noc.max_packet_flits=5");
    EXPECT_EQ(error_of([&] { multicast_only.build(); }), "");
}

// Accepted before, then 64 GiB of address space were reserved.
TEST(ConfigLimits, TotalSramIsBounded) {
    config_builder b;
    b.apply_preset("mesh16x16");
    b.apply_override("tile.sram_size=268435456");
    EXPECT_EQ(error_of([&] { b.build(); }),
              "'tile.sram_size' (268435456) times 256 tiles (mesh.width x mesh.height) is "
              "68719476736 bytes of SRAM, more than 34359738368");
    b.apply_override("tile.sram_size=134217728");  // exactly 32 GiB in all
    EXPECT_EQ(error_of([&] { b.build(); }), "");
}

TEST(ConfigLimits, NestingUpToTheLimitIsParsed) {
    // 8 levels parse; the keys are unknown, which is the next check
    EXPECT_EQ(error_of([&] { config_builder().apply_text(nested(8, "tile"), "c.json"); }),
              "c.json: unknown configuration key 'tile.tile'");
}

}  // namespace
