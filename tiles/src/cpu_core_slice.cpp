// One run of a core's ISS (cpu_core::run_slice): the fast engine (rv_cpu_run) wherever nothing
// needs to look at single instructions, the checked loop (rv_cpu_run_debug) where something does:
//  - a step, a watchpoint, a replay target within reach: every instruction of the slice;
//  - breakpoints, an instruction log limited to an address range: only the code pages they lie
//    in (the ISS's code watch returns RV_RUN_WATCH at the border of those pages);
//  - an instruction log limited to a cycle window: from the window's first cycle to its last.
// Both paths simulate the same (docs/iss-engine.md), so none of this changes a statistic.
#include <algorithm>

#include "tiles/cpu_core.h"

namespace tiles {

namespace {
constexpr uint32_t page_mask = 4095u;
}

bool cpu_core::code_watch_ranges(const rv_debug_points *points, bool logging,
                                 std::vector<uint32_t> &out) const {
    std::vector<std::pair<uint64_t, uint64_t>> spans;  // [from, to) in bytes
    if (points)
        for (unsigned i = 0; i < points->breakpoint_count; ++i) {
            const uint64_t page = points->breakpoints[i] & ~page_mask;
            spans.emplace_back(page, page + 4096);
        }
    if (logging) {
        const trace::event_log::options &o = p_.log->settings();
        spans.emplace_back(
            o.addr_from & ~uint64_t(page_mask),
            std::min<uint64_t>((o.addr_to + page_mask) & ~uint64_t(page_mask), 1ull << 32));
    }
    std::sort(spans.begin(), spans.end());
    out.clear();
    for (const auto &[from, to] : spans) {
        if (!out.empty() && from <= uint64_t(out.back()) + 1) {  // touching or overlapping
            out.back() = uint32_t(std::max<uint64_t>(uint64_t(out.back()) + 1, to) - 1);
            continue;
        }
        out.push_back(uint32_t(from));
        out.push_back(uint32_t(to - 1));  // inclusive end: [0, 4 GiB) fits in 32 bits
    }
    if (out.size() / 2 > RV_MAX_CODE_WATCH) return false;
    for (size_t i = 1; i < out.size(); i += 2) out[i] += 1;  // back to [from, to) for the ISS
    return true;
}

rv_run_status cpu_core::run_slice(uint64_t limit, const debug_slice &dbg, rv_debug_hit &hit) {
    bool skip_first = dbg.skip_first;
    for (;;) {
        const uint64_t now = rv_cpu_cycles(cpu_);
        const uint64_t steps = rv_cpu_steps(cpu_);
        if (dbg.has_cycle_target && now >= dbg.target_cycle) {
            hit.reason = RV_DEBUG_TARGET;
            return RV_RUN_DEBUG;
        }
        uint64_t run_to = dbg.has_cycle_target ? std::min(limit, dbg.target_cycle) : limit;
        bool logging = false;
        if (log_steps_) {
            const trace::event_log::options &o = p_.log->settings();
            if (p_.log->full() || now > o.cycle_to) {
                log_steps_ = false;  // for good: back to the fast path
            } else if (now < o.cycle_from) {
                run_to = std::min(run_to, o.cycle_from);  // fast until the window opens
            } else {
                logging = true;
                if (o.cycle_to < UINT64_MAX) run_to = std::min(run_to, o.cycle_to + 1);
            }
        }
        const bool log_everywhere = logging && p_.log->settings().addr_from == 0 &&
                                    p_.log->settings().addr_to >= (1ull << 32);
        // Every step costs at least a cycle: a target more steps away than the slice has cycles
        // cannot be reached in it.
        const bool target_near = dbg.has_target && dbg.target_steps >= steps &&
                                 dbg.target_steps - steps <= run_to - std::min(run_to, now);
        const rv_debug_points *points = logging ? logged_points(dbg.points) : dbg.points;
        rv_debug_points with_target{};
        if (target_near) {
            with_target = points ? *points : rv_debug_points{};
            with_target.has_target = true;
            with_target.target_steps = dbg.target_steps;
            points = &with_target;
        }
        bool everywhere = dbg.step || target_near || log_everywhere ||
                          (dbg.points && dbg.points->watchpoint_count);
        if (!everywhere && points) {
            // Install the code watch when what it covers changed (the debugger's points, or the
            // log's window opening or closing).
            if (watched_generation_ != dbg.points_generation || watched_logging_ != logging ||
                (!dbg.points && watched_generation_ != 0)) {
                std::vector<uint32_t> ranges;
                if (code_watch_ranges(dbg.points, logging, ranges)) {
                    watched_ = ranges;
                    rv_cpu_set_code_watch(cpu_, watched_.data(), unsigned(watched_.size() / 2));
                } else {
                    watched_.clear();
                    rv_cpu_set_code_watch(cpu_, nullptr, 0);
                    everywhere = true;
                }
                watched_generation_ = dbg.points ? dbg.points_generation : 0;
                watched_logging_ = logging;
            } else if (watched_.empty()) {
                everywhere = true;  // more pages than the ISS can watch
            }
        } else if (!points && !watched_.empty()) {
            watched_.clear();
            rv_cpu_set_code_watch(cpu_, nullptr, 0);
            watched_generation_ = ~0ull;
        }
        rv_run_status status;
        if (everywhere) {
            status = rv_cpu_run_debug(cpu_, run_to, points, skip_first, dbg.step, &hit);
        } else if (points && rv_cpu_code_watched(cpu_, rv_cpu_get_pc(cpu_))) {
            rv_debug_points leave = *points;
            leave.leave_code_watch = true;
            status = rv_cpu_run_debug(cpu_, run_to, &leave, skip_first, false, &hit);
        } else {
            status = rv_cpu_run(cpu_, run_to);
        }
        if (rv_cpu_steps(cpu_) != steps) skip_first = false;  // the stopped instruction is done
        if (status == RV_RUN_WATCH) continue;                 // into or out of the watched pages
        // The window opened or closed inside the slice: the slice goes on on the other path.
        if (status == RV_RUN_BUDGET && run_to < limit &&
            (rv_cpu_cycles(cpu_) < limit || dbg.has_cycle_target))
            continue;  // (a cycle target reached is reported at the top)
        return status;
    }
}

}  // namespace tiles
