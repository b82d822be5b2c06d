// The structural area model (vp/area.h) against the thesis' synthesis figures (4.4, 5.1, abstract;
// docs/area.md "Calibration and validation"): a stated subset calibrates the two unit costs the
// structure cannot know (gates per FSM state, gates per register bit), the rest is held out and
// only compared. No thesis figure is a parameter of the model.
#pragma once
#include <string>
#include <vector>

namespace vp {

enum class area_role { calibration, validation, not_comparable };

struct area_calibration_point {
    std::string name;    // what the thesis says, briefly
    std::string source;  // where (section)
    std::string how;     // which configurations the model compares
    std::string unit;    // "kGates" or "%"
    double thesis, model;
    area_role role;
    double deviation() const { return (model - thesis) / thesis; }  // relative
};

// Every point, the model evaluated with the default unit costs and `overrides` (key=value).
std::vector<area_calibration_point> area_calibration(
    const std::vector<std::string> &overrides = {});

// The calibration fits two numbers, as the thesis reports two kinds of gates (sequential and
// combinational, Fig. 4.13-4.17): the gates of a register bit, and one factor on the cell-library
// costs of all combinational units (multiplexer, compare, adder, counter bits, FSM states). It
// minimises the squared relative error of the calibration points; `unit_mgates()` gives the
// area.*_mgates values that follow (the keys' defaults are these: a unit test checks it).
struct area_fit {
    int64_t ff_bit_mgates;
    int64_t logic_permille;  // factor on the library's combinational costs, per mille
    double rms;              // relative, over the calibration points
    // key (without "area.") -> milli-gates
    std::vector<std::pair<std::string, int64_t>> unit_mgates() const;
};
area_fit area_calibrate(const std::vector<std::string> &overrides = {});

std::string area_calibration_table(const std::vector<std::string> &overrides = {});  // markdown

}  // namespace vp
