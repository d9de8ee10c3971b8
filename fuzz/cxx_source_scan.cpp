// SPDX-License-Identifier: MIT
// The C/C++/CUDA token scan through libclang (no compile database): every token inside the
// text and in order, every include and skipped range inside the text, and the look-ups the C++
// checks make (token_at, defines_macro, reference, in_macro_arguments) on every token.
#include <string>

#include "fuzz_target.hpp"
#include "torchmigrate/cxx/source_scan.hpp"

using namespace torchmigrate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte picks the language flags (by extension), the rest is the file.
  static const char* const kNames[] = {"fuzz.cpp", "fuzz.cu", "fuzz.h", "fuzz.c"};
  const SourceFile file(kNames[data[0] % 4], std::string(fuzz::bytes(data + 1, size - 1)), Language::Cxx);
  cxx::ScanOptions options;
  options.use_compile_database = false;
  const cxx::SourceScan scan = cxx::SourceScan::scan(file, options);
  const size_t length = file.text().size();
  uint32_t previous = 0;
  for (size_t index = 0; index < scan.tokens().size(); ++index) {
    const cxx::Token& token = scan.tokens()[index];
    FUZZ_REQUIRE(token.range.start <= token.range.end && token.range.end <= length);
    FUZZ_REQUIRE(token.range.start >= previous);
    previous = token.range.start;
    FUZZ_REQUIRE(token.spelling.size() == token.range.length());
    if (!token.range.empty()) {
      std::optional<size_t> at = scan.token_at(token.range.start);
      FUZZ_REQUIRE(at.has_value());
    }
    if (token.kind == cxx::TokenKind::Identifier) {
      (void)scan.reference(index);
      (void)scan.in_macro_arguments(index);
      (void)scan.defines_macro(token.spelling);
    }
  }
  for (const cxx::IncludeDirective& include : scan.includes()) {
    FUZZ_REQUIRE(include.range.start <= include.range.end && include.range.end <= length);
  }
  for (const TextRange& skipped : scan.skipped_ranges()) {
    FUZZ_REQUIRE(skipped.start <= skipped.end && skipped.end <= length);
  }
  (void)scan.token_at(static_cast<uint32_t>(length));
  return 0;
}
