#include "noc/mesh.h"

#include <algorithm>
#include <string>

#include "agenda.h"
#include "wormhole_engine.h"

namespace noc {

namespace {
const config &validated(const config &cfg) {
    cfg.validate();
    if (cfg.buffer_depth < cfg.full_rate_buffer_depth())
        SC_REPORT_WARNING("noc/config",
                          ("buffer_depth " + std::to_string(cfg.buffer_depth) +
                           " is below the credit round trip (router_latency + 2 * link_latency = " +
                           std::to_string(cfg.full_rate_buffer_depth()) +
                           "): links cannot carry one flit per cycle")
                              .c_str());
    return cfg;
}
}  // namespace

class mesh::clock_adapter : public detail::timebase {
public:
    explicit clock_adapter(mesh &m) : mesh_(m) {}
    int64_t current_cycle() const override { return mesh_.current_cycle(); }
    void wake_at(int64_t cycle) override { mesh_.wake_at(cycle); }

private:
    mesh &mesh_;
};

mesh::mesh(sc_core::sc_module_name name, const config &cfg, trace::tracer *tracer)
    : sc_module(name),
      cfg_(validated(cfg)),
      clock_(std::make_unique<clock_adapter>(*this)),
      engine_(std::make_unique<detail::wormhole_engine>(cfg_, *clock_, tracer)) {
    const unsigned planes = cfg_.physical_channels ? channel_count : 1;
    const unsigned vcs = cfg_.physical_channels ? 1 : channel_count;
    std::vector<router *> router_ptrs;
    std::vector<network_port *> port_ptrs;
    for (unsigned y = 0; y < cfg_.height; ++y)
        for (unsigned x = 0; x < cfg_.width; ++x) {
            const std::string rname = "router_" + std::to_string(x) + "_" + std::to_string(y);
            routers_.push_back(std::make_unique<router>(rname.c_str(), x, y, planes, vcs));
            ports_.push_back(std::make_unique<network_port>(*engine_, x, y));
            router_ptrs.push_back(routers_.back().get());
            port_ptrs.push_back(ports_.back().get());
        }
    engine_->attach(std::move(router_ptrs), std::move(port_ptrs));

    SC_METHOD(run_agenda);
    sensitive << wake_;
    dont_initialize();
}

// The routers in reverse order of creation: SystemC's module registry then removes each at once
// (vp/platform.h, registry_front; a std::vector destroys front to back).
mesh::~mesh() {
    while (!routers_.empty()) routers_.pop_back();
}

network_port &mesh::port(unsigned x, unsigned y) {
    if (x >= cfg_.width || y >= cfg_.height)
        SC_REPORT_ERROR(
            "noc/mesh",
            ("no tile (" + std::to_string(x) + "," + std::to_string(y) + ") in the mesh").c_str());
    return *ports_[y * cfg_.width + x];
}

network_port &mesh::port(unsigned tile_id) {
    if (tile_id >= ports_.size())
        SC_REPORT_ERROR("noc/mesh",
                        ("no tile " + std::to_string(tile_id) + " in the mesh").c_str());
    return *ports_[tile_id];
}

router &mesh::router_at(unsigned x, unsigned y) {
    if (x >= cfg_.width || y >= cfg_.height)
        SC_REPORT_ERROR("noc/mesh", "router_at: outside the mesh");
    return *routers_[y * cfg_.width + x];
}

int64_t mesh::current_cycle() const {
    const uint64_t now = sc_core::sc_time_stamp().value();
    const uint64_t period = cfg_.clock_period.value();
    return int64_t((now + period - 1) / period);
}

uint64_t mesh::packets_in_flight() const { return engine_->in_flight(); }

void mesh::run_agenda() {
    running_ = true;
    engine_->run_due(current_cycle());
    running_ = false;
    if (engine_->has_pending()) wake_at(engine_->next_due());
}

// Wake-ups requested while the agenda runs are covered by the single one set up at its end.
void mesh::wake_at(int64_t cycle) {
    if (running_) return;
    const sc_core::sc_time when =
        sc_core::sc_time::from_value(cfg_.clock_period.value() * uint64_t(cycle));
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    wake_.notify(when > now ? when - now : sc_core::SC_ZERO_TIME);
}

void mesh::reset_stats() {
    engine_->stats().reset(current_cycle());
    for (auto &r : routers_) r->reset_counters();
}

const network_stats &mesh::stats() const { return engine_->stats(); }

noc::activity mesh::activity() const {
    noc::activity a;
    for (const auto &r : routers_) {
        a.buffer_writes += r->flits_forwarded;
        a.route_computations += r->packets_forwarded;
        for (unsigned p = 0; p < r->plane_count(); ++p) {
            const router_plane &pl = r->plane(p);
            a.local_link_traversals +=
                pl.injection_link.flits + pl.output_links[index_of(direction::local)].flits;
            for (unsigned d = 1; d < direction_count; ++d)
                a.link_traversals += pl.output_links[d].flits;
        }
    }
    a.buffer_reads = a.crossbar_traversals = a.buffer_writes;
    return a;
}

router_resources resources_of(const config &cfg) {
    router_resources r;
    r.buffer_flits = direction_count * channel_count * cfg.buffer_depth;
    r.crossbars = cfg.physical_channels ? channel_count : 1;
    return r;
}

nlohmann::json mesh::stats_json(int64_t end_cycle) const {
    const network_stats &s = engine_->stats();
    const int64_t elapsed = std::max<int64_t>(0, end_cycle - s.since_cycle);
    nlohmann::json j = s.to_json();
    j["config"] = {{"width", cfg_.width},
                   {"height", cfg_.height},
                   {"buffer_depth", cfg_.buffer_depth},
                   {"router_latency", cfg_.router_latency},
                   {"link_latency", cfg_.link_latency},
                   {"max_packet_flits", cfg_.max_packet_flits},
                   {"clock_period_ns", cfg_.clock_period.to_seconds() * 1e9},
                   {"physical_channels", cfg_.physical_channels}};
    j["elapsed_cycles"] = elapsed;
    j["packets"]["in_flight"] = engine_->in_flight();
    auto utilization = [elapsed](uint64_t flits) {
        return elapsed > 0 ? double(flits) / double(elapsed) : 0.0;
    };
    nlohmann::json links = nlohmann::json::array();
    nlohmann::json routers = nlohmann::json::array();
    double max_util = 0.0;
    for (const auto &r : routers_) {
        for (unsigned p = 0; p < r->plane_count(); ++p) {
            const router_plane &pl = r->plane(p);
            auto add_link = [&](const char *dir, const link_state &l) {
                const double u = utilization(l.flits);
                max_util = std::max(max_util, u);
                links.push_back({{"tile", {r->x(), r->y()}},
                                 {"plane", p},
                                 {"port", dir},
                                 {"flits", l.flits},
                                 {"utilization", u}});
            };
            add_link("inject", pl.injection_link);
            for (unsigned d = 0; d < direction_count; ++d) {
                const direction dir = static_cast<direction>(d);
                const bool exists = dir == direction::local ||
                                    (dir == direction::north && r->y() > 0) ||
                                    (dir == direction::south && r->y() + 1 < cfg_.height) ||
                                    (dir == direction::west && r->x() > 0) ||
                                    (dir == direction::east && r->x() + 1 < cfg_.width);
                if (exists) add_link(d == 0 ? "eject" : direction_name(dir), pl.output_links[d]);
            }
        }
        routers.push_back({{"tile", {r->x(), r->y()}},
                           {"flits_forwarded", r->flits_forwarded},
                           {"packets_forwarded", r->packets_forwarded},
                           {"blocked_cycles", r->blocked_cycles}});
    }
    j["links"] = links;
    j["max_link_utilization"] = max_util;
    j["routers"] = routers;
    return j;
}

}  // namespace noc
