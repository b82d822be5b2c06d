#include "noc/traffic/pattern.h"

#include <systemc>

namespace noc::traffic {

namespace {
std::optional<unsigned> uniform_other(unsigned src, unsigned tiles, deterministic_rng &rng) {
    if (tiles < 2) return std::nullopt;
    const unsigned r = rng.below(tiles - 1);
    return r >= src ? r + 1 : r;
}

std::optional<unsigned> unless_self(unsigned dst, unsigned src) {
    return dst == src ? std::nullopt : std::optional<unsigned>(dst);
}
}  // namespace

const char *pattern_name(pattern p) {
    switch (p) {
    case pattern::uniform: return "uniform";
    case pattern::transpose: return "transpose";
    case pattern::bit_complement: return "bit_complement";
    case pattern::hotspot: return "hotspot";
    case pattern::nearest_neighbour: return "nearest_neighbour";
    }
    return "invalid";
}

pattern parse_pattern(const std::string &name) {
    for (pattern p : {pattern::uniform, pattern::transpose, pattern::bit_complement, pattern::hotspot,
                      pattern::nearest_neighbour})
        if (name == pattern_name(p)) return p;
    const std::string msg = "unknown traffic pattern '" + name +
                            "' (uniform, transpose, bit_complement, hotspot, nearest_neighbour)";
    SC_REPORT_ERROR("noc/traffic", msg.c_str());
    return pattern::uniform;
}

std::optional<unsigned> pick_destination(pattern p, unsigned src, const pattern_params &params,
                                         deterministic_rng &rng) {
    const unsigned w = params.width, h = params.height, tiles = w * h;
    const unsigned x = src % w, y = src / w;
    switch (p) {
    case pattern::uniform: return uniform_other(src, tiles, rng);
    case pattern::transpose: return unless_self((x % h) * w + (y % w), src);
    case pattern::bit_complement: return unless_self((h - 1 - y) * w + (w - 1 - x), src);
    case pattern::hotspot:
        if (params.hotspot_tile != src && rng.chance(deterministic_rng::threshold_for(params.hotspot_fraction)))
            return params.hotspot_tile;
        return uniform_other(src, tiles, rng);
    case pattern::nearest_neighbour: {
        unsigned candidates[4], n = 0;
        if (y > 0) candidates[n++] = src - w;
        if (x + 1 < w) candidates[n++] = src + 1;
        if (y + 1 < h) candidates[n++] = src + w;
        if (x > 0) candidates[n++] = src - 1;
        if (n == 0) return std::nullopt;
        return candidates[rng.below(n)];
    }
    }
    return std::nullopt;
}

}  // namespace noc::traffic
