# find_package(NampFirmware): the installed firmware SDK of namp-vp as imported targets.
#   namp::hal         start-up code, HAL and the tile linker script: every firmware links this
#   namp::mcapi       MCAPI-style message passing over the baseline software protocol (+ namp::hal)
#   namp::mcapi_namp  the same API over the NAMP, with the NAMP driver (+ namp::hal)
#   namp::mpi         the MPI subset (mpi.h) over namp::mcapi
#   namp::mpi_namp    the MPI subset over namp::mcapi_namp
#   namp::sock / namp::sock_namp  stream sockets over either (docs/sockets.md)
#   namp::kernel_freertos, namp::kernel_sel4, namp::kernel_bitmap
#                     the preemptive kernel with U-mode tasks (docs/kernel.md), one per ready-queue
#                     layout; linked with the kernel's linker script instead of tile.ld
# A firmware is then: add_executable(app main.c) + target_link_libraries(app PRIVATE namp::mcapi).
# Without a CMAKE_BUILD_TYPE a firmware is compiled with -O2 -g, as the in-tree firmware is.
get_filename_component(_namp_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

# The SDK's libraries are RV32 objects: a project configured with the host's compiler would get as
# far as the link and fail there ("cannot represent machine 'riscv'"). Refuse it now, naming the
# toolchain file that sets the cross compiler.
if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^riscv" AND NOT CMAKE_C_COMPILER MATCHES "riscv")
  if(CMAKE_C_COMPILER)
    set(_namp_cc "${CMAKE_C_COMPILER} (${CMAKE_C_COMPILER_ID}, for ${CMAKE_SYSTEM_PROCESSOR})")
  else()
    set(_namp_cc "none (the project does not enable C)")
  endif()
  set(NampFirmware_FOUND FALSE)
  string(CONCAT NampFirmware_NOT_FOUND_MESSAGE
      "the namp-vp firmware SDK builds RISC-V (rv32imac) firmware, but this project's C compiler is "
      "${_namp_cc}. Configure a fresh build folder with the SDK's toolchain file:\n"
      "  cmake -S <source> -B <build> -DCMAKE_TOOLCHAIN_FILE=${CMAKE_CURRENT_LIST_DIR}/namp-toolchain.cmake")
  return()
endif()

if(NOT TARGET namp::hal)
  # start-up code and HAL without a linker script (the base of namp::hal and the kernels)
  add_library(namp::hal_base INTERFACE IMPORTED)
  set_target_properties(namp::hal_base PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_namp_prefix}/include"
    INTERFACE_COMPILE_OPTIONS "$<$<STREQUAL:$<CONFIG>,>:-O2>;$<$<STREQUAL:$<CONFIG>,>:-g>"
    INTERFACE_LINK_LIBRARIES
      "-Wl,--whole-archive;${_namp_prefix}/lib/libnamp_runtime.a;-Wl,--no-whole-archive;${_namp_prefix}/lib/libnamp_hal.a"
    # one RAM region holds code and data by design
    INTERFACE_LINK_OPTIONS "-Wl,--no-warn-rwx-segments")

  # tile.ld, unless the firmware links a kernel (which brings its own script): NAMP_KERNEL is a
  # compatible interface property that the kernel targets set on whoever links them.
  add_library(namp::hal INTERFACE IMPORTED)
  set_target_properties(namp::hal PROPERTIES
    INTERFACE_LINK_LIBRARIES namp::hal_base
    INTERFACE_LINK_OPTIONS "$<$<NOT:$<BOOL:$<TARGET_PROPERTY:NAMP_KERNEL>>>:-T${_namp_prefix}/lib/namp/tile.ld>")

  add_library(namp::mcapi INTERFACE IMPORTED)
  set_target_properties(namp::mcapi PROPERTIES
    INTERFACE_COMPILE_DEFINITIONS "MP_DEFAULT_DATA_PATH=0"
    INTERFACE_LINK_LIBRARIES "${_namp_prefix}/lib/libmp.a;namp::hal")

  add_library(namp::mcapi_namp INTERFACE IMPORTED)
  set_target_properties(namp::mcapi_namp PROPERTIES
    INTERFACE_COMPILE_DEFINITIONS "MP_DEFAULT_DATA_PATH=2;MP_TRANSPORT_NAMP=1"
    INTERFACE_LINK_LIBRARIES
      "${_namp_prefix}/lib/libmp_namp.a;${_namp_prefix}/lib/libnamp_drv.a;namp::hal")

  foreach(_lib mpi sock)
    add_library(namp::${_lib} INTERFACE IMPORTED)
    set_target_properties(namp::${_lib} PROPERTIES
      INTERFACE_LINK_LIBRARIES "${_namp_prefix}/lib/lib${_lib}.a;namp::mcapi")
    add_library(namp::${_lib}_namp INTERFACE IMPORTED)
    set_target_properties(namp::${_lib}_namp PROPERTIES
      INTERFACE_LINK_LIBRARIES "${_namp_prefix}/lib/lib${_lib}_namp.a;namp::mcapi_namp")
  endforeach()

  foreach(_layout freertos sel4 bitmap)
    string(TOUPPER ${_layout} _LAYOUT)
    add_library(namp::kernel_${_layout} INTERFACE IMPORTED)
    set_target_properties(namp::kernel_${_layout} PROPERTIES
      INTERFACE_COMPILE_DEFINITIONS "K_RQ_LAYOUT=K_RQ_${_LAYOUT}"
      INTERFACE_LINK_LIBRARIES
        "${_namp_prefix}/lib/libkernel_${_layout}.a;${_namp_prefix}/lib/libmp_cbuffer.a;namp::hal_base"
      INTERFACE_LINK_OPTIONS "-T${_namp_prefix}/lib/namp/kernel.ld"
      INTERFACE_NAMP_KERNEL ON
      COMPATIBLE_INTERFACE_BOOL NAMP_KERNEL)
  endforeach()
endif()
set(NampFirmware_FOUND TRUE)
