// Command line of namp-vp (docs/cli.md).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vp {

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct cli_options {
    std::string config_file;
    std::string preset;
    std::vector<std::string> overrides;  // KEY=VALUE
    std::vector<std::string> firmware;   // ELF or TILE=ELF
    std::vector<std::string> args;       // ARGS or TILE=ARGS: main()'s argv after argv[0]
    uint64_t max_cycles = 0;
    std::string stats_file;
    bool quiet = false;
    std::string gdb;               // --gdb [HOST:]PORT
    bool gdb_wait = false;         // --gdb-wait
    std::string trace_file;        // --trace FILE.json
    std::string trace_categories;  // --trace-categories LIST (empty: the default set)
    std::string trace_window;      // --trace-window FROM:TO in cycles
    bool progress = false;         // --progress
    std::string log;               // --log LIST: instruction and event log categories
    std::string log_file;          // --log-file FILE (empty: standard error)
    std::string log_tiles;         // --log-tiles LIST of tile ids and ranges (empty: all)
    std::string log_cores;         // --log-cores LIST of core indexes and ranges (empty: all)
    std::string log_range;         // --log-range FROM:TO addresses (hex), empty: all
    std::string log_window;        // --log-window FROM:TO cycles
    std::string log_limit;         // --log-limit BYTES (empty: the default)
    bool list_config = false;
    bool list_presets = false;
    bool area = false;              // --area: print the area estimate, run nothing
    bool area_parts = false;        // --area-parts: the same with every component's parts
    bool area_calibration = false;  // --area-calibration: the model against the thesis
    bool energy_figures = false;    // --energy-figures: the energy.* keys and their sources
    bool print_config = false;      // --print-config: the effective configuration as JSON
    bool traffic = false;           // --traffic: the NoC alone with synthetic traffic
    bool help = false;
    bool version = false;
    std::string help_text;
};

cli_options parse_command_line(int argc, char **argv);  // throws usage_error

// --max-cycles: 0 (no watchdog) up to 10^15 cycles, far below what SystemC time can hold at the
// fastest clock (2^64 ps at 4 GHz is 7 * 10^16 cycles). Throws usage_error naming the option.
constexpr uint64_t max_cycles_limit = 1000000000000000ull;
uint64_t parse_max_cycles(const std::string &text);

}  // namespace vp
