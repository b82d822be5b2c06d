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

// Bits of the largest tile id.
unsigned id_bits(unsigned tiles) {
    unsigned b = 0;
    while ((1u << b) < tiles) ++b;
    return b;
}

std::optional<unsigned> permuted(unsigned dst, unsigned src, unsigned tiles) {
    return dst >= tiles ? std::nullopt : unless_self(dst, src);
}
}  // namespace

const char *pattern_name(pattern p) {
    switch (p) {
    case pattern::uniform: return "uniform";
    case pattern::transpose: return "transpose";
    case pattern::bit_complement: return "bit_complement";
    case pattern::hotspot: return "hotspot";
    case pattern::nearest_neighbour: return "nearest_neighbour";
    case pattern::bit_reverse: return "bit_reverse";
    case pattern::shuffle: return "shuffle";
    case pattern::butterfly: return "butterfly";
    }
    return "invalid";
}

pattern parse_pattern(const std::string &name) {
    std::string known;
    for (pattern p : all_patterns) {
        if (name == pattern_name(p)) return p;
        known += (known.empty() ? "" : ", ") + std::string(pattern_name(p));
    }
    const std::string msg = "unknown traffic pattern '" + name + "' (" + known + ")";
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
        if (params.hotspot_tile != src &&
            rng.chance(deterministic_rng::threshold_for(params.hotspot_fraction)))
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
    case pattern::bit_reverse: {
        const unsigned b = id_bits(tiles);
        unsigned d = 0;
        for (unsigned i = 0; i < b; ++i) d |= ((src >> i) & 1u) << (b - 1 - i);
        return permuted(d, src, tiles);
    }
    case pattern::shuffle: {
        const unsigned b = id_bits(tiles);
        if (b == 0) return std::nullopt;
        return permuted(((src << 1) | (src >> (b - 1))) & ((1u << b) - 1u), src, tiles);
    }
    case pattern::butterfly: {
        const unsigned b = id_bits(tiles);
        if (b < 2) return std::nullopt;
        const unsigned lo = src & 1u, hi = (src >> (b - 1)) & 1u;
        const unsigned d = (src & ~(1u | (1u << (b - 1)))) | (lo << (b - 1)) | hi;
        return permuted(d, src, tiles);
    }
    }
    return std::nullopt;
}

}  // namespace noc::traffic
