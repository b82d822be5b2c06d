// Counters of one network adapter (docs/statistics.md).
#pragma once
#include <array>
#include <cstdint>

namespace namp {

struct na_stats {
    std::array<uint64_t, 4> packets_sent{}, flits_sent{};          // per NoC channel
    std::array<uint64_t, 4> packets_received{}, flits_received{};  // per NoC channel
    uint64_t rx_refusals = 0;        // packets the adapter refused for lack of buffer space
    uint64_t dma_transfers = 0;      // transfers started
    uint64_t dma_bytes = 0;          // bytes sent by this adapter's DMA slots
    uint64_t dma_errors = 0;         // transfers that ended in ERROR
    uint64_t dma_bytes_written = 0;  // bytes written into this tile for remote DMA slots
    uint64_t rma_loads = 0, rma_stores = 0, rma_errors = 0;  // issued by this tile's cores
    uint64_t rma_served = 0;         // RMA accesses this adapter performed for other tiles
    uint64_t register_accesses = 0, bus_errors = 0;
};

}  // namespace namp
