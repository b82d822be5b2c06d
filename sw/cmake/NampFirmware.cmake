# namp_firmware(<name> SOURCES <src>... [LIBS <lib>...] [LINKER_SCRIPT <ld>] [BARE])
#
# Builds ${FIRMWARE_DIR}/<name>.elf and a disassembly listing <name>.lst next to it.
# By default the firmware is linked with the SDK: start-up code (namp_runtime), the HAL (namp_hal)
# and the tile linker script (runtime/tile.ld). BARE links only the given sources and LIBS with the
# given LINKER_SCRIPT (used for the QEMU build of the benchmark, which has its own start file).
function(namp_firmware name)
  cmake_parse_arguments(FW "BARE" "LINKER_SCRIPT" "SOURCES;LIBS" ${ARGN})
  if(NOT FW_SOURCES)
    message(FATAL_ERROR "namp_firmware(${name}): SOURCES is required")
  endif()
  if(NOT FW_LINKER_SCRIPT)
    set(FW_LINKER_SCRIPT ${NAMP_TILE_LINKER_SCRIPT})
  endif()

  add_executable(${name} ${FW_SOURCES})
  set_target_properties(${name} PROPERTIES
    OUTPUT_NAME ${name}
    SUFFIX ".elf"
    RUNTIME_OUTPUT_DIRECTORY ${FIRMWARE_DIR}
    LINK_DEPENDS ${FW_LINKER_SCRIPT})
  target_link_options(${name} PRIVATE
    -T${FW_LINKER_SCRIPT}
    -Wl,-Map=${FIRMWARE_DIR}/${name}.map
    -Wl,--no-warn-rwx-segments)   # one RAM region holds code and data by design
  if(FW_BARE)
    target_link_libraries(${name} PRIVATE ${FW_LIBS})
  else()
    # namp_runtime is an object library: crt0 and the trap entry are always linked in, whatever
    # the application references. namp_hal is searched after the application's own libraries.
    target_link_libraries(${name} PRIVATE ${FW_LIBS} namp_runtime namp_hal)
  endif()

  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND ${CMAKE_OBJDUMP} -d -S --no-show-raw-insn $<TARGET_FILE:${name}>
            > ${FIRMWARE_DIR}/${name}.lst
    COMMENT "Disassembling ${name}.elf"
    VERBATIM)
endfunction()
