// SystemC thread stacks without guard pages (host.stack_guards; docs/benchmarks.md, "Large
// meshes"). SystemC 2.3 maps each thread stack and makes its lowest page inaccessible, which
// splits the mapping in two: two of the host's vm.max_map_count mappings per thread. While
// skipping is on, namp-vp leaves that page writable instead, fills it with a pattern, and checks
// the pattern when SystemC releases the stack and after the run, so an overrun stack is still
// found: after the fact instead of at the faulting access.
#pragma once
#include <cstdint>

namespace vp::stack_guards {

// False where this executable cannot skip them: a sanitizer build (the sanitizers intercept
// mprotect themselves), or a host other than Linux.
bool can_skip();

// From now on SystemC's guard-page requests are skipped (true) or carried out (false). Set before
// the simulation starts: SystemC maps the stacks of the elaborated threads when it starts.
void set_skip(bool skip);

// Guard pages skipped so far.
uint64_t skipped();

// Stacks whose guard page has been written: those released so far and those checked now.
uint64_t overruns();

}  // namespace vp::stack_guards
