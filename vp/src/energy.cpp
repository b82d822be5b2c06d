#include "vp/energy.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "namp/network_adapter.h"
#include "vp/area.h"
#include "vp/platform.h"

namespace vp {

using nlohmann::ordered_json;

namespace {

int64_t key_value(const platform_config &c, const std::string &path) {
    std::string p = "/" + path;
    for (char &ch : p)
        if (ch == '.') ch = '/';
    return c.effective.at(ordered_json::json_pointer(p)).get<int64_t>();
}
uint64_t fj(const platform_config &c, const std::string &key) {
    return uint64_t(key_value(c, "energy." + key));
}

double rounded(double v) { return std::round(v * 1000) / 1000; }  // to the femtojoule

// One 32-bit access of an SRAM of `bytes`: energy.sram_word_1mib_fj scaled by the square root of
// the size (docs/energy.md, "SRAM").
uint64_t sram_word_fj(const platform_config &c, uint64_t bytes) {
    return uint64_t(std::llround(double(fj(c, "sram_word_1mib_fj")) *
                                 std::sqrt(double(bytes) / (1024.0 * 1024.0))));
}

}  // namespace

const std::vector<std::string> &energy_groups() {
    static const std::vector<std::string> g = {"cores", "sram", "bus", "adapter", "noc"};
    return g;
}

energy_counts energy_counts_of(const platform &p) {
    energy_counts n;
    for (const auto &t : p.tiles()) {
        for (const auto &core : t->cores()) {
            const rv_cpu_stats &s = *rv_cpu_get_stats(core->iss());
            n.instret += s.instret;
            n.loads += s.loads;
            n.stores += s.stores;
            n.atomics += s.atomics;
            n.branches += s.branches_taken + s.branches_not_taken;
            n.muls += s.muls;
            n.divs += s.divs;
        }
        n.sram_bus_read_words += t->memory().bus_read_words();
        n.sram_bus_write_words += t->memory().bus_write_words();
        n.bus_words += t->bus().words();
        if (const namp::network_adapter *na = p.adapter(t->geometry().id)) {
            const namp::na_stats &s = na->stats();
            for (unsigned c = 0; c < 4; ++c) {
                n.na_flits_sent += s.flits_sent[c];
                n.na_flits_received += s.flits_received[c];
            }
            n.dma_bytes += s.dma_payload_bytes + s.dma_bytes_written;
            n.data_bytes += s.dma_payload_bytes;
            n.namp_steps += s.namp_egress_steps + s.namp_ingress_steps + s.namp_target_steps;
            n.na_register_accesses += s.register_accesses;
            if (const namp::namp_unit *u = na->namp())
                for (const auto &slot : u->slots()) n.namp_transfers += slot->stats().transfers;
        }
    }
    n.noc = p.network().activity();
    n.noc_packets_delivered = p.network().stats().delivered_packets;
    n.cycles = p.simulated_cycles();
    return n;
}

// A router's input buffers are storage bits of the area model (32-bit flits); its crossbar,
// allocators and route logic one figure per physical network.
double router_buffer_gates(const platform_config &c) {
    return double(noc::resources_of(c.noc).buffer_flits) * 32.0 * area_costs(c).storage;
}

double router_logic_gates(const platform_config &c) {
    return double(noc::resources_of(c.noc).crossbars) *
           double(key_value(c, "area.router_logic_gates"));
}

double router_gates(const platform_config &c) {
    return router_buffer_gates(c) + router_logic_gates(c);
}

std::vector<leakage_part> leakage_inventory(const platform_config &c, bool adapters) {
    std::vector<leakage_part> parts;
    if (adapters) {
        const area_estimate a = estimate_area(c);
        for (const area_component &comp : a.components)
            parts.push_back({comp.name, "adapter", comp.kgates * 1000.0 * a.tiles});
    }
    parts.push_back({"routers", "noc", router_gates(c) * c.noc.tiles()});
    return parts;
}

energy_report estimate_energy(const platform_config &c, const energy_counts &n, bool adapters) {
    energy_report r;
    r.counts = n;
    const auto add = [&r](const char *name, const char *group, const char *what, uint64_t count,
                          uint64_t each) {
        r.events.push_back({name, group, what, count, each});
    };
    // Cores: the instruction classes and the register file (2 reads and a write per instruction
    // that has them; an I-type reads one: an upper estimate).
    const uint64_t special = n.loads + n.stores + n.atomics + n.branches + n.muls + n.divs;
    const uint64_t alu = n.instret > special ? n.instret - special : 0;
    add("alu", "cores", "ALU, jump, CSR and system instructions", alu, fj(c, "alu_fj"));
    add("branch", "cores", "branch compares", n.branches, fj(c, "alu_fj"));
    add("address", "cores", "load, store and atomic address adds", n.loads + n.stores + n.atomics,
        fj(c, "alu_fj"));
    add("mul", "cores", "multiplications", n.muls, fj(c, "mul_fj"));
    add("div", "cores", "divisions and remainders", n.divs, fj(c, "div_fj"));
    add("register_read", "cores", "register file reads",
        2 * (alu + n.muls + n.divs + n.branches + n.stores + n.atomics) + n.loads,
        fj(c, "regfile_fj"));
    add("register_write", "cores", "register file writes",
        alu + n.muls + n.divs + n.loads + n.atomics, fj(c, "regfile_fj"));
    // The tile's SRAM: every instruction is fetched from it (no cache), loads, stores and the
    // atomics' read and write, and the words other masters move over the bus.
    const uint64_t word = sram_word_fj(c, c.tile.sram_size);
    add("instruction_fetch", "sram", "instruction words read", n.instret, word);
    add("data_read", "sram", "core loads and atomic reads", n.loads + n.atomics, word);
    add("data_write", "sram", "core stores and atomic writes", n.stores + n.atomics, word);
    add("bus_read", "sram", "words read by bus masters (adapter)", n.sram_bus_read_words, word);
    add("bus_write", "sram", "words written by bus masters", n.sram_bus_write_words, word);
    add("bus_word", "bus", "32-bit words over the tile bus", n.bus_words, fj(c, "bus_word_fj"));
    if (adapters) {
        const uint64_t flits = n.na_flits_sent + n.na_flits_received;
        add("na_buffer_write", "adapter", "flits into the NoC buffers", flits,
            fj(c, "na_buffer_fj"));
        add("na_buffer_read", "adapter", "flits out of the NoC buffers", flits,
            fj(c, "na_buffer_fj"));
        add("dma_word", "adapter", "words the data engines moved", (n.dma_bytes + 3) / 4,
            fj(c, "dma_word_fj"));
        add("namp_step", "adapter", "NAMP state-machine steps", n.namp_steps,
            fj(c, "namp_step_fj"));
        add("na_register", "adapter", "adapter and NAMP slot register accesses",
            n.na_register_accesses, fj(c, "na_register_fj"));
    }
    const uint64_t depth = c.noc.buffer_depth * fj(c, "router_buffer_depth_fj");
    add("router_buffer_write", "noc", "flits into router input buffers", n.noc.buffer_writes,
        fj(c, "router_buffer_write_fj") + depth);
    add("router_buffer_read", "noc", "flits out of router input buffers", n.noc.buffer_reads,
        fj(c, "router_buffer_read_fj") + depth);
    add("router_crossbar", "noc", "flits across a crossbar", n.noc.crossbar_traversals,
        fj(c, "router_crossbar_fj"));
    add("router_route", "noc", "route computations and allocations (per packet and router)",
        n.noc.route_computations, fj(c, "router_route_fj"));
    add("link", "noc", "flits over router-to-router links", n.noc.link_traversals,
        32 * fj(c, "link_bit_mm_fj") * fj(c, "link_length_um") / 1000);
    r.leakage = leakage_inventory(c, adapters);
    r.leakage_pw_per_gate = fj(c, "leakage_pw_per_gate");
    r.seconds = double(n.cycles) / double(c.clock_hz);
    return r;
}

double energy_report::group_pj(const std::string &group) const {
    double sum = 0;
    for (const energy_event &e : events)
        if (e.group == group) sum += e.pj();
    return sum;
}

double energy_report::dynamic_pj() const {
    double sum = 0;
    for (const energy_event &e : events) sum += e.pj();
    return sum;
}

double energy_report::leakage_pj(const leakage_part &part) const {
    return part.gates * double(leakage_pw_per_gate) * seconds;  // pW x s = pJ
}

double energy_report::leakage_pj() const {
    double sum = 0;
    for (const leakage_part &p : leakage) sum += leakage_pj(p);
    return sum;
}

ordered_json energy_json(const energy_report &r) {
    ordered_json j;
    j["unit"] = "pJ, per-event figures in fJ (an estimate from the run's counters, docs/energy.md)";
    ordered_json events = ordered_json::object();
    for (const energy_event &e : r.events)
        events[e.name] = {{"group", e.group},
                          {"count", e.count},
                          {"fj_each", e.fj_each},
                          {"pj", rounded(e.pj())}};
    j["events"] = events;
    ordered_json parts = ordered_json::object();
    for (const leakage_part &p : r.leakage)
        parts[p.name] = {
            {"group", p.group}, {"gates", rounded(p.gates)}, {"pj", rounded(r.leakage_pj(p))}};
    j["leakage"] = {
        {"pw_per_gate", r.leakage_pw_per_gate}, {"seconds", r.seconds}, {"components", parts}};
    for (const std::string &g : energy_groups()) j[g + "_pj"] = rounded(r.group_pj(g));
    j["dynamic_pj"] = rounded(r.dynamic_pj());
    j["leakage_pj"] = rounded(r.leakage_pj());
    j["total_pj"] = rounded(r.total_pj());
    j["average_mw"] = r.seconds > 0 ? r.total_pj() * 1e-9 / r.seconds : 0.0;
    const auto per = [](double pj, uint64_t n) {
        return n ? ordered_json(rounded(pj / double(n))) : ordered_json();
    };
    const energy_counts &n = r.counts;
    const double network = r.group_pj("adapter") + r.group_pj("noc");
    j["per_message"] = {{"noc_packets", n.noc_packets_delivered},
                        {"network_pj_per_noc_packet", per(network, n.noc_packets_delivered)},
                        {"namp_transfers", n.namp_transfers},
                        {"pj_per_namp_transfer", per(r.total_pj(), n.namp_transfers)},
                        {"data_bytes", n.data_bytes},
                        {"pj_per_data_byte", per(r.total_pj(), n.data_bytes)}};
    return j;
}

ordered_json noc_area_json(const platform_config &c) {
    const noc::router_resources res = noc::resources_of(c.noc);
    const double buffers = router_buffer_gates(c);
    const double logic = router_logic_gates(c);
    const unsigned w = c.noc.width, h = c.noc.height;
    const unsigned links = 2 * ((w - 1) * h + (h - 1) * w);  // one per direction
    const unsigned networks = c.noc.physical_channels ? noc::channel_count : 1;
    ordered_json j;
    j["router_buffer_flits"] = res.buffer_flits;
    j["router_buffer_kgates"] = rounded(buffers / 1000);
    j["router_logic_kgates"] = rounded(logic / 1000);
    j["router_kgates"] = rounded((buffers + logic) / 1000);
    j["routers"] = c.noc.tiles();
    j["routers_kgates"] = rounded((buffers + logic) * c.noc.tiles() / 1000);
    j["links"] = links * networks;
    j["link_wires"] = uint64_t(links) * networks * 32;
    j["link_mm"] = double(links) * networks * double(key_value(c, "energy.link_length_um")) / 1000;
    return j;
}

std::string energy_figures_table() {
    std::ostringstream o;
    o << "| key | value | unit | charged for, and its source |\n|---|---:|---|---|\n";
    const auto row = [&o](const config_key &k) {
        std::string what = k.description;
        const std::string prefix = "energy: ";
        if (what.compare(0, prefix.size(), prefix) == 0) what = what.substr(prefix.size());
        o << "| `" << k.path << "` | " << k.default_value.dump() << " | " << k.unit << " | " << what
          << " |\n";
    };
    for (const config_key &k : config_schema())
        if (k.path.compare(0, 7, "energy.") == 0 || k.path == "area.router_logic_gates") row(k);
    return o.str();
}

}  // namespace vp
