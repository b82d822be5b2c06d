// The analytical, event-driven wormhole timing model of the whole mesh (docs/noc.md, "Timing
// model"). A packet's journey is a list of port crossings: the injection into its source router,
// one crossing per router-to-router link, and the ejection into the sink. For every crossing the
// engine decides the head cycle when it happens (grant, credits, sink) and resolves the tail cycle
// as soon as the packet's downstream heads make it computable. Host work is a few agenda actions
// per crossing plus one per blocking event; no per-cycle or per-flit work.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "agenda.h"
#include "noc/config.h"
#include "trace/tracer.h"
#include "noc/network_port.h"
#include "noc/packet.h"
#include "noc/router.h"
#include "noc/stats.h"

namespace noc::detail {

struct port_crossing {
    unsigned from_tile = 0;  // router the head leaves (the source tile for the injection)
    direction out_dir = direction::local;
    unsigned to_tile = 0;  // router whose input buffer receives it (the sink's tile at the end)
    direction in_dir = direction::local;
    unsigned wire = 0;   // wire latency of this crossing (0 inside a tile)
    int64_t ready = -1;  // earliest head cycle if nothing blocked it
    int64_t head = -1;   // cycle the head crossed; -1: not yet
    int64_t start = -1;  // first cycle of the link work booked for the packet
    int64_t tail = -1;   // cycle the tail crosses; -1: not resolved yet
    unsigned fit = 0;    // free slots of the receiving buffer when the head entered
};

struct flight {
    packet pkt;
    unsigned length = 0;  // flits
    unsigned plane = 0, vc = 0;
    unsigned src = 0, dst = 0;  // tile ids
    int64_t inject_cycle = 0;
    std::vector<port_crossing> ports;  // hops + 2 entries
    size_t next_tail = 0;              // first crossing whose tail is unresolved
    unsigned hops() const { return static_cast<unsigned>(ports.size()) - 2; }
    size_t last() const { return ports.size() - 1; }
};

class wormhole_engine {
public:
    wormhole_engine(const config &cfg, timebase &time, trace::tracer *tracer = nullptr);

    void attach(std::vector<router *> routers, std::vector<network_port *> ports);

    // Called by network_port.
    void inject(network_port &from, packet &&pkt);
    void sink_ready(network_port &at, channel ch);

    // Executes every action due at or before `now`.
    void run_due(int64_t now);
    bool has_pending() const { return !agenda_.empty(); }
    int64_t next_due() const { return agenda_.top().cycle; }

    uint64_t in_flight() const { return in_flight_; }
    network_stats &stats() { return stats_; }
    const network_stats &stats() const { return stats_; }

private:
    // channel -> (plane, vc)
    unsigned plane_of(channel ch) const { return cfg_.physical_channels ? index_of(ch) : 0; }
    unsigned vc_of(channel ch) const { return cfg_.physical_channels ? 0 : index_of(ch); }

    void build_route(flight &f) const;
    router_plane &plane(unsigned tile, unsigned p) {
        return *planes_[tile * planes_per_router_ + p];
    }
    output_vc_state &output_vc(const flight &f, size_t p);
    link_state &link(const flight &f, size_t p);
    input_vc_state &input_buffer(const flight &f, size_t p);  // buffer written by crossing p

    void schedule(int64_t cycle, action what, flight *f, unsigned port = 0,
                  output_vc_state *vc = nullptr, network_port *tile_port = nullptr);
    void execute(const agenda_entry &e);
    // The resource an action works on, for its place in the tie order (agenda.h).
    uint64_t tie_resource(action what, const flight *f, unsigned port, const output_vc_state *vc,
                          const network_port *tile_port) const;

    void on_request(flight *f, size_t p);
    void due_arbitration(output_vc_state &vc, int64_t cycle);
    void on_arbitrate(output_vc_state *vc);
    void grant(flight *f, size_t p);
    void try_cross(flight *f, size_t p);
    void cross(flight *f, size_t p, unsigned fit);
    void advance_tails(flight *f);
    void on_tail_resolved(flight *f, size_t p);
    void on_injection_done(network_port *port, unsigned ch);
    void on_deliver(flight *f);

    // Occupied slots of `buf` at cycle t, counting residents whose departure is unknown as full.
    unsigned occupancy(const input_vc_state &buf, unsigned wire, int64_t t) const;

    const config cfg_;
    timebase &time_;
    trace::tracer *tracer_;
    std::vector<trace::track_id> tracks_;  // per source tile (category noc); empty: not traced
    std::vector<router *> routers_;
    std::vector<network_port *> ports_;
    // Every router's planes, [tile][plane]: one load from here instead of a router's (a module's,
    // elsewhere in memory) plane list before each look at a plane (docs/noc.md "Host cost").
    std::vector<router_plane *> planes_;
    unsigned planes_per_router_ = 0;
    agenda agenda_;
    int64_t now_ = 0;
    uint64_t next_id_ = 1;
    // Every flight made so far; a delivered one is reused (with its route's storage) by a later
    // packet, so steady traffic allocates nothing here (under ASan each allocation touched fresh
    // pages: a third of a message-passing run's host time).
    std::vector<std::unique_ptr<flight>> flights_;
    std::vector<flight *> idle_;
    uint64_t in_flight_ = 0;
    network_stats stats_;
};

}  // namespace noc::detail
