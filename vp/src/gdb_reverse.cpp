// Reverse execution for GDB (docs/debugging.md, "Reverse execution"): the RSP packets bs
// (reverse-stepi; GDB builds reverse-step, reverse-next and reverse-finish on it and on bc) and bc
// (reverse-continue), and the monitor commands goto, where, checkpoints and state.
//
// A point of the run is named by a core and its step count (rv_cpu_steps: instructions retired,
// exceptions and interrupts taken): "core k is about to do step s + 1". The simulation is
// deterministic and the debugger never changes what is simulated unless it writes registers or
// memory, resets, or holds cores (scheduler-locking); so going back to (k, s) is: ask the latest
// checkpoint from which core k has not yet done step s + 1 for a copy of itself, and let the copy
// run forward, at full speed, until core k is there (vp/checkpoints.h). What changes the
// simulation takes a checkpoint at once (a barrier): a replay never crosses it.
//
// reverse-continue scans: a copy of the checkpoint before the present runs forward to the present
// with the breakpoints and watchpoints set, remembering the last hit without stopping; then a copy
// of the checkpoint before that hit goes there. Without a hit it scans the interval before, and
// so on back to the first checkpoint: the beginning of the history (GDB: "No more
// reverse-execution history").
#include <cstring>
#include <fstream>
#include <unistd.h>
#include <iomanip>
#include <sstream>

#include "gdb_target.h"
#include "vp/gdb_server.h"
#include "vp/text_table.h"

namespace vp {

namespace {

constexpr int sigtrap = 5;

// The message a copy is made with: the plan and the debugger's state, in a few fixed-size fields.
class writer {
public:
    void u64(uint64_t v) { out_.append(reinterpret_cast<const char *>(&v), sizeof v); }
    void str(const std::string &s) {
        u64(s.size());
        out_ += s;
    }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

class reader {
public:
    explicit reader(const std::string &in) : in_(in) {}
    uint64_t u64() {
        uint64_t v = 0;
        if (at_ + sizeof v > in_.size()) throw std::runtime_error("a truncated checkpoint message");
        std::memcpy(&v, in_.data() + at_, sizeof v);
        at_ += sizeof v;
        return v;
    }
    std::string str() {
        const uint64_t n = u64();
        if (n > in_.size() - at_) throw std::runtime_error("a truncated checkpoint message");
        std::string s = in_.substr(at_, n);
        at_ += n;
        return s;
    }

private:
    const std::string &in_;
    size_t at_ = 0;
};

void put_stop(writer &w, int thread, int signal, const rv_debug_hit &hit, bool begin) {
    w.u64(uint64_t(thread));
    w.u64(uint64_t(signal));
    w.u64(uint64_t(hit.reason));
    w.u64(hit.watch_kind);
    w.u64(hit.watch_addr);
    w.u64(begin);
}

}  // namespace

void gdb_server::enable_reverse(unsigned max, uint64_t interval, std::function<void()> flush,
                                std::function<void()> abandon,
                                std::function<std::vector<uint64_t>()> counts,
                                std::function<void(const uint64_t *)> cut) {
    checkpoints_ = std::make_unique<checkpoints>(unsigned(threads_.size()), max, interval);
    flush_outputs_ = std::move(flush);
    abandon_outputs_ = std::move(abandon);
    output_counts_ = std::move(counts);
    cut_outputs_ = std::move(cut);
    seen_steps_.assign(threads_.size(), 0);
}

uint64_t gdb_server::global_steps() const {
    uint64_t g = 0;
    for (const thread &t : threads_) g += rv_cpu_steps(t.core->iss());
    return g;
}

void gdb_server::reverse_slice(int me) {
    if (!checkpoints_) return;
    if (anchor_countdown_-- == 0) {
        anchor_countdown_ = 256;
        if (!checkpoints_->anchor_alive()) _exit(137);  // the process the user waits for was killed
    }
    const uint64_t s = rv_cpu_steps(threads_[me].core->iss());
    global_ += s - seen_steps_[me];
    seen_steps_[me] = s;
    // A scan must not thin the checkpoints it goes back through.
    if (replay_.mode == replay_plan::kind::scan || global_ < next_checkpoint_) return;
    const uint64_t g = global_steps();
    if (!checkpoints_->recent(g)) take_checkpoint(me, false);
    next_checkpoint_ = g + checkpoints_->interval();
}

void gdb_server::take_checkpoint(int me, bool barrier) {
    if (flush_outputs_) flush_outputs_();
    std::vector<uint64_t> steps(threads_.size()), cycles(threads_.size());
    uint64_t g = 0;
    for (size_t i = 0; i < threads_.size(); ++i) {
        steps[i] = rv_cpu_steps(threads_[i].core->iss());
        cycles[i] = rv_cpu_cycles(threads_[i].core->iss());
        g += steps[i];
    }
    std::string message;
    int client = -1;
    const std::vector<uint64_t> out = output_counts_ ? output_counts_() : std::vector<uint64_t>{};
    if (checkpoints_->take(g, uint64_t(sc_core::sc_time_stamp().value()), me, steps, cycles, out,
                           barrier, message, client, {conn_.client_fd()}))
        restored(message, client);
}

std::string gdb_server::state_message(const replay_plan &plan) const {
    writer w;
    w.u64(1);  // version
    w.u64(uint64_t(plan.mode));
    w.u64(uint64_t(plan.thread));
    w.u64(plan.steps);
    w.u64(plan.by_cycle);
    w.u64(plan.cycle);
    w.u64(plan.monitor);
    put_stop(w, plan.arrive.thread, plan.arrive.signal, plan.arrive.hit, plan.arrive.history_begin);
    w.u64(plan.end_global);
    w.u64(uint64_t(int64_t(plan.from)));
    w.u64(breakpoints_.size());
    for (uint32_t b : breakpoints_) w.u64(b);
    w.u64(watchpoints_.size());
    for (const rv_watchpoint &x : watchpoints_) {
        w.u64(x.addr);
        w.u64(x.len);
        w.u64(x.kind);
    }
    w.u64(watch_seen_.size());
    for (const auto &[key, bytes] : watch_seen_) {
        w.u64(key.first);
        w.u64(key.second);
        w.str(std::string(bytes.begin(), bytes.end()));
    }
    w.u64(watch_resumed_.size());
    for (const auto &key : watch_resumed_) {
        w.u64(key.first);
        w.u64(key.second);
    }
    w.u64(uint64_t(general_));
    w.u64(uint64_t(int64_t(control_thread_)));
    w.u64(uint64_t(hold_limit_ / period_));
    w.u64(points_generation_);
    w.str(conn_.pending_input());
    return w.take();
}

void gdb_server::restored(const std::string &message, int client) {
    // This process is a fresh copy of a checkpoint: the debugger's state comes from the process
    // that asked for it; the simulation's (including which cores GDB holds) is the checkpoint's.
    reader r(message);
    if (r.u64() != 1) _exit(3);
    replay_plan p;
    p.mode = replay_plan::kind(r.u64());
    p.thread = int(r.u64());
    p.steps = r.u64();
    p.by_cycle = r.u64() != 0;
    p.cycle = r.u64();
    p.monitor = r.u64() != 0;
    p.arrive.thread = int(r.u64());
    p.arrive.signal = int(r.u64());
    p.arrive.hit.reason = rv_debug_reason(r.u64());
    p.arrive.hit.watch_kind = unsigned(r.u64());
    p.arrive.hit.watch_addr = uint32_t(r.u64());
    p.arrive.history_begin = r.u64() != 0;
    p.end_global = r.u64();
    p.from = int(int64_t(r.u64()));
    breakpoints_.assign(r.u64(), 0);
    for (uint32_t &b : breakpoints_) b = uint32_t(r.u64());
    watchpoints_.assign(r.u64(), rv_watchpoint{});
    for (rv_watchpoint &x : watchpoints_) {
        x.addr = uint32_t(r.u64());
        x.len = uint32_t(r.u64());
        x.kind = unsigned(r.u64());
    }
    watch_seen_.clear();
    for (uint64_t n = r.u64(); n > 0; --n) {
        const uint32_t a = uint32_t(r.u64()), l = uint32_t(r.u64());
        const std::string bytes = r.str();
        watch_seen_[{a, l}] = std::vector<uint8_t>(bytes.begin(), bytes.end());
    }
    watch_resumed_.clear();
    for (uint64_t n = r.u64(); n > 0; --n) {
        const uint32_t a = uint32_t(r.u64()), l = uint32_t(r.u64());
        watch_resumed_.insert({a, l});
    }
    general_ = int(r.u64());
    control_thread_ = int(int64_t(r.u64()));
    hold_limit_ = period_ * double(r.u64());
    points_generation_ = r.u64();
    refresh_points();  // a new generation: every core installs its code watch again
    conn_.adopt(client, r.str());
    replay_ = p;
    scan_hits_.clear();
    for (thread &t : threads_) {
        if (t.act == action::step) t.act = action::run;  // a step's stop changed nothing simulated
        t.report_after_step.clear();
        if (p.mode == replay_plan::kind::scan) t.skip_first = false;  // a hit right here counts
    }
    waiting_reply_ = !p.monitor;
    ending_ = false;
    wait_at_start_ = false;
    intervened_ = false;
}

bool gdb_server::hand_over(unsigned checkpoint, const replay_plan &plan, std::string &why) {
    if (flush_outputs_) flush_outputs_();
    return checkpoints_->hand_over(checkpoint, state_message(plan), conn_.client_fd(), why);
}

void gdb_server::go_back(unsigned checkpoint, const replay_plan &plan) {
    std::string why;
    hand_over(checkpoint, plan, why);
    // The checkpoint is gone: stay here and say so (the reply GDB waits for is a stop).
    console("namp-vp: cannot go back: " + why + "\n");
    replay_.mode = replay_plan::kind::none;
    waiting_reply_ = true;
    stop_all(last_.thread, sigtrap, {});
    for (;;) sc_core::wait(resume_event_);  // never reached: serve() resumed us elsewhere
}

std::string gdb_server::history_begin_reply(int thread) {
    last_ = {thread, sigtrap, {}, true};
    return stop_reply();
}

std::string gdb_server::reverse_step() {
    if (!checkpoints_)
        return "E.namp-vp: reverse execution is off (host.checkpoints is 0, or no --gdb at the "
               "start)";
    const int k = control_thread_ >= 0 ? control_thread_ : last_.thread;
    const uint64_t s = rv_cpu_steps(threads_[k].core->iss());
    const int i = s ? checkpoints_->before(k, s - 1) : -1;
    if (i < 0) return history_begin_reply(k);
    replay_plan p;
    p.mode = replay_plan::kind::go;
    p.thread = k;
    p.steps = s - 1;
    p.arrive.thread = k;
    p.arrive.signal = sigtrap;
    p.arrive.hit.reason = RV_DEBUG_STEP;
    std::string why;
    hand_over(unsigned(i), p, why);
    return "E.namp-vp: cannot go back: " + why;
}

std::string gdb_server::reverse_continue() {
    if (!checkpoints_)
        return "E.namp-vp: reverse execution is off (host.checkpoints is 0, or no --gdb at the "
               "start)";
    const int k = last_.thread;
    const uint64_t s = rv_cpu_steps(threads_[k].core->iss()), g = global_steps();
    const int i = checkpoints_->before(k, s, g);
    if (i < 0) return history_begin_reply(k);
    replay_plan p;
    p.mode = replay_plan::kind::scan;
    p.thread = k;  // the scan ends where we are
    p.steps = s;
    p.end_global = g;
    p.from = i;
    std::string why;
    hand_over(unsigned(i), p, why);
    return "E.namp-vp: cannot go back: " + why;
}

bool gdb_server::scan_counts(int me, const rv_debug_hit &hit) const {
    if (hit.reason == RV_DEBUG_BREAKPOINT) return true;
    if (hit.reason != RV_DEBUG_WATCHPOINT) return false;
    if (hit.watch_kind != RV_WATCH_WRITE) return true;
    // A write watchpoint fires where the writing core's tile copy changes (as going forward).
    const rv_watchpoint *w = nullptr;
    std::vector<uint8_t> before, after;
    return !watch_change(me, hit, w, before, after) || before != after;
}

void gdb_server::replay_ended() {
    // The history recorded past here had a debugger change at its next barrier; a run from here
    // will not make it: that barrier and what followed it are gone, and so are their outputs.
    replay_.mode = replay_plan::kind::none;
    if (!checkpoints_) return;
    const int b = checkpoints_->barrier_after(global_steps());
    if (b < 0) return;
    const checkpoints::entry e = checkpoints_->at(unsigned(b));
    checkpoints_->drop_after(e.global - 1);
    if (cut_outputs_) cut_outputs_(e.out);
}

bool gdb_server::arrive(int me, const rv_debug_hit &) {
    if (replay_.mode == replay_plan::kind::scan && me == replay_.thread) scan_done();
    if (replay_.mode != replay_plan::kind::go || me != replay_.thread) return false;
    const replay_plan p = replay_;
    replay_ended();
    const tiles::cpu_core &c = *threads_[me].core;
    if (p.monitor) {
        std::ostringstream text;
        text << "namp-vp: " << thread_name(me) << " at cycle " << rv_cpu_cycles(c.iss())
             << ", pc 0x" << std::hex << rv_cpu_get_pc(c.iss()) << std::dec << ", "
             << rv_cpu_instret(c.iss())
             << " instructions; GDB shows it after: maintenance flush register-cache\n";
        console(text.str());
        conn_.send_packet("OK");
        waiting_reply_ = false;
        general_ = me;
        stop_all(me, sigtrap, {});
        return true;
    }
    waiting_reply_ = true;
    stop_all(me, p.arrive.signal, p.arrive.hit, true, p.arrive.history_begin);
    return true;
}

void gdb_server::scan_done() {
    replay_plan p;
    p.mode = replay_plan::kind::go;
    p.arrive.signal = sigtrap;
    if (!scan_hits_.empty()) {
        const scan_hit h = scan_hits_.back();
        const int i = checkpoints_->before(h.thread, h.steps);
        p.thread = p.arrive.thread = h.thread;
        p.steps = h.steps;
        p.arrive.hit = h.hit;
        // A watchpoint is reported after its access, as a core that ran backwards would meet it:
        // GDB then steps back over the access and shows the value before it as the new one.
        if (h.hit.reason == RV_DEBUG_WATCHPOINT) p.steps = h.steps + 1;
        if (i >= 0) go_back(unsigned(i), p);
    }
    // Nothing in this interval: the one before it, back to the first checkpoint.
    const checkpoints::entry &from = checkpoints_->at(unsigned(replay_.from));
    const uint64_t from_global = from.global;
    int prev = -1;
    for (unsigned i : checkpoints_->ordered())
        if (checkpoints_->at(i).global < from_global) prev = int(i);
    if (prev < 0) {  // the beginning of the history: the first checkpoint's own point
        const std::vector<unsigned> o = checkpoints_->ordered();
        const unsigned first = o.front();
        const checkpoints::entry &e = checkpoints_->at(first);
        p.thread = p.arrive.thread = e.thread;
        p.steps = checkpoints_->steps(first)[e.thread];
        p.arrive.history_begin = true;
        go_back(first, p);
    }
    replay_plan s;
    s.mode = replay_plan::kind::scan;
    s.thread = from.thread;
    s.steps = checkpoints_->steps(unsigned(replay_.from))[from.thread];
    s.end_global = from_global;
    s.from = prev;
    go_back(unsigned(prev), s);
}

void gdb_server::before_resume(const std::vector<action> &acts) {
    // The simulation changes at this resume if the debugger wrote registers or memory, or if a
    // core that waits for it (held) is let go: the unheld run had it running all along.
    bool change = intervened_;
    for (size_t i = 0; i < threads_.size(); ++i)
        if (threads_[i].blocked && acts[i] != action::hold) change = true;
    intervened_ = false;
    diverged_ = false;
    if (checkpoints_ && change && replay_.mode == replay_plan::kind::none) barrier(last_.thread);
}

void gdb_server::barrier(int me) {
    // From here the simulation differs from what a replay of the past would give: the future
    // recorded so far is abandoned, and a barrier checkpoint keeps this point (with the cores it
    // holds) to go back to.
    checkpoints_->drop_after(global_steps());
    if (abandon_outputs_) abandon_outputs_();
    take_checkpoint(me, true);
}

std::string gdb_server::goto_cycle(const std::string &args, bool &resumed) {
    resumed = false;
    std::istringstream in(args);
    uint64_t cycle = 0;
    if (!(in >> cycle))
        return "usage: monitor goto CYCLE (of the selected thread, forward or back)\n";
    const int k = general_;
    const uint64_t now = rv_cpu_cycles(threads_[k].core->iss());
    if (cycle == now)
        return "namp-vp: " + thread_name(k) + " is at cycle " + std::to_string(now) + "\n";
    replay_plan p;
    p.mode = replay_plan::kind::go;
    p.thread = k;
    p.by_cycle = true;
    p.cycle = cycle;
    p.monitor = true;
    if (cycle > now) {  // forward: every core runs, the breakpoints are not looked at
        if (threads_[k].core->halted()) return "namp-vp: " + thread_name(k) + " has exited\n";
        replay_ = p;
        std::vector<action> acts(threads_.size(), action::run);
        for (size_t i = 0; i < threads_.size(); ++i) threads_[i].act = acts[i];
        before_resume(acts);
        if (sc_core::sc_is_running()) resume_event_.notify(sc_core::SC_ZERO_TIME);
        resumed = true;
        return "";
    }
    if (!checkpoints_)
        return "namp-vp: cannot go back: reverse execution is off (host.checkpoints)\n";
    const int i = checkpoints_->before_cycle(k, cycle);
    if (i < 0) return "namp-vp: cannot go back: no checkpoint before that cycle\n";
    std::string why;
    hand_over(unsigned(i), p, why);
    return "namp-vp: cannot go back: " + why + "\n";
}

std::string gdb_server::where_table() const {
    text_table t(
        {"thread", "tile", "core", "state", "pc", "function", "cycles", "instret", "steps"});
    for (size_t i = 0; i < threads_.size(); ++i) {
        const tiles::cpu_core &c = *threads_[i].core;
        const uint32_t pc = rv_cpu_get_pc(c.iss());
        const auto exit = control_.exit_codes().find({c.tile_id(), c.index()});
        std::string state = c.halted()             ? (exit != control_.exit_codes().end()
                                                          ? "exited (" + std::to_string(exit->second) + ")"
                                                          : std::string("halted"))
                            : c.sleeping()         ? "wfi"
                            : c.in_device_access() ? "device access"
                                                   : "ready";
        if (int(i) == last_.thread && !c.halted()) state += " *";
        std::ostringstream hex;
        hex << "0x" << std::hex << std::setw(8) << std::setfill('0') << pc;
        t.add({std::to_string(i + 1), std::to_string(c.tile_id()), std::to_string(c.index()), state,
               hex.str(), symbol_ ? symbol_(c.tile_id(), pc) : "",
               std::to_string(rv_cpu_cycles(c.iss())), std::to_string(rv_cpu_instret(c.iss())),
               std::to_string(rv_cpu_steps(c.iss()))});
    }
    return t.str() +
           "(* the thread that stopped; steps: instructions, exceptions and interrupts)\n";
}

namespace {
// KiB a process holds of its own: the pages copy-on-write gave it (or -1 if unknown).
int64_t own_kib(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/smaps_rollup");
    std::string key;
    int64_t kib = -1, v;
    while (in >> key) {
        if ((key == "Private_Dirty:" || key == "Private_Clean:") && in >> v)
            kib = (kib < 0 ? 0 : kib) + v;
    }
    return kib;
}
}  // namespace

std::string gdb_server::checkpoints_table() const {
    if (!checkpoints_) return "reverse execution is off (host.checkpoints is 0)\n";
    text_table t({"#", "steps (all cores)", "cycle", "thread", "kind", "pid", "own memory"});
    unsigned n = 0;
    int64_t total = 0;
    for (unsigned i : checkpoints_->ordered()) {
        const checkpoints::entry &e = checkpoints_->at(i);
        const int64_t kib = own_kib(e.pid);
        total += std::max<int64_t>(kib, 0);
        t.add({std::to_string(++n), std::to_string(e.global),
               std::to_string(
                   uint64_t(sc_core::sc_time(double(e.time_ps), sc_core::SC_PS) / period_)),
               std::to_string(e.thread + 1), e.barrier ? "barrier" : "periodic",
               std::to_string(e.pid), kib < 0 ? "?" : std::to_string(kib) + " KiB"});
    }
    const uint64_t n_taken = checkpoints_->taken();
    std::ostringstream fork;
    fork << std::fixed << std::setprecision(1)
         << (n_taken ? double(checkpoints_->fork_ns()) / 1e6 / double(n_taken) : 0.0);
    return t.str() + std::to_string(n_taken) + " taken so far, at most " +
           std::to_string(checkpoints_->capacity()) + " kept, one every " +
           std::to_string(checkpoints_->interval()) + " steps of all cores; a fork took " +
           fork.str() + " ms on average; together they hold " + std::to_string(total / 1024) +
           " MiB of their own\n";
}

std::string gdb_server::dump_state(const std::string &path) const {
    std::ofstream out(path, std::ios::binary);
    if (!out) return "cannot write '" + path + "'\n";
    if (dump_memory_) dump_memory_(out);
    for (const thread &t : threads_) {
        const rv_cpu *cpu = t.core->iss();
        std::vector<uint32_t> words;
        for (unsigned n = 0; n < 32; ++n) words.push_back(rv_cpu_get_reg(cpu, n));
        words.push_back(rv_cpu_get_pc(cpu));
        words.push_back(uint32_t(rv_cpu_get_priv(cpu)));
        for (const gdb_csr &c : gdb_csrs()) {
            uint32_t v = 0;
            rv_cpu_read_csr(cpu, c.number, &v);
            words.push_back(v);
        }
        for (uint64_t v : {rv_cpu_cycles(cpu), rv_cpu_instret(cpu), rv_cpu_steps(cpu)}) {
            words.push_back(uint32_t(v));
            words.push_back(uint32_t(v >> 32));
        }
        out.write(reinterpret_cast<const char *>(words.data()), std::streamsize(words.size() * 4));
    }
    const uint64_t now = sc_core::sc_time_stamp().value();
    out.write(reinterpret_cast<const char *>(&now), sizeof now);
    out.flush();
    if (!out) return "cannot write '" + path + "'\n";
    return "state written to '" + path + "' (" + std::to_string(uint64_t(out.tellp())) +
           " bytes)\n";
}

}  // namespace vp
