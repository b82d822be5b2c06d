#include "vp/host_limits.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>
#include <systemc>

namespace vp {

namespace {

// Threads in the object hierarchy: the processes whose stacks are mapped at the start.
uint64_t count_threads(const std::vector<sc_core::sc_object *> &objects) {
    uint64_t n = 0;
    for (sc_core::sc_object *o : objects) {
        const std::string kind = o->kind();
        if (kind == "sc_thread_process" || kind == "sc_cthread_process") ++n;
        n += count_threads(o->get_child_objects());
    }
    return n;
}

uint64_t lines_of(const char *path) {
    std::ifstream in(path);
    uint64_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
}

}  // namespace

std::string map_count_shortage(uint64_t limit) {
    if (limit == 0) {
        std::ifstream in("/proc/sys/vm/max_map_count");
        if (!(in >> limit) || limit == 0) return {};  // not Linux, or not readable: nothing to say
    }
    const uint64_t threads = count_threads(sc_core::sc_get_top_level_objects());
    // What is mapped now, two per thread stack, and a margin for what the run maps later (a JIT
    // code region per core, the allocator's arenas, output files).
    const uint64_t now = lines_of("/proc/self/maps");
    const uint64_t need = now + 2 * threads + threads / 8 + 1024;
    if (need <= limit) return {};
    return "the platform needs about " + std::to_string(need) + " memory mappings (SystemC maps the stack of each of its " +
           std::to_string(threads) + " threads with a guard page: two mappings each), but vm.max_map_count is " +
           std::to_string(limit) + "; raise it (as root: sysctl -w vm.max_map_count=" +
           std::to_string((need / 65536 + 1) * 65536) + ") or simulate fewer tiles";
}

}  // namespace vp
