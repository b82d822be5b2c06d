// Host unit tests of the socket layer's buddy allocator (sw/lib/sock/buddy.c, the firmware source
// compiled for the host).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "sock/buddy.h"

namespace {

struct Buddy {
    std::vector<sock_buddy_block_t> arr;
    sock_buddy_t bd{};
    Buddy(uint32_t space, uint32_t min, uint32_t cap = 4096) : arr(cap) {
        EXPECT_EQ(sock_buddy_init(&bd, space, min, arr.data(), cap), 0);
    }
    struct Got {
        int rc;
        uint32_t off, size;
        uint16_t victim;
    };
    Got alloc(uint16_t owner) {
        Got g{};
        g.rc = sock_buddy_alloc(&bd, owner, &g.off, &g.size, &g.victim);
        return g;
    }
};

TEST(SockBuddy, InitRejectsBadGeometry) {
    sock_buddy_block_t a[4];
    sock_buddy_t bd;
    EXPECT_EQ(sock_buddy_init(&bd, 3000, 32, a, 4), -1);     // space not a power of two
    EXPECT_EQ(sock_buddy_init(&bd, 4096, 48, a, 4), -1);     // chunk not a power of two
    EXPECT_EQ(sock_buddy_init(&bd, 64, 128, a, 4), -1);      // chunk above the space
    EXPECT_EQ(sock_buddy_init(&bd, 1u << 30, 1, a, 4), -1);  // too many levels
    EXPECT_EQ(sock_buddy_init(&bd, 4096, 32, a, 0), -1);     // no room for a block
    EXPECT_EQ(sock_buddy_init(&bd, 4096, 4096, a, 1), 0);    // one level is fine
}

// The seed's sequence: the first connection gets everything, each further one halves the largest.
TEST(SockBuddy, FirstGetsAllThenHalves) {
    Buddy b(8192, 32);
    auto g = b.alloc(1);
    ASSERT_EQ(g.rc, 0);
    EXPECT_EQ(g.off, 0u);
    EXPECT_EQ(g.size, 8192u);
    EXPECT_EQ(g.victim, SOCK_BUDDY_FREE);
    g = b.alloc(2);
    ASSERT_EQ(g.rc, 0);
    EXPECT_EQ(g.off, 4096u);
    EXPECT_EQ(g.size, 4096u);
    EXPECT_EQ(g.victim, 1);
    EXPECT_EQ(sock_buddy_size(&b.bd, 0), 4096u);
    g = b.alloc(3);  // ties: the lowest offset (owner 1) is halved again
    EXPECT_EQ(g.victim, 1);
    EXPECT_EQ(g.off, 2048u);
    EXPECT_EQ(g.size, 2048u);
    g = b.alloc(4);  // now owner 2 holds the largest block
    EXPECT_EQ(g.victim, 2);
    EXPECT_EQ(g.off, 6144u);
    EXPECT_EQ(sock_buddy_check(&b.bd), 0);
    EXPECT_EQ(sock_buddy_free_bytes(&b.bd), 0u);
    EXPECT_EQ(sock_buddy_min_owned(&b.bd), 2048u);
}

// n connections leave the smallest chunk at space / 2^ceil(log2 n), until min_chunk; then the
// space is exhausted, and a close makes room for exactly one more.
TEST(SockBuddy, ExhaustionAndRecovery) {
    const uint32_t space = 8192, min = 32, n = space / min;
    Buddy b(space, min);
    std::vector<uint32_t> offs;
    for (uint32_t i = 0; i < n; ++i) {
        auto g = b.alloc(uint16_t(i));
        ASSERT_EQ(g.rc, 0) << i;
        offs.push_back(g.off);
        uint32_t k = 1;
        while (k < i + 1) k <<= 1;
        EXPECT_EQ(sock_buddy_min_owned(&b.bd), space / k) << i;
        ASSERT_EQ(sock_buddy_check(&b.bd), 0);
    }
    EXPECT_EQ(b.alloc(999).rc, -1);
    EXPECT_EQ(b.alloc(999).rc, -1);
    ASSERT_EQ(sock_buddy_free(&b.bd, offs[17]), 0);
    EXPECT_EQ(sock_buddy_free(&b.bd, offs[17]), -1);  // twice: refused
    auto g = b.alloc(1000);
    ASSERT_EQ(g.rc, 0);
    EXPECT_EQ(g.off, offs[17]);
    EXPECT_EQ(g.victim, SOCK_BUDDY_FREE);
    EXPECT_EQ(b.alloc(1001).rc, -1);
    for (uint32_t i = 0; i < n; ++i) {
        if (i != 17) {
            ASSERT_EQ(sock_buddy_free(&b.bd, offs[i]), 0);
        }
    }
    ASSERT_EQ(sock_buddy_free(&b.bd, offs[17]), 0);
    ASSERT_EQ(b.bd.n, 1u);  // all merged back into one block
    EXPECT_EQ(sock_buddy_free_bytes(&b.bd), space);
}

TEST(SockBuddy, FreeMergesAndGrowthReturnsSpace) {
    Buddy b(4096, 256);
    auto a = b.alloc(1), c = b.alloc(2), d = b.alloc(3);  // 1: [0,1K) 3: [1K,2K) 2: [2K,4K)
    ASSERT_EQ(a.off, 0u);
    ASSERT_EQ(d.off, 1024u);
    ASSERT_EQ(c.off, 2048u);
    ASSERT_EQ(sock_buddy_free(&b.bd, 1024), 0);  // 3 closes
    uint16_t who;
    uint32_t oo, no, ns;
    ASSERT_EQ(sock_buddy_grow(&b.bd, nullptr, nullptr, &who, &oo, &no, &ns), 1);
    EXPECT_EQ(who, 1);
    EXPECT_EQ(oo, 0u);
    EXPECT_EQ(no, 0u);
    EXPECT_EQ(ns, 2048u);
    EXPECT_EQ(sock_buddy_grow(&b.bd, nullptr, nullptr, &who, &oo, &no, &ns), 0);
    ASSERT_EQ(sock_buddy_free(&b.bd, 0), 0);  // 1 closes: 2 (upper half) may move down
    ASSERT_EQ(sock_buddy_grow(&b.bd, nullptr, nullptr, &who, &oo, &no, &ns), 1);
    EXPECT_EQ(who, 2);
    EXPECT_EQ(oo, 2048u);
    EXPECT_EQ(no, 0u);
    EXPECT_EQ(ns, 4096u);
    EXPECT_EQ(sock_buddy_check(&b.bd), 0);
}

TEST(SockBuddy, GrowthVeto) {
    Buddy b(4096, 1024);
    b.alloc(1);
    auto g = b.alloc(2);
    ASSERT_EQ(sock_buddy_free(&b.bd, g.off), 0);
    uint16_t who;
    uint32_t oo, no, ns;
    auto never = [](uint16_t, void *) { return 0; };
    EXPECT_EQ(sock_buddy_grow(&b.bd, never, nullptr, &who, &oo, &no, &ns), 0);
    EXPECT_EQ(sock_buddy_size(&b.bd, 0), 2048u);
    auto g2 = b.alloc(3);  // the free half is taken whole, no split
    EXPECT_EQ(g2.off, 2048u);
    EXPECT_EQ(g2.victim, SOCK_BUDDY_FREE);
}

TEST(SockBuddy, ArrayCapacityBoundsSplits) {
    Buddy b(4096, 32, 3);
    EXPECT_EQ(b.alloc(1).rc, 0);
    EXPECT_EQ(b.alloc(2).rc, 0);
    EXPECT_EQ(b.alloc(3).rc, 0);
    EXPECT_EQ(b.alloc(4).rc, -1);  // would need a fourth block
    EXPECT_EQ(sock_buddy_check(&b.bd), 0);
}

// Random allocations, frees and growth against a model of who owns which bytes.
TEST(SockBuddy, RandomAgainstModel) {
    std::mt19937 rng(23);
    for (int round = 0; round < 20; ++round) {
        const uint32_t min = 16u << (rng() % 4), space = min << (2 + rng() % 7);
        Buddy b(space, min);
        std::map<uint16_t, uint32_t> off_of;  // owner -> offset
        uint16_t next = 0;
        for (int step = 0; step < 2000; ++step) {
            const int op = rng() % 3;
            if (op == 0 || off_of.empty()) {
                auto g = b.alloc(next);
                if (g.rc == 0) {
                    if (g.victim != SOCK_BUDDY_FREE) {
                        ASSERT_TRUE(off_of.count(g.victim));
                        ASSERT_EQ(sock_buddy_size(&b.bd, off_of[g.victim]), g.size);
                        // the victim keeps the lower half
                        ASSERT_EQ(off_of[g.victim] + g.size, g.off);
                    }
                    off_of[next++] = g.off;
                } else {
                    ASSERT_EQ(sock_buddy_free_bytes(&b.bd), 0u);
                    ASSERT_EQ(sock_buddy_min_owned(&b.bd), min);
                    ASSERT_EQ(off_of.size(), space / min);
                }
            } else if (op == 1) {
                auto it = off_of.begin();
                std::advance(it, rng() % off_of.size());
                ASSERT_EQ(sock_buddy_free(&b.bd, it->second), 0);
                off_of.erase(it);
            } else {
                uint16_t who;
                uint32_t oo, no, ns;
                if (sock_buddy_grow(&b.bd, nullptr, nullptr, &who, &oo, &no, &ns)) {
                    ASSERT_EQ(off_of.at(who), oo);
                    off_of[who] = no;
                    ASSERT_EQ(no % ns, 0u);
                }
            }
            ASSERT_EQ(sock_buddy_check(&b.bd), 0);
            uint32_t owned = 0;
            for (auto &kv : off_of) {
                const uint32_t s = sock_buddy_size(&b.bd, kv.second);
                ASSERT_GE(s, min);
                owned += s;
            }
            ASSERT_EQ(owned + sock_buddy_free_bytes(&b.bd), space);
        }
    }
}

}  // namespace
