#include "vp/gdb_server.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "gdb_target.h"
#include "vp/text_table.h"

namespace vp {

namespace {

constexpr unsigned poll_interval = 64;  // run slices between looks at the socket (Ctrl-C, connect)
constexpr int sigint = 2, sigtrap = 5;

std::string hex8(uint32_t v) {  // a register, little-endian bytes as GDB wants them
    std::ostringstream s;
    for (int i = 0; i < 4; ++i)
        s << std::hex << std::setw(2) << std::setfill('0') << ((v >> (8 * i)) & 0xFF);
    return s.str();
}

std::string hex_bytes(const uint8_t *data, size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += digits[data[i] >> 4];
        s += digits[data[i] & 15];
    }
    return s;
}

std::string hex_text(const std::string &text) {
    return hex_bytes(reinterpret_cast<const uint8_t *>(text.data()), text.size());
}

bool parse_hex(const std::string &s, uint64_t &v) {
    if (s.empty() || s.size() > 16) return false;
    v = 0;
    for (char c : s) {
        int d = (c >= '0' && c <= '9')   ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                         : -1;
        if (d < 0) return false;
        v = v * 16 + unsigned(d);
    }
    return true;
}

bool decode_hex(const std::string &s, std::string &out) {
    if (s.size() % 2) return false;
    out.clear();
    for (size_t i = 0; i < s.size(); i += 2) {
        uint64_t b;
        if (!parse_hex(s.substr(i, 2), b)) return false;
        out += char(b);
    }
    return true;
}

// Little-endian register value from 8 hex digits.
bool parse_reg(const std::string &s, uint32_t &v) {
    std::string bytes;
    if (s.size() != 8 || !decode_hex(s, bytes)) return false;
    v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | uint8_t(bytes[i]);
    return true;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else
            cur += c;
    }
    out.push_back(cur);
    return out;
}

bool starts_with(const std::string &s, const std::string &prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

gdb_server::gdb_server(const std::string &address, run_control &control, std::ostream &log)
    : conn_(address), control_(control), log_(log) {
    conn_.set_log(log_);
    breakpoints_.reserve(max_breakpoints);
    watchpoints_.reserve(max_watchpoints);
    log_ << "namp-vp: gdb server listening on " << conn_.address() << std::endl;
}

void gdb_server::add_core(tiles::cpu_core &core, std::vector<tiles::cpu_core *> tile_cores) {
    index_[&core] = int(threads_.size());
    threads_.push_back({&core, std::move(tile_cores), action::run, false, {}});
}

void gdb_server::wait_at_start() {
    // The wait happens in the first run slice: only then is elaboration complete, so the debug
    // transport of the bus works, and still no core has executed an instruction.
    wait_at_start_ = true;
    log_ << "namp-vp: waiting for gdb on " << conn_.address() << std::endl;
}

void gdb_server::finish(int exit_code) {
    if (!conn_.connected()) return;
    conn_.send_packet("W" + std::string(1, "0123456789abcdef"[(exit_code >> 4) & 15]) +
                      "0123456789abcdef"[exit_code & 15]);
    conn_.close_client();
}

tiles::debug_slice gdb_server::before_slice(tiles::cpu_core &core) {
    const int me = index_.at(&core);
    if (wait_at_start_) {
        wait_at_start_ = false;
        if (conn_.accept_client(true)) stop_all(me, sigtrap, {});
    }
    thread &t = threads_[me];
    // Held first: a held core neither runs nor looks at the socket, so it never reports a stop.
    hold(t);
    if (holding_ && waiting_reply_ && replay_.mode == replay_plan::kind::none &&
        hold_limit_ != sc_core::SC_ZERO_TIME &&
        sc_core::sc_time_stamp() - resumed_at_ >= hold_limit_) {
        holding_ = false;
        console("namp-vp: " + thread_name(me) + " ran " +
                std::to_string(uint64_t((sc_core::sc_time_stamp() - resumed_at_) / period_)) +
                " cycles without reaching a stop while the other threads are held "
                "(scheduler-locking): it may wait for one of them; stopped here (monitor "
                "hold-limit)\n");
        stop_all(me, sigtrap, {}, false);
        hold(t);
    }
    if (poll_countdown_-- == 0) {
        poll_countdown_ = poll_interval;
        if (replay_.mode == replay_plan::kind::go && replay_.monitor) {
            // GDB waits for the answer of `monitor goto` with its remote timeout (2 s): a line of
            // progress now and then keeps it waiting.
            const auto now = std::chrono::steady_clock::now();
            if (now - keepalive_ > std::chrono::milliseconds(500)) {
                keepalive_ = now;
                console("namp-vp: going to cycle " + std::to_string(replay_.cycle) + ": " +
                        thread_name(replay_.thread) + " is at cycle " +
                        std::to_string(rv_cpu_cycles(threads_[replay_.thread].core->iss())) + "\n");
            }
        }
        if (!conn_.connected()) {
            if (conn_.accept_client(false)) stop_all(me, sigtrap, {});  // a new GDB stops us
        } else if (conn_.poll_interrupt()) {
            if (replay_.mode != replay_plan::kind::none)
                replay_ended();  // Ctrl-C: stop where it is
            stop_all(me, sigint, {});
        } else if (!conn_.connected()) {
            detach();  // GDB went away while we ran: drop its points
        }
        hold(t);  // the stop may have held us
    }
    reverse_slice(me);  // may take a checkpoint (and come back here in a copy made of it)
    thread &u = threads_[me];
    tiles::debug_slice s;
    s.step = u.act == action::step || !u.report_after_step.empty();
    s.skip_first = u.skip_first || s.step;
    u.skip_first = false;
    // A replay to a point ignores the breakpoints; a scan looks at them without stopping.
    const bool replaying = replay_.mode == replay_plan::kind::go;
    s.points = (replaying || (breakpoints_.empty() && watchpoints_.empty())) ? nullptr : &points_;
    s.points_generation = points_generation_;
    if (replay_.mode != replay_plan::kind::none && me == replay_.thread) {
        s.has_cycle_target = replaying && replay_.by_cycle;
        s.target_cycle = replay_.cycle;
        s.has_target = !s.has_cycle_target;
        s.target_steps = replay_.steps;
    }
    return s;
}

void gdb_server::stopped(tiles::cpu_core &core, const rv_debug_hit &hit) {
    const int me = index_.at(&core);
    thread &t = threads_[me];
    if (hit.reason == RV_DEBUG_TARGET && arrive(me, hit)) return;
    if (replay_.mode == replay_plan::kind::scan) {
        // a scan remembers the last hit and goes on (only hits strictly before its end count:
        // the end is checked before the points)
        if (scan_counts(me, hit)) scan_hits_.assign(1, {me, rv_cpu_steps(core.iss()), hit});
        t.skip_first = true;
        return;
    }
    if (hit.reason == RV_DEBUG_STEP && !t.report_after_step.empty()) {
        // the store of a watchpoint hit GDB could not show is done: say what it changed
        console(t.report_after_step);
        t.report_after_step.clear();
        stop_all(me, sigtrap, {});
        return;
    }
    if (!watch_hit(me, hit)) {
        t.skip_first = true;  // on past the access (after the store, if a line is pending)
        return;
    }
    stop_all(me, sigtrap, hit);
}

void gdb_server::console(const std::string &text) {
    for (size_t i = 0; i < text.size(); i += 400)
        conn_.send_packet("O" + hex_text(text.substr(i, 400)));
}

std::string gdb_server::thread_name(int thread) const {
    const tiles::cpu_core &c = *threads_[thread].core;
    return "thread " + std::to_string(thread + 1) + " (tile " + std::to_string(c.tile_id()) +
           " core " + std::to_string(c.index()) + ")";
}

bool gdb_server::starved() {
    if (!conn_.connected() || !waiting_reply_ || ending_ || replay_.mode != replay_plan::kind::none)
        return false;
    int waiting = -1;
    bool held = false;
    for (size_t i = 0; i < threads_.size(); ++i) {
        if (threads_[i].core->halted()) continue;
        if (threads_[i].act == action::hold)
            held = true;
        else if (waiting < 0)
            waiting = int(i);
    }
    if (!held || waiting < 0) return false;  // nothing held: a hang like any other
    const tiles::cpu_core &c = *threads_[waiting].core;
    console("namp-vp: " + thread_name(waiting) + (c.sleeping() ? " sleeps in wfi" : " waits") +
            " and no thread that runs can wake it: the others are held (scheduler-locking); "
            "stopped here instead of ending the run as a hang\n");
    stop_all(waiting, sigtrap, {}, false);
    return conn_.connected() || !ending_;
}

void gdb_server::after_access(tiles::cpu_core &core) { hold(threads_[index_.at(&core)]); }

void gdb_server::halted(tiles::cpu_core &core) {
    const int me = index_.at(&core);
    if (!waiting_reply_ || ending_ || control_.reason() != end_reason::running ||
        replay_.mode != replay_plan::kind::none)
        return;
    for (size_t i = 0; i < threads_.size(); ++i)
        if (int(i) != me && !threads_[i].core->halted() && threads_[i].act != action::hold)
            return;  // another core runs and will report
    const auto exit = control_.exit_codes().find({core.tile_id(), core.index()});
    console("namp-vp: " + thread_name(me) + " " +
            (exit != control_.exit_codes().end()
                 ? "exited with code " + std::to_string(exit->second)
                 : std::string("halted")) +
            "; the other threads are held\n");
    stop_all(me, sigtrap, {});
}

void gdb_server::hold(thread &t) {
    while (t.act == action::hold && !ending_) {
        // The first core that waits for the debugger makes the run differ from one without it:
        // reverse execution keeps this point (the replays before it never cross it).
        if (!t.blocked && !diverged_ && checkpoints_ && replay_.mode == replay_plan::kind::none) {
            diverged_ = true;
            barrier(int(&t - threads_.data()));
        }
        t.blocked = true;
        sc_core::wait(resume_event_);
    }
    t.blocked = false;
    while (ending_) sc_core::wait(resume_event_);  // the kill's sc_stop takes effect
}

void gdb_server::stop_all(int thread, int signal, const rv_debug_hit &hit, bool skip_first,
                          bool history_begin) {
    last_ = {thread, signal, hit, history_begin};
    general_ = thread;
    if (skip_first) threads_[thread].skip_first = true;  // resuming must not stop here again
    if (waiting_reply_) {
        conn_.send_packet(stop_reply());
        waiting_reply_ = false;
    }
    serve();
}

void gdb_server::serve() {
    std::string packet;
    while (!ending_ && conn_.connected()) {
        if (!conn_.read_packet(packet)) break;
        try {
            if (handle(packet)) return;
        } catch (const std::exception &) {
            conn_.send_packet("E00");  // a packet we failed to parse never ends the run
        }
    }
    if (!ending_) detach();  // GDB went away without detaching: the run goes on without it
}

void gdb_server::detach() {
    breakpoints_.clear();
    watchpoints_.clear();
    refresh_points();
    resume_all(action::run);
    conn_.close_client();
    waiting_reply_ = false;
}

void gdb_server::refresh_points() {
    points_.breakpoints = breakpoints_.data();
    points_.breakpoint_count = unsigned(breakpoints_.size());
    points_.watchpoints = watchpoints_.data();
    points_.watchpoint_count = unsigned(watchpoints_.size());
    ++points_generation_;
}

void gdb_server::resume_all(action act) {
    for (thread &t : threads_) t.act = act;
    if (sc_core::sc_is_running()) resume_event_.notify(sc_core::SC_ZERO_TIME);
}

std::string gdb_server::stop_reply() const {
    std::ostringstream r;
    r << "T" << std::hex << std::setw(2) << std::setfill('0') << last_.signal;
    if (last_.hit.reason == RV_DEBUG_WATCHPOINT) {
        const char *kind = last_.hit.watch_kind == RV_WATCH_WRITE  ? "watch"
                           : last_.hit.watch_kind == RV_WATCH_READ ? "rwatch"
                                                                   : "awatch";
        r << kind << ":" << last_.hit.watch_addr << ";";
    }
    if (last_.history_begin) r << "replaylog:begin;";  // GDB: No more reverse-execution history.
    r << "thread:" << (last_.thread + 1) << ";";
    return r.str();
}

int gdb_server::thread_of(const std::string &id, int fallback) const {
    if (id == "-1" || id == "0" || id.empty()) return fallback;
    uint64_t v;
    if (!parse_hex(id, v) || v == 0 || v > threads_.size()) return -1;
    return int(v - 1);
}

bool gdb_server::read_register(const thread &t, unsigned n, uint32_t &v) const {
    const rv_cpu *cpu = t.core->iss();
    if (n < 32) {
        v = rv_cpu_get_reg(cpu, n);
        return true;
    }
    if (n == gdb_pc_regnum) {
        v = rv_cpu_get_pc(cpu);
        return true;
    }
    if (n == gdb_priv_regnum) {
        v = uint32_t(rv_cpu_get_priv(cpu));
        return true;
    }
    return n >= gdb_csr_regnum && n - gdb_csr_regnum <= 0xFFF &&
           rv_cpu_read_csr(cpu, n - gdb_csr_regnum, &v);
}

bool gdb_server::write_register(thread &t, unsigned n, uint32_t v) {
    rv_cpu *cpu = t.core->debug_iss();
    intervened_ = true;  // the simulation differs from here (reverse execution keeps this point)
    if (n < 32) {
        rv_cpu_set_reg(cpu, n, v);
        return true;
    }
    if (n == gdb_pc_regnum) {
        rv_cpu_set_pc(cpu, v);
        return true;
    }
    return n >= gdb_csr_regnum && n - gdb_csr_regnum <= 0xFFF &&
           rv_cpu_write_csr(cpu, n - gdb_csr_regnum, v);
}

std::string gdb_server::read_registers(const thread &t) const {
    std::string r;
    for (unsigned n = 0; n <= gdb_pc_regnum; ++n) {
        uint32_t v = 0;
        read_register(t, n, v);
        r += hex8(v);
    }
    return r;
}

std::string gdb_server::memory_read(const std::string &args) {
    const auto f = split(args, ',');
    uint64_t addr, len;
    if (f.size() != 2 || !parse_hex(f[0], addr) || !parse_hex(f[1], len) || addr > 0xFFFFFFFFull)
        return "E01";
    len = std::min<uint64_t>(len, 0x4000);
    std::vector<uint8_t> buf(len);
    const unsigned n =
        threads_[general_].core->debug_memory(false, uint32_t(addr), buf.data(), unsigned(len));
    if (n == 0 && len) return "E14";
    return hex_bytes(buf.data(), n);
}

std::string gdb_server::memory_write(const std::string &args, bool binary) {
    const size_t colon = args.find(':');
    if (colon == std::string::npos) return "E01";
    const auto f = split(args.substr(0, colon), ',');
    uint64_t addr, len;
    if (f.size() != 2 || !parse_hex(f[0], addr) || !parse_hex(f[1], len) || addr > 0xFFFFFFFFull)
        return "E01";
    std::string data = args.substr(colon + 1);
    if (!binary && !decode_hex(data, data)) return "E01";
    if (data.size() != len) return "E01";
    if (len == 0) return "OK";  // GDB probes for X support this way
    thread &t = threads_[general_];
    intervened_ = true;
    const unsigned n = t.core->debug_memory(true, uint32_t(addr),
                                            reinterpret_cast<uint8_t *>(&data[0]), unsigned(len));
    // The write may have changed code: every core of the tile decodes it again.
    for (tiles::cpu_core *c : t.tile_cores) rv_cpu_flush_decode_cache(c->debug_iss());
    return n == len ? "OK" : "E14";
}

std::string gdb_server::points(const std::string &p) {
    const bool insert = p[0] == 'Z';
    const auto f = split(p.substr(1), ',');
    uint64_t type, addr, len;
    if (f.size() < 3 || !parse_hex(f[0], type) || !parse_hex(f[1], addr) ||
        !parse_hex(split(f[2], ';')[0], len) || addr > 0xFFFFFFFFull)
        return "E01";
    if (type <= 1) {  // software and hardware breakpoints are the same thing here
        auto it = std::find(breakpoints_.begin(), breakpoints_.end(), uint32_t(addr));
        if (insert && breakpoints_.size() == max_breakpoints) return "E0E";  // storage never moves
        if (insert)
            breakpoints_.push_back(uint32_t(addr));
        else if (it != breakpoints_.end())
            breakpoints_.erase(it);
    } else if (type <= 4) {
        if (len == 0 || len > 0x10000) return "E01";
        static const unsigned kinds[] = {RV_WATCH_WRITE, RV_WATCH_READ, RV_WATCH_ACCESS};
        const rv_watchpoint w{uint32_t(addr), uint32_t(len), kinds[type - 2]};
        auto it =
            std::find_if(watchpoints_.begin(), watchpoints_.end(), [&](const rv_watchpoint &x) {
                return x.addr == w.addr && x.len == w.len && x.kind == w.kind;
            });
        if (insert && watchpoints_.size() == max_watchpoints) return "E0E";
        if (insert)
            watchpoints_.push_back(w);
        else if (it != watchpoints_.end())
            watchpoints_.erase(it);
    } else {
        return "";
    }
    refresh_points();
    return "OK";
}

std::string gdb_server::xfer(const std::string &p) {
    // qXfer:OBJECT:read:ANNEX:OFFSET,LENGTH
    const auto f = split(p, ':');
    if (f.size() != 5 || f[2] != "read") return "";
    std::string doc;
    if (f[1] == "features" && f[3] == "target.xml") {
        doc = gdb_target_xml();
    } else if (f[1] == "threads" && f[3].empty()) {
        std::ostringstream x;
        x << "<?xml version=\"1.0\"?>\n<threads>\n";
        for (size_t i = 0; i < threads_.size(); ++i)
            x << "  <thread id=\"" << std::hex << i + 1 << std::dec << "\" name=\"tile "
              << threads_[i].core->tile_id() << " core " << threads_[i].core->index() << "\"/>\n";
        x << "</threads>\n";
        doc = x.str();
    } else {
        return "E00";
    }
    const auto range = split(f[4], ',');
    uint64_t off, len;
    if (range.size() != 2 || !parse_hex(range[0], off) || !parse_hex(range[1], len)) return "E01";
    if (off >= doc.size()) return "l";
    const std::string part = doc.substr(off, len);
    return (off + part.size() >= doc.size() ? "l" : "m") + part;
}

std::string gdb_server::cores_table() const {
    static const char *const acts[] = {"held", "run", "step"};
    text_table t({"thread", "tile", "core", "state", "resume", "pc", "cycles", "instret"});
    for (size_t i = 0; i < threads_.size(); ++i) {
        const thread &th = threads_[i];
        const tiles::cpu_core &c = *th.core;
        std::string state = "stopped";  // all-stop: every live core is stopped while GDB looks
        const auto exit = control_.exit_codes().find({c.tile_id(), c.index()});
        if (control_.failures().count({c.tile_id(), c.index()}))
            state = "failed";
        else if (exit != control_.exit_codes().end())
            state = "exited (" + std::to_string(exit->second) + ")";
        else if (c.halted())
            state = "halted";
        else if (c.sleeping())
            state = "stopped in wfi";
        else if (c.in_device_access())
            state = "stopped in a device access";
        if (int(i) == last_.thread && !c.halted()) state += " *";
        std::ostringstream pc;
        pc << "0x" << std::hex << std::setw(8) << std::setfill('0') << rv_cpu_get_pc(c.iss());
        t.add({std::to_string(i + 1), std::to_string(c.tile_id()), std::to_string(c.index()), state,
               c.halted() ? "-" : acts[int(th.act)], pc.str(),
               std::to_string(rv_cpu_cycles(c.iss())), std::to_string(rv_cpu_instret(c.iss()))});
    }
    return t.str() +
           "(* the thread that stopped; resume: what the last continue or step asked of it)\n";
}

std::string gdb_server::monitor(const std::string &command) {
    if (command == "help" || command.empty())
        return "monitor commands of namp-vp:\n"
               "  cores          every thread: tile, core, state, resume action, pc, cycles\n"
               "  hold-limit [N] cycles a thread runs while GDB holds others before it stops\n"
               "  stats [json]   the run so far: a table of the tiles (json: as --stats writes "
               "it)\n"
               "  tile N [json]  tile N so far: its cores, bus and console\n"
               "  na N [json]    the network adapter of tile N: channels, DMA, RMA, NAMP slots\n"
               "  reset          restart every core from the loaded firmware (memory reloaded)\n"
               "  where          every thread: state, pc, function, cycles, instructions, steps\n"
               "  goto CYCLE     the selected thread to its cycle CYCLE, forward or back\n"
               "  checkpoints    the checkpoints reverse execution goes back to\n"
               "  state FILE     every tile's memory and every core's registers into FILE\n"
               "  quit           end the run now (exit code 0) and close the connection\n";
    if (command == "cores") return cores_table();
    if (command == "where") return where_table();
    if (command == "checkpoints") return checkpoints_table();
    if (command.rfind("state ", 0) == 0) return dump_state(command.substr(6));
    if (command.rfind("hold-limit", 0) == 0) {
        std::istringstream in(command.substr(10));
        uint64_t cycles = 0;
        if (!(in >> cycles)) {
            return "hold-limit: " + std::to_string(uint64_t(hold_limit_ / period_)) +
                   " cycles (monitor hold-limit N sets it; 0: never)\n";
        }
        hold_limit_ = period_ * double(cycles);
        return "a resumed thread runs at most " + std::to_string(cycles) +
               " cycles while others are held\n";
    }
    if (command == "reset") {
        const std::string why = reset_ ? reset_() : "no firmware to restart from";
        if (!why.empty()) return "reset refused: " + why + "\n";
        for (thread &t : threads_) t.skip_first = false;  // a breakpoint at the entry must hit
        intervened_ = true;
        return "platform reset: every core restarts at its entry point (memory reloaded from the "
               "ELF "
               "files). GDB still shows the old registers until it reads them again: "
               "maintenance flush register-cache\n";
    }
    if (command == "quit") {
        ending_ = true;
        control_.quit("ended by the debugger (monitor quit)");
        return "namp-vp: the run ends now\n";
    }
    const std::string answer = monitor_ ? monitor_(command) : "";
    return answer.empty() ? "unknown monitor command '" + command + "' (try: monitor help)\n"
                          : answer;
}

gdb_server::resume_result gdb_server::resume(const std::string &p) {
    std::vector<action> acts(threads_.size(), action::hold);
    if (p[0] == 'c' || p[0] == 's') {
        const int who = control_thread_ >= 0 ? control_thread_ : last_.thread;
        uint64_t addr;
        if (p.size() > 1) {
            if (!parse_hex(p.substr(1), addr)) return resume_result::bad;
            rv_cpu_set_pc(threads_[who].core->debug_iss(), uint32_t(addr));
        }
        std::fill(acts.begin(), acts.end(), action::run);
        if (p[0] == 's') acts[who] = action::step;
    } else {  // vCont;ACTION[:TID];...: the first action naming a thread, or without a thread, wins
        std::vector<bool> set(threads_.size(), false);
        for (const std::string &a : split(p.substr(6), ';')) {
            if (a.empty()) return resume_result::bad;
            const char kind = a[0];
            const action act = (kind == 's' || kind == 'S')   ? action::step
                               : (kind == 'c' || kind == 'C') ? action::run
                               : kind == 't'                  ? action::hold
                                                              : action(-1);
            if (int(act) < 0) return resume_result::bad;
            const size_t colon = a.find(':');
            const int who = colon == std::string::npos ? -2 : thread_of(a.substr(colon + 1), -2);
            if (who == -1)
                return resume_result::bad;  // no such thread: refuse rather than hold everyone
            for (size_t i = 0; i < threads_.size(); ++i)
                if (!set[i] && (who == -2 || who == int(i))) {
                    acts[i] = act;
                    set[i] = true;
                }
        }
    }
    // A halted core (it exited) never executes again. When GDB resumes only such cores (a step
    // of an exited core: `s`, or `c` with a temporary breakpoint under scheduler-locking), nothing
    // would run and the platform would end as a hang: the resume ends at once with a stop of the
    // exited core, and a console line saying why. The held cores stay as they are.
    int exited = -1;
    bool live = false;
    for (size_t i = 0; i < threads_.size(); ++i) {
        if (acts[i] == action::hold) continue;
        if (!threads_[i].core->halted())
            live = true;
        else if (exited < 0)
            exited = int(i);
    }
    if (!live) {
        const int who = exited >= 0 ? exited : last_.thread;
        const tiles::cpu_core &c = *threads_[who].core;
        console("namp-vp: " + thread_name(who) + " " + (c.halted() ? "has exited" : "is held") +
                ": it does not run, and no other thread was resumed\n");
        last_ = {who, sigtrap, {}};
        conn_.send_packet(stop_reply());
        return resume_result::answered;
    }
    before_resume(acts);  // a barrier checkpoint if this changes what is simulated
    holding_ = false;
    for (size_t i = 0; i < threads_.size(); ++i) {
        threads_[i].act = acts[i];
        if (acts[i] == action::hold && !threads_[i].core->halted()) holding_ = true;
    }
    resumed_at_ = sc_core::sc_time_stamp();
    remember_watch_values();
    if (sc_core::sc_is_running()) resume_event_.notify(sc_core::SC_ZERO_TIME);
    waiting_reply_ = true;
    return resume_result::resumed;
}

bool gdb_server::handle(const std::string &p) {
    if (p.empty()) {
        conn_.send_packet("");
        return false;
    }
    std::string reply;
    switch (p[0]) {
    case '?': reply = stop_reply(); break;
    case 'g': reply = read_registers(threads_[general_]); break;
    case 'G':
        if (p.size() < 1 + 8 * 33) {
            reply = "E01";
            break;
        }
        for (unsigned n = 0; n <= gdb_pc_regnum; ++n) {
            uint32_t v;
            if (parse_reg(p.substr(1 + 8 * n, 8), v)) write_register(threads_[general_], n, v);
        }
        reply = "OK";
        break;
    case 'p': {
        uint64_t n;
        uint32_t v;
        if (!parse_hex(p.substr(1), n))
            reply = "E01";
        else
            reply = read_register(threads_[general_], unsigned(n), v) ? hex8(v) : "xxxxxxxx";
        break;
    }
    case 'P': {
        const size_t eq = p.find('=');
        uint64_t n;
        uint32_t v;
        reply = eq != std::string::npos && parse_hex(p.substr(1, eq - 1), n) &&
                        parse_reg(p.substr(eq + 1), v) &&
                        write_register(threads_[general_], unsigned(n), v)
                    ? "OK"
                    : "E01";
        break;
    }
    case 'm': reply = memory_read(p.substr(1)); break;
    case 'M': reply = memory_write(p.substr(1), false); break;
    case 'X': reply = memory_write(p.substr(1), true); break;
    case 'Z':
    case 'z': reply = points(p); break;
    case 'H': {
        if (p.size() < 3) {
            reply = "E01";
            break;
        }
        const int who = thread_of(p.substr(2), p[1] == 'g' ? general_ : -1);
        if ((p[1] != 'g' && p[1] != 'c') ||
            (who < 0 && p.substr(2) != "-1" && p.substr(2) != "0")) {
            reply = "E01";
        } else {
            if (p[1] == 'g')
                general_ = who;
            else
                control_thread_ = who;
            reply = "OK";
        }
        break;
    }
    case 'T': reply = thread_of(p.substr(1), -1) >= 0 ? "OK" : "E01"; break;
    case 'c':
    case 's': {
        const resume_result r = resume(p);
        if (r == resume_result::resumed) return true;
        if (r == resume_result::answered) return false;
        reply = "E01";
        break;
    }
    case 'b':
        if (p == "bs" || p == "bc") {
            // hands the session to a copy of a checkpoint (and does not return), or answers here
            reply = p == "bs" ? reverse_step() : reverse_continue();
            break;
        }
        break;
    case 'D':
        conn_.send_packet("OK");
        detach();
        return true;
    case 'k':
        ending_ = true;
        control_.kill("killed by the debugger");
        conn_.close_client();
        return true;
    case 'v':
        if (p == "vCont?")
            reply = "vCont;c;C;s;S;t";
        else if (starts_with(p, "vCont;")) {
            const resume_result r = resume(p);
            if (r == resume_result::resumed) return true;
            if (r == resume_result::answered || !conn_.connected()) return false;
            reply = "E01";
        } else if (starts_with(p, "vKill")) {
            conn_.send_packet("OK");
            ending_ = true;
            control_.kill("killed by the debugger");
            conn_.close_client();
            return true;
        }
        break;
    case 'q':
        if (starts_with(p, "qSupported"))
            reply =
                "PacketSize=4000;qXfer:features:read+;qXfer:threads:read+;vContSupported+;"
                "ReverseStep+;ReverseContinue+";
        else if (starts_with(p, "qXfer:"))
            reply = xfer(p);
        else if (p == "qfThreadInfo") {
            reply = "m";
            for (size_t i = 0; i < threads_.size(); ++i) {
                std::ostringstream id;
                id << std::hex << i + 1;
                reply += (i ? "," : "") + id.str();
            }
        } else if (p == "qsThreadInfo")
            reply = "l";
        else if (p == "qC") {
            std::ostringstream id;
            id << "QC" << std::hex << general_ + 1;
            reply = id.str();
        } else if (p == "qAttached")
            reply = "1";
        else if (starts_with(p, "qThreadExtraInfo,")) {
            const int who = thread_of(p.substr(17), -1);
            if (who < 0)
                reply = "E01";
            else {
                const tiles::cpu_core &c = *threads_[who].core;
                reply = hex_text("tile " + std::to_string(c.tile_id()) + " core " +
                                 std::to_string(c.index()) +
                                 (c.halted()     ? ", halted"
                                  : c.sleeping() ? ", in wfi"
                                                 : ""));
            }
        } else if (starts_with(p, "qRcmd,")) {
            std::string command;
            if (!decode_hex(p.substr(6), command)) {
                reply = "E01";
                break;
            }
            if (command.rfind("goto", 0) == 0) {
                bool resumed = false;
                const std::string text = goto_cycle(command.substr(4), resumed);
                if (resumed) return true;  // the answer comes when the thread is there
                console(text);
                reply = "OK";
                break;
            }
            console(monitor(command));
            if (ending_) {  // monitor quit: the answer, then the connection closes
                conn_.send_packet("OK");
                conn_.close_client();
                return true;
            }
            reply = "OK";
        } else if (starts_with(p, "qSymbol"))
            reply = "OK";
        break;
    default: break;  // unknown packets get the empty reply, as the protocol asks
    }
    conn_.send_packet(reply);
    return false;
}

}  // namespace vp
