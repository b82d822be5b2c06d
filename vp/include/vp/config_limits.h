// Input limits of the configuration (docs/robustness.md): what a configuration file or a --set
// value may contain before it is even looked at against the schema. Each limit is far above what
// a valid configuration needs and keeps a hostile or broken input cheap to refuse.
#pragma once
#include <cstdint>
#include <string>
#include <nlohmann/json.hpp>

namespace vp {

struct config_limits {
    static constexpr uint64_t max_file_bytes = 1u << 20;  // a configuration file
    static constexpr int max_depth = 8;               // nested objects/arrays (the schema needs 3)
    static constexpr size_t max_key_bytes = 128;      // one key of an object
    static constexpr size_t max_string_bytes = 4096;  // one string value (console.file: a path)
    static constexpr size_t max_set_bytes = 8192;     // one --set KEY=VALUE argument
    // Host address space the tile SRAMs may reserve together (tiles * tile.sram_size); host memory
    // is taken only for the pages the simulation touches (tiles/src/sram.cpp).
    static constexpr uint64_t max_total_sram = uint64_t(32) << 30;
    // The NAMP's longest protocol message (FINAL: header and four words) must fit in one packet.
    static constexpr unsigned namp_min_packet_flits = 5;
    // NAMP-CC reduction and scatter/gather: the member ALLOC_REQ (header, w0, endpoint, size,
    // collective id, operation or part) is 6 flits.
    static constexpr unsigned namp_cc_min_packet_flits = 6;
};

// Parses JSON text under the limits above; throws config_error "<origin>: ..." naming the key
// under which a limit was exceeded, or the parser's message for malformed text.
nlohmann::json parse_config_text(const std::string &text, const std::string &origin);

// A value as it may appear in an error message: scalars dumped (long ones cut), containers only
// named by their type, so a message never grows with the input.
std::string describe_value(const nlohmann::json &value);

}  // namespace vp
