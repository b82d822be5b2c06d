// Platform configuration: a JSON document validated against a schema of known keys.
// Layers, lowest first: built-in defaults < preset < config file < --set overrides.
// Every key has a type, a range and a description (`namp-vp --list-config` prints them).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "namp/na_config.h"
#include "noc/config.h"
#include "tiles/tile_config.h"

namespace vp {

struct config_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// number: a finite decimal in [min, max] (the integer bounds)
enum class value_kind { integer, boolean, string, number };

struct config_key {
    std::string path;  // dotted, e.g. "tile.cores"
    value_kind kind;
    int64_t min, max;  // integers and numbers only
    nlohmann::json default_value;
    std::string unit;
    std::string description;
};

// The schema: every key the platform understands.
const std::vector<config_key> &config_schema();

struct preset {
    std::string name;
    std::string description;
    nlohmann::json settings;  // nested object of keys to set
};
const std::vector<preset> &config_presets();

// host.stack_guards: whether SystemC's thread stacks keep their guard pages (vp/host_limits.h).
enum class stack_guard_mode { automatic, on, off };

// The typed result the platform is built from.
struct platform_config {
    unsigned mesh_width = 4, mesh_height = 4;
    uint64_t clock_hz = 100000000;
    uint64_t quantum_cycles = 1000;
    bool stop_on_failure = true;
    tiles::tile_config tile;
    noc::config noc;  // width, height and clock are set from mesh.* and clock_hz
    bool na_enabled = true;
    namp::na_config na;
    std::string console_file;
    bool semihosting = false;  // semihosting.* (docs/semihosting.md)
    std::string semihosting_root = ".";
    uint64_t semihosting_epoch = 0;
    stack_guard_mode stack_guards = stack_guard_mode::automatic;
    unsigned checkpoints = 32;                // host.checkpoints: reverse execution (0: off)
    uint64_t checkpoint_interval = 50000000;  // host.checkpoint_interval
    uint32_t event_noise = 0;                 // host.event_noise: seed, 0 = off (vp/event_noise.h)
    bool skip_idle_sync = true;               // host.skip_idle_sync (tiles::cpu_core)
    // The validated document for the statistics: all of it but host.*, which cannot change what
    // is simulated, so the statistics of one simulation do not depend on how the host ran it.
    nlohmann::ordered_json effective;
};

class config_builder {
public:
    config_builder();
    void apply_preset(const std::string &name);  // throws config_error
    void apply_file(const std::string &path);    // throws config_error
    void apply_json(const nlohmann::json &doc, const std::string &origin);
    // A configuration document as text (what apply_file reads), under vp/config_limits.h.
    void apply_text(const std::string &text, const std::string &origin);  // throws config_error
    void apply_override(const std::string &assignment);  // "key=value"; throws config_error
    platform_config build() const;                       // throws config_error

private:
    void set_value(const std::string &path, const nlohmann::json &value, const std::string &origin);
    nlohmann::ordered_json doc_;
};

}  // namespace vp
