// A seeded random source whose outputs are identical on every standard library: std::mt19937 is
// fully specified by the standard, and the mappings below use integer arithmetic only (the
// std::*_distribution templates are implementation-defined).
#pragma once
#include <cstdint>
#include <random>

namespace noc::traffic {

class deterministic_rng {
public:
    explicit deterministic_rng(uint32_t seed) : engine_(seed) {}
    uint32_t next() { return static_cast<uint32_t>(engine_()); }
    // Uniform in [0, n) by multiply-shift (n <= 2^32).
    uint32_t below(uint32_t n) { return static_cast<uint32_t>((uint64_t(next()) * n) >> 32); }
    // True with probability threshold / 2^32.
    bool chance(uint64_t threshold) { return next() < threshold; }
    // Threshold for chance() that gives probability p (clamped to [0, 1]).
    static uint64_t threshold_for(double p) {
        if (p <= 0.0) return 0;
        if (p >= 1.0) return uint64_t(1) << 32;
        return static_cast<uint64_t>(p * 4294967296.0);
    }

private:
    std::mt19937 engine_;
};

}  // namespace noc::traffic
