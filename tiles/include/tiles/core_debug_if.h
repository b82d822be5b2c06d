// What a core asks a debugger between run slices (implemented by vp::gdb_server). A core without
// one (no --gdb) never calls anything and runs rv_cpu_run unchecked.
#pragma once
#include "iss/rv32_debug.h"

namespace tiles {

class cpu_core;

struct debug_slice {
    const rv_debug_points *points = nullptr;  // null and !step: run rv_cpu_run, no checks
    bool skip_first = false;                  // the core resumes from its own stop
    bool step = false;                        // run one instruction, then report
    // Replaying to a point of the past: stop (RV_DEBUG_TARGET) when rv_cpu_steps reaches this.
    bool has_target = false;
    uint64_t target_steps = 0;
    // ... or when its cycle count reaches this (monitor goto): at the first instruction boundary.
    bool has_cycle_target = false;
    uint64_t target_cycle = 0;
    uint64_t points_generation = 0;  // changes whenever the breakpoints do (the code watch follows)
};

struct core_debug_if {
    virtual ~core_debug_if() = default;
    // Before each run slice, in the core's thread: may block while the debugger holds the
    // platform stopped (all-stop) or wait while this core is held by the debugger.
    virtual debug_slice before_slice(cpu_core &core) = 0;
    // The core stopped at a breakpoint, watchpoint or after a step: blocks until resumed.
    virtual void stopped(cpu_core &core, const rv_debug_hit &hit) = 0;
    // A device access of the core returned (the instruction is not finished yet): waits while
    // the debugger holds the core, so a held core never runs on into the rest of its slice.
    virtual void after_access(cpu_core &core) = 0;
    // The core halted (it exited or locked up) while the run goes on: if it was the only core
    // the debugger let run, the debugger must hear of it now, or nothing would run any more.
    virtual void halted(cpu_core &core) = 0;
};

}  // namespace tiles
