// Small building blocks for the NoC tests: a sink that records (and can refuse) deliveries, and
// helpers to build packets and convert cycles to time.
#pragma once
#include <array>
#include <functional>
#include <vector>
#include <systemc>

#include "noc/mesh.h"
#include "noc/network_port.h"

namespace noc_test {

inline sc_core::sc_time cycles(const noc::config &cfg, uint64_t n) {
    return sc_core::sc_time::from_value(cfg.clock_period.value() * n);
}

inline noc::packet make_packet(unsigned dst_x, unsigned dst_y, noc::channel ch, unsigned flits,
                               uint64_t tag = 0) {
    noc::packet p;
    p.header.dst_x = dst_x;
    p.header.dst_y = dst_y;
    p.header.ch = ch;
    p.payload.assign(flits - 1, 0);
    for (unsigned i = 0; i < p.payload.size(); ++i) p.payload[i] = uint32_t(tag * 1000 + i);
    p.user_tag = tag;
    return p;
}

struct delivery {
    noc::packet pkt;
    sc_core::sc_time at;
};

// Records every packet; refuses a channel while refuse[channel] is true.
class recording_sink : public noc::packet_sink {
public:
    std::vector<delivery> delivered;
    std::array<bool, noc::channel_count> refuse{};
    std::array<unsigned, noc::channel_count> refusals{};
    std::function<void(const noc::packet &)> on_deliver;

    bool can_accept(const noc::packet &p) override {
        const unsigned c = noc::index_of(p.header.ch);
        if (refuse[c]) ++refusals[c];
        return !refuse[c];
    }
    void deliver(noc::packet p) override {
        if (on_deliver) on_deliver(p);
        delivered.push_back({std::move(p), sc_core::sc_time_stamp()});
    }
};

}  // namespace noc_test
