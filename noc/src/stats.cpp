#include "noc/stats.h"

#include <string>

namespace noc {

void latency_summary::add(uint64_t cycles) {
    ++count_;
    sum_ += cycles;
    if (cycles < min_) min_ = cycles;
    if (cycles > max_) max_ = cycles;
}

nlohmann::json latency_summary::to_json() const {
    return {{"count", count_}, {"min", min()}, {"avg", average()}, {"max", max_}};
}

void network_stats::record_delivery(channel ch, unsigned hops, unsigned flits,
                                    uint64_t latency_cycles) {
    ++delivered_packets;
    delivered_flits += flits;
    latency.add(latency_cycles);
    latency_by_channel[index_of(ch)].add(latency_cycles);
    latency_by_hops[hops].add(latency_cycles);
    latency_by_channel_and_hops[index_of(ch)][hops].add(latency_cycles);
}

nlohmann::json network_stats::to_json() const {
    nlohmann::json j;
    j["packets"] = {{"injected", injected_packets}, {"delivered", delivered_packets}};
    j["flits"] = {{"injected", injected_flits}, {"delivered", delivered_flits}};
    j["latency_cycles"]["all"] = latency.to_json();
    for (unsigned c = 0; c < channel_count; ++c) {
        const char *name = channel_name(channel_from_index(c));
        j["latency_cycles"]["by_channel"][name] = latency_by_channel[c].to_json();
        for (const auto &[hops, summary] : latency_by_channel_and_hops[c])
            j["latency_cycles"]["by_channel_and_hops"][name][std::to_string(hops)] =
                summary.to_json();
    }
    for (const auto &[hops, summary] : latency_by_hops)
        j["latency_cycles"]["by_hops"][std::to_string(hops)] = summary.to_json();
    return j;
}

}  // namespace noc
