# SPDX-License-Identifier: MIT
# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE): the Debian package installs to
# /usr and leaves the libraries to its dependencies; the tarball carries them in lib/.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_INSTALL_CMAKE_PROJECTS "${CPACK_TORCHMIGRATE_BUILD_DIR};torchmigrate;Unspecified;/")
else()
  set(CPACK_INSTALL_CMAKE_PROJECTS "${CPACK_TORCHMIGRATE_BUILD_DIR};torchmigrate;ALL;/")
endif()
