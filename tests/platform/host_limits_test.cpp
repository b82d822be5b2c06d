// The check of vm.max_map_count before a run (vp/src/host_limits.cpp): it counts the threads of
// the elaborated platform, and refuses a limit they do not fit in with the value to set.
#include <gtest/gtest.h>

#include "vp/config.h"
#include "vp/host_limits.h"
#include "vp/platform.h"

namespace {

TEST(HostLimits, CountsThePlatformsThreadsAgainstTheLimit) {
    vp::config_builder b;
    b.apply_preset("bare");  // the NAMP: 9 threads per tile with one core
    b.apply_override("mesh.width=2");
    b.apply_override("mesh.height=2");
    b.apply_override("console.echo=false");
    vp::run_options opt;
    opt.quiet = true;
    vp::platform plat("vp", b.build(), opt);
    EXPECT_EQ(vp::map_count_shortage(1u << 30), "");
    const std::string why = vp::map_count_shortage(1000);
    EXPECT_NE(why.find("of its 36 threads"), std::string::npos) << why;
    EXPECT_NE(why.find("vm.max_map_count is 1000;"), std::string::npos) << why;
    EXPECT_NE(why.find("sysctl -w vm.max_map_count=65536"), std::string::npos) << why;
}

}  // namespace
