// NoC packets: the 32-bit header flit (see docs/noc.md for the bit layout), payload words, and the
// metadata that travels with a packet in the model only (it costs no flits).
#pragma once
#include <cstdint>
#include <vector>
#include <systemc>

#include "noc/config.h"

namespace noc {

// Decoded header flit. `length` counts flits including the header itself.
struct packet_header {
    unsigned dst_x = 0;
    unsigned dst_y = 0;
    unsigned src_x = 0;
    unsigned src_y = 0;
    channel ch = channel::control_request;
    unsigned type = 0;    // free for the network adapter (protocol message type), 0..15
    unsigned length = 1;  // 1..64 flits

    bool operator==(const packet_header &o) const {
        return dst_x == o.dst_x && dst_y == o.dst_y && src_x == o.src_x && src_y == o.src_y &&
               ch == o.ch && type == o.type && length == o.length;
    }
};

// Header field limits (widths of the bit fields).
constexpr unsigned header_max_type = 15;

// Encodes all fields; reports an error for values that do not fit their field.
uint32_t encode_header(const packet_header &h);
// Decodes any 32-bit word (every bit pattern is a valid header).
packet_header decode_header(uint32_t flit);

struct packet {
    // Routing and class. On sending only dst_x, dst_y, ch and type are read: the port fills in the
    // source tile and the length (1 + payload words).
    packet_header header;
    std::vector<uint32_t> payload;  // body flits, one 32-bit word each

    // Model-only metadata, for statistics and tracing.
    uint64_t id = 0;               // unique per mesh, assigned on injection (1, 2, ...)
    uint64_t user_tag = 0;         // free for the sender, carried unchanged
    sc_core::sc_time created_at;   // free for the sender (e.g. time the message was generated)
    sc_core::sc_time injected_at;  // set by the port when the network takes the packet

    unsigned flits() const { return 1 + static_cast<unsigned>(payload.size()); }
    // The flits as they would travel on the wire: header first.
    std::vector<uint32_t> to_flits() const;
};

}  // namespace noc
