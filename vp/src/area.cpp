#include "vp/area.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace vp {

using nlohmann::ordered_json;

namespace {

// Values of the validated document: the area.* parameters and the feature flags of the optional
// blocks are read by key, so a new block is one table row (see optional_blocks below).
const ordered_json &value_of(const platform_config &c, const std::string &path) {
    std::string p = "/" + path;
    for (char &ch : p)
        if (ch == '.') ch = '/';
    return c.effective.at(ordered_json::json_pointer(p));
}
double gates(const platform_config &c, const std::string &key) {
    return double(value_of(c, key).get<int64_t>());
}
double permille(const platform_config &c, const std::string &key) { return gates(c, key) / 1000; }

// Blocks of the NAMP that are there when their flag is true, each a fixed number of gates,
// optionally smaller by a share when a variant flag is true.
struct optional_block {
    const char *name, *flag, *gates_key, *what;
    const char *variant_flag, *variant_saving_key, *variant_what;  // may be nullptr
};
const optional_block optional_blocks[] = {
    {"cc_multicast", "namp.enable_cc_multicast", "area.cc_multicast_gates",
     "NAMP-CC multicast: member-list walk in the initiator", nullptr, nullptr, nullptr},
    {"cc_scattergather", "namp.enable_cc_scattergather", "area.cc_scattergather_gates",
     "NAMP-CC scatter/gather: chunk addressing in the initiator and DMA, gather root", nullptr,
     nullptr, nullptr},
    {"cc_reduction", "namp.enable_cc_reduction", "area.cc_reduction_gates",
     "NAMP-CC reduction: combining ALU in the receiving DMA, reduction entries", nullptr, nullptr,
     nullptr},
    {"osqm", "namp.osqm", "area.osqm_gates", "HW-OSQM, configurable at run time",
     "namp.osqm_static", "area.osqm_static_saving_permille", "HW-OSQM, static configuration"},
    {"namp_identity", "namp.identity", "area.namp_identity_gates",
     "endpoint identity and collective membership: 32-bit ID compare in the target (allocation, "
     "FINAL, CREDIT), member-table compare of a root, ID and key words in the messages",
     nullptr, nullptr, nullptr},
    {"namp_ps", "namp.ps", "area.namp_ps_gates",
     "NAMP-PS: relocation check and allocation count in the target, handle update, report and "
     "dualcast copy in the initiator", nullptr, nullptr, nullptr},
};

// The protocol features: the share of the NAMP logic (base and every slot alike) that only
// that feature needs; the rest is common to all feature sets.
struct protocol_feature {
    const char *flag, *share_key, *label;
};
const protocol_feature protocol_features[] = {
    {"namp.enable_messages", "area.namp_messages_permille", "messages"},
    {"namp.enable_channels", "area.namp_channels_permille", "channels"},
    {"namp.enable_buffered", "area.namp_buffered_permille", "buffered"},
    {"namp.enable_ccm", "area.namp_ccm_permille", "CCM"},
};

double rounded(double kgates) { return std::round(kgates * 1000) / 1000; }  // whole gates

void add(area_estimate &a, const std::string &name, const std::string &group,
         const std::string &what, unsigned count, double each_gates) {
    if (count == 0) return;
    a.components.push_back({name, group, what, count, each_gates / 1000,
                            count * each_gates / 1000});
}

}  // namespace

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

area_estimate estimate_area(const platform_config &c) {
    area_estimate a;
    if (!c.na_enabled) return a;
    a.tiles = c.mesh_width * c.mesh_height;
    const namp::na_config &na = c.na;
    const unsigned mpf = c.noc.max_packet_flits;
    const double flit = gates(c, "area.buffer_flit_gates");

    // Baseline adapter (thesis 4.4: "NoC buffers" and "DMA", present without the NAMP too).
    const unsigned queue = na.target_queue_flits ? na.target_queue_flits : 2 * mpf;
    const unsigned nocbuf_flits = 2 * (na.rx_buffer_flits + mpf) + queue;
    add(a, "noc_buffer_logic", "noc_buffers",
        "NoC buffers: packet assembly, flow control, status, data-request queue control", 1,
        gates(c, "area.noc_buffer_logic_gates"));
    std::ostringstream flits;
    flits << "NoC buffer storage: 2 x (receive " << na.rx_buffer_flits << " + send " << mpf
          << ") + data-request queue " << queue << " flits";
    add(a, "noc_buffer_flits", "noc_buffers", flits.str(), nocbuf_flits, flit);
    add(a, "dma_engine", "dma", "DMA: reader, injector, arbitration, completions", 1,
        gates(c, "area.dma_engine_gates"));
    add(a, "dma_slots", "dma", "DMA: user slot registers", na.dma_slots,
        gates(c, "area.dma_slot_gates"));
    add(a, "dma_contexts", "dma", "DMA: transfer state per context", na.dma_contexts,
        gates(c, "area.dma_context_gates"));
    std::ostringstream fifo;
    fifo << "DMA FIFO storage: " << na.dma_contexts << " contexts x " << na.dma_fifo_packets
         << " packets x " << mpf << " flits";
    add(a, "dma_fifo_flits", "dma", fifo.str(), na.dma_contexts * na.dma_fifo_packets * mpf, flit);

    const namp::na_config::namp_config &m = na.namp;
    if (!m.enabled) return a;
    double share = 1, shares = 0;
    std::string features;
    for (const protocol_feature &f : protocol_features) {
        const double s = permille(c, f.share_key);
        shares += s;
        if (value_of(c, f.flag).get<bool>())
            features += (features.empty() ? "" : ", ") + std::string(f.label);
        else
            share -= s;
    }
    if (shares > 1)
        throw config_error("the area.namp_*_permille protocol shares add up to " +
                           std::to_string(int(std::lround(shares * 1000))) +
                           " per mille, more than 1000");
    std::ostringstream sh;
    sh << "; protocol share " << std::lround(share * 1000) << "/1000 ("
       << (features.empty() ? "none" : features) << ")";
    const double slot = gates(c, "area.namp_slot_gates") * share;
    add(a, "namp_base", "namp", "NAMP initiator, target, top level" + sh.str(), 1,
        gates(c, "area.namp_base_gates") * share);
    add(a, "namp_slots", "namp", "NAMP slots incl. their DMA share" + sh.str(), m.slots, slot);
    add(a, "namp_vifs", "namp", "NAMP-SV virtual interfaces (share of a slot)", m.slots_virt,
        slot * permille(c, "area.namp_vif_permille"));
    add(a, "namp_vif_window_checks", "namp",
        "NAMP-SV isolation per virtual interface: send-buffer window registers and compares",
        gates(c, "area.namp_vif_window_check_gates") > 0 ? m.slots_virt : 0,
        gates(c, "area.namp_vif_window_check_gates"));
    const bool cc = m.cc_multicast || m.cc_scattergather || m.cc_reduction;
    add(a, "namp_vif_cc_members", "namp",
        "NAMP-SV collectives per virtual interface: member-table registers and vID bound compare",
        cc && gates(c, "area.namp_vif_cc_gates") > 0 ? m.slots_virt : 0, gates(c, "area.namp_vif_cc_gates"));
    for (const optional_block &b : optional_blocks) {
        if (!value_of(c, b.flag).get<bool>()) continue;
        const bool variant = b.variant_flag && value_of(c, b.variant_flag).get<bool>();
        const double g = gates(c, b.gates_key) *
                         (variant ? 1 - permille(c, b.variant_saving_key) : 1);
        add(a, b.name, "namp", variant ? b.variant_what : b.what, 1, g);
    }
    return a;
}

ordered_json area_json(const area_estimate &a) {
    ordered_json comps = ordered_json::object();
    for (const area_component &c : a.components)
        comps[c.name] = {{"group", c.group}, {"count", c.count},
                         {"kgates_each", rounded(c.each_kgates)}, {"kgates", rounded(c.kgates)}};
    ordered_json j;
    j["unit"] = "kGates (NAND2 equivalents, 40 nm; an estimate, docs/area.md)";
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
    o << "Area estimate of one network adapter in kGates (NAND2 equivalents, 40 nm), calibrated\n"
         "to the thesis (docs/area.md); parameters: the area.* keys of --list-config\n\n";
    o << std::left << std::setw(24) << "component" << std::right << std::setw(7) << "count"
      << std::setw(10) << "each" << std::setw(10) << "kGates" << "  what\n";
    for (const area_component &c : a.components)
        o << std::left << std::setw(24) << c.name << std::right << std::setw(7) << c.count
          << std::setw(10) << c.each_kgates << std::setw(10) << c.kgates << "  " << c.what
          << "\n";
    const auto total = [&](const std::string &label, double v) {
        o << std::left << std::setw(41) << label << std::right << std::setw(10) << v << "\n";
    };
    o << "\n";
    total("NoC buffers", a.group_kgates("noc_buffers"));
    total("DMA", a.group_kgates("dma"));
    total("NAMP", a.group_kgates("namp"));
    total("adapter", a.adapter_kgates());
    total("platform (" + std::to_string(a.tiles) + " adapters)", a.adapter_kgates() * a.tiles);
    return o.str();
}

// ---- calibration ------------------------------------------------------------------------------

namespace {

area_estimate area_of(const std::string &preset, const std::vector<std::string> &overrides) {
    config_builder b;
    if (!preset.empty()) b.apply_preset(preset);
    for (const std::string &o : overrides) b.apply_override(o);
    return estimate_area(b.build());
}
double namp_of(const std::string &preset, const std::vector<std::string> &overrides) {
    return area_of(preset, overrides).group_kgates("namp");
}

}  // namespace

std::vector<area_calibration_point> area_calibration() {
    // Table 4.2 variants as the thesis names them; Fig. 4.14 and 4.15 use four slots.
    const std::vector<std::string> s4 = {"namp.slots=4"};
    const double bare = namp_of("bare", s4);
    const double chan = namp_of("barechan", s4);
    const double chan_noccm = namp_of("barechan", {"namp.slots=4", "namp.enable_ccm=false"});
    const double chan_nobuf = namp_of("barechan", {"namp.slots=4", "namp.enable_ccm=false",
                                                   "namp.enable_buffered=false"});
    // the thesis' svfull: without the isolation checks (docs/namp.md "SV isolation"), collectives
    // through a vif, PS and endpoint identity (docs/security.md), which it gives no figures for
    const std::string no_checks = "area.namp_vif_window_check_gates=0", no_vif_cc = "area.namp_vif_cc_gates=0";
    const double svfull = namp_of("svfull", {no_checks, no_vif_cc, "namp.ps=false", "namp.identity=false"});
    const double no_osqm = namp_of("svfull", {no_checks, no_vif_cc, "namp.ps=false", "namp.identity=false", "namp.osqm=false"});
    const double osqm_static = namp_of("svfull", {no_checks, no_vif_cc, "namp.ps=false", "namp.identity=false", "namp.osqm_static=true"});
    const double virt3 = namp_of("svbase", {no_checks, no_vif_cc, "namp.slots_virt=3"});
    const double slot_sv = virt3 - namp_of("svbase", {no_checks, no_vif_cc, "namp.slots=4", "namp.slots_virt=3"});
    const area_estimate base = area_of("", {});
    const auto pct = [](double v) { return 100 * v; };
    return {
        {"bare-metal NAMP", "5.1, Fig. 4.15", "`bare`, 4 slots", "kGates", 24, bare},
        {"each slot adds", "5.1, 4.4.1", "`bare`: 5 slots minus 4 slots", "kGates", 4,
         namp_of("bare", {"namp.slots=5"}) - bare},
        {"connection-oriented only saves", "5.1", "`barechan` against `bare`, 4 slots", "%", 16,
         pct(1 - chan / bare)},
        {"connection-less only saves", "5.1", "`baremsg` against `bare`, 4 slots", "%", 34,
         pct(1 - namp_of("baremsg", s4) / bare)},
        {"buffered sending adds", "4.4.2, Fig. 4.14", "`barechan` noccm against nobuf, 4 slots",
         "%", 15, pct(chan_noccm / chan_nobuf - 1)},
        {"CCM adds", "4.4.2, Fig. 4.14", "`barechan` (default) against noccm, 4 slots", "%", 4,
         pct(chan / chan_noccm - 1)},
        {"a virtual interface adds, of a slot", "4.4.4, Fig. 4.16",
         "`svbase`: SLOTS_VIRT 4 minus 3, against one more slot", "%", 8,
         pct((namp_of("svbase", {no_checks, no_vif_cc}) - virt3) / slot_sv)},
        {"HW-OSQM", "5.1, 4.2.3.4", "`svfull` minus `svfull` without `namp.osqm`", "kGates", 1.4,
         svfull - no_osqm},
        {"HW-OSQM static configuration saves", "5.1", "`namp.osqm_static` against dynamic", "%",
         32, pct(1 - (osqm_static - no_osqm) / (svfull - no_osqm))},
        {"full NAMP", "4.4.5, Fig. 4.17",
         "`svfull` (SLOTS_PHYS 1, SLOTS_VIRT 4; without PS, identity and the isolation checks)",
         "kGates", 40, svfull},
        {"NoC buffers", "4.4", "default adapter", "kGates", 37, base.group_kgates("noc_buffers")},
        {"DMA controller, 2 slots", "4.4", "default adapter (`na.dma_slots` 2)", "kGates", 27,
         base.group_kgates("dma")},
    };
}

std::string area_calibration_table() {
    std::ostringstream o;
    o << "| thesis | section | model configuration | thesis | model | deviation |\n"
         "|---|---|---|---:|---:|---:|\n";
    for (const area_calibration_point &p : area_calibration()) {
        const std::string u = p.unit == "%" ? " %" : " kGates";
        o << "| " << p.name << " | " << p.source << " | " << p.how << " | " << std::fixed
          << std::setprecision(p.unit == "%" ? 0 : 1) << p.thesis << u << " | "
          << std::setprecision(p.unit == "%" ? 2 : 3) << p.model << u << " | ";
        const double dev = std::round(1000 * p.deviation()) / 10;  // no "-0.0" for rounding noise
        o << std::showpos << std::setprecision(1) << (dev == 0 ? 0.0 : dev) << " %"
          << std::noshowpos << " |\n";
    }
    return o.str();
}

}  // namespace vp
