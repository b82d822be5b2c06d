#include "vp/traffic_run.h"

#include <fstream>
#include <iomanip>
#include <iostream>

#include "vp/energy.h"
#include "vp/output_files.h"
#include "vp/suggest.h"

namespace vp {

using nlohmann::ordered_json;

namespace {

const ordered_json &value_of(const platform_config &c, const std::string &path) {
    std::string p = "/" + path;
    for (char &ch : p)
        if (ch == '.') ch = '/';
    return c.effective.at(ordered_json::json_pointer(p));
}
uint64_t integer(const platform_config &c, const std::string &path) {
    return value_of(c, path).get<uint64_t>();
}

noc::config mesh_config(const platform_config &c) {
    noc::config nc = c.noc;
    nc.clock_period =
        sc_core::sc_time(double(1000000000000ull / c.clock_hz), sc_core::SC_PS);  // as platform
    return nc;
}

ordered_json statistics(const platform_config &c, const noc::mesh &net,
                        const noc::traffic::traffic_generator &gen, const nlohmann::json &window,
                        const energy_counts &counts, const std::string &reason, int code,
                        uint64_t drained) {
    const noc::traffic::traffic_results &r = gen.results();
    ordered_json doc;
    doc["simulation"] = {{"end_reason", reason},
                         {"message", reason + " (" + std::to_string(r.delivered) + " of " +
                                         std::to_string(r.generated) + " packets delivered)"},
                         {"exit_code", code},
                         {"simulated_cycles", uint64_t(net.current_cycle())}};
    doc["totals"] = {{"instret", 0}, {"core_cycles", 0}};
    doc["marks"] = ordered_json::array();
    doc["tiles"] = ordered_json::array();
    ordered_json traffic = ordered_json::parse(gen.results_json().dump());
    traffic["drain_cycles"] = drained;
    doc["traffic"] = traffic;
    doc["noc"] = ordered_json::parse(window.dump());
    doc["area"] = {{"noc", noc_area_json(c)}};
    doc["energy"] = energy_json(estimate_energy(c, counts, false));
    doc["config"] = c.effective;
    return doc;
}

}  // namespace

ordered_json traffic_statistics_skeleton(const platform_config &c) {
    noc::mesh net("noc", mesh_config(c));
    noc::traffic::traffic_generator gen("traffic", net, traffic_config_of(c));
    return statistics(c, net, gen, net.stats_json(), energy_counts{}, "not run", 0, 0);
}

noc::traffic::traffic_config traffic_config_of(const platform_config &c) {
    noc::traffic::traffic_config t;
    const std::string name = value_of(c, "traffic.pattern").get<std::string>();
    bool known = false;
    std::vector<std::string> names;
    for (noc::traffic::pattern p : noc::traffic::all_patterns) {
        names.push_back(noc::traffic::pattern_name(p));
        if (name == names.back()) {
            t.kind = p;
            known = true;
        }
    }
    if (!known) {
        std::string list;
        for (const std::string &n : names) list += (list.empty() ? "" : ", ") + n;
        throw config_error("'traffic.pattern' must be one of " + list + ", not '" + name + "'" +
                           did_you_mean(name, names));
    }
    t.injection_rate = value_of(c, "traffic.rate").get<double>();
    t.packet_flits = unsigned(integer(c, "traffic.packet_flits"));
    if (t.packet_flits > c.noc.max_packet_flits)
        throw config_error("'traffic.packet_flits' (" + std::to_string(t.packet_flits) +
                           ") must be at most noc.max_packet_flits (" +
                           std::to_string(c.noc.max_packet_flits) + ")");
    t.hotspot_fraction = double(integer(c, "traffic.hotspot_permille")) / 1000.0;
    t.seed = uint32_t(integer(c, "traffic.seed"));
    return t;
}

int run_traffic(const platform_config &c, const std::string &stats_file, bool quiet) {
    const noc::traffic::traffic_config tc = traffic_config_of(c);
    const noc::config nc = mesh_config(c);
    noc::mesh net("noc", nc);
    noc::traffic::traffic_generator gen("traffic", net, tc);
    const sc_core::sc_time period = nc.clock_period;
    const uint64_t warmup = integer(c, "traffic.warmup_cycles");
    const uint64_t measure = integer(c, "traffic.measure_cycles");
    const uint64_t drain_limit = integer(c, "traffic.drain_limit_cycles");

    sc_core::sc_start(period * double(warmup));
    net.reset_stats();
    gen.start_measurement();
    sc_core::sc_start(period * double(measure));
    gen.stop_measurement();
    // the window: what the statistics, the area's energy and the load-latency curve describe
    const nlohmann::json window = net.stats_json();
    energy_counts counts;
    counts.noc = net.activity();
    counts.noc_packets_delivered = net.stats().delivered_packets;
    counts.cycles = measure;
    gen.stop_generation();
    uint64_t drained = 0;
    while (!gen.drained() && drained < drain_limit) {
        sc_core::sc_start(period * 1000.0);
        drained += 1000;
    }

    const noc::traffic::traffic_results &r = gen.results();
    const bool intact = r.order_errors == 0 && r.corrupt == 0 && r.misrouted == 0;
    const int code = gen.drained() && intact ? 0 : 1;
    const std::string reason = !intact         ? "traffic delivery errors"
                               : gen.drained() ? "traffic drained"
                                               : "traffic did not drain";
    ordered_json doc = statistics(c, net, gen, window, counts, reason, code, drained);
    int exit_code = code;
    if (!stats_file.empty()) {
        std::ofstream out(stats_file);
        out << doc.dump(2) << "\n";
        const std::string err = stream_error(out, "statistics to '" + stats_file + "'");
        if (!err.empty()) {
            std::cerr << "namp-vp: error: " << err << "\n";
            if (exit_code == 0) exit_code = 2;
        }
    }
    if (!quiet)
        std::cerr << "namp-vp: traffic " << noc::traffic::pattern_name(tc.kind) << " at "
                  << tc.injection_rate << " flits/cycle/tile on " << nc.width << "x" << nc.height
                  << ": accepted " << std::setprecision(4)
                  << doc["traffic"]["accepted_flits_per_cycle_per_node"].get<double>()
                  << ", latency " << doc["traffic"]["latency_cycles"]["avg"].get<double>()
                  << " cycles; " << reason << "\n";
    else if (code != 0)
        std::cerr << "namp-vp: " << doc["simulation"]["message"].get<std::string>() << "\n";
    return exit_code;
}

}  // namespace vp
