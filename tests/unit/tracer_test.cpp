// The timeline tracer (trace/tracer.h): valid JSON, named tracks, nesting, window clipping,
// categories, the event limit and the closing of open slices.
#include "trace/tracer.h"

#include <cstdio>
#include <unistd.h>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

struct TracerTest : ::testing::Test {
    // one file per test and process: ctest runs the tests in parallel (the normal and the
    // sanitizer build too), and a shared name let one test read another's half-written file
    std::string path = ::testing::TempDir() + "tracer_test_" +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                       std::to_string(::getpid()) + ".json";
    void TearDown() override { std::remove(path.c_str()); }
    nlohmann::json read() {
        std::ifstream in(path);
        return nlohmann::json::parse(in).at("traceEvents");
    }
    static std::vector<nlohmann::json> of(const nlohmann::json &ev, const std::string &ph) {
        std::vector<nlohmann::json> out;
        for (const auto &e : ev)
            if (e["ph"] == ph) out.push_back(e);
        return out;
    }
};

TEST_F(TracerTest, SlicesNestAndTracksAreNamed) {
    {
        trace::tracer t(path, {});
        const auto core = t.track("tile 5", "core 0", trace::cores);
        EXPECT_EQ(t.track("tile 5", "core 0", trace::cores), core);  // same names, same track
        t.begin(core, "run", sc_time(0, SC_NS));
        t.begin(core, "irq 11", sc_time(100, SC_NS));
        t.end(core, sc_time(150, SC_NS));
        t.instant(core, "mark 0x1", sc_time(120, SC_NS));
        t.end(core, sc_time(1000, SC_NS));
        t.finish(sc_time(1000, SC_NS));
    }
    const auto ev = read();
    const auto slices = of(ev, "X");
    ASSERT_EQ(slices.size(), 2u);
    EXPECT_EQ(slices[0]["name"], "irq 11");  // written when it ends: inner first
    EXPECT_DOUBLE_EQ(slices[0]["ts"].get<double>(), 0.1);
    EXPECT_DOUBLE_EQ(slices[0]["dur"].get<double>(), 0.05);
    EXPECT_EQ(slices[1]["name"], "run");
    EXPECT_DOUBLE_EQ(slices[1]["dur"].get<double>(), 1.0);
    ASSERT_EQ(of(ev, "i").size(), 1u);
    bool named = false;
    for (const auto &e : of(ev, "M"))
        named |= e["name"] == "thread_name" && e["args"]["name"] == "core 0";
    EXPECT_TRUE(named);
}

TEST_F(TracerTest, WindowClipsAndDropsAndCategoriesSwitchOff) {
    {
        trace::tracer::options o;
        o.categories = trace::cores;
        o.window_start = sc_time(100, SC_NS);
        o.window_end = sc_time(200, SC_NS);
        trace::tracer t(path, o);
        EXPECT_EQ(t.track("tile 0", "noc", trace::noc), 0u);  // category off: the null track
        t.begin(0, "ignored", sc_time(0, SC_NS));             // calls on it do nothing
        const auto c = t.track("tile 0", "core 0", trace::cores);
        t.begin(c, "across", sc_time(50, SC_NS));
        t.end(c, sc_time(150, SC_NS));
        t.begin(c, "before", sc_time(10, SC_NS));
        t.end(c, sc_time(20, SC_NS));
        t.instant(c, "late", sc_time(300, SC_NS));
        t.finish(sc_time(300, SC_NS));
    }
    const auto slices = of(read(), "X");
    ASSERT_EQ(slices.size(), 1u);
    EXPECT_EQ(slices[0]["name"], "across");
    EXPECT_DOUBLE_EQ(slices[0]["ts"].get<double>(), 0.1);  // clipped to the window start
    EXPECT_DOUBLE_EQ(slices[0]["dur"].get<double>(), 0.05);
    EXPECT_TRUE(of(read(), "i").empty());
}

TEST_F(TracerTest, EventLimitTruncatesAndFinishClosesOpenSlices) {
    {
        trace::tracer::options o;
        o.max_events = 3;
        trace::tracer t(path, o);
        const auto c = t.track("tile 0", "core 0", trace::cores);
        t.begin(c, "run", sc_time(0, SC_NS));
        for (int i = 0; i < 10; ++i) t.instant(c, "tick", sc_time(i, SC_NS));
        // "run" stays open: the destructor finishes the document
    }
    const auto ev = read();
    EXPECT_EQ(of(ev, "i").size(), 3u);
    EXPECT_TRUE(of(ev, "X").empty());  // no room left for the run slice
    const auto meta = ev.back();
    EXPECT_EQ(meta["name"], "namp_vp_trace");
    EXPECT_TRUE(meta["args"]["truncated"].get<bool>());
}

TEST_F(TracerTest, CategoriesParse) {
    EXPECT_EQ(trace::parse_categories("cores,noc"), unsigned(trace::cores | trace::noc));
    EXPECT_THROW(trace::parse_categories("cores,nope"), std::invalid_argument);
    EXPECT_THROW(trace::tracer("/nonexistent/dir/t.json", {}), std::runtime_error);
}

}  // namespace
