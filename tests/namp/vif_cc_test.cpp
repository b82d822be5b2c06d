// Collectives through a virtual interface (docs/namp.md "Collectives through a vif"): a task's
// multicast, scatter, gather part and reduction contribution started on its vif page, with the
// descriptor and the data in the collective area the kernel granted and the members named by vID.
// The results are checked as in cc_test.cpp; then every refusal, and a randomized adversary that
// writes descriptors (also while the collective runs) beside secret words.
#include <map>
#include <random>

#include "na_test_support.h"
#include "namp_cc.h"
#include "namp_mem.h"
#include "namp_ps.h"

using namespace na_test;

namespace {

const std::vector<std::string> sv_cc = {"namp.enabled=true",
                                        "namp.slots=5",
                                        "namp.slots_virt=4",
                                        "namp.enable_cc_multicast=true",
                                        "namp.enable_cc_scattergather=true",
                                        "namp.enable_cc_reduction=true"};

constexpr unsigned VSLOT = 3;                       // the task's vif slot (tile 0)
constexpr uint32_t EP = TILE_SRAM_BASE + 0x10000;   // receivers: message endpoint (kernel)
constexpr uint32_t RXB = TILE_SRAM_BASE + 0x11000;  // its receive buffer
constexpr uint32_t EPC = TILE_SRAM_BASE + 0x10100;  // channel endpoint
constexpr uint32_t RXC = TILE_SRAM_BASE + 0x14000;  // its receive buffer
constexpr uint32_t RXD = TILE_SRAM_BASE + 0x18000;  // root's receive-side CC descriptor
constexpr uint32_t H = TILE_SRAM_BASE + 0x20000;    // tile 0: message handle to tile t: H + 0x40 t
constexpr uint32_t HC = TILE_SRAM_BASE + 0x20400;   // tile 0: channel handle to tile t: HC + 0x40 t
constexpr uint32_t AREA = TILE_SRAM_BASE + 0x21000;  // tile 0: the task's collective area
constexpr uint32_t AREA_SIZE = 0x1000;
constexpr uint32_t ET = TILE_SRAM_BASE + 0x30000;  // tile 0: the task's endpoint table
constexpr uint32_t SECRET_WORD = 0x5EC12E70u;
constexpr uint32_t DESC_OFF = 0x40, DATA_OFF = 0x400;  // in the area
// vIDs: 0..2 message handles to tiles 1..3, 3..5 channel handles, 6 the area, 7 a credit path,
// 8 a send buffer (the area again, as the wrong kind), 9 and 10 contributor handles (NAMP_ET_MEMBER)
// of tile 1's endpoint and channel endpoint: the only members a reduction or gather may name
constexpr uint32_t V_AREA = 6, V_CREDIT = 7, V_SENDBUF = 8, V_MEMBER = 9, V_MEMBER_CHAN = 10,
                   BOUND = 11;

uint32_t vifc(uint32_t reg) { return vif_cfg_reg(VSLOT, reg); }
uint32_t vifr(uint32_t reg) { return vif_reg(VSLOT, reg); }

struct mem : namp_mem {
    void entry(uint32_t vid, uint32_t addr, uint32_t kind, uint32_t limit) {
        et_entry(ET, vid, addr, kind, limit);
    }
    // Every word of every tile a secret, then the kernel's structures and the tasks' pages.
    void setup() {
        for (unsigned t = 0; t < 4; ++t)
            for (uint32_t o = 0; o < (1u << 20); o += 4) put(t, TILE_SRAM_BASE + o, SECRET_WORD);
        zero(0, AREA, AREA_SIZE);
        for (unsigned t = 1; t < 4; ++t) {
            zero(t, RXB, 0x1000);  // the receiving tasks' pages
            zero(t, RXC, 0x1000);
            endpoint(t, EP, RXB);
            cbuffer(t, RXB, 2, 8);
            endpoint(t, EPC, RXC, NAMP_EP_F_NOTIFY | NAMP_EP_F_CHANNEL);
            cbuffer(t, RXC, 2, 8);
            handle(0, H + 0x40 * t, t, EP, 0, 0);
            handle(0, HC + 0x40 * t, t, EPC, 4);
            direct(0, HC + 0x40 * t, t, RXC);
            entry(t - 1, H + 0x40 * t, NAMP_ET_HANDLE, NAMP_H_SIZE);
            entry(t + 2, HC + 0x40 * t, NAMP_ET_HANDLE, NAMP_H_SIZE);
        }
        entry(V_AREA, AREA, NAMP_ET_CCAREA, AREA_SIZE);
        entry(V_CREDIT, HC + 0x40, NAMP_ET_CREDIT, NAMP_H_SIZE);
        entry(V_SENDBUF, AREA, NAMP_ET_SENDBUF, AREA_SIZE);
        entry(V_MEMBER, H + 0x40, NAMP_ET_MEMBER, NAMP_H_SIZE);
        entry(V_MEMBER_CHAN, HC + 0x40, NAMP_ET_MEMBER, NAMP_H_SIZE);
    }
    uint32_t desc(uint32_t off) { return AREA + DESC_OFF + off; }
    void descriptor(uint32_t kind, const std::vector<uint32_t> &vids) {
        put(0, desc(NAMP_CC_KIND), kind);
        put(0, desc(NAMP_CC_NUM), uint32_t(vids.size()));
        put(0, desc(NAMP_CC_RESULT), 0xFFFFFFFFu);
        for (uint32_t i = 0; i < vids.size(); ++i) {
            put(0, desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE), vids[i]);
            put(0, desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_STATUS), 0xFFFFFFFFu);
        }
    }
    uint32_t member_status(uint32_t i) {
        return get(0, desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_STATUS));
    }
    void data(uint32_t bytes, uint32_t tag) {
        for (uint32_t k = 0; k < bytes / 4; ++k) put(0, AREA + DATA_OFF + 4 * k, tag + k);
    }
};

void configure(driver &d) {
    d.wr(vifc(NAMP_VIFC_ET_BASE), ET);
    d.wr(vifc(NAMP_VIFC_ET_BOUND), BOUND);
    d.wr(vifc(NAMP_VIFC_CTRL), NAMP_VIFC_READY);
}

// Starts a collective on the task's vif and waits for DONE; returns STATUS (0xFFFFFFFF: still
// running after `tries` polls) and acknowledges it.
uint32_t vcc(bench &b, uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3,
             unsigned tries = 20000) {
    driver &d = b.d(0);
    d.wr(vifr(NAMP_VIF_PARAM1), p1);
    d.wr(vifr(NAMP_VIF_PARAM2), p2);
    d.wr(vifr(NAMP_VIF_PARAM3), p3);
    d.wr(vifr(NAMP_VIF_FLAGS), flags | NAMP_FLAG_VALID);
    for (unsigned i = 0; i < tries; ++i) {
        if (d.rd(vifr(NAMP_VIF_FLAGS)) & NAMP_FLAG_DONE) {
            const uint32_t st = d.rd(vifr(NAMP_VIF_STATUS));
            d.wr(vifr(NAMP_VIF_FLAGS), 0);
            return st;
        }
        b.cycles(10);
    }
    return 0xFFFFFFFFu;
}

uint32_t p1_of(uint32_t desc_off = DESC_OFF) { return NAMP_VIF_CC_PARAM1(V_AREA, desc_off); }

unsigned changed_outside(mem &m, unsigned t,
                         const std::vector<std::pair<uint32_t, uint32_t>> &allowed) {
    return m.changed_outside(t, SECRET_WORD, allowed);
}

const std::vector<std::pair<uint32_t, uint32_t>> kernel0 = {
    {AREA, AREA + AREA_SIZE}, {H, HC + 0x40 * 4}, {ET, ET + BOUND *NAMP_ET_ENTRY_SIZE}};

}  // namespace

// A multicast to three tiles through the vif: every member receives the data, the task's
// descriptor holds the results and still its vIDs (no physical address appears in task memory).
TEST(SvCc, MulticastThroughAVif) {
    bench b(sv_cc);
    mem m{b};
    m.setup();
    m.descriptor(NAMP_CC_K_MULTICAST, {0, 1, 2});
    m.data(96, 0xA000);
    b.run({[&] {
        configure(b.d(0));
        const uint32_t st = vcc(b, NAMP_FLAG_CC, p1_of(), DATA_OFF, 96);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u) << std::hex << st;
        for (unsigned t = 1; t < 4; ++t) poll(b, t, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
    for (unsigned t = 1; t < 4; ++t) {
        EXPECT_EQ(m.elem_size(t, RXB, 0), MP_CB_COMMITTED | 96u) << t;
        for (uint32_t k = 0; k < 24; ++k)
            EXPECT_EQ(m.get(t, m.elem_data(t, RXB, 0) + 4 * k), 0xA000 + k);
    }
    EXPECT_EQ(NAMP_CC_RESULT_DONE(m.get(0, m.desc(NAMP_CC_RESULT))), 3u);
    for (uint32_t i = 0; i < 3; ++i) {
        EXPECT_EQ(NAMP_CC_MSTAT_STATE(m.member_status(i)), NAMP_STATE_DONE) << i;
        EXPECT_EQ(m.get(0, m.desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE)), i)
            << "the vID, not an address";
    }
    EXPECT_EQ(changed_outside(m, 0, kernel0), 0u);
}

// A scatter over three channels (odd stride, chunks of different sizes) through the vif.
TEST(SvCc, ScatterThroughAVif) {
    bench b(sv_cc);
    mem m{b};
    m.setup();
    const uint32_t base[3] = {0, 3, 4}, size[3] = {3, 1, 3};
    m.descriptor(NAMP_CC_SCATTER_WORD(5), {3, 4, 5});
    m.put(0, m.desc(NAMP_CC_STRIDE), 7);
    for (uint32_t i = 0; i < 3; ++i) {
        m.put(0, m.desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_BASE), base[i]);
        m.put(0, m.desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_SIZE), size[i]);
    }
    for (uint32_t k = 0; k < 35; ++k)
        b.mem(0)[AREA + DATA_OFF - TILE_SRAM_BASE + k] = uint8_t(0x40 + k);
    b.run({[&] {
        configure(b.d(0));
        const uint32_t st = vcc(b, NAMP_FLAG_CC | NAMP_FLAG_CON, p1_of(), DATA_OFF, 35);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u) << std::hex << st;
        for (unsigned t = 1; t < 4; ++t) poll(b, t, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
    for (unsigned t = 1; t < 4; ++t) {
        const uint32_t i = t - 1;
        EXPECT_EQ(m.elem_size(t, RXC, 0), MP_CB_COMMITTED | (5 * size[i])) << t;
        const uint8_t *got = b.mem(t) + (m.elem_data(t, RXC, 0) - TILE_SRAM_BASE);
        for (uint32_t r = 0; r < 5; ++r)
            for (uint32_t c = 0; c < size[i]; ++c)
                EXPECT_EQ(got[r * size[i] + c], uint8_t(0x40 + r * 7 + base[i] + c))
                    << t << " " << r << " " << c;
    }
    EXPECT_EQ(changed_outside(m, 0, kernel0), 0u);
}

// A reduction whose root (tile 1) combines the task's contribution with a bare-metal one from
// tile 2: the root receives one message, the sum.
TEST(SvCc, ReductionContributionThroughAVif) {
    bench b(sv_cc);
    mem m{b};
    m.setup();
    m.put(1, EP + NAMP_EP_CC, RXD);
    m.zero(1, RXD, NAMP_CC_RX_SIZE(2));
    m.put(1, RXD + NAMP_CC_RX_KIND, NAMP_CC_K_REDUCE);
    m.put(1, RXD + NAMP_CC_RX_CONTRIB, 2);
    m.descriptor(NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_T_INT32), {V_MEMBER});
    m.put(0, m.desc(NAMP_CC_ID), 7);
    m.data(128, 1000);
    // tile 2, bare metal: its own handle and descriptor (physical addresses)
    constexpr uint32_t D2 = TILE_SRAM_BASE + 0x40000, X2 = TILE_SRAM_BASE + 0x41000,
                       H2 = TILE_SRAM_BASE + 0x42000;
    m.handle(2, H2, 1, EP, 0, 0);
    m.zero(2, D2, NAMP_CC_SIZE(1));
    m.put(2, D2 + NAMP_CC_KIND,
          NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_T_INT32));
    m.put(2, D2 + NAMP_CC_NUM, 1);
    m.put(2, D2 + NAMP_CC_ID, 7);
    m.put(2, D2 + NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE, H2);
    for (uint32_t k = 0; k < 32; ++k) m.put(2, X2 + 4 * k, 5 * k);
    b.run({[&] {
        configure(b.d(0));
        start_slot(b.d(2), 0, NAMP_FLAG_CC, D2, X2, 128);
        EXPECT_EQ(error_code(finish_slot(b, 2, 0)), 0u);
        const uint32_t st = vcc(b, NAMP_FLAG_CC, p1_of(), DATA_OFF, 128);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u) << std::hex << st;
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
    EXPECT_EQ(m.elem_size(1, RXB, 0), MP_CB_COMMITTED | 128u);
    for (uint32_t k = 0; k < 32; ++k)
        EXPECT_EQ(m.get(1, m.elem_data(1, RXB, 0) + 4 * k), 1000 + 6 * k) << k;
    EXPECT_EQ(changed_outside(m, 0, kernel0), 0u);
}

// A gather: the task sends part 0 (columns 0..2) through its vif, tile 2 part 1 (columns 3..5)
// bare metal; the root (tile 1) receives one 5 x 6 matrix.
TEST(SvCc, GatherPartThroughAVif) {
    bench b(sv_cc);
    mem m{b};
    m.setup();
    m.cbuffer(1, RXC, 2, 8);
    m.put(1, EPC + NAMP_EP_CC, RXD);
    m.zero(1, RXD, NAMP_CC_RX_SIZE(2));
    m.put(1, RXD + NAMP_CC_RX_KIND, NAMP_CC_K_GATHER);
    m.put(1, RXD + NAMP_CC_RX_CONTRIB, 2);
    m.put(1, RXD + NAMP_CC_RX_MSGSIZE, 30);
    m.put(0, HC + 0x40 + NAMP_H_FLAGS, NAMP_H_F_CONNECTED | NAMP_H_GEOMETRY(2, 8));  // no fast path
    m.descriptor(NAMP_CC_GATHER_WORD(5, 0), {V_MEMBER_CHAN});
    m.put(0, m.desc(NAMP_CC_ID), 9);
    m.put(0, m.desc(NAMP_CC_MEMBER(0) + NAMP_CC_M_BASE), 0);
    m.put(0, m.desc(NAMP_CC_MEMBER(0) + NAMP_CC_M_SIZE), 3);
    m.put(0, m.desc(NAMP_CC_GATHER_STRIDE), 6);
    for (uint32_t k = 0; k < 15; ++k)
        b.mem(0)[AREA + DATA_OFF - TILE_SRAM_BASE + k] = uint8_t(0x10 + k);
    constexpr uint32_t D2 = TILE_SRAM_BASE + 0x40000, X2 = TILE_SRAM_BASE + 0x41000,
                       H2 = TILE_SRAM_BASE + 0x42000;
    m.handle(2, H2, 1, EPC, 4, NAMP_H_F_CONNECTED | NAMP_H_GEOMETRY(2, 8));
    m.zero(2, D2, NAMP_CC_GATHER_DESC_SIZE);
    m.put(2, D2 + NAMP_CC_KIND, NAMP_CC_GATHER_WORD(5, 1));
    m.put(2, D2 + NAMP_CC_NUM, 1);
    m.put(2, D2 + NAMP_CC_ID, 9);
    m.put(2, D2 + NAMP_CC_MEMBER(0) + NAMP_CC_M_HANDLE, H2);
    m.put(2, D2 + NAMP_CC_MEMBER(0) + NAMP_CC_M_BASE, 3);
    m.put(2, D2 + NAMP_CC_MEMBER(0) + NAMP_CC_M_SIZE, 3);
    m.put(2, D2 + NAMP_CC_GATHER_STRIDE, 6);
    for (uint32_t k = 0; k < 15; ++k) b.mem(2)[X2 - TILE_SRAM_BASE + k] = uint8_t(0x80 + k);
    b.run({[&] {
        configure(b.d(0));
        const uint32_t st = vcc(b, NAMP_FLAG_CC | NAMP_FLAG_CON, p1_of(), DATA_OFF, 15);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u) << std::hex << st;
        start_slot(b.d(2), 0, NAMP_FLAG_CC | NAMP_FLAG_CON, D2, X2, 15);
        EXPECT_EQ(error_code(finish_slot(b, 2, 0)), 0u);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
    EXPECT_EQ(m.elem_size(1, RXC, 0), MP_CB_COMMITTED | 30u);
    const uint8_t *e = b.mem(1) + (m.elem_data(1, RXC, 0) - TILE_SRAM_BASE);
    for (uint32_t row = 0; row < 5; ++row)
        for (uint32_t col = 0; col < 6; ++col)
            EXPECT_EQ(e[row * 6 + col],
                      uint8_t(col < 3 ? 0x10 + row * 3 + col : 0x80 + row * 3 + col - 3))
                << row << " " << col;
    EXPECT_EQ(changed_outside(m, 0, kernel0), 0u);
}

// Every way a task can name something outside what it was granted: refused with a vif code
// before the slot starts (area, offsets), per member (vIDs), or WINDOW (a member table reaching
// out of the area); nothing outside the area changes and nothing is sent.
TEST(SvCc, RefusalsOfAreaDescriptorDataAndMembers) {
    bench b(sv_cc);
    mem m{b};
    m.setup();
    m.data(64, 0xB000);
    b.run({[&] {
        configure(b.d(0));
        auto code = [&](uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3) {
            const uint32_t st = vcc(b, flags, p1, p2, p3);
            return st & NAMP_STATUS_ERROR ? NAMP_STATUS_CODE(st) : 0u;
        };
        m.descriptor(NAMP_CC_K_MULTICAST, {0});
        // the area itself
        EXPECT_EQ(code(NAMP_FLAG_CC, NAMP_VIF_CC_PARAM1(BOUND, DESC_OFF), DATA_OFF, 64),
                  NAMP_ERR_VIF_BOUND);
        EXPECT_EQ(code(NAMP_FLAG_CC, NAMP_VIF_CC_PARAM1(0, DESC_OFF), DATA_OFF, 64),
                  NAMP_ERR_VIF_ENTRY);
        EXPECT_EQ(code(NAMP_FLAG_CC, NAMP_VIF_CC_PARAM1(V_SENDBUF, DESC_OFF), DATA_OFF, 64),
                  NAMP_ERR_VIF_ENTRY);
        // descriptor and data offsets
        EXPECT_EQ(code(NAMP_FLAG_CC, p1_of(DESC_OFF + 2), DATA_OFF, 64), NAMP_ERR_VIF_WINDOW);
        EXPECT_EQ(code(NAMP_FLAG_CC, p1_of(AREA_SIZE - 8), DATA_OFF, 64), NAMP_ERR_VIF_WINDOW);
        EXPECT_EQ(code(NAMP_FLAG_CC, p1_of(0xFFFFC), DATA_OFF, 64), NAMP_ERR_VIF_WINDOW);
        EXPECT_EQ(code(NAMP_FLAG_CC, p1_of(), AREA_SIZE - 60, 64), NAMP_ERR_VIF_WINDOW);
        EXPECT_EQ(code(NAMP_FLAG_CC, p1_of(), 0xFFFFFFF0u, 64), NAMP_ERR_VIF_WINDOW);
        EXPECT_EQ(code(NAMP_FLAG_CC, p1_of(), DATA_OFF, 0xFFFFFFF0u), NAMP_ERR_VIF_WINDOW);
        // other modes keep their rules: a plain BUF=0 send, PS, CC with a send buffer
        EXPECT_EQ(code(0, 0, DATA_OFF, 64), NAMP_ERR_VIF_MODE);
        EXPECT_EQ(code(NAMP_FLAG_CC | NAMP_FLAG_PS, p1_of(), DATA_OFF, 64), NAMP_ERR_VIF_MODE);
        EXPECT_EQ(code(NAMP_FLAG_CC | NAMP_FLAG_BUF, p1_of(), DATA_OFF, 64),
                  NAMP_ERR_INVALID_FLAGS);
        // a member table that reaches beyond the area: WINDOW, no member runs
        m.put(0, AREA + AREA_SIZE - 0x14 + NAMP_CC_KIND, NAMP_CC_K_MULTICAST);
        m.put(0, AREA + AREA_SIZE - 0x14 + NAMP_CC_NUM, 1);
        EXPECT_EQ(code(NAMP_FLAG_CC, p1_of(AREA_SIZE - 0x14), DATA_OFF, 64), NAMP_ERR_WINDOW);
        m.put(0, AREA + AREA_SIZE - 0x20 + NAMP_CC_KIND, NAMP_CC_GATHER_WORD(1, 0));
        m.put(0, AREA + AREA_SIZE - 0x20 + NAMP_CC_NUM, 1);
        EXPECT_EQ(code(NAMP_FLAG_CC | NAMP_FLAG_CON, p1_of(AREA_SIZE - 0x20), DATA_OFF, 4),
                  NAMP_ERR_WINDOW)
            << "a gather's stride word lies after its member";
        // members: out of bound, the wrong kind, a physical handle address, the area; one good
        m.descriptor(NAMP_CC_K_MULTICAST, {BOUND, V_CREDIT, H + 0x40, V_AREA, 4000, 1});
        EXPECT_EQ(code(NAMP_FLAG_CC, p1_of(), DATA_OFF, 64), NAMP_ERR_CC_MEMBER);
        const uint32_t want[6] = {NAMP_ERR_VIF_BOUND, NAMP_ERR_VIF_ENTRY, NAMP_ERR_VIF_BOUND,
                                  NAMP_ERR_VIF_ENTRY, NAMP_ERR_VIF_BOUND, 0};
        for (uint32_t i = 0; i < 6; ++i)
            EXPECT_EQ(NAMP_CC_MSTAT_CODE(m.member_status(i)), want[i]) << i;
        EXPECT_EQ(NAMP_CC_RESULT_DONE(m.get(0, m.desc(NAMP_CC_RESULT))), 1u);
        poll(b, 2, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
    // only the good member's message arrived, at tile 2; nothing for tiles 1 and 3
    EXPECT_EQ(m.elem_size(2, RXB, 0), MP_CB_COMMITTED | 64u);
    EXPECT_EQ(m.elem_size(1, RXB, 0), 0u);
    EXPECT_EQ(m.elem_size(3, RXB, 0), 0u);
    EXPECT_EQ(changed_outside(m, 0, kernel0), 0u);
}

// The slot's member table registers are the vif's (kernel) business: written only while idle,
// read back, bounded like the vif's table.
TEST(SvCc, SlotMemberTableRegisters) {
    bench b(sv_cc);
    b.run({[&] {
        driver &d = b.d(0);
        d.wr(slot_reg(0, NAMP_SLOT_ET_BASE), ET);
        d.wr(slot_reg(0, NAMP_SLOT_ET_BOUND), 12);
        EXPECT_EQ(d.rd(slot_reg(0, NAMP_SLOT_ET_BASE)), ET);
        EXPECT_EQ(d.rd(slot_reg(0, NAMP_SLOT_ET_BOUND)), 12u);
        EXPECT_FALSE(d.write(slot_reg(0, NAMP_SLOT_ET_BOUND), NAMP_VIF_ET_MAX + 1));
        EXPECT_EQ(d.rd(slot_reg(0, NAMP_SLOT_ET_BOUND)), 12u);
    }});
}

// A randomized adversary: descriptors with random kinds, counts, members (vIDs of every kind,
// physical addresses of handles and secrets, garbage), bases, sizes and strides, random offsets
// and sizes in PARAM1..3, and members rewritten while the collective runs; honest multicasts in
// between. No secret word reaches a receiver, no word outside the area and the kernel's counters
// changes, and the honest collectives keep working.
TEST(SvCc, RandomizedDescriptorAdversary) {
    bench b(sv_cc);
    mem m{b};
    m.setup();
    std::mt19937 rng(20261127);
    auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
    auto evil_member = [&]() -> uint32_t {
        switch (pick(7)) {
        case 0: return rng();
        case 1: return pick(BOUND + 3);
        case 2: return H + 0x40 * (1 + pick(3));                 // a handle's physical address
        case 3: return TILE_SRAM_BASE + 0x50000 + 4 * pick(64);  // a secret
        case 4: return ET + NAMP_ET_ENTRY_SIZE * pick(BOUND);
        case 5: return V_AREA;
        default: return pick(6);  // a real member
        }
    };
    auto evil_word = [&]() -> uint32_t {
        switch (pick(6)) {
        case 0: return rng();
        case 1: return pick(64);
        case 2: return AREA_SIZE - pick(128);
        case 3: return TILE_SRAM_BASE + 0x50000 - AREA - DATA_OFF;  // data offset to a secret
        case 4: return uint32_t(-int32_t(4 * pick(64)));
        default: return 1 + pick(32);
        }
    };
    static const uint32_t kinds[] = {
        NAMP_CC_K_MULTICAST, NAMP_CC_SCATTER_WORD(3), NAMP_CC_GATHER_WORD(2, 0),
        NAMP_CC_KIND_WORD(NAMP_CC_K_REDUCE, NAMP_CC_OP_SUM, NAMP_CC_T_INT32)};
    const unsigned iterations = 3000;
    unsigned ok = 0, refused = 0, honest_ok = 0, honest_n = 0;
    std::map<uint32_t, unsigned> codes;
    b.run(
        {[&] {
            configure(b.d(0));
            for (unsigned it = 0; it < iterations; ++it) {
                const bool honest = pick(3) == 0;
                for (unsigned t = 1; t < 4; ++t) {
                    m.cbuffer(t, RXB, 2, 8);
                    m.cbuffer(t, RXC, 2, 8);
                    m.direct(0, HC + 0x40 * t, t, RXC);
                    m.put(0, HC + 0x40 * t + NAMP_H_CREDITS, 4);
                }
                uint32_t desc_off = DESC_OFF, data_off = DATA_OFF, size = 4 * (1 + pick(32)),
                         flags = NAMP_FLAG_CC;
                const uint32_t num = honest ? 3 : pick(4) == 0 ? pick(20) : 1 + pick(4);
                m.put(0, m.desc(NAMP_CC_KIND),
                      honest         ? NAMP_CC_K_MULTICAST
                      : pick(8) == 0 ? rng()
                                     : kinds[pick(4)]);
                m.put(0, m.desc(NAMP_CC_NUM), num);
                m.put(0, m.desc(NAMP_CC_STRIDE), honest ? 0 : evil_word());
                for (uint32_t i = 0; i < NAMP_CC_MAX_MEMBERS; ++i) {
                    m.put(0, m.desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE),
                          honest ? i : evil_member());
                    m.put(0, m.desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_BASE), honest ? 0 : evil_word());
                    m.put(0, m.desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_SIZE), honest ? 0 : evil_word());
                }
                m.data(size, it << 8);
                if (!honest) {
                    if (pick(2)) flags |= NAMP_FLAG_CON;
                    if (pick(4) == 0) desc_off = evil_word() & ~3u;
                    if (pick(4) == 0) data_off = evil_word();
                    if (pick(4) == 0) size = evil_word();
                    if (pick(16) == 0) flags |= 1u << (8 + pick(24));
                }
                driver &d = b.d(0);
                d.wr(vifr(NAMP_VIF_PARAM1),
                     NAMP_VIF_CC_PARAM1(honest || pick(8) ? V_AREA : pick(BOUND + 2), desc_off));
                d.wr(vifr(NAMP_VIF_PARAM2), data_off);
                d.wr(vifr(NAMP_VIF_PARAM3), size);
                d.wr(vifr(NAMP_VIF_FLAGS), flags | NAMP_FLAG_VALID);
                // time of check against time of use: the task rewrites its members meanwhile
                if (!honest && pick(2)) {
                    b.cycles(pick(40));
                    for (uint32_t i = 0; i < 4; ++i)
                        m.put(0, m.desc(NAMP_CC_MEMBER(i) + NAMP_CC_M_HANDLE), evil_member());
                    m.put(0, m.desc(NAMP_CC_NUM), 16);
                }
                uint32_t st = 0xFFFFFFFFu;
                for (unsigned i = 0; i < 3000 && st == 0xFFFFFFFFu; ++i) {
                    if (d.rd(vifr(NAMP_VIF_FLAGS)) & NAMP_FLAG_DONE)
                        st = d.rd(vifr(NAMP_VIF_STATUS));
                    else
                        b.cycles(10);
                }
                if (st ==
                    0xFFFFFFFFu) {  // a member waiting for ever (e.g. a full receiver): the kernel ends it
                    d.wr(slot_reg(VSLOT, NAMP_SLOT_CTRL), NAMP_SLOT_CTRL_ABORT);
                    for (unsigned i = 0; i < 3000 && st == 0xFFFFFFFFu; ++i) {
                        if (d.rd(vifr(NAMP_VIF_FLAGS)) & NAMP_FLAG_DONE)
                            st = d.rd(vifr(NAMP_VIF_STATUS));
                        else
                            b.cycles(10);
                    }
                }
                ASSERT_NE(st, 0xFFFFFFFFu) << "iteration " << it << ": the slot never ended";
                d.wr(vifr(NAMP_VIF_FLAGS), 0);
                if (st & NAMP_STATUS_ERROR)
                    ++refused;
                else
                    ++ok;
                ++codes[NAMP_STATUS_CODE(st)];
                if (honest) {
                    ++honest_n;
                    honest_ok += !(st & NAMP_STATUS_ERROR);
                }
                b.cycles(200);  // late FINALs land before the receivers are reset
                for (unsigned t = 1; t < 4; ++t)
                    for (uint32_t o = 0; o < 0x1000; o += 4) {
                        ASSERT_NE(m.get(t, RXB + o), SECRET_WORD)
                            << "iteration " << it << ": a secret arrived";
                        ASSERT_NE(m.get(t, RXC + o), SECRET_WORD)
                            << "iteration " << it << ": a secret arrived";
                    }
            }
        }},
        20000);
    std::printf("cc adversary: %u iterations, %u completed, %u refused; honest %u of %u; codes:",
                iterations, ok, refused, honest_ok, honest_n);
    for (const auto &c : codes) std::printf(" %u:%u", c.first, c.second);
    std::printf("\n");
    EXPECT_EQ(changed_outside(m, 0, kernel0), 0u)
        << "tile 0: words outside the area and the kernel's handles changed";
    for (unsigned t = 1; t < 4; ++t) {
        const std::vector<std::pair<uint32_t, uint32_t>> own = {{EP, EP + NAMP_EP_SIZE},
                                                                {EPC, EPC + NAMP_EP_SIZE},
                                                                {RXB, RXB + 0x1000},
                                                                {RXC, RXC + 0x1000}};
        EXPECT_EQ(changed_outside(m, t, own), 0u) << "tile " << t;
        EXPECT_EQ(m.get(t, EP + NAMP_EP_RX_BUFFER), RXB);
        EXPECT_EQ(m.get(t, EPC + NAMP_EP_RX_BUFFER), RXC);
    }
    EXPECT_EQ(honest_ok, honest_n) << "every honest multicast between the attacks completed";
    EXPECT_GT(codes[NAMP_ERR_VIF_WINDOW] + codes[NAMP_ERR_WINDOW], 100u)
        << "the attacks reach the window checks";
    EXPECT_GT(codes[NAMP_ERR_CC_MEMBER], 100u) << "and the member translation";
}
