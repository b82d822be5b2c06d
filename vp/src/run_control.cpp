#include "vp/run_control.h"

#include <systemc>

namespace vp {

const char *to_string(end_reason reason) {
    switch (reason) {
    case end_reason::running: return "running";
    case end_reason::all_exited: return "all cores exited";
    case end_reason::shutdown: return "shutdown";
    case end_reason::core_failure: return "core failure";
    case end_reason::watchdog: return "watchdog";
    case end_reason::hang: return "hang";
    case end_reason::output_error: return "output error";
    }
    return "?";
}

run_control::run_control(unsigned mesh_width, bool stop_on_failure,
                         std::function<void(const mark_record &)> on_mark)
    : mesh_width_(mesh_width), stop_on_failure_(stop_on_failure), on_mark_(std::move(on_mark)) {}

void run_control::expect_core(unsigned, unsigned) { ++expected_; }

std::string run_control::where(unsigned tile, unsigned core) const {
    return "tile " + std::to_string(tile) + " (" + std::to_string(tile % mesh_width_) + "," +
           std::to_string(tile / mesh_width_) + ") core " + std::to_string(core);
}

void run_control::finish(end_reason reason, const std::string &message) {
    if (reason_ != end_reason::running) return;  // the first reason wins
    reason_ = reason;
    message_ = message;
    if (sc_core::sc_is_running()) sc_core::sc_stop();  // a kill may come before the run started
}

void run_control::core_exited(unsigned tile, unsigned core, uint32_t code, uint64_t cycle) {
    exits_[{tile, core}] = code;
    if (code != 0 && stop_on_failure_) {
        finish(end_reason::core_failure, where(tile, core) + " exited with code " +
                                             std::to_string(code) + " at cycle " +
                                             std::to_string(cycle));
    } else if (exits_.size() + failures_.size() >= expected_) {
        finish(end_reason::all_exited, "all cores exited at cycle " + std::to_string(cycle));
    }
}

void run_control::shutdown(unsigned tile, unsigned core, uint32_t code, uint64_t cycle) {
    shutdown_code_ = code;
    finish(end_reason::shutdown, where(tile, core) + " requested shutdown with code " +
                                     std::to_string(code) + " at cycle " + std::to_string(cycle));
}

void run_control::mark(unsigned tile, unsigned core, uint32_t id, uint64_t cycle) {
    marks_.push_back({tile, core, id, cycle});
    if (on_mark_) on_mark_(marks_.back());
}

void run_control::core_failed(unsigned tile, unsigned core, const char *reason, uint64_t cycle) {
    failures_[{tile, core}] = reason;
    if (stop_on_failure_ || exits_.size() + failures_.size() >= expected_)
        finish(end_reason::core_failure,
               where(tile, core) + " " + reason + " at cycle " + std::to_string(cycle));
}

void run_control::kill(const std::string &message) {
    shutdown_code_ = 137;
    finish(end_reason::shutdown, message);
}

void run_control::quit(const std::string &message) {
    shutdown_code_ = 0;
    finish(end_reason::shutdown, message);
}

void run_control::output_failed(const std::string &message) {
    finish(end_reason::output_error, message);
}

void run_control::restart() {
    exits_.clear();
    failures_.clear();
}

void run_control::conclude(bool time_limit_reached) {
    if (reason_ != end_reason::running) return;
    if (time_limit_reached)
        finish(end_reason::watchdog,
               "watchdog: the cycle limit was reached with cores still running");
    else
        finish(end_reason::hang,
               "hang: cores are asleep (wfi) or waiting and nothing can wake them");
}

// 0 only if every core exited with 0 (or a shutdown with code 0); see docs/cli.md for the rest.
int run_control::process_exit_code() const {
    const auto firmware_code = [](uint32_t code) { return (code & 0xFF) ? int(code & 0xFF) : 1; };
    switch (reason_) {
    case end_reason::watchdog: return 124;
    case end_reason::hang: return 125;
    case end_reason::output_error: return 2;  // as for an output that fails after the run
    case end_reason::shutdown: return shutdown_code_ ? firmware_code(shutdown_code_) : 0;
    case end_reason::running: return 125;
    default: break;
    }
    if (!failures_.empty()) return 126;
    for (const auto &[who, code] : exits_)
        if (code != 0) return firmware_code(code);
    return 0;
}

}  // namespace vp
