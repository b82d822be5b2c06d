/* Driver of the baseline network adapter (docs/network-adapter.md; registers in
 * contract/na_registers.h): status registers, the interrupt controller, the two NoC buffers, the
 * user DMA slots and the RMA window's counters. The NAMP's slots, virtual interfaces and OSQM are
 * sw/lib/namp's. These two drivers are the only firmware that writes the adapter's registers
 * (tests/contract/adapter_writes.py checks it).
 *
 * Every call is one to a few register accesses and most sit on hot paths (the message library's
 * interrupt handler, its send path, the MPI DMA engine), so all are static inline: a call costs
 * what the accesses cost. The driver keeps no state; which DMA slot or NoC buffer belongs to whom
 * is its callers' business. Registers are at TILE_NA_BASE (contract/tile_memory_map.h). */
#ifndef NA_DRIVER_H
#define NA_DRIVER_H

#include <stdint.h>

#include "hal/mmio.h"
#include "na_registers.h"
#include "tile_memory_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status ---- */

/* NA_FEATURE_* bits of this adapter instance (baseline bits 0..2, NAMP bits 8..). */
static inline uint32_t na_features(void) { return mmio_read32(TILE_NA_BASE + NA_FEATURES); }
/* Number of user DMA slots (slot numbers 0 .. n-1). */
static inline uint32_t na_dma_slots(void) { return mmio_read32(TILE_NA_BASE + NA_DMA_SLOTS); }
/* Number of NAMP slots; 0: the adapter has no NAMP. */
static inline uint32_t na_namp_slots(void) { return mmio_read32(TILE_NA_BASE + NA_NAMP_SLOTS); }
/* Longest NoC packet in flits, the header flit included. */
static inline uint32_t na_max_packet_flits(void)
{
    return mmio_read32(TILE_NA_BASE + NA_MAX_PACKET_FLITS);
}

/* ---- interrupt controller (NA_IRQ_SRC_* bits) ---- */

/* Sources that are active and enabled (PENDING & MASK). */
static inline uint32_t na_irq_active(void)
{
    return mmio_read32(TILE_NA_BASE + NA_IRQ_BASE + NA_IRQ_ACTIVE);
}
static inline uint32_t na_irq_mask(void)
{
    return mmio_read32(TILE_NA_BASE + NA_IRQ_BASE + NA_IRQ_MASK);
}
/* Replaces the mask: the line is (PENDING & mask) != 0. */
static inline void na_irq_set_mask(uint32_t mask)
{
    mmio_write32(TILE_NA_BASE + NA_IRQ_BASE + NA_IRQ_MASK, mask);
}
/* Enables `sources` beside those already enabled (read-modify-write: callers that share the
 * controller with an interrupt handler call it with interrupts off). */
static inline void na_irq_enable(uint32_t sources) { na_irq_set_mask(na_irq_mask() | sources); }
/* Routes the adapter's line to `core` of this tile (its MEIP); a core the tile lacks is refused
 * by the hardware (the register keeps its value). */
static inline void na_irq_set_target(uint32_t core)
{
    mmio_write32(TILE_NA_BASE + NA_IRQ_BASE + NA_IRQ_TARGET, core);
}

/* ---- NoC buffers: raw packets on the control channels (0: requests, 1: responses) ----
 * A packet is sent as its header flit (NOC_HEADER) followed by the payload flits; one is received
 * flit by flit, header first. The caller keeps other senders of the same buffer out (interrupts
 * off) while it writes a packet. */

/* 1 if buffer b can take a new packet. */
static inline uint32_t na_nocbuf_tx_ready(unsigned b)
{
    return mmio_read32(TILE_NA_BASE + NA_NOCBUF_BASE(b) + NOCBUF_TX_STATUS) & 1u;
}
/* Writes the next flit of the packet being sent (the header flit first). */
static inline void na_nocbuf_tx(unsigned b, uint32_t flit)
{
    mmio_write32(TILE_NA_BASE + NA_NOCBUF_BASE(b) + NOCBUF_TX_FLIT, flit);
}
/* 1 if a received packet waits in buffer b. */
static inline uint32_t na_nocbuf_rx_waiting(unsigned b)
{
    return mmio_read32(TILE_NA_BASE + NA_NOCBUF_BASE(b) + NOCBUF_RX_STATUS) & 1u;
}
/* Next flit of the oldest received packet (header first); a bus error when none waits. */
static inline uint32_t na_nocbuf_rx(unsigned b)
{
    return mmio_read32(TILE_NA_BASE + NA_NOCBUF_BASE(b) + NOCBUF_RX_FLIT);
}
/* Drops the rest of the oldest received packet. */
static inline void na_nocbuf_rx_discard(unsigned b)
{
    mmio_write32(TILE_NA_BASE + NA_NOCBUF_BASE(b) + NOCBUF_RX_DISCARD, 1u);
}

/* ---- user DMA slots: copy local SRAM into another tile's SRAM (RDMA put) ---- */

#define NA_DMA_FINISHED (DMA_STAT_DONE | DMA_STAT_ERROR)

/* Starts slot `slot` copying `size` bytes from `src` (this tile) to `dst` in tile `tile` (any
 * alignment; START clears the slot's DONE and ERROR). irq != 0: NA_IRQ_SRC_DMA while it is
 * finished, until na_dma_take / na_dma_clear. A busy slot refuses (ERROR; the running transfer
 * goes on). */
static inline void na_dma_start(uint32_t slot, const void *src, uint32_t tile, uint32_t dst,
                                uint32_t size, int irq)
{
    const uintptr_t d = TILE_NA_BASE + NA_DMA_BASE(slot);
    mmio_write32(d + DMA_LOCAL_ADDR, (uint32_t)(uintptr_t)src);
    mmio_write32(d + DMA_REMOTE_TILE, tile);
    mmio_write32(d + DMA_REMOTE_ADDR, dst);
    mmio_write32(d + DMA_SIZE, size);
    mmio_write32(d + DMA_CONTROL, irq ? DMA_CTRL_START | DMA_CTRL_IEN : DMA_CTRL_START);
}
/* DMA_STAT_* of the slot (BUSY while it runs; DONE, or DONE and ERROR, once the remote tile
 * acknowledged or refused). */
static inline uint32_t na_dma_status(uint32_t slot)
{
    return mmio_read32(TILE_NA_BASE + NA_DMA_BASE(slot) + DMA_STATUS);
}
/* Clears the given NA_DMA_FINISHED bits (which ends the slot's interrupt). */
static inline void na_dma_clear(uint32_t slot, uint32_t bits)
{
    mmio_write32(TILE_NA_BASE + NA_DMA_BASE(slot) + DMA_STATUS, bits & NA_DMA_FINISHED);
}
/* 0 while the slot runs; once it has finished, its DONE / ERROR bits, cleared in the slot. */
static inline uint32_t na_dma_take(uint32_t slot)
{
    const uint32_t st = na_dma_status(slot) & NA_DMA_FINISHED;
    if (st)
        na_dma_clear(slot, st);
    return st;
}
/* A whole copy through `slot`, polled: 0 done, -1 refused (bad range, remote refusal). */
static inline int na_dma_copy(uint32_t slot, const void *src, uint32_t tile, uint32_t dst,
                              uint32_t size)
{
    na_dma_start(slot, src, tile, dst, size, 0);
    uint32_t st;
    while ((st = na_dma_take(slot)) == 0)
        ;
    return (st & DMA_STAT_ERROR) ? -1 : 0;
}

/* ---- RMA window (RMA_ADDRESS: loads and stores of another tile's SRAM) ----
 * Stores are posted; these count them. */

/* Stores sent and not yet acknowledged. */
static inline uint32_t na_rma_outstanding(void)
{
    return mmio_read32(TILE_NA_BASE + NA_RMA_OUTSTANDING);
}
/* Stores a remote tile refused since the last na_rma_errors_clear. */
static inline uint32_t na_rma_errors(void) { return mmio_read32(TILE_NA_BASE + NA_RMA_ERRORS); }
static inline void na_rma_errors_clear(void) { mmio_write32(TILE_NA_BASE + NA_RMA_ERRORS, 0); }
/* Waits until every store is acknowledged; returns na_rma_errors() then (0: all arrived). */
static inline uint32_t na_rma_drain(void)
{
    while (na_rma_outstanding() != 0)
        ;
    return na_rma_errors();
}

#ifdef __cplusplus
}
#endif
#endif
