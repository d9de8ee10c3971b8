// SPDX-License-Identifier: MIT
// Family `cxx-renamed-identifier`: identifiers that DLPack 1.0 renamed, found as real
// identifier tokens (never in comments, strings, longer names or `#if 0` blocks) and renamed.
#include <cctype>
#include <string>
#include <vector>

#include "torchmigrate/checks/cxx_checks.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

using cxx::Directive;
using cxx::TokenKind;

struct Rename {
  std::string old_name;
  std::string new_name;
};

class CxxRenamedIdentifierCheck final : public engine::FileCheck {
 public:
  explicit CxxRenamedIdentifierCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    for (const Params& entry : params.objects("renames")) {
      renames_.push_back({entry.string("old"), entry.string("new")});
      entry.finish();
    }
    declaring_header_ = params.string("declaring_header");
    params.finish();
  }

  void check(engine::FileCheckContext& context) override {
    const cxx::SourceScan& scan = source_scan(context);
    const std::vector<cxx::Token>& tokens = scan.tokens();
    for (size_t i = 0; i < tokens.size(); ++i) {
      const cxx::Token& token = tokens[i];
      if (token.kind != TokenKind::Identifier || token.disabled) continue;
      const Rename* rename = find(token.spelling);
      if (rename == nullptr) continue;
      // Only code and macro bodies: not a macro's own name, not #ifdef/#undef/#include lines.
      bool in_macro_body = token.directive == Directive::Define && token.directive_position >= 3;
      if (token.directive != Directive::None && !in_macro_body) continue;
      // The project's own macro of that name (a compatibility shim) is not DLPack's.
      if (scan.defines_macro(rename->old_name)) continue;
      if (!refers_to_dlpack(scan, i)) continue;

      Diagnostic& diagnostic =
          context.report(rule(), token.range, {{"old", rename->old_name}, {"new", rename->new_name}});
      if (!in_macro_body && scan.in_macro_arguments(i)) {
        diagnostic.message += " (a macro argument: the macro may paste or stringize it, so no fix is offered)";
        continue;
      }
      Fix fix;
      fix.title = "Rename to `" + rename->new_name + "`";
      fix.edits.push_back(Edit::replace(token.range, rename->new_name));
      fix.applicability = rule().fix_applicability.value_or(Applicability::Safe);  // the catalog decides
      diagnostic.fixes.push_back(std::move(fix));
    }
  }

 private:
  const Rename* find(std::string_view name) const {
    for (const Rename& rename : renames_) {
      if (rename.old_name == name) return &rename;
    }
    return nullptr;
  }

  // Unresolved (the 2.8 compile error) or declared by a DLPack header: DLPack's name. Declared
  // by the file itself or by another header: a look-alike.
  bool refers_to_dlpack(const cxx::SourceScan& scan, size_t index) const {
    cxx::NameReference reference = scan.reference(index);
    if (!reference.resolved) return true;
    if (reference.in_main_file) return false;
    std::string file = reference.declaring_file;
    for (char& c : file) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return file.find(declaring_header_) != std::string::npos;
  }

  std::vector<Rename> renames_;
  std::string declaring_header_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cxx_renamed_identifier_check(const engine::RuleSpec& rule) {
  return std::make_unique<CxxRenamedIdentifierCheck>(rule);
}

}  // namespace torchmigrate::checks
