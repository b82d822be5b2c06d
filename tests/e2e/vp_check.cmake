# namp_vp_check(TEST_NAME EXIT code [LABELS l...] [TIMEOUT s] [STDOUT file] [EXPECT regex...] [COUNT regex=n...]
#               [REJECT regex...] ARGS vp-args...)
# Registers a ctest that runs namp-vp through check_run.py and checks exit code and output.
# Shared by the e2e suites of the platform (tests/e2e) and the message-passing library (tests/mp).
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# namp_record_run(TEST_NAME LABELS vp-args...): remembers a namp-vp run of the suite; tests/engines
# runs each of them with every ISS engine and compares the results. Arguments are kept tab-joined.
# The runs' results, kept by check_run.py --record for engines.all_runs_* (the default engine's run)
set(NAMP_ENGINE_RECORDS ${CMAKE_BINARY_DIR}/engine-records)
function(namp_record_run test_name labels)
  list(JOIN labels "," label_text)
  list(JOIN ARGN "\t" arg_text)
  set_property(GLOBAL APPEND PROPERTY NAMP_VP_RUNS "${test_name}\t${label_text}\t${arg_text}")
endfunction()

function(namp_vp_check test_name)
  # NORECORD: not a simulation the engines could differ in (--print-config echoes core.engine)
  cmake_parse_arguments(T "NORECORD" "EXIT;TIMEOUT;STDOUT" "LABELS;EXPECT;COUNT;REJECT;ARGS" ${ARGN})
  set(checks --exit ${T_EXIT})
  if(T_STDOUT)
    list(APPEND checks --stdout ${T_STDOUT})
  endif()
  foreach(x ${T_EXPECT})
    list(APPEND checks --expect ${x})
  endforeach()
  foreach(x ${T_COUNT})
    list(APPEND checks --count ${x})
  endforeach()
  foreach(x ${T_REJECT})
    list(APPEND checks --reject ${x})
  endforeach()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  if(NOT T_NORECORD AND NOT T_STDOUT)
    list(APPEND checks --record ${NAMP_ENGINE_RECORDS}/${test_name}.json)
    # label recorded: scripts/test runs it in the normal build too, for the record
    list(APPEND T_LABELS recorded)
  endif()
  add_test(NAME ${test_name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/e2e/check_run.py ${checks}
            -- $<TARGET_FILE:namp-vp> ${T_ARGS})
  set_tests_properties(${test_name} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT})
  if(NOT T_NORECORD)
    namp_record_run(${test_name} "${T_LABELS}" ${T_ARGS})
  endif()
endfunction()
