// SV isolation in the adapter (docs/namp.md "SV isolation"): every address the NAMP touches for a
// virtual interface comes from kernel state or lies in a window the kernel granted. Driven by the
// test bus masters, which play the task (its vif page, its own buffers' bytes) and the kernel
// (tables, endpoints, slot pages). Each breach of the isolation issue has its case here; a
// randomized adversary ends the file.
#include <cstring>
#include <map>
#include <random>

#include "cbuffer_layout.h"
#include "na_test_support.h"
#include "namp_mem.h"
#include "namp_structs.h"

using namespace na_test;

namespace {

const std::vector<std::string> sv = {"namp.enabled=true", "namp.slots=5", "namp.slots_virt=4"};

// tile 0: the task's send buffer (its window), kernel handles and table; tile 1: the receiving
// endpoint (kernel memory) and its buffer in a task's page (the guarded window)
constexpr uint32_t EP = TILE_SRAM_BASE + 0x10000;      // endpoint in tile 1 (kernel)
constexpr uint32_t RXB = TILE_SRAM_BASE + 0x11000;     // its receive buffer (task page, tile 1)
constexpr uint32_t HR = TILE_SRAM_BASE + 0x12000;      // tile 1: a connected channel handle
constexpr uint32_t H = TILE_SRAM_BASE + 0x20000;       // tile 0: message handle to EP
constexpr uint32_t HCH = TILE_SRAM_BASE + 0x20040;     // tile 0: channel handle to EP
constexpr uint32_t HCR = TILE_SRAM_BASE + 0x20080;     // tile 0: credit path, names HR in tile 1
constexpr uint32_t HBAD = TILE_SRAM_BASE + 0x200C0;    // tile 0: handle naming EP for CoM (no path)
constexpr uint32_t TXB = TILE_SRAM_BASE + 0x21000;     // the task's send buffer (tile 0)
constexpr uint32_t ET = TILE_SRAM_BASE + 0x30000;      // the task's endpoint table (kernel)
constexpr uint32_t SECRET = TILE_SRAM_BASE + 0x40000;  // kernel data the task must not reach
constexpr uint32_t TX_N = 2, TX_M = 6, RX_N = 2, RX_M = 6;
const uint32_t TX_WIN = uint32_t(mp_cbuffer_footprint(TX_N, TX_M));
const uint32_t RX_WIN = uint32_t(mp_cbuffer_footprint(RX_N, RX_M));
constexpr uint32_t SECRET_WORD = 0x5EC12E70u;  // tag of every byte the task must not see
constexpr unsigned VSLOT = 2;                  // the task's vif slot

uint32_t vifc(unsigned s, uint32_t reg) { return vif_cfg_reg(s, reg); }
uint32_t vifr(unsigned s, uint32_t reg) { return vif_reg(s, reg); }

struct mem : namp_mem {  // the task's send buffer and endpoint table on top
    uint32_t data(uint32_t buf, uint32_t n, uint32_t k) {
        return buf + MP_CB_HEADER_SIZE + (4u << n) + (k << TX_M);
    }
    // commits a message of `bytes` (its words `tag + i`) at wr_idx of the task's send buffer
    void push(uint32_t bytes, uint32_t tag) {
        const uint32_t wr = get(0, TXB + MP_CB_OFF_WR_IDX), k = wr & ((1u << TX_N) - 1u);
        for (uint32_t i = 0; i < bytes / 4; ++i) put(0, data(TXB, TX_N, k) + 4 * i, tag + i);
        put(0, TXB + MP_CB_OFF_WR_IDX, wr + 1);
        put(0, TXB + MP_CB_HEADER_SIZE + 4 * k, MP_CB_COMMITTED | bytes);
    }
    void entry(uint32_t vid, uint32_t addr, uint32_t kind, uint32_t limit) {
        et_entry(ET, vid, addr, kind, limit);
    }
    // Both tiles: every word a secret, then the structures of the set-up. vIDs: 0 message handle,
    // 1 send buffer, 2 channel handle, 3 credit path.
    void setup(bool guarded = true) {
        for (unsigned t = 0; t < 2; ++t)
            for (uint32_t o = 0; o < (1u << 20); o += 4) put(t, TILE_SRAM_BASE + o, SECRET_WORD);
        for (uint32_t o = 0; o < TX_WIN; o += 4) put(0, TXB + o, 0);  // the tasks' own pages
        for (uint32_t o = 0; o < RX_WIN; o += 4) put(1, RXB + o, 0);
        for (uint32_t o = 0; o < NAMP_EP_SIZE; o += 4) put(1, EP + o, 0);
        put(1, EP + NAMP_EP_STATE, NAMP_EP_STATE_READY);
        put(1, EP + NAMP_EP_FLAGS, NAMP_EP_F_NOTIFY | (guarded ? NAMP_EP_F_GUARDED : 0u));
        put(1, EP + NAMP_EP_RX_BUFFER, RXB);
        put(1, EP + NAMP_EP_RX_WINDOW, guarded ? RX_WIN : 0u);
        cbuffer(1, RXB, RX_N, RX_M);
        handle(1, HR, 0, HCH, 0, NAMP_H_F_CONNECTED);
        handle(0, H, 1, EP, 0, 0);
        handle(0, HCH, 1, EP, 2, NAMP_H_F_CONNECTED);
        handle(0, HCR, 1, HR, 0, NAMP_H_F_CONNECTED);
        handle(0, HBAD, 1, EP, 0, 0);
        cbuffer(0, TXB, TX_N, TX_M);
        entry(0, H, NAMP_ET_HANDLE, NAMP_H_SIZE);
        entry(1, TXB, NAMP_ET_SENDBUF, TX_WIN);
        entry(2, HCH, NAMP_ET_HANDLE, NAMP_H_SIZE);
        entry(3, HCR, NAMP_ET_CREDIT, NAMP_H_SIZE);
        entry(4, HBAD, NAMP_ET_HANDLE, NAMP_H_SIZE);
    }
};

void configure(driver &d, unsigned s, uint32_t bound = 5) {
    d.wr(vifc(s, NAMP_VIFC_ET_BASE), ET);
    d.wr(vifc(s, NAMP_VIFC_ET_BOUND), bound);
    d.wr(vifc(s, NAMP_VIFC_CTRL), NAMP_VIFC_READY);
}

void vstart(driver &d, unsigned s, uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3) {
    d.wr(vifr(s, NAMP_VIF_PARAM1), p1);
    d.wr(vifr(s, NAMP_VIF_PARAM2), p2);
    d.wr(vifr(s, NAMP_VIF_PARAM3), p3);
    d.wr(vifr(s, NAMP_VIF_FLAGS), flags | NAMP_FLAG_VALID);
}

// Waits for DONE at most `tries` polls; returns STATUS, or 0xFFFFFFFF if still running.
uint32_t vdone(bench &b, unsigned s, unsigned tries = 2000) {
    for (unsigned i = 0; i < tries; ++i) {
        if (b.d(0).rd(vifr(s, NAMP_VIF_FLAGS)) & NAMP_FLAG_DONE)
            return b.d(0).rd(vifr(s, NAMP_VIF_STATUS));
        b.cycles(10);
    }
    return 0xFFFFFFFFu;
}

uint32_t code_of(uint32_t st) { return st & NAMP_STATUS_ERROR ? NAMP_STATUS_CODE(st) : 0u; }

unsigned changed_outside(mem &m, unsigned t,
                         const std::vector<std::pair<uint32_t, uint32_t>> &allowed) {
    return m.changed_outside(t, SECRET_WORD, allowed);
}
}  // namespace

// B1, B2, B3: the send buffer's header points data or size words outside the task's window (at
// kernel data): the transfer fails WINDOW, nothing is sent, the kernel word keeps its value.
TEST(SvIsolation, SendHeaderOutsideTheWindowFails) {
    bench b(sv);
    mem m{b};
    m.setup();
    m.put(0, SECRET, MP_CB_COMMITTED | 0x80000000u | 16);  // a kernel word with bit 31 (B3)
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, VSLOT);
        // B1/B2: data_offset at the secret
        m.push(16, 0x100);
        m.put(0, TXB + MP_CB_OFF_DATA_OFS, SECRET - TXB);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_WINDOW);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        // B3: size_offset at the kernel word
        m.cbuffer(0, TXB, TX_N, TX_M);
        m.push(16, 0x200);
        m.put(0, TXB + MP_CB_OFF_SIZE_OFS, SECRET - TXB);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_WINDOW);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        // a size word larger than the rest of the window
        m.cbuffer(0, TXB, TX_N, TX_M);
        m.push(16, 0x300);
        m.put(0, TXB + MP_CB_HEADER_SIZE, MP_CB_COMMITTED | 0x10000u);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_WINDOW);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        // the same CCM stream: refused element by element, the slot ends
        m.cbuffer(0, TXB, TX_N, TX_M);
        m.push(16, 0x400);
        m.put(0, TXB + MP_CB_OFF_DATA_OFS, 0xFFFFF000u);
        vstart(d, VSLOT, NAMP_FLAG_BUF | NAMP_FLAG_CCM, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_WINDOW);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        // a correct send afterwards goes through
        m.cbuffer(0, TXB, TX_N, TX_M);
        m.push(16, 0x500);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), 0u);
        poll(b, 1, na(NA_NAMP_RX_COUNT), ~0u, 1);
    }});
    EXPECT_EQ(m.get(0, SECRET), MP_CB_COMMITTED | 0x80000000u | 16)
        << "B3: the kernel word is untouched";
    EXPECT_EQ(m.get(1, RXB + MP_CB_HEADER_SIZE + (4u << RX_N)), 0x500u)
        << "only the good message arrived";
    EXPECT_EQ(b.stats(1).namp_msgs_received[NAMP_MSG_ALLOC_REQ], 1u);
    EXPECT_EQ(b.slot_stats(0, VSLOT).errors, 4u);
}

// B4, B5: the receiving task points its buffer's data or size words at kernel memory of its own
// tile: the target refuses (NACK WINDOW), writes nothing outside the window.
TEST(SvIsolation, ReceiveHeaderOutsideTheWindowIsRefused) {
    bench b(sv);
    mem m{b};
    m.setup();
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, VSLOT);
        const uint32_t bad[][2] = {{MP_CB_OFF_DATA_OFS, EP - RXB},      // kernel endpoint
                                   {MP_CB_OFF_DATA_OFS, RX_WIN - 8},    // straddles the end
                                   {MP_CB_OFF_SIZE_OFS, SECRET - RXB},  // size words outside
                                   {MP_CB_OFF_CAPACITY, 12},            // element 2^12 beyond
                                   {MP_CB_OFF_MAXMSG, 16}};             // elements of 64 KiB
        for (const auto &x : bad) {
            m.cbuffer(1, RXB, RX_N, RX_M);
            m.put(1, RXB + MP_CB_OFF_WR_IDX, 1000);  // element 1000 & (2^n - 1)
            m.put(1, RXB + MP_CB_OFF_RD_IDX, 1000);
            m.put(1, RXB + x[0], x[1]);
            m.cbuffer(0, TXB, TX_N, TX_M);
            m.push(32, 0x700);
            vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
            EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_WINDOW) << "header word +" << x[0];
            d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        }
    }});
    m.cbuffer(1, RXB, RX_N, RX_M);  // the task's own bytes are its business
    EXPECT_EQ(changed_outside(
                  m, 1, {{EP, EP + NAMP_EP_SIZE}, {RXB, RXB + RX_WIN}, {HR, HR + NAMP_H_SIZE}}),
              0u);
    EXPECT_EQ(m.get(1, EP + NAMP_EP_INFLIGHT), 0u) << "refused allocations hold nothing";
    EXPECT_EQ(b.stats(1).namp_window_refusals, 5u);
    EXPECT_EQ(b.stats(1).namp_rx_completed, 0u);
}

// B6, B7: credit mode on a message handle: the vif refuses it (not a credit path); a physical
// slot (a kernel bug) naming an endpoint is refused by the target, no word written, NACKed.
TEST(SvIsolation, CreditsOnlyOnAChannelsCreditPath) {
    bench b(sv);
    mem m{b};
    m.setup();
    const uint32_t ep_before = m.get(1, EP + NAMP_EP_RX_BUFFER);
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, VSLOT);
        vstart(d, VSLOT, NAMP_FLAG_COM, 0, 0x40, 0);  // B7: the message handle to EP
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_VIF_ENTRY);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        vstart(d, VSLOT, NAMP_FLAG_COM, 4, 0x1000, NAMP_COM_F_REVOKE);  // B6 with REVOKE
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_VIF_ENTRY);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        vstart(d, VSLOT, NAMP_FLAG_COM, 3, 5, 0);  // the credit path: HR in tile 1 gains 5
        EXPECT_EQ(code_of(vdone(b, VSLOT)), 0u);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        // a kernel's physical slot starting CoM on a handle naming an endpoint, then REVOKE
        for (uint32_t p3 : {0u, uint32_t(NAMP_COM_F_REVOKE)}) {
            d.wr(slot_reg(0, NAMP_SLOT_PARAM1), HBAD);
            d.wr(slot_reg(0, NAMP_SLOT_PARAM2), 0x1000);
            d.wr(slot_reg(0, NAMP_SLOT_PARAM3), p3);
            d.wr(slot_reg(0, NAMP_SLOT_FLAGS), NAMP_FLAG_COM | NAMP_FLAG_VALID);
            poll(b, 0, slot_reg(0, NAMP_SLOT_FLAGS), NAMP_FLAG_DONE, NAMP_FLAG_DONE);
            d.wr(slot_reg(0, NAMP_SLOT_FLAGS), 0);
        }
        b.cycles(2000);
    }});
    EXPECT_EQ(m.get(1, HR + NAMP_H_CREDITS), 5u);
    EXPECT_EQ(m.get(1, EP + NAMP_EP_RX_BUFFER), ep_before)
        << "B6: no credits added to an endpoint word";
    EXPECT_EQ(m.get(1, EP + NAMP_EP_TX_BUFFER), 0u);
    EXPECT_EQ(m.get(1, EP + NAMP_EP_FLAGS), NAMP_EP_F_NOTIFY | NAMP_EP_F_GUARDED)
        << "REVOKE wrote nothing";
    EXPECT_EQ(b.stats(1).namp_credit_refused, 2u);
    EXPECT_EQ(b.stats(0).namp_credit_nacks, 2u);
}

// A send buffer entry's window must hold a header and lie in SRAM, else VIF_WINDOW.
TEST(SvIsolation, SendBufferEntryWindowIsChecked) {
    bench b(sv);
    mem m{b};
    m.setup();
    m.push(4, 1);
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, VSLOT);
        m.entry(1, TXB, NAMP_ET_SENDBUF, MP_CB_HEADER_SIZE - 4);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_VIF_WINDOW);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        m.entry(1, TILE_SRAM_BASE + (1u << 20) - 64, NAMP_ET_SENDBUF, 128);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_VIF_WINDOW);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        // the window the vif gives the slot is the entry's, visible to the kernel only
        m.entry(1, TXB, NAMP_ET_SENDBUF, TX_WIN);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), 0u);
        EXPECT_EQ(d.rd(slot_reg(VSLOT, NAMP_SLOT_WIN_BASE)), TXB);
        EXPECT_EQ(d.rd(slot_reg(VSLOT, NAMP_SLOT_WIN_SIZE)), TX_WIN);
    }});
}

// The kernel's abort ends a persistent or running transfer at its next safe point, gives back
// what it holds (a remote element VOID), and the slot starts clean afterwards.
TEST(SvIsolation, AbortEndsEveryKindOfWait) {
    std::vector<std::string> o = sv;  // long responses and back-offs: each state is seen by a poll
    for (const char *k :
         {"namp.target_cycles=500", "namp.retry_cycles=2000", "namp.retry_max_cycles=8000"})
        o.push_back(k);
    bench b(o);
    mem m{b};
    m.setup(false);
    m.put(0, HCH + NAMP_H_CREDITS, 0);
    auto abort_and_code = [&](unsigned s) {
        b.d(0).wr(slot_reg(s, NAMP_SLOT_CTRL), NAMP_SLOT_CTRL_ABORT);
        const uint32_t st = vdone(b, s, 1000);
        b.d(0).wr(slot_reg(s, NAMP_SLOT_FLAGS), 0);
        return code_of(st);
    };
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, VSLOT);
        // a channel send without credit: persistent CREDIT_WAIT (B8's kind)
        m.push(8, 1);
        vstart(d, VSLOT, NAMP_FLAG_BUF | NAMP_FLAG_CON, 2, 1, 0);
        poll(b, 0, slot_reg(VSLOT, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_CREDIT_WAIT << 8);
        EXPECT_EQ(abort_and_code(VSLOT), NAMP_ERR_ABORTED);
        EXPECT_EQ(m.get(0, HCH + NAMP_H_CREDITS), 0u);
        // CCM on an empty buffer: SEND_WAIT for ever (B8)
        m.cbuffer(0, TXB, TX_N, TX_M);
        vstart(d, VSLOT, NAMP_FLAG_BUF | NAMP_FLAG_CCM, 0, 1, 0);
        poll(b, 0, slot_reg(VSLOT, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_SEND_WAIT << 8);
        EXPECT_EQ(abort_and_code(VSLOT), NAMP_ERR_ABORTED);
        // a full receiver: RETRY with back-off, the credit and element given back
        m.put(1, RXB + MP_CB_OFF_WR_IDX, 4);
        m.cbuffer(0, TXB, TX_N, TX_M);
        m.push(8, 2);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        poll(b, 0, slot_reg(VSLOT, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_RETRY << 8);
        EXPECT_EQ(abort_and_code(VSLOT), NAMP_ERR_ABORTED);
        EXPECT_EQ(m.get(0, TXB + MP_CB_HEADER_SIZE), 0u) << "the element was dropped";
        // a transfer that got its element: committed VOID at the receiver
        m.put(1, RXB + MP_CB_OFF_WR_IDX, 0);
        m.cbuffer(0, TXB, TX_N, TX_M);
        m.push(64, 3);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        poll(b, 0, slot_reg(VSLOT, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_REQUEST << 8, 100000);
        EXPECT_EQ(abort_and_code(VSLOT), NAMP_ERR_ABORTED);
        b.cycles(3000);
        EXPECT_EQ(m.get(1, RXB + MP_CB_HEADER_SIZE), MP_CB_COMMITTED | MP_CB_VOID);
        // idle and finished slots: nothing happens; the slot works again
        d.wr(slot_reg(VSLOT, NAMP_SLOT_CTRL), NAMP_SLOT_CTRL_ABORT);
        m.cbuffer(0, TXB, TX_N, TX_M);
        m.push(8, 4);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), 0u);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        uint32_t v;
        EXPECT_FALSE(d.write(slot_reg(VSLOT, NAMP_SLOT_CTRL), 2)) << "reserved control bit";
        EXPECT_TRUE(d.read(slot_reg(VSLOT, NAMP_SLOT_CTRL), v));
        EXPECT_EQ(v, 0u);
    }});
    EXPECT_EQ(b.slot_stats(0, VSLOT).errors, 4u);
}

// The abort of a slot queued behind an older one to the same channel (allocation order per
// handle): the older waits for a credit for ever, the younger is READY behind it; its abort ends
// it at once (ABORTED), the older keeps waiting until its own abort.
TEST(SvIsolation, AbortOfASlotQueuedBehindAnOlderOne) {
    bench b(sv);
    mem m{b};
    m.setup(false);
    m.put(0, HCH + NAMP_H_CREDITS, 0);
    b.run({[&] {
        driver &d = b.d(0);
        for (unsigned s : {0u, 1u}) {
            d.wr(slot_reg(s, NAMP_SLOT_PARAM1), HCH);
            d.wr(slot_reg(s, NAMP_SLOT_PARAM2), TXB);  // never read: no credit comes
            d.wr(slot_reg(s, NAMP_SLOT_PARAM3), 8);
            d.wr(slot_reg(s, NAMP_SLOT_FLAGS), NAMP_FLAG_CON | NAMP_FLAG_VALID);
        }
        poll(b, 0, slot_reg(0, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_CREDIT_WAIT << 8);
        b.cycles(2000);
        EXPECT_EQ(NAMP_STATUS_STATE(d.rd(slot_reg(1, NAMP_SLOT_STATUS))),
                  uint32_t(NAMP_STATE_READY))
            << "the younger slot waits behind the older one";
        d.wr(slot_reg(1, NAMP_SLOT_CTRL), NAMP_SLOT_CTRL_ABORT);
        unsigned polls = 0;
        while (!(d.rd(slot_reg(1, NAMP_SLOT_FLAGS)) & NAMP_FLAG_DONE) && polls < 200) {
            b.cycles(10);
            ++polls;
        }
        EXPECT_LT(polls, 200u) << "the abort of the queued slot was not served";
        EXPECT_EQ(code_of(d.rd(slot_reg(1, NAMP_SLOT_STATUS))), uint32_t(NAMP_ERR_ABORTED));
        EXPECT_EQ(NAMP_STATUS_STATE(d.rd(slot_reg(0, NAMP_SLOT_STATUS))),
                  uint32_t(NAMP_STATE_CREDIT_WAIT));
        d.wr(slot_reg(0, NAMP_SLOT_CTRL), NAMP_SLOT_CTRL_ABORT);
        poll(b, 0, slot_reg(0, NAMP_SLOT_FLAGS), NAMP_FLAG_DONE, NAMP_FLAG_DONE);
        EXPECT_EQ(code_of(d.rd(slot_reg(0, NAMP_SLOT_STATUS))), uint32_t(NAMP_ERR_ABORTED));
        EXPECT_EQ(m.get(0, HCH + NAMP_H_CREDITS), 0u);
    }});
}

// A guarded endpoint counts allocations until their FINAL, also when it is deleted meanwhile;
// after the deletion, allocations are refused and count nothing.
TEST(SvIsolation, InflightCountsUntilTheFinal) {
    std::vector<std::string> o = sv;
    o.push_back("namp.data_setup_cycles=400");  // a long window between the grant and the FINAL
    bench b(o);
    mem m{b};
    m.setup();
    uint32_t during = 0;
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, VSLOT);
        m.push(64, 5);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        poll(b, 0, slot_reg(VSLOT, NAMP_SLOT_STATUS), 0xFF00u, NAMP_STATE_DATA << 8, 100000);
        during = m.get(1, EP + NAMP_EP_INFLIGHT);
        m.put(1, EP + NAMP_EP_STATE, NAMP_EP_STATE_DELETED);  // the kernel deletes it now
        EXPECT_EQ(code_of(vdone(b, VSLOT)), 0u);
        d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
        b.cycles(500);
        m.push(64, 6);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 1);
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_NO_ENDPOINT);
    }});
    EXPECT_EQ(during, 1u);
    EXPECT_EQ(m.get(1, EP + NAMP_EP_INFLIGHT), 0u);
}

// Withdrawing READY resets what the task wrote and drops a start still being translated.
TEST(SvIsolation, ReadyWithdrawalResetsTheTaskSide) {
    std::vector<std::string> o = sv;
    o.push_back("namp.vif_cycles=300");
    bench b(o);
    mem m{b};
    m.setup();
    m.push(8, 9);
    b.run({[&] {
        driver &d = b.d(0);
        configure(d, VSLOT);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 0, 1, 0);
        d.wr(vifc(VSLOT, NAMP_VIFC_CTRL), 0);  // the task ends while its start is translated
        b.cycles(2000);
        EXPECT_EQ(d.rd(slot_reg(VSLOT, NAMP_SLOT_FLAGS)) & NAMP_FLAG_VALID, 0u)
            << "no start reached the slot";
        EXPECT_EQ(d.rd(vifr(VSLOT, NAMP_VIF_PARAM1)), 0u);
        EXPECT_EQ(d.rd(vifr(VSLOT, NAMP_VIF_PARAM2)), 0u);
        vstart(d, VSLOT, NAMP_FLAG_BUF, 9, 1, 0);  // refused (not READY), then READY again: clean
        EXPECT_EQ(code_of(vdone(b, VSLOT)), NAMP_ERR_VIF_DISABLED);
        d.wr(vifc(VSLOT, NAMP_VIFC_CTRL), NAMP_VIFC_READY);
        d.wr(vifc(VSLOT, NAMP_VIFC_CTRL), 0);
        EXPECT_EQ(d.rd(vifr(VSLOT, NAMP_VIF_STATUS)), 0u) << "the refusal is gone with the owner";
    }});
    EXPECT_EQ(b.stats(1).namp_msgs_received[NAMP_MSG_ALLOC_REQ], 0u);
}

// The randomized adversary: a task on tile 0 writes random header words, offsets, sizes, flags,
// vIDs and credit values into its own send buffer and vif, and a task on tile 1 does the same to
// its receive buffer's header, for thousands of transfers; the kernel aborts what does not end.
// Every other word of both tiles (kernel memory, set to secret words) must be unchanged, apart
// from the counters the NAMP keeps in kernel structures, and no secret word may reach a window.
TEST(SvIsolation, RandomizedAdversaryNeverLeavesItsWindows) {
    bench b(sv);
    mem m{b};
    m.setup();
    std::mt19937 rng(20261126);
    auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
    // a header word an attacker would try: garbage, boundaries, kernel and foreign addresses
    auto evil = [&](uint32_t base, uint32_t win) -> uint32_t {
        switch (pick(8)) {
        case 0: return rng();
        case 1: return pick(32);
        case 2: return win - pick(64);
        case 3: return win + pick(64);
        case 4: return SECRET - base + 4 * pick(64);
        case 5: return EP - base;
        case 6: return uint32_t(-int32_t(4 * pick(16)));
        default: return MP_CB_HEADER_SIZE + 4 * pick(64);
        }
    };
    const unsigned iterations = 6000;
    unsigned ok = 0, refused = 0, aborted = 0;
    std::map<uint32_t, unsigned> codes;
    b.run({[&] {
              driver &d = b.d(0);
              configure(d, VSLOT);
              for (unsigned it = 0; it < iterations; ++it) {
                  // every other transfer is an honest one (the NAMP must stay usable between attacks)
                  const bool honest = pick(2);
                  if (honest || pick(2)) m.cbuffer(0, TXB, TX_N, TX_M);
                  if (honest || pick(2)) m.push(4 * (1 + pick(16)), it << 8);
                  if (honest || pick(2)) m.cbuffer(1, RXB, RX_N, RX_M);
                  for (unsigned k = honest ? 0 : pick(4); k > 0; --k)
                      m.put(0, TXB + 4 * pick(8), evil(TXB, TX_WIN));
                  if (!honest && pick(4) == 0)
                      m.put(0, TXB + MP_CB_HEADER_SIZE + 4 * pick(4),
                            MP_CB_COMMITTED | evil(TXB, TX_WIN));
                  for (unsigned k = honest ? 0 : pick(3); k > 0; --k)
                      m.put(1, RXB + 4 * pick(8), evil(RXB, RX_WIN));
                  if (honest || pick(8) == 0) m.put(0, HCH + NAMP_H_CREDITS, honest ? 1 : pick(4));
                  static const uint32_t modes[] = {NAMP_FLAG_BUF,
                                                   NAMP_FLAG_BUF,
                                                   NAMP_FLAG_BUF | NAMP_FLAG_CON,
                                                   NAMP_FLAG_BUF | NAMP_FLAG_CCM,
                                                   NAMP_FLAG_BUF | NAMP_FLAG_CON | NAMP_FLAG_CCM,
                                                   NAMP_FLAG_COM,
                                                   0,
                                                   NAMP_FLAG_CC | NAMP_FLAG_BUF,
                                                   NAMP_FLAG_BUF | (1u << 12)};
                  uint32_t flags = honest          ? modes[pick(3)]
                                   : pick(16) == 0 ? rng() & ~NAMP_FLAG_VALID
                                                   : modes[pick(9)];
                  // vIDs: mostly the right kind for the mode, else any entry or any number
                  const uint32_t r1 = honest ? 7 : pick(8), r2 = honest ? 7 : pick(8);
                  const uint32_t p1 = r1 == 0                   ? rng()
                                      : r1 == 1                 ? pick(6)
                                      : (flags & NAMP_FLAG_COM) ? 3u
                                      : (flags & NAMP_FLAG_CON) ? 2u
                                                                : 0u;
                  const uint32_t p2 = (flags & NAMP_FLAG_COM) ? (r2 == 0 ? rng() : pick(0x100))
                                      : r2 == 0               ? rng()
                                      : r2 == 1               ? pick(6)
                                                              : 1u;
                  const uint32_t p3 = honest         ? m.get(0, TXB + MP_CB_OFF_RD_IDX)
                                      : pick(4) == 0 ? rng()
                                                     : pick(8);
                  vstart(d, VSLOT, flags, p1, p2, p3);
                  uint32_t st = vdone(b, VSLOT, 300);
                  if (st == 0xFFFFFFFFu) {  // the kernel ends what keeps running (CCM, credit wait)
                      d.wr(slot_reg(VSLOT, NAMP_SLOT_CTRL), NAMP_SLOT_CTRL_ABORT);
                      st = vdone(b, VSLOT, 2000);
                      ++aborted;
                  }
                  ASSERT_NE(st, 0xFFFFFFFFu) << "iteration " << it << ": the slot never ended";
                  if (st & NAMP_STATUS_ERROR)
                      ++refused;
                  else
                      ++ok;
                  ++codes[NAMP_STATUS_CODE(st)];
                  d.wr(vifr(VSLOT, NAMP_VIF_FLAGS), 0);
                  // a secret word in the receiver's window is a breach (the sender's data never holds one)
                  for (uint32_t o = 0; o < RX_WIN; o += 4)
                      ASSERT_NE(m.get(1, RXB + o), SECRET_WORD)
                          << "iteration " << it << ": a foreign word arrived";
              }
              b.cycles(5000);
          }},
          5000);
    std::printf("adversary: %u iterations, %u completed, %u refused, %u aborted; codes:",
                iterations, ok, refused, aborted);
    for (const auto &c : codes) std::printf(" %u:%u", c.first, c.second);
    std::printf("\n");
    // the adversary's own pages, the kernel structures whose counters the NAMP keeps, the table
    const std::vector<std::pair<uint32_t, uint32_t>> own0 = {
        {TXB, TXB + TX_WIN}, {H, HBAD + NAMP_H_SIZE}, {ET, ET + 5 * NAMP_ET_ENTRY_SIZE}};
    const std::vector<std::pair<uint32_t, uint32_t>> own1 = {
        {RXB, RXB + RX_WIN}, {EP, EP + NAMP_EP_SIZE}, {HR, HR + NAMP_H_SIZE}};
    EXPECT_EQ(changed_outside(m, 0, own0), 0u) << "tile 0: bytes outside the windows changed";
    EXPECT_EQ(changed_outside(m, 1, own1), 0u) << "tile 1: bytes outside the windows changed";
    EXPECT_EQ(m.get(1, EP + NAMP_EP_INFLIGHT), 0u);
    EXPECT_EQ(m.get(1, EP + NAMP_EP_RX_BUFFER), RXB);
    EXPECT_EQ(m.get(1, EP + NAMP_EP_STATE), NAMP_EP_STATE_READY);
    EXPECT_GT(ok, iterations / 3) << "honest transfers go through between the attacks";
    EXPECT_GT(refused, iterations / 4);
    EXPECT_GT(codes[NAMP_ERR_WINDOW], 50u) << "the attacks reach the window checks";
}
