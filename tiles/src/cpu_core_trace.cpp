// Timeline of a core: one "run" slice from start to exit, with "wfi" slices (sleeping) and
// "trap N" / "irq N" slices (trap entry to mret/sret) nested in it, so the nesting stays
// balanced whatever the firmware does (wfi inside a handler, exit from a handler). Times are the core's own (cycles x period), which run ahead
// of SystemC time inside a quantum.
#include "tiles/cpu_core.h"

namespace tiles {

void cpu_core::trace_begin(const std::string &state) {
    if (track_) p_.tracer->begin(track_, state, p_.clock_period * double(rv_cpu_cycles(cpu_)));
}

void cpu_core::trace_end() {
    if (track_) p_.tracer->end(track_, p_.clock_period * double(rv_cpu_cycles(cpu_)));
}

void cpu_core::trace_stop() {
    for (; trap_depth_ > 0; --trap_depth_) trace_end();
    trace_end();
}

void cpu_core::trap_return_thunk(void *ctx, rv_cpu *) {
    auto *self = static_cast<cpu_core *>(ctx);
    // An mret that leaves no handler (e.g. the first drop to U-mode) closes nothing.
    if (self->trap_depth_ == 0) return;
    --self->trap_depth_;
    self->trace_end();
}

}  // namespace tiles
