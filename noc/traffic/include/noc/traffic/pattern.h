// Synthetic traffic patterns: which tile a source sends its next packet to.
#pragma once
#include <optional>
#include <string>

#include "noc/traffic/rng.h"

namespace noc::traffic {

enum class pattern {
    uniform,
    transpose,
    bit_complement,
    hotspot,
    nearest_neighbour,
    bit_reverse,
    shuffle,
    butterfly
};
constexpr pattern all_patterns[] = {
    pattern::uniform,           pattern::transpose,   pattern::bit_complement, pattern::hotspot,
    pattern::nearest_neighbour, pattern::bit_reverse, pattern::shuffle,        pattern::butterfly};

const char *pattern_name(pattern p);
// Accepts the names pattern_name() returns; reports an SC_REPORT_ERROR for anything else.
pattern parse_pattern(const std::string &name);

struct pattern_params {
    unsigned width = 4, height = 4;
    double hotspot_fraction = 0.2;  // hotspot: share of packets sent to the hotspot tile
    unsigned hotspot_tile = 0;      // tile id (y * width + x)
};

// Destination of the next packet from tile `src`; nothing when the pattern gives this source no
// partner (transpose on the diagonal, bit complement of the centre tile, a 1x1 mesh).
//   uniform            any other tile, equally likely
//   transpose          (x, y) -> (y mod W, x mod H)
//   bit_complement     (x, y) -> (W-1-x, H-1-y)
//   hotspot            the hotspot tile with probability hotspot_fraction, otherwise uniform
//   nearest_neighbour  one of the (up to four) adjacent tiles, equally likely
//   bit_reverse        the tile id's b bits reversed (b = bits of the largest id, as Noxim)
//   shuffle            the b bits rotated left by one
//   butterfly          the most and least significant of the b bits swapped
// The bit permutations give no partner where the result is the source or outside the mesh (a
// mesh whose tile count is not a power of two leaves those sources idle).
std::optional<unsigned> pick_destination(pattern p, unsigned src, const pattern_params &params,
                                         deterministic_rng &rng);

}  // namespace noc::traffic
