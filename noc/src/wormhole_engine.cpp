#include "wormhole_engine.h"

#include <algorithm>
#include <limits>
#include <string>

namespace noc::detail {

namespace {
// The sink takes a whole packet once it accepted the head: no buffer limit after the ejection.
constexpr unsigned unlimited_fit = std::numeric_limits<unsigned>::max() / 4;

void model_error(const std::string &what) { SC_REPORT_ERROR("noc/model", what.c_str()); }
}  // namespace

wormhole_engine::wormhole_engine(const config &cfg, timebase &time, trace::tracer *tracer)
    : cfg_(cfg), time_(time), tracer_(tracer) {
    if (tracer_ && tracer_->enabled(trace::noc))
        for (unsigned t = 0; t < cfg_.width * cfg_.height; ++t)
            tracks_.push_back(tracer_->track("tile " + std::to_string(t), "noc", trace::noc));
}

void wormhole_engine::attach(std::vector<router *> routers, std::vector<network_port *> ports) {
    routers_ = std::move(routers);
    ports_ = std::move(ports);
    planes_per_router_ = routers_.empty() ? 0 : routers_.front()->plane_count();
    planes_.clear();
    for (router *r : routers_)
        for (unsigned p = 0; p < planes_per_router_; ++p) planes_.push_back(&r->plane(p));
}

// ---------------------------------------------------------------- routing and resources

// Dimension-ordered routing: all x hops first, then all y hops. Deadlock-free on a mesh because no
// packet ever turns from y back into x.
void wormhole_engine::build_route(flight &f) const {
    const unsigned w = cfg_.width;
    unsigned x = f.src % w, y = f.src / w;
    const unsigned dx = f.dst % w, dy = f.dst / w;
    f.ports.clear();
    // one allocation per packet instead of one per doubling
    f.ports.reserve(2 + (dx > x ? dx - x : x - dx) + (dy > y ? dy - y : y - dy));
    port_crossing inject;
    inject.from_tile = inject.to_tile = f.src;
    f.ports.push_back(inject);
    auto step = [&](direction d, unsigned nx, unsigned ny) {
        port_crossing c;
        c.from_tile = y * w + x;
        c.out_dir = d;
        c.to_tile = ny * w + nx;
        c.in_dir = opposite(d);
        c.wire = cfg_.link_latency;
        f.ports.push_back(c);
        x = nx;
        y = ny;
    };
    while (x != dx) x < dx ? step(direction::east, x + 1, y) : step(direction::west, x - 1, y);
    while (y != dy) y < dy ? step(direction::south, x, y + 1) : step(direction::north, x, y - 1);
    port_crossing eject;
    eject.from_tile = eject.to_tile = f.dst;
    f.ports.push_back(eject);
    f.ports.front().ready = f.inject_cycle;
}

output_vc_state &wormhole_engine::output_vc(const flight &f, size_t p) {
    const port_crossing &c = f.ports[p];
    return plane(c.from_tile, f.plane).outputs[index_of(c.out_dir)][f.vc];
}

link_state &wormhole_engine::link(const flight &f, size_t p) {
    const port_crossing &c = f.ports[p];
    router_plane &pl = plane(c.from_tile, f.plane);
    return p == 0 ? pl.injection_link : pl.output_links[index_of(c.out_dir)];
}

input_vc_state &wormhole_engine::input_buffer(const flight &f, size_t p) {
    const port_crossing &c = f.ports[p];
    return plane(c.to_tile, f.plane).inputs[index_of(c.in_dir)][f.vc];
}

// ---------------------------------------------------------------- agenda

// An entry's port field holds a crossing index (at most the longest route's hops + 1, on a mesh
// config::validate() bounds) or a channel: checked once here, not on every schedule.
static_assert(2 * (max_mesh_side - 1) + 1 <= max_agenda_port && channel_count <= max_agenda_port);

void wormhole_engine::schedule(int64_t cycle, action what, flight *f, unsigned port,
                               output_vc_state *vc, network_port *tile_port) {
    agenda_entry e;
    e.cycle = cycle;
    e.key = tie_key(what, tie_resource(what, f, port, vc, tile_port),
                    what == action::request ? index_of(f->ports[port - 1].in_dir) : 0);
    e.order = port;
    if (what == action::arbitrate)
        e.vc = vc;
    else if (what == action::injection_done)
        e.tile_port = tile_port;
    else
        e.packet = f;
    agenda_.push(e);
    time_.wake_at(cycle);
}

uint64_t wormhole_engine::tie_resource(action what, const flight *f, unsigned port,
                                       const output_vc_state *vc,
                                       const network_port *tile_port) const {
    const unsigned w = cfg_.width;
    switch (what) {
    case action::arbitrate: return vc->order;
    case action::injection_done:
        return resource_order(tile_port->x(), tile_port->y(), injection_port, 0, port);
    case action::deliver:
        return resource_order(f->dst % w, f->dst / w, sink_port, 0, index_of(f->pkt.header.ch));
    case action::request:
    case action::try_cross:
        if (port == 0)
            return resource_order(f->src % w, f->src / w, injection_port, f->plane, f->vc);
        {
            const port_crossing &c = f->ports[port];
            return resource_order(c.from_tile % w, c.from_tile / w, index_of(c.out_dir), f->plane,
                                  f->vc);
        }
    }
    return 0;
}

void wormhole_engine::run_due(int64_t now) {
    while (!agenda_.empty() && agenda_.top().cycle <= now) {
        agenda_entry e = agenda_.top();
        agenda_.pop();
        now_ = e.cycle;
        execute(e);
    }
    now_ = now;
}

void wormhole_engine::execute(const agenda_entry &e) {
    switch (e.what()) {
    case action::request: on_request(e.packet, e.port()); break;
    case action::try_cross: try_cross(e.packet, e.port()); break;
    case action::injection_done: on_injection_done(e.tile_port, e.port()); break;
    case action::deliver: on_deliver(e.packet); break;
    case action::arbitrate: on_arbitrate(e.vc); break;
    }
}

// ---------------------------------------------------------------- injection and sinks

void wormhole_engine::inject(network_port &from, packet &&pkt) {
    const packet_header &h = pkt.header;
    if (h.dst_x >= cfg_.width || h.dst_y >= cfg_.height)
        model_error("packet from tile (" + std::to_string(from.x()) + "," +
                    std::to_string(from.y()) + ") to (" + std::to_string(h.dst_x) + "," +
                    std::to_string(h.dst_y) + "): destination outside the " +
                    std::to_string(cfg_.width) + "x" + std::to_string(cfg_.height) + " mesh");
    if (index_of(h.ch) >= channel_count) model_error("packet with invalid channel");
    if (h.type > header_max_type)
        model_error("packet type " + std::to_string(h.type) + " does not fit the 4-bit type field");
    if (pkt.flits() > cfg_.max_packet_flits)
        model_error("packet of " + std::to_string(pkt.flits()) +
                    " flits exceeds max_packet_flits " + std::to_string(cfg_.max_packet_flits) +
                    " (header included)");

    flight *f;
    if (idle_.empty()) {
        flights_.push_back(std::make_unique<flight>());
        f = flights_.back().get();
    } else {
        f = idle_.back();
        idle_.pop_back();
    }
    pkt.header.src_x = from.x();
    pkt.header.src_y = from.y();
    pkt.header.length = pkt.flits();
    pkt.id = next_id_++;
    const int64_t cycle = time_.current_cycle();
    pkt.injected_at = sc_core::sc_time::from_value(cfg_.clock_period.value() * uint64_t(cycle));
    f->length = pkt.flits();
    f->plane = plane_of(h.ch);
    f->vc = vc_of(h.ch);
    f->src = from.y() * cfg_.width + from.x();
    f->dst = h.dst_y * cfg_.width + h.dst_x;
    f->inject_cycle = cycle;
    f->next_tail = 0;
    f->pkt = std::move(pkt);
    build_route(*f);

    ++stats_.injected_packets;
    stats_.injected_flits += f->length;
    ++in_flight_;
    // The tile's channel slot stands for the output VC of the injection: it is already ours.
    schedule(cycle, action::try_cross, f, 0);
}

void wormhole_engine::sink_ready(network_port &at, channel ch) {
    flight *f = at.refused_[index_of(ch)];
    if (!f) return;
    at.refused_[index_of(ch)] = nullptr;
    schedule(time_.current_cycle(), action::try_cross, f, static_cast<unsigned>(f->last()));
}

void wormhole_engine::on_injection_done(network_port *port, unsigned ch) {
    port->busy_[ch] = false;
    ++port->completed_[ch];
    port->ready_[ch].notify(sc_core::SC_ZERO_TIME);
}

void wormhole_engine::on_deliver(flight *f) {
    const uint64_t latency = uint64_t(now_ - f->inject_cycle);
    stats_.record_delivery(f->pkt.header.ch, f->hops(), f->length, latency);
    if (!tracks_.empty()) {  // injection to delivery of the tail, on the source tile
        const sc_core::sc_time period = cfg_.clock_period;
        tracer_->async_slice(tracks_[f->src],
                             "to tile " + std::to_string(f->dst) + " ch " +
                                 std::to_string(index_of(f->pkt.header.ch)) + " (" +
                                 std::to_string(f->length) + " flits)",
                             f->pkt.id, period * double(f->inject_cycle), period * double(now_));
    }
    network_port *port = ports_[f->dst];
    packet pkt = std::move(f->pkt);
    idle_.push_back(f);  // f may be reused from here on
    --in_flight_;
    port->sink_->deliver(std::move(pkt));
}

// ---------------------------------------------------------------- heads

// A head joins the heads waiting for the output VC; a free VC is granted once every request of
// the cycle is in (action::arbitrate runs after them), so no requester wins by being scheduled first.
// A VC held by a packet whose tail time is known is arbitrated in the cycle it frees.
void wormhole_engine::on_request(flight *f, size_t p) {
    output_vc_state &vc = output_vc(*f, p);
    vc.waiters.push_back({f, static_cast<unsigned>(p)});
    if (vc.free_from != output_vc_state::held_forever)
        due_arbitration(vc, std::max(now_, vc.free_from));
}

// Only an arbitration is scheduled, in the cycle the VC frees; the arbitrations of one cycle run
// after its requests (agenda.h), so heads that ask in that cycle compete with those that waited.
void wormhole_engine::due_arbitration(output_vc_state &vc, int64_t cycle) {
    if (vc.arbitration_due) return;
    vc.arbitration_due = true;
    schedule(cycle, action::arbitrate, nullptr, 0, &vc);
}

// Round robin over input ports, starting after the last input granted. Each input has at most
// one waiting head per VC (its buffer is a FIFO), so the choice is unique.
void wormhole_engine::on_arbitrate(output_vc_state *vc) {
    vc->arbitration_due = false;
    if (vc->held(now_) || vc->waiters.empty()) return;
    size_t best = 0;
    unsigned best_distance = direction_count;
    for (size_t i = 0; i < vc->waiters.size(); ++i) {
        const waiting_head &w = vc->waiters[i];
        const unsigned input = index_of(w.packet->ports[w.port - 1].in_dir);
        const unsigned distance =
            (input + direction_count - vc->last_granted_input - 1) % direction_count;
        if (distance < best_distance) {
            best_distance = distance;
            best = i;
        }
    }
    waiting_head winner = vc->waiters[best];
    vc->waiters.erase(vc->waiters.begin() + long(best));
    vc->last_granted_input = index_of(winner.packet->ports[winner.port - 1].in_dir);
    grant(winner.packet, winner.port);
}

void wormhole_engine::grant(flight *f, size_t p) {
    output_vc(*f, p).free_from = output_vc_state::held_forever;
    try_cross(f, p);
}

unsigned wormhole_engine::occupancy(const input_vc_state &buf, unsigned wire, int64_t t) const {
    const int64_t depth = cfg_.buffer_depth;
    int64_t used = 0;
    for (const buffer_resident &r : buf.residents) {
        const int64_t most = std::min<int64_t>(r.length, depth);
        if (r.tail_out < 0)
            used += most;
        else  // the last flits leave one per cycle up to tail_out; credits arrive `wire` later
            used += std::clamp<int64_t>(r.tail_out + wire - t, 0, most);
    }
    return static_cast<unsigned>(std::min<int64_t>(used, depth));
}

// The owner of the output VC moves its head across port p as soon as the receiver has room.
void wormhole_engine::try_cross(flight *f, size_t p) {
    if (p == f->last()) {
        network_port *port = ports_[f->dst];
        if (!port->sink_)
            model_error("packet for tile (" + std::to_string(port->x()) + "," +
                        std::to_string(port->y()) + ") but no sink is bound to its port");
        if (!port->sink_->can_accept(f->pkt)) {
            port->refused_[index_of(f->pkt.header.ch)] = f;  // sink_ready() retries
            return;
        }
        cross(f, p, unlimited_fit);
        return;
    }

    input_vc_state &buf = input_buffer(*f, p);
    const unsigned wire = f->ports[p].wire;
    auto gone = buf.residents.begin();  // those whose last credit is back
    while (gone != buf.residents.end() && gone->tail_out >= 0 && gone->tail_out + wire <= now_)
        ++gone;
    buf.residents.erase(buf.residents.begin(), gone);

    const unsigned depth = cfg_.buffer_depth;
    const unsigned used = occupancy(buf, wire, now_);
    if (used < depth) {
        cross(f, p, depth - used);
        return;
    }
    // Full. If every resident's departure is known, credits return at a computable cycle.
    int64_t latest = -1;
    for (const buffer_resident &r : buf.residents) {
        if (r.tail_out < 0) {
            buf.credit_waiter = {f, static_cast<unsigned>(p)};  // woken when a resident resolves
            return;
        }
        latest = std::max(latest, r.tail_out + int64_t(wire));
    }
    int64_t lo = now_ + 1, hi = latest;  // occupancy(hi) == 0
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (occupancy(buf, wire, mid) < depth)
            hi = mid;
        else
            lo = mid + 1;
    }
    schedule(lo, action::try_cross, f, static_cast<unsigned>(p));
}

void wormhole_engine::cross(flight *f, size_t p, unsigned fit) {
    port_crossing &c = f->ports[p];
    c.head = now_;
    c.fit = fit;
    // Link bandwidth: the packet's flits are booked after all work already on the link (one flit
    // per cycle). Heads are not held back by other VCs' bookings; see docs/noc.md.
    link_state &l = link(*f, p);
    c.start = std::max(now_, l.busy_until);
    l.busy_until = c.start + f->length;
    l.flits += f->length;
    if (p > 0) {
        router &r = *routers_[c.from_tile];
        r.flits_forwarded += f->length;
        ++r.packets_forwarded;
        r.blocked_cycles += uint64_t(now_ - c.ready);
    }
    if (p < f->last()) {
        input_vc_state &buf = input_buffer(*f, p);
        // Input buffers are FIFOs: only the oldest packet whose tail is still inside may route.
        const bool first_inside = buf.residents.empty() || buf.residents.back().tail_out >= 0;
        const int64_t after = buf.residents.empty() ? 0 : buf.residents.back().tail_out + 1;
        buf.residents.push_back({f, f->length, static_cast<unsigned>(p + 1), -1});
        port_crossing &next = f->ports[p + 1];
        next.ready = now_ + c.wire + cfg_.router_latency;
        if (first_inside) {
            schedule(std::max(next.ready, after), action::request, f, static_cast<unsigned>(p + 1));
            // the request reads this VC a few cycles on, and the grant the buffer behind it; on a
            // large mesh they are rarely in cache by then
            __builtin_prefetch(&output_vc(*f, p + 1));
            if (p + 1 < f->last()) __builtin_prefetch(&input_buffer(*f, p + 1));
        }
    }
    advance_tails(f);
}

// ---------------------------------------------------------------- tails

// The tail of crossing p leaves once (a) all flits have been serialised on the link, (b) the tail
// has come through the previous router, and (c) the downstream buffers could take the flits in
// front of it: if the packet does not fit into the buffers between p and the head, the tail waits
// for the head to move on (wormhole backpressure).
void wormhole_engine::advance_tails(flight *f) {
    const size_t last = f->last();
    const int64_t len = f->length;
    const int64_t depth = cfg_.buffer_depth;
    for (size_t p = f->next_tail; p <= last; ++p) {
        port_crossing &c = f->ports[p];
        if (c.head < 0) return;
        int64_t tail = c.start + len - 1;  // (a)
        if (p > 0)
            tail = std::max(
                tail, f->ports[p - 1].tail + f->ports[p - 1].wire + cfg_.router_latency);  // (b)
        uint64_t room = 0;
        int64_t wires = 0;
        for (size_t m = 1; p + m <= last; ++m) {  // (c)
            room += f->ports[p + m - 1].fit;
            wires += f->ports[p + m - 1].wire;
            if (uint64_t(len) <= room) break;
            const port_crossing &ahead = f->ports[p + m];
            if (ahead.head < 0) return;  // blocked: resolved when that head moves
            tail = std::max(tail, ahead.head + (len - 1) - int64_t(m) * depth + wires);
        }
        c.tail = tail;
        f->next_tail = p + 1;
        on_tail_resolved(f, p);
    }
}

void wormhole_engine::on_tail_resolved(flight *f, size_t p) {
    const int64_t tail = f->ports[p].tail;
    if (p == 0) {
        schedule(tail + 1, action::injection_done, nullptr, index_of(f->pkt.header.ch), nullptr,
                 ports_[f->src]);
    } else {
        output_vc_state &vc = output_vc(*f, p);
        vc.free_from = tail + 1;
        if (!vc.waiters.empty()) due_arbitration(vc, tail + 1);
        // f leaves the buffer crossing p-1 wrote into: record when, let the next packet route and
        // recheck the credits of whoever waits to write into that buffer.
        input_vc_state &buf = input_buffer(*f, p - 1);
        auto it = std::find_if(buf.residents.begin(), buf.residents.end(),
                               [](const buffer_resident &r) { return r.tail_out < 0; });
        if (it == buf.residents.end() || it->packet != f)
            model_error("internal: input buffer order broken");
        it->tail_out = tail;
        if (++it != buf.residents.end()) {
            flight *next = it->packet;
            schedule(std::max(next->ports[it->leave_port].ready, tail + 1), action::request, next,
                     it->leave_port);
        }
        if (buf.credit_waiter.packet) {
            schedule(now_, action::try_cross, buf.credit_waiter.packet, buf.credit_waiter.port);
            buf.credit_waiter = {};
        }
    }
    if (p == f->last()) schedule(tail + 1, action::deliver, f);
}

}  // namespace noc::detail
