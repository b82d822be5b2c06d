// One RISC-V hart: the C ISS wrapped as a loosely-timed TLM initiator.
// RAM is accessed through DMI inside the ISS; every device access leaves the ISS through a callback
// that issues b_transport with the core's local time and then synchronizes (devices see accurate
// time). The core runs ahead of SystemC time by at most one global quantum, and sleeps in wfi on an
// event instead of spinning.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "iss/rv32.h"
#include "iss/rv32_debug.h"
#include "tiles/clint.h"
#include "tiles/tie_gate.h"
#include "tiles/core_debug_if.h"
#include "tiles/initiator_id.h"
#include "tiles/run_control_if.h"
#include "tiles/semihosting.h"
#include "trace/event_log.h"
#include "trace/tracer.h"

namespace tiles {

struct core_stats {
    uint64_t device_accesses = 0;
    uint64_t early_accesses = 0;  // of them, taken ahead of the device's time (lookahead mode)
    uint64_t bus_errors = 0;
    uint64_t sleep_cycles = 0;  // cycles spent in wfi
};

class cpu_core : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<cpu_core> socket;
    sc_core::sc_in<bool> irq_msip, irq_mtip, irq_meip, irq_seip;

    struct params {
        unsigned tile_id = 0;
        unsigned core = 0;  // index in the tile, also mhartid
        rv_timing timing{};
        rv_engine engine = RV_ENGINE_INTERPRETER;
        rv_jit_pool *jit_pool = nullptr;  // translations shared with other cores (null: its own)
        sc_core::sc_time clock_period;
        uint64_t cycle_limit = 0;  // the ISS never runs past this cycle (0: no limit)
        rv_reservation_set *reservations = nullptr;
        run_control_if *run_control = nullptr;
        std::function<uint64_t(const sc_core::sc_time &)> read_mtime;  // CLINT mtime at now+offset
        // The CLINT's lookahead for this hart: when its timer interrupt rises on its own
        // (sc_max_time(): not due), and whether it is up now. Null: no timer (the ISS tests).
        const clint::hart_timer *timer = nullptr;
        std::function<void(const std::string &)> trace_trap;  // null: no trap tracing
        std::string label;                                    // "[x,y:c]" for messages
        core_debug_if *debug = nullptr;                       // null: no debugger (--gdb not given)
        trace::tracer *tracer = nullptr;  // null: no timeline trace (--trace not given)
        trace::event_log *log = nullptr;  // null: no instruction/event log (--log not given)
        semihosting *semihost = nullptr;  // null: semihosting off (the ebreak traps)
        tie_gate *gate = nullptr;         // the tie rule (null: SystemC's order, unit tests)
        uint64_t gate_key = 0;            // this core's place in it (tie_gate::key)
        // After a device access that ends before anything else is due, keep its latency as
        // run-ahead instead of waiting (false: wait after every access, the reference).
        bool skip_idle_sync = true;
        // The lookahead mode (core.access_lookahead): a device that allows it takes an access
        // at most this far ahead at SystemC's time; the core does not wait (zero: exact).
        sc_core::sc_time access_lookahead = sc_core::SC_ZERO_TIME;
    };

    cpu_core(sc_core::sc_module_name name, const params &p);
    ~cpu_core() override;

    // Sets the reset pc and lets the core run; a core never started stays halted (no firmware).
    void start(uint32_t reset_pc);
    // A debugger's `monitor reset`, while the platform is stopped: the hart is reset to reset_pc
    // at once (an exited core runs again, a sleeping one wakes); a device access it is inside of
    // completes, but the instruction's result is dropped by a second reset when it returns.
    void restart(uint32_t reset_pc);
    bool halted() const { return halted_; }
    bool lookahead_mode() const { return p_.access_lookahead != sc_core::SC_ZERO_TIME; }
    bool started() const { return started_; }
    bool sleeping() const { return sleeping_; }
    bool in_device_access() const { return in_access_; }

    const rv_cpu *iss() const { return cpu_; }
    const core_stats &stats() const { return stats_; }
    // Instructions the instruction log ran on the per-instruction path (outside its window and
    // range the core runs its fast engine: docs/logging.md).
    uint64_t logged_path_steps() const { return log_path_steps_; }
    unsigned tile_id() const { return p_.tile_id; }
    unsigned index() const { return p_.core; }

    // Debugger access (cpu_core_debug.cpp). Memory goes through the core's MMU (without side
    // effects) and the bus's debug transport; returns the number of bytes done from the start.
    rv_cpu *debug_iss() { return cpu_; }
    unsigned debug_memory(bool write, uint32_t vaddr, uint8_t *data, unsigned len);

private:
    void end_of_elaboration() override;
    void run();
    void irq_changed();
    void account_cycles();
    void sleep_until_interrupt();
    // Cycles until the timer's next match if that ends the slice within `budget`; 0 otherwise.
    uint64_t cycles_to_timer(uint64_t budget) const;
    // At a timer match or a compare written: until the ISS's MTIP agrees with the CLINT.
    void await_timer_line();
    // After a wait that resumed this core: the rest of the instant goes first (tie_gate.h).
    void resume_in_order() {
        if (p_.gate) p_.gate->pass(p_.gate_key);
    }
    // qk_.sync(), then resume_in_order() if it waited (with the gate, in one wait: pass_after).
    void sync(bool quantum_end = false);
    void run_firmware();  // from the reset pc until the core halts
    // Simulated time the debugger held this core (a wait in before_slice/after_access) becomes
    // stall cycles, so the core's cycle count keeps up with SystemC time.
    void add_held_cycles(const sc_core::sc_time &since);
    int device_access(rv_access kind, uint32_t addr, void *data, uint32_t len, uint32_t *extra);
    void trap_taken(uint32_t cause, uint32_t epc, uint32_t tval);
    // One run of the ISS up to limit (cpu_core_slice.cpp): the fast engine, or the checked loop
    // where the debugger's points, a replay target or the instruction log need it.
    rv_run_status run_slice(uint64_t limit, const debug_slice &dbg, rv_debug_hit &hit);
    // The code pages the checked loop must run (breakpoints, the logged address range); false if
    // they are too many to watch (then every instruction is checked).
    bool code_watch_ranges(const rv_debug_points *points, bool logging,
                           std::vector<uint32_t> &out) const;

    static int bus_access_thunk(void *ctx, rv_cpu *, enum rv_access kind, uint32_t addr, void *data,
                                uint32_t len, uint32_t *extra);
    static uint64_t read_time_thunk(void *ctx);
    static void trap_thunk(void *ctx, rv_cpu *, uint32_t cause, uint32_t epc, uint32_t tval);
    static void trap_return_thunk(void *ctx, rv_cpu *);
    static bool semihost_thunk(void *ctx, rv_cpu *);
    // Timeline (cpu_core_trace.cpp): slices on this core's track at the core's own time.
    void trace_begin(const std::string &state);
    void trace_end();
    void trace_stop();  // closes the open trap slices and the run slice
    // Instruction and event log (cpu_core_log.cpp).
    static void insn_thunk(void *ctx, uint32_t pc, uint32_t bits);
    static void after_insn_thunk(void *ctx);  // --log commit: what the instruction did
    void log_trap(uint32_t cause, uint32_t epc, uint32_t tval);
    void log_access(rv_access kind, uint32_t addr, const void *data, uint32_t len, bool ok,
                    uint64_t latency);
    // The points for rv_cpu_run_debug: the debugger's (or none) plus the instruction log hook.
    const rv_debug_points *logged_points(const rv_debug_points *debugger);
    std::string lockup_context() const;  // the illegal instruction that led to a lockup, if any

    params p_;
    rv_cpu *cpu_ = nullptr;
    tlm_utils::tlm_quantumkeeper qk_;
    uint64_t accounted_cycles_ = 0;  // ISS cycles already turned into local or SystemC time
    tlm::tlm_generic_payload trans_;
    initiator_id id_ext_;
    sc_core::sc_event wake_event_;
    bool started_ = false, halted_ = true, sleeping_ = false;
    bool in_access_ = false;        // inside device_access (b_transport may wait)
    bool mtip_line_ = false;        // MTIP as irq_changed last gave it to the ISS
    uint64_t slice_end_ = 0;        // the ISS cycle the running slice ends at
    bool restart_pending_ = false;  // restart() came while in a device access or asleep
    uint32_t restart_pc_ = 0;
    sc_core::sc_event restart_event_;  // wakes the thread of a core that had halted
    sc_core::sc_event parked_;         // never notified: where an ended core's thread stays (run)
    core_stats stats_;
    trace::track_id track_ = 0;                 // this core's timeline track (0: not traced)
    unsigned trap_depth_ = 0;                   // trap slices open on the track
    bool log_insn_ = false, log_mmio_ = false;  // this core's instructions/accesses are logged
    bool log_commit_ = false;                   // ... its retired instructions with values
    bool log_steps_ = false;                    // insn or commit: the per-instruction log hook
    uint64_t log_path_steps_ = 0;
    rv_commit commit_{};
    uint64_t commit_cycle_ = 0;  // the cycle the logged instruction began in
    rv_debug_points log_points_{};
    std::vector<uint32_t> watched_;  // the code watch installed in the ISS
    uint64_t watched_generation_ = ~0ull;
    bool watched_logging_ = false;
    struct {
        bool valid = false;
        uint32_t pc = 0, bits = 0;
        uint64_t instret = 0;
    } last_illegal_;  // the last illegal-instruction trap, named in a lockup message
};

}  // namespace tiles
