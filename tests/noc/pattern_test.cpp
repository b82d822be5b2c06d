// Traffic patterns (noc/traffic/pattern.h): the bit permutations give Noxim's partners on a mesh
// whose tile count is a power of two, none for the fixed points, and none outside the mesh.
#include <gtest/gtest.h>

#include "noc/traffic/pattern.h"

namespace {

using noc::traffic::pattern;

std::optional<unsigned> partner(pattern p, unsigned src, unsigned w, unsigned h) {
    noc::traffic::pattern_params params;
    params.width = w;
    params.height = h;
    noc::traffic::deterministic_rng rng(1);
    return noc::traffic::pick_destination(p, src, params, rng);
}

TEST(patterns, bit_reverse_on_sixteen_tiles) {
    EXPECT_EQ(partner(pattern::bit_reverse, 1, 4, 4), 8u);   // 0001 -> 1000
    EXPECT_EQ(partner(pattern::bit_reverse, 3, 4, 4), 12u);  // 0011 -> 1100
    EXPECT_EQ(partner(pattern::bit_reverse, 2, 4, 4), 4u);   // 0010 -> 0100
    EXPECT_FALSE(partner(pattern::bit_reverse, 0, 4, 4));    // its own reverse
    EXPECT_FALSE(partner(pattern::bit_reverse, 6, 4, 4));    // 0110
}

TEST(patterns, shuffle_rotates_left) {
    EXPECT_EQ(partner(pattern::shuffle, 1, 4, 4), 2u);
    EXPECT_EQ(partner(pattern::shuffle, 8, 4, 4), 1u);  // 1000 -> 0001
    EXPECT_EQ(partner(pattern::shuffle, 9, 4, 4), 3u);  // 1001 -> 0011
    EXPECT_FALSE(partner(pattern::shuffle, 15, 4, 4));
}

TEST(patterns, butterfly_swaps_the_outer_bits) {
    EXPECT_EQ(partner(pattern::butterfly, 1, 8, 8), 32u);  // 000001 -> 100000
    EXPECT_EQ(partner(pattern::butterfly, 34, 8, 8), 3u);  // 100010 -> 000011
    EXPECT_FALSE(partner(pattern::butterfly, 33, 8, 8));   // 100001: outer bits equal
}

TEST(patterns, permutations_never_leave_the_mesh) {
    // 3x3: ids 0..8 in four bits; partners 9..15 do not exist
    for (pattern p : {pattern::bit_reverse, pattern::shuffle, pattern::butterfly})
        for (unsigned s = 0; s < 9; ++s)
            if (auto d = partner(p, s, 3, 3)) {
                EXPECT_LT(*d, 9u) << noc::traffic::pattern_name(p) << " from " << s;
                EXPECT_NE(*d, s);
            }
}

TEST(patterns, every_name_parses_back) {
    for (pattern p : noc::traffic::all_patterns)
        EXPECT_EQ(noc::traffic::parse_pattern(noc::traffic::pattern_name(p)), p);
}

}  // namespace
