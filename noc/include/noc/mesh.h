// The mesh network-on-chip: W x H routers (one per tile) joined by links, one network_port per
// tile for the network adapter, and the event agenda that drives the wormhole timing model.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>
#include <nlohmann/json.hpp>
#include <systemc>

#include "noc/config.h"
#include "noc/network_port.h"
#include "noc/router.h"
#include "noc/stats.h"
#include "trace/tracer.h"

namespace noc {

namespace detail {
class wormhole_engine;
class timebase;
}

class mesh : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(mesh);
    // Validates `cfg` (SC_REPORT_ERROR on bad values). tracer: records every delivered packet
    // (category noc, docs/tracing.md); may be null.
    mesh(sc_core::sc_module_name name, const config &cfg, trace::tracer *tracer = nullptr);
    ~mesh() override;

    const config &cfg() const { return cfg_; }
    network_port &port(unsigned x, unsigned y);
    network_port &port(unsigned tile_id);
    router &router_at(unsigned x, unsigned y);

    // Cycle of the current simulation time (rounded up to the next clock edge).
    int64_t current_cycle() const;
    uint64_t packets_in_flight() const;

    // Statistics since construction or the last reset_stats().
    void reset_stats();
    const network_stats &stats() const;
    // Deterministic JSON: configuration, counts, latency, per-link and per-router counters, over
    // the cycles from the last reset to end_cycle (utilizations are per cycle of that window). A
    // platform with cores passes the cycle its run ended at: SystemC time then depends on how far
    // the last core ran ahead, hence on the quantum. Without it: the current SystemC cycle.
    nlohmann::json stats_json() const { return stats_json(current_cycle()); }
    nlohmann::json stats_json(int64_t end_cycle) const;
    // The routers' activity since the last reset (noc/stats.h), for an energy model.
    noc::activity activity() const;

private:
    class clock_adapter;
    void run_agenda();
    void wake_at(int64_t cycle);

    const config cfg_;
    std::unique_ptr<clock_adapter> clock_;
    std::unique_ptr<detail::wormhole_engine> engine_;
    std::vector<std::unique_ptr<router>> routers_;
    std::vector<std::unique_ptr<network_port>> ports_;
    sc_core::sc_event wake_;
    bool running_ = false;
};

}  // namespace noc
