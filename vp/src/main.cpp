// namp-vp: boots firmware on the tiled many-core platform and reports how the run ended.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <systemc>

#include "tiles/version.h"
#include "trace/tracer.h"
#include "vp/area.h"
#include "vp/area_calibration.h"
#include "vp/cli.h"
#include "vp/config.h"
#include "vp/energy.h"
#include "vp/firmware.h"
#include "vp/host_limits.h"
#include "vp/log_options.h"
#include "vp/namp_hint.h"
#include "vp/output_files.h"
#include "vp/platform.h"
#include "vp/stack_guards.h"
#include "vp/statistics.h"
#include "vp/traffic_run.h"

namespace {

constexpr int exit_usage = 2;             // bad command line, configuration or firmware file
constexpr int exit_simulation_error = 3;  // as for an sc_report error

// --trace-window FROM:TO (cycles; TO may be empty).
void parse_window(const std::string &text, uint64_t &from, uint64_t &to) {
    const size_t colon = text.find(':');
    const auto number = [&](const std::string &s, uint64_t &v) {
        size_t used = 0;
        if (s.empty() || s[0] == '-') return false;
        try {
            v = std::stoull(s, &used);
        } catch (const std::exception &) {
            return false;
        }
        return used == s.size();
    };
    to = 0;
    if (colon == std::string::npos || !number(text.substr(0, colon), from) ||
        (colon + 1 < text.size() && !number(text.substr(colon + 1), to)) || (to && to <= from))
        throw std::invalid_argument("--trace-window: '" + text +
                                    "' is not FROM:TO (cycles, FROM < TO)");
}

void list_config() {
    for (const vp::config_key &k : vp::config_schema()) {
        std::cout << std::left << std::setw(30) << k.path << " default " << std::setw(10)
                  << k.default_value.dump();
        if (k.kind == vp::value_kind::integer || k.kind == vp::value_kind::number)
            std::cout << " [" << k.min << ", " << k.max << "] " << k.unit;
        std::cout << "\n    " << k.description << "\n";
    }
}

void list_presets() {
    for (const vp::preset &p : vp::config_presets())
        std::cout << std::left << std::setw(12) << p.name << p.description << "  "
                  << p.settings.dump() << "\n";
}

void print_summary(const vp::platform &p, double host_seconds, int exit_code) {
    const auto &rc = p.control();
    uint64_t instret = 0;
    unsigned cores = 0;
    for (const auto &t : p.tiles())
        for (const auto &c : t->cores()) {
            instret += rv_cpu_instret(c->iss());
            cores += c->started() ? 1 : 0;
        }
    const uint64_t cycles = p.simulated_cycles();
    std::cerr << "namp-vp: " << p.tiles().size() << " tiles (" << p.config().mesh_width << "x"
              << p.config().mesh_height << "), " << cores << " cores running firmware\n"
              << "namp-vp: " << rc.message() << "\n"
              << "namp-vp: " << cycles << " cycles simulated ("
              << (p.clock_period() * double(cycles)).to_seconds() * 1e3 << " ms), " << instret
              << " instructions, host " << std::fixed << std::setprecision(3) << host_seconds
              << " s, " << std::setprecision(1) << (instret / host_seconds / 1e6) << " MIPS\n";
    if (p.options().log.categories & (trace::log_insn | trace::log_commit)) {
        uint64_t checked = 0;
        for (const auto &t : p.tiles())
            for (const auto &c : t->cores()) checked += c->logged_path_steps();
        std::cerr << "namp-vp: log: " << checked << " of the " << instret
                  << " instructions ran on the per-instruction path (the rest outside the log's "
                     "cores, window and range)\n";
    }
    if (const uint64_t skipped = vp::stack_guards::skipped())
        std::cerr << "namp-vp: stack guard pages off: " << skipped
                  << " thread stacks checked for overruns, " << vp::stack_guards::overruns()
                  << " overran\n";
    std::cerr << "namp-vp: exit code " << exit_code << "\n";
}

// Where the cores that did not finish are: what a firmware engineer needs after a hang.
void print_unfinished_cores(const vp::platform &p) {
    for (const auto &t : p.tiles())
        for (unsigned c = 0; c < t->cores().size(); ++c) {
            const tiles::cpu_core &core = *t->cores()[c];
            if (!core.started() || core.halted()) continue;
            std::cerr << "namp-vp: tile " << t->geometry().id << " (" << t->geometry().x << ","
                      << t->geometry().y << ") core " << c << " "
                      << (core.sleeping() ? "sleeps in wfi" : "still running") << " at pc 0x"
                      << std::hex << rv_cpu_get_pc(core.iss()) << std::dec << "\n";
        }
}

void write_skeleton(const std::string &path, const nlohmann::ordered_json &doc) {
    std::ofstream out(path);
    out << doc.dump(2) << "\n";
    const std::string err = vp::stream_error(out, "statistics to '" + path + "'");
    if (!err.empty()) throw std::runtime_error(err);
}

int run(int argc, char **argv) {
    vp::cli_options opt;
    vp::platform_config config;
    vp::firmware_map firmware;
    try {
        opt = vp::parse_command_line(argc, argv);
        if (opt.help) {
            std::cout << opt.help_text;
            return 0;
        }
        if (opt.version) {
            std::cout << "namp-vp " << (tiles::platform_version >> 16) << "."
                      << (tiles::platform_version & 0xFFFF) << "\n";
            return 0;
        }
        if (opt.list_config) {
            list_config();
            return 0;
        }
        if (opt.list_presets) {
            list_presets();
            return 0;
        }
        if (opt.area_calibration) {
            std::cout << vp::area_calibration_table(opt.overrides);
            return 0;
        }
        if (opt.energy_figures) {
            std::cout << vp::energy_figures_table();
            return 0;
        }
        vp::config_builder builder;
        if (!opt.preset.empty()) builder.apply_preset(opt.preset);
        if (!opt.config_file.empty()) builder.apply_file(opt.config_file);
        for (const std::string &s : opt.overrides) builder.apply_override(s);
        config = builder.build();
        if (opt.print_config) {
            std::cout << config.effective.dump(2) << "\n";
            return 0;
        }
        const unsigned tiles = config.mesh_width * config.mesh_height;
        for (const std::string &f : opt.firmware) firmware.add(f, tiles);
        for (const std::string &a : opt.args) firmware.add_args(a, tiles);
        // The area parameters are checked before a run, not when its statistics are written.
        const vp::area_estimate area = vp::estimate_area(config);
        if (opt.traffic) {
            (void)vp::traffic_config_of(config);  // the traffic.* keys, before anything runs
            if (!opt.stats_file.empty()) vp::check_output_file("--stats", opt.stats_file);
            if (opt.area) {
                std::cout << "NoC of " << config.mesh_width << "x" << config.mesh_height
                          << " routers (the --traffic run has no adapters):\n"
                          << vp::noc_area_json(config).dump(2) << "\n";
                if (!opt.stats_file.empty())
                    write_skeleton(opt.stats_file, vp::traffic_statistics_skeleton(config));
                return 0;
            }
        }
        if (opt.area) {
            // A dry check as well (scripts/explore runs it before a sweep): what a run would
            // refuse before simulating is refused here too.
            for (unsigned t = 0; t < tiles; ++t)
                if (const vp::firmware_image *image = firmware.for_tile(t)) {
                    const std::string err = image->layout_error(config.tile.sram_size);
                    if (!err.empty()) throw vp::firmware_error(image->path() + ": " + err);
                }
            std::cout << vp::area_table(area);
            if (!opt.stats_file.empty()) {
                // what the statistics of a run would hold, every counter 0: scripts/explore checks
                // its statistics columns against this before anything runs
                vp::check_output_file("--stats", opt.stats_file);
                vp::platform skeleton("platform", config, vp::run_options{});
                write_skeleton(opt.stats_file, vp::collect_statistics(skeleton));
            }
            if (opt.area_parts) std::cout << "\n" << vp::area_parts_table(area, config);
            return 0;
        }
        // Every output file is checked before the run, so a wrong path costs no simulation.
        if (!opt.stats_file.empty()) vp::check_output_file("--stats", opt.stats_file);
        if (!opt.log_file.empty()) vp::check_output_file("--log-file", opt.log_file);
    } catch (const std::exception &e) {
        std::cerr << "namp-vp: error: " << e.what() << "\n";
        return exit_usage;
    }

    if (opt.traffic) {
        try {
            return vp::run_traffic(config, opt.stats_file, opt.quiet);
        } catch (const std::exception &e) {
            std::cerr << "namp-vp: error: " << e.what() << "\n";
            return exit_usage;
        }
    }
    vp::run_options ro;
    ro.max_cycles = opt.max_cycles;
    ro.quiet = opt.quiet;
    ro.gdb = opt.gdb;
    ro.gdb_wait = opt.gdb_wait;
    ro.trace_file = opt.trace_file;
    ro.progress = opt.progress;
    try {
        if (!opt.trace_categories.empty())
            ro.trace_categories = trace::parse_categories(opt.trace_categories);
        if (!opt.trace_window.empty()) parse_window(opt.trace_window, ro.trace_from, ro.trace_to);
        ro.log = vp::parse_log_options(opt);
        vp::check_log_scope(ro.log, config.mesh_width, config.mesh_height, config.tile.cores);
        ro.log_file = opt.log_file;
    } catch (const std::exception &e) {
        std::cerr << "namp-vp: error: " << e.what() << "\n";
        return exit_usage;
    }
    std::unique_ptr<vp::platform> platform;
    try {
        platform = std::make_unique<vp::platform>("platform", config, ro);
        platform->load(firmware);
        // A host limit found now costs no simulation; found by SystemC, it ends the run part-way.
        const vp::map_count_check maps =
            vp::check_map_count(config.stack_guards, vp::stack_guards::can_skip());
        if (!maps.refusal.empty()) throw std::runtime_error(maps.refusal);
        vp::stack_guards::set_skip(!maps.guards);
        if (!maps.note.empty()) std::cerr << "namp-vp: note: " << maps.note << "\n";
    } catch (const std::exception &e) {
        std::cerr << "namp-vp: error: " << e.what() << "\n";
        return exit_usage;
    }

    const auto start = std::chrono::steady_clock::now();
    platform->simulate();
    const double host_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    int code = platform->control().process_exit_code();
    const vp::end_reason reason = platform->control().reason();
    // Without guard pages an overrun stack may have overwritten its neighbour's: the run is wrong.
    const uint64_t overruns = vp::stack_guards::overruns();
    if (overruns != 0) code = exit_simulation_error;
    // Every output is checked: a full disk or a closed pipe is an error, not a short file.
    std::vector<std::string> errors;
    const auto note = [&](const std::string &e) {
        if (!e.empty()) errors.push_back(e);
    };
    note(vp::stream_error(std::cout, "the console output (standard output)"));
    for (const std::string &e : platform->output_errors()) note(e);
    if (!opt.stats_file.empty()) {
        std::ofstream out(opt.stats_file);
        out << vp::collect_statistics(*platform).dump(2) << "\n";
        note(vp::stream_error(out, "statistics to '" + opt.stats_file + "'"));
    }
    if (!errors.empty() && code == 0) code = exit_usage;

    if (reason == vp::end_reason::watchdog || reason == vp::end_reason::hang)
        print_unfinished_cores(*platform);
    if (!opt.quiet)
        print_summary(*platform, host_seconds, code);
    else if (platform->control().process_exit_code() != 0)
        std::cerr << "namp-vp: " << platform->control().message() << "\n";
    if (platform->control().process_exit_code() != 0) {
        const std::string hint =
            vp::namp_firmware_hint(config, firmware, unsigned(platform->tiles().size()));
        if (!hint.empty()) std::cerr << "namp-vp: note: " << hint << "\n";
    }
    for (const std::string &e : errors) std::cerr << "namp-vp: error: " << e << "\n";
    if (overruns != 0)
        std::cerr
            << "namp-vp: error: " << overruns << " of the " << vp::stack_guards::skipped()
            << " SystemC thread stacks overran into their guard page, which was not protected "
               "(host.stack_guards): the simulation may be corrupt; run with "
               "host.stack_guards=on\n";
    std::cerr.flush();
    if (!std::cerr && code == 0) code = exit_usage;  // nowhere left to say it
    std::cout.flush();
    // With reverse execution this may be a copy of a checkpoint: the process the user waits for
    // ends with this code (vp/checkpoints.h).
    if (vp::checkpoints *cp = platform->reverse()) cp->report_exit(code);
    return code;
}

}  // namespace

int sc_main(int argc, char **argv) {
    sc_core::sc_report_handler::set_verbosity_level(sc_core::SC_LOW);
    // Errors inside the models become exceptions we report, instead of an abort with a core dump.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR,
                                            sc_core::SC_DISPLAY | sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL,
                                            sc_core::SC_DISPLAY | sc_core::SC_THROW);
    try {
        return run(argc, argv);
    } catch (const sc_core::sc_report &r) {
        std::cerr << "namp-vp: simulation error: " << r.what() << "\n";
        return exit_simulation_error;
    }
}

// Our own main (it takes precedence over the one in libsystemc) so the kernel's copyright banner
// does not mix with the firmware's console output.
int main(int argc, char **argv) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
