// NAMP-CC reduction arithmetic: one element at a time, per type.
#include "namp/cc_reduce.h"

#include <cstring>
#include <limits>
#include <type_traits>

#include "namp_cc.h"

namespace namp::cc {

namespace {

template <typename T>
T combine(uint32_t op, T a, T b) {
    switch (op) {
    case NAMP_CC_OP_SUM:  // wraps (modular, as the cores' add): added unsigned, no signed overflow
        return T(std::make_unsigned_t<T>(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b)));
    case NAMP_CC_OP_MIN: return b < a ? b : a;
    case NAMP_CC_OP_MAX: return b > a ? b : a;
    case NAMP_CC_OP_BAND: return T(a & b);
    case NAMP_CC_OP_BOR: return T(a | b);
    case NAMP_CC_OP_BXOR: return T(a ^ b);
    case NAMP_CC_OP_LAND: return T((a != 0) && (b != 0));
    default: return T((a != 0) || (b != 0));  // NAMP_CC_OP_LOR
    }
}

template <typename T>
T identity(uint32_t op) {
    switch (op) {
    case NAMP_CC_OP_MIN: return std::numeric_limits<T>::max();
    case NAMP_CC_OP_MAX: return std::numeric_limits<T>::min();
    case NAMP_CC_OP_BAND: return T(~T(0));
    case NAMP_CC_OP_LAND: return T(1);
    default: return T(0);
    }
}

// unsigned arithmetic for the wrap of sum, then reinterpreted
template <typename T>
void apply_t(uint32_t op, uint8_t *dst, const uint8_t *src, uint32_t bytes) {
    for (uint32_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
        T a, b;
        std::memcpy(&a, dst + i, sizeof a);
        std::memcpy(&b, src + i, sizeof b);
        const T r = combine<T>(op, a, b);
        std::memcpy(dst + i, &r, sizeof r);
    }
}

template <typename T>
void identity_t(uint32_t op, uint8_t *dst, uint32_t bytes) {
    const T v = identity<T>(op);
    for (uint32_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) std::memcpy(dst + i, &v, sizeof v);
}

}  // namespace

bool reduce_valid(uint32_t op, uint32_t type) { return op < NAMP_CC_OPS && type < NAMP_CC_TYPES; }

void reduce_apply(uint32_t op, uint32_t type, uint8_t *dst, const uint8_t *src, uint32_t bytes) {
    switch (type) {
    case NAMP_CC_T_INT8: return apply_t<int8_t>(op, dst, src, bytes);
    case NAMP_CC_T_INT16: return apply_t<int16_t>(op, dst, src, bytes);
    case NAMP_CC_T_INT32: return apply_t<int32_t>(op, dst, src, bytes);
    case NAMP_CC_T_UINT8: return apply_t<uint8_t>(op, dst, src, bytes);
    case NAMP_CC_T_UINT16: return apply_t<uint16_t>(op, dst, src, bytes);
    default: return apply_t<uint32_t>(op, dst, src, bytes);
    }
}

void reduce_identity(uint32_t op, uint32_t type, uint8_t *dst, uint32_t bytes) {
    switch (type) {
    case NAMP_CC_T_INT8: return identity_t<int8_t>(op, dst, bytes);
    case NAMP_CC_T_INT16: return identity_t<int16_t>(op, dst, bytes);
    case NAMP_CC_T_INT32: return identity_t<int32_t>(op, dst, bytes);
    case NAMP_CC_T_UINT8: return identity_t<uint8_t>(op, dst, bytes);
    case NAMP_CC_T_UINT16: return identity_t<uint16_t>(op, dst, bytes);
    default: return identity_t<uint32_t>(op, dst, bytes);
    }
}

}  // namespace namp::cc
