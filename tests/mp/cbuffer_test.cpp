// Host tests of the lock-free circular buffer (sw/lib/mp/cbuffer.c, compiled for the host).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "mp/cbuffer.h"
#include "mp/copy.h"

namespace {

struct buffer {
    std::vector<uint64_t> mem;
    mp_cbuffer_t *cb;
    buffer(uint32_t n, uint32_t m, uint32_t start = 0) : mem(mp_cbuffer_footprint(n, m) / 8 + 1) {
        EXPECT_EQ(mp_cbuffer_init(mem.data(), n, m, start), 0);
        cb = reinterpret_cast<mp_cbuffer_t *>(mem.data());
    }
};

TEST(cbuffer, layout_is_fixed) {
    EXPECT_EQ(sizeof(mp_cbuffer_t), 32u);
    EXPECT_EQ(offsetof(mp_cbuffer_t, wr_idx), MP_CB_OFF_WR_IDX);
    EXPECT_EQ(offsetof(mp_cbuffer_t, rd_idx), MP_CB_OFF_RD_IDX);
    EXPECT_EQ(offsetof(mp_cbuffer_t, data_offset), MP_CB_OFF_DATA_OFS);
    buffer b(3, 6);
    EXPECT_EQ(b.cb->size_offset, 32u);
    EXPECT_EQ(b.cb->data_offset, 32u + 4 * 8);
    EXPECT_EQ(mp_cbuffer_footprint(3, 6), 32u + 32 + 8 * 64);
    EXPECT_EQ(mp_cbuffer_data(b.cb, 9) - mp_cbuffer_data(b.cb, 0), 64);  // index 9 -> slot 1
    EXPECT_NE(mp_cbuffer_init(b.mem.data(), 17, 6, 0), 0);
    EXPECT_NE(mp_cbuffer_init(b.mem.data(), 2, 1, 0), 0);
}

TEST(cbuffer, empty_full_and_fifo_order) {
    buffer b(2, 4);  // 4 messages of 16 bytes
    uint32_t v, size, idx;
    EXPECT_EQ(mp_cbuffer_pop(b.cb, &v, 4, &size), -1);
    EXPECT_EQ(mp_cbuffer_ready(b.cb), 0);
    for (uint32_t i = 0; i < 4; ++i) ASSERT_EQ(mp_cbuffer_push(b.cb, &i, 4), 0);
    EXPECT_EQ(mp_cbuffer_push(b.cb, &v, 4), -1);  // full
    EXPECT_EQ(mp_cbuffer_reserve(b.cb, &idx), -1);
    EXPECT_EQ(mp_cbuffer_used(b.cb), 4u);
    uint8_t big[17] = {};
    EXPECT_EQ(mp_cbuffer_push(b.cb, big, 17), -2);  // larger than a slot
    for (uint32_t i = 0; i < 4; ++i) {
        ASSERT_EQ(mp_cbuffer_pop(b.cb, &v, 4, &size), 0);
        EXPECT_EQ(v, i);
        EXPECT_EQ(size, 4u);
    }
    EXPECT_EQ(mp_cbuffer_pop(b.cb, &v, 4, &size), -1);
}

TEST(cbuffer, zero_length_message_is_a_message) {
    buffer b(1, 2);
    ASSERT_EQ(mp_cbuffer_push(b.cb, nullptr, 0), 0);
    uint32_t size = 99, v;
    EXPECT_EQ(mp_cbuffer_ready(b.cb), 1);
    ASSERT_EQ(mp_cbuffer_pop(b.cb, &v, 4, &size), 0);
    EXPECT_EQ(size, 0u);
}

TEST(cbuffer, reserved_but_uncommitted_is_not_readable) {
    buffer b(2, 4);
    uint32_t i0, i1, idx;
    ASSERT_EQ(mp_cbuffer_reserve(b.cb, &i0), 0);
    ASSERT_EQ(mp_cbuffer_reserve(b.cb, &i1), 0);
    mp_cbuffer_commit(b.cb, i1, 3);              // second completes first
    EXPECT_EQ(mp_cbuffer_read(b.cb, &idx), -1);  // in order: slot 0 not complete
    mp_cbuffer_commit(b.cb, i0, 5);
    ASSERT_EQ(mp_cbuffer_read(b.cb, &idx), 0);
    EXPECT_EQ(idx, i0);
    EXPECT_EQ(mp_cbuffer_size(b.cb, idx), 5u);
    ASSERT_EQ(mp_cbuffer_read(b.cb, &idx), 0);
    EXPECT_EQ(mp_cbuffer_size(b.cb, idx), 3u);
}

TEST(cbuffer, unfreed_slot_blocks_producer_and_is_not_reread) {
    buffer b(1, 4);  // 2 slots
    uint32_t v = 7, held, idx, size;
    ASSERT_EQ(mp_cbuffer_push(b.cb, &v, 4), 0);
    ASSERT_EQ(mp_cbuffer_read(b.cb, &held), 0);  // zero-copy: not freed yet
    ASSERT_EQ(mp_cbuffer_push(b.cb, &v, 4), 0);
    ASSERT_EQ(mp_cbuffer_pop(b.cb, &v, 4, &size), 0);
    // rd == wr == 2 now, slot 0 still holds the old message: it must not be read again,
    // and the producer must not overwrite it.
    EXPECT_EQ(mp_cbuffer_read(b.cb, &idx), -1);
    EXPECT_EQ(mp_cbuffer_reserve(b.cb, &idx), -1);
    mp_cbuffer_free(b.cb, held);
    EXPECT_EQ(mp_cbuffer_push(b.cb, &v, 4), 0);
}

TEST(cbuffer, indices_wrap_at_2_pow_32) {
    buffer b(2, 3, 0xFFFFFFFAu);
    uint64_t expect = 0;
    uint32_t next = 0;
    for (int round = 0; round < 10; ++round) {
        for (int k = 0; k < 3; ++k) {
            uint64_t v = next++;
            ASSERT_EQ(mp_cbuffer_push(b.cb, &v, 8), 0);
        }
        for (int k = 0; k < 3; ++k) {
            uint64_t v;
            uint32_t size;
            ASSERT_EQ(mp_cbuffer_pop(b.cb, &v, 8, &size), 0);
            EXPECT_EQ(v, expect++);
        }
    }
    EXPECT_EQ(b.cb->wr_idx, 0xFFFFFFFAu + 30u);  // wrapped past 0
    EXPECT_LT(b.cb->wr_idx, 0x100u);
    // full detection across the wrap
    buffer c(2, 3, 0xFFFFFFFEu);
    uint64_t v = 1;
    for (int k = 0; k < 4; ++k) ASSERT_EQ(mp_cbuffer_push(c.cb, &v, 8), 0);
    EXPECT_EQ(mp_cbuffer_push(c.cb, &v, 8), -1);
    EXPECT_EQ(mp_cbuffer_used(c.cb), 4u);
}

// Section 4.2.2, Figure 4.4a: a producer reads wr_idx, is paused while the others fill and drain
// the buffer a whole lap (2^n operations), then resumes its CAS. With a plain slot index the CAS
// would succeed on the recycled value; with the tagged 32-bit counter it must fail.
TEST(cbuffer, aba_stale_producer_cas_fails) {
    buffer b(2, 3);
    uint32_t stale = b.cb->wr_idx;  // paused producer's snapshot
    for (int k = 0; k < 4; ++k) {   // one full lap
        uint64_t v = k;
        uint32_t size;
        ASSERT_EQ(mp_cbuffer_push(b.cb, &v, 8), 0);
        ASSERT_EQ(mp_cbuffer_pop(b.cb, &v, 8, &size), 0);
    }
    for (int k = 0; k < 4; ++k) {  // now the buffer is full
        uint64_t v = 100 + k;
        ASSERT_EQ(mp_cbuffer_push(b.cb, &v, 8), 0);
    }
    EXPECT_EQ(mp_cbuffer_slot_of(b.cb, stale), mp_cbuffer_slot_of(b.cb, b.cb->wr_idx));
    uint32_t expected = stale;
    EXPECT_FALSE(__atomic_compare_exchange_n(&b.cb->wr_idx, &expected, stale + 1, false,
                                             __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    uint32_t idx;
    EXPECT_EQ(mp_cbuffer_reserve(b.cb, &idx), -1);  // and the real reserve sees "full"
    // The same for a stale consumer: it saw message 100 at rd_idx, the others consume a lap.
    uint32_t stale_rd = b.cb->rd_idx;
    for (int k = 0; k < 4; ++k) {
        uint64_t v;
        uint32_t size;
        ASSERT_EQ(mp_cbuffer_pop(b.cb, &v, 8, &size), 0);
        ASSERT_EQ(mp_cbuffer_push(b.cb, &v, 8), 0);
    }
    expected = stale_rd;
    EXPECT_FALSE(__atomic_compare_exchange_n(&b.cb->rd_idx, &expected, stale_rd + 1, false,
                                             __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
}

// The same lap with 2-bit indices (what a plain index would be) shows the hazard is real.
TEST(cbuffer, aba_would_hit_untagged_index) {
    uint32_t untagged = 0, stale = untagged;
    for (int k = 0; k < 4; ++k) untagged = (untagged + 1) & 3;
    EXPECT_EQ(untagged, stale);  // a CAS on this value would succeed after a full lap
}

struct record {
    uint32_t producer, seq, len, sum;
    uint8_t payload[48];
};

void stress(int producers, int consumers, uint32_t n, uint32_t start, int per_producer) {
    buffer b(n, 6, start);
    std::atomic<int> done_producers{0};
    std::vector<std::vector<uint32_t>> seen(producers, std::vector<uint32_t>(per_producer, 0));
    std::vector<std::vector<int32_t>> last(consumers, std::vector<int32_t>(producers, -1));
    std::atomic<long> bad{0}, total{0};
    std::vector<std::thread> th;
    for (int p = 0; p < producers; ++p)
        th.emplace_back([&, p] {
            for (int s = 0; s < per_producer; ++s) {
                record r{};
                r.producer = p;
                r.seq = s;
                r.len = (s * 7 + p) % 48;
                r.sum = 0;
                for (uint32_t i = 0; i < r.len; ++i) {
                    r.payload[i] = uint8_t(p * 31 + s + i);
                    r.sum += r.payload[i];
                }
                while (mp_cbuffer_push(b.cb, &r, 16 + r.len) != 0) std::this_thread::yield();
            }
            done_producers++;
        });
    for (int c = 0; c < consumers; ++c)
        th.emplace_back([&, c] {
            for (;;) {
                uint32_t idx;
                if (mp_cbuffer_read(b.cb, &idx) != 0) {
                    if (done_producers == producers && mp_cbuffer_used(b.cb) == 0) return;
                    std::this_thread::yield();
                    continue;
                }
                record r{};
                uint32_t size = mp_cbuffer_size(b.cb, idx);
                std::memcpy(&r, mp_cbuffer_data(b.cb, idx), size < sizeof r ? size : sizeof r);
                mp_cbuffer_free(b.cb, idx);
                uint32_t sum = 0;
                for (uint32_t i = 0; i < r.len && i < 48; ++i) sum += r.payload[i];
                if (size != 16 + r.len || sum != r.sum || r.producer >= (uint32_t)producers ||
                    r.seq >= (uint32_t)per_producer)
                    bad++;
                else {
                    __atomic_fetch_add(&seen[r.producer][r.seq], 1u, __ATOMIC_RELAXED);
                    // a single consumer must see every producer's messages in order
                    if (consumers == 1 && (int32_t)r.seq <= last[c][r.producer]) bad++;
                    last[c][r.producer] = r.seq;
                }
                total++;
            }
        });
    for (auto &t : th) t.join();
    EXPECT_EQ(bad.load(), 0);
    EXPECT_EQ(total.load(), long(producers) * per_producer);
    for (int p = 0; p < producers; ++p)
        for (int s = 0; s < per_producer; ++s)
            ASSERT_EQ(seen[p][s], 1u) << "producer " << p << " seq " << s;
}

TEST(cbuffer_threads, spsc) { stress(1, 1, 3, 0, 200000); }
TEST(cbuffer_threads, mpsc_in_order_per_producer) { stress(4, 1, 2, 0, 50000); }
TEST(cbuffer_threads, spmc) { stress(1, 4, 2, 0, 100000); }
TEST(cbuffer_threads, mpmc) { stress(4, 4, 3, 0, 50000); }
TEST(cbuffer_threads, mpmc_across_index_wrap) { stress(3, 3, 1, 0xFFFFFFFFu - 50000u, 40000); }

}  // namespace

// Issue 12: a zero-length copy (zero-length push) with a null source passed null to memcpy;
// mp_copy touches neither pointer for n == 0
// (UBSan: the sanitizer build runs this test and fails on the report).
TEST(copy, of_nothing_accepts_null) {
    uint32_t dst = 0x12345678;
    mp_copy(&dst, nullptr, 0);
    mp_copy(nullptr, &dst, 0);
    EXPECT_EQ(dst, 0x12345678u);
}

// Every length 0..100 and every source/destination alignment: the word loops (eight and one word
// per round, and the shifting loop for ends that disagree modulo 4) and the byte tails together
// copy exactly n bytes, nothing before or after.
TEST(copy, all_lengths_and_alignments) {
    uint8_t src[128], dst[160];
    for (unsigned i = 0; i < sizeof src; ++i) src[i] = static_cast<uint8_t>(i * 7 + 3);
    for (unsigned so = 0; so < 4; ++so)
        for (unsigned doff = 0; doff < 4; ++doff)
            for (uint32_t n = 0; n <= 100; ++n) {
                std::memset(dst, 0xEE, sizeof dst);
                mp_copy(dst + 16 + doff, src + so, n);
                ASSERT_EQ(std::memcmp(dst + 16 + doff, src + so, n), 0)
                    << n << " " << so << " " << doff;
                for (unsigned k = 0; k < 16 + doff; ++k)
                    ASSERT_EQ(dst[k], 0xEE) << "before, n=" << n;
                for (unsigned k = 16 + doff + n; k < sizeof dst; ++k)
                    ASSERT_EQ(dst[k], 0xEE) << "after, n=" << n;
            }
}
