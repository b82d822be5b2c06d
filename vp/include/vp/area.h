// Area estimate of one network adapter from the platform configuration (docs/area.md): a
// structural model. Each component is an inventory of what its hardware is built of (register
// bits, storage bits, multiplexer inputs, comparators, adders, counters, FSM states), derived from
// the configuration and from the register maps and protocol steps of this platform's models; the
// gates follow from per-unit costs (area.*_mgates keys). Two unit costs are calibrated on a stated
// subset of the thesis' synthesis figures (4.4, 5.1), the others are held out to validate the
// model (area_calibration.h). An estimate, not a synthesis: every unit cost is a configuration key.
//
// Programmatic interface (also for other models, e.g. an energy model that derives leakage from
// the area): estimate_area() -> area_estimate; area_estimate::find(name) gives one component with
// its count, gates per instance and its structure (register bits etc.), group_kgates() a group.
// A new hardware block is one entry of the component table in area_components.cpp.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "vp/config.h"

namespace vp {

// What one instance of a component (or one part of it) is built of.
struct area_structure {
    double ff_bits = 0;       // register bits (flip-flops with load enable)
    double storage_bits = 0;  // FIFO / packet-buffer storage bits (flip-flops with their read path)
    double mux_bits = 0;      // multiplexer inputs beyond the first, times their width
    double eq_bits = 0;       // equality-compare bits (incl. compares against zero)
    double cmp_bits = 0;      // magnitude-compare bits
    double add_bits = 0;      // adder / subtractor bits
    double inc_bits = 0;      // incrementer / decrementer / counter bits
    double states = 0;        // FSM states: the control logic of one protocol step each
    area_structure &operator+=(const area_structure &o);
};

// Gates per unit of each kind (from the area.*_mgates keys, milli-gates per unit).
struct area_unit_costs {
    double ff = 0, storage = 0, mux = 0, eq = 0, cmp = 0, add = 0, inc = 0, state = 0;
    double gates(const area_structure &s) const;
};
area_unit_costs area_costs(const platform_config &c);

// One named part of a component: a register group, a datapath element, the states of a protocol
// step. `extension`: this platform's addition that the thesis' prototype does not have (the
// calibration against the thesis leaves it out).
struct area_part {
    std::string name;
    area_structure s;
    bool extension = false;
};

struct area_component {
    std::string name;              // e.g. "namp_slot" (the key in the statistics)
    std::string group;             // "noc_buffers", "dma" or "namp"
    std::string what;              // one line for the table
    unsigned count;                // instances
    std::vector<area_part> parts;  // the structure of one instance
    area_structure structure;      // sum of the parts (one instance)
    double each_kgates;            // gates of one instance / 1000
    double kgates;                 // count * each_kgates
};

struct area_estimate {
    std::vector<area_component> components;  // only those present in the configuration
    const area_component *find(const std::string &name) const;  // nullptr: not present
    double group_kgates(const std::string &group) const;
    double adapter_kgates() const;  // one network adapter
    unsigned tiles = 0;             // adapters in the platform (0 without na.enabled)
};

// The estimate with every part (extensions = false: without the parts marked as this platform's
// extensions, i.e. the thesis' design, for the comparisons with its figures).
area_estimate estimate_area(const platform_config &c, bool extensions = true);

// The "area" section of the statistics: components by name, groups, adapter and platform totals.
nlohmann::ordered_json area_json(const area_estimate &a);
// The table namp-vp --area prints, and (--area-parts) every component's parts with their gates.
std::string area_table(const area_estimate &a);
std::string area_parts_table(const area_estimate &a, const platform_config &c);

}  // namespace vp
