// SPDX-License-Identifier: MIT
// Family `cxx-removed-macro`: macros a library's header no longer defines, as real identifier
// tokens (never in comments, strings, longer names or `#if 0` blocks), in files that include one
// of the given torch headers and compile against torch's copy of the library. In a preprocessor
// condition the macro silently counts as 0, so the branch flips (the condition's severity);
// anywhere else the file no longer compiles (the rule's). Code under a condition that already
// tests a macro only the new header defines (a guard) is left alone. No edit: the fix is advice.
#include <algorithm>
#include <string>
#include <vector>

#include "torchmigrate/checks/cxx_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/cxx/dlpack_origin.hpp"

namespace torchmigrate::checks {
namespace {

using cxx::Directive;
using cxx::TokenKind;

Severity parse_severity(const std::string& text, const std::string& where) {
  if (text == "info") return Severity::Info;
  if (text == "warning") return Severity::Warning;
  if (text == "error") return Severity::Error;
  throw engine::CatalogError(where + ": condition_severity is info, warning or error");
}

// One macro token to report, and whether it is in a preprocessor condition.
struct Use {
  size_t token = 0;
  bool in_condition = false;
};

class CxxRemovedMacroCheck final : public engine::FileCheck {
 public:
  explicit CxxRemovedMacroCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    macros_ = params.strings("macros");
    includes_ = params.strings("includes");
    guards_ = params.strings("guards");
    condition_severity_ = parse_severity(params.string("condition_severity"), rule.code);
    condition_detail_ = params.string("condition_detail");
    value_detail_ = params.string("value_detail");
    suggestion_ = params.string("suggestion");
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override { return {engine::facts::own_dlpack}; }

  void check(engine::FileCheckContext& context) override {
    const cxx::SourceScan& scan = context.source_scan();
    if (!includes_torch_header(scan)) return;
    std::vector<Use> uses = collect(scan);
    if (uses.empty()) return;
    // Only torch's copy changes with torch: a library of the project's own is left alone.
    const engine::OwnDlpack& project = context.settings().project_fact(engine::facts::own_dlpack);
    cxx::DlpackDecision origin = cxx::dlpack_origin(scan, project.ships_own, project.evidence);
    if (origin.origin == cxx::DlpackOrigin::Own) return;
    for (const Use& use : uses) {
      const cxx::Token& token = scan.tokens()[use.token];
      Diagnostic& diagnostic = context.report(rule(), token.range,
                                              {{"macro", std::string(token.spelling)},
                                               {"detail", use.in_condition ? condition_detail_ : value_detail_},
                                               {"reason", origin.reason}});
      if (use.in_condition) diagnostic.severity = condition_severity_;
      Fix fix = rule_fix(rule(), "Guard with `" + suggestion_ + "`", {}, Applicability::DisplayOnly);
      fix.applicability = Applicability::DisplayOnly;  // advice with no edit, whatever the catalog's safety
      diagnostic.fixes.push_back(std::move(fix));
    }
  }

 private:
  [[nodiscard]] bool includes_torch_header(const cxx::SourceScan& scan) const {
    for (const cxx::IncludeDirective& include : scan.includes()) {
      if (include.disabled) continue;
      for (const std::string& header : includes_) {
        if (cxx::ends_with_components(include.header, header)) return true;
      }
    }
    return false;
  }

  [[nodiscard]] bool listed(const std::vector<std::string>& names, std::string_view name) const {
    return std::find(names.begin(), names.end(), name) != names.end();
  }

  // A macro token the file does not define itself (a compatibility shim is the project's).
  [[nodiscard]] bool removed_macro(const cxx::SourceScan& scan, const cxx::Token& token) const {
    return token.kind == TokenKind::Identifier && !token.disabled && listed(macros_, token.spelling) &&
           !scan.defines_macro(token.spelling);
  }

  // The uses outside guarded conditional blocks, in file order. `guarded` holds one entry per
  // open `#if` chain: whether one of its conditions so far tests a guard macro.
  [[nodiscard]] std::vector<Use> collect(const cxx::SourceScan& scan) const {
    const std::vector<cxx::Token>& tokens = scan.tokens();
    std::vector<Use> uses;
    std::vector<bool> guarded;
    auto any_guarded = [&] { return std::find(guarded.begin(), guarded.end(), true) != guarded.end(); };
    for (size_t i = 0; i < tokens.size(); ++i) {
      const cxx::Token& token = tokens[i];
      if (token.directive == Directive::Conditional && token.directive_position == 0) {
        size_t end = i + 1;
        while (end < tokens.size() && tokens[end].directive == Directive::Conditional &&
               tokens[end].directive_position > 0) {
          ++end;
        }
        conditional(scan, i, end, guarded, uses);
        i = end - 1;
        continue;
      }
      bool in_macro_body = token.directive == Directive::Define && token.directive_position >= 3;
      if (token.directive != Directive::None && !in_macro_body) continue;
      if (removed_macro(scan, token) && !any_guarded()) uses.push_back({i, false});
    }
    return uses;
  }

  // The directive of tokens [begin, end): opens, continues or closes a chain, and its condition's
  // uses are reported unless the chain tests a guard.
  void conditional(const cxx::SourceScan& scan, size_t begin, size_t end, std::vector<bool>& guarded,
                   std::vector<Use>& uses) const {
    const std::vector<cxx::Token>& tokens = scan.tokens();
    std::string_view name = begin + 1 < end ? tokens[begin + 1].spelling : std::string_view();
    bool tests_guard = false;
    for (size_t j = begin + 2; j < end; ++j) tests_guard = tests_guard || listed(guards_, tokens[j].spelling);
    if (name == "endif") {
      if (!guarded.empty()) guarded.pop_back();
      return;
    }
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      guarded.push_back(tests_guard);
    } else if (name == "elif" || name == "elifdef" || name == "elifndef") {
      // `#elif defined(GUARD)`: what follows handles the new header
      if (!guarded.empty() && tests_guard) guarded.back() = true;
    } else {
      return;  // `#else` has no condition; `#undef` names the macro without using it
    }
    if (std::find(guarded.begin(), guarded.end(), true) != guarded.end()) return;
    for (size_t j = begin + 2; j < end; ++j) {
      if (removed_macro(scan, tokens[j])) uses.push_back({j, true});
    }
  }

  std::vector<std::string> macros_, includes_, guards_;
  Severity condition_severity_ = Severity::Warning;
  std::string condition_detail_, value_detail_, suggestion_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cxx_removed_macro_check(const engine::RuleSpec& rule) {
  return std::make_unique<CxxRemovedMacroCheck>(rule);
}

}  // namespace torchmigrate::checks
