// libsystemc's own main() references sc_main; the fuzz targets have libFuzzer's main instead, so
// this sc_main only satisfies the link and is never called.
#include <systemc>

int sc_main(int, char **) { return 1; }
