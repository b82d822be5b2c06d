# Command-line checks of issue 22 (docs/cli.md): outputs checked before the run, options that need
# another, "did you mean", write errors on every output. Each case fails if the check is missing.
set(FW ${FIRMWARE_DIR})
# test_watchdog spins forever: a check that came only after the run would hit the watchdog instead.
set(SPIN --firmware ${FW}/test_watchdog.elf --max-cycles 200000000)
namp_vp_check(e2e.cli.stats_path_checked_first EXIT 2 LABELS cli
  EXPECT "--stats: cannot write '/nonexistent/dir/s.json': No such file or directory"
  REJECT "cycles simulated" ARGS ${SPIN} --stats /nonexistent/dir/s.json)
namp_vp_check(e2e.cli.log_file_checked_first EXIT 2 LABELS cli
  EXPECT "--log-file: cannot write '/nonexistent/dir/l.txt'" REJECT "cycles simulated"
  ARGS ${SPIN} --log trap --log-file /nonexistent/dir/l.txt)
namp_vp_check(e2e.cli.trace_path_checked_first EXIT 2 LABELS cli
  EXPECT "--trace: cannot write '/nonexistent/dir/t.json'" REJECT "cycles simulated"
  ARGS ${SPIN} --trace /nonexistent/dir/t.json)
foreach(opt log-tiles log-cores log-window log-range log-limit log-file)
  namp_vp_check(e2e.cli.${opt}_needs_log EXIT 2 LABELS cli EXPECT "--${opt} needs --log LIST"
    REJECT "cycles simulated" ARGS ${SPIN} --${opt} 0)
endforeach()
namp_vp_check(e2e.cli.key_did_you_mean EXIT 2 LABELS cli
  EXPECT "unknown configuration key 'tile.coress' \\(did you mean 'tile.cores'\\?\\)"
  ARGS --firmware ${FW}/hello.elf --set tile.coress=2)
namp_vp_check(e2e.cli.file_key_did_you_mean EXIT 2 LABELS cli
  EXPECT "unknown configuration key 'mesh.widht' \\(did you mean 'mesh.width'\\?\\)"
  ARGS --firmware ${FW}/hello.elf --config ${CMAKE_CURRENT_SOURCE_DIR}/typo.json)
namp_vp_check(e2e.cli.preset_did_you_mean EXIT 2 LABELS cli
  EXPECT "unknown preset 'smpp' \\(did you mean 'smp'\\?\\)" ARGS --firmware ${FW}/hello.elf --preset smpp)
namp_vp_check(e2e.cli.no_suggestion_for_nonsense EXIT 2 LABELS cli
  EXPECT "unknown preset 'qqqqqqqq'" REJECT "did you mean" ARGS --firmware ${FW}/hello.elf --preset qqqqqqqq)
# A full disk (/dev/full) on any output: a message naming it and a non-zero exit.
namp_vp_check(e2e.cli.full_stats EXIT 2 LABELS cli EXPECT "error: cannot write statistics to '/dev/full'"
  EXPECT "exit code 2" ARGS --firmware ${FW}/hello.elf --stats /dev/full)
namp_vp_check(e2e.cli.full_trace EXIT 2 LABELS cli EXPECT "error: cannot write the trace to '/dev/full'"
  ARGS --firmware ${FW}/hello.elf --trace /dev/full)
namp_vp_check(e2e.cli.full_console EXIT 2 LABELS cli STDOUT /dev/full
  EXPECT "error: cannot write the console output \\(standard output\\)" ARGS --firmware ${FW}/hello.elf)
namp_vp_check(e2e.cli.full_console_file EXIT 2 LABELS cli
  EXPECT "error: cannot write console.file '/dev/full'" ARGS --firmware ${FW}/hello.elf --quiet --set console.file=/dev/full)
namp_vp_check(e2e.cli.full_log EXIT 2 LABELS cli EXPECT "error: cannot write the log to '/dev/full'"
  ARGS --firmware ${FW}/hello.elf --log insn --log-file /dev/full)
# Issue 35: the log ends the run at its first write error, not after simulating to the end (the
# spinning firmware would otherwise reach the watchdog, exit 124).
namp_vp_check(e2e.cli.log_full_ends_run EXIT 2 LABELS cli
  EXPECT "the log could not be written to '/dev/full' \\(No space left on device\\): the run ends at cycle"
  EXPECT "error: cannot write the log to '/dev/full'" REJECT "watchdog"
  ARGS ${SPIN} --log insn --log-file /dev/full)
# Issue 35: a --log-tiles/--log-cores filter naming what the platform does not have is an input
# error (it would give an empty log and exit 0).
namp_vp_check(e2e.cli.log_tiles_outside EXIT 2 LABELS cli
  EXPECT "--log-tiles: there is no tile 99 \\(the 4x4 mesh has tiles 0..15\\)" REJECT "cycles simulated"
  ARGS ${SPIN} --log insn --log-tiles 3,99)
namp_vp_check(e2e.cli.log_cores_outside EXIT 2 LABELS cli
  EXPECT "--log-cores: there is no core 7 \\(a tile has 1 core: 0, tile.cores\\)" REJECT "cycles simulated"
  ARGS ${SPIN} --log insn --log-cores 7)
# Issue 35: an image linked for a larger SRAM than the tile's is refused before the run (its
# stacks would lie past the end: every core faulted), naming both sizes; --area refuses it too.
set(SRAM2M_WHY "its stacks end at 0x80200000 \\(__stack_top\\), outside the tile SRAM .0x80000000, 0x80100000.: the image is linked for an SRAM of 2097152 bytes, the tile has 1048576 \\(tile.sram_size\\)")
namp_vp_check(e2e.cli.sram_too_small EXIT 2 LABELS cli EXPECT "${SRAM2M_WHY}"
  "or run with --set tile.sram_size=2097152" REJECT "cycles simulated" REJECT "FATAL TRAP"
  ARGS --firmware ${FW}/test_sram_2m.elf)
namp_vp_check(e2e.cli.sram_too_small_area EXIT 2 LABELS cli EXPECT "${SRAM2M_WHY}"
  ARGS --area --firmware ${FW}/test_sram_2m.elf)
namp_vp_check(e2e.cli.sram_2m_fits EXIT 42 LABELS cli EXPECT "exiting with 42"
  ARGS --preset single --set tile.sram_size=2097152 --firmware ${FW}/test_sram_2m.elf)
# a failing firmware keeps its own exit code when an output also fails
namp_vp_check(e2e.cli.full_stats_keeps_firmware_code EXIT 42 LABELS cli
  EXPECT "cannot write statistics" ARGS --preset single --firmware ${FW}/test_exit_code.elf --stats /dev/full)
# A NAMP firmware on the default preset (no NAMP): the failure names the presets that have it.
namp_vp_check(e2e.cli.namp_firmware_names_presets EXIT 1 LABELS cli
  EXPECT "note: .*mp_e2e_msg_namp_unbuf.elf drives the NAMP, but this configuration has none \\(namp.enabled is false\\): run it with a preset that has the NAMP: baremsg, barechan, bare, barered, baresg, barecc"
  ARGS --firmware ${FW}/mp_e2e_msg_namp_unbuf.elf)
namp_vp_check(e2e.cli.no_namp_note_on_success EXIT 0 LABELS cli REJECT "drives the NAMP"
  ARGS --preset bare --firmware ${FW}/mp_e2e_msg_namp_unbuf.elf)
# namp-vp --traffic (docs/noc.md): the NoC alone with synthetic traffic; its keys are checked
# before anything runs, with the names it knows.
namp_vp_check(e2e.traffic.run EXIT 0 LABELS cli
  EXPECT "traffic uniform at 0.3 flits/cycle/tile on 4x4: accepted 0.30[0-9]*, latency [0-9.]+ cycles; traffic drained"
  ARGS --traffic --set traffic.rate=0.3)
namp_vp_check(e2e.traffic.no_firmware EXIT 2 LABELS cli
  EXPECT "--traffic runs no firmware: --firmware does not apply" ARGS --traffic --firmware ${FW}/hello.elf)
namp_vp_check(e2e.traffic.pattern_did_you_mean EXIT 2 LABELS cli
  EXPECT "'traffic.pattern' must be one of uniform, .* not 'transpse' \\(did you mean 'transpose'\\?\\)"
  ARGS --traffic --set traffic.pattern=transpse)
namp_vp_check(e2e.traffic.packet_longer_than_the_noc_allows EXIT 2 LABELS cli
  EXPECT "'traffic.packet_flits' \\(40\\) must be at most noc.max_packet_flits \\(32\\)"
  ARGS --traffic --set traffic.packet_flits=40)
namp_vp_check(e2e.traffic.rate_is_a_number EXIT 2 LABELS cli
  EXPECT "'traffic.rate' must be a number in \\[0, 64\\]" ARGS --traffic --set traffic.rate=fast)
namp_vp_check(e2e.traffic.saturated_still_drains EXIT 0 LABELS cli EXPECT "traffic drained"
  ARGS --traffic --set traffic.pattern=hotspot --set traffic.rate=1.0 --set mesh.width=8 --set mesh.height=8)
namp_vp_check(e2e.cli.print_config NORECORD EXIT 0 LABELS cli EXPECT "\"slots_virt\": 4" "\"leakage_pw_per_gate\": 18800"
  ARGS --preset svfull --print-config)
namp_vp_check(e2e.cli.energy_figures NORECORD EXIT 0 LABELS cli
  EXPECT "\\| `energy.leakage_pw_per_gate` \\| 18800 \\| pW \\|" "Horowitz, ISSCC 2014" ARGS --energy-figures)
