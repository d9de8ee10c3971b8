# SPDX-License-Identifier: MIT
# torchmigrate compiles against libclang's headers but does not link it: src/cxx/libclang_api.cpp
# loads it with dlopen the first time a C/C++/CUDA file needs it (docs/architecture.md). The
# library found at configure time gives the first names to try and the package to suggest.
get_filename_component(_libclang_real "${LIBCLANG_LIBRARY}" REALPATH)
set(_libclang_soname "")
if(CMAKE_OBJDUMP)
  execute_process(COMMAND "${CMAKE_OBJDUMP}" -p "${_libclang_real}" OUTPUT_VARIABLE _libclang_headers ERROR_QUIET)
  if(_libclang_headers MATCHES "SONAME +([^ \n]+)")
    set(_libclang_soname "${CMAKE_MATCH_1}")
  endif()
endif()
# Debian and Ubuntu name the runtime package libclang1-N after the LLVM major version.
set(TORCHMIGRATE_LIBCLANG_PACKAGE "libclang1-14")
if(_libclang_real MATCHES "libclang-([0-9]+)\\.so" OR LIBCLANG_INCLUDE_DIR MATCHES "llvm-([0-9]+)")
  set(TORCHMIGRATE_LIBCLANG_PACKAGE "libclang1-${CMAKE_MATCH_1}")
endif()
message(STATUS "libclang at run time: ${_libclang_soname} (${_libclang_real}), from ${TORCHMIGRATE_LIBCLANG_PACKAGE}")
set(_libclang_definitions "TORCHMIGRATE_LIBCLANG_SONAME=\"${_libclang_soname}\""
    "TORCHMIGRATE_LIBCLANG_PATH=\"${_libclang_real}\"" "TORCHMIGRATE_LIBCLANG_PACKAGE=\"${TORCHMIGRATE_LIBCLANG_PACKAGE}\"")
set_source_files_properties("${CMAKE_SOURCE_DIR}/src/cxx/libclang_api.cpp" PROPERTIES COMPILE_DEFINITIONS
                            "${_libclang_definitions}")
target_link_libraries(torchmigrate_libclang INTERFACE ${CMAKE_DL_LIBS})
