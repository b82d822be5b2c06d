#include "tiles/cpu_core.h"

#include <algorithm>
#include <sstream>

#include "tile_memory_map.h"

namespace tiles {

using sc_core::sc_time;

cpu_core::cpu_core(sc_core::sc_module_name name, const params &p)
    : sc_module(name),
      socket("socket"),
      irq_msip("irq_msip"),
      irq_mtip("irq_mtip"),
      irq_meip("irq_meip"),
      irq_seip("irq_seip"),
      p_(p) {
    rv_config cfg{};
    cfg.hart_id = p.core;
    cfg.reset_pc = TILE_SRAM_BASE;
    cfg.timing = p.timing;
    cfg.engine = p.engine;
    cfg.jit_pool = p.jit_pool;
    cfg.bus_access = &cpu_core::bus_access_thunk;
    cfg.bus_ctx = this;
    if (p.tracer)
        track_ = p.tracer->track("tile " + std::to_string(p.tile_id),
                                 "core " + std::to_string(p.core), trace::cores);
    // Always: traps are rare, and a lockup message names the illegal instruction before it.
    cfg.on_trap = &cpu_core::trap_thunk;
    if (p.log) {
        log_insn_ = p.log->wants(trace::log_insn, p.tile_id, p.core);
        log_commit_ = p.log->wants(trace::log_commit, p.tile_id, p.core);
        log_steps_ = log_insn_ || log_commit_;
        log_mmio_ = p.log->wants(trace::log_mmio, p.tile_id, p.core);
    }
    cfg.on_trap_return = track_ ? &cpu_core::trap_return_thunk : nullptr;
    cfg.trap_ctx = this;
    cfg.reservations = p.reservations;
    cfg.read_time = &cpu_core::read_time_thunk;
    cfg.time_ctx = this;
    if (p.semihost) {
        cfg.semihost = &cpu_core::semihost_thunk;
        cfg.semihost_ctx = this;
    }
    cpu_ = rv_cpu_create(&cfg);
    if (!cpu_) SC_REPORT_FATAL(this->name(), "the ISS rejected the core configuration");

    id_ext_.core = p.core;
    id_ext_.gate = p.gate;
    id_ext_.gate_key = p.gate_key;
    id_ext_.lookahead = p.access_lookahead;
    trans_.set_extension(&id_ext_);

    SC_HAS_PROCESS(cpu_core);
    SC_THREAD(run);
    SC_METHOD(irq_changed);
    sensitive << irq_msip << irq_mtip << irq_meip << irq_seip;
}

cpu_core::~cpu_core() {
    trans_.clear_extension(&id_ext_);  // owned by this module, not by the payload
    rv_cpu_destroy(cpu_);
}

void cpu_core::start(uint32_t reset_pc) {
    rv_cpu_reset(cpu_, reset_pc);
    started_ = true;
    halted_ = false;
}

// DMI to the tile RAM: after elaboration every socket is bound.
void cpu_core::end_of_elaboration() {
    tlm::tlm_generic_payload probe;
    tlm::tlm_dmi dmi;
    probe.set_address(TILE_SRAM_BASE);
    probe.set_command(tlm::TLM_READ_COMMAND);
    if (!socket->get_direct_mem_ptr(probe, dmi) || !dmi.is_read_write_allowed()) {
        SC_REPORT_WARNING(name(), "no DMI to the tile SRAM: every access goes through the bus");
        return;
    }
    const auto cycles = [this](const sc_time &t) { return uint32_t(t / p_.clock_period); };
    const uint64_t size = dmi.get_end_address() - dmi.get_start_address() + 1;
    if (rv_cpu_add_dmi(cpu_, uint32_t(dmi.get_start_address()), uint32_t(size), dmi.get_dmi_ptr(),
                       cycles(dmi.get_read_latency()), cycles(dmi.get_write_latency())) != 0)
        SC_REPORT_FATAL(name(), "the ISS refused the DMI region of the tile SRAM");
}

// Moves the cycles the ISS has run since the last call into the quantum keeper's local time.
void cpu_core::account_cycles() {
    const uint64_t now = rv_cpu_cycles(cpu_);
    if (now > accounted_cycles_) {
        qk_.inc(p_.clock_period * double(now - accounted_cycles_));
        accounted_cycles_ = now;
    }
}

void cpu_core::run() {
    if (started_) {
        qk_.reset();
        for (;;) {
            run_firmware();
            if (!p_.debug) break;
            p_.debug->halted(*this);
            // Only a debugger's `monitor reset` runs a halted core again.
            while (halted_) wait(restart_event_);
        }
    }
    // The thread of a core that has ended waits for ever rather than return: SystemC 2.3 takes
    // an ended thread out of its list of processes by a linear search, which made thousands of
    // cores ending quadratic in the mesh (docs/benchmarks.md, "Large meshes").
    wait(parked_);
}

void cpu_core::restart(uint32_t reset_pc) {
    rv_cpu_reset(cpu_, reset_pc);
    restart_pc_ = reset_pc;
    restart_pending_ = in_access_ || sleeping_;
    if (halted_) {
        halted_ = false;
        restart_event_.notify(sc_core::SC_ZERO_TIME);
    }
    if (sleeping_) wake_event_.notify(sc_core::SC_ZERO_TIME);
}

void cpu_core::add_held_cycles(const sc_core::sc_time &since) {
    const uint64_t held = uint64_t((sc_core::sc_time_stamp() - since) / p_.clock_period);
    rv_cpu_add_cycles(cpu_, held);
    accounted_cycles_ += held;
}

void cpu_core::run_firmware() {
    accounted_cycles_ = rv_cpu_cycles(cpu_);
    trace_begin("run");
    while (!halted_) {
        debug_slice dbg;
        if (p_.debug) {
            const sc_time before = sc_core::sc_time_stamp();
            dbg = p_.debug->before_slice(*this);  // may block (debugger stopped or holds us)
            add_held_cycles(before);
        }
        if (restart_pending_) {  // a reset came while we were inside an access or asleep
            restart_pending_ = false;
            rv_cpu_reset(cpu_, restart_pc_);
        }
        if (halted_) break;
        // Run to the next global quantum boundary: all cores meet there, which keeps their
        // interleaving independent of host speed.
        const sc_time budget =
            tlm::tlm_global_quantum::instance().compute_local_quantum() - qk_.get_local_time();
        uint64_t budget_cycles = uint64_t(budget / p_.clock_period);
        if (budget_cycles == 0) budget_cycles = 1;
        if (p_.cycle_limit) {
            // The watchdog stops SystemC at the limit; the ISS must not run ahead past it.
            const uint64_t now = rv_cpu_cycles(cpu_);
            if (now >= p_.cycle_limit) {
                qk_.sync();             // the end of the run: no order to keep
                wait(p_.clock_period);  // never reached: the simulation ends at the limit
                continue;
            }
            budget_cycles = std::min(budget_cycles, p_.cycle_limit - now);
        }
        // The timer's match ends the slice: its interrupt is taken at its cycle, not up to a
        // quantum late (docs/timing.md "Timer interrupts on time").
        const uint64_t to_timer = cycles_to_timer(budget_cycles);
        if (to_timer) budget_cycles = to_timer;
        const uint64_t limit = rv_cpu_cycles(cpu_) + budget_cycles;
        slice_end_ = limit;
        rv_debug_hit hit{};
        rv_run_status status = run_slice(limit, dbg, hit);
        account_cycles();
        // A stepped wfi ends the step; once resumed the core sleeps as it would have unstepped
        // (no debugger action changes what is simulated: docs/debugging.md).
        if (status == RV_RUN_DEBUG || (dbg.step && status == RV_RUN_WFI)) {
            hit.reason = status == RV_RUN_DEBUG ? hit.reason : RV_DEBUG_STEP;
            p_.debug->stopped(*this, hit);
            if (status == RV_RUN_DEBUG) status = RV_RUN_BUDGET;  // the slice goes on, or ends here
        }
        if (status == RV_RUN_LOCKUP) {
            sync();
            uint32_t cause = 0, pc = 0, tval = 0;
            rv_cpu_lockup(cpu_, &cause, &pc, &tval);
            std::ostringstream why;
            why << "lockup: trap cause " << cause << " at pc 0x" << std::hex << pc << " (tval 0x"
                << tval << ") cannot be delivered: the trap handler itself faults"
                << lockup_context();
            halted_ = true;
            trace_stop();
            p_.run_control->core_failed(p_.tile_id, p_.core, why.str().c_str(),
                                        rv_cpu_cycles(cpu_));
            return;
        }
        if (halted_) break;
        if (status == RV_RUN_WFI) {
            sync();
            sleep_until_interrupt();
        } else if (to_timer && rv_cpu_cycles(cpu_) >= limit) {
            sync();
            await_timer_line();
        } else if (qk_.need_sync()) {
            sync(true);
        }
    }
    trace_stop();
    sync();
}

uint64_t cpu_core::cycles_to_timer(uint64_t budget) const {
    if (!p_.timer) return 0;
    const sc_time match = p_.timer->match_at;
    if (match == sc_core::sc_max_time()) return 0;
    const sc_time local = sc_core::sc_time_stamp() + qk_.get_local_time();
    // A match this core has already passed (another hart set it) is taken at the next sync.
    if (match <= local) return 0;
    const uint64_t cycles = uint64_t((match - local) / p_.clock_period);
    return cycles > 0 && cycles <= budget ? cycles : 0;
}

void cpu_core::sync(bool quantum_end) {
    const sc_time ahead = qk_.get_local_time();
    // At the end of its quantum a core meets the other running cores (at the boundary or a few
    // cycles after it: its last instruction's cycles) and waits at the gate after its wait: one
    // wait for both (tie_gate::pass_after). Elsewhere a core is mostly alone in its instant, and
    // the gate's wake-up would cost the host more than the wait it saves.
    if (quantum_end && p_.gate && ahead != sc_core::SC_ZERO_TIME) {
        p_.gate->pass_after(p_.gate_key, ahead);
        qk_.reset();
        return;
    }
    qk_.sync();
    if (ahead != sc_core::SC_ZERO_TIME) resume_in_order();
}

// The CLINT's state changes at once (a match, a compare written), its mtip output a delta cycle
// later and the ISS's line (irq_changed) one more: a few zero-time waits, the same in every run,
// so the next instruction sees the interrupt as the CLINT has it. Bounded: a line that does not
// follow (another hart moved the compare in the same instant) is left to irq_changed.
void cpu_core::await_timer_line() {
    for (unsigned i = 0; i < 4 && p_.timer && mtip_line_ != p_.timer->pending; ++i)
        wait(sc_core::SC_ZERO_TIME);
}

void cpu_core::sleep_until_interrupt() {
    trace_begin("wfi");
    const sc_time start = sc_core::sc_time_stamp();
    sleeping_ = true;
    while (!rv_cpu_irq_pending(cpu_) && !restart_pending_) wait(wake_event_);
    resume_in_order();
    sleeping_ = false;
    const uint64_t idle = uint64_t((sc_core::sc_time_stamp() - start) / p_.clock_period);
    rv_cpu_add_cycles(cpu_, idle);
    accounted_cycles_ += idle;
    stats_.sleep_cycles += idle;
    trace_end();
}

void cpu_core::irq_changed() {
    rv_cpu_set_irq(cpu_, RV_IRQ_MSIP, irq_msip.read());
    rv_cpu_set_irq(cpu_, RV_IRQ_MTIP, irq_mtip.read());
    mtip_line_ = irq_mtip.read();
    rv_cpu_set_irq(cpu_, RV_IRQ_MEIP, irq_meip.read());
    rv_cpu_set_irq(cpu_, RV_IRQ_SEIP, irq_seip.read());
    wake_event_.notify(sc_core::SC_ZERO_TIME);
}

int cpu_core::device_access(rv_access kind, uint32_t addr, void *data, uint32_t len,
                            uint32_t *extra) {
    account_cycles();
    ++stats_.device_accesses;
    trans_.set_command(kind == RV_ACCESS_WRITE ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans_.set_address(addr);
    trans_.set_data_ptr(static_cast<unsigned char *>(data));
    trans_.set_data_length(len);
    trans_.set_streaming_width(len);
    trans_.set_byte_enable_ptr(nullptr);
    trans_.set_dmi_allowed(false);
    trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    id_ext_.core_cycles = rv_cpu_cycles(cpu_);
    id_ext_.halt_requested = false;
    id_ext_.early = false;

    // A target may wait inside b_transport (it then returns a smaller local offset): measure the
    // latency on the absolute time line.
    const sc_time issued = sc_core::sc_time_stamp() + qk_.get_local_time();
    sc_time delay = qk_.get_local_time();
    in_access_ = true;
    socket->b_transport(trans_, delay);
    in_access_ = false;
    // Device accesses synchronize: the device's effect is visible to others at this time.
    const sc_time done = sc_core::sc_time_stamp() + delay;
    const uint64_t latency = done > issued ? uint64_t((done - issued) / p_.clock_period) : 0;
    qk_.set(delay);
    if (id_ext_.early) ++stats_.early_accesses;
    // When nothing else can act before the access ends (no event up to then, nothing pending
    // now), waiting would only move SystemC's clock: the core keeps the latency as run-ahead,
    // the same simulation with one context switch less (docs/timing.md "Loosely-timed execution").
    // Not when the access stopped the run: the wait is where the core stops then.
    // An access taken early (the lookahead mode) leaves the core ahead: it runs on, and waits at
    // its quantum's end or an access beyond the lookahead.
    if (sc_core::sc_get_simulator_status() != sc_core::SC_SIM_OK ||
        (!id_ext_.early && (!p_.skip_idle_sync || sc_core::sc_time_to_pending_activity() <= delay)))
        sync();
    accounted_cycles_ += latency;
    *extra = uint32_t(latency);
    // A compare written at or before mtime raised the timer at once, one written later cleared
    // it: the ISS's line follows before the next instruction. One that brought the match before
    // the slice's end ends the slice after this instruction; the next one stops at the match.
    await_timer_line();
    if (slice_end_ > accounted_cycles_ && cycles_to_timer(slice_end_ - accounted_cycles_))
        rv_cpu_request_stop(cpu_);
    if (log_mmio_) log_access(kind, addr, data, len, trans_.is_response_ok(), latency);

    if (id_ext_.halt_requested) {
        halted_ = true;
        rv_cpu_request_stop(cpu_);
    }
    if (p_.debug) {
        const sc_time before = sc_core::sc_time_stamp();
        p_.debug->after_access(*this);  // a held core waits here, between access and retirement
        add_held_cycles(before);
        if (restart_pending_) rv_cpu_request_stop(cpu_);  // the slice ends; the loop resets
    }
    if (!trans_.is_response_ok()) {
        ++stats_.bus_errors;
        return RV_BUS_ERROR;
    }
    return RV_BUS_OK;
}

void cpu_core::trap_taken(uint32_t cause, uint32_t epc, uint32_t tval) {
    if (cause == RV_EXC_ILLEGAL) last_illegal_ = {true, epc, tval, rv_cpu_instret(cpu_)};
    if (p_.log) log_trap(cause, epc, tval);
    if (track_) {
        ++trap_depth_;
        trace_begin(std::string((cause >> 31) ? "irq " : "trap ") +
                    std::to_string(cause & 0x7FFFFFFF));
    }
    if (!p_.trace_trap) return;
    std::ostringstream line;
    line << p_.label << " trap " << ((cause >> 31) ? "interrupt " : "exception ")
         << (cause & 0x7FFFFFFF) << " epc=0x" << std::hex << epc << " tval=0x" << tval << std::dec
         << " cycle=" << rv_cpu_cycles(cpu_);
    p_.trace_trap(line.str());
}

int cpu_core::bus_access_thunk(void *ctx, rv_cpu *, enum rv_access kind, uint32_t addr, void *data,
                               uint32_t len, uint32_t *extra) {
    return static_cast<cpu_core *>(ctx)->device_access(kind, addr, data, len, extra);
}

uint64_t cpu_core::read_time_thunk(void *ctx) {
    auto *self = static_cast<cpu_core *>(ctx);
    self->account_cycles();
    return self->p_.read_mtime(self->qk_.get_local_time());
}

// A semihosting call (docs/semihosting.md): host I/O takes no simulated time; SYS_EXIT ends this
// core like its exit register does.
bool cpu_core::semihost_thunk(void *ctx, rv_cpu *) {
    auto *self = static_cast<cpu_core *>(ctx);
    const semihosting::result r = self->p_.semihost->call(*self);
    if (r.exit) {
        self->halted_ = true;
        rv_cpu_request_stop(self->cpu_);
        self->p_.run_control->core_exited(self->p_.tile_id, self->p_.core, r.code,
                                          rv_cpu_cycles(self->cpu_));
    }
    return true;
}

void cpu_core::trap_thunk(void *ctx, rv_cpu *, uint32_t cause, uint32_t epc, uint32_t tval) {
    static_cast<cpu_core *>(ctx)->trap_taken(cause, epc, tval);
}

}  // namespace tiles
