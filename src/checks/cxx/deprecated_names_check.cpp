// SPDX-License-Identifier: MIT
// Family `cxx-deprecated-names`: includes of deprecated headers and uses of deprecated names
// (given whole or by a suffix they share), as real tokens: never in comments, strings, `#if 0`
// blocks or longer names, never a name the file defines as a macro or, with a compile database,
// declares itself. No fix: the message says what to use instead.
#include <algorithm>
#include <string>
#include <vector>

#include "torchmigrate/checks/cxx_checks.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

using cxx::Directive;
using cxx::TokenKind;

class CxxDeprecatedNamesCheck final : public engine::FileCheck {
 public:
  explicit CxxDeprecatedNamesCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    headers_ = params.strings("headers");
    names_ = params.strings("names");
    suffixes_ = params.strings("name_suffixes");
    params.finish();
  }

  void check(engine::FileCheckContext& context) override {
    const cxx::SourceScan& scan = context.source_scan();
    for (const cxx::IncludeDirective& include : scan.includes()) {
      if (include.disabled || !deprecated_header(include.header)) continue;
      context.report(rule(), include.range, {{"name", include.header}, {"what", "header"}});
    }
    const std::vector<cxx::Token>& tokens = scan.tokens();
    for (size_t i = 0; i < tokens.size(); ++i) {
      const cxx::Token& token = tokens[i];
      if (token.kind != TokenKind::Identifier || token.disabled || !deprecated_name(token.spelling)) continue;
      bool in_macro_body = token.directive == Directive::Define && token.directive_position >= 3;
      if (token.directive != Directive::None && !in_macro_body) continue;
      if (scan.defines_macro(token.spelling)) continue;
      if (scan.has_compile_database() && scan.reference(i).in_main_file) continue;  // the file's own
      context.report(rule(), token.range, {{"name", std::string(token.spelling)}, {"what", "name"}});
    }
  }

 private:
  // `ATen/hip/impl/X.h` as written, or any path ending in `/` + one of the headers.
  bool deprecated_header(std::string_view header) const {
    return std::any_of(headers_.begin(), headers_.end(), [&](const std::string& wanted) {
      return header == wanted || (header.ends_with(wanted) && header[header.size() - wanted.size() - 1] == '/');
    });
  }

  bool deprecated_name(std::string_view name) const {
    if (std::find(names_.begin(), names_.end(), name) != names_.end()) return true;
    return std::any_of(suffixes_.begin(), suffixes_.end(), [&](const std::string& suffix) {
      return name.size() > suffix.size() && name.ends_with(suffix);
    });
  }

  std::vector<std::string> headers_;
  std::vector<std::string> names_;
  std::vector<std::string> suffixes_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cxx_deprecated_names_check(const engine::RuleSpec& rule) {
  return std::make_unique<CxxDeprecatedNamesCheck>(rule);
}

}  // namespace torchmigrate::checks
