// noc-traffic: runs one synthetic traffic experiment on the mesh and prints JSON results.
//   noc-traffic --width 8 --height 8 --pattern uniform --rate 0.2 [options]
// Phases: warm-up (no measurement), measurement window, drain (no new packets until all delivered).
// Exit status: 0 ok, 1 the network did not drain or a delivery check failed, 2 bad arguments.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <systemc>

#include "noc/mesh.h"
#include "noc/traffic/generator.h"

namespace {

struct options {
    noc::config net;
    noc::traffic::traffic_config traffic;
    uint64_t warmup = 2000, measure = 10000, drain_limit = 200000;
    bool host = true;     // include host timing (not deterministic)
    bool network = true;  // include the mesh statistics
};

const char *usage =
    "usage: noc-traffic [options]\n"
    "  --width N --height N        mesh size (default 4x4)\n"
    "  --pattern NAME              uniform|transpose|bit_complement|bit_reverse|shuffle|\n"
    "                              butterfly|hotspot|nearest_neighbour\n"
    "  --rate R                    offered load, flits/cycle/tile (default 0.1)\n"
    "  --packet-flits N            packet length incl. header (default 8)\n"
    "  --channel C                 -1 = all four in turn (default), 0..3 = one channel\n"
    "  --physical                  one physical network per channel (default: virtual channels)\n"
    "  --buffer-depth N --router-latency N --link-latency N --max-packet-flits N\n"
    "  --hotspot-fraction F        share of packets to the hotspot (default 0.2)\n"
    "  --seed N                    RNG seed (default 1)\n"
    "  --warmup N --measure N --drain-limit N   phase lengths in cycles\n"
    "  --no-host                   omit host timing (output becomes bit-reproducible)\n"
    "  --no-network-stats          omit per-link/per-router statistics\n";

[[noreturn]] void bad(const std::string &msg) {
    std::cerr << "noc-traffic: " << msg << "\n" << usage;
    std::exit(2);
}

options parse(int argc, char **argv) {
    options o;
    std::map<std::string, std::string> values;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::cout << usage;
            std::exit(0);
        }
        if (a == "--physical") {
            o.net.physical_channels = true;
            continue;
        }
        if (a == "--no-host") {
            o.host = false;
            continue;
        }
        if (a == "--no-network-stats") {
            o.network = false;
            continue;
        }
        if (a.rfind("--", 0) != 0) bad("unexpected argument '" + a + "'");
        std::string key = a.substr(2), value;
        if (auto eq = key.find('='); eq != std::string::npos) {
            value = key.substr(eq + 1);
            key = key.substr(0, eq);
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            bad("missing value for --" + key);
        }
        values[key] = value;
    }
    auto number = [&](const std::string &key, auto &field) {
        auto it = values.find(key);
        if (it == values.end()) return;
        try {
            size_t used = 0;
            const double v = std::stod(it->second, &used);
            if (used != it->second.size()) throw std::invalid_argument(key);
            field = static_cast<std::remove_reference_t<decltype(field)>>(v);
        } catch (const std::exception &) {
            bad("--" + key + " needs a number, got '" + it->second + "'");
        }
        values.erase(it);
    };
    number("width", o.net.width);
    number("height", o.net.height);
    number("buffer-depth", o.net.buffer_depth);
    number("router-latency", o.net.router_latency);
    number("link-latency", o.net.link_latency);
    number("max-packet-flits", o.net.max_packet_flits);
    number("rate", o.traffic.injection_rate);
    number("packet-flits", o.traffic.packet_flits);
    number("channel", o.traffic.fixed_channel);
    number("seed", o.traffic.seed);
    number("hotspot-fraction", o.traffic.hotspot_fraction);
    number("warmup", o.warmup);
    number("measure", o.measure);
    number("drain-limit", o.drain_limit);
    if (auto it = values.find("pattern"); it != values.end()) {
        o.traffic.kind = noc::traffic::parse_pattern(it->second);
        values.erase(it);
    }
    if (!values.empty()) bad("unknown option --" + values.begin()->first);
    return o;
}

}  // namespace

int sc_main(int argc, char **argv) {
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    try {
        const options o = parse(argc, argv);
        noc::mesh net("noc", o.net);
        noc::traffic::traffic_generator gen("traffic", net, o.traffic);
        const sc_core::sc_time period = o.net.clock_period;

        const auto host_start = std::chrono::steady_clock::now();
        sc_core::sc_start(period * double(o.warmup));
        net.reset_stats();
        gen.start_measurement();
        sc_core::sc_start(period * double(o.measure));
        gen.stop_measurement();
        const nlohmann::json window_stats = net.stats_json();
        gen.stop_generation();
        uint64_t drained_cycles = 0;
        while (!gen.drained() && drained_cycles < o.drain_limit) {
            sc_core::sc_start(period * 1000.0);
            drained_cycles += 1000;
        }
        const double host_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();

        nlohmann::json out;
        out["traffic"] = gen.results_json();
        out["traffic"]["drain_cycles"] = drained_cycles;
        if (o.network) out["network"] = window_stats;
        if (o.host) {
            const double delivered = double(gen.results().delivered);
            out["host"] = {
                {"seconds", host_seconds},
                {"simulated_cycles", net.current_cycle()},
                {"delivered_packets", gen.results().delivered},
                {"packets_per_host_second", host_seconds > 0 ? delivered / host_seconds : 0.0}};
        }
        std::cout << out.dump(1) << "\n";
        const auto &r = gen.results();
        const bool ok = gen.drained() && r.order_errors == 0 && r.corrupt == 0 && r.misrouted == 0;
        return ok ? 0 : 1;
    } catch (const sc_core::sc_report &e) {
        std::cerr << "noc-traffic: " << e.what() << "\n";
        return 2;
    }
}
