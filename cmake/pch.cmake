# Precompiled headers for the host C++ targets (docs/robustness.md "Build time"): SystemC, TLM,
# nlohmann/json and GoogleTest parsed once per target instead of once per file. On by default with
# clang (the sanitizer build: 291 s instead of 411-450 s on two cores), off with gcc, where they
# gained nothing (325 s without, 334 s with: a gcc PCH takes about 9 s to write and about as long
# to load as the headers take to parse). NAMP_PCH=OFF also checks that every file includes what
# it uses.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(namp_pch_default ON)
else()
  set(namp_pch_default OFF)
endif()
option(NAMP_PCH "Precompiled headers for the host C++ targets" ${namp_pch_default})
set(NAMP_PCH_DIR ${CMAKE_CURRENT_LIST_DIR}/pch)

# namp_precompile_headers(<target> [SYSTEMC] [GTEST]): SYSTEMC only for targets that link
# SystemC (its header defines a version-check object that needs the library).
function(namp_precompile_headers target)
  cmake_parse_arguments(PCH "SYSTEMC;GTEST" "" "" ${ARGN})
  if(NOT NAMP_PCH)
    return()
  endif()
  set(headers)
  if(PCH_SYSTEMC)
    list(APPEND headers ${NAMP_PCH_DIR}/systemc_pch.h)
  endif()
  if(PCH_GTEST)
    list(APPEND headers ${NAMP_PCH_DIR}/gtest_pch.h)
  endif()
  target_precompile_headers(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${headers}>")
endfunction()
