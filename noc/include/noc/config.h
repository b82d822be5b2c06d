// Configuration of the mesh network-on-chip: geometry, buffers, pipeline timing and whether the four
// logical channels share one physical network (virtual channels) or get one network each.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>

namespace noc {

// The four logical channels of the NAMP (thesis 4.2.1): control and data traffic, each split into
// request and response so that a response never waits behind a request (no message-dependent
// deadlock). The numeric value is the channel field of the packet header.
enum class channel : uint8_t {
    control_request = 0,
    control_response = 1,
    data_request = 2,
    data_response = 3,
};
constexpr unsigned channel_count = 4;

const char *channel_name(channel ch);
inline unsigned index_of(channel ch) { return static_cast<unsigned>(ch); }
inline channel channel_from_index(unsigned i) { return static_cast<channel>(i); }

// Largest mesh side. The header's 5-bit coordinate fields address 32 tiles per side: packets are
// model objects and reach any tile, but one whose header is serialised (to_flits: the raw packets
// software reads from the adapter's NoC buffers) must have coordinates below 32, else
// encode_header reports an error. NAMP, RDMA and RMA packets are never serialised.
constexpr unsigned max_mesh_side = 64;
// Largest packet the 6-bit length field of the header can describe (length - 1 is encoded).
constexpr unsigned max_encodable_packet_flits = 64;

struct config {
    unsigned width = 4;           // tiles in x
    unsigned height = 4;          // tiles in y
    unsigned buffer_depth = 4;    // flits per input buffer (per virtual channel, per port)
    unsigned router_latency = 1;  // cycles from a flit's arrival in a buffer to leaving the router
    unsigned link_latency = 1;    // cycles on a router-to-router wire (credits take as long back)
    unsigned max_packet_flits = 32;                                        // header flit included
    sc_core::sc_time clock_period = sc_core::sc_time(10, sc_core::SC_NS);  // 100 MHz
    // false: one physical network, the channels are virtual channels sharing each link.
    // true: one physical network per channel (four meshes, nothing shared).
    bool physical_channels = false;

    // Reports an SC_REPORT_ERROR (which throws sc_core::sc_report) naming the offending field.
    void validate() const;
    unsigned tiles() const { return width * height; }
    // Smallest buffer depth that lets a link carry one flit per cycle (credit round trip).
    unsigned full_rate_buffer_depth() const { return router_latency + 2 * link_latency; }
    // Zero-load latency in cycles (see docs/noc.md), valid when buffer_depth >= full_rate_buffer_depth().
    uint64_t zero_load_latency(unsigned hops, unsigned packet_flits) const {
        return uint64_t(hops + 1) * router_latency + uint64_t(hops) * link_latency + packet_flits;
    }
    std::string describe() const;
};

}  // namespace noc
