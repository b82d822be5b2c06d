// Counters of one network adapter (docs/statistics.md).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "namp_structs.h"

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
    uint64_t rma_served = 0;  // RMA accesses this adapter performed for other tiles
    uint64_t register_accesses = 0, bus_errors = 0;

    uint64_t dma_packets = 0;  // data packets the data engine injected (user and NAMP)
    uint64_t dma_payload_bytes =
        0;  // their data bytes (user and NAMP; the energy model's DMA words)
    uint64_t dma_contexts_started = 0;  // transfers that got a DMA context
    uint64_t dma_read_errors = 0;       // transfers ended by a local read error
    uint64_t dma_faults_injected = 0;   // DMA data packets refused by na.fault_dma_every

    // NAMP (zero when disabled); per-slot counters are in namp::slot
    uint64_t namp_egress_steps = 0, namp_ingress_steps = 0, namp_target_steps = 0;
    std::array<uint64_t, NAMP_MSG_TYPES> namp_msgs_sent{},
        namp_msgs_received{};  // per sub-type (0: unknown)
    uint64_t namp_nacks_sent = 0, namp_rx_completed = 0;
    uint64_t namp_voided = 0;       // elements committed VOID for failed transfers (target)
    uint64_t namp_dropped = 0;      // messages dropped: unknown sub-type, endpoint gone
    uint64_t namp_raw_refused = 0;  // software raw headers with the NAMP type refused
    // SV isolation (docs/namp.md "SV isolation")
    uint64_t namp_window_refusals = 0;  // target: guarded-endpoint accesses outside the window
    uint64_t namp_credit_refused = 0;   // target: CREDITs for no connected channel handle
    uint64_t namp_credit_nacks = 0;     // initiator: CREDIT_NACKs received
    // identity and membership (namp.identity, docs/security.md)
    uint64_t namp_identity_refusals = 0;  // target: messages whose endpoint/handle ID did not match
    uint64_t namp_member_refusals = 0;    // target: contributions the root's member table refused
    // NAMP-PS (docs/namp.md "NAMP-PS")
    uint64_t namp_relocations = 0;  // initiator: NAK_RELOCs applied to a handle
    uint64_t namp_ps_applied = 0;   // initiator: RELOC / MIGRATE applied to a local handle
    uint64_t namp_ps_refused = 0;   // RELOC / MIGRATE refused (no PS, not a channel handle, ...)
    uint64_t namp_shadow_transfers = 0;  // dualcast copies written to a new location
    uint64_t namp_shadow_errors = 0;     // dualcast copies that failed (the original is unaffected)
};

}  // namespace namp
