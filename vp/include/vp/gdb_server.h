// GDB remote-serial-protocol server of the platform (docs/debugging.md).
//
// Every started core of every tile is one GDB thread ("tile T core C", thread id = 1 + position in
// tile-major order). All-stop: a core that stops (breakpoint, watchpoint, step, interrupt) serves
// the debugger inside its own SystemC thread, so no other process runs and simulated time stands
// still until GDB resumes. Breakpoints and watchpoints are kept here, not written into memory, and
// apply to every core (GDB filters thread-specific ones itself).
#pragma once
#include <chrono>
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
#include "vp/checkpoints.h"
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
    void set_monitor(std::function<std::string(const std::string &)> fn) {
        monitor_ = std::move(fn);
    }
    // `monitor reset`: restarts the platform from its firmware; returns "" or why it could not.
    void set_reset(std::function<std::string()> fn) { reset_ = std::move(fn); }

    // Reverse execution (gdb_reverse.cpp, docs/debugging.md): checkpoints every `interval` steps
    // of all cores, at most `max`. flush: writes out every output before a fork; abandon: the
    // outputs' future is abandoned (a debugger changed the simulation).
    void enable_reverse(unsigned max, uint64_t interval, std::function<void()> flush,
                        std::function<void()> abandon,
                        std::function<std::vector<uint64_t>()> counts,
                        std::function<void(const uint64_t *)> cut);
    checkpoints *reverse() { return checkpoints_.get(); }
    // monitor where: the function a pc of a tile lies in ("" if unknown).
    void set_symbolizer(std::function<std::string(unsigned, uint32_t)> fn) {
        symbol_ = std::move(fn);
    }
    // monitor state FILE: every tile's memory, for a comparison byte by byte.
    void set_memory_dump(std::function<std::string(std::ostream &)> fn) {
        dump_memory_ = std::move(fn);
    }

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
    void set_hold_limit(uint64_t cycles, sc_core::sc_time period) {
        hold_limit_ = period * double(cycles);
        period_ = period;
    }

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
        bool blocked = false;  // waiting in hold(): the simulation differs from an unheld run
    };
    struct stop_info {
        int thread = 0;  // index into threads_
        int signal = 5;  // SIGTRAP; 2 for an interrupt
        rv_debug_hit hit{};
        bool history_begin = false;  // replaylog:begin: no history before this point
    };
    // Where a replay goes (gdb_reverse.cpp): a core's step count or cycle, then what to tell GDB;
    // or a scan for the last breakpoint/watchpoint hit before a point.
    struct replay_plan {
        enum class kind : uint8_t { none, go, scan } mode = kind::none;
        int thread = 0;
        uint64_t steps = 0;     // go: stop when `thread` has done this many steps
        bool by_cycle = false;  // go: ... or reached this cycle (monitor goto)
        uint64_t cycle = 0;
        bool monitor = false;     // go: arriving answers a monitor command, not a resume
        stop_info arrive{};       // go: the stop GDB is told
        uint64_t end_global = 0;  // scan: the point it ends at (global steps)
        int from = -1;            // scan: the checkpoint it started from
    };
    struct scan_hit {
        int thread;
        uint64_t steps;
        rv_debug_hit hit;
    };

    void hold(thread &t);  // waits while the debugger holds this core
    void stop_all(int thread, int signal, const rv_debug_hit &hit, bool skip_first = true,
                  bool history_begin = false);
    void console(const std::string &text);      // an `O` packet: a line GDB prints
    std::string thread_name(int thread) const;  // "thread 3 (tile 1 core 0)"
    // Per-tile write watchpoints (gdb_watch.cpp): GDB keeps one value per watchpoint, each tile has
    // its own copy. Returns false when the hit is not to be reported as a watchpoint stop.
    bool watch_hit(int thread, const rv_debug_hit &hit);
    // The write watchpoint a hit is of, and its bytes in the core's tile before and after the
    // store about to happen; false if they cannot be known (a device, a failing SC).
    bool watch_change(int thread, const rv_debug_hit &hit, const rv_watchpoint *&w,
                      std::vector<uint8_t> &before, std::vector<uint8_t> &after) const;
    void remember_watch_values();  // at a resume: the value GDB holds for each new write watchpoint
    void serve();                  // packet loop while stopped
    bool handle(const std::string &p);  // true: resume
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
    resume_result resume(const std::string &p);           // c, s, vCont
    void resume_all(action act);
    void detach();
    int thread_of(const std::string &id, int fallback) const;
    void refresh_points();

    gdb_connection conn_;
    run_control &control_;
    std::ostream &log_;
    std::vector<thread> threads_;
    std::unordered_map<const tiles::cpu_core *, int> index_;
    // Their storage never moves (reserved once, inserts beyond it refused): a core held inside its
    // slice (after_access) runs on with a copy of points_ taken at the slice's start.
    static constexpr size_t max_breakpoints = 256, max_watchpoints = 64;
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
    sc_core::sc_time resumed_at_;  // when GDB last resumed the platform
    sc_core::sc_time hold_limit_, period_;
    bool holding_ = false;  // the last resume held a live core
    std::function<std::string(const std::string &)> monitor_;
    std::function<std::string()> reset_;
    std::string cores_table() const;  // monitor cores

    // Reverse execution (gdb_reverse.cpp).
    void reverse_slice(int me);  // checkpoints; an anchor that vanished ends us
    void take_checkpoint(int me, bool barrier);
    void restored(const std::string &message, int client);  // in the copy a checkpoint made
    std::string state_message(const replay_plan &plan) const;
    [[noreturn]] void go_back(unsigned checkpoint, const replay_plan &plan);
    bool hand_over(unsigned checkpoint, const replay_plan &plan, std::string &why);
    std::string reverse_step();      // bs: "" when handed over, else the reply
    std::string reverse_continue();  // bc
    std::string history_begin_reply(int thread);
    bool arrive(int me, const rv_debug_hit &hit);  // a replay target reached; true if handled
    void scan_done();                              // a scan reached its end: on to the next process
    bool scan_counts(int me, const rv_debug_hit &hit) const;
    uint64_t global_steps() const;                        // all cores' steps now
    void before_resume(const std::vector<action> &acts);  // barrier on a change of the simulation
    std::string goto_cycle(const std::string &args, bool &resumed);  // monitor goto
    std::string where_table() const;                                 // monitor where
    std::string checkpoints_table() const;                           // monitor checkpoints
    std::string dump_state(const std::string &path) const;           // monitor state FILE

    std::unique_ptr<checkpoints> checkpoints_;
    std::function<void()> flush_outputs_, abandon_outputs_;
    std::function<std::vector<uint64_t>()> output_counts_;  // bytes each output has written
    std::function<void(const uint64_t *)> cut_outputs_;     // the outputs' future after these
    void replay_ended();  // a replay stopped short of or at its target: what it will not redo goes
    std::function<std::string(unsigned, uint32_t)> symbol_;
    std::function<std::string(std::ostream &)> dump_memory_;
    std::vector<uint64_t> seen_steps_;  // per thread at its last slice: the global count's parts
    uint64_t global_ = 0, next_checkpoint_ = 0;
    bool intervened_ = false;  // registers, memory or a reset changed since the last resume
    bool diverged_ = false;    // a held core waited since the last resume (barrier taken)
    void barrier(int me);      // the future is abandoned; a checkpoint keeps this point
    replay_plan replay_;
    std::vector<scan_hit> scan_hits_;
    unsigned anchor_countdown_ = 0;
    std::chrono::steady_clock::time_point keepalive_{};  // a long monitor goto: GDB hears of it
};

}  // namespace vp
