/* Small helpers of the network-adapter test firmwares: register access and raw NoC packets. */
#ifndef NA_FW_H
#define NA_FW_H

#include <stdint.h>

#include "hal/hal.h"
#include "na_registers.h"

static inline uint32_t na_rd(uint32_t off) { return mmio_read32(TILE_NA_BASE + off); }
static inline void na_wr(uint32_t off, uint32_t v) { mmio_write32(TILE_NA_BASE + off, v); }

static inline uint32_t na_tile_x(uint32_t tile) { return tile % (na_rd(NA_MESH_SIZE) & 0xFFFFu); }
static inline uint32_t na_tile_y(uint32_t tile) { return tile / (na_rd(NA_MESH_SIZE) & 0xFFFFu); }

/* Sends a packet of 1 + n flits through NoC buffer buf (waits until the buffer is ready). */
static inline void na_send(unsigned buf, uint32_t tile, unsigned type, const uint32_t *payload,
                           unsigned n)
{
    const uint32_t b = NA_NOCBUF_BASE(buf);
    while (!(na_rd(b + NOCBUF_TX_STATUS) & 1u))
        ;
    na_wr(b + NOCBUF_TX_FLIT, NOC_HEADER(na_tile_x(tile), na_tile_y(tile), type, n + 1u));
    for (unsigned i = 0; i < n; i++)
        na_wr(b + NOCBUF_TX_FLIT, payload[i]);
}

static inline int na_rx_waiting(unsigned buf)
{
    return na_rd(NA_NOCBUF_BASE(buf) + NOCBUF_RX_STATUS) & 1u;
}

/* Reads the oldest packet of buffer buf: returns the header, fills up to max payload words, drops
 * the rest; *n gets the payload length. Precondition: na_rx_waiting(buf). */
static inline uint32_t na_recv(unsigned buf, uint32_t *payload, unsigned max, unsigned *n)
{
    const uint32_t b = NA_NOCBUF_BASE(buf);
    uint32_t h = na_rd(b + NOCBUF_RX_FLIT);
    unsigned len = (h >> NOC_HDR_LENGTH_SHIFT) & 63u; /* payload words = length - 1 */
    unsigned i = 0;
    for (; i < len && i < max; i++)
        payload[i] = na_rd(b + NOCBUF_RX_FLIT);
    if (i < len)
        na_wr(b + NOCBUF_RX_DISCARD, 0);
    *n = i;
    return h;
}

static inline uint32_t na_src_tile(uint32_t header)
{
    uint32_t w = na_rd(NA_MESH_SIZE) & 0xFFFFu;
    return ((header >> NOC_HDR_SRC_Y_SHIFT) & 31u) * w + ((header >> NOC_HDR_SRC_X_SHIFT) & 31u);
}

#endif
