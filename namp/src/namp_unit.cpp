// NAMP registers, slot starts, message routing and interrupt sources.
#include "namp/namp_unit.h"

#include "cbuffer_layout.h"
#include "namp/cc.h"
#include "namp/protocol.h"
#include "namp_cc.h"
#include "namp_ps.h"
#include "namp_structs.h"

namespace namp {

namespace {
constexpr uint32_t slot_pitch = 0x4000;
constexpr uint32_t slot_page = 0x1000;  // base interface; above it the vif pages
}  // namespace

namp_unit::namp_unit(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
                     dma_engine &dma, packet_out &out, na_stats &stats,
                     sc_core::sc_time clock_period, std::function<void()> irq_changed)
    : sc_module(name),
      init("initiator", cfg, geo, slots_, dma, out, stats, clock_period,
           [this](const slot &s) { slot_finished(s); }),
      target("target", cfg, geo, out, stats, *this, clock_period),
      cfg_(cfg),
      geo_(geo),
      stats_(stats),
      irq_changed_(std::move(irq_changed)) {
    if (cfg.namp.slots < 1 || cfg.namp.slots > NA_NAMP_MAX_SLOTS)
        SC_REPORT_ERROR(this->name(), "namp.slots must be 1..128");
    if (cfg.namp.arbitration > NAMP_ARB_MAP)
        SC_REPORT_ERROR(this->name(), "namp.arbitration must be lrs, qos or map");
    if (cfg.namp.retry_cycles < 1 || cfg.namp.retry_max_cycles < cfg.namp.retry_cycles)
        SC_REPORT_ERROR(this->name(), "namp.retry_max_cycles must be >= namp.retry_cycles >= 1");
    for (unsigned i = 0; i < cfg.namp.slots; ++i)
        slots_.push_back(
            std::make_unique<slot>(("slot_" + std::to_string(i)).c_str(), i, clock_period));
}

uint32_t namp_unit::features() const {
    uint32_t f = 0;
    if (cfg_.namp.messages) f |= NA_FEATURE_NAMP_MSG;
    if (cfg_.namp.channels) f |= NA_FEATURE_NAMP_CHAN;
    if (cfg_.namp.buffered) f |= NA_FEATURE_NAMP_BUF;
    if (cfg_.namp.ccm) f |= NA_FEATURE_NAMP_CCM;
    f |= cc::features(cfg_.namp);
    if (vif_) f |= NA_FEATURE_NAMP_SV;
    if (osqm_) f |= NA_FEATURE_NAMP_OSQM;
    if (cfg_.namp.ps) f |= NA_FEATURE_NAMP_PS;
    if (cfg_.namp.identity) f |= NA_FEATURE_NAMP_ID;
    return f;
}

uint32_t namp_unit::irq_pending() const {
    uint32_t p = 0;
    for (const auto &s : slots_)
        if ((s->flags & NAMP_FLAG_IEN) && (s->flags & NAMP_FLAG_DONE)) p |= NA_IRQ_SRC_NAMP_DONE;
    if (rx_count_) p |= NA_IRQ_SRC_RX_COUNT;
    return p;
}

void namp_unit::slot_finished(const slot &s) {
    if (osqm_) osqm_->transfer_finished(s);
    irq_changed_();
}

void namp_unit::message_delivered(uint32_t ep, uint32_t ep_flags) {
    if (!cfg_.namp.rx_count_gating || (ep_flags & NAMP_EP_F_NOTIFY)) {
        ++rx_count_;
        irq_changed_();
    }
    if (osqm_) osqm_->message_delivered(ep, ep_flags);
}

// ---- registers ----

bool namp_unit::read_reg(uint32_t off, uint32_t &v) const {
    switch (off) {
    case NA_NAMP_RX_COUNT: v = rx_count_; return true;
    case NA_NAMP_ARBITRATION: v = init.arbitration; return true;
    case NA_NAMP_ATOMICS: v = cfg_.namp.atomics ? 1u : 0u; return true;
    case NA_NAMP_SLOTS_VIRT: v = vif_ ? cfg_.namp.slots_virt : 0u; return true;
    case NA_NAMP_REFUSED: v = refused_; return true;
    case NA_NAMP_DONE_SLOTS:
        v = 0;
        for (unsigned i = 0; i < slots_.size() && i < 32; ++i)
            if (slots_[i]->flags & NAMP_FLAG_DONE) v |= 1u << i;
        return true;
    default: return off >= NA_NAMP_SLOT_BASE(0) && read_slot(off, v);
    }
}

bool namp_unit::write_reg(uint32_t off, uint32_t v) {
    switch (off) {
    case NA_NAMP_RX_COUNT:
        rx_count_ = v >= rx_count_ ? 0 : rx_count_ - v;
        irq_changed_();
        return true;
    case NA_NAMP_REFUSED: refused_ = v >= refused_ ? 0 : refused_ - v; return true;
    case NA_NAMP_ARBITRATION:
        if (v > NAMP_ARB_MAP) return false;
        init.arbitration = v;
        return true;
    default: return off >= NA_NAMP_SLOT_BASE(0) && write_slot(off, v);
    }
}

bool namp_unit::read_slot(uint32_t off, uint32_t &v) const {
    const unsigned i = (off - NA_NAMP_SLOT_BASE(0)) / slot_pitch;
    if (i >= slots_.size()) return false;
    const uint32_t r = off - NA_NAMP_SLOT_BASE(i);
    if (r >= slot_page) return vif_ && vif_->vif_read(i, r, v);
    const slot &s = *slots_[i];
    if (r >= NAMP_SLOT_MEMBER(0) && r < NAMP_SLOT_MEMBER(NAMP_SLOT_MEMBERS)) {
        v = s.member_handle((r - NAMP_SLOT_MEMBER(0)) / 4);
        return true;
    }
    switch (r) {
    case NAMP_SLOT_FLAGS: v = s.flags; return true;
    case NAMP_SLOT_PARAM1: v = s.p1; return true;
    case NAMP_SLOT_PARAM2: v = s.p2; return true;
    case NAMP_SLOT_PARAM3: v = s.p3; return true;
    case NAMP_SLOT_STATUS: v = s.status(); return true;
    case NAMP_SLOT_PRIORITY: v = s.priority; return true;
    case NAMP_SLOT_WIN_BASE: v = s.win_base; return true;
    case NAMP_SLOT_WIN_SIZE: v = s.win_size; return true;
    case NAMP_SLOT_CTRL: v = 0; return true;
    case NAMP_SLOT_ET_BASE: v = s.et_base; return true;
    case NAMP_SLOT_ET_BOUND: v = s.et_bound; return true;
    default: return false;  // the rest of the base page
    }
}

bool namp_unit::write_slot(uint32_t off, uint32_t v) {
    const unsigned i = (off - NA_NAMP_SLOT_BASE(0)) / slot_pitch;
    if (i >= slots_.size()) return false;
    const uint32_t r = off - NA_NAMP_SLOT_BASE(i);
    if (r >= slot_page) return vif_ && vif_->vif_write(i, r, v);
    slot &s = *slots_[i];
    const bool active = (s.flags & NAMP_FLAG_VALID) && s.active();
    switch (r) {
    case NAMP_SLOT_FLAGS: write_flags(s, v); return true;
    case NAMP_SLOT_PARAM1:
        if (active) return false;
        s.p1 = v;
        return true;
    case NAMP_SLOT_PARAM2:
        if (active) return false;
        s.p2 = v;
        return true;
    case NAMP_SLOT_PARAM3:
        if (active) return false;
        s.p3 = v;
        return true;
    case NAMP_SLOT_PRIORITY:
        if (v > 255) return false;
        s.priority = v;
        return true;
    case NAMP_SLOT_WIN_BASE:
        if (active) return false;
        s.win_base = v;
        return true;
    case NAMP_SLOT_WIN_SIZE:
        if (active) return false;
        s.win_size = v;
        return true;
    case NAMP_SLOT_ET_BASE:
        if (active) return false;
        s.et_base = v;
        return true;
    case NAMP_SLOT_ET_BOUND:
        if (active || v > NAMP_VIF_ET_MAX) return false;
        s.et_bound = v;
        return true;
    case NAMP_SLOT_CTRL:
        if ((v & ~(NAMP_SLOT_CTRL_ABORT | NAMP_SLOT_CTRL_KEEP)) || v == NAMP_SLOT_CTRL_KEEP)
            return false;
        if (v & NAMP_SLOT_CTRL_ABORT) init.abort(s, (v & NAMP_SLOT_CTRL_KEEP) != 0);
        return true;
    default: return false;  // STATUS is read-only
    }
}

// Refused configurations: a disabled feature first (absent hardware), then invalid combinations,
// then parameters that cannot be right whatever the memory holds.
uint32_t namp_unit::validate(const slot &s) const {
    const uint32_t f = s.flags;
    if (f & NAMP_FLAG_RESERVED) return NAMP_ERR_MODE_UNSUPPORTED;
    if (f & NAMP_FLAG_PS) {  // a control message of the OS: its request block at PARAM1
        if (!cfg_.namp.ps) return NAMP_ERR_MODE_UNSUPPORTED;
        if (f & (NAMP_FLAG_COM | NAMP_FLAG_CON | NAMP_FLAG_BUF | NAMP_FLAG_CCM | NAMP_FLAG_CC))
            return NAMP_ERR_INVALID_FLAGS;
        return (s.p1 & 3) || !geo_.in_sram(s.p1, NAMP_PS_Q_SIZE) ? NAMP_ERR_BAD_PARAM
                                                                 : NAMP_ERR_NONE;
    }
    if (f & NAMP_FLAG_CC) {
        const uint32_t code = cc::validate_start(cfg_.namp, geo_, f, s.p1, s.p2, s.p3);
        if (code != NAMP_ERR_NONE || !s.guarded()) return code;
        // SV guard: the descriptor's header and the data lie in the collective area
        if (!geo_.in_sram(s.win_base, s.win_size)) return NAMP_ERR_BAD_PARAM;
        return s.in_window(s.p1, NAMP_CC_HEADER) && s.in_window(s.p2, s.p3) ? NAMP_ERR_NONE
                                                                            : NAMP_ERR_WINDOW;
    }
    const bool com = f & NAMP_FLAG_COM, con = f & NAMP_FLAG_CON, buf = f & NAMP_FLAG_BUF,
               ccm = f & NAMP_FLAG_CCM;
    if ((com || con) && !cfg_.namp.channels) return NAMP_ERR_MODE_UNSUPPORTED;
    if (!com && !con && !cfg_.namp.messages) return NAMP_ERR_MODE_UNSUPPORTED;
    if (buf && !cfg_.namp.buffered) return NAMP_ERR_MODE_UNSUPPORTED;
    if (ccm && !cfg_.namp.ccm) return NAMP_ERR_MODE_UNSUPPORTED;
    if (com && (con || buf || ccm)) return NAMP_ERR_INVALID_FLAGS;
    if (ccm && !buf) return NAMP_ERR_INVALID_FLAGS;  // CCM: channels and connection-less
    if ((s.p1 & 3) || !geo_.in_sram(s.p1, NAMP_H_SIZE)) return NAMP_ERR_BAD_PARAM;
    if (com) {
        if (s.p3 & ~NAMP_COM_F_REVOKE) return NAMP_ERR_BAD_PARAM;
        return s.p2 == 0 && !(s.p3 & NAMP_COM_F_REVOKE) ? NAMP_ERR_BAD_PARAM : NAMP_ERR_NONE;
    }
    if (buf) {
        if ((s.p2 & 3) || !geo_.in_sram(s.p2, MP_CB_HEADER_SIZE)) return NAMP_ERR_BAD_PARAM;
    } else if (s.p3 != 0 && !geo_.in_sram(s.p2, s.p3)) {
        return NAMP_ERR_BAD_PARAM;
    }
    // SV guard: the window lies in SRAM and holds the send buffer's header (or the data range)
    if (s.guarded()) {
        if (!geo_.in_sram(s.win_base, s.win_size)) return NAMP_ERR_BAD_PARAM;
        if (buf ? !s.in_window(s.p2, MP_CB_HEADER_SIZE) : !s.in_window(s.p2, s.p3))
            return NAMP_ERR_WINDOW;
    }
    return NAMP_ERR_NONE;
}

// FLAGS write semantics (docs/namp.md, "Slot interface").
void namp_unit::write_flags(slot &s, uint32_t v) {
    const bool was_valid = s.flags & NAMP_FLAG_VALID;
    v &= ~NAMP_FLAG_DONE;  // read-only
    if (was_valid && s.active()) {
        // In flight: only IEN changes, and CCM 1 -> 0 (leave after the current transfer). A
        // cleared VALID cannot abort a transfer and is ignored.
        s.flags = (s.flags & ~NAMP_FLAG_IEN) | (v & NAMP_FLAG_IEN);
        if ((s.flags & NAMP_FLAG_CCM) && !(v & NAMP_FLAG_CCM)) {
            s.flags &= ~NAMP_FLAG_CCM;
            init.leave_ccm(s);
        }
        irq_changed_();
        return;
    }
    if (was_valid && s.finished() && (v & NAMP_FLAG_VALID)) {
        // Still DONE / ERROR and VALID kept: only IEN changes (acknowledging an interrupt).
        s.flags = (s.flags & ~NAMP_FLAG_IEN) | (v & NAMP_FLAG_IEN);
        irq_changed_();
        return;
    }
    // Idle, or freeing a finished slot (VALID 1 -> 0), or starting (VALID 0 -> 1).
    s.flags = v;
    if (s.state() != slot_state::idle) s.transition(slot_event::release);
    s.code = NAMP_ERR_NONE;
    s.cc_failed = s.cc_ended = 0;
    if (!(v & NAMP_FLAG_VALID)) {
        irq_changed_();
        return;
    }
    s.retries = 0;
    s.direct = false;
    s.abort_requested = false;
    s.abort_keep = false;
    s.mode = v & (NAMP_FLAG_COM | NAMP_FLAG_CON | NAMP_FLAG_BUF | NAMP_FLAG_CCM | NAMP_FLAG_CC |
                  NAMP_FLAG_PS);
    const uint32_t code = validate(s);
    if (code != NAMP_ERR_NONE) {
        s.code = code;
        s.transition(slot_event::refuse);
        s.flags |= NAMP_FLAG_DONE;
    } else {
        init.start(s);
    }
    irq_changed_();
}

// ---- network ----

void namp_unit::receive(noc::packet pkt) {
    const unsigned sub = message_sub(pkt);
    ++stats_.namp_msgs_received[sub];
    if (obs_) obs_->message_received(geo_.tile_id, pkt.header.src_x, pkt.header.src_y, sub);
    if (is_response(sub))
        init.response(std::move(pkt));
    else if (sub != 0)
        target.request(std::move(pkt));
    else
        ++stats_.namp_dropped;
}

}  // namespace namp
