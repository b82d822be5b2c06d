// Parameters of one network adapter (filled by the platform from the na.* configuration keys).
// docs/network-adapter.md explains every cost.
#pragma once
#include <cstdint>

namespace namp {

struct na_config {
    unsigned rx_buffer_flits = 128;  // capacity of each NoC receive buffer (buffers 0 and 1)
    unsigned dma_slots = 2;          // user DMA slots, 1..128
    unsigned irq_core = 0;           // core whose MEIP the adapter drives
    unsigned register_latency = 2;   // cycles per register access of a core
    unsigned packet_cycles = 4;      // target: cycles to process one incoming data-request packet
    unsigned dma_setup_cycles = 8;   // initiator: once per DMA transfer, before its first packet
    unsigned dma_packet_cycles = 2;  // initiator: per DMA data packet (building the header)
    unsigned rma_issue_cycles = 2;   // initiator: building one RMA request packet
    unsigned bus_word_cycles = 1;    // bus master burst: cycles per 32-bit word after the first
    unsigned target_queue_flits = 0; // data-request input queue; 0 = 2 * max_packet_flits
};

// What the adapter must know about its tile and the mesh.
struct na_geometry {
    unsigned tile_id = 0, x = 0, y = 0;
    unsigned mesh_width = 1, mesh_height = 1;
    uint32_t sram_base = 0x80000000u, sram_size = 1u << 20;
    unsigned max_packet_flits = 32;  // of the NoC, header included
};

}  // namespace namp
