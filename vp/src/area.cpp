#include "vp/area.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "vp/area_components.h"

namespace vp {

using nlohmann::ordered_json;

area_structure &area_structure::operator+=(const area_structure &o) {
    ff_bits += o.ff_bits;
    storage_bits += o.storage_bits;
    mux_bits += o.mux_bits;
    eq_bits += o.eq_bits;
    cmp_bits += o.cmp_bits;
    add_bits += o.add_bits;
    inc_bits += o.inc_bits;
    states += o.states;
    return *this;
}

double area_unit_costs::gates(const area_structure &s) const {
    return s.ff_bits * ff + s.storage_bits * storage + s.mux_bits * mux + s.eq_bits * eq +
           s.cmp_bits * cmp + s.add_bits * add + s.inc_bits * inc + s.states * state;
}

area_unit_costs area_costs(const platform_config &c) {
    const auto g = [&](const char *key) {
        return double(c.effective.at("area").at(key).get<int64_t>()) / 1000;
    };
    area_unit_costs u;
    u.ff = g("ff_bit_mgates");
    u.storage = g("storage_bit_mgates");
    u.mux = g("mux_bit_mgates");
    u.eq = g("eq_bit_mgates");
    u.cmp = g("cmp_bit_mgates");
    u.add = g("add_bit_mgates");
    u.inc = g("inc_bit_mgates");
    u.state = g("fsm_state_mgates");
    return u;
}

namespace {
double rounded(double kgates) { return std::round(kgates * 1000) / 1000; }  // whole gates
}  // namespace

const area_component *area_estimate::find(const std::string &name) const {
    for (const area_component &c : components)
        if (c.name == name) return &c;
    return nullptr;
}

double area_estimate::group_kgates(const std::string &group) const {
    double sum = 0;
    for (const area_component &c : components)
        if (c.group == group) sum += c.kgates;
    return sum;
}

double area_estimate::adapter_kgates() const {
    double sum = 0;
    for (const area_component &c : components) sum += c.kgates;
    return sum;
}

area_estimate estimate_area(const platform_config &c, bool extensions) {
    area_estimate a;
    if (!c.na_enabled) return a;
    a.tiles = c.mesh_width * c.mesh_height;
    const area_unit_costs u = area_costs(c);
    for (const area_component_def &d : area_component_defs()) {
        const unsigned n = d.count(c);
        if (n == 0) continue;
        area_component comp{d.name, d.group, d.what, n, {}, {}, 0, 0};
        std::vector<area_part> parts;
        d.build(c, parts);
        for (area_part &p : parts)
            if (extensions || !p.extension) {
                comp.structure += p.s;
                comp.parts.push_back(std::move(p));
            }
        comp.each_kgates = u.gates(comp.structure) / 1000;
        comp.kgates = n * comp.each_kgates;
        if (comp.kgates > 0) a.components.push_back(std::move(comp));
    }
    return a;
}

ordered_json area_json(const area_estimate &a) {
    ordered_json comps = ordered_json::object();
    for (const area_component &c : a.components)
        comps[c.name] = {{"group", c.group},
                         {"count", c.count},
                         {"kgates_each", rounded(c.each_kgates)},
                         {"kgates", rounded(c.kgates)},
                         {"ff_bits_each", c.structure.ff_bits},
                         {"storage_bits_each", c.structure.storage_bits}};
    ordered_json j;
    j["unit"] = "kGates (NAND2 equivalents, 40 nm; a structural estimate, docs/area.md)";
    j["components"] = comps;
    j["noc_buffers_kgates"] = rounded(a.group_kgates("noc_buffers"));
    j["dma_kgates"] = rounded(a.group_kgates("dma"));
    j["namp_kgates"] = rounded(a.group_kgates("namp"));
    j["adapter_kgates"] = rounded(a.adapter_kgates());
    j["tiles"] = a.tiles;
    j["platform_kgates"] = rounded(a.adapter_kgates() * a.tiles);
    return j;
}

std::string area_table(const area_estimate &a) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(3);
    o << "Area estimate of one network adapter in kGates (NAND2 equivalents, 40 nm): a structural\n"
         "model (docs/area.md); unit costs: the area.* keys of --list-config\n\n";
    o << std::left << std::setw(21) << "component" << std::right << std::setw(6) << "count"
      << std::setw(10) << "each" << std::setw(10) << "kGates" << std::setw(8) << "regs"
      << "  what\n";
    for (const area_component &c : a.components)
        o << std::left << std::setw(21) << c.name << std::right << std::setw(6) << c.count
          << std::setw(10) << c.each_kgates << std::setw(10) << c.kgates << std::setw(8)
          << std::setprecision(0) << c.structure.ff_bits + c.structure.storage_bits
          << std::setprecision(3) << "  " << c.what << "\n";
    const auto total = [&](const std::string &label, double v) {
        o << std::left << std::setw(37) << label << std::right << std::setw(10) << v << "\n";
    };
    o << "\n";
    total("NoC buffers", a.group_kgates("noc_buffers"));
    total("DMA", a.group_kgates("dma"));
    total("NAMP", a.group_kgates("namp"));
    total("adapter", a.adapter_kgates());
    total("platform (" + std::to_string(a.tiles) + " adapters)", a.adapter_kgates() * a.tiles);
    return o.str();
}

std::string area_parts_table(const area_estimate &a, const platform_config &c) {
    const area_unit_costs u = area_costs(c);
    std::ostringstream o;
    o << std::fixed;
    o << "Parts of one instance (gates; regs = register and storage bits; * = this platform's\n"
         "extension, not in the thesis' design):\n";
    for (const area_component &comp : a.components) {
        o << "\n"
          << comp.name << " (x" << comp.count << ", " << std::setprecision(0)
          << comp.each_kgates * 1000 << " gates each)\n";
        for (const area_part &p : comp.parts)
            o << "  " << std::right << std::setw(7) << std::setprecision(0) << u.gates(p.s) << "  "
              << std::setw(5) << p.s.ff_bits + p.s.storage_bits << " regs  "
              << (p.extension ? "* " : "") << p.name << "\n";
    }
    return o.str();
}

}  // namespace vp
