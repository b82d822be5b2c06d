// Host limits a platform must fit in before it runs (docs/benchmarks.md, "Large meshes").
#pragma once
#include <cstdint>
#include <string>

#include "vp/config.h"

namespace vp {

// How the elaborated platform fits the host's vm.max_map_count (the most memory mappings a
// process may have). SystemC maps the stack of every thread when the simulation starts: with a
// guard page two mappings per thread, without one at most one (stacks mapped side by side merge).
// Past the limit its mmap fails part-way through the run ("failed to allocate stack memory").
struct map_count_check {
    bool guards = true;  // run with SystemC's stack guard pages
    std::string
        refusal;       // non-empty: the platform cannot run on this host; why, and what to change
    std::string note;  // non-empty: the guard pages are off; why (printed once, not an error)
};

// Call after the platform is built. mode: host.stack_guards; auto keeps the guard pages unless the
// platform would then exceed the limit. guards_can_be_off: this executable can run without them
// (vp::stack_guards::can_skip()). limit: the vm.max_map_count to check against; 0 reads the host's
// (nothing to check where it cannot be read).
map_count_check check_map_count(stack_guard_mode mode, bool guards_can_be_off, uint64_t limit = 0);

}  // namespace vp
