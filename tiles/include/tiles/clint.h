// CLINT-compatible timer (SiFive layout): msip, mtimecmp per hart and one mtime counter.
// mtime is derived from simulated time (one tick per `timer_divider` core cycles), so an idle timer
// costs no host time; a compare match is one scheduled event per hart.
#pragma once
#include <cstdint>
#include <vector>
#include <systemc>

#include "tiles/register_target.h"

namespace tiles {

class clint : public register_target {
public:
    sc_core::sc_vector<sc_core::sc_out<bool>> msip;  // machine software interrupt, per hart
    sc_core::sc_vector<sc_core::sc_out<bool>> mtip;  // machine timer interrupt, per hart

    clint(sc_core::sc_module_name name, unsigned harts, unsigned timer_divider,
          unsigned access_latency_cycles, sc_core::sc_time clock_period);

    // A hart's timer as its core looks at it after every device access: both in one place that
    // the core reads directly (a look through the tile and the CLINT object was a chain of cache
    // misses per access on a large mesh, docs/benchmarks.md "Large meshes").
    struct hart_timer {
        // The simulated time at which the timer interrupt rises on its own (its compare match),
        // or sc_max_time() if none is due: the timer's lookahead, which a core that runs ahead of
        // SystemC time must not pass (docs/timing.md "Timer interrupts on time").
        sc_core::sc_time match_at = sc_core::sc_max_time();
        // The interrupt as the CLINT holds it (its mtip output follows a delta cycle later).
        bool pending = false;
    };

    // mtime at simulated time now + offset (offset: an initiator's local time ahead of now).
    uint64_t mtime(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) const;
    // Valid as long as the CLINT is.
    const hart_timer &timer(unsigned hart) const { return timers_[hart]; }

private:
    bool read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &,
                       const sc_core::sc_time &delay) override;
    bool write_register(uint32_t offset, uint32_t value, tlm::tlm_generic_payload &,
                        const sc_core::sc_time &delay) override;
    void reschedule(unsigned hart, const sc_core::sc_time &delay);
    void compare_match(unsigned hart);
    void update_outputs();

    unsigned harts_;
    sc_core::sc_time tick_;
    int64_t mtime_adjust_ = 0;  // written mtime minus the time-derived count
    std::vector<uint64_t> mtimecmp_;
    std::vector<bool> msip_state_;
    std::vector<hart_timer> timers_;  // match_at: of the pending match_event_
    sc_core::sc_vector<sc_core::sc_event> match_event_;
    sc_core::sc_event outputs_changed_;
};

}  // namespace tiles
