#include <gtest/gtest.h>

#include "vp/config.h"

using vp::config_builder;
using vp::config_error;

namespace {
std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const config_error &e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(Config, DefaultsDescribeTheDocumentedPlatform) {
    const vp::platform_config c = config_builder().build();
    EXPECT_EQ(c.mesh_width, 4u);
    EXPECT_EQ(c.mesh_height, 4u);
    EXPECT_EQ(c.tile.cores, 1u);
    EXPECT_EQ(c.tile.sram_size, 1u << 20);
    EXPECT_EQ(c.clock_hz, 100000000u);
    EXPECT_EQ(c.tile.timing.div, 34u);
    EXPECT_TRUE(c.effective.contains("core"));
}

TEST(Config, PresetsLayerUnderOverrides) {
    config_builder b;
    b.apply_preset("smp");
    b.apply_override("tile.cores=2");
    const auto c = b.build();
    EXPECT_EQ(c.mesh_width, 2u);
    EXPECT_EQ(c.tile.cores, 2u);
}

TEST(Config, EveryPresetIsValid) {
    for (const auto &p : vp::config_presets()) {
        config_builder b;
        EXPECT_NO_THROW(b.apply_preset(p.name)) << p.name;
        EXPECT_NO_THROW(b.build()) << p.name;
    }
}

TEST(Config, UnknownKeysAreNamed) {
    EXPECT_EQ(error_of([] { config_builder().apply_override("tile.coress=2"); }),
              "--set: unknown configuration key 'tile.coress' (did you mean 'tile.cores'?)");
    EXPECT_EQ(error_of([] {
                  config_builder().apply_json({{"mesh", {{"depth", 2}}}}, "f.json");
              }),
              "f.json: unknown configuration key 'mesh.depth'");
}

TEST(Config, ValuesOutOfRangeOrOfTheWrongTypeAreRejected) {
    EXPECT_EQ(error_of([] { config_builder().apply_override("mesh.width=65"); }),
              "--set: 'mesh.width' must be an integer in [1, 64], got 65");
    EXPECT_EQ(error_of([] { config_builder().apply_override("tile.cores=two"); }),
              "--set: 'tile.cores' must be an integer in [1, 32], got \"two\"");
    EXPECT_EQ(error_of([] { config_builder().apply_override("trace.traps=1"); }),
              "--set: 'trace.traps' must be true or false, got 1");
    EXPECT_EQ(error_of([] {
                  config_builder().apply_json({{"tile", {{"cores", 1.5}}}}, "x");
              }),
              "x: 'tile.cores' must be an integer in [1, 32], got 1.5");
    EXPECT_EQ(error_of([] {
                  config_builder().apply_json({{"tile", 3}}, "x");
              }),
              "x: unknown configuration key 'tile'");
    EXPECT_EQ(error_of([] {
                  config_builder().apply_json({{"clock_hz", {{"a", 1}}}}, "x");
              }),
              "x: 'clock_hz' must be an integer in [1000000, 4000000000], got an object");
    EXPECT_EQ(error_of([] { config_builder().apply_json(nlohmann::json::array(), "x"); }),
              "x: the configuration must be a JSON object");
}

TEST(Config, SramSizeMustBePageMultiple) {
    config_builder b;
    b.apply_override("tile.sram_size=70000");
    EXPECT_EQ(error_of([&] { b.build(); }),
              "'tile.sram_size' must be a multiple of 4096, got 70000");
}

TEST(Config, StringsNeedNoQuotesOnTheCommandLine) {
    config_builder b;
    b.apply_override("console.file=out.log");
    EXPECT_EQ(b.build().console_file, "out.log");
}

TEST(Config, MalformedOverridesAndFilesAreReported) {
    EXPECT_EQ(error_of([] { config_builder().apply_override("mesh.width"); }),
              "--set 'mesh.width': expected KEY=VALUE");
    EXPECT_EQ(error_of([] { config_builder().apply_file("/nonexistent/x.json"); }),
              "/nonexistent/x.json: cannot open the configuration file");
    EXPECT_NE(error_of([] { config_builder().apply_preset("nope"); }).find("unknown preset 'nope'"),
              std::string::npos);
}

TEST(Config, NampIsDisabledByDefault) {
    const vp::platform_config c = config_builder().build();
    EXPECT_FALSE(c.na.namp.enabled);
    EXPECT_EQ(c.na.namp.slots, 8u);
    EXPECT_EQ(c.na.namp.arbitration, 0u);
}

TEST(Config, NampPresetsFollowTable42) {
    struct want {
        const char *name;
        bool msg, chan, buf, ccm;
    };
    for (const want &w :
         {want{"baremsg", true, false, false, false}, want{"barechan", false, true, true, true},
          want{"bare", true, true, true, true}}) {
        config_builder b;
        b.apply_preset(w.name);
        const auto c = b.build();
        EXPECT_TRUE(c.na.namp.enabled) << w.name;
        EXPECT_EQ(c.mesh_width, 4u) << w.name;
        EXPECT_EQ(c.na.namp.messages, w.msg) << w.name;
        EXPECT_EQ(c.na.namp.channels, w.chan) << w.name;
        EXPECT_EQ(c.na.namp.buffered, w.buf) << w.name;
        EXPECT_EQ(c.na.namp.ccm, w.ccm) << w.name;
    }
}

TEST(Config, NampKeysAreChecked) {
    config_builder b;
    b.apply_override("namp.arbitration=qos");
    b.apply_override("namp.slots=128");
    b.apply_override("namp.retry_cycles=10");
    const auto c = b.build();
    EXPECT_EQ(c.na.namp.arbitration, 1u);
    EXPECT_EQ(c.na.namp.slots, 128u);
    EXPECT_EQ(c.na.namp.retry_cycles, 10u);
    EXPECT_EQ(error_of([] { config_builder().apply_override("namp.slots=129"); }),
              "--set: 'namp.slots' must be an integer in [1, 128], got 129");
    EXPECT_EQ(error_of([] {
                  config_builder b2;
                  b2.apply_override("namp.arbitration=fifo");
                  b2.build();
              }),
              "'namp.arbitration' must be lrs, qos or map, not 'fifo'");
    EXPECT_EQ(error_of([] {
                  config_builder b2;
                  b2.apply_override("namp.enabled=true");
                  b2.apply_override("na.enabled=false");
                  b2.build();
              }),
              "'namp.enabled' needs na.enabled = true");
}

// The lookahead mode is off unless asked for, and only a whole number of cycles turns it on.
TEST(Config, TheLookaheadModeIsOffByDefaultAndTakesCycles) {
    EXPECT_EQ(config_builder().build().tile.access_lookahead, 0u);
    config_builder b;
    b.apply_override("core.access_lookahead=250");
    EXPECT_EQ(b.build().tile.access_lookahead, 250u);
    EXPECT_EQ(error_of([] { config_builder().apply_override("core.access_lookahead=-1"); }),
              "--set: 'core.access_lookahead' must be an integer in [0, 10000000], got -1");
    EXPECT_EQ(error_of([] { config_builder().apply_override("core.access_lookahead=on"); }),
              "--set: 'core.access_lookahead' must be an integer in [0, 10000000], got \"on\"");
}
