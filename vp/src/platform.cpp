#include "vp/platform.h"

#include <algorithm>
#include <iostream>
#include <unistd.h>

#include "na_registers.h"
#include "tile_memory_map.h"

namespace vp {

namespace {
// Rounded to whole picoseconds (the SystemC time resolution).
sc_core::sc_time period_of(uint64_t clock_hz) {
    return sc_core::sc_time(double(1000000000000ull / clock_hz), sc_core::SC_PS);
}
}  // namespace

platform::platform(sc_core::sc_module_name name, const platform_config &config,
                   const run_options &options)
    : sc_module(name),
      front_{std::make_unique<registry_front>("registry_front"),
             std::make_unique<registry_front>("registry_front_1")},
      config_(config),
      options_(options),
      period_(period_of(config.clock_hz)),
      tracer_(make_tracer(options, period_)),
      control_(config.mesh_width, config.stop_on_failure,
               [this](const mark_record &m) { trace_mark(m); }) {
    if (!config.console_file.empty()) {
        console_log_.open(config.console_file);
        if (!console_log_)
            throw config_error("console.file: cannot write '" + config.console_file + "'");
    }
    const bool echo = config.effective.at("console").at("echo").get<bool>() && !options.quiet;
    tiles::tile::outputs out;
    if (options.progress)
        status_ = std::make_unique<status_line>(std::cerr, isatty(STDERR_FILENO) != 0, std::cout);
    out.console_out = !echo ? nullptr : status_ ? &status_->console() : &std::cout;
    out.console_log = console_log_.is_open() ? &console_log_ : nullptr;
    out.trace = &std::cerr;
    out.tracer = tracer_.get();
    open_event_log();
    out.log = log_.get();
    if (!options.gdb.empty()) {
        try {
            gdb_ = std::make_unique<gdb_server>(options.gdb, control_, std::cerr);
        } catch (const gdb_error &e) {
            throw config_error(e.what());
        }
        out.debug = gdb_.get();
    }

    if (config.semihosting) {
        try {
            semihosting_root_.fd = tiles::semihosting_open_root(config.semihosting_root);
        } catch (const std::runtime_error &e) {
            throw config_error(e.what());
        }
        out.semihosting_root = semihosting_root_.fd;
        out.semihosting_epoch = config.semihosting_epoch;
    }
    if (config.tile.engine == RV_ENGINE_JIT) {
        jit_pool_.reset(rv_jit_pool_create());  // null without a JIT: each core then does without
        out.jit_pool = jit_pool_.get();
    }
    gate_ = std::make_unique<tiles::tie_gate>("tie_gate");
    out.gate = gate_.get();
    out.skip_idle_sync = config.skip_idle_sync;
    for (unsigned y = 0; y < config.mesh_height; ++y) {
        for (unsigned x = 0; x < config.mesh_width; ++x) {
            tiles::tile_geometry g;
            g.id = y * config.mesh_width + x;
            g.x = x;
            g.y = y;
            g.mesh_width = config.mesh_width;
            g.mesh_height = config.mesh_height;
            g.cores = config.tile.cores;
            g.sram_base = TILE_SRAM_BASE;
            g.sram_size = config.tile.sram_size;
            g.na_base = TILE_NA_BASE;
            g.clock_hz = uint32_t(config.clock_hz);
            g.timer_hz = uint32_t(config.clock_hz / config.tile.timer_divider);
            g.arg = config.tile.arg;
            const std::string tile_name = "tile_" + std::to_string(x) + "_" + std::to_string(y);
            tiles::tile_config tile_cfg = config.tile;
            tile_cfg.cycle_limit = options.max_cycles;
            tiles_.push_back(std::make_unique<tiles::tile>(tile_name.c_str(), tile_cfg, g, period_,
                                                           control_, out));
        }
    }

    noc::config noc_cfg = config.noc;
    noc_cfg.clock_period = period_;
    try {
        mesh_ = std::make_unique<noc::mesh>("noc", noc_cfg, tracer_.get());
    } catch (const sc_core::sc_report &e) {
        throw config_error(std::string("noc: ") + e.what());
    }
    if (config.event_noise)
        noise_ = std::make_unique<event_noise>("event_noise", config.event_noise, period_);
    if (options.progress || (tracer_ && tracer_->enabled(trace::noc))) {
        run_observer::params obs;
        obs.clock_period = period_;
        obs.progress = status_.get();
        obs.instructions = [this] { return instructions(); };
        obs.tracer = tracer_.get();
        obs.mesh = mesh_.get();
        observer_ = std::make_unique<run_observer>("observer", obs);
    }
    if (!config.na_enabled) return;
    for (auto &t : tiles_) {
        const tiles::tile_geometry &g = t->geometry();
        namp::na_geometry geo;
        geo.tile_id = g.id;
        geo.x = g.x;
        geo.y = g.y;
        geo.mesh_width = g.mesh_width;
        geo.mesh_height = g.mesh_height;
        geo.sram_base = g.sram_base;
        geo.sram_size = g.sram_size;
        geo.max_packet_flits = noc_cfg.max_packet_flits;
        geo.cores = unsigned(t->cores().size());
        const std::string na_name = "na_" + std::to_string(g.x) + "_" + std::to_string(g.y);
        adapters_.push_back(std::make_unique<namp::network_adapter>(
            na_name.c_str(), config.na, geo, mesh_->port(g.id), period_, tracer_.get()));
        namp::network_adapter &na = *adapters_.back();
        t->attach_device(na.regs, TILE_NA_BASE, TILE_NA_SIZE, "network_adapter", true);
        t->attach_device(na.rma, RMA_BASE, RMA_SIZE, "rma_window");
        const std::vector<namp::bus_port *> ports = na.bus_ports();
        for (unsigned i = 0; i < ports.size(); ++i) {
            t->bind_master(ports[i]->socket);
            ports[i]->set_gate(gate_.get(),
                               tiles::tie_gate::key(tiles::tie_gate::bus_master, g.id, i));
        }
        for (unsigned c = 0; c < na.irq.size(); ++c) na.irq[c].bind(t->external_irq(c));
        na.set_observer(namp_log_.get());
    }
}

platform::fd_owner::~fd_owner() {
    if (fd >= 0) ::close(fd);
}

void platform::load(const firmware_map &firmware) {
    firmware_ = firmware;
    for (auto &t : tiles_) {
        const firmware_image *image = firmware.for_tile(t->geometry().id);
        if (!image) continue;
        const std::vector<std::string> argv = firmware.argv_for(t->geometry().id);
        image->load_into(*t, argv);
        std::string cmdline;
        for (const std::string &a : argv) cmdline += (cmdline.empty() ? "" : " ") + a;
        for (const auto &s : t->semihosts()) s->set_cmdline(cmdline);
        for (unsigned c = 0; c < t->cores().size(); ++c) {
            t->cores()[c]->start(image->entry());
            control_.expect_core(t->geometry().id, c);
        }
    }
    if (gdb_) attach_debugger();
}

uint64_t platform::simulated_cycles() const {
    uint64_t cycles = uint64_t(sc_core::sc_time_stamp() / period_);
    for (const auto &t : tiles_)
        for (const auto &core : t->cores()) cycles = std::max(cycles, rv_cpu_cycles(core->iss()));
    return cycles;
}

void platform::simulate() {
    tlm::tlm_global_quantum::instance().set(period_ * double(config_.quantum_cycles));
    if (gdb_ && options_.gdb_wait) gdb_->wait_at_start();
    // Out of events while a debugger holds cores (scheduler-locking) is a stop for GDB, not a
    // hang: it hears why and may let the held cores run (gdb_server::starved).
    const auto debugger_resumed = [this] {
        return control_.reason() == end_reason::running && gdb_ && gdb_->starved();
    };
    if (options_.max_cycles) {
        const sc_core::sc_time limit = period_ * double(options_.max_cycles);
        do {
            sc_core::sc_start(limit - sc_core::sc_time_stamp(), sc_core::SC_EXIT_ON_STARVATION);
        } while (sc_core::sc_time_stamp() < limit && !sc_core::sc_pending_activity() &&
                 debugger_resumed());
        // On starvation the kernel stops at the last event before the limit, so the time stamp
        // alone cannot tell the watchdog from a hang: only a hang leaves nothing pending.
        control_.conclude(sc_core::sc_time_stamp() >= limit || sc_core::sc_pending_activity());
    } else {
        do {
            sc_core::sc_start();
        } while (debugger_resumed());
        control_.conclude(false);
    }
    if (observer_) observer_->done();
    if (tracer_) tracer_->finish(period_ * double(simulated_cycles()));
    if (gdb_) gdb_->finish(control_.process_exit_code());
}

}  // namespace vp
