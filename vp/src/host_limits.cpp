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

std::string sysctl_advice(uint64_t need) {
    return "raise it (as root: sysctl -w vm.max_map_count=" +
           std::to_string((need / 65536 + 1) * 65536) + ") or simulate fewer tiles";
}

}  // namespace

map_count_check check_map_count(stack_guard_mode mode, bool guards_can_be_off, uint64_t limit) {
    map_count_check r;
    if (mode == stack_guard_mode::off && !guards_can_be_off) {
        r.refusal =
            "host.stack_guards=off: this build of namp-vp cannot run SystemC's threads without "
            "their stack guard pages (a sanitizer build, or not Linux); use auto or on";
        return r;
    }
    if (limit == 0) {
        std::ifstream in("/proc/sys/vm/max_map_count");
        if (!(in >> limit)) limit = 0;  // not Linux, or not readable: nothing to check
    }
    const uint64_t threads = count_threads(sc_core::sc_get_top_level_objects());
    // What is mapped now, the thread stacks, and a margin for what the run maps later (a JIT code
    // region per core, the allocator's arenas, output files). Without guard pages a stack counts as
    // one mapping, though stacks mapped side by side merge into one: an upper bound.
    const uint64_t now = lines_of("/proc/self/maps");
    const uint64_t more = threads / 8 + 1024;
    const uint64_t with_guards = now + 2 * threads + more, without = now + threads + more;
    const bool fits_with = limit == 0 || with_guards <= limit,
               fits_without = limit == 0 || without <= limit;
    const std::string needs = "the platform needs about " + std::to_string(with_guards) +
                              " memory mappings (SystemC maps the stack of each of its " +
                              std::to_string(threads) +
                              " threads with a guard page: two mappings each)";
    const std::string limit_is = "vm.max_map_count is " + std::to_string(limit);
    if (mode == stack_guard_mode::on ||
        (mode == stack_guard_mode::automatic && (fits_with || !guards_can_be_off))) {
        if (!fits_with)
            r.refusal =
                needs + ", but " + limit_is + "; " + sysctl_advice(with_guards) +
                (guards_can_be_off && fits_without
                     ? "; or let namp-vp run them without guard pages (host.stack_guards=auto)"
                     : "");
        return r;
    }
    r.guards = false;
    if (!fits_without) {
        r.refusal = needs + ", about " + std::to_string(without) +
                    " even without the guard pages, but " + limit_is + "; " +
                    sysctl_advice(with_guards);
        return r;
    }
    r.note =
        mode == stack_guard_mode::off
            ? "stack guard pages are off (host.stack_guards=off): a thread that overruns its stack "
              "is found after the run, not when it happens"
            : "stack guard pages are off: with them " + needs + ", but " + limit_is +
                  "; without them about " + std::to_string(without) +
                  ". The simulation is the same; a thread that overruns its stack is found after "
                  "the run, not when it happens (host.stack_guards, docs/configuration.md)";
    return r;
}

}  // namespace vp
