# SPDX-License-Identifier: MIT
# torchmigrate compiles against libgit2's headers but does not link it: src/engine/workspace/libgit2_api.cpp
# loads it with dlopen the first time a run asks git a question (.gitignore, globs); see
# docs/architecture.md. The library found at configure time gives the first names to try and the
# package to name when it is missing. Sets TORCHMIGRATE_LIBGIT2_PATH (the file), _SONAME_PATH (its
# SONAME link, what dlopen asks for) and _PACKAGE.
find_library(LIBGIT2_LIBRARY NAMES git2 HINTS ${LIBGIT2_LIBRARY_DIRS})
if(NOT LIBGIT2_LIBRARY)
  message(FATAL_ERROR "libgit2 was not found: install libgit2-dev")
endif()
get_filename_component(TORCHMIGRATE_LIBGIT2_PATH "${LIBGIT2_LIBRARY}" REALPATH)
set(_libgit2_soname "")
if(CMAKE_OBJDUMP)
  execute_process(COMMAND "${CMAKE_OBJDUMP}" -p "${TORCHMIGRATE_LIBGIT2_PATH}" OUTPUT_VARIABLE _libgit2_headers
                  ERROR_QUIET)
  if(_libgit2_headers MATCHES "SONAME +([^ \n]+)")
    set(_libgit2_soname "${CMAKE_MATCH_1}")
  endif()
endif()
get_filename_component(_libgit2_directory "${TORCHMIGRATE_LIBGIT2_PATH}" DIRECTORY)
set(TORCHMIGRATE_LIBGIT2_SONAME_PATH "${TORCHMIGRATE_LIBGIT2_PATH}")
if(_libgit2_soname AND EXISTS "${_libgit2_directory}/${_libgit2_soname}")
  set(TORCHMIGRATE_LIBGIT2_SONAME_PATH "${_libgit2_directory}/${_libgit2_soname}")
endif()
# Debian names the runtime package after the SONAME: libgit2.so.1.5 is in libgit2-1.5.
set(TORCHMIGRATE_LIBGIT2_PACKAGE "libgit2-1.5")
if(_libgit2_soname MATCHES "^libgit2[.]so[.]([0-9.]+)$")
  set(TORCHMIGRATE_LIBGIT2_PACKAGE "libgit2-${CMAKE_MATCH_1}")
endif()
message(STATUS "libgit2 at run time: ${_libgit2_soname} (${TORCHMIGRATE_LIBGIT2_PATH}), from ${TORCHMIGRATE_LIBGIT2_PACKAGE}")
set_source_files_properties(
  "${CMAKE_SOURCE_DIR}/src/engine/workspace/libgit2_api.cpp" PROPERTIES COMPILE_DEFINITIONS
  "TORCHMIGRATE_LIBGIT2_SONAME=\"${_libgit2_soname}\";TORCHMIGRATE_LIBGIT2_PATH=\"${TORCHMIGRATE_LIBGIT2_PATH}\";TORCHMIGRATE_LIBGIT2_PACKAGE=\"${TORCHMIGRATE_LIBGIT2_PACKAGE}\"")
