# Debian's libsystemc-dev ships no CMake package config: find header and library by hand.
find_path(SystemC_INCLUDE_DIR systemc HINTS $ENV{SYSTEMC_HOME}/include)
find_library(SystemC_LIBRARY systemc HINTS $ENV{SYSTEMC_HOME}/lib $ENV{SYSTEMC_HOME}/lib-linux64)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SystemC REQUIRED_VARS SystemC_LIBRARY SystemC_INCLUDE_DIR)
if(SystemC_FOUND AND NOT TARGET SystemC::systemc)
  add_library(SystemC::systemc UNKNOWN IMPORTED)
  set_target_properties(SystemC::systemc PROPERTIES
    IMPORTED_LOCATION ${SystemC_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${SystemC_INCLUDE_DIR}
    INTERFACE_COMPILE_FEATURES cxx_std_17)
endif()
