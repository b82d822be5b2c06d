// Why a NAMP firmware failed on a platform without the NAMP (namp_hint.cpp).
#pragma once
#include <string>

#include "vp/config.h"
#include "vp/firmware.h"

namespace vp {

// "" unless the configuration has no NAMP and a firmware uses the NAMP driver; then a message
// naming the firmware and the presets that have the NAMP.
std::string namp_firmware_hint(const platform_config &config, const firmware_map &firmware,
                               unsigned tiles);

}  // namespace vp
