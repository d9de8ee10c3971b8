// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/libclang_note.hpp"

#include <string>
#include <string_view>

#include "torchmigrate/cxx/libclang_api.hpp"

namespace torchmigrate::cxx {
namespace {

constexpr std::string_view kPrefix = "libclang could not be loaded (";

}  // namespace

bool libclang_missing() { return try_libclang() == nullptr; }

Diagnostic libclang_missing_note() {
  Diagnostic note;
  note.code = kIoErrorCode;
  note.severity = Severity::Info;
  note.range = {0, 0};
  note.message = std::string(kPrefix) + libclang_error() + "): install " + libclang_package() +
                 " to check C/C++ sources; not checked";
  return note;
}

bool is_libclang_missing_note(const Diagnostic& diagnostic) {
  return diagnostic.code == kIoErrorCode && diagnostic.message.starts_with(kPrefix);
}

void count_unchecked_files(Diagnostic& note, size_t files) {
  if (files <= 1) return;
  note.message += " (this file and " + std::to_string(files - 1) + " other C/C++ file" + (files == 2 ? "" : "s") + ")";
}

}  // namespace torchmigrate::cxx
