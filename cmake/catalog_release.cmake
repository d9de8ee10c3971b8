# SPDX-License-Identifier: MIT
# The release pair of the rule catalog: the oldest `release.from` and the newest `release.to` of
# rules/TM*.json. Used by embed_rules.cmake (the strings compiled into the binary) and by
# packaging.cmake (the package summary), so no version is spelled outside the catalog.
function(torchmigrate_catalog_release rules_dir from_variable to_variable)
  file(GLOB rule_files "${rules_dir}/TM*.json")
  set(release_from "")
  set(release_to "")
  foreach(rule_file IN LISTS rule_files)
    file(READ "${rule_file}" content)
    string(JSON from GET "${content}" release from)
    string(JSON to GET "${content}" release to)
    if(release_from STREQUAL "" OR from VERSION_LESS release_from)
      set(release_from "${from}")
    endif()
    if(release_to STREQUAL "" OR to VERSION_GREATER release_to)
      set(release_to "${to}")
    endif()
  endforeach()
  set(${from_variable} "${release_from}" PARENT_SCOPE)
  set(${to_variable} "${release_to}" PARENT_SCOPE)
endfunction()
