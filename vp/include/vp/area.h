// Area estimate of one network adapter from the platform configuration (docs/area.md): kGates
// (thousands of NAND2 gate equivalents, 40 nm) per component, calibrated to the synthesis figures
// of the dissertation (4.4, 5.1). An estimate, not a synthesis: every parameter is a configuration
// key (area.*), so users can recalibrate it to their own results.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "vp/config.h"

namespace vp {

struct area_component {
    std::string name;   // e.g. "namp_slots" (the key in the statistics)
    std::string group;  // "noc_buffers", "dma" or "namp"
    std::string what;   // one line for the table
    unsigned count;     // instances (flits for buffer storage)
    double each_kgates;
    double kgates;      // count * each_kgates
};

struct area_estimate {
    std::vector<area_component> components;  // only those present in the configuration
    double group_kgates(const std::string &group) const;
    double adapter_kgates() const;           // one network adapter
    unsigned tiles = 0;                      // adapters in the platform (0 without na.enabled)
};

// Throws config_error when the area.* parameters contradict each other (protocol shares above
// 1000 per mille).
area_estimate estimate_area(const platform_config &c);

// The "area" section of the statistics: components by name, groups, adapter and platform totals.
nlohmann::ordered_json area_json(const area_estimate &a);
// The table namp-vp --area prints.
std::string area_table(const area_estimate &a);

// One point of docs/area.md's calibration table: a thesis figure and what the model gives for it.
struct area_calibration_point {
    std::string name;     // what the thesis says, briefly
    std::string source;   // where (section)
    std::string how;      // which configurations the model compares
    std::string unit;     // "kGates" or "%"
    double thesis, model;
    double deviation() const { return (model - thesis) / thesis; }  // relative
};
std::vector<area_calibration_point> area_calibration();  // with the default area.* keys
std::string area_calibration_table();                    // markdown

}  // namespace vp
