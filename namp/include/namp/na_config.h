// Parameters of one network adapter (filled by the platform from the na.* configuration keys).
// docs/network-adapter.md explains every cost.
#pragma once
#include <cstdint>

namespace namp {

struct na_config {
    unsigned rx_buffer_flits = 128;   // capacity of each NoC receive buffer (buffers 0 and 1)
    unsigned dma_slots = 2;           // user DMA slots, 1..128
    unsigned irq_core = 0;            // core whose MEIP the adapter drives
    unsigned register_latency = 2;    // cycles per register access of a core
    unsigned packet_cycles = 4;       // target: cycles to process one incoming data-request packet
    unsigned dma_setup_cycles = 8;    // initiator: once per DMA transfer, before its first packet
    unsigned dma_packet_cycles = 2;   // initiator: per DMA data packet (building the header)
    unsigned rma_issue_cycles = 2;    // initiator: building one RMA request packet
    unsigned dma_contexts = 4;        // data engine: transfers in progress at once, 1..64
    unsigned dma_fifo_packets = 2;    // data engine: packets read ahead per context, 1..16
    unsigned target_queue_flits = 0;  // data-request input queue; 0 = 2 * max_packet_flits
    unsigned fault_dma_every = 0;     // fault injection: refuse every n-th DMA data packet (0: off)

    // NAMP (docs/namp.md). Disabled by default: no slots, no NAMP status registers, header type
    // NAMP_NOC_TYPE on the control channels stays an ordinary software packet.
    struct namp_config {
        bool enabled = false;
        unsigned slots = 8;                                                  // SLOTS_PHYS, 1..128
        bool messages = true, channels = true, buffered = true, ccm = true;  // features
        // collective communication (docs/namp.md "Collective communication"), off by default
        bool cc_multicast = false, cc_scattergather = false, cc_reduction = false;
        unsigned cc_reduce_word_cycles = 1;  // receiving DMA: arithmetic per 32-bit word reduced
        bool cc_gather_packing = true;       // gather DMA packs small chunks (false: plain only)
        bool atomics = true;                 // target uses atomic RMW bus accesses
        unsigned arbitration = 0;            // NAMP_ARB_* reset value
        unsigned retry_cycles = 64;        // first NACK back-off; CCM empty-send-buffer poll period
        unsigned retry_max_cycles = 8192;  // back-off limit (doubles per NACK up to it; the knee of
                                           // scripts/sweeps/retry-backoff.yaml)
        bool rx_count_gating = true;       // RX_COUNT counts only endpoints with the notify flag
        unsigned start_cycles = 2;         // VALID 0->1: validation before the slot is READY
        unsigned setup_cycles = 4;         // egress: set-up step (plus handle/buffer bus reads)
        unsigned message_cycles = 2;       // building one protocol message
        unsigned data_setup_cycles = 4;    // egress: starting the internal DMA of a data phase
        unsigned finalize_cycles = 2;      // egress: completion step (plus bus writes)
        unsigned ingress_cycles = 2;       // ingress: applying one response / DMA completion
        unsigned target_cycles = 4;  // target: serving one protocol message (plus bus accesses)
        unsigned slots_virt = 0;     // NAMP-SV: the highest slots_virt slots have a vif (vif.h)
        unsigned vif_cycles = 2;     // NAMP-SV: VALID written to a vif -> table reads start
        unsigned window_cycles = 1;  // SV guard: bounds compare of a guarded set-up / target access
        unsigned identity_cycles = 1;  // namp.identity: the ID or member-key compare in the target
        bool osqm = false;             // HW-OSQM (osqm.h)
        bool ps = false;               // NAMP-PS: protection switching (namp_ps.h)
        bool identity = false;     // endpoint identity and collective membership (namp_structs.h)
        unsigned osqm_cycles = 2;  // HW-OSQM: one insertion step (plus its bus accesses)
        unsigned osqm_retry_cycles = 16;  // HW-OSQM: back-off while the OS lock is held
        // HW-OSQM design-time parameters (thesis 4.2.3.4): reset values of the OS-specific items
        // of the configuration page; osqm_static fixes them (a write of another value is refused).
        bool osqm_static = false;
        unsigned osqm_type = 1;                     // OSQM_TYPE: 0 single, 1 double linked
        unsigned osqm_dir = 0;                      // OSQM_DIR: 0 back, 1 front
        unsigned osqm_q_head = 0, osqm_q_tail = 4;  // Q_LAYOUT offsets (bytes)
        unsigned osqm_e_next = 0, osqm_e_prev = 4;  // E_LAYOUT offsets (bytes)
        bool osqm_bitmap = false;                   // OSQM_MODE_BITMAP at reset
        bool osqm_wakeup = false;                   // OSQM_MODE_WAKEUP at reset
        bool osqm_ready_flag = false;               // OSQM_MODE_READY_FLAG at reset
    } namp;
};

// What the adapter must know about its tile and the mesh.
struct na_geometry {
    unsigned tile_id = 0, x = 0, y = 0;
    unsigned mesh_width = 1, mesh_height = 1;
    uint32_t sram_base = 0x80000000u, sram_size = 1u << 20;
    unsigned max_packet_flits = 32;  // of the NoC, header included
    unsigned cores = 1;              // of the tile: one interrupt line each (NA_IRQ_TARGET)
    // [addr, addr + len) lies in the tile's SRAM (64-bit end: no wrap-around)
    bool in_sram(uint32_t addr, uint64_t len) const {
        return addr >= sram_base && uint64_t(addr) + len <= uint64_t(sram_base) + sram_size;
    }
};

}  // namespace namp
