// The platform's side of the instruction and event log (--log, docs/logging.md): the log file and
// the NAMP observer that turns the adapters' messages and slot changes into log lines.
#include <cstdio>
#include <iostream>

#include "namp_structs.h"
#include "vp/platform.h"

namespace vp {

namespace {

class namp_log : public namp::namp_observer {
public:
    namp_log(trace::event_log &log, sc_core::sc_time period) : log_(log), period_(period) {}

    void message_received(unsigned tile, unsigned src_x, unsigned src_y, unsigned sub) override {
        static const char *const names[] = {"unknown", "alloc request", "alloc response", "credit",
                                            "final"};
        if (!log_.wants(trace::log_namp, tile, 0)) return;
        char text[96];
        std::snprintf(text, sizeof text, "message %s from tile (%u,%u)", sub < 5 ? names[sub] : "?",
                      src_x, src_y);
        log_.write(trace::log_namp, tile, -1, now(), text);
    }
    void slot_changed(unsigned tile, unsigned slot, const char *from, const char *to) override {
        if (!log_.wants(trace::log_namp, tile, 0)) return;
        log_.write(trace::log_namp, tile, -1, now(),
                   "slot " + std::to_string(slot) + " " + from + " -> " + to);
    }

private:
    uint64_t now() const { return uint64_t(sc_core::sc_time_stamp() / period_); }
    trace::event_log &log_;
    sc_core::sc_time period_;
};

}  // namespace

void platform::open_event_log() {
    if (!options_.log.categories) return;
    std::ostream *out = &std::clog;  // buffered standard error
    if (!options_.log_file.empty()) {
        log_file_.open(options_.log_file);
        if (!log_file_) throw config_error("--log-file: cannot write '" + options_.log_file + "'");
        out = &log_file_;
    }
    log_ = std::make_unique<trace::event_log>(*out, options_.log);
    const std::string where =
        options_.log_file.empty() ? "standard error" : "'" + options_.log_file + "'";
    log_->on_write_error([this, where](const std::string &reason) {
        control_.output_failed("the log could not be written to " + where + " (" + reason +
                               "): the run ends at cycle " +
                               std::to_string(uint64_t(sc_core::sc_time_stamp() / period_)));
    });
    if (options_.log.categories & trace::log_namp)
        namp_log_ = std::make_unique<namp_log>(*log_, period_);
}

}  // namespace vp
