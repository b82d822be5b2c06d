# find_package(NampFirmware): the installed firmware SDK of namp-vp as imported targets.
#   namp::hal         start-up code, HAL and the tile linker script: every firmware links this
#   namp::mcapi       MCAPI-style message passing over the baseline software protocol (+ namp::hal)
#   namp::mcapi_namp  the same API over the NAMP, with the NAMP driver (+ namp::hal)
#   namp::mpi / namp::mpi_namp    the MPI subset over either (docs/mpi.md)
#   namp::sock / namp::sock_namp  stream sockets over either (docs/sockets.md)
# A firmware is then: add_executable(app main.c) + target_link_libraries(app PRIVATE namp::mcapi).
get_filename_component(_namp_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET namp::hal)
  add_library(namp::hal INTERFACE IMPORTED)
  set_target_properties(namp::hal PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_namp_prefix}/include"
    INTERFACE_LINK_LIBRARIES
      "-Wl,--whole-archive;${_namp_prefix}/lib/libnamp_runtime.a;-Wl,--no-whole-archive;${_namp_prefix}/lib/libnamp_hal.a"
    # one RAM region holds code and data by design
    INTERFACE_LINK_OPTIONS "-T${_namp_prefix}/lib/namp/tile.ld;-Wl,--no-warn-rwx-segments")

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
endif()
set(NampFirmware_FOUND TRUE)
