// NAMP slot: the transition table and the state bookkeeping.
#include "namp/slot.h"

#include <algorithm>

#include "namp_cc.h"

namespace namp {

const char *slot_state_name(slot_state s) {
    static const char *const names[slot_state_count] = {
        "idle",     "ready", "request", "retry",     "credit_wait", "data",
        "finalize", "done",  "error",   "send_wait", "dma",         "members"};
    const unsigned i = unsigned(s);
    return i < slot_state_count ? names[i] : "?";
}

// Fig. 3.16 / 3.19 as a table: (state, event) -> state. Anything else is a model error.
slot_state slot::next(slot_state s, slot_event e) {
    using S = slot_state;
    using E = slot_event;
    if (e == E::fail && s != S::idle && s != S::done && s != S::error) return S::error;
    switch (s) {
    case S::idle:
        if (e == E::start) return S::ready;
        if (e == E::refuse) return S::error;
        if (e == E::release) return S::idle;
        break;
    case S::ready:
        switch (e) {
        case E::credit_sent: return S::done;
        case E::no_credit: return S::credit_wait;
        case E::send_empty: return S::send_wait;
        case E::request_sent: return S::request;
        case E::direct: return S::data;
        case E::finished: return S::done;    // CCM left between transfers
        case E::members: return S::members;  // CC: descriptor read
        case E::ps_sent: return S::done;     // PS control message (posted)
        default: break;
        }
        break;
    case S::credit_wait:
        if (e == E::credit_update) return S::ready;
        if (e == E::finished) return S::done;
        break;
    case S::send_wait:
        if (e == E::poll) return S::ready;
        if (e == E::finished) return S::done;
        break;
    case S::request:
        if (e == E::ack) return S::data;
        if (e == E::nack) return S::retry;
        if (e == E::reloc) return S::retry;  // PS: the same transfer, at the new location
        break;
    case S::retry:
        if (e == E::request_sent) return S::request;
        break;
    case S::data:
        if (e == E::dma_started) return S::dma;
        if (e == E::empty) return S::finalize;
        break;
    case S::dma:
        if (e == E::dma_done) return S::finalize;
        break;
    case S::finalize:
        if (e == E::next) return S::ready;
        if (e == E::finished) return S::done;
        if (e == E::shadow) return S::data;  // PS dualcast: the copy
        break;
    case S::members:
        if (e == E::finished) return S::done;  // all members done (any failed: fail)
        break;
    case S::done:
    case S::error:
        if (e == E::release) return S::idle;
        break;
    }
    SC_REPORT_ERROR("namp/slot",
                    (std::string("invalid transition from ") + slot_state_name(s)).c_str());
    return s;
}

void slot::transition(slot_event e, sc_core::sc_time delay) {
    const slot_state to = next(state_, e);
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (state_ != slot_state::idle)
        stats_.state_cycles[unsigned(state_)] += uint64_t((now - since_) / period_ + 0.5);
    if (to == slot_state::credit_wait) ++stats_.credit_waits;
    if (to == slot_state::error) ++stats_.errors;
    if (tr_ && track_) {
        // a slice per state the slot holds (IDLE is none), instants for the events that matter
        if (state_ != slot_state::idle) tr_->end(track_, now);
        if (to != slot_state::idle) tr_->begin(track_, slot_state_name(to), now);
        if (e == slot_event::nack)
            tr_->instant(track_, "nack", now);
        else if (e == slot_event::credit_update)
            tr_->instant(track_, "credit", now);
        else if (to == slot_state::done)
            tr_->instant(track_, "done", now);
    }
    if (obs_) obs_->slot_changed(tile_, index_, slot_state_name(state_), slot_state_name(to));
    state_ = to;
    since_ = now;
    due_ = now + delay;
}

bool slot::waits_for_timer() const {
    switch (state_) {
    case slot_state::ready:
    case slot_state::retry:
    case slot_state::send_wait:
    case slot_state::data:
    case slot_state::finalize:
    case slot_state::members: return true;
    default: return false;
    }
}

static_assert(NAMP_SLOT_MEMBERS == NAMP_CC_MAX_MEMBERS, "a member register per collective member");

// A member holds its receiver from its set-up (READY) to its finalization; waiting for a credit it
// holds nothing (a revoke wakes it to fail CLOSED), done or failed neither.
uint32_t slot::member_handle(unsigned i) const {
    if (state_ != slot_state::members || i >= dst_.size()) return 0;
    const slot_state st = dst_[i].state;
    return st == slot_state::ready || transfer_state(st) ? dst_[i].handle : 0;
}

// An aborted persistent credit wait is served at once (it has no timer of its own).
bool slot::step_due(sc_core::sc_time now) const {
    return (waits_for_timer() || (abort_requested && state_ == slot_state::credit_wait)) &&
           due_ <= now;
}

uint32_t slot::status() const {
    uint32_t v = (code & 0xFFu) | (uint32_t(state_) << 8) | (std::min(retries, 255u) << 16);
    v |= std::min(cc_failed, 63u) << 24;
    if (state_ == slot_state::error) v |= NAMP_STATUS_ERROR;
    if (state_ == slot_state::credit_wait || state_ == slot_state::send_wait)
        v |= NAMP_STATUS_PERSISTENT;
    return v;
}

}  // namespace namp
