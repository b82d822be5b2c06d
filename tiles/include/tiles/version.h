#pragma once
#include <cstdint>

namespace tiles {
// Platform version visible to firmware in the tile information block: (major << 16) | minor.
constexpr uint32_t platform_version = (0u << 16) | 1u;
}  // namespace tiles
