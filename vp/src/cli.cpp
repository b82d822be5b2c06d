#include "vp/cli.h"

#include <sstream>

#include <boost/program_options.hpp>

namespace vp {

namespace po = boost::program_options;

uint64_t parse_max_cycles(const std::string &text) {
    const std::string limit = "--max-cycles must be a whole number of cycles in [0, " +
                              std::to_string(max_cycles_limit) + "], got '" + text + "'";
    const bool digits = text.find_first_not_of("0123456789") == std::string::npos;
    if (text.empty() || text.size() > 16 || !digits) throw usage_error(limit);
    const uint64_t v = std::stoull(text);  // at most 16 digits: cannot overflow
    if (v > max_cycles_limit) throw usage_error(limit);
    return v;
}

cli_options parse_command_line(int argc, char **argv) {
    cli_options o;
    std::string max_cycles;  // checked by hand: the library would take "-1" as 2^64-1
    po::options_description desc("Usage: namp-vp [options] --firmware ELF\nOptions");
    desc.add_options()("help,h", po::bool_switch(&o.help), "show this help")(
        "version", po::bool_switch(&o.version), "show the version")(
        "config,c", po::value(&o.config_file)->value_name("FILE.json"),
        "platform configuration file (see --list-config)")(
        "preset,p", po::value(&o.preset)->value_name("NAME"),
        "start from a named configuration (see --list-presets)")(
        "set,s", po::value(&o.overrides)->composing()->value_name("KEY=VALUE"),
        "override one configuration key; repeatable")(
        "firmware,f", po::value(&o.firmware)->composing()->value_name("[TILE=]ELF"),
        "ELF for every tile, or for the tile with that id; repeatable")(
        "args", po::value(&o.args)->composing()->value_name("[TILE=]ARGS"),
        "arguments for main() on every tile, or on that tile; repeatable")(
        "max-cycles", po::value(&max_cycles)->value_name("N"),
        "watchdog: stop after N simulated cycles (exit code 124)")(
        "stats", po::value(&o.stats_file)->value_name("FILE.json"),
        "write the statistics of the run as JSON")("quiet,q", po::bool_switch(&o.quiet),
                                                   "print neither console output nor the summary")(
        "gdb", po::value(&o.gdb)->value_name("[HOST:]PORT"),
        "serve GDB on this address (default host 127.0.0.1; port 0: any free port)")(
        "gdb-wait", po::bool_switch(&o.gdb_wait), "wait for GDB before the first instruction")(
        "trace", po::value(&o.trace_file)->value_name("FILE.json"),
        "write a timeline trace (Chrome/Perfetto JSON)")(
        "trace-categories", po::value(&o.trace_categories)->value_name("LIST"),
        "what to trace: cores,marks,namp,dma,noc,all (default cores,marks,namp,dma)")(
        "trace-window", po::value(&o.trace_window)->value_name("FROM:TO"),
        "trace only cycles FROM to TO (TO empty: to the end)")(
        "progress", po::bool_switch(&o.progress), "show a status line of the run on stderr")(
        "log", po::value(&o.log)->value_name("LIST"),
        "instruction and event log: insn,trap,irq,mmio,namp or all (docs/logging.md)")(
        "log-file", po::value(&o.log_file)->value_name("FILE"),
        "write the log to FILE (default: standard error)")(
        "log-tiles", po::value(&o.log_tiles)->value_name("LIST"),
        "log only these tiles, e.g. 0,3-5")(
        "log-cores", po::value(&o.log_cores)->value_name("LIST"), "log only these cores of a tile")(
        "log-range", po::value(&o.log_range)->value_name("FROM:TO"),
        "log only pcs and device addresses in [FROM, TO) (hex)")(
        "log-window", po::value(&o.log_window)->value_name("FROM:TO"),
        "log only cycles FROM to TO (TO empty: to the end)")(
        "log-limit", po::value(&o.log_limit)->value_name("BYTES"),
        "stop logging after this many bytes (default 256 MiB)")(
        "list-config", po::bool_switch(&o.list_config), "list every configuration key")(
        "list-presets", po::bool_switch(&o.list_presets), "list the presets")(
        "area", po::bool_switch(&o.area),
        "print the area estimate of the configuration and run nothing; with --firmware the ELF "
        "files are checked too, with --stats the statistics the run would have are written with "
        "every counter 0 (docs/area.md)")(
        "area-parts", po::bool_switch(&o.area_parts),
        "with --area: also every component's parts (registers, datapath, FSM steps) and gates")(
        "area-calibration", po::bool_switch(&o.area_calibration),
        "print the structural area model against the thesis figures: the calibration, the "
        "held-out validation and the fit (markdown); --set applies to every configuration")(
        "print-config", po::bool_switch(&o.print_config),
        "print the effective configuration (defaults, preset, --config, --set) as JSON and run "
        "nothing")(
        "energy-figures", po::bool_switch(&o.energy_figures),
        "print the energy model's per-event figures and their sources (markdown, docs/energy.md)")(
        "traffic", po::bool_switch(&o.traffic),
        "no firmware: drive the NoC alone with synthetic traffic (traffic.* keys, docs/noc.md)");
    std::ostringstream help;
    help << desc;
    o.help_text = help.str();
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
        po::notify(vm);
    } catch (const po::error &e) {
        throw usage_error(e.what());
    }
    if (o.gdb_wait && o.gdb.empty()) throw usage_error("--gdb-wait needs --gdb [HOST:]PORT");
    // Options that only refine another one are refused without it, instead of being ignored.
    for (const char *opt : {"trace-categories", "trace-window"})
        if (vm.count(opt) && !vm.count("trace"))
            throw usage_error(std::string("--") + opt + " needs --trace FILE.json");
    for (const char *opt :
         {"log-file", "log-tiles", "log-cores", "log-range", "log-window", "log-limit"})
        if (vm.count(opt) && !vm.count("log"))
            throw usage_error(std::string("--") + opt + " needs --log LIST");
    for (const char *opt : {"stats", "trace", "log-file"})
        if (vm.count(opt) && vm[opt].as<std::string>().empty())
            throw usage_error(std::string("--") + opt + ": the file name is empty");
    if (!max_cycles.empty()) o.max_cycles = parse_max_cycles(max_cycles);
    if (o.traffic) {
        for (const char *opt : {"firmware", "args", "gdb", "trace", "log", "max-cycles"})
            if (vm.count(opt))
                throw usage_error(std::string("--traffic runs no firmware: --") + opt +
                                  " does not apply (the traffic.* keys set the run)");
    } else if (!o.help && !o.version && !o.list_config && !o.list_presets && !o.area &&
               !o.area_calibration && !o.energy_figures && !o.print_config && o.firmware.empty()) {
        throw usage_error("no firmware: give --firmware ELF, or --traffic (see --help)");
    }
    return o;
}

}  // namespace vp
