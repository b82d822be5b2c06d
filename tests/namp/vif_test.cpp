// NAMP-SV virtual interfaces (namp/include/namp/vif.h, docs/namp.md "NAMP-SV"), driven by the
// test bus masters: configuration and interface pages, translation through the endpoint table,
// a buffered send through a vif, every refusal (BUF=0, vID out of bound, empty or wrong entry, a
// foreign table, not READY) without a table access outside the table, two vifs at once, cost.
#include <cstring>

#include "cbuffer_layout.h"
#include "na_test_support.h"
#include "namp_mem.h"
#include "namp_structs.h"

using namespace na_test;

namespace {

const std::vector<std::string> sv = {"namp.enabled=true", "namp.slots=5", "namp.slots_virt=4"};

constexpr uint32_t EP = TILE_SRAM_BASE + 0x10000;    // endpoint in tile 1
constexpr uint32_t RXB = TILE_SRAM_BASE + 0x11000;   // its receive buffer
constexpr uint32_t H = TILE_SRAM_BASE + 0x20000;     // handle in tile 0
constexpr uint32_t TXB = TILE_SRAM_BASE + 0x21000;   // send buffer of task A
constexpr uint32_t TXB2 = TILE_SRAM_BASE + 0x22000;  // send buffer of task B
constexpr uint32_t ET_A = TILE_SRAM_BASE + 0x30000;  // endpoint tables (kernel memory)
constexpr uint32_t ET_B = TILE_SRAM_BASE + 0x30100;

uint32_t vifc(unsigned s, uint32_t reg) {
    return na(NA_NAMP_SLOT_BASE(s) + NAMP_VIF_CONFIG_PAGE + reg);
}
uint32_t vifr(unsigned s, uint32_t reg) { return na(NA_NAMP_SLOT_BASE(s) + NAMP_VIF_PAGE + reg); }

struct mem : namp_mem {  // vif tables and a 4 x 16-byte send buffer on top
    void push(unsigned t, uint32_t buf, uint32_t word) {
        const uint32_t wr = get(t, buf + MP_CB_OFF_WR_IDX), k = wr & ((1u << get(t, buf)) - 1u);
        put(t, elem_data(t, buf, k), word);
        put(t, buf + MP_CB_OFF_WR_IDX, wr + 1);
        put(t, buf + MP_CB_HEADER_SIZE + 4 * k, MP_CB_COMMITTED | 4u);
    }
    void setup() {  // endpoint with 8 elements in tile 1, handle and two send buffers in tile 0
        for (uint32_t o = 0; o < NAMP_EP_SIZE; o += 4) put(1, EP + o, 0);
        put(1, EP + NAMP_EP_STATE, NAMP_EP_STATE_READY);
        put(1, EP + NAMP_EP_FLAGS, NAMP_EP_F_NOTIFY);
        put(1, EP + NAMP_EP_RX_BUFFER, RXB);
        cbuffer(1, RXB, 3, 4);
        for (uint32_t o = 0; o < NAMP_H_SIZE; o += 4) put(0, H + o, 0);
        put(0, H + NAMP_H_TILE, 1);
        put(0, H + NAMP_H_ENDPOINT, EP);
        cbuffer(0, TXB, 2, 4);
        cbuffer(0, TXB2, 2, 4);
    }
    // limit 0: the size of what the entry names (a handle, a send buffer of 4 x 16 bytes)
    void entry(uint32_t et, uint32_t vid, uint32_t addr, uint32_t kind, uint32_t limit = 0) {
        if (!limit)
            limit = kind == NAMP_ET_SENDBUF ? uint32_t(mp_cbuffer_footprint(2, 4)) : NAMP_H_SIZE;
        put(0, et + vid * NAMP_ET_ENTRY_SIZE + NAMP_ET_ADDR, addr);
        put(0, et + vid * NAMP_ET_ENTRY_SIZE + NAMP_ET_KIND, kind);
        put(0, et + vid * NAMP_ET_ENTRY_SIZE + NAMP_ET_LIMIT, limit);
        put(0, et + vid * NAMP_ET_ENTRY_SIZE + 12, 0);
    }
};

void configure(driver &d, unsigned s, uint32_t et, uint32_t bound,
               uint32_t ctrl = NAMP_VIFC_READY) {
    d.wr(vifc(s, NAMP_VIFC_ET_BASE), et);
    d.wr(vifc(s, NAMP_VIFC_ET_BOUND), bound);
    d.wr(vifc(s, NAMP_VIFC_CTRL), ctrl);
}

void vstart(driver &d, unsigned s, uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3) {
    d.wr(vifr(s, NAMP_VIF_PARAM1), p1);
    d.wr(vifr(s, NAMP_VIF_PARAM2), p2);
    d.wr(vifr(s, NAMP_VIF_PARAM3), p3);
    d.wr(vifr(s, NAMP_VIF_FLAGS), flags | NAMP_FLAG_VALID);
}

uint32_t vwait(bench &b, unsigned s) {
    poll(b, 0, vifr(s, NAMP_VIF_FLAGS), NAMP_FLAG_DONE, NAMP_FLAG_DONE);
    return b.d(0).rd(vifr(s, NAMP_VIF_STATUS));
}

}  // namespace

TEST(NampSv, PagesFeatureAndBusErrors) {
    bench b(sv);
    b.run({[&] {
        driver &d = b.d(0);
        EXPECT_TRUE(d.rd(na(NA_FEATURES)) & NA_FEATURE_NAMP_SV);
        uint32_t v;
        EXPECT_FALSE(d.read(vifc(0, NAMP_VIFC_CTRL), v)) << "slot 0 is physical only";
        EXPECT_FALSE(d.read(vifr(0, NAMP_VIF_FLAGS), v));
        EXPECT_TRUE(d.read(vifc(1, NAMP_VIFC_CTRL), v));
        EXPECT_TRUE(d.read(vifr(4, NAMP_VIF_STATUS), v));
        EXPECT_FALSE(d.read(vifr(5, NAMP_VIF_FLAGS), v)) << "no slot 5";
        EXPECT_FALSE(d.write(vifc(1, NAMP_VIFC_ET_BASE), ET_A + 4)) << "unaligned table";
        EXPECT_FALSE(d.write(vifc(1, NAMP_VIFC_ET_BASE), 0x40000000u)) << "table outside SRAM";
        EXPECT_FALSE(d.write(vifc(1, NAMP_VIFC_ET_BOUND), NAMP_VIF_ET_MAX + 1));
        EXPECT_FALSE(d.write(vifc(1, NAMP_VIFC_CTRL), 0x80u)) << "reserved control bit";
        EXPECT_FALSE(d.write(vifr(1, NAMP_VIF_STATUS), 0)) << "STATUS is read-only";
        // KEEP (give a send-buffer element back) is the kernel's, for moving a task: not the task's
        EXPECT_FALSE(d.write(vifr(1, NAMP_VIF_CTRL), NAMP_SLOT_CTRL_ABORT | NAMP_SLOT_CTRL_KEEP));
        EXPECT_FALSE(d.write(vifr(1, NAMP_VIF_CTRL), NAMP_SLOT_CTRL_KEEP));
        EXPECT_FALSE(d.read(vifr(1, 0x18), v)) << "unlisted offset";
    }});
}

TEST(NampSv, AbsentWithoutSlotsVirt) {
    bench b({"namp.enabled=true"});
    b.run({[&] {
        uint32_t v;
        EXPECT_FALSE(b.d(0).rd(na(NA_FEATURES)) & NA_FEATURE_NAMP_SV);
        EXPECT_FALSE(b.d(0).read(vifc(7, NAMP_VIFC_CTRL), v));
        EXPECT_FALSE(b.d(0).read(vifr(7, NAMP_VIF_FLAGS), v));
    }});
    EXPECT_EQ(b.plat->adapter(0)->vif(), nullptr);
}

TEST(NampSv, BufferedSendTranslatesVirtualIds) {
    bench b(sv);
    mem m{b};
    m.setup();
    m.entry(ET_A, 0, TXB, NAMP_ET_SENDBUF);
    m.entry(ET_A, 1, H, NAMP_ET_HANDLE);
    m.push(0, TXB, 0xC0FFEE);
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, 2, ET_A, 2);
        vstart(d, 2, NAMP_FLAG_BUF, 1, 0, 0);
        const uint32_t st = vwait(b, 2);
        EXPECT_EQ(st & NAMP_STATUS_ERROR, 0u) << std::hex << st;
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1);
        EXPECT_EQ(m.get(1, m.elem_data(1, RXB, 0)), 0xC0FFEEu);
        // the task sees its vIDs, the kernel (slot page) the physical addresses
        EXPECT_EQ(d.rd(vifr(2, NAMP_VIF_PARAM1)), 1u);
        EXPECT_EQ(d.rd(slot_reg(2, NAMP_SLOT_PARAM1)), H);
        EXPECT_EQ(d.rd(slot_reg(2, NAMP_SLOT_PARAM2)), TXB);
        EXPECT_EQ(d.rd(vifc(2, NAMP_VIFC_TRANSLATIONS)), 2u);
        // acknowledge, send again
        d.wr(vifr(2, NAMP_VIF_FLAGS), NAMP_FLAG_BUF);
        EXPECT_EQ(d.rd(vifr(2, NAMP_VIF_FLAGS)) & NAMP_FLAG_DONE, 0u);
        m.push(0, TXB, 0xBEEF);
        vstart(d, 2, NAMP_FLAG_BUF, 1, 0, 1);
        vwait(b, 2);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 2);
        EXPECT_EQ(m.get(1, m.elem_data(1, RXB, 1)), 0xBEEFu);
    }});
    EXPECT_EQ(b.plat->adapter(0)->vif()->translations(), 4u);
}

// Found by kernel.migrate.stress: a start in translation read as idle (the slot's FLAGS), so a
// task stopped then had its send dropped by the migration's vif save and waited for ever.
TEST(NampSv, StartInTranslationReadsUnderWay) {
    std::vector<std::string> o = sv;
    o.push_back("namp.vif_cycles=200");
    bench b(o);
    mem m{b};
    m.setup();
    m.entry(ET_A, 0, TXB, NAMP_ET_SENDBUF);
    m.entry(ET_A, 1, H, NAMP_ET_HANDLE);
    m.push(0, TXB, 0x5EED);
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, 2, ET_A, 2);
        vstart(d, 2, NAMP_FLAG_BUF, 1, 0, 0);
        const uint32_t f = d.rd(vifr(2, NAMP_VIF_FLAGS));
        EXPECT_EQ(d.rd(slot_reg(2, NAMP_SLOT_FLAGS)) & NAMP_FLAG_VALID, 0u) << "still translating";
        EXPECT_EQ(f & (NAMP_FLAG_VALID | NAMP_FLAG_DONE), NAMP_FLAG_VALID) << std::hex << f;
        EXPECT_EQ(f & NAMP_FLAG_BUF, NAMP_FLAG_BUF);
        EXPECT_EQ(vwait(b, 2) & NAMP_STATUS_ERROR, 0u);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
}

TEST(NampSv, RefusalsAreErrorStatusesWithoutTableAccessOutside) {
    bench b(sv);
    mem m{b};
    m.setup();
    m.entry(ET_A, 0, TXB, NAMP_ET_SENDBUF);
    m.entry(ET_A, 1, H, NAMP_ET_HANDLE);
    m.entry(ET_A, 2, 0, NAMP_ET_EMPTY);
    // task B's table: its handle at vID 0 and send buffer at vID 1 (bound 2)
    m.entry(ET_B, 0, H, NAMP_ET_HANDLE);
    m.entry(ET_B, 1, TXB2, NAMP_ET_SENDBUF);
    m.push(0, TXB, 1);
    const namp::vif_unit *vu = b.plat->adapter(0)->vif();
    auto code = [&](unsigned s) {
        const uint32_t st = vwait(b, s);
        EXPECT_TRUE(st & NAMP_STATUS_ERROR) << std::hex << st;
        EXPECT_EQ(NAMP_STATUS_STATE(st), NAMP_STATE_ERROR);
        b.d(0).wr(vifr(s, NAMP_VIF_FLAGS), 0);  // acknowledge
        EXPECT_EQ(b.d(0).rd(vifr(s, NAMP_VIF_STATUS)), 0u);
        return NAMP_STATUS_CODE(st);
    };
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, 1, ET_A, 3, 0);  // not READY yet
        vstart(d, 1, NAMP_FLAG_BUF, 1, 0, 0);
        EXPECT_EQ(code(1), NAMP_ERR_VIF_DISABLED);
        d.wr(vifc(1, NAMP_VIFC_CTRL), NAMP_VIFC_READY);
        const uint64_t reads0 = vu->port.accesses();
        vstart(d, 1, 0, 1, TXB, 4);  // BUF=0: a data address cannot be given as a vID
        EXPECT_EQ(code(1), NAMP_ERR_VIF_MODE);
        vstart(d, 1, NAMP_FLAG_BUF, 3, 0, 0);  // vID == bound
        EXPECT_EQ(code(1), NAMP_ERR_VIF_BOUND);
        vstart(d, 1, NAMP_FLAG_BUF, 0xFFFFFFFFu, 0, 0);
        EXPECT_EQ(code(1), NAMP_ERR_VIF_BOUND);
        EXPECT_EQ(vu->port.accesses(), reads0) << "no table read for refused vIDs";
        vstart(d, 1, NAMP_FLAG_BUF, 2, 0, 0);  // empty entry
        EXPECT_EQ(code(1), NAMP_ERR_VIF_ENTRY);
        vstart(d, 1, NAMP_FLAG_BUF, 0, 1, 0);  // send buffer named as the destination
        EXPECT_EQ(code(1), NAMP_ERR_VIF_ENTRY);
        vstart(d, 1, NAMP_FLAG_BUF, 1, 2, 0);  // empty send buffer entry
        EXPECT_EQ(code(1), NAMP_ERR_VIF_ENTRY);
        // task B (vif 3, its own table of 2 entries) cannot reach task A's send buffer (vID 0 of
        // A's table is B's handle; B's bound stops vID 2)
        configure(d, 3, ET_B, 2);
        vstart(d, 3, NAMP_FLAG_BUF, 0, 2, 0);
        EXPECT_EQ(code(3), NAMP_ERR_VIF_BOUND);
        vstart(d, 3, NAMP_FLAG_BUF, 0, 0, 0);
        EXPECT_EQ(code(3), NAMP_ERR_VIF_ENTRY) << "B's vID 0 is a handle, not a send buffer";
        // reserved flag bits: refused by the slot itself
        vstart(d, 1, NAMP_FLAG_BUF | (1u << 9), 1, 0, 0);
        EXPECT_EQ(code(1), NAMP_ERR_MODE_UNSUPPORTED);
        // after all that, a correct start works
        vstart(d, 1, NAMP_FLAG_BUF, 1, 0, 0);
        EXPECT_EQ(vwait(b, 1) & NAMP_STATUS_ERROR, 0u);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
    EXPECT_EQ(vu->refusals(), 9u);
    EXPECT_EQ(b.slot_stats(0, 1).transfers, 1u);
}

TEST(NampSv, TwoVifsConcurrently) {
    bench b(sv);
    mem m{b};
    m.setup();
    m.entry(ET_A, 0, H, NAMP_ET_HANDLE);
    m.entry(ET_A, 1, TXB, NAMP_ET_SENDBUF);
    m.entry(ET_B, 0, H, NAMP_ET_HANDLE);
    m.entry(ET_B, 1, TXB2, NAMP_ET_SENDBUF);
    for (uint32_t k = 0; k < 3; ++k) {
        m.push(0, TXB, 0xA0 + k);
        m.push(0, TXB2, 0xB0 + k);
    }
    uint32_t seen = 0;
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, 1, ET_A, 2);
        configure(d, 4, ET_B, 2);
        for (uint32_t k = 0; k < 3; ++k) {
            vstart(d, 1, NAMP_FLAG_BUF, 0, 1, k);
            vstart(d, 4, NAMP_FLAG_BUF, 0, 1, k);
            EXPECT_EQ(vwait(b, 1) & NAMP_STATUS_ERROR, 0u);
            EXPECT_EQ(vwait(b, 4) & NAMP_STATUS_ERROR, 0u);
            d.wr(vifr(1, NAMP_VIF_FLAGS), NAMP_FLAG_BUF);
            d.wr(vifr(4, NAMP_VIF_FLAGS), NAMP_FLAG_BUF);
        }
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 6);
        for (uint32_t k = 0; k < 6; ++k)
            seen |= 1u << (m.get(1, m.elem_data(1, RXB, k)) & 0xF)
                       << ((m.get(1, m.elem_data(1, RXB, k)) >> 4) == 0xB ? 8 : 0);
    }});
    EXPECT_EQ(seen, 0x707u) << "three messages of each task";
    EXPECT_EQ(b.slot_stats(0, 1).transfers, 3u);
    EXPECT_EQ(b.slot_stats(0, 4).transfers, 3u);
}

// The translation costs namp.vif_cycles plus the table reads: the same buffered send through a
// vif (slot 1) takes at least that much longer than through a physical slot page (slot 0).
TEST(NampSv, TranslationCostIsSimulated) {
    std::vector<std::string> o = sv;
    o.push_back("namp.vif_cycles=200");
    bench b(o);
    mem m{b};
    m.setup();
    m.entry(ET_A, 0, H, NAMP_ET_HANDLE);
    m.entry(ET_A, 1, TXB, NAMP_ET_SENDBUF);
    m.push(0, TXB, 7);
    m.push(0, TXB, 8);
    double phys = 0, virt = 0;
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, 1, ET_A, 2);
        sc_core::sc_time t0 = sc_core::sc_time_stamp();
        d.wr(slot_reg(0, NAMP_SLOT_PARAM1), H);
        d.wr(slot_reg(0, NAMP_SLOT_PARAM2), TXB);
        d.wr(slot_reg(0, NAMP_SLOT_PARAM3), 0);
        d.wr(slot_reg(0, NAMP_SLOT_FLAGS), NAMP_FLAG_BUF | NAMP_FLAG_VALID);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1, 100000);
        phys = (sc_core::sc_time_stamp() - t0) / b.period;
        t0 = sc_core::sc_time_stamp();
        vstart(d, 1, NAMP_FLAG_BUF, 0, 1, 1);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 2, 100000);
        virt = (sc_core::sc_time_stamp() - t0) / b.period;
    }});
    std::printf("send until delivered: slot page %.0f cycles, vif (vif_cycles 200) %.0f cycles\n",
                phys, virt);
    EXPECT_GE(virt - phys, 200.0 - 12) << "poll granularity 10 cycles, two more register writes";
    EXPECT_EQ(b.plat->adapter(0)->vif()->port.accesses(), 2u);
}
