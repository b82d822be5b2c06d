// The check of vm.max_map_count before a run (vp/src/host_limits.cpp): it counts the threads of
// the elaborated platform, keeps SystemC's stack guard pages where they fit (host.stack_guards),
// runs without them where only that fits, and refuses a limit neither fits in with the value to set.
#include <gtest/gtest.h>

#include <memory>
#include <regex>

#include "vp/config.h"
#include "vp/host_limits.h"
#include "vp/platform.h"

namespace {

using vp::stack_guard_mode;

// The NAMP on 2x2 tiles: 9 threads per tile with one core, 36 in all.
std::unique_ptr<vp::platform> namp_2x2() {
    vp::config_builder b;
    b.apply_preset("bare");
    b.apply_override("mesh.width=2");
    b.apply_override("mesh.height=2");
    b.apply_override("console.echo=false");
    vp::run_options opt;
    opt.quiet = true;
    return std::make_unique<vp::platform>("vp", b.build(), opt);
}

// The mappings the check counts with guard pages, from its refusal of a limit too small for anything.
uint64_t needed_with_guards() {
    const std::string why = vp::check_map_count(stack_guard_mode::on, true, 1000).refusal;
    std::smatch m;
    if (!std::regex_search(why, m, std::regex("needs about ([0-9]+) memory mappings"))) return 0;
    return std::stoull(m[1]);
}

TEST(HostLimits, CountsThePlatformsThreadsAgainstTheLimit) {
    const auto plat = namp_2x2();
    const vp::map_count_check roomy = vp::check_map_count(stack_guard_mode::on, true, 1u << 30);
    EXPECT_EQ(roomy.refusal, "");
    EXPECT_EQ(roomy.note, "");
    EXPECT_TRUE(roomy.guards);
    const std::string why = vp::check_map_count(stack_guard_mode::on, true, 1000).refusal;
    EXPECT_NE(why.find("of its 36 threads"), std::string::npos) << why;
    EXPECT_NE(why.find("vm.max_map_count is 1000;"), std::string::npos) << why;
    EXPECT_NE(why.find("sysctl -w vm.max_map_count=65536"), std::string::npos) << why;
}

// A limit the platform fits in only without guard pages: auto turns them off and says so; on
// keeps them and refuses with the sysctl advice; a build that cannot skip them refuses in auto too.
TEST(HostLimits, AutoRunsWithoutGuardPagesWhereOnlyThatFits) {
    const auto plat = namp_2x2();
    const uint64_t need = needed_with_guards();
    ASSERT_GT(need, 1000u);
    // 36 fewer without guard pages; a margin of 10 for mappings made between the calls.
    const uint64_t limit = need - 10;
    const std::string limit_is = "vm.max_map_count is " + std::to_string(limit);

    const vp::map_count_check autom = vp::check_map_count(stack_guard_mode::automatic, true, limit);
    EXPECT_EQ(autom.refusal, "");
    EXPECT_FALSE(autom.guards);
    EXPECT_EQ(autom.note.rfind("stack guard pages are off: with them the platform needs about ", 0),
              0u)
        << autom.note;
    EXPECT_NE(autom.note.find(limit_is + "; without them about"), std::string::npos) << autom.note;

    const vp::map_count_check on = vp::check_map_count(stack_guard_mode::on, true, limit);
    EXPECT_TRUE(on.guards);
    EXPECT_EQ(on.note, "");
    EXPECT_NE(on.refusal.find(limit_is + "; raise it (as root: sysctl -w vm.max_map_count=65536)"),
              std::string::npos)
        << on.refusal;
    EXPECT_NE(on.refusal.find("(host.stack_guards=auto)"), std::string::npos) << on.refusal;

    const vp::map_count_check cannot =
        vp::check_map_count(stack_guard_mode::automatic, false, limit);
    EXPECT_TRUE(cannot.guards);
    EXPECT_NE(cannot.refusal.find("sysctl -w vm.max_map_count=65536"), std::string::npos)
        << cannot.refusal;
    EXPECT_EQ(cannot.refusal.find("host.stack_guards"), std::string::npos) << cannot.refusal;
}

TEST(HostLimits, AutoKeepsGuardPagesWhereTheyFit) {
    const auto plat = namp_2x2();
    const vp::map_count_check c =
        vp::check_map_count(stack_guard_mode::automatic, true, needed_with_guards() + 10);
    EXPECT_TRUE(c.guards);
    EXPECT_EQ(c.refusal, "");
    EXPECT_EQ(c.note, "");
}

TEST(HostLimits, AutoRefusesWhatDoesNotFitEvenWithoutGuardPages) {
    const auto plat = namp_2x2();
    const std::string why = vp::check_map_count(stack_guard_mode::automatic, true, 1000).refusal;
    EXPECT_NE(why.find("even without the guard pages, but vm.max_map_count is 1000; raise it"),
              std::string::npos)
        << why;
}

TEST(HostLimits, OffIsOffWhereTheBuildCanAndRefusedWhereItCannot) {
    const auto plat = namp_2x2();
    const vp::map_count_check off = vp::check_map_count(stack_guard_mode::off, true, 1u << 30);
    EXPECT_FALSE(off.guards);
    EXPECT_EQ(off.refusal, "");
    EXPECT_EQ(off.note.rfind("stack guard pages are off (host.stack_guards=off)", 0), 0u)
        << off.note;
    const vp::map_count_check cannot = vp::check_map_count(stack_guard_mode::off, false, 1u << 30);
    EXPECT_EQ(cannot.refusal.rfind("host.stack_guards=off: this build of namp-vp cannot run", 0),
              0u)
        << cannot.refusal;
}

TEST(HostLimits, TheKeyTakesAutoOnOrOff) {
    const auto mode = [](const std::string &text) {
        vp::config_builder b;
        b.apply_override("host.stack_guards=" + text);
        return b.build().stack_guards;
    };
    EXPECT_EQ(vp::config_builder().build().stack_guards, stack_guard_mode::automatic);
    EXPECT_EQ(mode("on"), stack_guard_mode::on);
    EXPECT_EQ(mode("off"), stack_guard_mode::off);
    EXPECT_EQ(mode("auto"), stack_guard_mode::automatic);
    const auto error_of = [&](const std::function<void()> &f) -> std::string {
        try {
            f();
        } catch (const vp::config_error &e) {
            return e.what();
        }
        return "";
    };
    EXPECT_EQ(error_of([&] { mode("yes"); }),
              "'host.stack_guards' must be auto, on or off, not 'yes'");
    EXPECT_EQ(error_of([&] { mode("ON"); }),
              "'host.stack_guards' must be auto, on or off, not 'ON'");
    EXPECT_EQ(
        error_of([] {
            vp::config_builder().apply_json({{"host", {{"stack_guards", false}}}}, "f.json");
        }),
        "f.json: 'host.stack_guards' must be a UTF-8 string of at most 4096 bytes, got false");
}

// host.* says how the host runs a simulation, not what is simulated: the statistics' copy of the
// configuration leaves it out, so a run's statistics do not depend on it.
TEST(HostLimits, TheKeyIsNotInTheStatisticsConfiguration) {
    vp::config_builder b;
    b.apply_override("host.stack_guards=off");
    const vp::platform_config c = b.build();
    EXPECT_FALSE(c.effective.contains("host"));
    EXPECT_TRUE(c.effective.contains("trace"));
    EXPECT_EQ(c.effective, vp::config_builder().build().effective);
}

}  // namespace
