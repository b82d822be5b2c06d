// Formats of the packets the adapter hardware exchanges on the two data channels (docs/network-
// adapter.md, "Data packets"). The header's 4-bit type field says which one a packet is.
#pragma once
#include <cstdint>

namespace namp {

enum packet_type : unsigned {
    // data-request channel
    pkt_dma_data = 1,   // [addr] [ctrl] [data words...]
    pkt_rma_load = 2,   // [addr] [ctrl]
    pkt_rma_store = 3,  // [addr] [ctrl] [data]
    // data-response channel
    pkt_dma_done = 8,        // [ctrl]
    pkt_rma_load_reply = 9,  // [ctrl] [data]
    pkt_rma_store_ack = 10,  // [ctrl]
};

// DMA data control word: [11:0] bytes in this packet, [27:12] tag of the DMA transfer (echoed in
// the completion), bit 28 reduce (NAMP-CC: the word after ctrl is the op/type word
// cc::reduce_word and the target combines the data into memory instead of writing it), bit 29
// gather (NAMP-CC packed chunks: the two words after ctrl are [chunk bytes][stride]; the data
// holds bytes / chunk chunks, chunk j written at addr + j * stride), bit 30 first, bit 31 last.
// Tags: a user DMA slot n is tag n (< 128); a NAMP transfer is dma_tag_namp | NAMP_TAG(slot,
// destination) (namp_structs.h), so every multicast member has its own completion.
constexpr uint32_t dma_ctrl(unsigned bytes, unsigned tag, bool first, bool last) {
    return (bytes & 0xFFFu) | ((tag & 0xFFFFu) << 12) | (first ? 1u << 30 : 0) |
           (last ? 1u << 31 : 0);
}
constexpr unsigned dma_ctrl_bytes(uint32_t w) { return w & 0xFFFu; }
constexpr unsigned dma_ctrl_tag(uint32_t w) { return (w >> 12) & 0xFFFFu; }
constexpr unsigned dma_tag_namp = 0x8000u;
constexpr bool dma_ctrl_first(uint32_t w) { return (w >> 30) & 1u; }
constexpr bool dma_ctrl_last(uint32_t w) { return (w >> 31) & 1u; }
constexpr uint32_t dma_ctrl_reduce = 1u << 28;
constexpr uint32_t dma_ctrl_gather = 1u << 29;
// Flits of a packed gather packet before its data: header, addr, ctrl, chunk, stride.
constexpr unsigned dma_gather_overhead_flits = 5;

// RMA control word: [2:0] access size in bytes (1, 2, 4), [23:8] tag.
constexpr uint32_t rma_ctrl(unsigned size, unsigned tag) {
    return (size & 7u) | ((tag & 0xFFFFu) << 8);
}
constexpr unsigned rma_ctrl_size(uint32_t w) { return w & 7u; }
constexpr unsigned rma_ctrl_tag(uint32_t w) { return (w >> 8) & 0xFFFFu; }

// Response control word: [15:0] tag (RMA) or slot (DMA), bit 31 error.
constexpr uint32_t resp_ctrl(unsigned tag, bool error) {
    return (tag & 0xFFFFu) | (error ? 1u << 31 : 0);
}
constexpr unsigned resp_ctrl_tag(uint32_t w) { return w & 0xFFFFu; }
constexpr bool resp_ctrl_error(uint32_t w) { return (w >> 31) & 1u; }

// Flits of a DMA data packet before its data words.
constexpr unsigned dma_overhead_flits = 3;

}  // namespace namp
