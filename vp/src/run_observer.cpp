#include "vp/run_observer.h"

#include <iomanip>
#include <sstream>

namespace vp {

namespace {
constexpr double sample_cycles = 1000;      // trace counter interval
constexpr double progress_cycles = 100000;  // status interval when nothing is sampled
}  // namespace

run_observer::run_observer(sc_core::sc_module_name name, const params &p)
    : sc_module(name), p_(p), start_(std::chrono::steady_clock::now()), last_(start_) {
    if (p_.tracer && p_.mesh) track_ = p_.tracer->track("noc", "mesh", trace::noc);
    SC_HAS_PROCESS(run_observer);
    SC_THREAD(run);
}

void run_observer::run() {
    if (!track_ && !p_.progress) return;
    start_ = last_ = std::chrono::steady_clock::now();  // host time of the simulation, not set-up
    const sc_core::sc_time step = p_.clock_period * (track_ ? sample_cycles : progress_cycles);
    if (p_.progress) print_status();  // at once: a run shorter than the interval shows it too
    for (;;) {
        if (track_)
            p_.tracer->counter(track_, "packets in flight", double(p_.mesh->packets_in_flight()),
                               sc_core::sc_time_stamp());
        const auto now = std::chrono::steady_clock::now();
        if (p_.progress && now - last_ >= std::chrono::seconds(1)) {
            last_ = now;
            print_status();
        }
        // Nothing else pending: stop waking, or the kernel would never starve.
        if (!sc_core::sc_pending_activity()) return;
        wait(step);
    }
}

void run_observer::print_status() {
    const double host =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const sc_core::sc_time t = sc_core::sc_time_stamp();
    const uint64_t insns = p_.instructions ? p_.instructions() : 0;
    std::ostringstream line;
    line << "namp-vp: " << std::fixed << std::setprecision(3) << t.to_seconds() * 1e3
         << " ms simulated (" << uint64_t(t / p_.clock_period) << " cycles), host "
         << std::setprecision(1) << host << " s, " << (host > 0.05 ? insns / host / 1e6 : 0.0)
         << " MIPS";
    p_.progress->show(line.str());
}

void run_observer::done() {
    if (!p_.progress) return;
    print_status();  // the final state
    p_.progress->done();
}

}  // namespace vp
