#include "vp/progress.h"

#include <iomanip>

namespace vp {

namespace {
constexpr double step_cycles = 100000;  // how often simulated time is looked at
}

progress::progress(sc_core::sc_module_name name, sc_core::sc_time clock_period,
                   std::function<uint64_t()> instructions, std::ostream &out)
    : sc_module(name), period_(clock_period), instructions_(std::move(instructions)), out_(out),
      start_(std::chrono::steady_clock::now()), last_(start_) {
    SC_HAS_PROCESS(progress);
    SC_THREAD(run);
}

void progress::run() {
    start_ = last_ = std::chrono::steady_clock::now();  // host time of the simulation, not set-up
    for (;;) {
        wait(period_ * step_cycles);
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ >= std::chrono::seconds(1)) {
            last_ = now;
            print();
        }
        // Nothing else pending: stop waking, or the kernel would never starve (hang detection).
        if (!sc_core::sc_pending_activity()) return;
    }
}

void progress::print() {
    const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const sc_core::sc_time t = sc_core::sc_time_stamp();
    const uint64_t insns = instructions_();
    out_ << "\rnamp-vp: " << std::fixed << std::setprecision(3) << t.to_seconds() * 1e3
         << " ms simulated (" << uint64_t(t / period_) << " cycles), host " << std::setprecision(1)
         << host << " s, " << (host > 0 ? insns / host / 1e6 : 0.0) << " MIPS   " << std::flush;
}

void progress::done() {
    print();  // the final state, so even a short run shows one line
    out_ << "\n";
}

}  // namespace vp
