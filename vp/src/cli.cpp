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
    desc.add_options()
        ("help,h", po::bool_switch(&o.help), "show this help")
        ("version", po::bool_switch(&o.version), "show the version")
        ("config,c", po::value(&o.config_file)->value_name("FILE.json"),
         "platform configuration file (see --list-config)")
        ("preset,p", po::value(&o.preset)->value_name("NAME"),
         "start from a named configuration (see --list-presets)")
        ("set,s", po::value(&o.overrides)->composing()->value_name("KEY=VALUE"),
         "override one configuration key; repeatable")
        ("firmware,f", po::value(&o.firmware)->composing()->value_name("[TILE=]ELF"),
         "ELF for every tile, or for the tile with that id; repeatable")
        ("args", po::value(&o.args)->composing()->value_name("[TILE=]ARGS"),
         "arguments for main() on every tile, or on that tile; repeatable")
        ("max-cycles", po::value(&max_cycles)->value_name("N"),
         "watchdog: stop after N simulated cycles (exit code 124)")
        ("stats", po::value(&o.stats_file)->value_name("FILE.json"),
         "write the statistics of the run as JSON")
        ("quiet,q", po::bool_switch(&o.quiet), "print neither console output nor the summary")
        ("gdb", po::value(&o.gdb)->value_name("[HOST:]PORT"),
         "serve GDB on this address (default host 127.0.0.1; port 0: any free port)")
        ("gdb-wait", po::bool_switch(&o.gdb_wait), "wait for GDB before the first instruction")
        ("trace", po::value(&o.trace_file)->value_name("FILE.json"),
         "write a timeline trace (Chrome/Perfetto JSON)")
        ("trace-categories", po::value(&o.trace_categories)->value_name("LIST"),
         "what to trace: cores,marks,namp,dma,noc,all (default cores,marks,namp,dma)")
        ("trace-window", po::value(&o.trace_window)->value_name("FROM:TO"),
         "trace only cycles FROM to TO (TO empty: to the end)")
        ("progress", po::bool_switch(&o.progress), "show a status line of the run on stderr")
        ("list-config", po::bool_switch(&o.list_config), "list every configuration key")
        ("list-presets", po::bool_switch(&o.list_presets), "list the presets");
    std::ostringstream help;
    help << desc;
    o.help_text = help.str();
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
        po::notify(vm);
    } catch (const po::error &e) {
        throw usage_error(e.what());
    }
    if (o.gdb_wait && o.gdb.empty()) throw usage_error("--gdb-wait needs --gdb [HOST:]PORT");
    if (!max_cycles.empty()) o.max_cycles = parse_max_cycles(max_cycles);
    if (!o.help && !o.version && !o.list_config && !o.list_presets && o.firmware.empty())
        throw usage_error("no firmware: give --firmware ELF (see --help)");
    return o;
}

}  // namespace vp
