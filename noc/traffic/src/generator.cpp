// sc_spawn (one SC_METHOD per tile) needs the dynamic-process part of the SystemC header.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "noc/traffic/generator.h"

#include <string>

namespace noc::traffic {

namespace {
// Payload word i of a packet: a function of its identity, so the sink can verify every word.
uint32_t payload_word(unsigned src, unsigned dst, unsigned ch, uint32_t seq, unsigned i) {
    uint32_t v = seq * 0x9e3779b1u ^ (src << 20) ^ (dst << 8) ^ (ch << 4) ^ i;
    v ^= v >> 15;
    v *= 0x2c1b3c6du;
    v ^= v >> 12;
    return v;
}
constexpr uint64_t measured_flag = 1;
}  // namespace

struct traffic_generator::node : packet_sink {
    node(traffic_generator &g, unsigned id, unsigned tiles, uint32_t seed)
        : owner(g),
          tile(id),
          rng(seed),
          next_seq(tiles * channel_count, 0),
          expected_seq(tiles * channel_count, 0) {}

    bool can_accept(const packet &) override { return true; }
    void deliver(packet pkt) override { owner.on_delivery(*this, std::move(pkt)); }

    traffic_generator &owner;
    unsigned tile;
    deterministic_rng rng;
    int64_t next_gen = 0;
    unsigned next_channel = 0;
    std::array<std::deque<packet>, channel_count> queues;
    std::vector<uint32_t> next_seq;      // [dst * 4 + ch]
    std::vector<uint32_t> expected_seq;  // [src * 4 + ch]
    sc_core::sc_event timer;
};

traffic_generator::traffic_generator(sc_core::sc_module_name name, mesh &net,
                                     const traffic_config &cfg)
    : sc_module(name), net_(net), cfg_(cfg) {
    const config &nc = net.cfg();
    if (cfg_.packet_flits == 0 || cfg_.packet_flits > nc.max_packet_flits)
        SC_REPORT_ERROR("noc/traffic", ("packet_flits " + std::to_string(cfg_.packet_flits) +
                                        " outside 1..max_packet_flits")
                                           .c_str());
    if (cfg_.fixed_channel >= int(channel_count))
        SC_REPORT_ERROR("noc/traffic", "fixed_channel must be -1 or 0..3");
    if (!(cfg_.injection_rate >= 0.0))
        SC_REPORT_ERROR("noc/traffic", "injection_rate must be >= 0");
    params_.width = nc.width;
    params_.height = nc.height;
    params_.hotspot_fraction = cfg_.hotspot_fraction;
    params_.hotspot_tile = cfg_.hotspot_tile >= 0 ? unsigned(cfg_.hotspot_tile)
                                                  : (nc.height / 2) * nc.width + nc.width / 2;
    if (params_.hotspot_tile >= nc.tiles())
        SC_REPORT_ERROR("noc/traffic", "hotspot_tile outside the mesh");
    trial_threshold_ = deterministic_rng::threshold_for(cfg_.injection_rate / cfg_.packet_flits);

    const unsigned tiles = nc.tiles();
    for (unsigned t = 0; t < tiles; ++t) {
        // Seeds differ per tile; the mixing is plain integer arithmetic (reproducible everywhere).
        const uint32_t seed = cfg_.seed * 2654435761u + t * 40503u + 1u;
        nodes_.push_back(std::make_unique<node>(*this, t, tiles, seed));
        node &n = *nodes_.back();
        network_port &port = net_.port(t);
        port.bind_sink(n);
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.dont_initialize();
        opts.set_sensitivity(&n.timer);
        for (unsigned c = 0; c < channel_count; ++c)
            opts.set_sensitivity(&port.send_ready_event(channel_from_index(c)));
        sc_core::sc_spawn([this, t] { pump(t); }, ("source_" + std::to_string(t)).c_str(), &opts);
    }
}

traffic_generator::~traffic_generator() = default;

void traffic_generator::start_of_simulation() {
    for (auto &n : nodes_) {
        n->next_gen = next_generation(*n, net_.current_cycle() - 1);
        if (n->next_gen >= 0) n->timer.notify(net_.cfg().clock_period * double(n->next_gen));
    }
}

// Cycle of the first successful Bernoulli trial after `after`; -1 if the rate is zero.
int64_t traffic_generator::next_generation(node &n, int64_t after) {
    if (trial_threshold_ == 0) return -1;
    int64_t cycle = after + 1;
    while (!n.rng.chance(trial_threshold_)) ++cycle;
    return cycle;
}

void traffic_generator::start_measurement() {
    measuring_ = true;
    window_start_ = net_.current_cycle();
}

void traffic_generator::stop_measurement() {
    measuring_ = false;
    window_end_ = net_.current_cycle();
}

void traffic_generator::stop_generation() { generating_ = false; }

void traffic_generator::pump(unsigned tile) {
    node &n = *nodes_[tile];
    const int64_t now = net_.current_cycle();
    if (generating_ && n.next_gen >= 0) {
        while (n.next_gen <= now) {
            generate(n, n.next_gen);
            n.next_gen = next_generation(n, n.next_gen);
        }
        const sc_core::sc_time at = net_.cfg().clock_period * double(n.next_gen);
        n.timer.notify(at - sc_core::sc_time_stamp());
    }
    network_port &port = net_.port(tile);
    for (unsigned c = 0; c < channel_count; ++c) {
        auto &q = n.queues[c];
        if (!q.empty() && port.can_send(channel_from_index(c))) {
            port.try_send(std::move(q.front()));
            q.pop_front();
        }
    }
}

void traffic_generator::generate(node &n, int64_t cycle) {
    const auto dst = pick_destination(cfg_.kind, n.tile, params_, n.rng);
    if (!dst) return;
    const unsigned ch = cfg_.fixed_channel >= 0 ? unsigned(cfg_.fixed_channel) : n.next_channel;
    n.next_channel = (n.next_channel + 1) % channel_count;
    if (n.queues[ch].size() >= cfg_.source_queue_limit) {
        ++results_.throttled;
        if (measuring_) results_.measured_flits_throttled += cfg_.packet_flits;
        return;
    }
    packet pkt;
    pkt.header.dst_x = *dst % params_.width;
    pkt.header.dst_y = *dst / params_.width;
    pkt.header.ch = channel_from_index(ch);
    const uint32_t seq = n.next_seq[*dst * channel_count + ch]++;
    pkt.payload.resize(cfg_.packet_flits - 1);
    for (unsigned i = 0; i < pkt.payload.size(); ++i)
        pkt.payload[i] = i == 0 ? seq : payload_word(n.tile, *dst, ch, seq, i);
    pkt.created_at = net_.cfg().clock_period * double(cycle);
    pkt.user_tag = measuring_ ? measured_flag : 0;
    ++results_.generated;
    if (measuring_) {
        ++results_.measured_generated;
        results_.measured_flits_generated += cfg_.packet_flits;
    }
    n.queues[ch].push_back(std::move(pkt));
}

void traffic_generator::on_delivery(node &n, packet pkt) {
    const unsigned w = params_.width;
    const unsigned src = pkt.header.src_y * w + pkt.header.src_x;
    const unsigned ch = index_of(pkt.header.ch);
    ++results_.delivered;
    if (pkt.header.dst_y * w + pkt.header.dst_x != n.tile) ++results_.misrouted;
    uint32_t &expected = n.expected_seq[src * channel_count + ch];
    const uint32_t seq = pkt.payload.empty() ? expected : pkt.payload[0];
    if (seq != expected) ++results_.order_errors;
    expected = seq + 1;
    for (unsigned i = 1; i < pkt.payload.size(); ++i)
        if (pkt.payload[i] != payload_word(src, n.tile, ch, seq, i)) {
            ++results_.corrupt;
            break;
        }
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const double period = net_.cfg().clock_period.to_seconds();
    if (measuring_) results_.window_flits_delivered += pkt.flits();
    if (pkt.user_tag & measured_flag) {
        ++results_.measured_delivered;
        results_.latency.add(uint64_t((now - pkt.created_at).to_seconds() / period + 0.5));
        results_.network_latency.add(uint64_t((now - pkt.injected_at).to_seconds() / period + 0.5));
    }
}

bool traffic_generator::drained() const {
    if (results_.delivered != results_.generated) return false;
    for (const auto &n : nodes_)
        for (const auto &q : n->queues)
            if (!q.empty()) return false;
    return true;
}

nlohmann::json traffic_generator::results_json() const {
    const traffic_results &r = results_;
    const int64_t window = (window_end_ >= 0 ? window_end_ : net_.current_cycle()) - window_start_;
    const double node_cycles = double(window) * double(nodes_.size());
    auto per_node_cycle = [node_cycles](uint64_t flits) {
        return node_cycles > 0 ? double(flits) / node_cycles : 0.0;
    };
    nlohmann::json j;
    j["pattern"] = pattern_name(cfg_.kind);
    j["packet_flits"] = cfg_.packet_flits;
    j["seed"] = cfg_.seed;
    j["offered_flits_per_cycle_per_node"] = cfg_.injection_rate;
    j["measurement_cycles"] = window;
    j["generated_flits_per_cycle_per_node"] = per_node_cycle(r.measured_flits_generated);
    // What the sources really offered: below the nominal rate where a pattern leaves tiles idle
    // (transpose diagonal, bit-complement centre); includes generations skipped on a full queue.
    j["effective_offered_flits_per_cycle_per_node"] =
        per_node_cycle(r.measured_flits_generated + r.measured_flits_throttled);
    j["accepted_flits_per_cycle_per_node"] = per_node_cycle(r.window_flits_delivered);
    j["latency_cycles"] = r.latency.to_json();
    j["network_latency_cycles"] = r.network_latency.to_json();
    j["packets"] = {{"generated", r.generated},
                    {"delivered", r.delivered},
                    {"throttled", r.throttled},
                    {"measured_generated", r.measured_generated},
                    {"measured_delivered", r.measured_delivered}};
    j["errors"] = {{"order", r.order_errors}, {"corrupt", r.corrupt}, {"misrouted", r.misrouted}};
    j["drained"] = drained();
    return j;
}

}  // namespace noc::traffic
