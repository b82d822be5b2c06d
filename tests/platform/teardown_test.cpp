// Tearing a platform down is linear in its modules (vp/platform.h, registry_front;
// tiles/module_vector.h): SystemC 2.3's registries of modules and of primitive channels remove an
// entry by scanning from their front and filling the gap with their last entry, so everything must
// go in reverse order of creation, after the two front modules. This binary interposes the two
// registries' insert and remove (its own definitions come first in symbol lookup), mirrors them
// and counts the entries each removal scans; the real functions still do the work.
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
}  // namespace sc_core  (sc_prim_channel_registry is declared by <systemc>)

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
std::vector<std::string> destroyed;  // by the probes below

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

namespace {

struct probe : sc_core::sc_module {
    explicit probe(sc_core::sc_module_name n) : sc_module(n) {}
    ~probe() override { destroyed.push_back(basename()); }
};

TEST(Teardown, AModuleVectorDestroysInReverseOrderOfCreation) {
    {
        tiles::module_vector<probe> v;
        for (const char *n : {"a", "b", "c"}) v.push_back(std::make_unique<probe>(n));
    }
    EXPECT_EQ(destroyed, (std::vector<std::string>{"c", "b", "a"}));
}

TEST(Teardown, APlatformIsTornDownInLinearTime) {
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

}  // namespace
