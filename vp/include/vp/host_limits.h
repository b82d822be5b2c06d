// Host limits a platform must fit in before it runs (docs/benchmarks.md, "Large meshes").
#pragma once
#include <cstdint>
#include <string>

namespace vp {

// Empty when the elaborated platform fits the host's vm.max_map_count (or the limit cannot be
// read); otherwise why not and what to change. SystemC maps the stack of every thread with a
// guard page when the simulation starts, two mappings per thread; past the limit its mmap fails
// part-way through ("failed to allocate stack memory"). Call after the platform is built.
// limit: the vm.max_map_count to check against; 0 reads the host's.
std::string map_count_shortage(uint64_t limit = 0);

}  // namespace vp
