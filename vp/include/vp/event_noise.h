// host.event_noise: a process that only adds SystemC events at pseudo-random cycles. It touches no
// model state; it reshapes SystemC's event heap and puts its own processes among the model's at
// the same times, so it changes the order in which SystemC runs simultaneous processes. A model
// that orders its ties itself gives the same statistics with and without it (docs/timing.md,
// "Ties"); a difference points at an order the model still leaves to SystemC.
#pragma once
#include <array>
#include <cstdint>
#include <systemc>

namespace vp {

class event_noise : public sc_core::sc_module {
public:
    event_noise(sc_core::sc_module_name name, uint32_t seed, sc_core::sc_time clock_period);

private:
    void run();
    void poke() {}  // runs at the noise events: a process among the model's
    uint32_t next();

    uint32_t state_;
    sc_core::sc_time period_;
    std::array<sc_core::sc_event, 4> events_;
};

}  // namespace vp
