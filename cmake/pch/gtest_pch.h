// Precompiled into the GoogleTest executables (cmake/pch.cmake).
#pragma once
#include <gtest/gtest.h>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
