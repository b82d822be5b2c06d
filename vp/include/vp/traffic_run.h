// namp-vp --traffic (docs/noc.md, "Synthetic traffic in namp-vp"): the platform's mesh alone,
// driven by noc::traffic's generator instead of firmware, with the platform's configuration
// (mesh.*, noc.*, clock_hz, the traffic.* keys) and its statistics, area and energy, so that
// scripts/explore sweeps it like any other workload (injection rate as an axis).
#pragma once
#include <string>

#include "noc/traffic/generator.h"
#include "vp/config.h"

namespace vp {

// The generator's settings from the traffic.* keys; throws config_error for an unknown pattern
// (with the names it knows) or a packet longer than noc.max_packet_flits.
noc::traffic::traffic_config traffic_config_of(const platform_config &c);

// Warm-up, measurement window, drain; writes the statistics to stats_file (if not empty) and,
// unless quiet, a summary on stderr. Returns the exit code: 0 when every packet arrived intact
// and in order, 1 otherwise.
int run_traffic(const platform_config &c, const std::string &stats_file, bool quiet);
// The statistics a --traffic run would write, every counter 0 (namp-vp --traffic --area --stats).
nlohmann::ordered_json traffic_statistics_skeleton(const platform_config &c);

}  // namespace vp
