// NAMP-CC reduction arithmetic (thesis Table 3.28b): the read-modify-write the receiving DMA does
// per element, and the identity an element starts from. Ops and types: namp_cc.h.
#pragma once
#include <cstdint>

namespace namp::cc {

bool reduce_valid(uint32_t op, uint32_t type);
// dst[i] = dst[i] op src[i] for the `bytes / size(type)` elements (little-endian); bytes must be a
// multiple of the type's size.
void reduce_apply(uint32_t op, uint32_t type, uint8_t *dst, const uint8_t *src, uint32_t bytes);
// Fills `bytes` with the op's identity: sum/bor/bxor/lor 0, band all ones, land 1, min the type's
// largest value, max its smallest.
void reduce_identity(uint32_t op, uint32_t type, uint8_t *dst, uint32_t bytes);

// op/type word of a reduction data packet and of the ALLOC_REQ: [7:0] op, [15:8] type
constexpr uint32_t reduce_word(uint32_t op, uint32_t type) {
    return (op & 0xFFu) | ((type & 0xFFu) << 8);
}
constexpr uint32_t reduce_op(uint32_t w) { return w & 0xFFu; }
constexpr uint32_t reduce_type(uint32_t w) { return (w >> 8) & 0xFFu; }

}  // namespace namp::cc
