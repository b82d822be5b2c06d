// What SystemC 2.3 does in linear searches stays short on large meshes (docs/benchmarks.md,
// "Large meshes"). Its registries of modules and of primitive channels remove an entry by scanning
// from their front and filling the gap with their last entry, so a platform is torn down in
// linear time only when everything goes in reverse order of creation, after the two front modules
// (vp/platform.h, registry_front; tiles/module_vector.h). And it takes an ended thread out of its
// list of processes by a linear search, so a core's thread must not end when its core does
// (cpu_core::run). This binary interposes those functions (its own definitions come first in
// symbol lookup), mirrors the two registries and counts what the searches scan; the real functions
// still do the work.
#include <dlfcn.h>

#include <algorithm>
#include <string>
#include <vector>
#include <gtest/gtest.h>

#include "tiles/module_vector.h"
#include "vp/config.h"
#include "vp/firmware.h"
#include "vp/platform.h"

namespace sc_core {
class sc_module_registry {
public:
    void insert(sc_module &m);
    void remove(sc_module &m);
};
}  // namespace sc_core (sc_prim_channel_registry and sc_simcontext are declared by <systemc>)

namespace {

// A registry's entries in SystemC's order, and what its removals scanned.
struct mirror {
    std::vector<const void *> entries;
    uint64_t removals = 0, scanned = 0;
    void insert(const void *p) { entries.push_back(p); }
    void remove(const void *p) {  // from the front; the last entry fills the gap
        const auto at = std::find(entries.begin(), entries.end(), p);
        if (at == entries.end()) return;
        scanned += uint64_t(at - entries.begin()) + 1;
        ++removals;
        *at = entries.back();
        entries.pop_back();
    }
    void reset_counts() { removals = scanned = 0; }
} modules, channels;
std::vector<std::string> destroyed;    // by the probes below
uint64_t threads_removed_running = 0;  // threads SystemC took out of its list during a run

template <class F>
F next_definition(const char *symbol) {
    void *f = dlsym(RTLD_NEXT, symbol);
    if (!f) std::abort();
    return reinterpret_cast<F>(f);
}
}  // namespace

void sc_core::sc_module_registry::insert(sc_module &m) {
    using fn = void (*)(sc_module_registry *, sc_module &);
    static const fn real =
        next_definition<fn>("_ZN7sc_core18sc_module_registry6insertERNS_9sc_moduleE");
    modules.insert(&m);
    real(this, m);
}

void sc_core::sc_module_registry::remove(sc_module &m) {
    using fn = void (*)(sc_module_registry *, sc_module &);
    static const fn real =
        next_definition<fn>("_ZN7sc_core18sc_module_registry6removeERNS_9sc_moduleE");
    modules.remove(&m);
    real(this, m);
}

void sc_core::sc_prim_channel_registry::insert(sc_prim_channel &c) {
    using fn = void (*)(sc_prim_channel_registry *, sc_prim_channel &);
    static const fn real =
        next_definition<fn>("_ZN7sc_core24sc_prim_channel_registry6insertERNS_15sc_prim_channelE");
    channels.insert(&c);
    real(this, c);
}

void sc_core::sc_prim_channel_registry::remove(sc_prim_channel &c) {
    using fn = void (*)(sc_prim_channel_registry *, sc_prim_channel &);
    static const fn real =
        next_definition<fn>("_ZN7sc_core24sc_prim_channel_registry6removeERNS_15sc_prim_channelE");
    channels.remove(&c);
    real(this, c);
}

sc_core::sc_thread_process *sc_core::sc_simcontext::remove_process(sc_thread_process *p) {
    using fn = sc_thread_process *(*)(sc_simcontext *, sc_thread_process *);
    static const fn real =
        next_definition<fn>("_ZN7sc_core13sc_simcontext14remove_processEPNS_17sc_thread_processE");
    if (sc_is_running()) ++threads_removed_running;
    return real(this, p);
}

namespace {

struct probe : sc_core::sc_module {
    explicit probe(sc_core::sc_module_name n) : sc_module(n) {}
    ~probe() override { destroyed.push_back(basename()); }
};

TEST(HostCost, AModuleVectorDestroysInReverseOrderOfCreation) {
    {
        tiles::module_vector<probe> v;
        for (const char *n : {"a", "b", "c"}) v.push_back(std::make_unique<probe>(n));
    }
    EXPECT_EQ(destroyed, (std::vector<std::string>{"c", "b", "a"}));
}

TEST(HostCost, APlatformIsTornDownInLinearTime) {
    vp::config_builder b;
    b.apply_preset("svfull");  // the NAMP with every feature: the most modules per tile
    b.apply_override("mesh.width=6");
    b.apply_override("mesh.height=6");
    b.apply_override("tile.cores=2");
    b.apply_override("console.echo=false");
    vp::run_options opt;
    opt.quiet = true;
    opt.max_cycles = 2000;
    {
        vp::platform plat("vp", b.build(), opt);
        vp::firmware_map fw;
        fw.add(std::string(FIRMWARE_DIR) + "/hello.elf", 36);
        plat.load(fw);
        plat.simulate();  // SystemC adds its own module when the simulation starts
        modules.reset_counts();
        channels.reset_counts();
    }
    ASSERT_GT(modules.removals, 36u * 10) << "the platform's modules were not removed";
    ASSERT_GT(channels.removals, 36u * 4) << "the tiles' interrupt lines were not removed";
    // Reverse order of creation finds each entry among the first three; an owner that destroys
    // its modules front to back makes the searches long (the quadratic teardown: about half the
    // registry per removal).
    EXPECT_LE(modules.scanned, 3 * modules.removals) << modules.removals << " modules";
    EXPECT_LE(channels.scanned, 3 * channels.removals) << channels.removals << " channels";
}

TEST(HostCost, EndedCoresLeaveSystemCsListOfProcessesAlone) {
    vp::config_builder b;
    b.apply_override("mesh.width=6");
    b.apply_override("mesh.height=6");
    b.apply_override("console.echo=false");
    vp::run_options opt;
    opt.quiet = true;
    vp::platform plat("vp", b.build(), opt);
    vp::firmware_map fw;
    for (unsigned t = 0; t < 30; ++t)  // six tiles run nothing: their cores end at once
        fw.add(std::to_string(t) + "=" + std::string(FIRMWARE_DIR) + "/hello.elf", 36);
    plat.load(fw);
    plat.simulate();
    ASSERT_EQ(plat.control().process_exit_code(), 0) << plat.control().message();
    EXPECT_EQ(threads_removed_running, 0u);
}

}  // namespace
