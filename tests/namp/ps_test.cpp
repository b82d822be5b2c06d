// NAMP-PS (namp_ps.h, docs/namp.md "NAMP-PS"): every message and state of protection switching,
// driven by the test bus masters on a 2x2 platform. Tile 0 sends; tile 1 is the old location of
// the receiver, tile 2 the new one; the "OS" of tile 1 starts the PS slot.
#include "namp_mem.h"
#include "namp_ps.h"

using namespace na_test;

namespace {

const std::vector<std::string> ps_on = {"namp.enabled=true", "namp.ps=true"};

constexpr uint32_t EP = TILE_SRAM_BASE + 0x10000;    // the receiver's endpoint (tiles 1 and 2)
constexpr uint32_t RXB = TILE_SRAM_BASE + 0x11000;   // its buffer
constexpr uint32_t REC = TILE_SRAM_BASE + 0x12000;   // tile 1: relocation record
constexpr uint32_t Q = TILE_SRAM_BASE + 0x12100;     // tile 1: PS request block
constexpr uint32_t A = TILE_SRAM_BASE + 0x12200;     // tile 1: reply block
constexpr uint32_t HR = TILE_SRAM_BASE + 0x12300;    // tiles 1, 2: the receiver's credit path
constexpr uint32_t H = TILE_SRAM_BASE + 0x20000;     // tile 0: handle to the receiver
constexpr uint32_t DC = TILE_SRAM_BASE + 0x20100;    // tile 0: its dualcast block
constexpr uint32_t TXB = TILE_SRAM_BASE + 0x21000;   // tile 0: send buffer
constexpr uint32_t DATA = TILE_SRAM_BASE + 0x30000;  // tile 0: unbuffered data

// The OS of tile 1 asks tile 0 to apply `op` to its handle H (new location tile 2, EP, data
// address rdata); the report lands in tile 1's reply block A. Returns the reply STATE.
uint32_t ps_request(bench &b, namp_mem &m, uint32_t op, uint32_t rdata, unsigned slot = 0) {
    const uint32_t q[8] = {op, 0, H, 2, EP, rdata, 1, A};
    for (unsigned i = 0; i < 8; ++i) m.put(1, Q + 4 * i, q[i]);
    m.put(1, A + NAMP_PS_A_STATE, 0);
    start_slot(b.d(1), slot, NAMP_FLAG_PS, Q, 0, 0);
    EXPECT_EQ(error_code(finish_slot(b, 1, slot)), 0u);
    return poll(b, 1, A + NAMP_PS_A_STATE, NAMP_PS_DONE, NAMP_PS_DONE);
}

// Channel receivers at tiles 1 and 2 (same geometry, the stream's indices), sender handle at 0.
void channel(namp_mem &m, uint32_t credits, uint32_t idx = 0) {
    for (unsigned t : {1u, 2u}) {
        m.endpoint(t, EP, RXB, NAMP_EP_F_NOTIFY | NAMP_EP_F_CHANNEL);
        m.cbuffer(t, RXB, 2, 5, idx);
        m.handle(t, HR, 0, H);
    }
    m.handle(0, H, 1, EP, credits);
    m.direct(0, H, 1, RXB);
    for (uint32_t k = 0; k < 64; ++k) m.put(0, DATA + 4 * k, 0x100 + k);
}

}  // namespace

TEST(NampPs, FeatureAndPresets) {
    bench b(ps_on);
    namp_mem m{b};
    b.run({[&] {
        EXPECT_TRUE(b.d(0).rd(na(NA_FEATURES)) & NA_FEATURE_NAMP_PS);
        // PS with another mode, or a request block outside SRAM: refused at the start
        start_slot(b.d(1), 0, NAMP_FLAG_PS | NAMP_FLAG_BUF, Q, 0, 0);
        EXPECT_EQ(error_code(finish_slot(b, 1, 0)), NAMP_ERR_INVALID_FLAGS);
        start_slot(b.d(1), 0, NAMP_FLAG_PS, 0x40000000u, 0, 0);
        EXPECT_EQ(error_code(finish_slot(b, 1, 0)), NAMP_ERR_BAD_PARAM);
        m.zero(1, Q, NAMP_PS_Q_SIZE);  // op 0
        start_slot(b.d(1), 0, NAMP_FLAG_PS, Q, 0, 0);
        EXPECT_EQ(error_code(finish_slot(b, 1, 0)), NAMP_ERR_BAD_PARAM);
    }});
}

TEST(NampPs, AbsentHardwareRefusesAndIgnores) {
    bench b({"namp.enabled=true"});
    namp_mem m{b};
    m.endpoint(1, EP, RXB);
    m.cbuffer(1, RXB, 2, 5);
    m.put(1, EP + NAMP_EP_RELOC, REC);  // ignored without PS
    m.put(1, REC, 2);
    m.put(1, REC + 4, EP);
    m.handle(0, H, 1, EP, 0, 0);
    m.put(0, DATA, 77);
    b.run({[&] {
        EXPECT_FALSE(b.d(0).rd(na(NA_FEATURES)) & NA_FEATURE_NAMP_PS);
        start_slot(b.d(1), 0, NAMP_FLAG_PS, Q, 0, 0);
        EXPECT_EQ(error_code(finish_slot(b, 1, 0)), NAMP_ERR_MODE_UNSUPPORTED);
        start_slot(b.d(0), 0, 0, H, DATA, 4);
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
    }});
    EXPECT_EQ(m.get(1, m.elem_data(1, RXB, 0)), 77u) << "the old location took it";
    EXPECT_EQ(m.get(0, H + NAMP_H_TILE), 1u);
    EXPECT_EQ(m.get(1, EP + NAMP_EP_INFLIGHT), 0u) << "no counting without PS";
}

// Fig. 3.38a: an allocation request to a relocating endpoint is answered NAK_RELOC; the sender's
// handle takes the new location and the same transfer completes there.
TEST(NampPs, NakRelocMovesTheSenderAndRestarts) {
    bench b(ps_on);
    namp_mem m{b};
    for (unsigned t : {1u, 2u}) {
        m.endpoint(t, EP, RXB);
        m.cbuffer(t, RXB, 2, 5);
    }
    m.put(1, REC + NAMP_PS_R_TILE, 2);
    m.put(1, REC + NAMP_PS_R_ENDPOINT, EP);
    m.put(1, EP + NAMP_EP_RELOC, REC);
    m.handle(0, H, 1, EP, 0, 0);
    m.cbuffer(0, TXB, 2, 5);
    m.put(0, DATA, 0xAB);
    m.put(0, DATA + 4, 0xCD);
    b.run({[&] {
        start_slot(b.d(0), 0, 0, H, DATA, 4);
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        start_slot(b.d(0), 0, 0, H, DATA + 4, 4);  // the second goes straight to the new tile
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        b.cycles(500);  // its FINAL
    }});
    EXPECT_EQ(m.get(0, H + NAMP_H_TILE), 2u);
    EXPECT_EQ(m.get(0, H + NAMP_H_ENDPOINT), EP);
    EXPECT_EQ(m.get(2, m.elem_data(2, RXB, 0)), 0xABu);
    EXPECT_EQ(m.get(2, m.elem_data(2, RXB, 1)), 0xCDu);
    EXPECT_EQ(m.get(1, RXB + MP_CB_OFF_WR_IDX), 0u) << "nothing at the old location";
    EXPECT_EQ(b.stats(0).namp_relocations, 1u);
    EXPECT_EQ(b.stats(1).namp_msgs_sent[NAMP_MSG_NAK_RELOC], 1u);
    EXPECT_EQ(m.get(1, EP + NAMP_EP_INFLIGHT), 0u);
    EXPECT_EQ(m.get(2, EP + NAMP_EP_INFLIGHT), 0u);
}

// The race of Fig. 3.38a: an allocation granted before RELOC is set completes at the old
// location (counted in INFLIGHT until its FINAL); the next transfer follows the relocation.
TEST(NampPs, AllocationInFlightWhenRelocatingDrainsAtTheOldLocation) {
    std::vector<std::string> o = ps_on;
    o.push_back("namp.data_setup_cycles=500");
    bench b(o);
    namp_mem m{b};
    for (unsigned t : {1u, 2u}) {
        m.endpoint(t, EP, RXB);
        m.cbuffer(t, RXB, 2, 5);
    }
    m.put(1, REC + NAMP_PS_R_TILE, 2);
    m.put(1, REC + NAMP_PS_R_ENDPOINT, EP);
    m.handle(0, H, 1, EP, 0, 0);
    m.put(0, DATA, 1);
    m.put(0, DATA + 4, 2);
    uint32_t during = 0;
    b.run({[&] {
        start_slot(b.d(0), 0, 0, H, DATA, 4);
        poll(b, 0, slot_reg(0, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_DATA << 8);
        m.put(1, EP + NAMP_EP_RELOC, REC);  // the OS relocates now
        during = m.get(1, EP + NAMP_EP_INFLIGHT);
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        b.cycles(300);
        EXPECT_EQ(m.get(1, EP + NAMP_EP_INFLIGHT), 0u) << "drained: nothing writes there any more";
        start_slot(b.d(0), 0, 0, H, DATA + 4, 4);
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
    }});
    EXPECT_EQ(during, 1u);
    EXPECT_EQ(m.get(1, m.elem_data(1, RXB, 0)), 1u);
    EXPECT_EQ(m.elem_size(1, RXB, 0), MP_CB_COMMITTED | 4u);
    EXPECT_EQ(m.get(2, m.elem_data(2, RXB, 0)), 2u);
}

// The pausing baseline (no PS needed): a PAUSED endpoint answers "full"; senders back off until
// it is READY again; FINALs of earlier allocations still commit.
TEST(NampPs, PausedEndpointHoldsSendersBack) {
    bench b({"namp.enabled=true", "namp.retry_cycles=64", "namp.retry_max_cycles=256"});
    namp_mem m{b};
    m.endpoint(1, EP, RXB, NAMP_EP_F_NOTIFY, NAMP_EP_STATE_PAUSED);
    m.cbuffer(1, RXB, 2, 5);
    m.handle(0, H, 1, EP, 0, 0);
    m.put(0, DATA, 5);
    b.run({[&] {
        start_slot(b.d(0), 0, 0, H, DATA, 4);
        b.cycles(3000);
        EXPECT_EQ(NAMP_STATUS_STATE(b.d(0).rd(slot_reg(0, NAMP_SLOT_STATUS))), NAMP_STATE_RETRY)
            << "still waiting";
        m.put(1, EP + NAMP_EP_STATE, NAMP_EP_STATE_READY);
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
    }});
    EXPECT_GE(b.slot_stats(0, 0).nacks, 3u);
    EXPECT_EQ(m.get(1, m.elem_data(1, RXB, 0)), 5u);
}

// Fig. 3.38b: RELOC switches a channel's sender (fast path) to the new location; the report
// gives the element index from which on the new location receives. Elements before it are at the
// old location, none lost, none twice.
TEST(NampPs, RelocSwitchesAChannelAndReportsItsState) {
    bench b(ps_on);
    namp_mem m{b};
    channel(m, 4);
    const uint32_t rdata2 = m.elem_data(2, RXB, 0);
    uint32_t reply = 0, w = 0;
    b.run({[&] {
        for (uint32_t k = 0; k < 2; ++k) {
            start_slot(b.d(0), 0, NAMP_FLAG_CON, H, DATA + 4 * k, 4);
            EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        }
        reply = ps_request(b, m, NAMP_PS_OP_RELOC, rdata2, 1);
        w = m.get(1, A + NAMP_PS_A_WR_IDX);
        for (uint32_t k = 2; k < 4; ++k) {
            start_slot(b.d(0), 0, NAMP_FLAG_CON, H, DATA + 4 * k, 4);
            EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        }
        poll(b, 2, na(NA_NAMP_RX_COUNT), ~0u, 2);
    }});
    EXPECT_EQ(reply, NAMP_PS_DONE);
    EXPECT_EQ(w, 2u);
    EXPECT_EQ(m.get(1, A + NAMP_PS_A_CREDITS), 2u);
    EXPECT_EQ(m.get(1, A + NAMP_PS_A_HANDLE), H);
    EXPECT_EQ(m.get(1, A + NAMP_PS_A_FROM), 0u);
    EXPECT_EQ(m.get(0, H + NAMP_H_TILE), 2u);
    EXPECT_EQ(m.get(0, H + NAMP_H_RDATA), rdata2);
    for (uint32_t k = 0; k < 2; ++k) EXPECT_EQ(m.get(1, m.elem_data(1, RXB, k)), 0x100 + k);
    for (uint32_t k = 2; k < 4; ++k) {
        EXPECT_EQ(m.get(2, m.elem_data(2, RXB, k)), 0x100 + k) << "same index at the new location";
        EXPECT_EQ(m.elem_size(1, RXB, k), 0u) << "not at the old location";
    }
    EXPECT_EQ(m.get(1, RXB + MP_CB_OFF_WR_IDX), 2u);
    EXPECT_EQ(b.stats(0).namp_ps_applied, 1u);
}

// A credit in flight when RELOC arrives: it lands on the handle (which stays at the sender) and
// wakes the waiting slot; the element goes to exactly one location, the one the report's WR_IDX
// names (index 0 below it: old; from it on: new), and every credit is accounted for.
namespace {
void credit_race(
    unsigned lead) {  // the credit leaves `lead` cycles before the relocation (0: after)
    {
        bench b(ps_on);
        namp_mem m{b};
        channel(m, 0);
        const uint32_t rdata2 = m.elem_data(2, RXB, 0);
        b.run({[&] {
            start_slot(b.d(0), 0, NAMP_FLAG_CON, H, DATA, 4);
            poll(b, 0, slot_reg(0, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_CREDIT_WAIT << 8);
            if (lead != 0)
                start_slot(b.d(1), 0, NAMP_FLAG_COM, HR, 1, 0);  // the old location's credit
            b.cycles(lead);
            ps_request(b, m, NAMP_PS_OP_RELOC, rdata2, 1);
            if (lead == 0) start_slot(b.d(1), 0, NAMP_FLAG_COM, HR, 1, 0);  // after the switch
            EXPECT_EQ(error_code(finish_slot(b, 1, 0)), 0u);
            EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
            b.cycles(500);
        }});
        const bool at_old = m.elem_size(1, RXB, 0) != 0, at_new = m.elem_size(2, RXB, 0) != 0;
        EXPECT_NE(at_old, at_new) << "exactly one location, lead " << lead;
        std::printf("credit race, lead %u cycles: the element went to the %s location\n", lead,
                    at_old ? "old" : "new");
        EXPECT_EQ(at_old, m.get(1, A + NAMP_PS_A_WR_IDX) == 1u) << "the report names it";
        EXPECT_EQ(m.get(0, H + NAMP_H_CREDITS), 0u);
        EXPECT_EQ(m.get(0, H + NAMP_H_WR_IDX), 1u);
        EXPECT_EQ(m.get(0, H + NAMP_H_TILE), 2u);
    }
}
}  // namespace
TEST(NampPs, CreditAfterTheRelocation) { credit_race(0); }
TEST(NampPs, CreditInFlightWhenRelocArrives) { credit_race(1); }
TEST(NampPs, CreditBeforeTheRelocation) { credit_race(60); }

// Fig. 3.39: MIGRATE starts dualcasting (every element also at the new location, same index,
// committed there without advancing its wr_idx), RELOC ends it; CCM sends dualcast too.
TEST(NampPs, MigrateDualcastsUntilReloc) {
    bench b(ps_on);
    namp_mem m{b};
    channel(m, 8);
    const uint32_t rdata2 = m.elem_data(2, RXB, 0);
    m.zero(0, DC, NAMP_PS_D_SIZE);
    m.put(0, H + NAMP_H_DUALCAST, DC);
    m.cbuffer(0, TXB, 2, 5);
    uint32_t wm = 0, wr = 0;
    b.run({[&] {
        start_slot(b.d(0), 0, NAMP_FLAG_CON, H, DATA, 4);  // before: only the old location
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        EXPECT_EQ(error_code(ps_request(b, m, NAMP_PS_OP_MIGRATE, rdata2, 1)), 0u);
        wm = m.get(1, A + NAMP_PS_A_WR_IDX);
        start_slot(b.d(0), 0, NAMP_FLAG_CON, H, DATA + 4, 4);
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        // a CCM stream of two elements from the send buffer, dualcast as well
        for (uint32_t k = 2; k < 4; ++k) {
            const uint32_t i = m.get(0, TXB + MP_CB_OFF_WR_IDX);
            m.put(0, m.elem_data(0, TXB, i), 0x100 + k);
            m.put(0, TXB + MP_CB_OFF_WR_IDX, i + 1);
            m.put(0, TXB + MP_CB_HEADER_SIZE + 4 * (i & 3), MP_CB_COMMITTED | 4u);
        }
        start_slot(b.d(0), 0, NAMP_FLAG_CON | NAMP_FLAG_BUF | NAMP_FLAG_CCM, H, TXB, 0);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 4);
        b.d(0).wr(slot_reg(0, NAMP_SLOT_FLAGS),
                  NAMP_FLAG_CON | NAMP_FLAG_BUF | NAMP_FLAG_VALID);  // leave CCM
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        b.cycles(300);
        EXPECT_EQ(m.elem_size(2, RXB, 0), 0u) << "element 0 was sent before MIGRATE";
        EXPECT_EQ(error_code(ps_request(b, m, NAMP_PS_OP_RELOC, rdata2, 1)), 0u);
        wr = m.get(1, A + NAMP_PS_A_WR_IDX);
        start_slot(b.d(0), 0, NAMP_FLAG_CON, H, DATA + 16, 4);  // after RELOC: only the new one
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        poll(b, 2, na(NA_NAMP_RX_COUNT), ~0u, 1);
        b.cycles(300);
    }});
    EXPECT_EQ(wm, 1u);
    EXPECT_EQ(wr, 4u);
    for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(m.get(1, m.elem_data(1, RXB, k)), 0x100 + k);
    for (uint32_t k = 1; k < 4; ++k) {
        EXPECT_EQ(m.get(2, m.elem_data(2, RXB, k)), 0x100 + k) << "copy of element " << k;
        EXPECT_EQ(m.elem_size(2, RXB, k), MP_CB_COMMITTED | 4u);
    }
    EXPECT_EQ(m.get(1, RXB + MP_CB_OFF_WR_IDX), 4u);
    EXPECT_EQ(m.get(2, RXB + MP_CB_OFF_WR_IDX), 1u) << "copies do not advance; element 4 does";
    EXPECT_EQ(m.get(2, m.elem_data(2, RXB, 4)), 0x104u);
    EXPECT_EQ(m.elem_size(1, RXB, 4), m.elem_size(1, RXB, 0))
        << "element 4 not at the old location";
    EXPECT_EQ(m.get(0, DC + NAMP_PS_D_STATE), 0u);
    EXPECT_EQ(b.stats(0).namp_shadow_transfers, 3u);
    EXPECT_EQ(b.stats(2).namp_rx_completed, 1u) << "copies are not deliveries";
}

// A dualcast member failing (the new location refuses the data): the original completes, the
// copy is counted as failed.
TEST(NampPs, DualcastMemberFailingLeavesTheOriginal) {
    bench b(ps_on);
    namp_mem m{b};
    channel(m, 8);
    m.zero(0, DC, NAMP_PS_D_SIZE);
    m.put(0, H + NAMP_H_DUALCAST, DC);
    b.run({[&] {
        // the copy's data address is in no SRAM of tile 2: its DMA is refused
        EXPECT_EQ(error_code(ps_request(b, m, NAMP_PS_OP_MIGRATE, 0x40000000u, 1)), 0u);
        start_slot(b.d(0), 0, NAMP_FLAG_CON, H, DATA, 4);
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
    EXPECT_EQ(m.get(1, m.elem_data(1, RXB, 0)), 0x100u);
    EXPECT_EQ(b.stats(0).namp_shadow_errors, 1u);
    EXPECT_EQ(b.stats(0).namp_shadow_transfers, 0u);
}

// Refusals: RELOC on a handle that is no connected channel's, MIGRATE without fast path or
// dualcast block; reported in the reply block, nothing written; the vif refuses PS.
TEST(NampPs, RequestsOnTheWrongHandlesAreRefused) {
    bench b({"namp.enabled=true", "namp.ps=true", "namp.slots=3", "namp.slots_virt=1"});
    namp_mem m{b};
    channel(m, 4);
    b.run({[&] {
        m.put(0, H + NAMP_H_FLAGS, 0);  // a message handle
        EXPECT_EQ(NAMP_STATUS_CODE(ps_request(b, m, NAMP_PS_OP_RELOC, 0, 1)), NAMP_ERR_NOT_CHANNEL);
        EXPECT_EQ(m.get(0, H + NAMP_H_TILE), 1u) << "nothing written";
        m.put(0, H + NAMP_H_FLAGS, NAMP_H_F_CONNECTED);  // no fast path
        EXPECT_EQ(NAMP_STATUS_CODE(ps_request(b, m, NAMP_PS_OP_MIGRATE, 0, 1)),
                  NAMP_ERR_MODE_UNSUPPORTED);
        m.direct(0, H, 1, RXB);  // fast path, but no dualcast block
        EXPECT_EQ(NAMP_STATUS_CODE(ps_request(b, m, NAMP_PS_OP_MIGRATE, 0, 1)),
                  NAMP_ERR_MODE_UNSUPPORTED);
        // a virtual interface never sends PS messages
        driver &d = b.d(0);
        d.wr(na(NA_NAMP_SLOT_BASE(2) + NAMP_VIF_CONFIG_PAGE + NAMP_VIFC_CTRL), NAMP_VIFC_READY);
        d.wr(na(NA_NAMP_SLOT_BASE(2) + NAMP_VIF_PAGE + NAMP_VIF_FLAGS),
             NAMP_FLAG_PS | NAMP_FLAG_VALID);
        EXPECT_EQ(
            NAMP_STATUS_CODE(d.rd(na(NA_NAMP_SLOT_BASE(2) + NAMP_VIF_PAGE + NAMP_VIF_STATUS))),
            NAMP_ERR_VIF_MODE);
    }});
    EXPECT_EQ(b.stats(0).namp_ps_refused, 3u);
    EXPECT_EQ(b.stats(0).namp_ps_applied, 0u);
}

// A multicast member whose endpoint relocates follows it like a point-to-point transfer.
TEST(NampPs, MulticastMemberFollowsTheRelocation) {
    bench b({"namp.enabled=true", "namp.ps=true", "namp.enable_cc_multicast=true"});
    namp_mem m{b};
    for (unsigned t : {1u, 2u, 3u}) {
        m.endpoint(t, EP, RXB);
        m.cbuffer(t, RXB, 2, 5);
    }
    m.put(1, REC + NAMP_PS_R_TILE, 2);
    m.put(1, REC + NAMP_PS_R_ENDPOINT, EP);
    m.put(1, EP + NAMP_EP_RELOC, REC);
    m.handle(0, H, 1, EP, 0, 0);
    m.handle(0, H + 0x40, 3, EP, 0, 0);
    const uint32_t desc = TILE_SRAM_BASE + 0x22000;
    m.zero(0, desc, 0x30);
    m.put(0, desc, 1);      // NAMP_CC_K_MULTICAST
    m.put(0, desc + 4, 2);  // two members
    m.put(0, desc + 0x10, H);
    m.put(0, desc + 0x20, H + 0x40);
    m.put(0, DATA, 0x55);
    b.run({[&] {
        start_slot(b.d(0), 0, NAMP_FLAG_CC, desc, DATA, 4);
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
    }});
    EXPECT_EQ(m.get(2, m.elem_data(2, RXB, 0)), 0x55u);
    EXPECT_EQ(m.get(3, m.elem_data(3, RXB, 0)), 0x55u);
    EXPECT_EQ(m.get(0, H + NAMP_H_TILE), 2u);
    EXPECT_EQ(b.stats(0).namp_relocations, 1u);
}

// ABORT | KEEP (docs/namp.md "NAMP-PS", aborting with KEEP): a buffered send held back by a paused
// receiver ends ABORTED with its send-buffer element given back (read index where it was, the
// element still committed), so the same start later delivers it exactly once; a plain ABORT of the
// same transfer frees the element.
namespace {
void abort_buffered(const bool keep) {
    {
        bench b({"namp.enabled=true", "namp.retry_cycles=64", "namp.retry_max_cycles=256"});
        namp_mem m{b};
        m.endpoint(1, EP, RXB, NAMP_EP_F_NOTIFY, NAMP_EP_STATE_PAUSED);
        m.cbuffer(1, RXB, 2, 5);
        m.handle(0, H, 1, EP, 0, 0);
        m.cbuffer(0, TXB, 2, 5);
        m.put(0, m.elem_data(0, TXB, 0), 0xFEED);
        m.put(0, TXB + MP_CB_HEADER_SIZE, MP_CB_COMMITTED | 4u);
        m.put(0, TXB + MP_CB_OFF_WR_IDX, 1);
        b.run({[&] {
            start_slot(b.d(0), 0, NAMP_FLAG_BUF, H, TXB, 0);
            b.cycles(2000);
            ASSERT_EQ(NAMP_STATUS_STATE(b.d(0).rd(slot_reg(0, NAMP_SLOT_STATUS))),
                      NAMP_STATE_RETRY);
            b.d(0).wr(slot_reg(0, NAMP_SLOT_CTRL),
                      NAMP_SLOT_CTRL_ABORT | (keep ? NAMP_SLOT_CTRL_KEEP : 0u));
            EXPECT_EQ(error_code(finish_slot(b, 0, 0)), uint32_t(NAMP_ERR_ABORTED));
            EXPECT_EQ(m.get(0, TXB + MP_CB_OFF_RD_IDX), keep ? 0u : 1u) << "keep " << keep;
            EXPECT_EQ(m.get(1, RXB + MP_CB_OFF_WR_IDX), 0u) << "nothing reached the receiver";
            if (!keep) return;
            EXPECT_EQ(m.elem_size(0, TXB, 0), MP_CB_COMMITTED | 4u) << "still committed";
            b.d(0).wr(slot_reg(0, NAMP_SLOT_FLAGS), 0);
            m.put(1, EP + NAMP_EP_STATE, NAMP_EP_STATE_READY);
            start_slot(b.d(0), 0, NAMP_FLAG_BUF, H, TXB, 0);
            EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
            EXPECT_EQ(m.get(0, TXB + MP_CB_OFF_RD_IDX), 1u) << "freed once sent";
            EXPECT_EQ(m.get(1, RXB + MP_CB_OFF_WR_IDX), 1u) << "exactly once";
            EXPECT_EQ(m.get(1, m.elem_data(1, RXB, 0)), 0xFEEDu);
        }});
    }
}
}  // namespace

TEST(NampPs, AbortWithKeepGivesTheElementBack) { abort_buffered(true); }
TEST(NampPs, AbortWithoutKeepFreesTheElement) { abort_buffered(false); }

// Fig. 3.38b with a CCM sender: RELOC reaches a continuous stream between two of its elements;
// those before the report's WR_IDX are at the old location, the rest at the new one, each once.
TEST(NampPs, RelocSwitchesARunningCcmStream) {
    bench b(ps_on);
    namp_mem m{b};
    channel(m, 8);
    const uint32_t rdata2 = m.elem_data(2, RXB, 0);
    m.cbuffer(0, TXB, 3, 5);
    auto push = [&](uint32_t word) {
        const uint32_t i = m.get(0, TXB + MP_CB_OFF_WR_IDX);
        m.put(0, m.elem_data(0, TXB, i), word);
        m.put(0, TXB + MP_CB_HEADER_SIZE + 4 * (i & 7), MP_CB_COMMITTED | 4u);
        m.put(0, TXB + MP_CB_OFF_WR_IDX, i + 1);
    };
    uint32_t w = 0;
    b.run({[&] {
        start_slot(b.d(0), 0, NAMP_FLAG_CON | NAMP_FLAG_BUF | NAMP_FLAG_CCM, H, TXB, 0);
        for (uint32_t k = 0; k < 3; ++k) push(0x200 + k);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 3);
        EXPECT_EQ(error_code(ps_request(b, m, NAMP_PS_OP_RELOC, rdata2, 1)), 0u);
        w = m.get(1, A + NAMP_PS_A_WR_IDX);
        for (uint32_t k = 3; k < 6; ++k) push(0x200 + k);
        poll(b, 2, na(NA_NAMP_RX_COUNT), ~0u, 3);
        b.d(0).wr(slot_reg(0, NAMP_SLOT_FLAGS),
                  NAMP_FLAG_CON | NAMP_FLAG_BUF | NAMP_FLAG_VALID);  // leave CCM
        EXPECT_EQ(error_code(finish_slot(b, 0, 0)), 0u);
        b.cycles(300);
    }});
    EXPECT_EQ(w, 3u);
    // both buffers hold 4 elements: index k is at slot k % 4
    for (uint32_t k = 0; k < 3; ++k) EXPECT_EQ(m.get(1, m.elem_data(1, RXB, k)), 0x200 + k);
    EXPECT_EQ(m.elem_size(1, RXB, 3), 0u) << "element 3 not at the old location";
    for (uint32_t k = 3; k < 6; ++k)
        EXPECT_EQ(m.get(2, m.elem_data(2, RXB, k)), 0x200 + k) << "same index at the new location";
    EXPECT_EQ(m.elem_size(2, RXB, 2), 0u) << "element 2 not at the new location";
    EXPECT_EQ(m.get(1, RXB + MP_CB_OFF_WR_IDX), 3u);
    EXPECT_EQ(m.get(0, H + NAMP_H_CREDITS), 2u) << "8 credits, 6 elements";
    EXPECT_EQ(m.get(0, TXB + MP_CB_OFF_RD_IDX), 6u) << "every element sent once";
}
