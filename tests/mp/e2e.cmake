# Firmware end-to-end tests of the message-passing library on namp-vp (included from
# tests/mp/CMakeLists.txt). Registered only when the VP target exists.
if(TARGET namp-vp)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(MP_CHECK ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/e2e/check_run.py)
  set(MP_VP $<TARGET_FILE:namp-vp>)
  set(MP_FW ${FIRMWARE_DIR})

  # mp_e2e(NAME EXIT code [EXPECT regex...] [COUNT regex=n...] [REJECT regex...] ARGS vp-args...)
  function(mp_e2e name)
    cmake_parse_arguments(T "" "EXIT" "EXPECT;COUNT;REJECT;ARGS" ${ARGN})
    set(checks --exit ${T_EXIT})
    foreach(x ${T_EXPECT})
      list(APPEND checks --expect ${x})
    endforeach()
    foreach(x ${T_COUNT})
      list(APPEND checks --count ${x})
    endforeach()
    foreach(x ${T_REJECT})
      list(APPEND checks --reject ${x})
    endforeach()
    add_test(NAME e2e.mp.${name} COMMAND ${MP_CHECK} ${checks} -- ${MP_VP} ${T_ARGS})
    set_tests_properties(e2e.mp.${name} PROPERTIES LABELS "e2e;mp" TIMEOUT 600)
  endfunction()

  # {connection-less, channel} x {buffer, RMA, RDMA}: tile 0 -> tile 15 (6 hops), 40 messages of
  # 1..1024 bytes into a 4-slot buffer, every byte and the order checked by the receiver.
  foreach(mode msg chan)
    foreach(path buffer rma rdma)
      if(mode STREQUAL msg)
        set(what messages)
      else()
        set(what channel)
      endif()
      mp_e2e(${mode}_${path} EXIT 0
        EXPECT "mp_e2e ok: ${what}, path [0-9], 40 messages intact and in order"
               "mp_e2e sender done"
        REJECT "FAIL" "FATAL"
        ARGS --firmware ${MP_FW}/mp_e2e_${mode}_${path}.elf)
    endforeach()
  endforeach()
  # 4 senders (buffer, RMA, RDMA, buffer paths) into one 2-slot endpoint, random sizes.
  mp_e2e(stress_4_to_1 EXIT 0
    EXPECT "stress ok: 600 messages from 4 senders, each exactly once, intact, in order"
    COUNT "stress sender [0-9]+ done=4"
    REJECT "FAIL" "FATAL"
    ARGS --firmware ${MP_FW}/mp_stress.elf)
  # The LogP benchmark runs to the end: 2 pairs x 2 modes x 3 paths x 11 sizes.
  mp_e2e(logp EXIT 0
    EXPECT "mp_logp done"
    COUNT "logp +0->[0-9]+ +(msg|chan) +(buffer|rma|rdma) +[0-9]+ B +o_s=132"
    REJECT "FAIL" "FATAL"
    ARGS --firmware ${MP_FW}/mp_logp.elf)
  # API semantics between tiles 0 and 1: status codes, timeouts, wait_any, cancel, truncation.
  mp_e2e(api EXIT 0
    EXPECT "mp_api ok: A, [0-9]+ checks" "mp_api ok: B, [0-9]+ checks"
    REJECT "FAIL" "FATAL"
    ARGS --firmware ${MP_FW}/mp_api.elf)
  # The protocol does not depend on the hardware parameters: 8-flit packets and 8-flit receive
  # buffers, one physical network per channel, an 8x8 mesh (tile 0 -> 63, 14 hops).
  mp_e2e(stress_small_packets EXIT 0
    EXPECT "stress ok: 600 messages"
    REJECT "FAIL" "FATAL"
    ARGS --set noc.max_packet_flits=8 --set na.rx_buffer_flits=8 --firmware ${MP_FW}/mp_stress.elf)
  mp_e2e(stress_physical_channels EXIT 0
    EXPECT "stress ok: 600 messages"
    REJECT "FAIL" "FATAL"
    ARGS --set noc.physical_channels=true --firmware ${MP_FW}/mp_stress.elf)
  mp_e2e(chan_buffer_8x8 EXIT 0
    EXPECT "mp_e2e ok: channel, path 0, 40 messages intact and in order"
    REJECT "FAIL" "FATAL"
    ARGS --set mesh.width=8 --set mesh.height=8 --firmware ${MP_FW}/mp_e2e_chan_buffer.elf)
  # 4 packet channels (paths buffer, RMA, RDMA, buffer) into tile 0, 2-slot buffers, wait_any.
  mp_e2e(stress_channels_4_to_1 EXIT 0
    EXPECT "stress ok: 600 packets on 4 channels, each exactly once, intact, in order"
    COUNT "stress sender [0-9]+ done=4"
    REJECT "FAIL" "FATAL"
    ARGS --firmware ${MP_FW}/mp_stress_chan.elf)
endif()
