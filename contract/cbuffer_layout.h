/* Layout of the lock-free multi-producer / multi-consumer circular message buffer (thesis Listing
 * 4.1, sections 3.2.4.1 and 4.2.2). The same bytes are read and written by the firmware (the
 * algorithms: sw/lib/mp/include/mp/cbuffer.h) and by the NAMP hardware model; plain C with
 * fixed-width fields so that the VP includes it too.
 *
 * Byte layout of one buffer (little-endian 32-bit words, descriptor 4-byte aligned):
 *
 *   +0x00  capacity_log2   n: the buffer holds 2^n messages (0 <= n <= 16)
 *   +0x04  max_msg_log2    m: each message slot has 2^m bytes (2 <= m <= 20)
 *   +0x08  wr_idx          next write index (32-bit counter, wraps at 2^32)
 *   +0x0C  rd_idx          next read index  (32-bit counter, wraps at 2^32)
 *   +0x10  size_offset     byte offset from the descriptor to the size array (2^n words)
 *   +0x14  data_offset     byte offset from the descriptor to the data block (2^n * 2^m bytes)
 *   +0x18  voids          void elements consumers skipped (wraps; channels return their credits)
 *   +0x1C  reserved (0)
 *   +0x20  size[0 .. 2^n-1]   (mp_cbuffer_init places it here)
 *   ...    data[0 .. 2^n-1][2^m]
 *
 * Offsets instead of pointers keep the layout identical on the 32-bit target and a 64-bit host;
 * the address of an element is descriptor + offset (tile-local address on the target).
 *
 * Indices (tagged-index scheme of section 4.2.2): wr_idx and rd_idx count every reservation up to
 * 2^32 and wrap; only the low n bits address a slot (slot = idx & (2^n - 1)), the high bits are a
 * tag. A compare-and-swap on an index therefore only succeeds if no other party has moved it by a
 * multiple of 2^n in between (ABA needs 2^32 operations, not 2^n).
 *
 * Slot state is the size word: 0 = free; MP_CB_COMMITTED | bytes = a complete message;
 * MP_CB_COMMITTED | MP_CB_VOID = an element a producer gave up after reserving it (the NAMP does so
 * when a transfer fails after later elements were taken); mp_cbuffer_read skips it. A producer
 * reserves (CAS on wr_idx), writes the data, commits (stores the size word). A consumer reads (CAS
 * on rd_idx over a committed slot), uses the data in place, frees (stores 0). The buffer is empty
 * when rd_idx == wr_idx or the slot at rd_idx is not committed yet; full when wr_idx - rd_idx ==
 * 2^n or the slot at wr_idx is still held by a consumer that has not freed it. */
#ifndef CBUFFER_LAYOUT_H
#define CBUFFER_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MP_CB_COMMITTED    0x80000000u /* set in a size word when the message is complete */
/* with COMMITTED: the element holds no message (a
 * failed hardware transfer); consumers skip it */
#define MP_CB_VOID         0x40000000u
#define MP_CB_SIZE_MASK    0x3FFFFFFFu
#define MP_CB_HEADER_SIZE  32u
#define MP_CB_MAX_CAP_LOG2 16u
#define MP_CB_MIN_MSG_LOG2 2u
#define MP_CB_MAX_MSG_LOG2 20u

/* Field offsets, for hardware models and assembly. */
#define MP_CB_OFF_CAPACITY 0x00u
#define MP_CB_OFF_MAXMSG   0x04u
#define MP_CB_OFF_WR_IDX   0x08u
#define MP_CB_OFF_RD_IDX   0x0Cu
#define MP_CB_OFF_SIZE_OFS 0x10u
#define MP_CB_OFF_DATA_OFS 0x14u
#define MP_CB_OFF_VOIDS    0x18u

typedef struct mp_cbuffer {
    uint32_t capacity_log2;
    uint32_t max_msg_log2;
    volatile uint32_t wr_idx;
    volatile uint32_t rd_idx;
    uint32_t size_offset;
    uint32_t data_offset;
    volatile uint32_t voids;
    uint32_t reserved;
} mp_cbuffer_t;

/* Bytes needed for a buffer of 2^n messages of at most 2^m bytes (descriptor included). */
static inline size_t mp_cbuffer_footprint(uint32_t n, uint32_t m)
{
    return MP_CB_HEADER_SIZE + ((size_t)4u << n) + ((size_t)1u << (n + m));
}

/* Where the parts of a buffer lie: the address arithmetic both sides use. */
static inline uint32_t mp_cbuffer_capacity(const mp_cbuffer_t *b) { return 1u << b->capacity_log2; }
static inline uint32_t mp_cbuffer_slot_bytes(const mp_cbuffer_t *b)
{
    return 1u << b->max_msg_log2;
}
static inline uint32_t mp_cbuffer_slot_of(const mp_cbuffer_t *b, uint32_t idx)
{
    return idx & ((1u << b->capacity_log2) - 1u);
}
static inline volatile uint32_t *mp_cbuffer_sizes(mp_cbuffer_t *b)
{
    return (volatile uint32_t *)((uint8_t *)b + b->size_offset);
}
/* Data of the slot that index idx (any tag) addresses. */
static inline uint8_t *mp_cbuffer_data(mp_cbuffer_t *b, uint32_t idx)
{
    return (uint8_t *)b + b->data_offset + ((size_t)mp_cbuffer_slot_of(b, idx) << b->max_msg_log2);
}
/* Size in bytes of a read (or committed) message. */
static inline uint32_t mp_cbuffer_size(mp_cbuffer_t *b, uint32_t idx)
{
    return mp_cbuffer_sizes(b)[mp_cbuffer_slot_of(b, idx)] & MP_CB_SIZE_MASK;
}

#ifdef __cplusplus
}
#endif
#endif
