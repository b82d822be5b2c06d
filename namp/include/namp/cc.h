// NAMP collective communication (NAMP-CC): which collectives this instance has and what a
// collective start or descriptor may hold. The progress of the members is part of the initiator
// (cc_initiator.cpp). docs/namp.md, "Collective communication (CC)".
#pragma once
#include <cstdint>

#include "namp/na_config.h"

namespace namp::cc {

// NA_FEATURE_NAMP_CC_* bits of an instance.
uint32_t features(const na_config::namp_config &m);
// VALID written with NAMP_FLAG_CC: NAMP_ERR_NONE or the code the slot is refused with.
uint32_t validate_start(const na_config::namp_config &m, const na_geometry &geo, uint32_t flags,
                        uint32_t p1, uint32_t p2, uint32_t p3);
// The descriptor header read by the set-up step: NAMP_ERR_NONE or the code the slot fails with.
// flags: the slot's latched mode; size: PARAM3.
uint32_t validate_header(const na_config::namp_config &m, const na_geometry &geo, uint32_t desc,
                         uint32_t kind_word, uint32_t num, uint32_t flags, uint32_t size);

}  // namespace namp::cc
