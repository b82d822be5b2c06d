// The platform's side of the timeline trace: creating the tracer from the options and recording
// the firmware's sim_mark stamps on the marking core's track.
#include <cstdio>
#include <iostream>

#include "vp/output_files.h"
#include "vp/platform.h"

namespace vp {

std::unique_ptr<trace::tracer> make_tracer(const run_options &options, sc_core::sc_time period) {
    if (options.trace_file.empty()) return nullptr;
    trace::tracer::options o;
    if (options.trace_categories) o.categories = options.trace_categories;
    o.window_start = period * double(options.trace_from);
    if (options.trace_to) o.window_end = period * double(options.trace_to);
    try {
        return std::make_unique<trace::tracer>(options.trace_file, o);
    } catch (const std::exception &e) {
        throw config_error(e.what());
    }
}

void platform::trace_mark(const mark_record &m) {
    if (!tracer_) return;
    const trace::track_id track = tracer_->track("tile " + std::to_string(m.tile),
                                                 "core " + std::to_string(m.core), trace::marks);
    char name[24];
    std::snprintf(name, sizeof name, "mark 0x%08x", unsigned(m.id));  // ids are often tags
    tracer_->instant(track, name, period_ * double(m.cycle));
}

std::vector<std::string> platform::output_errors() {
    std::vector<std::string> errors;
    if (status_) {  // console lines went through the status line's stream
        status_->console().flush();
        if (status_->console_failed())
            errors.push_back("cannot write the console output (standard output)");
    }
    if (console_log_.is_open()) {
        const std::string e =
            stream_error(console_log_, "console.file '" + config_.console_file + "'");
        if (!e.empty()) errors.push_back(e);
    }
    if (log_) {
        const std::string e = stream_error(
            log_file_.is_open() ? static_cast<std::ostream &>(log_file_) : std::clog,
            "the log to '" +
                (options_.log_file.empty() ? std::string("standard error") : options_.log_file) +
                "'");
        if (!e.empty()) errors.push_back(e);
    }
    if (tracer_ && !tracer_->good())
        errors.push_back("cannot write the trace to '" + options_.trace_file + "'");
    return errors;
}

uint64_t platform::instructions() const {
    uint64_t n = 0;
    for (const auto &t : tiles_)
        for (const auto &c : t->cores()) n += rv_cpu_instret(c->iss());
    return n;
}

}  // namespace vp
