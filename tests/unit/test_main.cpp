// SPDX-License-Identifier: MIT
// Catch2's runner, compiled once for all test programs.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
