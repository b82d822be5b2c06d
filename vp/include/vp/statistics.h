// Statistics of a finished run as JSON. Only simulated quantities: the same inputs give a
// bit-identical document (host time and speed are printed in the summary, never stored here).
#pragma once
#include <nlohmann/json.hpp>

#include "vp/platform.h"

namespace vp {

nlohmann::ordered_json collect_statistics(const platform &p);

}  // namespace vp
