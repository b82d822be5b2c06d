// Watches a run from outside the models: the --progress status line on stderr (simulated time,
// cycles, host speed, about once a host second) and counters sampled into the timeline trace
// (category noc: the packets in flight in the mesh).
//
// One SystemC thread for both, waking at a fixed simulated interval, and only while other activity
// is pending: a platform with nothing left to do still starves and ends (hang detection), and
// what is simulated does not change. (Two such threads would keep each other alive.)
#pragma once
#include <chrono>
#include <functional>
#include <ostream>
#include <systemc>

#include "noc/mesh.h"
#include "trace/tracer.h"
#include "vp/status_line.h"

namespace vp {

class run_observer : public sc_core::sc_module {
public:
    struct params {
        sc_core::sc_time clock_period;
        status_line *progress = nullptr;         // null: no status line
        std::function<uint64_t()> instructions;  // retired so far (for MIPS)
        trace::tracer *tracer = nullptr;         // null or noc off: no samples
        const noc::mesh *mesh = nullptr;
    };
    run_observer(sc_core::sc_module_name name, const params &p);
    void done();  // the final status line

private:
    void run();
    void print_status();

    params p_;
    trace::track_id track_ = 0;
    std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace vp
