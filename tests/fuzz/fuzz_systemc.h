// Shared by the fuzz targets that run one SystemC platform for every input (fuzz_na, fuzz_gdb).
#pragma once
#include <cstdlib>

#include <systemc>

// No LeakSanitizer there: between inputs the model's threads are suspended by design, and what
// their locals own on the SystemC kernel's coroutine stacks (not scanned) would count as leaked.
// Leaks of the models are checked by the ctest suite, whose runs end (docs/robustness.md).
// Include this header in exactly one file of a fuzz target.
extern "C" const char *__asan_default_options() { return "detect_leaks=0"; }

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    // Model errors throw; an exception escaping a run is a crash for libFuzzer.
    using sc_core::sc_report_handler;
    sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY | sc_core::SC_THROW);
    sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_DISPLAY | sc_core::SC_THROW);
    return 0;
}
