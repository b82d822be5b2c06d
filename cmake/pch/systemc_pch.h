// Precompiled into every host C++ target that links SystemC (cmake/pch.cmake): the library headers
// nearly every file includes and that take most of a file's compile time (parsing <systemc> alone
// is about 0.9 s). Only third-party and standard headers: a project header here would rebuild the
// whole target on every change to it.
#pragma once
// sc_spawn: a few models and tests use dynamic processes; defined for all, as SystemC wants it
// defined before its header.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>
