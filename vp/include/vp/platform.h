// The whole system: a W x H mesh of compute tiles, their outputs and the run control.
#pragma once
#include <fstream>
#include <memory>
#include <vector>
#include <systemc>

#include "namp/network_adapter.h"
#include "noc/mesh.h"
#include "tiles/tile.h"
#include "trace/event_log.h"
#include "trace/tracer.h"
#include "vp/gdb_server.h"
#include "vp/output_gate.h"
#include "vp/event_noise.h"
#include "vp/run_observer.h"
#include "vp/config.h"
#include "vp/firmware.h"
#include "vp/run_control.h"

namespace vp {

struct run_options {
    uint64_t max_cycles = 0;  // 0: no watchdog
    bool quiet = false;
    std::string gdb;                        // [HOST:]PORT of the GDB server; empty: no debugger
    bool gdb_wait = false;                  // wait for GDB before the first instruction
    std::string trace_file;                 // --trace: timeline JSON; empty: none
    unsigned trace_categories = 0;          // trace::category mask (0: the default set)
    uint64_t trace_from = 0, trace_to = 0;  // window in cycles (to 0: to the end)
    bool progress = false;                  // --progress status line
    trace::event_log::options log;          // --log (categories 0: no log)
    std::string log_file;                   // --log-file; empty: standard error
};

// The tracer --trace asks for, or null (platform_trace.cpp). Throws if the file cannot be written.
std::unique_ptr<trace::tracer> make_tracer(const run_options &options, sc_core::sc_time period);

class platform : public sc_core::sc_module {
public:
    platform(sc_core::sc_module_name name, const platform_config &config,
             const run_options &options);
    ~platform() override;

    // Loads the images and starts the cores of every tile that has one (throws firmware_error).
    void load(const firmware_map &firmware);
    // Runs until the end; returns when the run control decided the outcome.
    void simulate();

    const platform_config &config() const { return config_; }
    const run_options &options() const { return options_; }
    const run_control &control() const { return control_; }
    const std::vector<std::unique_ptr<tiles::tile>> &tiles() const { return tiles_; }
    const noc::mesh &network() const { return *mesh_; }
    // The adapter of tile `id`, or nullptr when na.enabled is false.
    const namp::network_adapter *adapter(unsigned id) const {
        return id < adapters_.size() ? adapters_[id].get() : nullptr;
    }
    sc_core::sc_time clock_period() const { return period_; }
    // Length of the run: the furthest any core got (a core ends ahead of SystemC time by its
    // local quantum offset when its exit stops the simulation).
    uint64_t simulated_cycles() const;
    uint64_t instructions() const;  // retired so far, all cores
    trace::tracer *tracer() const { return tracer_.get(); }
    // After the run: what could not be written (console.file, --trace, --log), one message each.
    std::vector<std::string> output_errors();
    // Reverse execution's checkpoints (null without --gdb or with host.checkpoints 0).
    checkpoints *reverse() { return gdb_ ? gdb_->reverse() : nullptr; }

private:
    void attach_debugger();             // platform_debug.cpp
    void gate_outputs();                // reverse execution: every output through an output_gate
    std::string reset_from_firmware();  // monitor reset; "" or why not
    void trace_mark(const mark_record &m);  // platform_trace.cpp
    void open_event_log();                  // platform_log.cpp

    // Two modules with a signal each, created first after the platform and destroyed first.
    // SystemC's registries of modules and of primitive channels scan from their front and fill a
    // gap with their last entry; the kernel's own method module, made when the simulation starts,
    // is the last module then. The first gap takes that one, the second our last module (or
    // channel): from then on every module and channel, destroyed in reverse order of creation, is
    // found at the front (tiles/module_vector.h).
    struct registry_front : sc_core::sc_module {
        explicit registry_front(sc_core::sc_module_name n) : sc_module(n), line("line") {}
        sc_core::sc_signal<bool> line;
    };
    std::unique_ptr<registry_front> front_[2];
    platform_config config_;
    run_options options_;
    sc_core::sc_time period_;
    std::unique_ptr<trace::tracer> tracer_;  // before everything that records into it
    run_control control_;
    firmware_map firmware_;            // what load() loaded, for monitor reset
    std::unique_ptr<gdb_server> gdb_;  // before the tiles: their cores report to it
    struct fd_owner {
        int fd = -1;
        ~fd_owner();
    } semihosting_root_;                     // semihosting.root, opened once for every core
    std::unique_ptr<status_line> status_;    // --progress; console lines pass through it
    std::unique_ptr<tiles::tie_gate> gate_;  // the tie rule of masters and cores; before the tiles
    std::ofstream console_log_;
    std::ofstream log_file_;                         // --log-file (else the log goes to std::clog)
    std::unique_ptr<trace::event_log> log_;          // before the tiles: their cores write into it
    std::unique_ptr<namp::namp_observer> namp_log_;  // the log's view of the adapters
    // Translated code the cores share (JIT engine), before the tiles: destroyed after their cores.
    std::unique_ptr<rv_jit_pool, void (*)(rv_jit_pool *)> jit_pool_{nullptr, rv_jit_pool_destroy};
    tiles::module_vector<tiles::tile> tiles_;
    std::unique_ptr<noc::mesh> mesh_;
    std::unique_ptr<event_noise> noise_;      // host.event_noise
    std::unique_ptr<run_observer> observer_;  // --progress and trace counters
    tiles::module_vector<namp::network_adapter> adapters_;
    // Reverse execution: the gates in front of every output, and the buffers they replaced.
    std::vector<std::unique_ptr<output_gate>> gates_;
    std::vector<std::pair<std::ostream *, std::streambuf *>> ungated_;
};

}  // namespace vp
