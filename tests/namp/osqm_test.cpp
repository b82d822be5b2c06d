// HW-OSQM (namp/include/namp/osqm.h, docs/namp.md "HW-OSQM"), driven by the test bus masters:
// the configuration page, insertion on transfer completion for every TYPE x DIR and custom
// layouts, insertion on message delivery (endpoint words), the OS lock (word and ticket: the
// insertion waits while it is held), bitmap, wake-up queue and demand-interrupt modes.
#include <cstring>

#include "cbuffer_layout.h"
#include "na_test_support.h"
#include "namp_structs.h"

using namespace na_test;

namespace {

const std::vector<std::string> on = {"namp.enabled=true", "namp.osqm=true"};

constexpr uint32_t EP = TILE_SRAM_BASE + 0x10000, RXB = TILE_SRAM_BASE + 0x11000;
constexpr uint32_t H = TILE_SRAM_BASE + 0x20000, DATA = TILE_SRAM_BASE + 0x30000;
constexpr uint32_t Q = TILE_SRAM_BASE + 0x40000;   // queue header
constexpr uint32_t T0 = TILE_SRAM_BASE + 0x41000;  // thread elements, 0x100 apart
constexpr uint32_t LOCK = TILE_SRAM_BASE + 0x42000, BITMAP = TILE_SRAM_BASE + 0x42100;
constexpr uint32_t WQ = TILE_SRAM_BASE + 0x42200;
uint32_t th(unsigned i) { return T0 + 0x100 * i; }
uint32_t osqm(uint32_t r) { return na(NA_OSQM_BASE + r); }
uint32_t slot(unsigned i, uint32_t r) { return na(NA_NAMP_SLOT_BASE(i) + r); }

struct mem {
    bench &b;
    void put(unsigned t, uint32_t a, uint32_t v) {
        std::memcpy(b.mem(t) + (a - TILE_SRAM_BASE), &v, 4);
    }
    uint32_t get(unsigned t, uint32_t a) {
        uint32_t v;
        std::memcpy(&v, b.mem(t) + (a - TILE_SRAM_BASE), 4);
        return v;
    }
    void setup() {
        for (uint32_t o = 0; o < NAMP_EP_SIZE; o += 4) put(1, EP + o, 0);
        put(1, EP + NAMP_EP_STATE, NAMP_EP_STATE_READY);
        put(1, EP + NAMP_EP_FLAGS, NAMP_EP_F_NOTIFY);
        put(1, EP + NAMP_EP_RX_BUFFER, RXB);
        put(1, RXB + MP_CB_OFF_CAPACITY, 4);
        put(1, RXB + MP_CB_OFF_MAXMSG, 4);
        put(1, RXB + MP_CB_OFF_SIZE_OFS, MP_CB_HEADER_SIZE);
        put(1, RXB + MP_CB_OFF_DATA_OFS, MP_CB_HEADER_SIZE + (4u << 4));
        for (uint32_t o = 0; o < NAMP_H_SIZE; o += 4) put(0, H + o, 0);
        put(0, H + NAMP_H_TILE, 1);
        put(0, H + NAMP_H_ENDPOINT, EP);
    }
};

// One message on slot 0 with the OSQM registers of slot 0 set to (queue, thread).
void send(bench &b, uint32_t queue, uint32_t thread) {
    driver &d = b.d(0);
    d.wr(osqm(OSQM_SLOT_QUEUE(0)), queue);
    d.wr(osqm(OSQM_SLOT_THREAD(0)), thread);
    d.wr(slot(0, NAMP_SLOT_PARAM1), H);
    d.wr(slot(0, NAMP_SLOT_PARAM2), DATA);
    d.wr(slot(0, NAMP_SLOT_PARAM3), 4);
    d.wr(slot(0, NAMP_SLOT_FLAGS), NAMP_FLAG_VALID);
    poll(b, 0, slot(0, NAMP_SLOT_FLAGS), NAMP_FLAG_DONE, NAMP_FLAG_DONE);
    d.wr(slot(0, NAMP_SLOT_FLAGS), 0);
    b.cycles(200);  // the insertion runs after DONE
}

}  // namespace

TEST(Osqm, ConfigurationPage) {
    bench b(on);
    b.run({[&] {
        driver &d = b.d(0);
        EXPECT_TRUE(d.rd(na(NA_FEATURES)) & NA_FEATURE_NAMP_OSQM);
        EXPECT_EQ(d.rd(osqm(OSQM_TYPE)), 1u) << "reset: double linked";
        d.wr(osqm(OSQM_Q_LAYOUT), 0x000C0008u);
        EXPECT_EQ(d.rd(osqm(OSQM_Q_LAYOUT)), 0x000C0008u);
        uint32_t v;
        EXPECT_FALSE(d.write(osqm(OSQM_TYPE), 2));
        EXPECT_FALSE(d.write(osqm(OSQM_DIR), 2));
        EXPECT_FALSE(d.write(osqm(OSQM_E_LAYOUT), 0x00000002u)) << "unaligned offset";
        EXPECT_FALSE(d.write(osqm(OSQM_MODE), 0x80u));
        EXPECT_FALSE(d.write(osqm(OSQM_LOCK_KIND), 2));
        EXPECT_FALSE(d.write(osqm(OSQM_BITMAP_QSTRIDE), 0));
        EXPECT_FALSE(d.write(osqm(OSQM_SLOT_QUEUE(0)), Q + 2));
        EXPECT_FALSE(d.read(osqm(OSQM_SLOT_QUEUE(8)), v)) << "8 slots";
        EXPECT_FALSE(d.read(osqm(0x3C), v));
        EXPECT_FALSE(d.write(osqm(OSQM_INSERTIONS), 0)) << "read-only";
    }});
}

TEST(Osqm, AbsentWithoutTheFeature) {
    bench b({"namp.enabled=true"});
    b.run({[&] {
        uint32_t v;
        EXPECT_FALSE(b.d(0).rd(na(NA_FEATURES)) & NA_FEATURE_NAMP_OSQM);
        EXPECT_FALSE(b.d(0).read(osqm(OSQM_TYPE), v));
        EXPECT_FALSE(b.d(0).write(na(NA_IRQ_BASE + NA_IRQ_MASK), NA_IRQ_SRC_OSQM));
    }});
}

// Every TYPE x DIR on a queue that already holds one element, with the element's links at
// next +0x10, prev +0x14 and the queue's head +0x8, tail +0xC.
TEST(Osqm, InsertOnCompletionEveryTypeAndDirection) {
    bench b(on);
    mem m{b};
    m.setup();
    b.run({[&] {
        driver &d = b.d(0);
        d.wr(osqm(OSQM_Q_LAYOUT), 0x000C0008u);
        d.wr(osqm(OSQM_E_LAYOUT), 0x00140010u);
        struct {
            uint32_t type, dir;
        } cases[] = {{1, 0}, {1, 1}, {0, 0}, {0, 1}};
        for (auto c : cases) {
            SCOPED_TRACE("type " + std::to_string(c.type) + " dir " + std::to_string(c.dir));
            for (unsigned i = 0; i < 2; ++i)
                for (uint32_t o = 0; o < 0x20; o += 4) m.put(0, th(i) + o, 0xEEEEEEEEu);
            // the queue holds th(0)
            m.put(0, Q + 8, th(0));
            m.put(0, Q + 12, th(0));
            m.put(0, th(0) + 0x10, 0);
            m.put(0, th(0) + 0x14, 0);
            d.wr(osqm(OSQM_TYPE), c.type);
            d.wr(osqm(OSQM_DIR), c.dir);
            send(b, Q, th(1));
            EXPECT_EQ(d.rd(osqm(OSQM_SLOT_QUEUE(0))), 0u) << "one-shot";
            if (c.dir == 0) {
                EXPECT_EQ(m.get(0, Q + 8), th(0));
                EXPECT_EQ(m.get(0, Q + 12), th(1));
                EXPECT_EQ(m.get(0, th(0) + 0x10), th(1));
                EXPECT_EQ(m.get(0, th(1) + 0x10), 0u);
                if (c.type) EXPECT_EQ(m.get(0, th(1) + 0x14), th(0));
            } else {
                EXPECT_EQ(m.get(0, Q + 8), th(1));
                EXPECT_EQ(m.get(0, Q + 12), th(0));
                EXPECT_EQ(m.get(0, th(1) + 0x10), th(0));
                if (c.type) {
                    EXPECT_EQ(m.get(0, th(0) + 0x14), th(1));
                    EXPECT_EQ(m.get(0, th(1) + 0x14), 0u);
                }
            }
            if (!c.type)
                EXPECT_EQ(m.get(0, th(1) + 0x14), 0xEEEEEEEEu) << "single: no prev written";
        }
        // into an empty queue
        m.put(0, Q + 8, 0);
        m.put(0, Q + 12, 0);
        d.wr(osqm(OSQM_TYPE), 1);
        d.wr(osqm(OSQM_DIR), 0);
        send(b, Q, th(2));
        EXPECT_EQ(m.get(0, Q + 8), th(2));
        EXPECT_EQ(m.get(0, Q + 12), th(2));
        EXPECT_EQ(m.get(0, th(2) + 0x14), 0u);
        // no thread configured: nothing is touched
        send(b, 0, 0);
        EXPECT_EQ(d.rd(osqm(OSQM_INSERTIONS)), 5u);
    }});
}

// The OS lock: while the kernel holds it the insertion waits (retrying), afterwards it runs and
// releases the lock again. Both lock kinds.
TEST(Osqm, InsertionWaitsForTheOsLock) {
    bench b(on);
    mem m{b};
    m.setup();
    b.run({[&] {
        driver &d = b.d(0);
        d.wr(osqm(OSQM_LOCK_ADDR), LOCK);
        m.put(0, LOCK, 1);  // held by "the kernel"
        d.wr(osqm(OSQM_SLOT_QUEUE(0)), Q);
        d.wr(osqm(OSQM_SLOT_THREAD(0)), th(0));
        d.wr(slot(0, NAMP_SLOT_PARAM1), H);
        d.wr(slot(0, NAMP_SLOT_PARAM2), DATA);
        d.wr(slot(0, NAMP_SLOT_PARAM3), 4);
        d.wr(slot(0, NAMP_SLOT_FLAGS), NAMP_FLAG_VALID);
        poll(b, 0, slot(0, NAMP_SLOT_FLAGS), NAMP_FLAG_DONE, NAMP_FLAG_DONE);
        b.cycles(2000);
        EXPECT_EQ(m.get(0, Q), 0u) << "not inserted while the lock is held";
        m.put(0, LOCK, 0);
        b.cycles(200);
        EXPECT_EQ(m.get(0, Q), th(0));
        EXPECT_EQ(m.get(0, LOCK), 0u) << "released";
        // ticket lock {next, serving}: held while next != serving
        d.wr(slot(0, NAMP_SLOT_FLAGS), 0);
        d.wr(osqm(OSQM_LOCK_KIND), OSQM_LOCK_TICKET);
        m.put(0, LOCK, 6);
        m.put(0, LOCK + 4, 5);
        send(b, Q, th(1));
        b.cycles(1000);
        EXPECT_EQ(m.get(0, Q + 4), th(0)) << "waits for the ticket holder";
        m.put(0, LOCK + 4, 6);  // the holder leaves
        b.cycles(200);
        EXPECT_EQ(m.get(0, Q + 4), th(1));
        EXPECT_EQ(m.get(0, LOCK), 7u);
        EXPECT_EQ(m.get(0, LOCK + 4), 7u) << "its own ticket served and released";
    }});
    EXPECT_GT(b.plat->adapter(0)->osqm()->lock_retries(), 10u);
}

TEST(Osqm, BitmapWakeupQueueAndDemandInterrupt) {
    bench b(on);
    mem m{b};
    m.setup();
    b.run({[&] {
        driver &d = b.d(0);
        // queues of 8 bytes from Q; the queue of "priority 3" is Q + 24
        d.wr(osqm(OSQM_MODE), OSQM_MODE_BITMAP | OSQM_MODE_DEMAND_IRQ);
        d.wr(osqm(OSQM_BITMAP_ADDR), BITMAP);
        d.wr(osqm(OSQM_BITMAP_QBASE), Q);
        d.wr(osqm(OSQM_BITMAP_QSTRIDE), 8);
        d.wr(na(NA_IRQ_BASE + NA_IRQ_MASK), NA_IRQ_SRC_OSQM);
        m.put(0, BITMAP, 0x1);
        send(b, Q + 24, th(0));
        EXPECT_EQ(m.get(0, Q + 24), th(0));
        EXPECT_EQ(m.get(0, BITMAP), 0x9u);
        EXPECT_TRUE(b.meip(0)) << "demand interrupt";
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ)), 1u);
        d.wr(osqm(OSQM_IRQ), 1);
        EXPECT_FALSE(b.meip(0));
        // wake-up queue: the thread goes there, not into QUEUE
        d.wr(osqm(OSQM_MODE), OSQM_MODE_WAKEUP);
        d.wr(osqm(OSQM_WAKEUP_QUEUE), WQ);
        send(b, Q + 32, th(1));
        EXPECT_EQ(m.get(0, WQ), th(1));
        EXPECT_EQ(m.get(0, Q + 32), 0u);
    }});
}

// Target side: a thread waiting on the endpoint is inserted when a message is delivered, once.
TEST(Osqm, InsertOnDelivery) {
    bench b(on);
    mem m{b};
    m.setup();
    m.put(1, EP + NAMP_EP_OSQM_QUEUE, Q);
    m.put(1, EP + NAMP_EP_OSQM_THREAD, th(0));
    b.run({[&] {
        send(b, 0, 0);  // a message to EP (tile 1)
        EXPECT_EQ(m.get(1, Q), th(0));
        EXPECT_EQ(m.get(1, Q + 4), th(0));
        EXPECT_EQ(m.get(1, EP + NAMP_EP_OSQM_QUEUE), 0u) << "claimed";
        send(b, 0, 0);
        EXPECT_EQ(b.d(1).rd(osqm(OSQM_INSERTIONS)), 1u) << "no second insertion";
    }});
}

// Signaling with ready flag (thesis 3.5.2.2): a bitmap scheduler's field, QUEUE = its address,
// THREAD = the bit offset; no list is touched. From a slot, from an endpoint, into the wake-up
// field, and the register checks of the mode.
TEST(Osqm, ReadyFlagSetsOnlyTheThreadsBit) {
    bench b(on);
    mem m{b};
    m.setup();
    constexpr uint32_t FIELD = BITMAP;  // two words: bits 0..63
    b.run({[&] {
        driver &d = b.d(0);
        EXPECT_FALSE(d.write(osqm(OSQM_MODE), OSQM_MODE_READY_FLAG | OSQM_MODE_BITMAP))
            << "a list with a bit, or only a bit";
        d.wr(osqm(OSQM_MODE), OSQM_MODE_READY_FLAG);
        EXPECT_TRUE(d.write(osqm(OSQM_SLOT_THREAD(0)), 3)) << "a bit offset, not an element";
        EXPECT_FALSE(d.write(osqm(OSQM_SLOT_THREAD(0)), OSQM_READY_FLAG_BITS));
        for (uint32_t o = 0; o < 16; o += 4) m.put(0, Q + o, 0xA5A5A5A5u);
        m.put(0, FIELD, 0x80000000u);
        m.put(0, FIELD + 4, 0);
        send(b, FIELD, 0);  // bit 0: THREAD 0 is a thread here
        EXPECT_EQ(m.get(0, FIELD), 0x80000001u);
        send(b, FIELD, 37);
        EXPECT_EQ(m.get(0, FIELD + 4), 1u << 5);
        EXPECT_EQ(m.get(0, FIELD), 0x80000001u) << "the other word unchanged";
        send(b, FIELD, 37);  // already set: stays set, counts as an insertion
        EXPECT_EQ(m.get(0, FIELD + 4), 1u << 5);
        for (uint32_t o = 0; o < 16; o += 4) EXPECT_EQ(m.get(0, Q + o), 0xA5A5A5A5u) << "no list";
        EXPECT_EQ(d.rd(osqm(OSQM_INSERTIONS)), 3u);
        // wake-up field: the bit goes to WAKEUP_QUEUE, QUEUE's field is untouched
        d.wr(osqm(OSQM_MODE), OSQM_MODE_READY_FLAG | OSQM_MODE_WAKEUP);
        d.wr(osqm(OSQM_WAKEUP_QUEUE), WQ);
        m.put(0, WQ, 0);
        send(b, FIELD, 2);
        EXPECT_EQ(m.get(0, WQ), 1u << 2);
        EXPECT_EQ(m.get(0, FIELD), 0x80000001u);
        // the receive side: tile 1's endpoint names bit 40 of tile 1's field
        b.d(1).wr(osqm(OSQM_MODE), OSQM_MODE_READY_FLAG);
        m.put(1, FIELD, 0);
        m.put(1, FIELD + 4, 0);
        m.put(1, EP + NAMP_EP_OSQM_QUEUE, FIELD);
        m.put(1, EP + NAMP_EP_OSQM_THREAD, 40);
        send(b, 0, 0);
        EXPECT_EQ(m.get(1, FIELD + 4), 1u << 8);
        EXPECT_EQ(m.get(1, FIELD), 0u);
        EXPECT_EQ(m.get(1, EP + NAMP_EP_OSQM_QUEUE), 0u) << "claimed";
        // an endpoint whose bit offset is out of range is not claimed and sets nothing
        m.put(1, EP + NAMP_EP_OSQM_QUEUE, FIELD);
        m.put(1, EP + NAMP_EP_OSQM_THREAD, OSQM_READY_FLAG_BITS);
        send(b, 0, 0);
        EXPECT_EQ(m.get(1, EP + NAMP_EP_OSQM_QUEUE), FIELD);
        EXPECT_EQ(b.d(1).rd(osqm(OSQM_INSERTIONS)), 1u);
    }});
}

// Critical events (thesis 3.5.2.2): per event, not per OSQM. A plain event inserts silently; one
// whose QUEUE has OSQM_Q_CRITICAL raises the demand interrupt and hands its THREAD to the OS;
// likewise from an endpoint's words. The FIFO holds OSQM_IRQ_FIFO_DEPTH threads, then reports an
// overflow (the count stays exact).
TEST(Osqm, CriticalEventsPerSlotAndEndpoint) {
    bench b(on);
    mem m{b};
    m.setup();
    b.run({[&] {
        driver &d = b.d(0);
        d.wr(na(NA_IRQ_BASE + NA_IRQ_MASK), NA_IRQ_SRC_OSQM);
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ_THREAD)), OSQM_IRQ_NONE);
        send(b, Q, th(0));
        EXPECT_EQ(m.get(0, Q), th(0));
        EXPECT_FALSE(b.meip(0)) << "not critical: no interrupt";
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ)), 0u);
        send(b, Q | OSQM_Q_CRITICAL, th(1));
        EXPECT_EQ(m.get(0, Q + 4), th(1)) << "inserted like any other";
        EXPECT_TRUE(b.meip(0)) << "critical: demand interrupt";
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ)), 1u);
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ_THREAD)), th(1));
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ)), 0u) << "the pop counts it off";
        EXPECT_FALSE(b.meip(0));
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ_THREAD)), OSQM_IRQ_NONE);
        // the receive side: the endpoint's QUEUE word carries the flag
        driver &d1 = b.d(1);
        d1.wr(na(NA_IRQ_BASE + NA_IRQ_MASK), NA_IRQ_SRC_OSQM);
        m.put(1, EP + NAMP_EP_OSQM_QUEUE, Q | OSQM_Q_CRITICAL);
        m.put(1, EP + NAMP_EP_OSQM_THREAD, th(2));
        send(b, 0, 0);
        EXPECT_EQ(m.get(1, Q), th(2)) << "inserted at the address without the flag";
        EXPECT_TRUE(b.meip(1));
        EXPECT_EQ(d1.rd(osqm(OSQM_IRQ_THREAD)), th(2));
        EXPECT_FALSE(b.meip(1));
        // overflow: 17 critical events unread
        for (unsigned i = 0; i <= OSQM_IRQ_FIFO_DEPTH; ++i) {
            m.put(0, Q, 0);
            m.put(0, Q + 4, 0);
            // tile 1's receive buffer emptied (nobody consumes there): the sends never block
            for (uint32_t o = 0; o < (4u << 4) * 4; o += 4)
                m.put(1, RXB + MP_CB_HEADER_SIZE + o, 0);
            m.put(1, RXB + MP_CB_OFF_WR_IDX, 0);
            m.put(1, RXB + MP_CB_OFF_RD_IDX, 0);
            send(b, Q | OSQM_Q_CRITICAL, th(3 + i % 4));
        }
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ)), (OSQM_IRQ_FIFO_DEPTH + 1) | OSQM_IRQ_OVERFLOW);
        for (unsigned i = 0; i < OSQM_IRQ_FIFO_DEPTH; ++i)
            EXPECT_EQ(d.rd(osqm(OSQM_IRQ_THREAD)), th(3 + i % 4));
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ_THREAD)), OSQM_IRQ_NONE);
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ)), 1u | OSQM_IRQ_OVERFLOW) << "the dropped one still counts";
        EXPECT_TRUE(b.meip(0));
        d.wr(osqm(OSQM_IRQ), 1);  // the OS rescanned: acknowledged
        EXPECT_EQ(d.rd(osqm(OSQM_IRQ)), 0u);
        EXPECT_FALSE(b.meip(0));
    }});
    EXPECT_EQ(b.plat->adapter(0)->osqm()->critical_events(), OSQM_IRQ_FIFO_DEPTH + 2);
}
