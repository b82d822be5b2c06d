// Counters of one network adapter (docs/statistics.md).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

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

    // NAMP (empty / zero when disabled)
    struct namp_slot_stats {
        uint64_t transfers = 0;     // completed transfers (CoM: credit messages; CCM: elements)
        uint64_t bytes = 0;         // payload bytes sent
        uint64_t retries = 0;       // allocation requests repeated after a NACK
        uint64_t nacks = 0;         // NACKs received
        uint64_t credit_waits = 0;  // times the slot entered the persistent credit wait
        uint64_t errors = 0;        // starts refused or transfers failed
        std::array<uint64_t, 9> state_cycles{};  // cycles spent per NAMP_STATE_* (not IDLE)
    };
    std::vector<namp_slot_stats> namp_slots;
    uint64_t namp_egress_steps = 0, namp_ingress_steps = 0, namp_target_steps = 0;
    std::array<uint64_t, 5> namp_msgs_sent{}, namp_msgs_received{};  // per type 11..15
    uint64_t namp_nacks_sent = 0, namp_rx_completed = 0, namp_atomic_ops = 0;
    uint64_t namp_raw_refused = 0;  // software raw headers with a NAMP type refused
};

}  // namespace namp
