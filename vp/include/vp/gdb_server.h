// GDB remote-serial-protocol server of the platform (docs/debugging.md).
//
// Every started core of every tile is one GDB thread ("tile T core C", thread id = 1 + position in
// tile-major order). All-stop: a core that stops (breakpoint, watchpoint, step, interrupt) serves
// the debugger inside its own SystemC thread, so no other process runs and simulated time stands
// still until GDB resumes. Breakpoints and watchpoints are kept here, not written into memory, and
// apply to every core (GDB filters thread-specific ones itself).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>
#include <systemc>

#include "tiles/core_debug_if.h"
#include "tiles/cpu_core.h"
#include "vp/gdb_connection.h"
#include "vp/run_control.h"

namespace vp {

class gdb_server : public tiles::core_debug_if {
public:
    // Listens at once (throws gdb_error if it cannot). Messages go to log.
    gdb_server(const std::string &address, run_control &control, std::ostream &log);

    // After the firmware is loaded: the cores GDB sees, in tile-major order.
    void add_core(tiles::cpu_core &core, std::vector<tiles::cpu_core *> tile_cores);
    // Answers `monitor` commands the server does not know itself (e.g. statistics); "" = unknown.
    void set_monitor(std::function<std::string(const std::string &)> fn) { monitor_ = std::move(fn); }
    // `monitor reset`: restarts the platform from its firmware; returns "" or why it could not.
    void set_reset(std::function<std::string()> fn) { reset_ = std::move(fn); }

    // --gdb-wait: the first core to run blocks until GDB connects and resumes it.
    void wait_at_start();
    // After the simulation: tells a connected GDB the exit code and closes the connection.
    void finish(int exit_code);

    // The simulation ran out of events while GDB waits for a stop and holds cores (scheduler-
    // locking: the resumed core sleeps for something a held one would do). Reports a stop of the
    // waiting core to GDB with a console line and serves it; true if GDB resumed (run on), false
    // if this is a hang to report as one (no debugger waiting, or nothing held).
    bool starved();
    // While GDB holds cores, the resumed ones may wait for a held one without sleeping (a timed
    // wait, a spin): after this many cycles of simulated time without a stop GDB gets one
    // (monitor hold-limit; 0: never).
    void set_hold_limit(uint64_t cycles, sc_core::sc_time period) { hold_limit_ = period * double(cycles); period_ = period; }

    tiles::debug_slice before_slice(tiles::cpu_core &core) override;
    void stopped(tiles::cpu_core &core, const rv_debug_hit &hit) override;
    void after_access(tiles::cpu_core &core) override;
    void halted(tiles::cpu_core &core) override;

private:
    enum class action { hold, run, step };
    struct thread {
        tiles::cpu_core *core;
        std::vector<tiles::cpu_core *> tile_cores;  // for decode-cache flushes after writes
        action act = action::run;
        bool skip_first = false;
        // A write watchpoint hit that GDB could not show right (its value is another tile's): the
        // core performs the store, then this line goes to GDB with a plain SIGTRAP stop.
        std::string report_after_step;
    };
    struct stop_info {
        int thread = 0;  // index into threads_
        int signal = 5;  // SIGTRAP; 2 for an interrupt
        rv_debug_hit hit{};
    };

    void hold(const thread &t);  // waits while the debugger holds this core
    void stop_all(int thread, int signal, const rv_debug_hit &hit, bool skip_first = true);
    void console(const std::string &text);  // an `O` packet: a line GDB prints
    std::string thread_name(int thread) const;  // "thread 3 (tile 1 core 0)"
    // Per-tile write watchpoints (gdb_watch.cpp): GDB keeps one value per watchpoint, each tile has
    // its own copy. Returns false when the hit is not to be reported as a watchpoint stop.
    bool watch_hit(int thread, const rv_debug_hit &hit);
    void remember_watch_values();  // at a resume: the value GDB holds for each new write watchpoint
    void serve();                          // packet loop while stopped
    bool handle(const std::string &p);     // true: resume
    std::string stop_reply() const;
    std::string read_registers(const thread &t) const;
    bool read_register(const thread &t, unsigned n, uint32_t &v) const;
    bool write_register(thread &t, unsigned n, uint32_t v);
    std::string memory_read(const std::string &args);
    std::string memory_write(const std::string &args, bool binary);
    std::string points(const std::string &p);
    std::string xfer(const std::string &p);
    std::string monitor(const std::string &command);
    enum class resume_result { resumed, answered, bad };  // answered: a stop reply was sent
    resume_result resume(const std::string &p);  // c, s, vCont
    void resume_all(action act);
    void detach();
    int thread_of(const std::string &id, int fallback) const;
    void refresh_points();

    gdb_connection conn_;
    run_control &control_;
    std::ostream &log_;
    std::vector<thread> threads_;
    std::unordered_map<const tiles::cpu_core *, int> index_;
    std::vector<uint32_t> breakpoints_;
    std::vector<rv_watchpoint> watchpoints_;
    // The bytes GDB last saw of each write watchpoint (addr, len): it compares a tile's new value
    // with them and stays silent when they are equal.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint8_t>> watch_seen_;
    std::set<std::pair<uint32_t, uint32_t>> watch_resumed_;  // write watchpoints at the last resume
    rv_debug_points points_{};
    uint64_t points_generation_ = 1;  // the cores' code watch follows the breakpoints
    stop_info last_;
    int general_ = 0, control_thread_ = -1;  // Hg and Hc selections
    bool ending_ = false;
    bool wait_at_start_ = false;
    bool waiting_reply_ = false;  // GDB resumed us and waits for a stop reply
    unsigned poll_countdown_ = 0;
    sc_core::sc_event resume_event_;
    sc_core::sc_time resumed_at_;                  // when GDB last resumed the platform
    sc_core::sc_time hold_limit_, period_;
    bool holding_ = false;                         // the last resume held a live core
    std::function<std::string(const std::string &)> monitor_;
    std::function<std::string()> reset_;
    std::string cores_table() const;  // monitor cores
};

}  // namespace vp
