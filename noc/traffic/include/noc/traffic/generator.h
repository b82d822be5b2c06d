// Open-loop synthetic traffic for a whole mesh: every tile generates packets by a Bernoulli process
// (one trial per cycle), queues them per channel at the source and injects them through its
// network_port; every tile's sink checks what arrives (no loss, no duplicates, order per
// (source, destination, channel), payload intact) and measures latency.
//
// Offered load `injection_rate` is in flits per cycle per tile: each cycle a tile generates a packet
// with probability injection_rate / packet_flits. Generation is event-driven (the gap to the next
// packet is drawn at once), so low loads cost little host time.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>
#include <nlohmann/json.hpp>
#include <systemc>

#include "noc/mesh.h"
#include "noc/stats.h"
#include "noc/traffic/pattern.h"

namespace noc::traffic {

struct traffic_config {
    pattern kind = pattern::uniform;
    double injection_rate = 0.1;  // offered flits / cycle / tile
    unsigned packet_flits = 8;    // header included
    int fixed_channel = -1;       // -1: channels in turn (round robin per tile), else 0..3
    uint32_t seed = 1;
    double hotspot_fraction = 0.2;
    int hotspot_tile = -1;             // -1: the centre tile
    unsigned source_queue_limit = 64;  // packets per tile; a full queue skips generation (counted)
};

struct traffic_results {
    uint64_t generated = 0, delivered = 0, throttled = 0;
    uint64_t measured_generated = 0, measured_delivered = 0;
    uint64_t measured_flits_generated = 0;
    uint64_t measured_flits_throttled = 0;  // offered in the window but skipped (queue full)
    uint64_t window_flits_delivered = 0;    // any packet, delivered inside the measurement window
    uint64_t order_errors = 0, corrupt = 0, misrouted = 0;
    latency_summary latency;          // generation -> delivery, measured packets
    latency_summary network_latency;  // injection -> delivery, measured packets
};

class traffic_generator : public sc_core::sc_module {
public:
    traffic_generator(sc_core::sc_module_name name, mesh &net, const traffic_config &cfg);
    ~traffic_generator() override;

    // Window control, called between sc_start() slices. Packets generated while measuring are
    // "measured": their latency is recorded.
    void start_measurement();
    void stop_measurement();
    void stop_generation();

    // Every generated packet delivered and no source queue holds anything.
    bool drained() const;
    const traffic_results &results() const { return results_; }
    nlohmann::json results_json() const;

private:
    struct node;
    void start_of_simulation() override;
    void pump(unsigned tile);
    void generate(node &n, int64_t cycle);
    void on_delivery(node &n, packet pkt);
    int64_t next_generation(node &n, int64_t after);

    mesh &net_;
    const traffic_config cfg_;
    pattern_params params_;
    uint64_t trial_threshold_;
    std::vector<std::unique_ptr<node>> nodes_;
    traffic_results results_;
    bool generating_ = true;
    bool measuring_ = false;
    int64_t window_start_ = 0, window_end_ = -1;
};

}  // namespace noc::traffic
