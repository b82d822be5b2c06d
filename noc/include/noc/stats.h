// Network statistics: packet counts and latency summaries. Link and router counters live in the
// routers; mesh::stats_json() puts everything together.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>

#include "noc/config.h"

namespace noc {

class latency_summary {
public:
    void add(uint64_t cycles);
    uint64_t count() const { return count_; }
    uint64_t min() const { return count_ ? min_ : 0; }
    uint64_t max() const { return max_; }
    double average() const { return count_ ? double(sum_) / double(count_) : 0.0; }
    nlohmann::json to_json() const;

private:
    uint64_t count_ = 0, sum_ = 0, min_ = UINT64_MAX, max_ = 0;
};

struct network_stats {
    int64_t since_cycle = 0;  // cycle of the last reset
    uint64_t injected_packets = 0, injected_flits = 0;
    uint64_t delivered_packets = 0, delivered_flits = 0;
    // Latency from injection (send) to delivery of the tail, in cycles, of packets delivered since
    // the reset.
    latency_summary latency;
    std::array<latency_summary, channel_count> latency_by_channel;
    std::map<unsigned, latency_summary> latency_by_hops;
    std::array<std::map<unsigned, latency_summary>, channel_count> latency_by_channel_and_hops;

    void record_delivery(channel ch, unsigned hops, unsigned flits, uint64_t latency_cycles);
    void reset(int64_t cycle) {
        *this = network_stats{};
        since_cycle = cycle;
    }
    nlohmann::json to_json() const;
};

// What the routers did since the last statistics reset, as events an energy model charges
// (docs/energy.md): every flit a router forwards is written into one of its input buffers, read
// out and crosses its crossbar once; every packet a router forwards has its route computed and an
// output VC allocated once there; a flit on a router-to-router link is one link traversal.
struct activity {
    uint64_t buffer_writes = 0, buffer_reads = 0, crossbar_traversals = 0;
    uint64_t route_computations = 0;
    uint64_t link_traversals = 0;        // router to router
    uint64_t local_link_traversals = 0;  // tile to router (injection) and router to tile (ejection)
};

// Storage and switches of one router, as an area model counts them: input buffers of every
// port (5) and channel (4 VCs or 4 physical networks) of buffer_depth flits each, and one 5x5
// crossbar with its allocators per physical network.
struct router_resources {
    unsigned buffer_flits = 0;
    unsigned crossbars = 0;
};
router_resources resources_of(const config &cfg);

}  // namespace noc
