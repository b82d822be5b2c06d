// NAMP-SV virtual interfaces: register pages, endpoint-table translation, slot start.
#include "namp/vif.h"

#include "cbuffer_layout.h"
#include "namp_cc.h"
#include "namp_ps.h"

#include "na_registers.h"
#include "namp_structs.h"

namespace namp {

vif_unit::vif_unit(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
                   namp_unit &unit, sc_core::sc_time clock_period)
    : sc_module(name), port("port"), cfg_(cfg), geo_(geo), unit_(unit), period_(clock_period) {
    const unsigned slots = cfg.namp.slots, virt = cfg.namp.slots_virt;
    if (virt == 0 || virt > slots)
        SC_REPORT_ERROR(this->name(), "namp.slots_virt must be 1..namp.slots");
    first_ = slots - virt;
    vifs_.resize(virt);
    SC_HAS_PROCESS(vif_unit);
    SC_THREAD(translate_thread);
}

vif_unit::vif *vif_unit::find(unsigned slot, uint32_t offset, uint32_t page) {
    if (slot < first_ || slot - first_ >= vifs_.size()) return nullptr;  // physical slot only
    if (offset < page || offset >= page + 0x1000) return nullptr;
    return &vifs_[slot - first_];
}

uint32_t vif_unit::slot_reg(unsigned slot, uint32_t reg) const {
    uint32_t v = 0;
    unit_.read_reg(NA_NAMP_SLOT_BASE(slot) + reg, v);
    return v;
}

void vif_unit::slot_write(unsigned slot, uint32_t reg, uint32_t v) {
    if (!unit_.write_reg(NA_NAMP_SLOT_BASE(slot) + reg, v))
        SC_REPORT_ERROR(name(), "slot register refused a write of its vif");
}

bool vif_unit::vif_read(unsigned slot, uint32_t offset, uint32_t &v) {
    if (vif *x = find(slot, offset, NAMP_VIF_CONFIG_PAGE)) {
        switch (offset - NAMP_VIF_CONFIG_PAGE) {
        case NAMP_VIFC_ET_BASE: v = x->et_base; return true;
        case NAMP_VIFC_ET_BOUND: v = x->et_bound; return true;
        case NAMP_VIFC_CTRL: v = x->ctrl; return true;
        case NAMP_VIFC_TRANSLATIONS: v = x->translations; return true;
        case NAMP_VIFC_PARK: v = x->held; return true;
        default: return false;
        }
    }
    vif *x = find(slot, offset, NAMP_VIF_PAGE);
    if (!x) return false;
    switch (offset - NAMP_VIF_PAGE) {
    case NAMP_VIF_FLAGS:
        // A refused or parked start reads as finished; the task never sees the slot's physical
        // parameters. A start still being translated reads as under way (VALID, not DONE): the
        // slot has not seen it yet, but the kernel saving a task's vif must not take it for idle.
        if (x->held)
            v = (x->flags | NAMP_FLAG_VALID | NAMP_FLAG_DONE) & ~NAMP_FLAG_IEN;
        else if (x->translating)
            v = (x->flags | NAMP_FLAG_VALID) & ~(NAMP_FLAG_IEN | NAMP_FLAG_DONE);
        else
            v = slot_reg(slot, NAMP_SLOT_FLAGS) & ~NAMP_FLAG_IEN;
        return true;
    case NAMP_VIF_PARAM1: v = x->p1; return true;
    case NAMP_VIF_PARAM2: v = x->p2; return true;
    case NAMP_VIF_PARAM3: v = x->p3; return true;
    case NAMP_VIF_STATUS: v = x->held ? x->held : slot_reg(slot, NAMP_SLOT_STATUS); return true;
    case NAMP_VIF_CTRL: v = 0; return true;
    default: return false;
    }
}

bool vif_unit::vif_write(unsigned slot, uint32_t offset, uint32_t v) {
    if (vif *x = find(slot, offset, NAMP_VIF_CONFIG_PAGE)) {
        switch (offset - NAMP_VIF_CONFIG_PAGE) {
        case NAMP_VIFC_ET_BASE:
            // The table must lie in this tile's SRAM: the vif reads it with physical addresses.
            if ((v & 7) || v < geo_.sram_base || v - geo_.sram_base >= geo_.sram_size) return false;
            if (uint64_t(v - geo_.sram_base) + uint64_t(x->et_bound) * NAMP_ET_ENTRY_SIZE >
                geo_.sram_size)
                return false;
            x->et_base = v;
            return true;
        case NAMP_VIFC_ET_BOUND:
            if (v > NAMP_VIF_ET_MAX) return false;
            if (x->et_base &&
                uint64_t(x->et_base - geo_.sram_base) + uint64_t(v) * NAMP_ET_ENTRY_SIZE >
                    geo_.sram_size)
                return false;
            x->et_bound = v;
            return true;
        case NAMP_VIFC_CTRL:
            if (v & ~(NAMP_VIFC_IEN | NAMP_VIFC_READY)) return false;
            if ((x->ctrl & NAMP_VIFC_READY) && !(v & NAMP_VIFC_READY)) reset_task_side(*x);
            x->ctrl = v;
            return true;
        case NAMP_VIFC_PARK: {
            // the kernel restores a finished transfer the task has not acknowledged yet (task
            // migration): only on an idle interface, only a finished STATUS
            const uint32_t st = NAMP_STATUS_STATE(v);
            if ((slot_reg(slot, NAMP_SLOT_FLAGS) & NAMP_FLAG_VALID) || x->translating ||
                (st != NAMP_STATE_DONE && st != NAMP_STATE_ERROR))
                return false;
            x->held = v;
            return true;
        }
        default: return false;
        }
    }
    vif *x = find(slot, offset, NAMP_VIF_PAGE);
    if (!x) return false;
    const bool idle = !(slot_reg(slot, NAMP_SLOT_FLAGS) & NAMP_FLAG_VALID) && !x->translating;
    switch (offset - NAMP_VIF_PAGE) {
    case NAMP_VIF_FLAGS: return write_flags(slot, *x, v);
    // Parameters change only while nothing is under way (like the slot's PARAMs); otherwise the
    // write is ignored rather than a bus error, which would kill the task for a race.
    case NAMP_VIF_PARAM1:
        if (idle) x->p1 = v;
        return true;
    case NAMP_VIF_PARAM2:
        if (idle) x->p2 = v;
        return true;
    case NAMP_VIF_PARAM3:
        if (idle) x->p3 = v;
        return true;
    case NAMP_VIF_CTRL:
        // the task ends its own transfer (the slot is its vif's: nothing of anyone else)
        if (v & ~NAMP_SLOT_CTRL_ABORT) return false;
        if (v) slot_write(slot, NAMP_SLOT_CTRL, v);
        return true;
    default: return false;  // STATUS is read-only
    }
}

bool vif_unit::write_flags(unsigned slot, vif &x, uint32_t v) {
    const uint32_t ien = (x.ctrl & NAMP_VIFC_IEN) ? NAMP_FLAG_IEN : 0u;
    v &= ~(NAMP_FLAG_IEN | NAMP_FLAG_DONE);
    if (x.translating) return true;  // a start is being translated: nothing else now
    const uint32_t cur = slot_reg(slot, NAMP_SLOT_FLAGS);
    if (x.held) {
        // A refused or parked start is acknowledged by clearing VALID; keeping VALID leaves it.
        if (!(v & NAMP_FLAG_VALID)) x.held = 0;
        x.flags = v & ~NAMP_FLAG_VALID;
        return true;
    }
    if (cur & NAMP_FLAG_VALID) {
        // Active or finished: the slot's own FLAGS semantics (free, leave CCM), IEN the kernel's.
        slot_write(slot, NAMP_SLOT_FLAGS, (v & ~NAMP_FLAG_IEN) | ien);
        return true;
    }
    x.flags = v;
    if (!(v & NAMP_FLAG_VALID)) {
        slot_write(slot, NAMP_SLOT_FLAGS, v | ien);  // clears a DONE left by a buffered send
        return true;
    }
    if (!(x.ctrl & NAMP_VIFC_READY)) {
        refuse(x, NAMP_ERR_VIF_DISABLED);
    } else if ((!(v & (NAMP_FLAG_BUF | NAMP_FLAG_COM | NAMP_FLAG_CC))) || (v & NAMP_FLAG_PS)) {
        // a data address cannot be translated by vID (a collective's lies in its area); PS
        // control messages name any handle of any tile: the kernel's only
        refuse(x, NAMP_ERR_VIF_MODE);
    } else {
        x.translating = true;
        pending_.push_back(slot);
        kick_.notify(sc_core::SC_ZERO_TIME);
    }
    return true;
}

// The kernel withdrew READY (the task ended or is being moved): nothing the task wrote survives
// for the next owner, and a start still being translated never reaches the slot.
void vif_unit::reset_task_side(vif &x) {
    x.flags = x.p1 = x.p2 = x.p3 = 0;
    x.held = 0;
    ++x.generation;
}

void vif_unit::refuse(vif &x, uint32_t code) {
    x.held = NAMP_STATUS_ERROR | (NAMP_STATE_ERROR << 8) | code;
    ++refusals_;
}

// Reads entry vid of the table (one 16-byte burst); returns 0 with its address and limit, or a
// NAMP_ERR_VIF_* code. The bound is checked first: no access outside the table.
uint32_t vif_unit::lookup(const vif &x, uint32_t vid, uint32_t kind, uint32_t &addr,
                          uint32_t &limit) {
    if (vid >= x.et_bound) return NAMP_ERR_VIF_BOUND;
    uint32_t entry[NAMP_ET_ENTRY_SIZE / 4] = {};
    if (!port.read(x.et_base + vid * NAMP_ET_ENTRY_SIZE, entry, sizeof entry))
        return NAMP_ERR_VIF_BUS;
    if (entry[NAMP_ET_KIND / 4] != kind) return NAMP_ERR_VIF_ENTRY;
    addr = entry[NAMP_ET_ADDR / 4];
    limit = entry[NAMP_ET_LIMIT / 4];
    return 0;
}

// A collective (FLAGS CC): PARAM1 names the task's collective area (vID) and the descriptor's
// offset in it, PARAM2 the data's offset, PARAM3 its size. Both must lie in the area, which must
// lie in SRAM; the area becomes the slot's window, so the set-up also checks the member table
// against it. docs/namp.md "Collectives through a vif".
uint32_t vif_unit::translate_cc(const vif &x, uint32_t &p1, uint32_t &p2, uint32_t &win,
                                uint32_t &win_size) {
    uint32_t area = 0, limit = 0;
    if (const uint32_t code = lookup(x, NAMP_VIF_CC_VID(x.p1), NAMP_ET_CCAREA, area, limit))
        return code;
    const uint64_t desc = NAMP_VIF_CC_OFFSET(x.p1), data = x.p2;
    if (!geo_.in_sram(area, limit) || (desc & 3) || desc + NAMP_CC_HEADER > limit ||
        data + x.p3 > limit)
        return NAMP_ERR_VIF_WINDOW;
    p1 = area + uint32_t(desc);
    p2 = area + uint32_t(data);
    win = area;
    win_size = limit;
    return 0;
}

void vif_unit::translate_thread() {
    for (;;) {
        while (pending_.empty()) wait(kick_);
        const unsigned slot = pending_.front();
        pending_.pop_front();
        vif &x = vifs_[slot - first_];
        const uint32_t gen = x.generation;
        wait(period_ * double(cfg_.namp.vif_cycles));
        // CoM only on a channel's credit path the kernel set up; transfers on plain handles
        const bool com = x.flags & NAMP_FLAG_COM;
        uint32_t p1 = 0, p2 = x.p2, limit = 0, win = 0, win_size = 0;
        uint32_t code = 0;
        unsigned n = 1;
        if (x.flags & NAMP_FLAG_CC)
            code = translate_cc(x, p1, p2, win, win_size);
        else
            code = lookup(x, x.p1, com ? NAMP_ET_CREDIT : NAMP_ET_HANDLE, p1, limit);
        if (!code && !(x.flags & NAMP_FLAG_CC) && (x.flags & NAMP_FLAG_BUF)) {
            code = lookup(x, x.p2, NAMP_ET_SENDBUF, p2, limit);
            ++n;
            // the send buffer's window: what the initiator may touch of the task's memory
            if (!code && (limit < MP_CB_HEADER_SIZE || !geo_.in_sram(p2, limit)))
                code = NAMP_ERR_VIF_WINDOW;
            win = p2;
            win_size = limit;
        }
        x.translating = false;
        if (gen != x.generation || !(x.ctrl & NAMP_VIFC_READY)) continue;  // released meanwhile
        if (code) {
            refuse(x, code);
            continue;
        }
        x.translations += n;
        translations_ += n;
        const uint32_t ien = (x.ctrl & NAMP_VIFC_IEN) ? NAMP_FLAG_IEN : 0u;
        slot_write(slot, NAMP_SLOT_PARAM1, p1);
        slot_write(slot, NAMP_SLOT_PARAM2, p2);
        slot_write(slot, NAMP_SLOT_PARAM3, x.p3);
        slot_write(slot, NAMP_SLOT_WIN_BASE, win);
        slot_write(slot, NAMP_SLOT_WIN_SIZE, win_size);
        slot_write(slot, NAMP_SLOT_ET_BASE, x.et_base);  // a collective's members are vIDs
        slot_write(slot, NAMP_SLOT_ET_BOUND, x.et_bound);
        // Reserved bits go through: the slot refuses them (MODE_UNSUPPORTED) like its own.
        slot_write(slot, NAMP_SLOT_FLAGS,
                   (x.flags & ~(NAMP_FLAG_IEN | NAMP_FLAG_DONE)) | NAMP_FLAG_VALID | ien);
    }
}

}  // namespace namp
