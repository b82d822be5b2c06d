#include "tiles/tile.h"

#include "tile_memory_map.h"

namespace tiles {

tile::tile(sc_core::sc_module_name name, const tile_config &config, const tile_geometry &geometry,
           sc_core::sc_time clock_period, run_control_if &run_control, const outputs &out)
    : sc_module(name),
      geometry_(geometry),
      msip_("msip", config.cores),
      mtip_("mtip", config.cores),
      meip_("meip", config.cores),
      seip_("seip", config.cores) {
    rv_reservations_init(&reservations_);
    const unsigned dev_lat = config.device_latency;

    bus_ = std::make_unique<tile_bus>("bus", config.bus_word_cycles, clock_period);
    sram_ =
        std::make_unique<sram>("sram", TILE_SRAM_BASE, config.sram_size, config.sram_read_latency,
                               config.sram_write_latency, clock_period, &reservations_);
    clint_ =
        std::make_unique<clint>("clint", config.cores, config.timer_divider, dev_lat, clock_period);
    console_ = std::make_unique<console>("console", geometry.x, geometry.y, config.cores, dev_lat,
                                         clock_period, out.console_out, out.console_log);
    sim_control_ = std::make_unique<sim_control>("sim_control", geometry.id, config.cores, dev_lat,
                                                 clock_period, run_control);
    tile_info_ = std::make_unique<tile_info>("tile_info", geometry, dev_lat, clock_period);

    // Binding order of bus.devices must match the order of map_device calls.
    bus_->devices.bind(sram_->socket);
    bus_->map_device(TILE_SRAM_BASE, config.sram_size, "sram");
    bus_->devices.bind(clint_->socket);
    bus_->map_device(TILE_CLINT_BASE, TILE_CLINT_SIZE, "clint");
    bus_->devices.bind(console_->socket);
    bus_->map_device(TILE_CONSOLE_BASE, TILE_CONSOLE_SIZE, "console");
    bus_->devices.bind(sim_control_->socket);
    bus_->map_device(TILE_SIMCTRL_BASE, TILE_SIMCTRL_SIZE, "sim_control");
    bus_->devices.bind(tile_info_->socket);
    bus_->map_device(TILE_INFO_BASE, TILE_INFO_SIZE, "tile_info");

    const std::string tile_label =
        "[" + std::to_string(geometry.x) + "," + std::to_string(geometry.y);
    for (unsigned c = 0; c < config.cores; ++c) {
        cpu_core::params p;
        p.tile_id = geometry.id;
        p.core = c;
        p.timing = config.timing;
        p.engine = config.engine;
        p.clock_period = clock_period;
        p.cycle_limit = config.cycle_limit;
        p.reservations = &reservations_;
        p.run_control = &run_control;
        p.read_mtime = [this](const sc_core::sc_time &offset) { return clint_->mtime(offset); };
        p.timer = &clint_->timer(c);
        p.label = tile_label + ":" + std::to_string(c) + "]";
        p.debug = out.debug;
        p.log = out.log;
        p.tracer = out.tracer;
        p.jit_pool = out.jit_pool;
        p.gate = out.gate;
        p.gate_key = tie_gate::key(tie_gate::core, geometry.id, c);
        p.skip_idle_sync = out.skip_idle_sync;
        p.access_lookahead = clock_period * double(config.access_lookahead);
        if (out.semihosting_root >= 0) {
            semihosting_.push_back(std::make_unique<semihosting>(
                out.semihosting_root, out.semihosting_epoch, geometry.clock_hz, *console_, c));
            p.semihost = semihosting_.back().get();
        }
        if (config.trace_traps && out.trace) {
            std::ostream *trace = out.trace;
            p.trace_trap = [trace](const std::string &line) { *trace << line << '\n'; };
        }
        cores_.push_back(std::make_unique<cpu_core>(("core" + std::to_string(c)).c_str(), p));
        cpu_core &core = *cores_.back();
        core.socket.bind(bus_->masters);
        clint_->msip[c].bind(msip_[c]);
        clint_->mtip[c].bind(mtip_[c]);
        core.irq_msip.bind(msip_[c]);
        core.irq_mtip.bind(mtip_[c]);
        core.irq_meip.bind(meip_[c]);
        core.irq_seip.bind(seip_[c]);
    }
}

}  // namespace tiles
