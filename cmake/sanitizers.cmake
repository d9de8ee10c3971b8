# SPDX-License-Identifier: MIT
# Sanitizer builds and libFuzzer targets. Included from the top-level CMakeLists.txt before any
# target is defined, so the flags apply to every library, program and test.
#
#   -DTORCHMIGRATE_SANITIZE=address,undefined   the whole product and test suite with sanitizers
#                                               (g++ or clang); errors are not recoverable
#   -DTORCHMIGRATE_BUILD_FUZZERS=ON             libFuzzer targets in fuzz/ (clang only); the
#                                               libraries get coverage instrumentation and
#                                               ASan/UBSan, see scripts/fuzz.sh
#     -DTORCHMIGRATE_FUZZ_SANITIZERS=           ... with the instrumentation flags left to
#     -DTORCHMIGRATE_FUZZ_ENGINE=...            CFLAGS/CXXFLAGS and libFuzzer linked as told
#                                               (ClusterFuzzLite: .clusterfuzzlite/build.sh)
set(TORCHMIGRATE_SANITIZE "" CACHE STRING "Sanitizers for the whole build, e.g. address,undefined (empty: none)")
option(TORCHMIGRATE_BUILD_FUZZERS "Build the libFuzzer targets in fuzz/ (requires clang)" OFF)
set(TORCHMIGRATE_FUZZ_SANITIZERS "address,undefined"
    CACHE STRING "Sanitizers of the fuzz build (empty: CFLAGS/CXXFLAGS bring the instrumentation)")
set(TORCHMIGRATE_FUZZ_ENGINE "-fsanitize=fuzzer" CACHE STRING "How a fuzz program links libFuzzer")

if(TORCHMIGRATE_SANITIZE)
  message(STATUS "Sanitizers: ${TORCHMIGRATE_SANITIZE}")
  add_compile_options(-fsanitize=${TORCHMIGRATE_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${TORCHMIGRATE_SANITIZE})
endif()

if(TORCHMIGRATE_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TORCHMIGRATE_BUILD_FUZZERS needs clang for C and C++ "
                        "(e.g. -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14); "
                        "scripts/fuzz.sh configures this for you")
  endif()
  if(TORCHMIGRATE_SANITIZE)
    message(FATAL_ERROR "TORCHMIGRATE_BUILD_FUZZERS already builds with address,undefined: leave TORCHMIGRATE_SANITIZE empty")
  endif()
  # Coverage feedback and sanitizers in every library; only the fuzz programs link libFuzzer's main.
  if(TORCHMIGRATE_FUZZ_SANITIZERS)
    add_compile_options(-fsanitize=fuzzer-no-link,${TORCHMIGRATE_FUZZ_SANITIZERS} -fno-sanitize-recover=all
                        -fno-omit-frame-pointer -g)
    add_link_options(-fsanitize=${TORCHMIGRATE_FUZZ_SANITIZERS})
  endif()
endif()
