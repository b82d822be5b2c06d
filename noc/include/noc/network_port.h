// The interface between a tile's network adapter and the mesh: one network_port per tile.
//
// Injection (tile -> network), one packet in flight per channel:
//   - send(pkt)      from an SC_THREAD: waits until the channel is free, hands the packet over and
//                    returns when its tail flit has been accepted into the router's local input
//                    buffer (backpressure: credits of that buffer).
//   - try_send(pkt)  from anywhere (SC_METHOD): returns false if the channel is still busy with the
//                    previous packet; then wait for send_ready_event(ch) and try again.
//   The port fills in the source tile, the length (1 + payload words), the unique id and
//   injected_at. The destination, channel and type come from pkt.header.
//
// Ejection (network -> tile): bind a packet_sink. For each packet that arrives on a channel the
// network first calls can_accept() when the head flit reaches the tile (the sink may reserve space
// then) and, if it returned true, deliver() when the tail flit has arrived. If can_accept() returns
// false the packet stays in the network holding that channel's buffers (other channels keep
// flowing); call sink_ready(ch) once space is free and the network offers it again.
// Packets of one (source, destination, channel) are delivered in injection order.
//
// Sink callbacks run inside the mesh's SC_METHOD: they must not call wait(). They may call
// try_send() and sink_ready().
#pragma once
#include <array>
#include <cstdint>
#include <list>
#include <systemc>

#include "noc/config.h"
#include "noc/packet.h"

namespace noc {

namespace detail {
class wormhole_engine;
struct flight;
}

class packet_sink {
public:
    virtual ~packet_sink() = default;
    // The head of `pkt` is at the tile (payload and metadata are complete already). Return false to
    // refuse for now.
    virtual bool can_accept(const packet &pkt) = 0;
    // The whole packet has arrived. Called once per accepted packet, at the time of its tail flit.
    virtual void deliver(packet pkt) = 0;
};

class network_port {
public:
    network_port(detail::wormhole_engine &engine, unsigned tile_x, unsigned tile_y);
    network_port(const network_port &) = delete;
    network_port &operator=(const network_port &) = delete;

    unsigned x() const { return x_; }
    unsigned y() const { return y_; }

    // --- injection ---
    bool can_send(channel ch) const { return !busy_[index_of(ch)]; }
    bool try_send(packet pkt);
    void send(packet pkt);  // SC_THREAD only
    // Notified when the channel becomes free (the previous packet's tail is in the router).
    const sc_core::sc_event &send_ready_event(channel ch) const { return ready_[index_of(ch)]; }

    // --- ejection ---
    void bind_sink(packet_sink &sink) { sink_ = &sink; }
    packet_sink *sink() const { return sink_; }
    void sink_ready(channel ch);

private:
    friend class detail::wormhole_engine;

    detail::wormhole_engine &engine_;
    unsigned x_, y_;
    packet_sink *sink_ = nullptr;
    std::array<bool, channel_count> busy_{};
    std::array<uint64_t, channel_count> accepted_{};   // packets try_send took
    std::array<uint64_t, channel_count> completed_{};  // packets whose tail entered the router
    std::array<sc_core::sc_event, channel_count> ready_;
    std::array<detail::flight *, channel_count> refused_{};  // head waiting for can_accept
    std::list<packet> parked_;  // packets of send() calls waiting for their channel
};

}  // namespace noc
