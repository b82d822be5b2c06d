# Install rules of the firmware SDK (docs/firmware-sdk.md):
#   cmake --install <build>/sw-build --prefix DIR     (or: bash scripts/install-sdk DIR)
# gives DIR/include (HAL, threads, MCAPI, MPI, sockets, kernel, the adapter's and the NAMP's
# drivers, the hardware/firmware contract: tile memory map, adapter registers, structures in tile
# memory), DIR/lib (static libraries, start-up code, linker scripts), DIR/bin/namp-mpicc and
# DIR/lib/cmake/NampFirmware (find_package and the toolchain file). Included from
# sw/CMakeLists.txt after every library target exists.

# The start-up code is an object library in-tree; installed it is an archive that the SDK links
# whole (nothing references _start or the trap entry by symbol).
add_library(namp_runtime_archive STATIC $<TARGET_OBJECTS:namp_runtime>)
set_target_properties(namp_runtime_archive PROPERTIES OUTPUT_NAME namp_runtime)

install(TARGETS namp_runtime_archive namp_hal mp mp_namp mp_cbuffer namp_drv mpi mpi_namp sock sock_namp
                kernel_freertos kernel_sel4 kernel_bitmap ARCHIVE DESTINATION lib)
set(_sw ${CMAKE_CURRENT_LIST_DIR}/..)
install(DIRECTORY ${_sw}/hal/include/ ${_sw}/runtime/include/ ${_sw}/lib/mp/include/
                  ${_sw}/lib/na/include/ ${_sw}/lib/namp/include/ ${_sw}/lib/mpi/include/
                  ${_sw}/lib/sock/include/ ${_sw}/kernel/include/
        DESTINATION include)
install(PROGRAMS ${_sw}/cmake/sdk/namp-mpicc DESTINATION bin)
# the kernel's copy of tile.ld with .data on a page boundary (sw/kernel/CMakeLists.txt)
install(FILES ${KERNEL_LINKER_SCRIPT} DESTINATION lib/namp)
# the hardware/firmware contract, every header of it (contract/README.md)
install(DIRECTORY ${NAMP_CONTRACT_DIR}/ DESTINATION include FILES_MATCHING PATTERN "*.h")
install(FILES ${_sw}/runtime/tile.ld DESTINATION lib/namp)
install(FILES ${_sw}/../cmake/riscv32-toolchain.cmake
              ${_sw}/cmake/sdk/namp-toolchain.cmake
              ${_sw}/cmake/sdk/NampFirmwareConfig.cmake
        DESTINATION lib/cmake/NampFirmware)
