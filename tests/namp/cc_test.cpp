// NAMP collective communication (docs/namp.md, "Collective communication"), driven by the test
// bus masters without firmware: feature switches, refused starts and descriptors, multicast
// (connection-less and channels) with per-member progress and failures.
#include <cstring>

#include "cbuffer_layout.h"
#include "na_test_support.h"
#include "namp/cc_reduce.h"
#include "namp/slot.h"
#include "namp_cc.h"
#include "namp_structs.h"
#include "vp/config.h"
#include <iostream>

using namespace na_test;

namespace {

const std::vector<std::string> cc_on = {"namp.enabled=true", "namp.enable_cc_multicast=true"};

uint32_t slot(unsigned i, uint32_t reg) { return na(NA_NAMP_SLOT_BASE(i) + reg); }

constexpr uint32_t EP = TILE_SRAM_BASE + 0x10000;    // endpoint in every receiver
constexpr uint32_t RXB = TILE_SRAM_BASE + 0x11000;   // its receive buffer
constexpr uint32_t H = TILE_SRAM_BASE + 0x20000;     // handles in the sender: H + 0x40 * k
constexpr uint32_t HC = TILE_SRAM_BASE + 0x24000;    // receiver's handle for credits
constexpr uint32_t DESC = TILE_SRAM_BASE + 0x22000;  // collective descriptor
constexpr uint32_t DATA = TILE_SRAM_BASE + 0x30000;  // source data

struct mem_view {
    bench &b;
    void put(unsigned tile, uint32_t addr, uint32_t v) {
        std::memcpy(b.mem(tile) + (addr - TILE_SRAM_BASE), &v, 4);
    }
    uint32_t get(unsigned tile, uint32_t addr) {
        uint32_t v;
        std::memcpy(&v, b.mem(tile) + (addr - TILE_SRAM_BASE), 4);
        return v;
    }
    void cbuffer(unsigned tile, uint32_t addr, uint32_t n, uint32_t m) {
        put(tile, addr + MP_CB_OFF_CAPACITY, n);
        put(tile, addr + MP_CB_OFF_MAXMSG, m);
        put(tile, addr + MP_CB_OFF_WR_IDX, 0);
        put(tile, addr + MP_CB_OFF_RD_IDX, 0);
        put(tile, addr + MP_CB_OFF_SIZE_OFS, MP_CB_HEADER_SIZE);
        put(tile, addr + MP_CB_OFF_DATA_OFS, MP_CB_HEADER_SIZE + (4u << n));
        for (uint32_t k = 0; k < (1u << n); ++k) put(tile, addr + MP_CB_HEADER_SIZE + 4 * k, 0);
    }
    uint32_t elem_size(unsigned tile, uint32_t k) {
        return get(tile, RXB + MP_CB_HEADER_SIZE + 4 * k);
    }
    uint32_t elem_data(unsigned tile, uint32_t k) {
        const uint32_t n = get(tile, RXB), m = get(tile, RXB + 4);
        return RXB + MP_CB_HEADER_SIZE + (4u << n) + (k << m);
    }
    void endpoint(unsigned tile, uint32_t flags = NAMP_EP_F_NOTIFY) {
        for (uint32_t o = 0; o < NAMP_EP_SIZE; o += 4) put(tile, EP + o, 0);
        put(tile, EP + NAMP_EP_STATE, NAMP_EP_STATE_READY);
        put(tile, EP + NAMP_EP_FLAGS, flags);
        put(tile, EP + NAMP_EP_RX_BUFFER, RXB);
    }
    // a channel's sending handle is CONNECTED (the only kind a CREDIT may name)
    void handle(unsigned tile, uint32_t h, uint32_t dst_tile, uint32_t ep, uint32_t credits = 0,
                uint32_t flags = NAMP_H_F_CONNECTED) {
        for (uint32_t o = 0; o < NAMP_H_SIZE; o += 4) put(tile, h + o, 0);
        put(tile, h + NAMP_H_FLAGS, flags);
        put(tile, h + NAMP_H_TILE, dst_tile);
        put(tile, h + NAMP_H_ENDPOINT, ep);
        put(tile, h + NAMP_H_CREDITS, credits);
    }
    // descriptor in tile 0: kind, members naming the handles
    void descriptor(uint32_t kind, const std::vector<uint32_t> &handles, uint32_t num) {
        put(0, DESC + NAMP_CC_KIND, kind);
        put(0, DESC + NAMP_CC_NUM, num);
        put(0, DESC + NAMP_CC_RESULT, 0xFFFFFFFFu);  // the hardware clears it
        for (uint32_t i = 0; i < handles.size(); ++i) {
            put(0, DESC + NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE, handles[i]);
            put(0, DESC + NAMP_CC_MEMBER(i) + NAMP_CC_M_STATUS, 0xFFFFFFFFu);
        }
    }
    uint32_t member_status(uint32_t i) {
        return get(0, DESC + NAMP_CC_MEMBER(i) + NAMP_CC_M_STATUS);
    }
};

void start(driver &d, unsigned i, uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3) {
    d.wr(slot(i, NAMP_SLOT_PARAM1), p1);
    d.wr(slot(i, NAMP_SLOT_PARAM2), p2);
    d.wr(slot(i, NAMP_SLOT_PARAM3), p3);
    d.wr(slot(i, NAMP_SLOT_FLAGS), flags | NAMP_FLAG_VALID);
}

uint32_t wait_done(bench &b, unsigned tile, unsigned i, unsigned tries = 100000) {
    poll(b, tile, slot(i, NAMP_SLOT_FLAGS), NAMP_FLAG_DONE, NAMP_FLAG_DONE, tries);
    return b.d(tile).rd(slot(i, NAMP_SLOT_STATUS));
}

// Starts slot 0 of tile 0 and returns the STATUS once DONE (the slot is freed again).
uint32_t run_refused(bench &b, uint32_t flags, uint32_t p1, uint32_t p2 = DATA, uint32_t p3 = 4) {
    start(b.d(0), 0, flags, p1, p2, p3);
    const uint32_t st = wait_done(b, 0, 0);
    b.d(0).wr(slot(0, NAMP_SLOT_FLAGS), 0);
    return st;
}

uint32_t code_of(uint32_t st) { return (st & NAMP_STATUS_ERROR) ? NAMP_STATUS_CODE(st) : 0xFFu; }

}  // namespace

TEST(NampCc, SlotTransitionsOfACollective) {
    using S = namp::slot_state;
    using E = namp::slot_event;
    EXPECT_EQ(namp::slot::next(S::ready, E::members), S::members);
    EXPECT_EQ(namp::slot::next(S::members, E::finished), S::done);
    EXPECT_EQ(namp::slot::next(S::members, E::fail), S::error);
    EXPECT_STREQ(namp::slot_state_name(S::members), "members");
}

TEST(NampCc, ConfigurationAndPresets) {
    {
        const auto c = vp::config_builder().build();
        EXPECT_FALSE(c.na.namp.cc_multicast);
    }
    vp::config_builder bare;
    bare.apply_preset("bare");  // Table 4.2: bare has multicast
    EXPECT_TRUE(bare.build().na.namp.cc_multicast);
    for (const char *p : {"baremsg", "barechan"}) {
        vp::config_builder b;
        b.apply_preset(p);
        EXPECT_FALSE(b.build().na.namp.cc_multicast) << p;
    }
    for (const char *p : {"baresg", "barecc"}) {
        vp::config_builder b;
        b.apply_preset(p);
        EXPECT_TRUE(b.build().na.namp.cc_scattergather) << p;
    }
    {
        vp::config_builder b;
        b.apply_override("namp.enable_cc_reduction=true");
        b.apply_override("namp.cc_reduce_word_cycles=7");
        const auto c = b.build();
        EXPECT_TRUE(c.na.namp.cc_reduction);
        EXPECT_EQ(c.na.namp.cc_reduce_word_cycles, 7u);
    }
}

TEST(NampCc, DisabledFeatureIsAbsentHardware) {
    bench b({"namp.enabled=true"});
    mem_view m{b};
    m.handle(0, H, 1, EP);
    m.descriptor(NAMP_CC_K_MULTICAST, {H}, 1);
    b.run({[&] {
        EXPECT_EQ(b.d(0).rd(na(NA_FEATURES)) &
                      (NA_FEATURE_NAMP_CC_MCAST | NA_FEATURE_NAMP_CC_SG | NA_FEATURE_NAMP_CC_RED),
                  0u);
        const uint32_t st = run_refused(b, NAMP_FLAG_CC, DESC);
        EXPECT_EQ(code_of(st), NAMP_ERR_MODE_UNSUPPORTED);
        EXPECT_EQ(NAMP_STATUS_STATE(st), NAMP_STATE_ERROR);
    }});
    EXPECT_EQ(b.stats(0).namp_msgs_sent[NAMP_MSG_ALLOC_REQ], 0u);
}

TEST(NampCc, RefusedStartsAndDescriptors) {
    bench b(cc_on);
    mem_view m{b};
    m.endpoint(1);
    m.cbuffer(1, RXB, 2, 6);
    m.handle(0, H, 1, EP);
    const uint32_t sram_end = TILE_SRAM_BASE + (1u << 20);
    b.run({[&] {
        driver &d = b.d(0);
        EXPECT_EQ(d.rd(na(NA_FEATURES)) &
                      (NA_FEATURE_NAMP_CC_MCAST | NA_FEATURE_NAMP_CC_SG | NA_FEATURE_NAMP_CC_RED),
                  NA_FEATURE_NAMP_CC_MCAST);
        m.descriptor(NAMP_CC_K_MULTICAST, {H}, 1);
        // flags
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC | NAMP_FLAG_BUF, DESC)),
                  NAMP_ERR_INVALID_FLAGS);
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC | NAMP_FLAG_COM, DESC)),
                  NAMP_ERR_INVALID_FLAGS);
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC | (1u << 8), DESC)),
                  NAMP_ERR_MODE_UNSUPPORTED);
        // descriptor address: unaligned, outside SRAM, header crossing the end of SRAM
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC, DESC + 2)), NAMP_ERR_BAD_PARAM);
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC, 0x1000)), NAMP_ERR_BAD_PARAM);
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC, sram_end - 8)), NAMP_ERR_BAD_PARAM);
        // data range outside SRAM
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC, DESC, sram_end - 2, 4)), NAMP_ERR_BAD_PARAM);
        // num 0 and above the limit (found by the set-up step: the slot starts, then fails)
        m.descriptor(NAMP_CC_K_MULTICAST, {H}, 0);
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC, DESC)), NAMP_ERR_BAD_PARAM);
        m.descriptor(NAMP_CC_K_MULTICAST, {H}, NAMP_CC_MAX_MEMBERS + 1);
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC, DESC)), NAMP_ERR_BAD_PARAM);
        // member table crossing the end of SRAM
        {
            const uint32_t last = sram_end - NAMP_CC_HEADER;
            m.put(0, last + NAMP_CC_KIND, NAMP_CC_K_MULTICAST);
            m.put(0, last + NAMP_CC_NUM, 2);
            EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC, last)), NAMP_ERR_BAD_PARAM);
        }
        // unknown kind; kinds of features not in this instance
        m.descriptor(0x77, {H}, 1);
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC, DESC)), NAMP_ERR_BAD_PARAM);
        for (uint32_t k : {NAMP_CC_K_SCATTER, NAMP_CC_K_GATHER, NAMP_CC_K_REDUCE}) {
            m.descriptor(k, {H}, 1);
            EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC | NAMP_FLAG_CON, DESC)),
                      NAMP_ERR_MODE_UNSUPPORTED)
                << k;
        }
        // a member whose handle is unaligned or outside SRAM fails alone
        m.descriptor(NAMP_CC_K_MULTICAST, {H + 2, 0x100, H}, 3);
        m.put(0, DATA, 0x5A5A);
        const uint32_t st = run_refused(b, NAMP_FLAG_CC, DESC);
        EXPECT_EQ(code_of(st), NAMP_ERR_CC_MEMBER);
        EXPECT_EQ(NAMP_STATUS_CC_FAILED(st), 2u);
        EXPECT_EQ(NAMP_CC_MSTAT_CODE(m.member_status(0)), NAMP_ERR_BAD_PARAM);
        EXPECT_EQ(NAMP_CC_MSTAT_CODE(m.member_status(1)), NAMP_ERR_BAD_PARAM);
        EXPECT_EQ(m.member_status(2), NAMP_CC_MSTAT(0, NAMP_STATE_DONE, 0));
        EXPECT_EQ(m.get(0, DESC + NAMP_CC_RESULT), 1u | (2u << 8));
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1);
        EXPECT_EQ(m.get(1, m.elem_data(1, 0)), 0x5A5Au);
    }});
}

TEST(NampCc, ChannelsDisabledRefuseAConnectionOrientedCollective) {
    bench b({"namp.enabled=true", "namp.enable_cc_multicast=true", "namp.enable_channels=false",
             "namp.enable_ccm=false"});
    mem_view m{b};
    m.descriptor(NAMP_CC_K_MULTICAST, {H}, 1);
    b.run({[&] {
        EXPECT_EQ(code_of(run_refused(b, NAMP_FLAG_CC | NAMP_FLAG_CON, DESC)),
                  NAMP_ERR_MODE_UNSUPPORTED);
    }});
}

// Connection-less multicast to the three other tiles of a 2x2 mesh: every member gets the data.
TEST(NampCc, MulticastConnectionless) {
    bench b(cc_on);
    mem_view m{b};
    std::vector<uint32_t> hs;
    for (unsigned t = 1; t < 4; ++t) {
        m.endpoint(t);
        m.cbuffer(t, RXB, 2, 8);
        m.handle(0, H + 0x40 * t, t, EP);
        hs.push_back(H + 0x40 * t);
    }
    m.descriptor(NAMP_CC_K_MULTICAST, hs, 3);
    for (uint32_t k = 0; k < 50; ++k) m.put(0, DATA + 4 * k, 0x1000 + k);
    b.run({[&] {
        driver &d = b.d(0);
        start(d, 2, NAMP_FLAG_CC, DESC, DATA, 200);
        poll(b, 0, slot(2, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_MEMBERS << 8);
        const uint32_t st = wait_done(b, 0, 2);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u);
        EXPECT_EQ(NAMP_STATUS_STATE(st), NAMP_STATE_DONE);
        EXPECT_EQ(NAMP_STATUS_CC_FAILED(st), 0u);
        EXPECT_EQ(m.get(0, DESC + NAMP_CC_RESULT), 3u);
        for (unsigned t = 1; t < 4; ++t) {
            EXPECT_EQ(m.member_status(t - 1), NAMP_CC_MSTAT(0, NAMP_STATE_DONE, 0));
            poll(b, t, na(NA_NAMP_RX_COUNT), ~0u, 1);
            EXPECT_EQ(m.elem_size(t, 0), MP_CB_COMMITTED | 200u) << t;
            for (uint32_t k = 0; k < 50; ++k)
                EXPECT_EQ(m.get(t, m.elem_data(t, 0) + 4 * k), 0x1000 + k);
            EXPECT_EQ(m.get(0, H + 0x40 * t + NAMP_H_SENT), 1u);
        }
    }});
    EXPECT_EQ(b.slot_stats(0, 2).transfers, 3u);
    EXPECT_EQ(b.stats(0).namp_msgs_sent[NAMP_MSG_ALLOC_REQ], 3u);
    EXPECT_EQ(b.stats(0).namp_msgs_sent[NAMP_MSG_FINAL], 3u);
}

// A member whose buffer stays full NACKs on; the others complete meanwhile (their status words
// say DONE); once the receiver frees the element the slot completes.
TEST(NampCc, MemberThatNacksDoesNotStallTheOthers) {
    bench b({"namp.enabled=true", "namp.enable_cc_multicast=true", "namp.retry_cycles=100",
             "namp.retry_max_cycles=400"});
    mem_view m{b};
    std::vector<uint32_t> hs;
    for (unsigned t = 1; t < 4; ++t) {
        m.endpoint(t);
        m.cbuffer(t, RXB, 0, 6);  // one element
        m.handle(0, H + 0x40 * t, t, EP);
        hs.push_back(H + 0x40 * t);
    }
    // tile 2's only element is taken (a committed message nobody reads yet)
    m.put(2, RXB + MP_CB_OFF_WR_IDX, 1);
    m.put(2, RXB + MP_CB_HEADER_SIZE, MP_CB_COMMITTED | 4u);
    m.descriptor(NAMP_CC_K_MULTICAST, hs, 3);
    m.put(0, DATA, 0xC0FFEE);
    b.run({[&] {
        driver &d = b.d(0);
        start(d, 0, NAMP_FLAG_CC, DESC, DATA, 4);
        poll(b, 0, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_STATUS, ~0u,
             NAMP_CC_MSTAT(0, NAMP_STATE_DONE, 0));
        poll(b, 0, DESC + NAMP_CC_MEMBER(2) + NAMP_CC_M_STATUS, ~0u,
             NAMP_CC_MSTAT(0, NAMP_STATE_DONE, 0));
        poll(b, 0, slot(0, NAMP_SLOT_STATUS), 0xF0000u, 4u << 16);  // member 1 NACKed 4 times
        b.cycles(3000);
        EXPECT_EQ(d.rd(slot(0, NAMP_SLOT_FLAGS)) & NAMP_FLAG_DONE, 0u) << "waits for member 1";
        EXPECT_EQ(NAMP_STATUS_STATE(d.rd(slot(0, NAMP_SLOT_STATUS))), NAMP_STATE_MEMBERS);
        EXPECT_EQ(m.member_status(1), 0u) << "running";
        // NAMP_SLOT_MEMBER: the retrying member shows its handle, the finished ones and the
        // registers past the members 0 (the kernel's "which channels does it hold")
        EXPECT_EQ(d.rd(slot(0, NAMP_SLOT_MEMBER(1))), H + 0x40 * 2);
        EXPECT_EQ(d.rd(slot(0, NAMP_SLOT_MEMBER(0))), 0u);
        EXPECT_EQ(d.rd(slot(0, NAMP_SLOT_MEMBER(2))), 0u);
        EXPECT_EQ(d.rd(slot(0, NAMP_SLOT_MEMBER(NAMP_SLOT_MEMBERS - 1))), 0u);
        EXPECT_EQ(d.rd(slot(1, NAMP_SLOT_MEMBER(1))), 0u) << "a slot not in MEMBERS";
        EXPECT_EQ(m.get(1, m.elem_data(1, 0)), 0xC0FFEEu);
        EXPECT_EQ(m.get(3, m.elem_data(3, 0)), 0xC0FFEEu);
        // the receiver of member 1 consumes its old message: the retry succeeds
        m.put(2, RXB + MP_CB_HEADER_SIZE, 0);
        m.put(2, RXB + MP_CB_OFF_RD_IDX, 1);
        const uint32_t st = wait_done(b, 0, 0);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u);
        EXPECT_GE(NAMP_STATUS_RETRIES(st), 4u);
        EXPECT_EQ(NAMP_CC_MSTAT_STATE(m.member_status(1)), NAMP_STATE_DONE);
        EXPECT_GE(NAMP_CC_MSTAT_RETRIES(m.member_status(1)), 4u);
        EXPECT_EQ(m.get(2, m.elem_data(2, 0)), 0xC0FFEEu);
        EXPECT_EQ(m.get(2, RXB + MP_CB_OFF_WR_IDX), 2u);
        EXPECT_EQ(d.rd(slot(0, NAMP_SLOT_MEMBER(1))), 0u) << "the collective ended";
    }});
    EXPECT_GE(b.slot_stats(0, 0).nacks, 4u);
}

// A member that fails (no endpoint) is reported in its status word and in STATUS[29:24]; the
// slot ends in ERROR CC_MEMBER after the others delivered.
TEST(NampCc, FailedMemberReportedPerMemberAndInTheSlot) {
    bench b(cc_on);
    mem_view m{b};
    std::vector<uint32_t> hs;
    for (unsigned t = 1; t < 4; ++t) {
        m.endpoint(t);
        m.cbuffer(t, RXB, 1, 6);
        m.handle(0, H + 0x40 * t, t, EP);
        hs.push_back(H + 0x40 * t);
    }
    m.put(3, EP + NAMP_EP_STATE, NAMP_EP_STATE_DELETED);
    m.descriptor(NAMP_CC_K_MULTICAST, hs, 3);
    m.put(0, DATA, 77);
    b.run({[&] {
        start(b.d(0), 0, NAMP_FLAG_CC, DESC, DATA, 4);
        const uint32_t st = wait_done(b, 0, 0);
        EXPECT_EQ(code_of(st), NAMP_ERR_CC_MEMBER);
        EXPECT_EQ(NAMP_STATUS_CC_FAILED(st), 1u);
        EXPECT_EQ(m.member_status(0), NAMP_CC_MSTAT(0, NAMP_STATE_DONE, 0));
        EXPECT_EQ(m.member_status(1), NAMP_CC_MSTAT(0, NAMP_STATE_DONE, 0));
        EXPECT_EQ(m.member_status(2), NAMP_CC_MSTAT(NAMP_ERR_NO_ENDPOINT, NAMP_STATE_ERROR, 0));
        EXPECT_EQ(m.get(0, DESC + NAMP_CC_RESULT), 2u | (1u << 8));
        for (unsigned t = 1; t < 3; ++t) {
            poll(b, t, na(NA_NAMP_RX_COUNT), ~0u, 1);
            EXPECT_EQ(m.get(t, m.elem_data(t, 0)), 77u);
        }
        b.d(0).wr(slot(0, NAMP_SLOT_FLAGS), 0);  // software frees it: STATUS clears
        EXPECT_EQ(b.d(0).rd(slot(0, NAMP_SLOT_STATUS)), 0u);
    }});
}

// Channel multicast: members take credits (fast path with DIRECT handles); a member without a
// credit waits persistently while the others complete, and goes on when its CREDIT arrives.
TEST(NampCc, MulticastOnChannelsWaitsPerMemberForCredit) {
    bench b(cc_on);
    mem_view m{b};
    std::vector<uint32_t> hs;
    for (unsigned t = 1; t < 4; ++t) {
        const uint32_t h = H + 0x40 * t;
        m.endpoint(t, NAMP_EP_F_NOTIFY | NAMP_EP_F_CHANNEL);
        m.cbuffer(t, RXB, 2, 6);
        m.handle(0, h, t, EP, t == 2 ? 0 : 2);
        if (t != 3) {  // DIRECT handles (fast path) for members 0 and 1, allocation for member 2
            m.put(0, h + NAMP_H_FLAGS,
                  NAMP_H_F_CONNECTED | NAMP_H_F_DIRECT | NAMP_H_GEOMETRY(2, 6));
            m.put(0, h + NAMP_H_RDATA, m.elem_data(t, 0));
        }
        m.handle(t, HC, 0, h);  // receiver's handle for credits: names the sender's handle
        hs.push_back(h);
    }
    m.descriptor(NAMP_CC_K_MULTICAST, hs, 3);
    for (uint32_t k = 0; k < 16; ++k) m.put(0, DATA + 4 * k, 0xAB00 + k);
    b.run({[&] {
        driver &d = b.d(0);
        start(d, 0, NAMP_FLAG_CC | NAMP_FLAG_CON, DESC, DATA, 64);
        poll(b, 0, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_STATUS, ~0u,
             NAMP_CC_MSTAT(0, NAMP_STATE_DONE, 0));
        poll(b, 0, DESC + NAMP_CC_MEMBER(2) + NAMP_CC_M_STATUS, ~0u,
             NAMP_CC_MSTAT(0, NAMP_STATE_DONE, 0));
        b.cycles(2000);
        EXPECT_EQ(NAMP_STATUS_STATE(d.rd(slot(0, NAMP_SLOT_STATUS))), NAMP_STATE_MEMBERS);
        EXPECT_EQ(m.member_status(1), 0u);
        // waiting for a credit a member writes nothing (a revoke wakes it to fail CLOSED)
        for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(d.rd(slot(0, NAMP_SLOT_MEMBER(i))), 0u) << i;
        start(b.d(2), 0, NAMP_FLAG_COM, HC, 1, 0);  // the receiver of member 1 returns a credit
        EXPECT_EQ(wait_done(b, 2, 0) & NAMP_STATUS_ERROR, 0u);
        const uint32_t st = wait_done(b, 0, 0);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u);
        EXPECT_EQ(m.get(0, DESC + NAMP_CC_RESULT), 3u);
        for (unsigned t = 1; t < 4; ++t) {
            poll(b, t, na(NA_NAMP_RX_COUNT), ~0u, 1);
            EXPECT_EQ(m.elem_size(t, 0), MP_CB_COMMITTED | 64u);
            for (uint32_t k = 0; k < 16; ++k)
                EXPECT_EQ(m.get(t, m.elem_data(t, 0) + 4 * k), 0xAB00 + k);
            EXPECT_EQ(m.get(t, RXB + MP_CB_OFF_WR_IDX), 1u);
        }
        EXPECT_EQ(m.get(0, H + 0x40 * 1 + NAMP_H_CREDITS), 1u);
        EXPECT_EQ(m.get(0, H + 0x40 * 2 + NAMP_H_CREDITS), 0u);
        EXPECT_EQ(m.get(0, H + 0x40 * 1 + NAMP_H_WR_IDX), 1u);
    }});
    // two members on the fast path, one allocation
    EXPECT_EQ(b.stats(0).namp_msgs_sent[NAMP_MSG_ALLOC_REQ], 1u);
}

// A member whose data packet the receiver refuses (fault injection) fails with REMOTE; its
// element is committed VOID, the other members deliver.
TEST(NampCc, RemoteErrorOfOneMemberVoidsItsElement) {
    bench b({"namp.enabled=true", "namp.enable_cc_multicast=true", "na.fault_dma_every=1"});
    mem_view m{b};
    m.endpoint(1);
    m.cbuffer(1, RXB, 1, 6);
    m.handle(0, H, 1, EP);
    m.descriptor(NAMP_CC_K_MULTICAST, {H}, 1);
    b.run({[&] {
        start(b.d(0), 0, NAMP_FLAG_CC, DESC, DATA, 8);
        const uint32_t st = wait_done(b, 0, 0);
        EXPECT_EQ(code_of(st), NAMP_ERR_CC_MEMBER);
        EXPECT_EQ(m.member_status(0), NAMP_CC_MSTAT(NAMP_ERR_REMOTE, NAMP_STATE_ERROR, 0));
        b.cycles(500);
        EXPECT_EQ(m.elem_size(1, 0), MP_CB_COMMITTED | MP_CB_VOID);
    }});
}

// ---- reduction ----

namespace {
const std::vector<std::string> red_on = {"namp.enabled=true", "namp.enable_cc_reduction=true"};
constexpr uint32_t RXD = TILE_SRAM_BASE + 0x12000;  // receiver's reduction descriptor

// tile 0 receives: endpoint with a 4-element buffer and a reduction descriptor for `contrib`
void reduce_receiver(mem_view &m, uint32_t contrib) {
    m.endpoint(0);
    m.cbuffer(0, RXB, 2, 9);
    m.put(0, EP + NAMP_EP_CC, RXD);
    m.put(0, RXD + NAMP_CC_RX_KIND, NAMP_CC_K_REDUCE);
    m.put(0, RXD + NAMP_CC_RX_CONTRIB, contrib);
    for (uint32_t k = 0; k < 4; ++k) {
        m.put(0, RXD + NAMP_CC_RX_ENTRY(k), 0);
        m.put(0, RXD + NAMP_CC_RX_ENTRY(k) + 4, 0);
    }
}
// sender tile t: handle to tile 0's endpoint, reduction descriptor (id, op, type)
void reduce_sender(mem_view &m, unsigned t, uint32_t id, uint32_t op, uint32_t type) {
    m.handle(t, H, 0, EP);
    m.put(t, DESC + NAMP_CC_KIND, NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, op, type));
    m.put(t, DESC + NAMP_CC_NUM, 1);
    m.put(t, DESC + NAMP_CC_ID, id);
    m.put(t, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE, H);
}
}  // namespace

TEST(NampCc, ReductionArithmetic) {
    using namespace namp::cc;
    auto one = [](uint32_t op, uint32_t type, uint32_t a, uint32_t b) {
        uint8_t x[4], y[4];
        std::memcpy(x, &a, 4);
        std::memcpy(y, &b, 4);
        reduce_apply(op, type, x, y, NAMP_CC_TYPE_BYTES(type));
        uint32_t r = 0;
        std::memcpy(&r, x, NAMP_CC_TYPE_BYTES(type));
        return r;
    };
    EXPECT_EQ(one(NAMP_CC_OP_SUM, NAMP_CC_T_UINT8, 200, 100), 44u);  // wraps
    EXPECT_EQ(one(NAMP_CC_OP_MIN, NAMP_CC_T_INT8, 0x80, 5), 0x80u);  // -128 < 5
    EXPECT_EQ(one(NAMP_CC_OP_MIN, NAMP_CC_T_UINT8, 0x80, 5), 5u);
    EXPECT_EQ(one(NAMP_CC_OP_MAX, NAMP_CC_T_INT16, 0xFFFF, 3), 3u);  // -1 < 3
    EXPECT_EQ(one(NAMP_CC_OP_MAX, NAMP_CC_T_UINT16, 0xFFFF, 3), 0xFFFFu);
    EXPECT_EQ(one(NAMP_CC_OP_MIN, NAMP_CC_T_INT32, 0xFFFFFFFFu, 0), 0xFFFFFFFFu);
    EXPECT_EQ(one(NAMP_CC_OP_BAND, NAMP_CC_T_UINT32, 0xF0F0, 0xFF00), 0xF000u);
    EXPECT_EQ(one(NAMP_CC_OP_BOR, NAMP_CC_T_UINT32, 0xF0F0, 0xFF00), 0xFFF0u);
    EXPECT_EQ(one(NAMP_CC_OP_BXOR, NAMP_CC_T_UINT32, 0xF0F0, 0xFF00), 0x0FF0u);
    EXPECT_EQ(one(NAMP_CC_OP_LAND, NAMP_CC_T_INT8, 7, 0), 0u);
    EXPECT_EQ(one(NAMP_CC_OP_LAND, NAMP_CC_T_INT8, 7, 0x80), 1u);
    EXPECT_EQ(one(NAMP_CC_OP_LOR, NAMP_CC_T_UINT16, 0, 0), 0u);
    EXPECT_EQ(one(NAMP_CC_OP_LOR, NAMP_CC_T_UINT16, 0, 0x100), 1u);
    // identities: combining with the identity leaves a value unchanged, for every op and type
    for (uint32_t op = 0; op < NAMP_CC_OPS; ++op)
        for (uint32_t type = 0; type < NAMP_CC_TYPES; ++type) {
            const uint32_t sz = NAMP_CC_TYPE_BYTES(type);
            uint8_t id[4] = {}, v[4] = {0x01, 0x00, 0x00, 0x00};  // 1: also a logical "true"
            reduce_identity(op, type, id, sz);
            reduce_apply(op, type, id, v, sz);
            EXPECT_EQ(std::memcmp(id, v, sz), 0) << "op " << op << " type " << type;
        }
    EXPECT_TRUE(reduce_valid(NAMP_CC_OP_LOR, NAMP_CC_T_UINT32));
    EXPECT_FALSE(reduce_valid(NAMP_CC_OPS, NAMP_CC_T_INT8));
    EXPECT_FALSE(reduce_valid(NAMP_CC_OP_SUM, NAMP_CC_TYPES));
}

// Three senders contribute int16 vectors to one reduction: the element is committed once, when
// the third contribution is finalized, and holds the sum.
TEST(NampCc, ReductionCombinesAllContributionsIntoOneMessage) {
    bench b(red_on);
    mem_view m{b};
    reduce_receiver(m, 3);
    for (unsigned t = 1; t < 4; ++t) {
        reduce_sender(m, t, 42, NAMP_CC_OP_SUM, NAMP_CC_T_INT16);
        for (uint32_t k = 0; k < 100; ++k)  // 200 int16 values: several packets
            m.put(t, DATA + 4 * k, (uint32_t(k * t) & 0xFFFFu) | (uint32_t(0x10000 - t) << 16));
    }
    b.run({[&] {
        for (unsigned t = 1; t < 3; ++t) {
            start(b.d(t), 0, NAMP_FLAG_CC, DESC, DATA, 400);
            EXPECT_EQ(wait_done(b, t, 0) & NAMP_STATUS_ERROR, 0u);
        }
        b.cycles(500);
        EXPECT_EQ(m.elem_size(0, 0), 0u) << "not committed before the last contribution";
        EXPECT_EQ(NAMP_CC_RX_ARRIVED(m.get(0, RXD + NAMP_CC_RX_ENTRY(0) + 4)), 2u);
        start(b.d(3), 0, NAMP_FLAG_CC, DESC, DATA, 400);
        EXPECT_EQ(wait_done(b, 3, 0) & NAMP_STATUS_ERROR, 0u);
        poll(b, 0, na(NA_NAMP_RX_COUNT), ~0u, 1);
        EXPECT_EQ(m.elem_size(0, 0), MP_CB_COMMITTED | 400u);
        EXPECT_EQ(m.get(0, RXB + MP_CB_OFF_WR_IDX), 1u) << "one element for the three";
        EXPECT_EQ(m.get(0, RXD + NAMP_CC_RX_ENTRY(0) + 4), 0u) << "entry free again";
        for (uint32_t k = 0; k < 100; ++k) {
            const uint32_t w = m.get(0, m.elem_data(0, 0) + 4 * k);
            EXPECT_EQ(w & 0xFFFFu, (6 * k) & 0xFFFFu) << k;  // k*1 + k*2 + k*3
            EXPECT_EQ(w >> 16, uint32_t(0x10000 - 6)) << k;  // -1 + -2 + -3
        }
    }});
    EXPECT_EQ(b.stats(0).namp_rx_completed, 1u);
}

// The read-modify-write costs namp.cc_reduce_word_cycles per word at the receiving DMA: a
// 256-byte contribution takes at least 64 x 200 cycles longer than a 256-byte multicast.
TEST(NampCc, ReductionCostPerWordIsConfigurable) {
    bench b({"namp.enabled=true", "namp.enable_cc_reduction=true", "namp.enable_cc_multicast=true",
             "namp.cc_reduce_word_cycles=200"});
    mem_view m{b};
    reduce_receiver(m, 1);
    reduce_sender(m, 1, 1, NAMP_CC_OP_MAX, NAMP_CC_T_UINT32);
    constexpr uint32_t D2 = DESC + 0x400, H2 = H + 0x40;
    m.endpoint(2);
    m.cbuffer(2, RXB, 2, 9);
    m.handle(1, H2, 2, EP);
    m.put(1, D2 + NAMP_CC_KIND, NAMP_CC_K_MULTICAST);
    m.put(1, D2 + NAMP_CC_NUM, 1);
    m.put(1, D2 + NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE, H2);
    b.run({[&] {
        auto timed = [&](uint32_t desc) {
            const sc_core::sc_time t0 = sc_core::sc_time_stamp();
            start(b.d(1), 0, NAMP_FLAG_CC, desc, DATA, 256);
            EXPECT_EQ(wait_done(b, 1, 0, 1000000) & NAMP_STATUS_ERROR, 0u);
            b.d(1).wr(slot(0, NAMP_SLOT_FLAGS), 0);
            return uint64_t((sc_core::sc_time_stamp() - t0) / b.period);
        };
        const uint64_t plain = timed(D2), reduce = timed(DESC);
        EXPECT_GE(reduce, plain + 64 * 200) << "plain " << plain << ", reduce " << reduce;
        EXPECT_LE(reduce, plain + 64 * 200 + 2000) << "plain " << plain << ", reduce " << reduce;
    }});
}

TEST(NampCc, ReductionRefusals) {
    bench b(red_on);
    mem_view m{b};
    reduce_receiver(m, 2);
    b.run({[&] {
        auto refused = [&](uint32_t kind, uint32_t flags, uint32_t size, uint32_t num = 1) {
            m.handle(1, H, 0, EP);
            m.put(1, DESC + NAMP_CC_KIND, kind);
            m.put(1, DESC + NAMP_CC_NUM, num);
            m.put(1, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE, H);
            start(b.d(1), 0, NAMP_FLAG_CC | flags, DESC, DATA, size);
            const uint32_t st = wait_done(b, 1, 0);
            b.d(1).wr(slot(0, NAMP_SLOT_FLAGS), 0);
            return code_of(st);
        };
        EXPECT_EQ(refused(NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OPS, NAMP_CC_T_INT8), 0, 4),
                  NAMP_ERR_BAD_PARAM)
            << "op not in the table";
        EXPECT_EQ(refused(NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_TYPES), 0, 4),
                  NAMP_ERR_BAD_PARAM)
            << "type not in the table";
        EXPECT_EQ(
            refused(NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_T_INT32), 0, 6),
            NAMP_ERR_BAD_PARAM)
            << "size not a multiple of the type";
        EXPECT_EQ(
            refused(NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_T_INT32), 0, 4, 2),
            NAMP_ERR_BAD_PARAM)
            << "one destination per contribution";
        EXPECT_EQ(refused(NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_T_INT32),
                          NAMP_FLAG_CON, 4),
                  NAMP_ERR_INVALID_FLAGS)
            << "connection-less only";
        // a receiving endpoint without a reduction descriptor: the member fails (NACK BAD_PARAM)
        m.put(0, EP + NAMP_EP_CC, 0);
        EXPECT_EQ(
            refused(NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_T_INT32), 0, 8),
            NAMP_ERR_CC_MEMBER);
        EXPECT_EQ(NAMP_CC_MSTAT_CODE(m.get(1, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_STATUS)),
                  NAMP_ERR_BAD_PARAM);
    }});
}

TEST(NampCc, ReductionDisabledIsAbsentHardware) {
    bench b(cc_on);  // multicast only
    mem_view m{b};
    reduce_receiver(m, 1);
    reduce_sender(m, 1, 1, NAMP_CC_OP_SUM, NAMP_CC_T_INT32);
    b.run({[&] {
        start(b.d(1), 0, NAMP_FLAG_CC, DESC, DATA, 4);
        EXPECT_EQ(code_of(wait_done(b, 1, 0)), NAMP_ERR_MODE_UNSUPPORTED);
    }});
}

// ---- scatter ----

namespace {
const std::vector<std::string> sg_on = {"namp.enabled=true", "namp.enable_cc_scattergather=true"};
}

// A 7-byte-wide matrix of 5 rows: member i receives the column block [base, base + size) of every
// row (count 5, stride 7, odd sizes and bases), contiguous, on a channel (DIRECT handles).
TEST(NampCc, ScatterWithOddStridesOverChannels) {
    bench b(sg_on);
    mem_view m{b};
    const uint32_t base[3] = {0, 3, 4}, size[3] = {3, 1, 3};
    for (unsigned t = 1; t < 4; ++t) {
        const uint32_t h = H + 0x40 * t;
        m.endpoint(t, NAMP_EP_F_NOTIFY | NAMP_EP_F_CHANNEL);
        m.cbuffer(t, RXB, 2, 6);
        m.handle(0, h, t, EP, 1);
        m.put(0, h + NAMP_H_FLAGS, NAMP_H_F_CONNECTED | NAMP_H_F_DIRECT | NAMP_H_GEOMETRY(2, 6));
        m.put(0, h + NAMP_H_RDATA, m.elem_data(t, 0));
    }
    m.put(0, DESC + NAMP_CC_KIND, NAMP_CC_SCATTER_WORD(5));
    m.put(0, DESC + NAMP_CC_NUM, 3);
    m.put(0, DESC + NAMP_CC_STRIDE, 7);
    for (uint32_t i = 0; i < 3; ++i) {
        m.put(0, DESC + NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE, H + 0x40 * (i + 1));
        m.put(0, DESC + NAMP_CC_MEMBER(i) + NAMP_CC_M_BASE, base[i]);
        m.put(0, DESC + NAMP_CC_MEMBER(i) + NAMP_CC_M_SIZE, size[i]);
    }
    for (uint32_t k = 0; k < 35; ++k) b.mem(0)[DATA - TILE_SRAM_BASE + k] = uint8_t(0x40 + k);
    b.run({[&] {
        start(b.d(0), 0, NAMP_FLAG_CC | NAMP_FLAG_CON, DESC, DATA, 35);
        const uint32_t st = wait_done(b, 0, 0);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u) << std::hex << st;
        for (unsigned t = 1; t < 4; ++t) {
            const uint32_t i = t - 1;
            poll(b, t, na(NA_NAMP_RX_COUNT), ~0u, 1);
            EXPECT_EQ(m.elem_size(t, 0), MP_CB_COMMITTED | (5 * size[i])) << t;
            const uint8_t *got = b.mem(t) + (m.elem_data(t, 0) - TILE_SRAM_BASE);
            for (uint32_t r = 0; r < 5; ++r)
                for (uint32_t c = 0; c < size[i]; ++c)
                    EXPECT_EQ(got[r * size[i] + c], uint8_t(0x40 + r * 7 + base[i] + c))
                        << t << " " << r << " " << c;
        }
    }});
}

TEST(NampCc, ScatterRefusals) {
    bench b(sg_on);
    mem_view m{b};
    m.endpoint(1, NAMP_EP_F_NOTIFY | NAMP_EP_F_CHANNEL);
    m.cbuffer(1, RXB, 2, 6);
    m.handle(0, H, 1, EP, 4);
    b.run({[&] {
        auto run = [&](uint32_t count, uint32_t flags, uint32_t base, uint32_t size, uint32_t p3) {
            m.put(0, DESC + NAMP_CC_KIND, NAMP_CC_SCATTER_WORD(count));
            m.put(0, DESC + NAMP_CC_NUM, 1);
            m.put(0, DESC + NAMP_CC_STRIDE, 8);
            m.put(0, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE, H);
            m.put(0, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_BASE, base);
            m.put(0, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_SIZE, size);
            return run_refused(b, NAMP_FLAG_CC | flags, DESC, DATA, p3);
        };
        EXPECT_EQ(code_of(run(2, 0, 0, 4, 16)), NAMP_ERR_INVALID_FLAGS)
            << "connection-oriented only";
        EXPECT_EQ(code_of(run(0, NAMP_FLAG_CON, 0, 4, 16)), NAMP_ERR_BAD_PARAM) << "count 0";
        uint32_t st = run(2, NAMP_FLAG_CON, 6, 4, 16);  // 6 + 8 + 4 = 18 > 16
        EXPECT_EQ(code_of(st), NAMP_ERR_CC_MEMBER);
        EXPECT_EQ(NAMP_CC_MSTAT_CODE(m.member_status(0)), NAMP_ERR_BAD_PARAM)
            << "chunks outside the data";
        st = run(2, NAMP_FLAG_CON, 0, 0, 16);
        EXPECT_EQ(NAMP_CC_MSTAT_CODE(m.member_status(0)), NAMP_ERR_BAD_PARAM) << "size 0";
        st = run(2, NAMP_FLAG_CON, 4, 4, 16);  // 4 + 8 + 4 = 16: fits
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u);
        EXPECT_EQ(m.get(0, H + NAMP_H_CREDITS), 3u) << "the failed members gave their credit back";
    }});
}

// ---- gather ----

namespace {
constexpr uint32_t RXG = TILE_SRAM_BASE + 0x50000;  // gather descriptor (after the 16 KiB buffer)
// root tile 0: endpoint with a 4-element buffer of 4 KiB elements and a gather descriptor
void gather_root(mem_view &m, uint32_t parts, uint32_t msg) {
    m.endpoint(0);
    m.cbuffer(0, RXB, 2, 12);
    m.put(0, EP + NAMP_EP_CC, RXG);
    m.put(0, RXG + NAMP_CC_RX_KIND, NAMP_CC_K_GATHER);
    m.put(0, RXG + NAMP_CC_RX_CONTRIB, parts);
    m.put(0, RXG + NAMP_CC_RX_MSGSIZE, msg);
    for (uint32_t k = 0; k < 4; ++k) {
        m.put(0, RXG + NAMP_CC_RX_ENTRY(k), 0);
        m.put(0, RXG + NAMP_CC_RX_ENTRY(k) + 4, 0);
    }
}
// sender tile t: channel handle to the root (geometry 2^12), gather descriptor of one part
void gather_part(mem_view &m, unsigned t, uint32_t id, uint32_t part, uint32_t count, uint32_t base,
                 uint32_t chunk, uint32_t stride) {
    m.handle(t, H, 0, EP, 4);
    m.put(t, H + NAMP_H_FLAGS, NAMP_H_F_CONNECTED | NAMP_H_GEOMETRY(2, 12));
    m.put(t, DESC + NAMP_CC_KIND, NAMP_CC_GATHER_WORD(count, part));
    m.put(t, DESC + NAMP_CC_NUM, 1);
    m.put(t, DESC + NAMP_CC_ID, id);
    m.put(t, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE, H);
    m.put(t, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_BASE, base);
    m.put(t, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_SIZE, chunk);
    m.put(t, DESC + NAMP_CC_GATHER_STRIDE, stride);
}
}  // namespace

// Three senders each own a 3-byte column block of a 5-row matrix 9 bytes wide (odd stride): the
// root's element tracks the parts (allocated and finalized bits) and is one message when the
// last part is in.
TEST(NampCc, GatherWithOddStridesCompletesWithTheLastPart) {
    bench b(sg_on);
    mem_view m{b};
    gather_root(m, 3, 45);
    for (unsigned t = 1; t < 4; ++t) {
        gather_part(m, t, 9, t - 1, 5, 3 * (t - 1), 3, 9);
        for (uint32_t k = 0; k < 15; ++k) b.mem(t)[DATA - TILE_SRAM_BASE + k] = uint8_t(16 * t + k);
    }
    b.run({[&] {
        for (unsigned t = 1; t < 3; ++t) {
            start(b.d(t), 0, NAMP_FLAG_CC | NAMP_FLAG_CON, DESC, DATA, 15);
            EXPECT_EQ(wait_done(b, t, 0) & NAMP_STATUS_ERROR, 0u);
        }
        b.cycles(300);
        const uint32_t st = m.get(0, RXG + NAMP_CC_RX_ENTRY(0) + 4);
        EXPECT_EQ(NAMP_CC_RX_G_ALLOCATED(st), 3u);
        EXPECT_EQ(NAMP_CC_RX_G_FINISHED(st), 3u);
        EXPECT_EQ(m.elem_size(0, 0), 0u) << "incomplete";
        start(b.d(3), 0, NAMP_FLAG_CC | NAMP_FLAG_CON, DESC, DATA, 15);
        EXPECT_EQ(wait_done(b, 3, 0) & NAMP_STATUS_ERROR, 0u);
        poll(b, 0, na(NA_NAMP_RX_COUNT), ~0u, 1);
        EXPECT_EQ(m.elem_size(0, 0), MP_CB_COMMITTED | 45u);
        EXPECT_EQ(m.get(0, RXB + MP_CB_OFF_WR_IDX), 1u);
        const uint8_t *e = b.mem(0) + (m.elem_data(0, 0) - TILE_SRAM_BASE);
        for (uint32_t row = 0; row < 5; ++row)
            for (uint32_t col = 0; col < 9; ++col) {
                const uint32_t t = col / 3 + 1;
                EXPECT_EQ(e[row * 9 + col], uint8_t(16 * t + row * 3 + col % 3))
                    << row << " " << col;
            }
    }});
}

TEST(NampCc, GatherRefusals) {
    bench b(sg_on);
    mem_view m{b};
    gather_root(m, 2, 64);
    b.run({[&] {
        auto run = [&](uint32_t flags, uint32_t part, uint32_t count, uint32_t base, uint32_t chunk,
                       uint32_t stride, uint32_t size) {
            gather_part(m, 1, 1, part, count, base, chunk, stride);
            start(b.d(1), 0, NAMP_FLAG_CC | flags, DESC, DATA, size);
            const uint32_t st = wait_done(b, 1, 0);
            b.d(1).wr(slot(0, NAMP_SLOT_FLAGS), 0);
            return st;
        };
        EXPECT_EQ(code_of(run(0, 0, 2, 0, 4, 8, 8)), NAMP_ERR_INVALID_FLAGS) << "channels only";
        EXPECT_EQ(code_of(run(NAMP_FLAG_CON, 0, 0, 0, 4, 8, 8)), NAMP_ERR_BAD_PARAM) << "count 0";
        EXPECT_EQ(code_of(run(NAMP_FLAG_CON, 15, 2, 0, 4, 8, 8)), NAMP_ERR_BAD_PARAM) << "part 15";
        EXPECT_EQ(code_of(run(NAMP_FLAG_CON, 0, 2, 0, 4, 8, 12)), NAMP_ERR_CC_MEMBER)
            << "size != count x chunk";
        EXPECT_EQ(code_of(run(NAMP_FLAG_CON, 0, 2, 4090, 4, 8, 8)), NAMP_ERR_CC_MEMBER)
            << "beyond the element";
        EXPECT_EQ(code_of(run(NAMP_FLAG_CON, 3, 2, 0, 4, 8, 8)), NAMP_ERR_CC_MEMBER)
            << "part >= parts (NACK)";
        EXPECT_EQ(NAMP_CC_MSTAT_CODE(m.get(1, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_STATUS)),
                  NAMP_ERR_BAD_PARAM);
        EXPECT_EQ(m.get(1, H + NAMP_H_CREDITS), 4u) << "credits given back";
    }});
}

// Fig. 3.29: flits of a 4 KiB gather against the chunk size, packed (namp.cc_gather_packing,
// default) and plain DMA, measured on the data-request channel, against the formula with this
// model's header sizes (plain 3 flits: header, address, control; packed 5: also chunk and stride).
void gather_flits(bool packing) {
    bench b({"namp.enabled=true", "namp.enable_cc_scattergather=true",
             packing ? "namp.cc_gather_packing=true" : "namp.cc_gather_packing=false"});
    mem_view m{b};
    const uint32_t S = 4096, p = b.plat->config().noc.max_packet_flits;
    gather_root(m, 1, S);
    b.run({[&] {
        uint32_t id = 1;
        for (uint32_t s : {4u, 8u, 12u, 16u, 24u, 32u, 48u, 64u}) {
            gather_part(m, 1, id++, 0, S / s, 0, s, s);
            const uint64_t f0 = b.stats(1).flits_sent[noc::index_of(noc::channel::data_request)];
            start(b.d(1), 0, NAMP_FLAG_CC | NAMP_FLAG_CON, DESC, DATA, S / s * s);
            EXPECT_EQ(wait_done(b, 1, 0) & NAMP_STATUS_ERROR, 0u);
            b.d(1).wr(slot(0, NAMP_SLOT_FLAGS), 0);
            const uint64_t flits =
                b.stats(1).flits_sent[noc::index_of(noc::channel::data_request)] - f0;
            poll(b, 0, na(NA_NAMP_RX_COUNT), ~0u, 1);
            b.d(0).wr(na(NA_NAMP_RX_COUNT), 1);
            m.put(0, RXB + MP_CB_HEADER_SIZE + 4 * ((id - 2) & 3), 0);  // the consumer frees it
            m.put(0, RXB + MP_CB_OFF_RD_IDX, id - 1);
            // the formula (thesis 3.3.3.1) in words: S/4 data words, chunks of s/4 words
            const uint64_t Sw = S / 4, sw = (s + 3) / 4, nc = S / s;
            uint64_t formula;
            const bool pack = packing && 2 * s < (p - 3) * 4 && (p - 5) * 4 / s >= 2;
            if (pack) {
                const uint64_t c = (p - 5) * 4 / s;
                formula = (nc / c) * (5 + c * sw) + (nc % c ? 5 + (nc % c) * sw : 0);
            } else {
                formula = nc * 3 * ((sw + (p - 3) - 1) / (p - 3)) + nc * sw;
            }
            (void)Sw;
            std::cout << "ccflits mode=" << (packing ? "packed" : "plain") << " chunk=" << s
                      << " flits=" << flits << " formula=" << formula << " p=" << p << "\n";
            EXPECT_EQ(flits, formula) << "chunk " << s;
        }
    }});
}

TEST(NampCc, GatherFlitsPackedMatchTheFormula) { gather_flits(true); }
TEST(NampCc, GatherFlitsPlainMatchTheFormula) { gather_flits(false); }

// A part whose data the root's adapter refuses (fault injection) fails with REMOTE; its FINAL is
// VOID and poisons the gather: once all parts are finalized the element is committed VOID (the
// receiver skips it), nothing waits forever.
TEST(NampCc, FailedGatherPartPoisonsTheMessage) {
    bench b({"namp.enabled=true", "namp.enable_cc_scattergather=true", "na.fault_dma_every=1"});
    mem_view m{b};
    gather_root(m, 2, 16);
    for (unsigned t = 1; t < 3; ++t) gather_part(m, t, 5, t - 1, 2, 4 * (t - 1), 4, 8);
    b.run({[&] {
        for (unsigned t = 1; t < 3; ++t) {
            start(b.d(t), 0, NAMP_FLAG_CC | NAMP_FLAG_CON, DESC, DATA, 8);
            EXPECT_EQ(code_of(wait_done(b, t, 0)), NAMP_ERR_CC_MEMBER);
            EXPECT_EQ(NAMP_CC_MSTAT_CODE(m.get(t, DESC + NAMP_CC_MEMBER(0) + NAMP_CC_M_STATUS)),
                      NAMP_ERR_REMOTE);
        }
        b.cycles(500);
        EXPECT_EQ(m.elem_size(0, 0), MP_CB_COMMITTED | MP_CB_VOID);
        EXPECT_EQ(m.get(0, RXG + NAMP_CC_RX_ENTRY(0) + 4), 0u) << "entry free again";
        EXPECT_EQ(b.d(0).rd(na(NA_NAMP_RX_COUNT)), 0u) << "no message";
    }});
    EXPECT_EQ(b.stats(0).namp_voided, 1u);
}

// The same for a reduction: a failed contribution poisons it.
TEST(NampCc, FailedContributionPoisonsTheReduction) {
    bench b({"namp.enabled=true", "namp.enable_cc_reduction=true", "na.fault_dma_every=1"});
    mem_view m{b};
    reduce_receiver(m, 2);
    for (unsigned t = 1; t < 3; ++t) reduce_sender(m, t, 3, NAMP_CC_OP_BXOR, NAMP_CC_T_UINT8);
    b.run({[&] {
        for (unsigned t = 1; t < 3; ++t) {
            start(b.d(t), 0, NAMP_FLAG_CC, DESC, DATA, 8);
            EXPECT_EQ(code_of(wait_done(b, t, 0)), NAMP_ERR_CC_MEMBER);
        }
        b.cycles(500);
        EXPECT_EQ(m.elem_size(0, 0), MP_CB_COMMITTED | MP_CB_VOID);
        EXPECT_EQ(b.d(0).rd(na(NA_NAMP_RX_COUNT)), 0u);
    }});
}
