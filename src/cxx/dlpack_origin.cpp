// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/dlpack_origin.hpp"

namespace torchmigrate::cxx {

bool ends_with_components(std::string_view path, std::string_view tail) {
  if (!path.ends_with(tail)) return false;
  if (path.size() == tail.size()) return true;
  char before = path[path.size() - tail.size() - 1];
  return before == '/' || before == '\\';
}

bool is_torch_dlpack_header(std::string_view path) {
  return ends_with_components(path, "ATen/dlpack.h") || ends_with_components(path, "ATen/DLConvertor.h");
}

bool is_dlpack_header(std::string_view path) { return ends_with_components(path, "dlpack.h"); }

DlpackDecision dlpack_origin(const SourceScan& scan, bool project_ships_dlpack, std::string_view project_evidence) {
  // The build's own answer: the DLPack header its include paths really opened.
  if (scan.has_compile_database()) {
    std::string own;
    for (const std::string& file : scan.included_files()) {
      if (is_torch_dlpack_header(file)) return {DlpackOrigin::Torch, "its build includes `" + file + "`"};
      if (is_dlpack_header(file) && own.empty()) own = file;
    }
    if (!own.empty()) return {DlpackOrigin::Own, "its build includes `" + own + "`, not torch's"};
  }
  // The file's own #include lines: torch's copy is only ever `ATen/dlpack.h`.
  std::string own;
  for (const IncludeDirective& include : scan.includes()) {
    if (include.disabled) continue;
    if (is_torch_dlpack_header(include.header)) return {DlpackOrigin::Torch, "it includes `" + include.header + "`"};
    if (is_dlpack_header(include.header) && own.empty()) own = include.header;
  }
  if (!own.empty()) return {DlpackOrigin::Own, "it includes `" + own + "`, not torch's `ATen/dlpack.h`"};
  // The names come through another header: the project's DLPack if it has one, else torch's.
  if (project_ships_dlpack) {
    return {DlpackOrigin::Own, "the project ships its own DLPack (" + std::string(project_evidence) + ")"};
  }
  return {DlpackOrigin::Torch, "the project ships no DLPack of its own"};
}

}  // namespace torchmigrate::cxx
