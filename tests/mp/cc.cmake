# NAMP-CC firmware end-to-end tests (included from tests/mp/CMakeLists.txt): multicast to groups of
# 1..15 members with random sizes, every byte and the order checked by every member, over NAMP-CC
# (preset bare: every send in hardware), a NAMP without CC and the software transport (every send
# a software loop). A missing preset or feature fails the run (the hw=/sw= counts), never skips.
if(TARGET namp-vp)
  set(CC_FW ${FIRMWARE_DIR})
  foreach(mode msg chan)
    # messages: one more multicast behind a non-blocking send must take the software loop and
    # arrive after that send (member 1 checks the order)
    if(mode STREQUAL "msg")
      set(what messages)
      set(nocc baremsg)
      set(extra 1)
      set(checks 16)
    else()
      set(what channels)
      set(nocc barechan)
      set(extra 0)
      set(checks 15)
    endif()
    math(EXPR swall "30 + ${extra}")
    set(ok "namp_cc mcast ok: ${what}, 15 groups x 2 rounds")
    namp_vp_check(e2e.mp.namp.cc_mcast_${mode} EXIT 0 LABELS e2e mp namp cc TIMEOUT 600
      EXPECT "${ok}, hw=30 sw=${extra} features=0x1000, ${checks} checks"
      COUNT "namp_cc member [0-9]+ ok: [0-9]+ messages intact and in order=15"
      REJECT "FAIL" "FATAL"
      ARGS --preset bare --max-cycles 100000000 --firmware ${CC_FW}/namp_cc_mcast_${mode}_mp_namp.elf)
    namp_vp_check(e2e.mp.namp.cc_mcast_${mode}_nocc EXIT 0 LABELS e2e mp namp cc TIMEOUT 600
      EXPECT "${ok}, hw=0 sw=${swall} features=0x0, ${checks} checks"
      COUNT "namp_cc member [0-9]+ ok: [0-9]+ messages intact and in order=15"
      REJECT "FAIL" "FATAL"
      ARGS --preset ${nocc} --max-cycles 100000000 --firmware ${CC_FW}/namp_cc_mcast_${mode}_mp_namp.elf)
    namp_vp_check(e2e.mp.cc_mcast_${mode}_sw EXIT 0 LABELS e2e mp cc TIMEOUT 600
      EXPECT "${ok}, hw=0 sw=${swall} features=0x0, ${checks} checks"
      COUNT "namp_cc member [0-9]+ ok: [0-9]+ messages intact and in order=15"
      REJECT "FAIL" "FATAL"
      ARGS --max-cycles 100000000 --firmware ${CC_FW}/namp_cc_mcast_${mode}_mp.elf)
  endforeach()
endif()
if(TARGET namp-vp)
  # Fig. 3.21 claims on simulated cycles (docs/namp-benchmarks.md, "Collective communication")
  add_test(NAME e2e.mp.namp.cc_claims
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/mp/cc_claims.py
                   $<TARGET_FILE:namp-vp> ${FIRMWARE_DIR})
  set_tests_properties(e2e.mp.namp.cc_claims PROPERTIES LABELS "e2e;mp;namp;cc;claims" TIMEOUT 300)
endif()
if(TARGET namp-vp)
  # Reduction: every op x type (8 x 6) of 4 contributions, compared with host-computed results;
  # in the adapter (preset barered: the root's endpoint combines in hardware), and in software
  # (preset bare without reduction, and the software transport). A missing preset fails.
  function(cc_reduce name hw)
    add_test(NAME ${name}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/mp/cc_reduce_check.py --hw ${hw}
                     -- $<TARGET_FILE:namp-vp> --max-cycles 100000000 ${ARGN})
    set_tests_properties(${name} PROPERTIES LABELS "e2e;mp;namp;cc" TIMEOUT 600)
    namp_record_run(${name} "e2e;mp;namp;cc" --max-cycles 100000000 ${ARGN})
  endfunction()
  cc_reduce(e2e.mp.namp.cc_reduce 1 --preset barered --firmware ${FIRMWARE_DIR}/namp_cc_reduce_mp_namp.elf)
  cc_reduce(e2e.mp.namp.cc_reduce_nocc 0 --preset bare --firmware ${FIRMWARE_DIR}/namp_cc_reduce_mp_namp.elf)
  cc_reduce(e2e.mp.cc_reduce_sw 0 --firmware ${FIRMWARE_DIR}/namp_cc_reduce_mp.elf)
endif()
if(TARGET namp-vp)
  # 4x4 stress: multicasts (1..15 members), allreduce of 15 contributions, a gather of 15 parts
  # and a ring of
  # point-to-point messages at once, 30 rounds, every byte and the order checked.
  foreach(v "barecc;hw=60 sw=0 reduce_hw=1 gather_hw=1;namp_cc_stress_mp_namp;e2e.mp.namp.cc_stress"
            "barered;hw=60 sw=0 reduce_hw=1 gather_hw=0;namp_cc_stress_mp_namp;e2e.mp.namp.cc_stress_nosg"
            "bare;hw=60 sw=0 reduce_hw=0 gather_hw=0;namp_cc_stress_mp_namp;e2e.mp.namp.cc_stress_nored"
            "default;hw=0 sw=60 reduce_hw=0 gather_hw=0;namp_cc_stress_mp;e2e.mp.cc_stress_sw")
    list(GET v 0 preset)
    list(GET v 1 counts)
    list(GET v 2 fw)
    list(GET v 3 name)
    set(labels e2e mp cc)
    if(NOT preset STREQUAL "barecc")
      list(APPEND labels stress)  # the sanitizer job runs the full-CC variant only
    endif()
    namp_vp_check(${name} EXIT 0 LABELS ${labels} TIMEOUT 600
      EXPECT "cc_stress ok: 30 rounds, ${counts}"
      COUNT "cc_stress member [0-9]+ ok: [0-9]+ multicasts, 30 point-to-point=15"
      REJECT "FAIL" "FATAL"
      ARGS --preset ${preset} --max-cycles 200000000 --firmware ${CC_FW}/${fw}.elf)
  endforeach()
endif()
if(TARGET namp-vp)
  # Scatter: matrix column blocks (odd widths, strides and bases, sizes 1..3, 1..20 rows) to
  # groups of 1..15 channels, every byte checked; in the adapter (baresg) and in software.
  foreach(v "baresg;hw=30 sw=0 features=0x3000;namp_cc_scatter_mp_namp;e2e.mp.namp.cc_scatter"
            "bare;hw=0 sw=30 features=0x1000;namp_cc_scatter_mp_namp;e2e.mp.namp.cc_scatter_nosg"
            "default;hw=0 sw=30 features=0x0;namp_cc_scatter_mp;e2e.mp.cc_scatter_sw")
    list(GET v 0 preset)
    list(GET v 1 counts)
    list(GET v 2 fw)
    list(GET v 3 name)
    namp_vp_check(${name} EXIT 0 LABELS e2e mp cc TIMEOUT 600
      EXPECT "scatter ok: 15 groups x 2 rounds, ${counts}, 5 checks"
      COUNT "scatter member [0-9]+ ok: [0-9]+ parts intact=15"
      REJECT "FAIL" "FATAL"
      ARGS --preset ${preset} --max-cycles 200000000 --firmware ${CC_FW}/${fw}.elf)
  endforeach()
endif()
if(TARGET namp-vp)
  # Gather: 1..15 parts with column blocks of odd widths into one message, every byte checked at
  # the root; in the adapter (baresg), on a NAMP without scatter/gather, in software.
  foreach(v "baresg;hw roots=15 features=0x3000;namp_cc_gather_mp_namp;e2e.mp.namp.cc_gather"
            "bare;hw roots=0 features=0x1000;namp_cc_gather_mp_namp;e2e.mp.namp.cc_gather_nosg"
            "baresg;hw roots=0 features=0x3000;namp_cc_gather_swpath;e2e.mp.namp.cc_gather_swpath"
            "default;hw roots=0 features=0x0;namp_cc_gather_mp;e2e.mp.cc_gather_sw")
    list(GET v 0 preset)
    list(GET v 1 counts)
    list(GET v 2 fw)
    list(GET v 3 name)
    namp_vp_check(${name} EXIT 0 LABELS e2e mp cc TIMEOUT 600
      EXPECT "gather ok: 15 groups x 3 rounds, ${counts}"
      COUNT "gather part [0-9]+ ok: [0-9]+ parts=15"
      REJECT "FAIL" "FATAL"
      ARGS --preset ${preset} --max-cycles 200000000 --firmware ${CC_FW}/${fw}.elf)
  endforeach()
endif()
