// One NAMP slot (thesis 3.2.5.4, Fig. 4.5, Table 3.2): the configuration registers software
// writes, the state of the transfer it describes, and its timer. The state has one transition
// function (slot::next) over an explicit event set; what a transfer holds (a credit, a send-buffer
// element, a remote element) follows from its state and mode, not from flags of its own.
// docs/namp.md, "Slot states", has the table.
#pragma once
#include <array>
#include <cstdint>
#include <vector>
#include <systemc>

#include "na_registers.h"
#include "namp/observer.h"
#include "trace/tracer.h"

namespace namp {

enum class slot_state : uint8_t {
    idle = NAMP_STATE_IDLE,
    ready = NAMP_STATE_READY,
    request = NAMP_STATE_REQUEST,
    retry = NAMP_STATE_RETRY,
    credit_wait = NAMP_STATE_CREDIT_WAIT,
    data = NAMP_STATE_DATA,
    finalize = NAMP_STATE_FINALIZE,
    done = NAMP_STATE_DONE,
    error = NAMP_STATE_ERROR,
    send_wait = NAMP_STATE_SEND_WAIT,
    dma = NAMP_STATE_DMA,
    members = NAMP_STATE_MEMBERS,  // CC: the members progress (docs/namp.md, "Collective")
};
constexpr unsigned slot_state_count = NAMP_STATE_COUNT;
const char *slot_state_name(slot_state s);

enum class slot_event : uint8_t {
    start,          // VALID written, configuration valid
    refuse,         // VALID written, configuration refused
    credit_sent,    // CoM: CREDIT message sent
    no_credit,      // CON: credit word 0
    credit_update,  // a CREDIT for the slot's handle arrived
    send_empty,     // CCM: no committed element in the send buffer
    poll,           // CCM: poll timer expired
    request_sent,   // ALLOC_REQ sent
    direct,         // channel fast path: element taken from the handle
    ack,            // ALLOC_RESP ACK
    nack,           // ALLOC_RESP NACK "full": back-off
    dma_started,    // a DMA context took the data
    empty,          // zero-byte transfer: nothing to copy
    dma_done,       // remote DMA completion
    next,           // CCM: FINAL sent, the next element
    finished,       // FINAL sent / CCM left between transfers
    fail,           // any error
    release,        // software cleared VALID, or buffered completion cleared it
    members,        // CC: descriptor read, the members start
    ps_sent,        // PS: the control message (RELOC / MIGRATE) sent
    reloc,          // PS: NAK_RELOC applied to the handle: allocate again at the new location
    shadow,         // PS dualcast: the original is finalized, the copy to the new location next
};

// The part of a transfer that is per destination (a collective has one per member).
struct slot_destination {
    uint32_t tile = 0, endpoint = 0;    // from the handle
    uint32_t ident = 0;                 // namp.identity: the handle's NAMP_H_ID (what endpoint is)
    uint32_t key_tile = 0, key_id = 0;  // CC member handle: the contributor's key
    uint32_t element = 0;               // remote element index (allocation or fast path)
    uint32_t data = 0;                  // its data address in the remote tile
    // CC member progress (the slot's own state is `members`); the member state follows
    // slot::next like a single-destination transfer
    uint32_t handle = 0, code = 0;
    uint32_t base = 0, chunk = 0;  // scatter: source offset and chunk size of this member
    unsigned retries = 0;
    slot_state state = slot_state::idle;
    bool direct = false;
    sc_core::sc_time due;
};

class slot : public sc_core::sc_module {
public:
    static slot_state next(slot_state s, slot_event e);  // the transition function

    slot(sc_core::sc_module_name name, unsigned index, sc_core::sc_time clock_period)
        : sc_module(name), index_(index), period_(clock_period), dst_(1) {}

    unsigned index() const { return index_; }
    slot_state state() const { return state_; }
    // Applies an event: the state changes, its time is counted (statistics), the timer is set
    // for states that wait for it (delay from now; SC_ZERO_TIME = due at once).
    void transition(slot_event e, sc_core::sc_time delay = sc_core::SC_ZERO_TIME);

    // registers
    uint32_t flags = 0, p1 = 0, p2 = 0, p3 = 0, priority = 0;
    // SV guard window of the send buffer (NAMP_SLOT_WIN_*; 0 bytes = unguarded): every address
    // the set-up derives from the buffer's header must lie in [win_base, win_base + win_size)
    uint32_t win_base = 0, win_size = 0;
    bool guarded() const { return win_size != 0; }
    // a guarded collective's member table (NAMP_SLOT_ET_*, written by the vif): its members'
    // HANDLE words are vIDs translated through this endpoint table at the set-up
    uint32_t et_base = 0, et_bound = 0;
    bool in_window(uint32_t addr, uint32_t len) const {
        return addr >= win_base && uint64_t(addr) + len <= uint64_t(win_base) + win_size;
    }
    // NAMP_SLOT_CTRL_ABORT written while active: the transfer ends ABORTED at its next safe point
    bool abort_requested = false;
    bool abort_keep = false;        // NAMP_SLOT_CTRL_KEEP: the send-buffer element is not dropped
    uint32_t code = NAMP_ERR_NONE;  // error code of STATUS
    unsigned retries = 0;           // NACKs of the current transfer
    unsigned cc_failed = 0;         // CC: members failed (STATUS[29:24])
    unsigned cc_ended = 0;          // CC: members whose end (status word) is written
    uint32_t cc_kind = 0, cc_optype = 0, cc_id = 0;  // CC: descriptor kind, reduction op/type, id
    uint32_t cc_count = 0, cc_stride = 0;            // CC scatter/gather: chunks, their stride
    uint32_t cc_part = 0;                            // CC gather: this sender's part
    uint32_t status() const;

    // mode latched when the slot started
    uint32_t mode = 0;
    bool has(uint32_t flag) const { return mode & flag; }
    bool active() const {
        return state_ != slot_state::idle && state_ != slot_state::done &&
               state_ != slot_state::error;
    }
    bool finished() const { return state_ == slot_state::done || state_ == slot_state::error; }
    // CCM was left by software (FLAGS.CCM written 0 while running)
    bool leaving() const { return has(NAMP_FLAG_CCM) && !(flags & NAMP_FLAG_CCM); }

    // Holdings, from the state (docs/namp.md): a credit and a send-buffer element from the set-up
    // step until the transfer finishes; a remote element once allocated or taken.
    bool holds_credit() const { return has(NAMP_FLAG_CON) && in_transfer(); }
    bool holds_element() const { return has(NAMP_FLAG_BUF) && in_transfer(); }
    bool holds_remote() const {
        return state_ == slot_state::data || state_ == slot_state::dma ||
               state_ == slot_state::finalize;
    }

    // Egress step due now (states the egress FSM serves, timer expired).
    bool step_due(sc_core::sc_time now) const;
    sc_core::sc_time due() const { return due_; }
    void set_due(sc_core::sc_time t) { due_ = t; }  // CC: the earliest member step
    bool waits_for_timer() const;

    // the transfer
    std::vector<slot_destination> &destinations() { return dst_; }
    // NAMP_SLOT_MEMBER(i): member i's handle while it can still write to its receiver
    uint32_t member_handle(unsigned i) const;
    // from the allocation request to the finalization (a slot's or a collective member's state)
    static bool transfer_state(slot_state st) {
        return st == slot_state::request || st == slot_state::retry || st == slot_state::data ||
               st == slot_state::dma || st == slot_state::finalize;
    }
    slot_destination &dst() { return dst_[0]; }
    uint32_t src = 0, size = 0;                   // data source and bytes
    uint32_t elem_index = 0, elem_size_addr = 0;  // send-buffer element (BUF)
    bool direct = false;                          // this transfer took its element on the fast path
    // PS dualcast: the copy of the element at the new location (same index), written after the
    // original is finalized; a failed copy leaves the original alone
    slot_destination shadow;
    bool shadow_pending = false, shadow_phase = false, shadow_failed = false;
    uint64_t order = 0;   // start order (per-destination ordering)
    uint64_t served = 0;  // serial of the last egress step (LRS)

    // statistics
    struct counters {
        uint64_t transfers = 0, bytes = 0, retries = 0, nacks = 0, credit_waits = 0, errors = 0;
        std::array<uint64_t, slot_state_count> state_cycles{};
    };
    // the slot's states as slices on track `t` of `tr` (docs/tracing.md)
    void attach_observer(namp_observer *o, unsigned tile) {
        obs_ = o;
        tile_ = tile;
    }
    void attach_trace(trace::tracer &tr, trace::track_id t) {
        tr_ = &tr;
        track_ = t;
    }
    const counters &stats() const { return stats_; }
    counters &stats() { return stats_; }

private:
    bool in_transfer() const { return transfer_state(state_); }

    unsigned index_;
    sc_core::sc_time period_;
    slot_state state_ = slot_state::idle;
    sc_core::sc_time since_, due_;
    std::vector<slot_destination> dst_;
    counters stats_;
    trace::tracer *tr_ = nullptr;
    namp_observer *obs_ = nullptr;  // the event log's view (null: none)
    unsigned tile_ = 0;
    trace::track_id track_ = 0;
};

}  // namespace namp
