// NAMP progress engine (thesis 3.2.5, 4.2.3; docs/namp.md): the slot interface, the egress FSM
// that serves one ready slot at a time (chosen by the arbitration policy) and the ingress FSM that
// applies allocation responses and internal DMA completions.
//
// Extension points: a new mode (collective communication, virtual interface, OSQM, protection
// switching) adds NAMP_STATE_* values with an entry in `steps` below (egress) and a case in
// namp_ingress_thread / namp_target_thread for its protocol messages; namp_validate decides which
// flag combinations start it.
#include <algorithm>
#include <cstring>

#include "na_registers.h"
#include "namp/data_packet.h"
#include "namp/network_adapter.h"
#include "namp_structs.h"
#include "tiles/atomic_ext.h"
#include "mp/cbuffer.h"

namespace namp {

namespace {
constexpr unsigned namp_dma_tag_base = 128;  // internal DMA contexts: tag 128 + slot
constexpr uint32_t mode_flags = NAMP_FLAG_COM | NAMP_FLAG_CON | NAMP_FLAG_BUF | NAMP_FLAG_CCM;
}  // namespace

uint32_t network_adapter::namp_features() const {
    if (!namp_on()) return 0;
    uint32_t f = 0;
    if (cfg_.namp.messages) f |= NA_FEATURE_NAMP_MSG;
    if (cfg_.namp.channels) f |= NA_FEATURE_NAMP_CHAN;
    if (cfg_.namp.buffered) f |= NA_FEATURE_NAMP_BUF;
    if (cfg_.namp.ccm) f |= NA_FEATURE_NAMP_CCM;
    return f;
}

// ---- slot registers ----

uint32_t network_adapter::namp_status(const namp_slot &s) const {
    uint32_t v = (s.code & 0xFFu) | ((s.state & 0xFu) << 8) | (std::min(s.retries, 255u) << 16);
    if (s.state == NAMP_STATE_ERROR) v |= NAMP_STATUS_ERROR;
    if (s.state == NAMP_STATE_CREDIT_WAIT) v |= NAMP_STATUS_PERSISTENT;
    return v;
}

bool network_adapter::read_namp_slot(uint32_t off, uint32_t &v) const {
    if (!namp_on() || off < NA_NAMP_SLOT_BASE(0)) return false;
    const unsigned i = (off - NA_NAMP_SLOT_BASE(0)) / 0x4000;
    if (i >= nslots_.size()) return false;
    const uint32_t r = off - NA_NAMP_SLOT_BASE(i);
    const namp_slot &s = nslots_[i];
    switch (r) {
    case NAMP_SLOT_FLAGS: v = s.flags; return true;
    case NAMP_SLOT_PARAM1: v = s.p1; return true;
    case NAMP_SLOT_PARAM2: v = s.p2; return true;
    case NAMP_SLOT_PARAM3: v = s.p3; return true;
    case NAMP_SLOT_STATUS: v = namp_status(s); return true;
    case NAMP_SLOT_PRIORITY: v = s.priority; return true;
    default: return false;  // rest of the base page, vif-config and virtual-interface pages
    }
}

bool network_adapter::write_namp_slot(uint32_t off, uint32_t v) {
    if (!namp_on() || off < NA_NAMP_SLOT_BASE(0)) return false;
    const unsigned i = (off - NA_NAMP_SLOT_BASE(0)) / 0x4000;
    if (i >= nslots_.size()) return false;
    const uint32_t r = off - NA_NAMP_SLOT_BASE(i);
    namp_slot &s = nslots_[i];
    const bool active = (s.flags & NAMP_FLAG_VALID) && s.state != NAMP_STATE_DONE &&
                        s.state != NAMP_STATE_ERROR;
    switch (r) {
    case NAMP_SLOT_FLAGS: namp_write_flags(i, v); return true;
    case NAMP_SLOT_PARAM1: if (active) return false; s.p1 = v; return true;
    case NAMP_SLOT_PARAM2: if (active) return false; s.p2 = v; return true;
    case NAMP_SLOT_PARAM3: if (active) return false; s.p3 = v; return true;
    case NAMP_SLOT_PRIORITY: if (v > 255) return false; s.priority = v; return true;
    default: return false;  // STATUS is read-only
    }
}

// Refused configurations: a disabled feature first (absent hardware), then invalid combinations,
// then parameters that cannot be right whatever the memory holds.
uint32_t network_adapter::namp_validate(const namp_slot &s) const {
    const uint32_t f = s.flags;
    if (f & NAMP_FLAG_RESERVED) return NAMP_ERR_MODE_UNSUPPORTED;
    const bool com = f & NAMP_FLAG_COM, con = f & NAMP_FLAG_CON, buf = f & NAMP_FLAG_BUF,
               ccm = f & NAMP_FLAG_CCM;
    if ((com || con) && !cfg_.namp.channels) return NAMP_ERR_MODE_UNSUPPORTED;
    if (!com && !con && !cfg_.namp.messages) return NAMP_ERR_MODE_UNSUPPORTED;
    if (buf && !cfg_.namp.buffered) return NAMP_ERR_MODE_UNSUPPORTED;
    if (ccm && !cfg_.namp.ccm) return NAMP_ERR_MODE_UNSUPPORTED;
    if (com && (con || buf || ccm)) return NAMP_ERR_INVALID_FLAGS;
    if (ccm && !buf) return NAMP_ERR_INVALID_FLAGS;  // CCM: channels and connection-less
    if ((s.p1 & 3) || !in_local_sram(s.p1, NAMP_H_SIZE)) return NAMP_ERR_BAD_PARAM;
    if (com) return s.p2 == 0 ? NAMP_ERR_BAD_PARAM : NAMP_ERR_NONE;
    if (buf) {
        if ((s.p2 & 3) || !in_local_sram(s.p2, MP_CB_HEADER_SIZE)) return NAMP_ERR_BAD_PARAM;
    } else if (s.p3 != 0 && !in_local_sram(s.p2, s.p3)) {
        return NAMP_ERR_BAD_PARAM;
    }
    return NAMP_ERR_NONE;
}

void network_adapter::namp_write_flags(unsigned i, uint32_t v) {
    namp_slot &s = nslots_[i];
    const bool was_valid = s.flags & NAMP_FLAG_VALID;
    const bool finished = s.state == NAMP_STATE_DONE || s.state == NAMP_STATE_ERROR;
    v &= ~NAMP_FLAG_DONE;  // read-only
    if (was_valid && !finished) {
        // In flight: only IEN changes, and CCM 1 -> 0 (leave after the current transfer). A
        // cleared VALID cannot abort a transfer and is ignored.
        s.flags = (s.flags & ~NAMP_FLAG_IEN) | (v & NAMP_FLAG_IEN);
        if ((s.flags & NAMP_FLAG_CCM) && !(v & NAMP_FLAG_CCM)) {
            s.flags &= ~NAMP_FLAG_CCM;
            s.leave_ccm = true;
            namp_kick();  // an idle CCM slot (empty send buffer) finishes at once
            s.not_before = sc_core::sc_time_stamp();
            if (s.state == NAMP_STATE_CREDIT_WAIT && !s.have_elem) namp_complete(i);
        }
        update_irq();
        return;
    }
    if (was_valid && finished && (v & NAMP_FLAG_VALID)) {
        // Still DONE / ERROR and VALID kept: only IEN changes (acknowledging an interrupt).
        s.flags = (s.flags & ~NAMP_FLAG_IEN) | (v & NAMP_FLAG_IEN);
        update_irq();
        return;
    }
    // Idle, or freeing a finished slot (VALID 1 -> 0), or starting (VALID 0 -> 1).
    s.flags = v;
    if (s.state != NAMP_STATE_IDLE) namp_set_state(i, NAMP_STATE_IDLE);
    s.code = NAMP_ERR_NONE;
    if (!(v & NAMP_FLAG_VALID)) {
        update_irq();
        return;
    }
    s.retries = 0;
    s.leave_ccm = false;
    s.have_credit = s.have_elem = false;
    const uint32_t code = namp_validate(s);
    if (code != NAMP_ERR_NONE) {
        namp_fail(i, code);
        return;
    }
    namp_set_state(i, NAMP_STATE_READY);
    s.armed = true;
    s.not_before = sc_core::sc_time_stamp() + cycles(cfg_.namp.start_cycles);
    namp_kick();
    update_irq();
}

// ---- state bookkeeping ----

void network_adapter::namp_set_state(unsigned i, unsigned state) {
    namp_slot &s = nslots_[i];
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (s.state != NAMP_STATE_IDLE && s.state < stats_.namp_slots[i].state_cycles.size())
        stats_.namp_slots[i].state_cycles[s.state] += uint64_t((now - s.since) / period_ + 0.5);
    if (state == NAMP_STATE_CREDIT_WAIT) ++stats_.namp_slots[i].credit_waits;
    s.state = state;
    s.since = now;
}

// Returns what the failed transfer holds (credit, send-buffer element: the message is dropped),
// then ERROR + DONE.
void network_adapter::namp_fail(unsigned i, uint32_t code) {
    namp_slot &s = nslots_[i];
    s.code = code;
    s.armed = false;
    ++stats_.namp_slots[i].errors;
    namp_set_state(i, NAMP_STATE_ERROR);
    s.flags |= NAMP_FLAG_DONE;
    update_irq();
}

// Gives back the credit and the send-buffer element of a transfer that failed after taking them.
// SC_THREAD only (bus accesses).
void network_adapter::namp_release(unsigned i) {
    namp_slot &s = nslots_[i];
    uint32_t old = 0;
    bool ok = false;
    if (s.have_credit) namp_atomic(s.p1 + NAMP_H_CREDITS, false, 1, 0, old, ok);
    if (s.have_elem) write_word(s.elem_size_addr, 0);
    // fast path: give the remote element back (single sender per channel, so it is the last one)
    if (s.direct) write_word(s.p1 + NAMP_H_WR_IDX, s.elem);
    s.have_credit = s.have_elem = s.direct = false;
}

void network_adapter::namp_complete(unsigned i) {
    namp_slot &s = nslots_[i];
    s.armed = false;
    namp_set_state(i, NAMP_STATE_DONE);
    s.flags |= NAMP_FLAG_DONE;
    if (s.flags & NAMP_FLAG_BUF) {
        // Buffered modes complete implicitly: the hardware frees the slot (VALID = 0), DONE stays
        // visible until software writes FLAGS again.
        s.flags &= ~NAMP_FLAG_VALID;
        namp_set_state(i, NAMP_STATE_IDLE);
    }
    update_irq();
}

// ---- egress FSM ----

// Arbitration among the slots with a step due now. LRS: least recently served first; QoS: higher
// PRIORITY first; MAP: most advanced state first (FINALIZE > DATA > READY/RETRY). Ties: LRS, then
// the lower slot number.
int network_adapter::namp_arbitrate() const {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    int best = -1;
    auto rank = [](unsigned st) {
        return st == NAMP_STATE_FINALIZE ? 3u : st == NAMP_STATE_DATA ? 2u : 1u;
    };
    for (unsigned i = 0; i < nslots_.size(); ++i) {
        const namp_slot &s = nslots_[i];
        if (!s.armed || s.not_before > now) continue;
        if (best < 0) {
            best = int(i);
            continue;
        }
        const namp_slot &b = nslots_[best];
        bool better = false;
        if (namp_arbitration_ == NAMP_ARB_QOS && s.priority != b.priority)
            better = s.priority > b.priority;
        else if (namp_arbitration_ == NAMP_ARB_MAP && rank(s.state) != rank(b.state))
            better = rank(s.state) > rank(b.state);
        else
            better = s.served < b.served;
        if (better) best = int(i);
    }
    return best;
}

void network_adapter::namp_egress_thread() {
    // Per-state egress step: new modes add their states here.
    static const std::array<namp_step, 16> steps = [] {
        std::array<namp_step, 16> t{};
        t[NAMP_STATE_READY] = &network_adapter::namp_step_setup;
        t[NAMP_STATE_RETRY] = &network_adapter::namp_step_setup;
        t[NAMP_STATE_DATA] = &network_adapter::namp_step_data;
        t[NAMP_STATE_FINALIZE] = &network_adapter::namp_step_finalize;
        return t;
    }();
    for (;;) {
        const int pick = namp_arbitrate();
        if (pick < 0) {
            // Sleep until kicked or until the earliest timer.
            sc_core::sc_time next = sc_core::SC_ZERO_TIME;
            bool timed = false;
            for (const namp_slot &s : nslots_)
                if (s.armed && (!timed || s.not_before < next)) {
                    next = s.not_before;
                    timed = true;
                }
            if (timed)
                sc_core::wait(next - sc_core::sc_time_stamp(), namp_kick_);
            else
                sc_core::wait(namp_kick_);
            continue;
        }
        namp_slot &s = nslots_[pick];
        s.served = ++namp_serial_;
        s.armed = false;
        ++stats_.namp_egress_steps;
        const namp_step step = steps[s.state & 15u];
        if (step) (this->*step)(unsigned(pick));
    }
}

// READY / RETRY: read the handle; CoM: send the credit; otherwise take a credit (CON) and the
// send-buffer element (BUF), then send the allocation request — or, for CON with a DIRECT handle
// (channel fast path), take the element from the handle's wr_idx and go straight to DATA.
void network_adapter::namp_step_setup(unsigned i) {
    namp_slot &s = nslots_[i];
    s.direct = false;
    sc_core::wait(cycles(cfg_.namp.setup_cycles));
    uint32_t h[NAMP_H_SIZE / 4];
    if (!read_words(s.p1, h, NAMP_H_SIZE / 4)) return namp_fail(i, NAMP_ERR_LOCAL_BUS);
    s.tile = h[NAMP_H_TILE / 4];
    s.ep = h[NAMP_H_ENDPOINT / 4];
    if (!tile_exists(s.tile) || (s.ep & 3)) return namp_fail(i, NAMP_ERR_BAD_PARAM);
    if (s.flags & NAMP_FLAG_COM) {
        sc_core::wait(cycles(cfg_.namp.message_cycles));
        namp_send(s.tile, NAMP_MSG_CREDIT, {s.ep, s.p2, i});
        ++stats_.namp_slots[i].transfers;
        return namp_complete(i);
    }
    const bool ccm = (s.flags & NAMP_FLAG_CCM) || s.leave_ccm;  // leaving CCM is still CCM
    if ((s.flags & NAMP_FLAG_BUF) && ccm && s.leave_ccm && !s.have_elem)
        return namp_complete(i);  // left CCM between two transfers
    if ((s.flags & NAMP_FLAG_CON) && !s.have_credit) {
        // Credit check and atomic decrement; no credit: persistent wait for a CREDIT update.
        for (;;) {
            // A CREDIT served while this step reads the word must not be lost: re-read if any
            // arrived meanwhile.
            const uint64_t updates = namp_credit_updates_;
            uint32_t c = 0;
            if (!read_words(s.p1 + NAMP_H_CREDITS, &c, 1)) return namp_fail(i, NAMP_ERR_LOCAL_BUS);
            if (c == 0) {
                if (updates != namp_credit_updates_) continue;
                if (ccm && s.leave_ccm) return namp_complete(i);
                namp_set_state(i, NAMP_STATE_CREDIT_WAIT);
                return;
            }
            uint32_t old = 0;
            bool ok = false;
            if (!namp_atomic(s.p1 + NAMP_H_CREDITS, true, c - 1, c, old, ok))
                return namp_fail(i, NAMP_ERR_LOCAL_BUS);
            if (ok) break;
        }
        s.have_credit = true;
    }
    if ((s.flags & NAMP_FLAG_BUF) && !s.have_elem) {
        uint32_t d[MP_CB_HEADER_SIZE / 4];
        if (!read_words(s.p2, d, MP_CB_HEADER_SIZE / 4)) {
            namp_release(i);
            return namp_fail(i, NAMP_ERR_LOCAL_BUS);
        }
        const uint32_t n = d[MP_CB_OFF_CAPACITY / 4], m = d[MP_CB_OFF_MAXMSG / 4];
        if (n > MP_CB_MAX_CAP_LOG2 || m < MP_CB_MIN_MSG_LOG2 || m > MP_CB_MAX_MSG_LOG2) {
            namp_release(i);
            return namp_fail(i, NAMP_ERR_BAD_PARAM);
        }
        const uint32_t wr = d[MP_CB_OFF_WR_IDX / 4], rd = d[MP_CB_OFF_RD_IDX / 4];
        const uint32_t idx = ccm ? rd : s.p3;
        const uint32_t slot = idx & ((1u << n) - 1u);
        const uint32_t size_addr = s.p2 + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * slot;
        uint32_t sw = 0;
        bool taken = rd == idx && wr != rd && read_words(size_addr, &sw, 1) && (sw & MP_CB_COMMITTED);
        if (taken) {
            uint32_t old = 0;
            bool ok = false;
            taken = namp_atomic(s.p2 + MP_CB_OFF_RD_IDX, true, idx + 1, idx, old, ok) && ok;
        }
        if (!taken) {
            if (!ccm) {
                namp_release(i);
                return namp_fail(i, NAMP_ERR_SEND_EMPTY);
            }
            if (s.leave_ccm) {
                namp_release(i);
                return namp_complete(i);
            }
            // CCM, send buffer empty: poll again after namp.retry_cycles (credit kept).
            s.armed = true;
            s.not_before = sc_core::sc_time_stamp() + cycles(cfg_.namp.retry_cycles);
            return;
        }
        s.have_elem = true;
        s.elem_idx = idx;
        s.elem_size_addr = size_addr;
        s.size = sw & MP_CB_SIZE_MASK;
        s.src = s.p2 + d[MP_CB_OFF_DATA_OFS / 4] + (slot << m);
    } else if (!(s.flags & NAMP_FLAG_BUF)) {
        s.src = s.p2;
        s.size = s.p3;
    }
    const uint32_t hf = h[NAMP_H_FLAGS / 4];
    s.direct = (s.flags & NAMP_FLAG_CON) && (hf & NAMP_H_F_DIRECT);
    if (s.direct) {
        // Channel fast path (thesis Fig. 3.19): the credit guarantees a free element and the
        // channel has one sender, so the element is the handle's wr_idx: no allocation request.
        const uint32_t n = NAMP_H_CAP_LOG2(hf), m = NAMP_H_MSG_LOG2(hf);
        if (n > MP_CB_MAX_CAP_LOG2 || m < MP_CB_MIN_MSG_LOG2 || m > MP_CB_MAX_MSG_LOG2) {
            s.direct = false;
            namp_release(i);
            return namp_fail(i, NAMP_ERR_BAD_PARAM);
        }
        if (s.size > (1u << m)) {
            s.direct = false;
            namp_release(i);
            return namp_fail(i, NAMP_ERR_TOO_LARGE);
        }
        uint32_t wr = 0;
        if (!read_words(s.p1 + NAMP_H_WR_IDX, &wr, 1) || !write_word(s.p1 + NAMP_H_WR_IDX, wr + 1)) {
            s.direct = false;
            namp_release(i);
            return namp_fail(i, NAMP_ERR_LOCAL_BUS);
        }
        s.elem = wr;
        s.rdata = h[NAMP_H_RDATA / 4] + ((wr & ((1u << n) - 1u)) << m);
        s.sent = 0;
        namp_set_state(i, NAMP_STATE_DATA);
        s.armed = true;
        s.not_before = sc_core::sc_time_stamp();
        return;
    }
    if (s.state == NAMP_STATE_RETRY) ++stats_.namp_slots[i].retries;
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    namp_set_state(i, NAMP_STATE_REQUEST);
    namp_send(s.tile, NAMP_MSG_ALLOC_REQ, {s.ep, s.size, i});
}

// DATA: copy the payload with an internal DMA context into the reserved element, one packet per
// egress step (other slots are arbitrated between the packets of a long transfer).
void network_adapter::namp_step_data(unsigned i) {
    namp_slot &s = nslots_[i];
    if (s.sent == 0) sc_core::wait(cycles(cfg_.namp.data_setup_cycles));
    if (s.size == 0) {
        namp_set_state(i, NAMP_STATE_FINALIZE);
        s.armed = true;
        s.not_before = sc_core::sc_time_stamp();
        return;
    }
    const unsigned max_bytes = (geo_.max_packet_flits - dma_overhead_flits) * 4;
    const uint32_t n = std::min<uint32_t>(max_bytes, s.size - s.sent);
    std::vector<uint8_t> buf((n + 3) & ~3u, 0);
    if (!bus_access(tlm::TLM_READ_COMMAND, s.src + s.sent, buf.data(), n)) {
        // Packets already sent are harmless: the element is never committed.
        namp_release(i);
        return namp_fail(i, NAMP_ERR_LOCAL_BUS);
    }
    sc_core::wait(cycles(cfg_.dma_packet_cycles));
    noc::packet p;
    p.header.dst_x = s.tile % geo_.mesh_width;
    p.header.dst_y = s.tile / geo_.mesh_width;
    p.header.type = pkt_dma_data;
    p.payload.push_back(s.rdata + s.sent);
    p.payload.push_back(dma_ctrl(n, namp_dma_tag_base + i, s.sent == 0, s.sent + n == s.size));
    for (size_t w = 0; w < buf.size(); w += 4)
        p.payload.push_back(uint32_t(buf[w]) | uint32_t(buf[w + 1]) << 8 |
                            uint32_t(buf[w + 2]) << 16 | uint32_t(buf[w + 3]) << 24);
    s.sent += n;
    if (s.sent < s.size) {  // more packets: next egress step of this slot
        s.armed = true;
        s.not_before = sc_core::sc_time_stamp();
    }
    send_data_request(std::move(p));
    // after the last packet: stays in DATA until the DMA completion comes back (ingress FSM)
}

// FINALIZE: all data is written (DMA completion seen): commit the element remotely, update the
// handle, free the send-buffer element; CCM goes on with the next element.
void network_adapter::namp_step_finalize(unsigned i) {
    namp_slot &s = nslots_[i];
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    namp_send(s.tile, NAMP_MSG_FINAL, {s.ep, s.elem, s.size, i | (s.direct ? NAMP_FINAL_F_ADVANCE : 0u)});
    sc_core::wait(cycles(cfg_.namp.finalize_cycles));
    uint32_t sent = 0;
    if (read_words(s.p1 + NAMP_H_SENT, &sent, 1)) write_word(s.p1 + NAMP_H_SENT, sent + 1);
    if (s.have_elem) write_word(s.elem_size_addr, 0);  // free the send-buffer element
    s.have_elem = s.have_credit = s.direct = false;
    ++stats_.namp_slots[i].transfers;
    stats_.namp_slots[i].bytes += s.size;
    if ((s.flags & NAMP_FLAG_CCM) && !s.leave_ccm) {
        namp_set_state(i, NAMP_STATE_READY);
        s.armed = true;
        s.not_before = sc_core::sc_time_stamp();
        return;
    }
    namp_complete(i);
}

// ---- ingress FSM: allocation responses and internal DMA completions ----

void network_adapter::namp_ingress_thread() {
    for (;;) {
        while (namp_in_.empty()) sc_core::wait(namp_in_event_);
        noc::packet pkt = std::move(namp_in_.front());
        namp_in_.pop_front();
        sc_core::wait(cycles(cfg_.namp.ingress_cycles));
        ++stats_.namp_ingress_steps;
        const auto &pl = pkt.payload;
        if (pkt.header.type == pkt_dma_done) {
            const unsigned i = resp_ctrl_tag(pl[0]) - namp_dma_tag_base;
            if (i >= nslots_.size() || nslots_[i].state != NAMP_STATE_DATA) continue;
            if (resp_ctrl_error(pl[0])) {
                namp_release(i);
                namp_fail(i, NAMP_ERR_REMOTE);
                continue;
            }
            namp_set_state(i, NAMP_STATE_FINALIZE);
            nslots_[i].armed = true;
            nslots_[i].not_before = sc_core::sc_time_stamp();
            namp_kick();
            continue;
        }
        if (pkt.header.type != NAMP_MSG_ALLOC_RESP || pl.size() < 3) continue;
        const unsigned i = NAMP_RESP_TAG(pl[0]);
        if (i >= nslots_.size() || nslots_[i].state != NAMP_STATE_REQUEST) continue;
        namp_slot &s = nslots_[i];
        if (pl[0] & NAMP_RESP_ACK) {
            s.elem = pl[1];
            s.rdata = pl[2];
            s.sent = 0;
            namp_set_state(i, NAMP_STATE_DATA);
            s.armed = true;
            s.not_before = sc_core::sc_time_stamp();
        } else if (NAMP_RESP_CODE(pl[0]) == 0) {
            ++stats_.namp_slots[i].nacks;
            ++s.retries;
            namp_set_state(i, NAMP_STATE_RETRY);
            s.armed = true;
            s.not_before = sc_core::sc_time_stamp() + cycles(cfg_.namp.retry_cycles);
        } else {
            namp_release(i);
            namp_fail(i, NAMP_RESP_CODE(pl[0]));
        }
        namp_kick();
    }
}

// ---- helpers ----

void network_adapter::namp_receive(noc::packet pkt) {
    const unsigned t = pkt.header.type;
    if (t >= NAMP_MSG_FIRST && t <= NAMP_MSG_RESERVED) ++stats_.namp_msgs_received[t - NAMP_MSG_FIRST];
    if (t == NAMP_MSG_ALLOC_RESP || t == pkt_dma_done) {
        namp_in_.push_back(std::move(pkt));
        namp_in_event_.notify(sc_core::SC_ZERO_TIME);
    } else if (t == NAMP_MSG_ALLOC_REQ || t == NAMP_MSG_CREDIT || t == NAMP_MSG_FINAL) {
        namp_req_.push_back(std::move(pkt));
        namp_req_event_.notify(sc_core::SC_ZERO_TIME);
    }  // type 15: reserved, dropped
}

void network_adapter::namp_send(unsigned tile, unsigned type, std::vector<uint32_t> payload) {
    noc::packet p;
    p.header.dst_x = tile % geo_.mesh_width;
    p.header.dst_y = tile / geo_.mesh_width;
    p.header.type = type;
    p.header.ch = type == NAMP_MSG_ALLOC_RESP ? noc::channel::control_response : noc::channel::control_request;
    p.payload = std::move(payload);
    ++stats_.namp_msgs_sent[type - NAMP_MSG_FIRST];
    count_sent(p);
    port_.send(std::move(p));
}

bool network_adapter::read_words(uint32_t addr, uint32_t *w, unsigned n) {
    return bus_access(tlm::TLM_READ_COMMAND, addr, reinterpret_cast<uint8_t *>(w), 4 * n);
}

bool network_adapter::write_word(uint32_t addr, uint32_t v) {
    return bus_access(tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<uint8_t *>(&v), 4);
}

// Atomic compare-and-swap (cas) or fetch-and-add on one word of the local SRAM. With
// namp.atomics = false the same operation is a read followed by a write (two bus accesses, not
// atomic against the cores). SC_THREAD only.
bool network_adapter::namp_atomic(uint32_t addr, bool cas, uint32_t operand, uint32_t compare,
                                  uint32_t &old, bool &success) {
    ++stats_.namp_atomic_ops;
    if (!cfg_.namp.atomics) {
        if (!read_words(addr, &old, 1)) return false;
        success = !cas || old == compare;
        if (!success) return true;
        return write_word(addr, cas ? operand : old + operand);
    }
    tiles::atomic_ext ext;
    ext.kind = cas ? tiles::atomic_ext::op::cas : tiles::atomic_ext::op::fetch_add;
    ext.compare = compare;
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(addr);
    t.set_data_ptr(reinterpret_cast<uint8_t *>(&operand));
    t.set_data_length(4);
    t.set_streaming_width(4);
    t.set_byte_enable_ptr(nullptr);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&ext);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    master->b_transport(t, delay);
    t.clear_extension(&ext);
    sc_core::wait(delay);
    if (!t.is_response_ok() || !ext.performed) return false;
    old = ext.old_value;
    success = ext.success;
    return true;
}

}  // namespace namp
