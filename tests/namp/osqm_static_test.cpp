// HW-OSQM static and run-time configuration (thesis 4.2.3.4; docs/namp.md "HW-OSQM", keys
// namp.osqm_* in docs/configuration.md): each design-time key sets its register's reset value;
// with namp.osqm_static the OS-specific items are fixed (only their own value may be written)
// and an insertion follows the fixed layout; bad key values are configuration errors.
#include <cstring>
#include <functional>

#include "cbuffer_layout.h"
#include "na_test_support.h"
#include "namp_structs.h"
#include "vp/config.h"

using namespace na_test;

namespace {

uint32_t osqm(uint32_t r) { return na(NA_OSQM_BASE + r); }
uint32_t slot(unsigned i, uint32_t r) { return na(NA_NAMP_SLOT_BASE(i) + r); }

std::string error_of(const std::vector<std::string> &sets) {
    try {
        vp::config_builder b;
        for (const auto &s : sets) b.apply_override(s);
        b.build();
    } catch (const vp::config_error &e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(OsqmStatic, DefaultsAreTheRunTimeDefaults) {
    bench b({"namp.enabled=true", "namp.osqm=true"});
    b.run({[&] {
        driver &d = b.d(0);
        EXPECT_EQ(d.rd(osqm(OSQM_TYPE)), 1u);
        EXPECT_EQ(d.rd(osqm(OSQM_DIR)), 0u);
        EXPECT_EQ(d.rd(osqm(OSQM_Q_LAYOUT)), 0x00040000u);
        EXPECT_EQ(d.rd(osqm(OSQM_E_LAYOUT)), 0x00040000u);
        EXPECT_EQ(d.rd(osqm(OSQM_MODE)), 0u);
        EXPECT_EQ(d.rd(osqm(OSQM_STATIC)), 0u);
    }});
}

// Every key changes its register's reset value; without osqm_static the page stays writable.
TEST(OsqmStatic, EachKeySetsTheResetValue) {
    bench b({"namp.enabled=true", "namp.osqm=true", "namp.osqm_type=single", "namp.osqm_dir=front",
             "namp.osqm_q_head=8", "namp.osqm_q_tail=12", "namp.osqm_e_next=16",
             "namp.osqm_e_prev=20", "namp.osqm_bitmap=true", "namp.osqm_wakeup=true"});
    b.run({[&] {
        driver &d = b.d(0);
        EXPECT_EQ(d.rd(osqm(OSQM_TYPE)), 0u);
        EXPECT_EQ(d.rd(osqm(OSQM_DIR)), 1u);
        EXPECT_EQ(d.rd(osqm(OSQM_Q_LAYOUT)), 0x000C0008u);
        EXPECT_EQ(d.rd(osqm(OSQM_E_LAYOUT)), 0x00140010u);
        EXPECT_EQ(d.rd(osqm(OSQM_MODE)), OSQM_MODE_BITMAP | OSQM_MODE_WAKEUP);
        EXPECT_EQ(d.rd(osqm(OSQM_STATIC)), 0u);
        EXPECT_TRUE(d.write(osqm(OSQM_TYPE), 1));
        EXPECT_TRUE(d.write(osqm(OSQM_DIR), 0));
        EXPECT_TRUE(d.write(osqm(OSQM_Q_LAYOUT), 0x00040000u));
        EXPECT_TRUE(d.write(osqm(OSQM_MODE), 0));
        EXPECT_EQ(d.rd(osqm(OSQM_TYPE)), 1u);
        EXPECT_EQ(d.rd(osqm(OSQM_Q_LAYOUT)), 0x00040000u);
        EXPECT_EQ(d.rd(osqm(OSQM_MODE)), 0u);
    }});
}

TEST(OsqmStatic, FixedItemsRefuseOtherValues) {
    bench b({"namp.enabled=true", "namp.osqm=true", "namp.osqm_static=true",
             "namp.osqm_type=single", "namp.osqm_dir=front", "namp.osqm_q_head=8",
             "namp.osqm_q_tail=12", "namp.osqm_e_next=16", "namp.osqm_bitmap=true"});
    b.run({[&] {
        driver &d = b.d(0);
        EXPECT_EQ(d.rd(osqm(OSQM_STATIC)), 1u);
        EXPECT_FALSE(d.write(osqm(OSQM_TYPE), 1));
        EXPECT_FALSE(d.write(osqm(OSQM_DIR), 0));
        EXPECT_FALSE(d.write(osqm(OSQM_Q_LAYOUT), 0x00040000u));
        EXPECT_FALSE(d.write(osqm(OSQM_E_LAYOUT), 0x00040000u));
        EXPECT_FALSE(d.write(osqm(OSQM_MODE), 0)) << "BITMAP is fixed";
        EXPECT_FALSE(d.write(osqm(OSQM_MODE), OSQM_MODE_BITMAP | OSQM_MODE_WAKEUP));
        // unchanged after the refusals
        EXPECT_EQ(d.rd(osqm(OSQM_TYPE)), 0u);
        EXPECT_EQ(d.rd(osqm(OSQM_DIR)), 1u);
        EXPECT_EQ(d.rd(osqm(OSQM_Q_LAYOUT)), 0x000C0008u);
        EXPECT_EQ(d.rd(osqm(OSQM_E_LAYOUT)), 0x00040010u);
        EXPECT_EQ(d.rd(osqm(OSQM_MODE)), OSQM_MODE_BITMAP);
        // the fixed values themselves are accepted (a kernel for this OS configures as usual)
        EXPECT_TRUE(d.write(osqm(OSQM_TYPE), 0));
        EXPECT_TRUE(d.write(osqm(OSQM_DIR), 1));
        EXPECT_TRUE(d.write(osqm(OSQM_Q_LAYOUT), 0x000C0008u));
        EXPECT_TRUE(d.write(osqm(OSQM_E_LAYOUT), 0x00040010u));
        // the demand interrupt and the per-event and lock registers stay run-time
        EXPECT_TRUE(d.write(osqm(OSQM_MODE), OSQM_MODE_BITMAP | OSQM_MODE_DEMAND_IRQ));
        EXPECT_EQ(d.rd(osqm(OSQM_MODE)), OSQM_MODE_BITMAP | OSQM_MODE_DEMAND_IRQ);
        EXPECT_TRUE(d.write(osqm(OSQM_BITMAP_QSTRIDE), 16));
        EXPECT_TRUE(d.write(osqm(OSQM_LOCK_KIND), OSQM_LOCK_TICKET));
        EXPECT_TRUE(d.write(osqm(OSQM_SLOT_QUEUE(0)), TILE_SRAM_BASE + 0x40000));
        EXPECT_FALSE(d.write(osqm(OSQM_STATIC), 0)) << "read-only";
    }});
}

// An insertion with the fixed layout: single linked, at the front, head +8, next +16.
TEST(OsqmStatic, InsertionFollowsTheFixedLayout) {
    bench b({"namp.enabled=true", "namp.osqm=true", "namp.osqm_static=true",
             "namp.osqm_type=single", "namp.osqm_dir=front", "namp.osqm_q_head=8",
             "namp.osqm_q_tail=12", "namp.osqm_e_next=16"});
    constexpr uint32_t EP = TILE_SRAM_BASE + 0x10000, RXB = TILE_SRAM_BASE + 0x11000;
    constexpr uint32_t H = TILE_SRAM_BASE + 0x20000, DATA = TILE_SRAM_BASE + 0x30000;
    constexpr uint32_t Q = TILE_SRAM_BASE + 0x40000, T0 = TILE_SRAM_BASE + 0x41000,
                       T1 = TILE_SRAM_BASE + 0x41100;
    auto put = [&](unsigned t, uint32_t a, uint32_t v) {
        std::memcpy(b.mem(t) + (a - TILE_SRAM_BASE), &v, 4);
    };
    auto get = [&](unsigned t, uint32_t a) {
        uint32_t v;
        std::memcpy(&v, b.mem(t) + (a - TILE_SRAM_BASE), 4);
        return v;
    };
    for (uint32_t o = 0; o < NAMP_EP_SIZE; o += 4) put(1, EP + o, 0);
    put(1, EP + NAMP_EP_STATE, NAMP_EP_STATE_READY);
    put(1, EP + NAMP_EP_RX_BUFFER, RXB);
    put(1, RXB + MP_CB_OFF_CAPACITY, 4);
    put(1, RXB + MP_CB_OFF_MAXMSG, 4);
    put(1, RXB + MP_CB_OFF_SIZE_OFS, MP_CB_HEADER_SIZE);
    put(1, RXB + MP_CB_OFF_DATA_OFS, MP_CB_HEADER_SIZE + (4u << 4));
    for (uint32_t o = 0; o < NAMP_H_SIZE; o += 4) put(0, H + o, 0);
    put(0, H + NAMP_H_TILE, 1);
    put(0, H + NAMP_H_ENDPOINT, EP);
    // the queue holds T0; T1 is inserted in front of it
    put(0, Q + 8, T0);
    put(0, Q + 12, T0);
    put(0, T0 + 16, 0);
    put(0, T1 + 16, 0xEEEEEEEEu);
    b.run({[&] {
        driver &d = b.d(0);
        d.wr(osqm(OSQM_SLOT_QUEUE(0)), Q);
        d.wr(osqm(OSQM_SLOT_THREAD(0)), T1);
        d.wr(slot(0, NAMP_SLOT_PARAM1), H);
        d.wr(slot(0, NAMP_SLOT_PARAM2), DATA);
        d.wr(slot(0, NAMP_SLOT_PARAM3), 4);
        d.wr(slot(0, NAMP_SLOT_FLAGS), NAMP_FLAG_VALID);
        poll(b, 0, slot(0, NAMP_SLOT_FLAGS), NAMP_FLAG_DONE, NAMP_FLAG_DONE);
        d.wr(slot(0, NAMP_SLOT_FLAGS), 0);
        b.cycles(200);
        EXPECT_EQ(d.rd(osqm(OSQM_INSERTIONS)), 1u);
    }});
    EXPECT_EQ(get(0, Q + 8), T1);
    EXPECT_EQ(get(0, Q + 12), T0);
    EXPECT_EQ(get(0, T1 + 16), T0);
}

TEST(OsqmStatic, BadKeyValuesAreConfigurationErrors) {
    EXPECT_EQ(error_of({"namp.osqm_type=triple"}),
              "'namp.osqm_type' must be single or double, not 'triple'");
    EXPECT_EQ(error_of({"namp.osqm_dir=middle"}),
              "'namp.osqm_dir' must be back or front, not 'middle'");
    EXPECT_EQ(error_of({"namp.osqm_q_head=6"}),
              "'namp.osqm_q_head' must be a multiple of 4, got 6");
    EXPECT_EQ(error_of({"namp.osqm_q_tail=2"}),
              "'namp.osqm_q_tail' must be a multiple of 4, got 2");
    EXPECT_EQ(error_of({"namp.osqm_e_next=1"}),
              "'namp.osqm_e_next' must be a multiple of 4, got 1");
    EXPECT_EQ(error_of({"namp.osqm_e_prev=4090"}),
              "'namp.osqm_e_prev' must be a multiple of 4, got 4090");
    EXPECT_NE(error_of({"namp.osqm_e_prev=4096"})
                  .find("'namp.osqm_e_prev' must be an integer in "
                        "[0, 4092]"),
              std::string::npos);
    EXPECT_NE(error_of({"namp.osqm_bitmap=3"}).find("'namp.osqm_bitmap' must be"),
              std::string::npos);
    EXPECT_NE(error_of({"namp.osqm_wakeup=yes"}).find("'namp.osqm_wakeup' must be"),
              std::string::npos);
    EXPECT_EQ(error_of({"namp.osqm_static=true"}), "'namp.osqm_static' needs namp.osqm = true");
    EXPECT_EQ(error_of({"namp.enabled=true", "namp.osqm=true", "namp.osqm_static=true",
                        "namp.osqm_type=single"}),
              "");
}
