# Generates a C++ source holding every rules/*.json file as a string, so an installed binary
# needs no data files. Run with -DRULES_DIR=... -DOUTPUT=... (a .cpp; its header sits beside it).
file(GLOB rule_files "${RULES_DIR}/TM*.json")
list(SORT rule_files)
set(entries "")
set(catalog_text "")
include("${CMAKE_CURRENT_LIST_DIR}/catalog_release.cmake")
torchmigrate_catalog_release("${RULES_DIR}" release_from release_to release_first_to)
foreach(rule_file IN LISTS rule_files)
  get_filename_component(name "${rule_file}" NAME)
  file(READ "${rule_file}" content)
  string(APPEND catalog_text "${name}\n${content}\n")
  # `docs` (most of the bytes) is embedded apart, read only when a report or the editor asks.
  string(JSON docs GET "${content}" docs)
  string(JSON core REMOVE "${content}" docs)
  string(APPEND entries "    {\"${name}\", R\"tm_json(${core})tm_json\", R\"tm_json(${docs})tm_json\"},\n")
endforeach()
# Names this catalog in the result cache's keys, computed here so no run hashes the rules again.
string(SHA256 catalog_digest "${catalog_text}")
get_filename_component(output_dir "${OUTPUT}" DIRECTORY)
file(WRITE "${output_dir}/embedded_rules.hpp.tmp"
"// Generated from rules/*.json at build time; do not edit.
#pragma once
#include <span>
#include <string_view>
namespace torchmigrate::engine {
struct EmbeddedRule { std::string_view file_name; std::string_view json; std::string_view docs; };
std::span<const EmbeddedRule> embedded_rules();
struct EmbeddedRelease { std::string_view from, to, first_to; };
EmbeddedRelease embedded_release();
// SHA-256 of every rule file (names and bytes), as lowercase hex.
std::string_view embedded_catalog_digest();
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
EmbeddedRelease embedded_release() { return {\"${release_from}\", \"${release_to}\", \"${release_first_to}\"}; }
std::string_view embedded_catalog_digest() { return \"${catalog_digest}\"; }
}  // namespace torchmigrate::engine
")
# Only touch the outputs when they change, so a no-op rebuild recompiles nothing.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${output_dir}/embedded_rules.hpp.tmp" "${output_dir}/embedded_rules.hpp")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
