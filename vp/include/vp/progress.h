// --progress: a one-line status of a long run on stderr (simulated time, cycles, host speed),
// rewritten in place about once a host second.
//
// It wakes every `step` of simulated time but only while other activity is pending, so a platform
// that has nothing left to do still ends (hang detection relies on the kernel starving).
#pragma once
#include <chrono>
#include <functional>
#include <ostream>
#include <systemc>

namespace vp {

class progress : public sc_core::sc_module {
public:
    progress(sc_core::sc_module_name name, sc_core::sc_time clock_period,
             std::function<uint64_t()> instructions, std::ostream &out);
    void done();  // ends the status line

private:
    void run();
    void print();

    sc_core::sc_time period_;
    std::function<uint64_t()> instructions_;
    std::ostream &out_;
    std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace vp
