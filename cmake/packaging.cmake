# SPDX-License-Identifier: MIT
# `cpack` in the build directory makes two packages of the installed binary, both with the
# LICENSE and (with help2man) a man page generated from `torchmigrate --help`:
#   - a Debian package: its dependencies from dpkg-shlibdeps plus libgit2 (loaded at run time,
#     so shlibdeps cannot see it), `Recommends: libclang1-14` (loaded only for C/C++ files; see
#     docs/architecture.md);
#   - a relocatable tarball: bin/torchmigrate with an $ORIGIN/../lib run path and, in lib/, the
#     shared libraries it needs that a Debian base system lacks, libgit2 and its own included
#     (dlopen searches the executable's run path too).
# Included from the top-level CMakeLists.txt after the torchmigrate target.

# The man page, from `torchmigrate --help` by help2man (Debian `help2man`); run through PATH so
# the usage line names `torchmigrate`, not the build directory.
include(GNUInstallDirs)
include(cmake/catalog_release.cmake)
torchmigrate_catalog_release("${CMAKE_SOURCE_DIR}/rules" _release_from _release_to)
set(TORCHMIGRATE_SUMMARY "find, explain and fix what breaks when upgrading PyTorch ${_release_from} to ${_release_to}")
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(_man_page "${CMAKE_BINARY_DIR}/man/torchmigrate.1")
  add_custom_command(
    OUTPUT "${_man_page}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/man"
    COMMAND ${CMAKE_COMMAND} -E env "PATH=$<TARGET_FILE_DIR:torchmigrate>:$ENV{PATH}"
            "${HELP2MAN}" --no-info --name "${TORCHMIGRATE_SUMMARY}" --output "${_man_page}" torchmigrate
    DEPENDS torchmigrate
    COMMENT "Writing the man page from torchmigrate --help")
  add_custom_target(man_page ALL DEPENDS "${_man_page}")
  install(FILES "${_man_page}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
else()
  message(STATUS "help2man not found: installs and packages have no man page (apt-get install help2man)")
endif()
install(FILES "${CMAKE_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

# Only the tarball ships lib/; the run path is harmless in the Debian package (/usr/lib). It is
# a DT_RPATH, not a RUNPATH, because only DT_RPATH also serves the libraries' own dependencies
# (libgit2's libssh2 and mbedTLS, also in lib/).
# Linked with it from the start: an install-time rewrite needs a padded build path (`::::`),
# whose empty entries would make the build tree's binary look for libraries in the current
# directory.
set_target_properties(torchmigrate PROPERTIES INSTALL_RPATH "\$ORIGIN/../lib" BUILD_WITH_INSTALL_RPATH ON)
target_link_options(torchmigrate PRIVATE "LINKER:--disable-new-dtags")
# A Debian base system (debootstrap's minbase) has these; everything else the binary needs is
# copied into the tarball's lib/.
set(TORCHMIGRATE_BASE_LIBRARIES
    "^ld-linux" "^libc[.]so" "^libm[.]so" "^libdl[.]so" "^libpthread[.]so" "^librt[.]so" "^libresolv[.]so"
    "^libgcc_s[.]so" "^libstdc[+][+][.]so" "^libz[.]so" "^libpcre2-8[.]so" "^liblzma[.]so" "^libzstd[.]so"
    "^linux-vdso")
install(CODE "
  file(GET_RUNTIME_DEPENDENCIES EXECUTABLES \"$<TARGET_FILE:torchmigrate>\" LIBRARIES \"${TORCHMIGRATE_LIBGIT2_PATH}\"
       RESOLVED_DEPENDENCIES_VAR _torchmigrate_libraries UNRESOLVED_DEPENDENCIES_VAR _torchmigrate_missing
       PRE_EXCLUDE_REGEXES ${TORCHMIGRATE_BASE_LIBRARIES})
  if(_torchmigrate_missing)
    message(FATAL_ERROR \"libraries of torchmigrate not found: \${_torchmigrate_missing}\")
  endif()
  list(APPEND _torchmigrate_libraries \"${TORCHMIGRATE_LIBGIT2_SONAME_PATH}\")
  file(INSTALL \${_torchmigrate_libraries} DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib\" FOLLOW_SYMLINK_CHAIN)
" COMPONENT bundled_libraries)

set(CPACK_PACKAGE_NAME torchmigrate)
set(CPACK_PACKAGE_VENDOR "The torchmigrate authors")
set(CPACK_PACKAGE_CONTACT "The torchmigrate authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${TORCHMIGRATE_SUMMARY}")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_PACKAGE_FILE_NAME "torchmigrate-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${TORCHMIGRATE_LIBGIT2_PACKAGE}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${TORCHMIGRATE_LIBCLANG_PACKAGE}")
set(CPACK_TORCHMIGRATE_BUILD_DIR "${CMAKE_BINARY_DIR}")  # for the file below
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_SOURCE_DIR}/cmake/packaging_per_generator.cmake")
include(CPack)
