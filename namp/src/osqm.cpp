// HW-OSQM: configuration page, per-slot registers, the insertion state machine.
#include "namp/osqm.h"

#include "na_registers.h"
#include "namp_structs.h"

namespace namp {

osqm_unit::osqm_unit(sc_core::sc_module_name name, const na_config &cfg, unsigned slots,
                     sc_core::sc_time clock_period, std::function<void()> irq_changed)
    : sc_module(name),
      port("port"),
      cfg_(cfg),
      period_(clock_period),
      irq_changed_(std::move(irq_changed)),
      slot_queue_(slots, 0),
      slot_thread_(slots, 0) {
    SC_HAS_PROCESS(osqm_unit);
    SC_THREAD(thread);
    // reset values: the design-time parameters (thesis 4.2.3.4; namp.osqm_* keys)
    const auto &n = cfg.namp;
    type_ = n.osqm_type;
    dir_ = n.osqm_dir;
    q_layout_ = n.osqm_q_head | (n.osqm_q_tail << 16);
    e_layout_ = n.osqm_e_next | (n.osqm_e_prev << 16);
    mode_ = (n.osqm_bitmap ? OSQM_MODE_BITMAP : 0u) | (n.osqm_wakeup ? OSQM_MODE_WAKEUP : 0u) |
            (n.osqm_ready_flag ? OSQM_MODE_READY_FLAG : 0u);
}

// Static configuration: the OS-specific items are fixed; writing the fixed value is accepted (a
// kernel built for this OS configures the page as usual), any other value is refused.
bool osqm_unit::fixed_refuses(uint32_t off, uint32_t v) const {
    if (!cfg_.namp.osqm_static) return false;
    constexpr uint32_t os_bits = OSQM_MODE_BITMAP | OSQM_MODE_WAKEUP | OSQM_MODE_READY_FLAG;
    switch (off) {
    case OSQM_TYPE: return v != type_;
    case OSQM_DIR: return v != dir_;
    case OSQM_Q_LAYOUT: return v != q_layout_;
    case OSQM_E_LAYOUT: return v != e_layout_;
    case OSQM_MODE: return (v & os_bits) != (mode_ & os_bits);
    default: return false;
    }
}

uint32_t osqm_unit::irq_pending() const { return irq_ ? NA_IRQ_SRC_OSQM : 0u; }

bool osqm_unit::read_reg(uint32_t off, uint32_t &v, bool side_effects) {
    if (off >= OSQM_SLOT_QUEUE(0) && off < OSQM_SLOT_QUEUE(slot_queue_.size())) {
        const unsigned n = (off - OSQM_SLOT_QUEUE(0)) / 8;
        v = (off & 4) ? slot_thread_[n] : slot_queue_[n];
        return true;
    }
    switch (off) {
    case OSQM_TYPE: v = type_; return true;
    case OSQM_DIR: v = dir_; return true;
    case OSQM_Q_LAYOUT: v = q_layout_; return true;
    case OSQM_E_LAYOUT: v = e_layout_; return true;
    case OSQM_MODE: v = mode_; return true;
    case OSQM_BITMAP_ADDR: v = bitmap_addr_; return true;
    case OSQM_BITMAP_QBASE: v = bitmap_qbase_; return true;
    case OSQM_BITMAP_QSTRIDE: v = bitmap_qstride_; return true;
    case OSQM_WAKEUP_QUEUE: v = wakeup_; return true;
    case OSQM_LOCK_ADDR: v = lock_addr_; return true;
    case OSQM_LOCK_KIND: v = lock_kind_; return true;
    case OSQM_INSERTIONS: v = uint32_t(insertions_); return true;
    case OSQM_IRQ: v = irq_ | (irq_overflow_ ? OSQM_IRQ_OVERFLOW : 0u); return true;
    case OSQM_IRQ_THREAD:
        // a FIFO register: the read pops (a debugger's read does not)
        if (irq_threads_.empty()) {
            v = OSQM_IRQ_NONE;
            return true;
        }
        v = irq_threads_.front();
        if (side_effects) {
            irq_threads_.pop_front();
            if (irq_) --irq_;
            irq_changed_();
        }
        return true;
    case OSQM_STATIC: v = cfg_.namp.osqm_static ? 1u : 0u; return true;
    default: return false;
    }
}

bool osqm_unit::write_reg(uint32_t off, uint32_t v) {
    if (off >= OSQM_SLOT_QUEUE(0) && off < OSQM_SLOT_QUEUE(slot_queue_.size())) {
        const unsigned n = (off - OSQM_SLOT_QUEUE(0)) / 8;
        // QUEUE: a word-aligned address, bit 0 = critical event; THREAD: a word-aligned element,
        // or with READY_FLAG a bit offset into the field
        if (off & 4) {
            if (ready_flag() ? v >= OSQM_READY_FLAG_BITS : (v & 3) != 0) return false;
            slot_thread_[n] = v;
        } else {
            if (v & 2) return false;
            slot_queue_[n] = v;
        }
        return true;
    }
    // layouts: word-aligned offsets below 4 KiB
    auto offsets_ok = [](uint32_t l) { return !(l & 0xF0003003u); };
    if (fixed_refuses(off, v)) return false;
    switch (off) {
    case OSQM_TYPE:
        if (v > 1) return false;
        type_ = v;
        return true;
    case OSQM_DIR:
        if (v > 1) return false;
        dir_ = v;
        return true;
    case OSQM_Q_LAYOUT:
        if (!offsets_ok(v)) return false;
        q_layout_ = v;
        return true;
    case OSQM_E_LAYOUT:
        if (!offsets_ok(v)) return false;
        e_layout_ = v;
        return true;
    case OSQM_MODE:
        if (v &
            ~(OSQM_MODE_BITMAP | OSQM_MODE_WAKEUP | OSQM_MODE_DEMAND_IRQ | OSQM_MODE_READY_FLAG))
            return false;
        // a list insertion with a bit on top, or only a bit: not both
        if ((v & OSQM_MODE_BITMAP) && (v & OSQM_MODE_READY_FLAG)) return false;
        mode_ = v;
        return true;
    case OSQM_BITMAP_ADDR:
        if (v & 3) return false;
        bitmap_addr_ = v;
        return true;
    case OSQM_BITMAP_QBASE: bitmap_qbase_ = v; return true;
    case OSQM_BITMAP_QSTRIDE:
        if (v == 0) return false;
        bitmap_qstride_ = v;
        return true;
    case OSQM_WAKEUP_QUEUE:
        if (v & 3) return false;
        wakeup_ = v;
        return true;
    case OSQM_LOCK_ADDR:
        if (v & 3) return false;
        lock_addr_ = v;
        return true;
    case OSQM_LOCK_KIND:
        if (v > OSQM_LOCK_TICKET) return false;
        lock_kind_ = v;
        return true;
    case OSQM_IRQ:
        irq_ = v >= irq_ ? 0 : irq_ - v;
        irq_overflow_ = false;
        if (!irq_) irq_threads_.clear();  // all acknowledged: nothing is left to report
        irq_changed_();
        return true;
    default: return false;
    }
}

// Initiator: the slot's registers are latched and cleared (one insertion per configuration).
void osqm_unit::transfer_finished(const slot &s) {
    const unsigned n = s.index();
    // armed by QUEUE alone: with READY_FLAG, THREAD 0 is bit 0
    if (n >= slot_queue_.size() || !(slot_queue_[n] & ~3u)) return;
    pending_.push_back(
        {slot_queue_[n] & ~3u, slot_thread_[n], 0, (slot_queue_[n] & OSQM_Q_CRITICAL) != 0});
    slot_queue_[n] = slot_thread_[n] = 0;
    kick_.notify(sc_core::SC_ZERO_TIME);
}

// Target: the endpoint's OSQM words are read (and claimed) by the state machine.
void osqm_unit::message_delivered(uint32_t ep, uint32_t) {
    pending_.push_back({0, 0, ep, false});
    kick_.notify(sc_core::SC_ZERO_TIME);
}

bool osqm_unit::take_lock() {
    if (!lock_addr_) return true;
    if (lock_kind_ == OSQM_LOCK_TICKET) {
        // A ticket, as every core takes one, then its turn: taking the lock only while it is
        // free (a CAS of `next`) starved behind cores that kept it taken (docs/namp.md).
        uint32_t me = 0;
        bool ok = false;
        if (!port.rmw(lock_addr_, false, 1, 0, cfg_.namp.atomics, me, ok)) return false;
        for (;;) {
            uint32_t serving = 0;
            // the word next to `next`, which was just read: no bus error once that one worked
            if (!rd(lock_addr_ + 4, serving)) return false;
            if (serving == me) return true;
            ++lock_retries_;
            wait(period_ * double(cfg_.namp.osqm_retry_cycles));
        }
    }
    for (;;) {
        uint32_t old = 0;
        bool ok = false;
        if (!port.rmw(lock_addr_, true, 1, 0, cfg_.namp.atomics, old, ok)) return false;
        if (ok) return true;
        ++lock_retries_;
        wait(period_ * double(cfg_.namp.osqm_retry_cycles));
    }
}

void osqm_unit::give_lock() {
    if (!lock_addr_) return;
    if (lock_kind_ == OSQM_LOCK_TICKET)
        port.fetch_add(lock_addr_ + 4, 1, cfg_.namp.atomics);
    else
        wr(lock_addr_, 0);
}

// READY_FLAG: sets bit `bit` of the field at `field` with a compare-and-swap loop, so that a
// kernel that sets or clears bits with atomics (without the OS lock) loses none of them.
bool osqm_unit::set_flag(uint32_t field, uint32_t bit) {
    const uint32_t a = field + 4 * (bit / 32), m = 1u << (bit % 32);
    for (;;) {
        uint32_t w = 0, old = 0;
        bool ok = false;
        if (!rd(a, w)) return false;
        if (w & m) return true;  // already ready
        if (!port.rmw(a, true, w | m, w, cfg_.namp.atomics, old, ok)) return false;
        if (ok) return true;
    }
}

// A critical event: the demand interrupt, and its THREAD for the OS, so that it can schedule
// exactly that thread at once (thesis 3.5.2.2 "critical events & demand interrupting").
void osqm_unit::critical_event(uint32_t thread) {
    if (irq_threads_.size() < OSQM_IRQ_FIFO_DEPTH)
        irq_threads_.push_back(thread);
    else
        irq_overflow_ = true;
    ++irq_;
    ++critical_;
    irq_changed_();
}

// Links `thread` into `queue` (Fig. 3.33a: look up the end, link both ways, update the end).
bool osqm_unit::insert(uint32_t queue, uint32_t thread) {
    const uint32_t qh = queue + (q_layout_ & 0xFFFF), qt = queue + (q_layout_ >> 16);
    const uint32_t en = thread + (e_layout_ & 0xFFFF), ep = thread + (e_layout_ >> 16);
    const bool dbl = type_ == 1;
    uint32_t head = 0, tail = 0;
    if (!rd(qh, head) || !rd(qt, tail)) return false;
    if (dir_ == 0) {  // back
        if (!wr(en, 0) || (dbl && !wr(ep, tail))) return false;
        if (tail ? !wr(tail + (e_layout_ & 0xFFFF), thread) : !wr(qh, thread)) return false;
        if (!wr(qt, thread)) return false;
    } else {  // front
        if (!wr(en, head) || (dbl && !wr(ep, 0))) return false;
        if (head && dbl && !wr(head + (e_layout_ >> 16), thread)) return false;
        if (!head && !wr(qt, thread)) return false;
        if (!wr(qh, thread)) return false;
    }
    return true;
}

void osqm_unit::thread() {
    for (;;) {
        while (pending_.empty()) wait(kick_);
        request r = pending_.front();
        pending_.pop_front();
        wait(period_ * double(cfg_.namp.osqm_cycles));
        if (!r.queue) {
            // Endpoint: claim its words atomically (CAS the queue word to 0), so that a kernel
            // clearing them concurrently and the hardware never both act.
            uint32_t q = 0, t = 0, old = 0;
            bool ok = false;
            if (!rd(r.ep + NAMP_EP_OSQM_QUEUE, q) || !(q & ~3u)) continue;
            if (!rd(r.ep + NAMP_EP_OSQM_THREAD, t)) continue;
            if (ready_flag() ? t >= OSQM_READY_FLAG_BITS : (!t || (t & 3))) continue;
            if (!port.rmw(r.ep + NAMP_EP_OSQM_QUEUE, true, 0, q, cfg_.namp.atomics, old, ok) || !ok)
                continue;
            r.queue = q & ~3u;
            r.thread = t;
            r.critical = (q & OSQM_Q_CRITICAL) != 0;
        }
        if (!take_lock()) continue;
        const uint32_t queue = (mode_ & OSQM_MODE_WAKEUP) ? wakeup_ : r.queue;
        bool ok;
        if (ready_flag())
            ok = queue && r.thread < OSQM_READY_FLAG_BITS && set_flag(queue, r.thread);
        else
            ok = queue && r.thread && !(r.thread & 3) && insert(queue, r.thread);
        if (ok && (mode_ & OSQM_MODE_BITMAP) && bitmap_addr_ && r.queue >= bitmap_qbase_) {
            const uint32_t bit = (r.queue - bitmap_qbase_) / bitmap_qstride_;
            uint32_t w = 0;
            if (bit < 32 && rd(bitmap_addr_, w))
                wr(bitmap_addr_, w | (1u << bit));  // under the lock
        }
        give_lock();
        if (!ok) continue;
        ++insertions_;
        if (r.critical || (mode_ & OSQM_MODE_DEMAND_IRQ)) critical_event(r.thread);
    }
}

}  // namespace namp
