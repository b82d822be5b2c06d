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
    std::string gdb;        // --gdb [HOST:]PORT
    bool gdb_wait = false;  // --gdb-wait
    std::string trace_file;        // --trace FILE.json
    std::string trace_categories;  // --trace-categories LIST (empty: the default set)
    std::string trace_window;      // --trace-window FROM:TO in cycles
    bool progress = false;         // --progress
    bool list_config = false;
    bool list_presets = false;
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
