# Generates a C++ source holding every rules/*.json file as a string, so an installed binary
# needs no data files. Run with -DRULES_DIR=... -DOUTPUT=... (a .cpp; its header sits beside it).
file(GLOB rule_files "${RULES_DIR}/TM*.json")
list(SORT rule_files)
set(entries "")
include("${CMAKE_CURRENT_LIST_DIR}/catalog_release.cmake")
torchmigrate_catalog_release("${RULES_DIR}" release_from release_to)
foreach(rule_file IN LISTS rule_files)
  get_filename_component(name "${rule_file}" NAME)
  file(READ "${rule_file}" content)
  # `docs` (most of the bytes) is embedded apart, read only when a report or the editor asks.
  string(JSON docs GET "${content}" docs)
  string(JSON core REMOVE "${content}" docs)
  string(APPEND entries "    {\"${name}\", R\"tm_json(${core})tm_json\", R\"tm_json(${docs})tm_json\"},\n")
endforeach()
get_filename_component(output_dir "${OUTPUT}" DIRECTORY)
file(WRITE "${output_dir}/embedded_rules.hpp.tmp"
"// Generated from rules/*.json at build time; do not edit.
#pragma once
#include <span>
#include <string_view>
namespace torchmigrate::engine {
struct EmbeddedRule { std::string_view file_name; std::string_view json; std::string_view docs; };
std::span<const EmbeddedRule> embedded_rules();
struct EmbeddedRelease { std::string_view from, to; };
EmbeddedRelease embedded_release();
}  // namespace torchmigrate::engine
")
file(WRITE "${OUTPUT}.tmp"
"// Generated from rules/*.json at build time; do not edit.
#include \"embedded_rules.hpp\"
namespace torchmigrate::engine {
namespace {
const EmbeddedRule kRules[] = {
${entries}};
}  // namespace
std::span<const EmbeddedRule> embedded_rules() { return kRules; }
EmbeddedRelease embedded_release() { return {\"${release_from}\", \"${release_to}\"}; }
}  // namespace torchmigrate::engine
")
# Only touch the outputs when they change, so a no-op rebuild recompiles nothing.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${output_dir}/embedded_rules.hpp.tmp" "${output_dir}/embedded_rules.hpp")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
