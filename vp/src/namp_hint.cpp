// A NAMP firmware on a configuration without the NAMP fails inside the firmware (its library
// reports MCAPI_ERR_NOT_SUPPORTED or similar); the VP knows why and says which presets have it.
#include "vp/namp_hint.h"

namespace vp {

std::string namp_firmware_hint(const platform_config &config, const firmware_map &firmware,
                               unsigned tiles) {
    if (config.na_enabled && config.na.namp.enabled) return "";
    std::string elf;
    for (unsigned t = 0; t < tiles && elf.empty(); ++t) {
        const firmware_image *image = firmware.for_tile(t);
        uint32_t unused;
        // namp_done_mask is defined by the NAMP driver (sw/lib/namp): the firmware drives a NAMP.
        if (image && image->symbol("namp_done_mask", unused)) elf = image->path();
    }
    if (elf.empty()) return "";
    std::string presets;
    for (const preset &p : config_presets()) {
        const auto &s = p.settings;
        if (s.contains("namp") && s["namp"].value("enabled", false))
            presets += (presets.empty() ? "" : ", ") + p.name;
    }
    return elf + " drives the NAMP, but this configuration has none (" +
           (config.na_enabled ? "namp.enabled" : "na.enabled") +
           " is false): run it with a preset that has the NAMP: " + presets;
}

}  // namespace vp
