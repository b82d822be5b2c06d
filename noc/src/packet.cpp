#include "noc/packet.h"

#include <string>

namespace noc {

namespace {
// Bit layout of the header flit, most significant first (docs/noc.md, "Header flit").
constexpr unsigned dst_x_shift = 27, dst_y_shift = 22, src_x_shift = 17, src_y_shift = 12;
constexpr unsigned channel_shift = 10, length_shift = 4, type_shift = 0;
constexpr uint32_t coord_mask = 0x1f, channel_mask = 0x3, length_mask = 0x3f, type_mask = 0xf;

void check_field(bool fits, const char *field, unsigned value) {
    if (!fits) {
        std::string msg = std::string("header field ") + field + " = " + std::to_string(value) +
                          " does not fit its bit field";
        SC_REPORT_ERROR("noc/header", msg.c_str());
    }
}
}  // namespace

uint32_t encode_header(const packet_header &h) {
    check_field(h.dst_x <= coord_mask, "dst_x", h.dst_x);
    check_field(h.dst_y <= coord_mask, "dst_y", h.dst_y);
    check_field(h.src_x <= coord_mask, "src_x", h.src_x);
    check_field(h.src_y <= coord_mask, "src_y", h.src_y);
    check_field(index_of(h.ch) < channel_count, "channel", index_of(h.ch));
    check_field(h.type <= type_mask, "type", h.type);
    check_field(h.length >= 1 && h.length <= max_encodable_packet_flits, "length", h.length);
    return uint32_t(h.dst_x) << dst_x_shift | uint32_t(h.dst_y) << dst_y_shift |
           uint32_t(h.src_x) << src_x_shift | uint32_t(h.src_y) << src_y_shift |
           uint32_t(index_of(h.ch)) << channel_shift | uint32_t(h.length - 1) << length_shift |
           uint32_t(h.type) << type_shift;
}

packet_header decode_header(uint32_t flit) {
    packet_header h;
    h.dst_x = (flit >> dst_x_shift) & coord_mask;
    h.dst_y = (flit >> dst_y_shift) & coord_mask;
    h.src_x = (flit >> src_x_shift) & coord_mask;
    h.src_y = (flit >> src_y_shift) & coord_mask;
    h.ch = channel_from_index((flit >> channel_shift) & channel_mask);
    h.length = ((flit >> length_shift) & length_mask) + 1;
    h.type = (flit >> type_shift) & type_mask;
    return h;
}

std::vector<uint32_t> packet::to_flits() const {
    std::vector<uint32_t> flits;
    flits.reserve(1 + payload.size());
    packet_header h = header;
    h.length = this->flits();
    flits.push_back(encode_header(h));
    flits.insert(flits.end(), payload.begin(), payload.end());
    return flits;
}

}  // namespace noc
