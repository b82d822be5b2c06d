// The platform's cores share one pool of translated code (vp::platform, docs/iss-engine.md): on a
// 2x2 mesh running the same firmware, the cores run translations that another core made. Each TEST
// builds its own platform, so ctest runs each one in its own process.
#include <gtest/gtest.h>

#include "iss/rv32.h"
#include "vp/config.h"
#include "vp/firmware.h"
#include "vp/platform.h"

namespace {

rv_engine_counters run_hello(const std::string &engine) {
    vp::config_builder b;
    b.apply_override("mesh.width=2");
    b.apply_override("mesh.height=2");
    b.apply_override("console.echo=false");
    b.apply_override("core.engine=" + engine);
    vp::run_options opt;
    opt.quiet = true;
    vp::platform plat("vp", b.build(), opt);
    vp::firmware_map fw;
    fw.add(std::string(FIRMWARE_DIR) + "/hello.elf", 4);
    plat.load(fw);
    plat.simulate();
    EXPECT_EQ(plat.control().process_exit_code(), 0) << plat.control().message();
    rv_engine_counters sum{};
    for (const auto &tile : plat.tiles())
        for (const auto &core : tile->cores()) {
            rv_engine_counters c;
            rv_cpu_engine_counters(core->iss(), &c);
            sum.translations += c.translations;
            sum.translations_shared += c.translations_shared;
        }
    return sum;
}

TEST(JitSharing, CoresOfAPlatformRunEachOthersTranslations) {
    const rv_engine_counters c = run_hello("jit");
    ASSERT_GT(c.translations, 0u) << "no JIT on this host?";
    // four cores, the same code: most of what three of them run was translated by another
    EXPECT_GT(c.translations_shared, c.translations / 2);
}

TEST(JitSharing, TheInterpreterTranslatesNothing) {
    const rv_engine_counters c = run_hello("interpreter");
    EXPECT_EQ(c.translations, 0u);
    EXPECT_EQ(c.translations_shared, 0u);
}

}  // namespace
