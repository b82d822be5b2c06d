#include "tiles/clint.h"

#include "tile_memory_map.h"

namespace tiles {

clint::clint(sc_core::sc_module_name name, unsigned harts, unsigned timer_divider,
             unsigned access_latency_cycles, sc_core::sc_time clock_period)
    : register_target(name, TILE_CLINT_SIZE, access_latency_cycles, clock_period),
      msip("msip", harts),
      mtip("mtip", harts),
      harts_(harts),
      tick_(clock_period * timer_divider),
      mtimecmp_(harts, ~uint64_t(0)),
      msip_state_(harts, false),
      timers_(harts),
      match_event_("match_event", harts) {
    for (unsigned h = 0; h < harts; ++h) {
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.set_sensitivity(&match_event_[h]);
        opts.dont_initialize();
        sc_core::sc_spawn([this, h] { compare_match(h); }, sc_core::sc_gen_unique_name("match"),
                          &opts);
    }
    SC_HAS_PROCESS(clint);
    SC_METHOD(update_outputs);
    sensitive << outputs_changed_;
}

uint64_t clint::mtime(const sc_core::sc_time &offset) const {
    const uint64_t ticks = uint64_t((sc_core::sc_time_stamp() + offset) / tick_);
    return ticks + uint64_t(mtime_adjust_);
}

// Called on every mtimecmp or mtime change: raise mtip now if the compare already matches,
// otherwise schedule the match. The access happens at the initiator's local time (delay).
void clint::reschedule(unsigned hart, const sc_core::sc_time &delay) {
    match_event_[hart].cancel();
    timers_[hart].match_at = sc_core::sc_max_time();
    const uint64_t now = mtime(delay);
    const uint64_t cmp = mtimecmp_[hart];
    if (cmp <= now) {
        timers_[hart].pending = true;
    } else {
        timers_[hart].pending = false;
        // Ticks are counted from time zero; the event fires at the tick boundary where mtime == cmp.
        // A compare value beyond the simulated time range (e.g. the all-ones "never" value, or the
        // high word written first) is never reached, so no event is scheduled for it.
        const double target_ticks = double(cmp - uint64_t(mtime_adjust_));
        const double max_ticks = sc_core::sc_max_time() / tick_;
        if (target_ticks < max_ticks) {
            const sc_core::sc_time at = tick_ * target_ticks;
            match_event_[hart].notify(at - sc_core::sc_time_stamp());
            timers_[hart].match_at = at;
        }
    }
    outputs_changed_.notify(delay);
}

void clint::compare_match(unsigned hart) {
    timers_[hart].match_at = sc_core::sc_max_time();
    timers_[hart].pending = mtime() >= mtimecmp_[hart];
    outputs_changed_.notify(sc_core::SC_ZERO_TIME);
}

void clint::update_outputs() {
    for (unsigned h = 0; h < harts_; ++h) {
        msip[h].write(msip_state_[h]);
        mtip[h].write(timers_[h].pending);
    }
}

bool clint::read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &,
                          const sc_core::sc_time &delay) {
    if (offset < CLINT_MSIP(harts_)) {
        value = msip_state_[offset / 4] ? 1 : 0;
        return true;
    }
    if (offset >= CLINT_MTIMECMP(0) && offset < CLINT_MTIMECMP(harts_)) {
        const uint64_t cmp = mtimecmp_[(offset - CLINT_MTIMECMP(0)) / 8];
        value = (offset & 4) ? uint32_t(cmp >> 32) : uint32_t(cmp);
        return true;
    }
    if (offset == CLINT_MTIME || offset == CLINT_MTIME + 4) {
        const uint64_t t = mtime(delay);
        value = (offset & 4) ? uint32_t(t >> 32) : uint32_t(t);
        return true;
    }
    return false;
}

bool clint::write_register(uint32_t offset, uint32_t value, tlm::tlm_generic_payload &,
                           const sc_core::sc_time &delay) {
    if (offset < CLINT_MSIP(harts_)) {
        msip_state_[offset / 4] = value & 1;
        outputs_changed_.notify(delay);
        return true;
    }
    if (offset >= CLINT_MTIMECMP(0) && offset < CLINT_MTIMECMP(harts_)) {
        const unsigned hart = (offset - CLINT_MTIMECMP(0)) / 8;
        uint64_t &cmp = mtimecmp_[hart];
        cmp = (offset & 4) ? (cmp & 0xFFFFFFFFull) | (uint64_t(value) << 32)
                           : (cmp & ~0xFFFFFFFFull) | value;
        reschedule(hart, delay);
        return true;
    }
    if (offset == CLINT_MTIME || offset == CLINT_MTIME + 4) {
        const uint64_t now = mtime(delay);
        const uint64_t t = (offset & 4) ? (now & 0xFFFFFFFFull) | (uint64_t(value) << 32)
                                        : (now & ~0xFFFFFFFFull) | value;
        mtime_adjust_ += int64_t(t - now);
        for (unsigned h = 0; h < harts_; ++h) reschedule(h, delay);
        return true;
    }
    return false;
}

}  // namespace tiles
