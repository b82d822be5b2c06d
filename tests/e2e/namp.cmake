# NAMP platform end-to-end cases (included at the end of tests/e2e/CMakeLists.txt): baseline
# firmware keeps working beside an enabled NAMP, configuration errors, --list-config. The NAMP
# firmware cases (MCAPI over the NAMP) are in tests/mp/e2e.cmake.
namp_e2e(namp_hello_bare EXIT 0
  COUNT "hello from tile=16"
  ARGS --preset bare --firmware ${FW}/hello.elf)
namp_e2e(namp_baseline_msg_buffer_bare EXIT 0
  EXPECT "mp_e2e ok: messages, path [0-9], mode [0-9], 40 messages intact and in order"
  REJECT "FAIL" "FATAL"
  ARGS --preset bare --firmware ${FW}/mp_e2e_msg_buffer.elf)
namp_e2e(namp_baseline_chan_rdma_baremsg EXIT 0
  EXPECT "mp_e2e ok: channel, path [0-9], mode [0-9], 40 messages intact and in order"
  REJECT "FAIL" "FATAL"
  ARGS --preset baremsg --firmware ${FW}/mp_e2e_chan_rdma.elf)
namp_e2e(namp_na_ping_enabled EXIT 0
  EXPECT "ping ok: 24 replies"
  ARGS --set mesh.width=2 --set mesh.height=2 --set namp.enabled=true --firmware ${FW}/na_ping.elf)
namp_e2e(namp_list_config EXIT 0
  EXPECT "namp.enabled" "namp.arbitration" "namp.retry_cycles" "namp.rx_count_gating"
  ARGS --list-config)
namp_e2e(bad_config_namp_arbitration EXIT 2
  EXPECT "'namp.arbitration' must be lrs, qos or map, not 'fifo'"
  ARGS --set namp.arbitration=fifo --firmware ${FW}/hello.elf)
namp_e2e(bad_config_namp_without_na EXIT 2
  EXPECT "'namp.enabled' needs na.enabled = true"
  ARGS --set namp.enabled=true --set na.enabled=false --firmware ${FW}/hello.elf)
# Deterministic NAMP statistics with completed transfers (firmware of tests/mp/e2e.cmake).
add_test(NAME e2e.namp_stats_deterministic
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/namp_stats.sh ${VP} --preset bare
          --firmware ${FW}/mp_e2e_msg_namp_unbuf.elf)
set_tests_properties(e2e.namp_stats_deterministic PROPERTIES LABELS e2e TIMEOUT 300)
# The same NAMP run with and without SystemC's stack guard pages (host.stack_guards): identical
# statistics. 2x2 tiles with the NAMP: 9 threads each. A sanitizer build keeps the guard pages.
if(NAMP_SANITIZE)
  set(stack_guards_expect refused)
else()
  set(stack_guards_expect skip)
endif()
add_test(NAME e2e.stack_guards_same_statistics
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/stack_guards.sh ${stack_guards_expect} 36 ${VP} --preset bare
          --set mesh.width=2 --set mesh.height=2 --firmware ${FW}/namp_a2a.elf)
set_tests_properties(e2e.stack_guards_same_statistics PROPERTIES LABELS e2e TIMEOUT 300)
