// NAMP-CC feature bits and the checks of a collective start and of its descriptor header.
#include "namp/cc.h"

#include "namp/cc_reduce.h"
#include "namp_cc.h"

namespace namp::cc {

uint32_t features(const na_config::namp_config &m) {
    uint32_t f = 0;
    if (m.cc_multicast) f |= NA_FEATURE_NAMP_CC_MCAST;
    if (m.cc_scattergather) f |= NA_FEATURE_NAMP_CC_SG;
    if (m.cc_reduction) f |= NA_FEATURE_NAMP_CC_RED;
    return f;
}

// Order as for point-to-point starts: absent hardware first, then flag combinations, then
// parameters that cannot be right whatever the memory holds.
uint32_t validate_start(const na_config::namp_config &m, const na_geometry &geo, uint32_t flags,
                        uint32_t p1, uint32_t p2, uint32_t p3) {
    if (!features(m)) return NAMP_ERR_MODE_UNSUPPORTED;
    const bool con = flags & NAMP_FLAG_CON;
    if (con && !m.channels) return NAMP_ERR_MODE_UNSUPPORTED;
    if (!con && !m.messages) return NAMP_ERR_MODE_UNSUPPORTED;
    // a collective sends from a plain data range: no credit mode, no send buffer, no CCM
    if (flags & (NAMP_FLAG_COM | NAMP_FLAG_BUF | NAMP_FLAG_CCM)) return NAMP_ERR_INVALID_FLAGS;
    if ((p1 & 3) || !geo.in_sram(p1, NAMP_CC_HEADER)) return NAMP_ERR_BAD_PARAM;
    if (p3 != 0 && !geo.in_sram(p2, p3)) return NAMP_ERR_BAD_PARAM;
    return NAMP_ERR_NONE;
}

uint32_t validate_header(const na_config::namp_config &m, const na_geometry &geo, uint32_t desc,
                         uint32_t kind_word, uint32_t num, uint32_t flags, uint32_t size) {
    switch (kind_word & 0xFFu) {
    case NAMP_CC_K_MULTICAST:
        if (!m.cc_multicast) return NAMP_ERR_MODE_UNSUPPORTED;
        break;
    case NAMP_CC_K_SCATTER:
        if (!m.cc_scattergather) return NAMP_ERR_MODE_UNSUPPORTED;
        if (!(flags & NAMP_FLAG_CON)) return NAMP_ERR_INVALID_FLAGS;  // connection-oriented
        if ((kind_word >> 16) == 0) return NAMP_ERR_BAD_PARAM;        // count
        break;
    case NAMP_CC_K_GATHER:
        if (!m.cc_scattergather) return NAMP_ERR_MODE_UNSUPPORTED;
        if (!(flags & NAMP_FLAG_CON)) return NAMP_ERR_INVALID_FLAGS;  // connection-oriented
        if ((kind_word >> 16) == 0 || ((kind_word >> 8) & 0xFFu) >= NAMP_CC_MAX_PARTS || num != 1 ||
            !geo.in_sram(desc, NAMP_CC_GATHER_DESC_SIZE))
            return NAMP_ERR_BAD_PARAM;
        break;
    case NAMP_CC_K_REDUCE: {
        if (!m.cc_reduction) return NAMP_ERR_MODE_UNSUPPORTED;
        // one contribution, connection-less (several senders share the receiving element)
        if (flags & NAMP_FLAG_CON) return NAMP_ERR_INVALID_FLAGS;
        const uint32_t op = (kind_word >> 8) & 0xFFu, type = (kind_word >> 16) & 0xFFu;
        if (!reduce_valid(op, type) || num != 1 || size % NAMP_CC_TYPE_BYTES(type))
            return NAMP_ERR_BAD_PARAM;
        break;
    }
    default: return NAMP_ERR_BAD_PARAM;
    }
    if (num == 0 || num > NAMP_CC_MAX_MEMBERS) return NAMP_ERR_BAD_PARAM;
    if (!geo.in_sram(desc, NAMP_CC_SIZE(num))) return NAMP_ERR_BAD_PARAM;
    return NAMP_ERR_NONE;
}

}  // namespace namp::cc
