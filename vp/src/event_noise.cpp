#include "vp/event_noise.h"

namespace vp {

event_noise::event_noise(sc_core::sc_module_name name, uint32_t seed, sc_core::sc_time clock_period)
    : sc_module(name), state_(seed ? seed : 1), period_(clock_period) {
    SC_HAS_PROCESS(event_noise);
    SC_THREAD(run);
    SC_METHOD(poke);
    for (sc_core::sc_event &e : events_) sensitive << e;
    dont_initialize();
}

uint32_t event_noise::next() {  // xorshift32: deterministic, no host randomness
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
}

void event_noise::run() {
    for (;;) {
        // Every noise event fires before the next wake-up, so what is pending then is the
        // model's: with nothing of it left the noise stops and the kernel may starve (a hang is
        // still seen as one, and a run's end time is the model's).
        if (!sc_core::sc_pending_activity()) return;
        const unsigned gap = 1 + next() % 24;  // cycles to the next wake-up
        for (sc_core::sc_event &e : events_)
            if (next() % 2) e.notify(period_ * double(next() % gap));
        wait(period_ * double(gap));
    }
}

}  // namespace vp
