# Toolchain file of the installed firmware SDK: the RISC-V cross compiler (riscv32-toolchain.cmake
# next to it) and the SDK prefix on the package search path, so that find_package(NampFirmware)
# needs nothing else.
include("${CMAKE_CURRENT_LIST_DIR}/riscv32-toolchain.cmake")
get_filename_component(_namp_sdk_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
list(APPEND CMAKE_PREFIX_PATH "${_namp_sdk_prefix}")
