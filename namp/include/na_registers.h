/* Network adapter registers, as seen from a tile (offsets inside the 4 MiB window at TILE_NA_BASE,
 * layout of thesis Table 4.1), and the remote-memory-access window. Shared by the VP (C++) and the
 * firmware (C). docs/network-adapter.md describes the behaviour of every register.
 * Any address in the window that is not listed (or belongs to an absent DMA slot) is a bus error. */
#ifndef NA_REGISTERS_H
#define NA_REGISTERS_H

#include <stdint.h>

/* ---- Basic status & configuration: 0x000000 - 0x001fff ---- */
#define NA_STATUS_BASE        0x000000u
#define NA_VERSION            0x000u  /* R: (major << 16) | minor */
#define NA_FEATURES           0x004u  /* R: NA_FEATURE_* bits of this instance */
#define NA_DMA_SLOTS          0x008u  /* R: number of user DMA slots */
#define NA_NAMP_SLOTS         0x00Cu  /* R: number of NAMP slots (0: no NAMP) */
#define NA_TILE_ID            0x010u  /* R: this tile's id (y * width + x) */
#define NA_MAX_PACKET_FLITS   0x014u  /* R: longest NoC packet, header flit included */
#define NA_RX_BUFFER_FLITS    0x018u  /* R: capacity of each NoC receive buffer, in flits */
#define NA_RMA_OUTSTANDING    0x01Cu  /* R: RMA stores sent but not yet acknowledged */
#define NA_RMA_ERRORS         0x020u  /* R: RMA stores the remote tile refused; W: any value clears */
#define NA_MESH_SIZE          0x024u  /* R: (height << 16) | width */
#define NA_STATUS_LAST        0x024u  /* every higher offset of this page is a bus error */

#define NA_FEATURE_NOC_BUFFERS  (1u << 0)
#define NA_FEATURE_DMA          (1u << 1)
#define NA_FEATURE_RMA          (1u << 2)
/* Bits 8.. are reserved for the NAMP features (messages, channels, buffered, CCM, CC, SV, OSQM, PS). */

/* ---- Interrupt controller: 0x002000 - 0x003fff ---- */
#define NA_IRQ_BASE           0x002000u
#define NA_IRQ_PENDING        0x000u  /* R: sources that are active (level); see NA_IRQ_SRC_* */
#define NA_IRQ_MASK           0x004u  /* R/W: 1 = source enabled; the line is (PENDING & MASK) != 0 */
#define NA_IRQ_ACTIVE         0x008u  /* R: PENDING & MASK */

#define NA_IRQ_SRC_RX0        (1u << 0)  /* NoC buffer 0 holds a received packet */
#define NA_IRQ_SRC_RX1        (1u << 1)  /* NoC buffer 1 holds a received packet */
#define NA_IRQ_SRC_DMA        (1u << 2)  /* a DMA slot with IEN set is DONE or ERROR */
#define NA_IRQ_SRC_RMA_ERROR  (1u << 3)  /* NA_RMA_ERRORS is non-zero */

/* ---- NoC buffers: buffer 0 at 0x010000 (control request channel), buffer 1 at 0x012000
 *      (control response channel) ---- */
#define NA_NOCBUF_BASE(n)     (0x010000u + 0x2000u * (n))
#define NA_NOCBUF_COUNT       2u
#define NOCBUF_TX_FLIT        0x00u  /* W: next flit of the packet being sent (header flit first) */
#define NOCBUF_TX_STATUS      0x04u  /* R: bit 0 = ready for a new packet; [15:8] flits still expected */
#define NOCBUF_RX_FLIT        0x08u  /* R: next flit of the oldest received packet (header first);
                                        bus error when no packet is waiting */
#define NOCBUF_RX_STATUS      0x0Cu  /* R: bit 0 = a packet is waiting; [15:8] flits left of it;
                                        [31:16] packets waiting */
#define NOCBUF_RX_DISCARD     0x10u  /* W: drop the rest of the oldest received packet */

/* Header flit (docs/noc.md): fields the software sets when sending through a NoC buffer. The
 * adapter fills in the source and forces the channel of the buffer. */
#define NOC_HDR_DST_X_SHIFT   27u  /* 5 bits */
#define NOC_HDR_DST_Y_SHIFT   22u  /* 5 bits */
#define NOC_HDR_SRC_X_SHIFT   17u  /* 5 bits */
#define NOC_HDR_SRC_Y_SHIFT   12u  /* 5 bits */
#define NOC_HDR_CHANNEL_SHIFT 10u  /* 2 bits */
#define NOC_HDR_LENGTH_SHIFT  4u   /* 6 bits: length - 1, length counts the header flit */
#define NOC_HDR_TYPE_SHIFT    0u   /* 4 bits: free for software (protocol message type) */
#define NOC_HEADER(dst_x, dst_y, type, length) \
    (((uint32_t)(dst_x) << NOC_HDR_DST_X_SHIFT) | ((uint32_t)(dst_y) << NOC_HDR_DST_Y_SHIFT) | \
     ((uint32_t)((length) - 1u) << NOC_HDR_LENGTH_SHIFT) | ((uint32_t)(type) << NOC_HDR_TYPE_SHIFT))

/* ---- DMA slots: slot n at 0x100000 + 0x2000 * n (n < NA_DMA_SLOTS) ---- */
#define NA_DMA_BASE(n)        (0x100000u + 0x2000u * (n))
#define NA_DMA_MAX_SLOTS      128u
#define DMA_LOCAL_ADDR        0x00u  /* R/W: source address in this tile's SRAM (any alignment) */
#define DMA_REMOTE_TILE       0x04u  /* R/W: destination tile id */
#define DMA_REMOTE_ADDR       0x08u  /* R/W: destination address in that tile's SRAM (any alignment) */
#define DMA_SIZE              0x0Cu  /* R/W: bytes to copy (0 completes at once) */
#define DMA_CONTROL           0x10u  /* W: DMA_CTRL_* ; R: last value written */
#define DMA_STATUS            0x14u  /* R: DMA_STAT_* ; W: 1s clear DONE and ERROR */

#define DMA_CTRL_START        (1u << 0)  /* start the transfer (ignored -> ERROR if busy) */
#define DMA_CTRL_IEN          (1u << 2)  /* raise NA_IRQ_SRC_DMA when it completes */
#define DMA_STAT_BUSY         (1u << 0)
#define DMA_STAT_DONE         (1u << 1)  /* completion acknowledged by the remote tile */
#define DMA_STAT_ERROR        (1u << 2)  /* bad parameters, local read failed or remote refused */

/* ---- NAMP slots: 0x200000 + 0x4000 * n (thesis Table 4.1), reserved for the NAMP ---- */
#define NA_NAMP_SLOT_BASE(n)  (0x200000u + 0x4000u * (n))

/* ---- Remote memory access window (in the tile address map, outside the 4 MiB NA window) ----
 * A load or store at RMA_BASE + (tile << 20) + offset reaches byte `offset` of that tile's SRAM
 * (the first 1 MiB of it), one NoC packet per access. Stores are posted (NA_RMA_OUTSTANDING counts
 * them until acknowledged), loads wait for the reply; an access the remote tile refuses is a bus
 * error for loads and counts in NA_RMA_ERRORS for stores. */
#define RMA_BASE              0x60000000u
#define RMA_SIZE              0x10000000u
#define RMA_TILE_SHIFT        20u
#define RMA_ADDRESS(tile, sram_offset) (RMA_BASE + ((uint32_t)(tile) << RMA_TILE_SHIFT) + (sram_offset))

#endif
