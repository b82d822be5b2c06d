#include "vp/config.h"
#include "vp/suggest.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "vp/config_limits.h"

namespace vp {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

const config_key *find_key(const std::string &path) {
    for (const config_key &k : config_schema())
        if (k.path == path) return &k;
    return nullptr;
}

// True if some key lies under the object at path: only such objects are worth walking into.
bool is_group(const std::string &path) {
    for (const config_key &k : config_schema())
        if (k.path.size() > path.size() && k.path.compare(0, path.size(), path) == 0 &&
            k.path[path.size()] == '.')
            return true;
    return false;
}

// "a.b.c" -> json pointer "/a/b/c"
json::json_pointer pointer_of(const std::string &path) {
    std::string p = "/" + path;
    for (char &c : p)
        if (c == '.') c = '/';
    return json::json_pointer(p);
}

std::string describe(const config_key &k) {
    switch (k.kind) {
    case value_kind::integer:
        return "an integer in [" + std::to_string(k.min) + ", " + std::to_string(k.max) + "]";
    case value_kind::boolean: return "true or false";
    case value_kind::number:
        return "a number in [" + std::to_string(k.min) + ", " + std::to_string(k.max) + "]";
    case value_kind::string:
        return "a UTF-8 string of at most " + std::to_string(config_limits::max_string_bytes) +
               " bytes";
    }
    return "";
}

bool value_fits(const config_key &k, const json &v) {
    switch (k.kind) {
    case value_kind::integer:
        if (!v.is_number_integer()) return false;
        if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)) return false;
        return v.get<int64_t>() >= k.min && v.get<int64_t>() <= k.max;
    case value_kind::boolean: return v.is_boolean();
    case value_kind::number: {
        if (!v.is_number()) return false;
        const double d = v.get<double>();
        return std::isfinite(d) && d >= double(k.min) && d <= double(k.max);
    }
    case value_kind::string:
        if (!v.is_string()) return false;
        if (v.get_ref<const std::string &>().size() > config_limits::max_string_bytes) return false;
        try {
            (void)v.dump();  // the statistics echo the value: it must be valid UTF-8
        } catch (const nlohmann::json::type_error &) {
            return false;
        }
        return true;
    }
    return false;
}

// The node of a dotted path in the document, created if missing.
ordered_json &node_at(ordered_json &doc, const std::string &path) {
    ordered_json *node = &doc;
    std::istringstream parts(path);
    std::string part;
    while (std::getline(parts, part, '.')) node = &(*node)[part];
    return *node;
}

// The keys and groups of the schema, as a mistyped path might have meant them.
std::string suggest_key(const std::string &path) {
    std::vector<std::string> names;
    for (const config_key &k : config_schema()) {
        names.push_back(k.path);
        for (size_t dot = k.path.find('.'); dot != std::string::npos;
             dot = k.path.find('.', dot + 1))
            names.push_back(k.path.substr(0, dot));
    }
    return did_you_mean(path, names);
}

}  // namespace

config_builder::config_builder() {
    for (const config_key &k : config_schema()) node_at(doc_, k.path) = k.default_value;
}

void config_builder::set_value(const std::string &path, const json &value,
                               const std::string &origin) {
    const config_key *key = find_key(path);
    if (!key)
        throw config_error(origin + ": unknown configuration key '" + path + "'" +
                           suggest_key(path));
    if (!value_fits(*key, value))
        throw config_error(origin + ": '" + path + "' must be " + describe(*key) + ", got " +
                           describe_value(value));
    node_at(doc_, path) = value;
}

void config_builder::apply_json(const json &doc, const std::string &origin) {
    if (!doc.is_object()) throw config_error(origin + ": the configuration must be a JSON object");
    // Walk the nested objects; every leaf must be a known key.
    std::vector<std::pair<std::string, const json *>> todo{{"", &doc}};
    while (!todo.empty()) {
        auto [prefix, node] = todo.back();
        todo.pop_back();
        for (auto it = node->begin(); it != node->end(); ++it) {
            const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
            if (it->is_object()) {
                if (find_key(path))
                    throw config_error(origin + ": '" + path + "' must be " +
                                       describe(*find_key(path)) + ", got an object");
                if (!is_group(path))
                    throw config_error(origin + ": unknown configuration key '" + path + "'" +
                                       suggest_key(path));
                todo.push_back({path, &*it});
            } else {
                set_value(path, *it, origin);
            }
        }
    }
}

void config_builder::apply_preset(const std::string &name) {
    for (const preset &p : config_presets()) {
        if (p.name == name) {
            apply_json(p.settings, "preset '" + name + "'");
            return;
        }
    }
    std::string known;
    std::vector<std::string> names;
    for (const preset &p : config_presets()) {
        known += (known.empty() ? "" : ", ") + p.name;
        names.push_back(p.name);
    }
    throw config_error("unknown preset '" + name + "'" + did_you_mean(name, names) +
                       " (known presets: " + known + ")");
}

void config_builder::apply_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw config_error(path + ": cannot open the configuration file");
    std::string text;
    char chunk[4096];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, size_t(in.gcount()));
        if (text.size() > config_limits::max_file_bytes)
            throw config_error(path + ": the configuration file has more than " +
                               std::to_string(config_limits::max_file_bytes) + " bytes");
    }
    apply_text(text, path);
}

void config_builder::apply_text(const std::string &text, const std::string &origin) {
    if (text.size() > config_limits::max_file_bytes)
        throw config_error(origin + ": the configuration has " + std::to_string(text.size()) +
                           " bytes (at most " + std::to_string(config_limits::max_file_bytes) +
                           ")");
    apply_json(parse_config_text(text, origin), origin);
}

void config_builder::apply_override(const std::string &assignment) {
    const auto eq = assignment.find('=');
    if (assignment.size() > config_limits::max_set_bytes)
        throw config_error("--set: the argument has " + std::to_string(assignment.size()) +
                           " bytes (at most " + std::to_string(config_limits::max_set_bytes) + ")");
    if (eq == std::string::npos || eq == 0)
        throw config_error("--set '" + assignment + "': expected KEY=VALUE");
    const std::string path = assignment.substr(0, eq);
    const std::string text = assignment.substr(eq + 1);
    const config_key *key = find_key(path);
    if (!key)
        throw config_error("--set: unknown configuration key '" + path + "'" + suggest_key(path));
    json value;
    if (key->kind == value_kind::string) {
        value = text;  // strings need no JSON quotes on the command line
    } else {
        try {
            value = parse_config_text(text, "--set " + path);
        } catch (const config_error &) {
            value = text;  // not JSON: reported as a type error below
        }
    }
    set_value(path, value, "--set");
}

platform_config config_builder::build() const {
    const auto get = [this](const std::string &path) { return doc_.at(pointer_of(path)); };
    const auto u = [&](const std::string &path) { return unsigned(get(path).get<int64_t>()); };
    platform_config c;
    c.mesh_width = u("mesh.width");
    c.mesh_height = u("mesh.height");
    c.clock_hz = get("clock_hz").get<uint64_t>();
    c.quantum_cycles = get("quantum_cycles").get<uint64_t>();
    c.stop_on_failure = get("stop_on_failure").get<bool>();
    tiles::tile_config &t = c.tile;
    t.cores = u("tile.cores");
    const uint64_t sram = get("tile.sram_size").get<uint64_t>();
    if (sram % 4096 != 0)
        throw config_error("'tile.sram_size' must be a multiple of 4096, got " +
                           std::to_string(sram));
    t.sram_size = uint32_t(sram);
    const uint64_t tiles = uint64_t(c.mesh_width) * c.mesh_height;
    if (sram * tiles > config_limits::max_total_sram)
        throw config_error("'tile.sram_size' (" + std::to_string(sram) + ") times " +
                           std::to_string(tiles) + " tiles (mesh.width x mesh.height) is " +
                           std::to_string(sram * tiles) + " bytes of SRAM, more than " +
                           std::to_string(config_limits::max_total_sram));
    t.sram_read_latency = u("tile.sram_read_latency");
    t.sram_write_latency = u("tile.sram_write_latency");
    t.device_latency = u("tile.device_latency");
    t.bus_word_cycles = u("tile.bus_word_cycles");
    t.timer_divider = u("tile.timer_divider");
    t.arg = uint32_t(u("tile.arg"));
    static const std::pair<const char *, uint32_t rv_timing::*> timing_keys[] = {
        {"alu", &rv_timing::alu},
        {"mul", &rv_timing::mul},
        {"div", &rv_timing::div},
        {"load", &rv_timing::load},
        {"store", &rv_timing::store},
        {"branch_taken", &rv_timing::branch_taken},
        {"branch_not_taken", &rv_timing::branch_not_taken},
        {"jump", &rv_timing::jump},
        {"csr", &rv_timing::csr},
        {"atomic", &rv_timing::atomic},
        {"system", &rv_timing::system},
        {"trap", &rv_timing::trap}};
    // Copies each "<prefix><name>" key of a table {name, member} into that member of obj.
    const auto read_keys = [&u](const std::string &prefix, const auto &table, auto &obj) {
        for (const auto &[name, field] : table) obj.*field = u(prefix + name);
    };
    read_keys("core.timing.", timing_keys, t.timing);
    const std::string engine = get("core.engine").get<std::string>();
    if (engine == "interpreter")
        t.engine = RV_ENGINE_INTERPRETER;
    else if (engine == "block")
        t.engine = RV_ENGINE_BLOCK;
    else if (engine == "jit")
        t.engine = RV_ENGINE_JIT;
    else
        throw config_error("'core.engine' must be interpreter, block or jit, not '" + engine + "'");
    t.access_lookahead = u("core.access_lookahead");
    t.trace_traps = get("trace.traps").get<bool>();
    noc::config &n = c.noc;
    n.width = c.mesh_width;
    n.height = c.mesh_height;
    n.buffer_depth = u("noc.buffer_depth");
    n.router_latency = u("noc.router_latency");
    n.link_latency = u("noc.link_latency");
    n.max_packet_flits = u("noc.max_packet_flits");
    n.physical_channels = get("noc.physical_channels").get<bool>();
    c.na_enabled = get("na.enabled").get<bool>();
    namp::na_config &a = c.na;
    using na = namp::na_config;
    static const std::pair<const char *, unsigned na::*> na_keys[] = {
        {"rx_buffer_flits", &na::rx_buffer_flits},
        {"dma_slots", &na::dma_slots},
        {"irq_core", &na::irq_core},
        {"register_latency", &na::register_latency},
        {"packet_cycles", &na::packet_cycles},
        {"dma_setup_cycles", &na::dma_setup_cycles},
        {"dma_packet_cycles", &na::dma_packet_cycles},
        {"rma_issue_cycles", &na::rma_issue_cycles},
        {"dma_contexts", &na::dma_contexts},
        {"dma_fifo_packets", &na::dma_fifo_packets},
        {"target_queue_flits", &na::target_queue_flits},
        {"fault_dma_every", &na::fault_dma_every}};
    read_keys("na.", na_keys, a);
    if (a.rx_buffer_flits < n.max_packet_flits)
        throw config_error("'na.rx_buffer_flits' (" + std::to_string(a.rx_buffer_flits) +
                           ") must hold the longest packet, noc.max_packet_flits = " +
                           std::to_string(n.max_packet_flits));
    if (a.target_queue_flits != 0 && a.target_queue_flits < n.max_packet_flits)
        throw config_error("'na.target_queue_flits' must be 0 or at least noc.max_packet_flits");
    if (a.irq_core >= t.cores)
        throw config_error(
            "'na.irq_core' (" + std::to_string(a.irq_core) +
            ") must name a core of the tile (tile.cores = " + std::to_string(t.cores) + ")");
    namp::na_config::namp_config &m = a.namp;
    m.enabled = get("namp.enabled").get<bool>();
    m.slots = u("namp.slots");
    m.messages = get("namp.enable_messages").get<bool>();
    m.channels = get("namp.enable_channels").get<bool>();
    m.buffered = get("namp.enable_buffered").get<bool>();
    m.ccm = get("namp.enable_ccm").get<bool>();
    m.cc_multicast = get("namp.enable_cc_multicast").get<bool>();
    m.cc_scattergather = get("namp.enable_cc_scattergather").get<bool>();
    m.cc_reduction = get("namp.enable_cc_reduction").get<bool>();
    m.cc_reduce_word_cycles = u("namp.cc_reduce_word_cycles");
    m.cc_gather_packing = get("namp.cc_gather_packing").get<bool>();
    m.atomics = get("namp.atomics").get<bool>();
    const std::string arb = get("namp.arbitration").get<std::string>();
    if (arb == "lrs")
        m.arbitration = 0;
    else if (arb == "qos")
        m.arbitration = 1;
    else if (arb == "map")
        m.arbitration = 2;
    else
        throw config_error("'namp.arbitration' must be lrs, qos or map, not '" + arb + "'");
    m.retry_cycles = u("namp.retry_cycles");
    m.retry_max_cycles = u("namp.retry_max_cycles");
    if (m.retry_max_cycles < m.retry_cycles)
        throw config_error("'namp.retry_max_cycles' (" + std::to_string(m.retry_max_cycles) +
                           ") must be at least namp.retry_cycles (" +
                           std::to_string(m.retry_cycles) + ")");
    m.rx_count_gating = get("namp.rx_count_gating").get<bool>();
    m.slots_virt = u("namp.slots_virt");
    m.vif_cycles = u("namp.vif_cycles");
    m.window_cycles = u("namp.window_cycles");
    m.osqm = get("namp.osqm").get<bool>();
    m.ps = get("namp.ps").get<bool>();
    m.identity = get("namp.identity").get<bool>();
    m.identity_cycles = u("namp.identity_cycles");
    m.osqm_cycles = u("namp.osqm_cycles");
    m.osqm_retry_cycles = u("namp.osqm_retry_cycles");
    // HW-OSQM design-time parameters (docs/configuration.md, docs/namp.md "HW-OSQM")
    const std::string otype = get("namp.osqm_type").get<std::string>();
    if (otype == "single")
        m.osqm_type = 0;
    else if (otype == "double")
        m.osqm_type = 1;
    else
        throw config_error("'namp.osqm_type' must be single or double, not '" + otype + "'");
    const std::string odir = get("namp.osqm_dir").get<std::string>();
    if (odir == "back")
        m.osqm_dir = 0;
    else if (odir == "front")
        m.osqm_dir = 1;
    else
        throw config_error("'namp.osqm_dir' must be back or front, not '" + odir + "'");
    static const std::pair<const char *, unsigned na::namp_config::*> osqm_offsets[] = {
        {"namp.osqm_q_head", &na::namp_config::osqm_q_head},
        {"namp.osqm_q_tail", &na::namp_config::osqm_q_tail},
        {"namp.osqm_e_next", &na::namp_config::osqm_e_next},
        {"namp.osqm_e_prev", &na::namp_config::osqm_e_prev}};
    for (const auto &k : osqm_offsets) {
        m.*k.second = u(k.first);
        if (m.*k.second % 4)
            throw config_error(std::string("'") + k.first + "' must be a multiple of 4, got " +
                               std::to_string(m.*k.second));
    }
    m.osqm_bitmap = get("namp.osqm_bitmap").get<bool>();
    m.osqm_wakeup = get("namp.osqm_wakeup").get<bool>();
    m.osqm_ready_flag = get("namp.osqm_ready_flag").get<bool>();
    m.osqm_static = get("namp.osqm_static").get<bool>();
    if (m.osqm_static && !m.osqm) throw config_error("'namp.osqm_static' needs namp.osqm = true");
    if (m.slots_virt > m.slots)
        throw config_error("'namp.slots_virt' (" + std::to_string(m.slots_virt) +
                           ") must be at most namp.slots (" + std::to_string(m.slots) + ")");
    using nc = na::namp_config;
    static const std::pair<const char *, unsigned nc::*> namp_cycle_keys[] = {
        {"start_cycles", &nc::start_cycles},       {"setup_cycles", &nc::setup_cycles},
        {"message_cycles", &nc::message_cycles},   {"data_setup_cycles", &nc::data_setup_cycles},
        {"finalize_cycles", &nc::finalize_cycles}, {"ingress_cycles", &nc::ingress_cycles},
        {"target_cycles", &nc::target_cycles}};
    read_keys("namp.", namp_cycle_keys, m);
    if (m.enabled && !c.na_enabled) throw config_error("'namp.enabled' needs na.enabled = true");
    if (m.enabled && n.max_packet_flits < config_limits::namp_min_packet_flits)
        throw config_error("'noc.max_packet_flits' (" + std::to_string(n.max_packet_flits) +
                           ") must be at least " +
                           std::to_string(config_limits::namp_min_packet_flits) +
                           " with namp.enabled: the NAMP's FINAL message is that long");
    // A reduction or scatter/gather member's ALLOC_REQ carries the collective id and operation.
    if (m.enabled && (m.cc_reduction || m.cc_scattergather) &&
        n.max_packet_flits < config_limits::namp_cc_min_packet_flits)
        throw config_error("'noc.max_packet_flits' (" + std::to_string(n.max_packet_flits) +
                           ") must be at least " +
                           std::to_string(config_limits::namp_cc_min_packet_flits) +
                           " with namp.enable_cc_reduction or namp.enable_cc_scattergather: their "
                           "ALLOC_REQ message is that long");
    c.console_file = get("console.file").get<std::string>();
    c.semihosting = get("semihosting.enabled").get<bool>();
    c.semihosting_root = get("semihosting.root").get<std::string>();
    c.semihosting_epoch = get("semihosting.epoch").get<uint64_t>();
    if (c.semihosting_root.empty()) throw config_error("'semihosting.root' must name a directory");
    const std::string guards = get("host.stack_guards").get<std::string>();
    if (guards == "auto")
        c.stack_guards = stack_guard_mode::automatic;
    else if (guards == "on")
        c.stack_guards = stack_guard_mode::on;
    else if (guards == "off")
        c.stack_guards = stack_guard_mode::off;
    else
        throw config_error("'host.stack_guards' must be auto, on or off, not '" + guards + "'");
    c.checkpoints = unsigned(get("host.checkpoints").get<uint64_t>());
    c.checkpoint_interval = get("host.checkpoint_interval").get<uint64_t>();
    c.event_noise = uint32_t(get("host.event_noise").get<uint64_t>());
    c.skip_idle_sync = get("host.skip_idle_sync").get<bool>();
    c.effective = doc_;
    c.effective.erase("host");
    return c;
}

}  // namespace vp
