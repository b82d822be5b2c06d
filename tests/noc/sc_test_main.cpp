// libsystemc's own main() calls sc_main(), so GoogleTest is started from here.
#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char **argv) {
    // Deprecation notes of the kernel would clutter the test logs.
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
