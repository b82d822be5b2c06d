// Decides when the simulation ends and with which exit code: all cores exited, a shutdown request,
// a failing core (with stop_on_failure), or, judged after sc_start returns, the watchdog or a hang.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tiles/run_control_if.h"

namespace vp {

struct mark_record {
    unsigned tile, core;
    uint32_t id;
    uint64_t cycle;
};

enum class end_reason { running, all_exited, shutdown, core_failure, watchdog, hang, output_error };

const char *to_string(end_reason reason);

class run_control : public tiles::run_control_if {
public:
    // on_mark: told of every sim_mark as it happens (the timeline trace); may be empty.
    run_control(unsigned mesh_width, bool stop_on_failure,
                std::function<void(const mark_record &)> on_mark = {});

    // Called before the simulation for every core that has firmware.
    void expect_core(unsigned tile, unsigned core);

    void core_exited(unsigned tile, unsigned core, uint32_t code, uint64_t cycle) override;
    void shutdown(unsigned tile, unsigned core, uint32_t code, uint64_t cycle) override;
    void mark(unsigned tile, unsigned core, uint32_t id, uint64_t cycle) override;
    void core_failed(unsigned tile, unsigned core, const char *reason, uint64_t cycle) override;

    // A debugger ended the run (exit code 137, like a killed process).
    void kill(const std::string &message);
    // A debugger's `monitor quit`: the run ends now with exit code 0.
    void quit(const std::string &message);
    // An output could not be written (the log on a full disk): the run ends now with exit code 2.
    void output_failed(const std::string &message);
    // A debugger's `monitor reset`: every core runs again; exits and failures are forgotten.
    void restart();

    // After sc_start returned: the simulation ran out of events (hang) or time (watchdog).
    void conclude(bool time_limit_reached);

    end_reason reason() const { return reason_; }
    const std::string &message() const { return message_; }
    int process_exit_code() const;  // see docs/cli.md
    const std::vector<mark_record> &marks() const { return marks_; }
    // exit code per (tile, core) of the cores that exited; absent: still running or failed.
    const std::map<std::pair<unsigned, unsigned>, uint32_t> &exit_codes() const { return exits_; }
    const std::map<std::pair<unsigned, unsigned>, std::string> &failures() const {
        return failures_;
    }

private:
    std::string where(unsigned tile, unsigned core) const;
    void finish(end_reason reason, const std::string &message);

    unsigned mesh_width_;
    bool stop_on_failure_;
    unsigned expected_ = 0;
    std::map<std::pair<unsigned, unsigned>, uint32_t> exits_;
    std::map<std::pair<unsigned, unsigned>, std::string> failures_;
    std::vector<mark_record> marks_;
    std::function<void(const mark_record &)> on_mark_;
    end_reason reason_ = end_reason::running;
    std::string message_;
    uint32_t shutdown_code_ = 0;
};

}  // namespace vp
