// SPDX-License-Identifier: MIT
// Family `cxx-renamed-identifier`: names (and a struct field) a library renamed, found as real
// identifier tokens (never in comments, strings, longer names or `#if 0` blocks), reported only
// when the file compiles against torch's copy of the library, and renamed all at once per file.
#include <algorithm>
#include <string>
#include <vector>

#include "torchmigrate/checks/cxx_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/cxx/dlpack_origin.hpp"
#include "torchmigrate/cxx/member_access.hpp"

namespace torchmigrate::checks {
namespace {

using cxx::Directive;
using cxx::TokenKind;

struct Rename {
  std::string old_name;
  std::string new_name;
  std::string since;  // the library version that dropped the old name
};

// A renamed field of one struct (`DLTensor::ctx` → `device`).
struct FieldRename {
  Rename rename;
  std::string struct_name;          // "DLTensor"
  std::string holder;               // a member that always holds one ("dl_tensor")
  std::vector<std::string> fields;  // the fields of the field's own type ("device_type")
};

// One use to report: the token and what it is renamed to.
struct Use {
  size_t token = 0;
  const Rename* rename = nullptr;
};

class CxxRenamedIdentifierCheck final : public engine::FileCheck {
 public:
  explicit CxxRenamedIdentifierCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    for (const Params& entry : params.objects("renames")) {
      renames_.push_back({entry.string("old"), entry.string("new"), entry.string("since")});
      entry.finish();
    }
    for (const Params& entry : params.objects("field_renames")) {
      fields_.push_back({{entry.string("old"), entry.string("new"), entry.string("since")},
                         entry.string("struct"),
                         entry.string("holder"),
                         entry.strings("type_fields")});
      entry.finish();
    }
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override { return {engine::facts::own_dlpack}; }

  void check(engine::FileCheckContext& context) override {
    const cxx::SourceScan& scan = context.source_scan();
    std::vector<Use> uses;
    std::string blocker;  // why the file cannot be renamed whole; empty when it can
    collect_names(scan, context.file(), uses, blocker);
    collect_fields(scan, context.file(), uses, blocker);
    if (uses.empty()) return;
    std::sort(uses.begin(), uses.end(), [](const Use& a, const Use& b) { return a.token < b.token; });

    // Only torch's DLPack changes with torch: a DLPack of the project's own is left alone.
    const engine::OwnDlpack& project = context.settings().project_fact(engine::facts::own_dlpack);
    cxx::DlpackDecision origin = cxx::dlpack_origin(scan, project.ships_own, project.evidence);
    if (origin.origin == cxx::DlpackOrigin::Own) return;

    // All or nothing: a file renamed in part mixes old and new names and fields.
    Fix fix = rule_fix(rule(), "Rename the old DLPack names in this file", {}, Applicability::Safe);
    for (const Use& use : uses) {
      fix.edits.push_back(Edit::replace(scan.tokens()[use.token].range, use.rename->new_name));
    }
    for (const Use& use : uses) {
      const cxx::Token& token = scan.tokens()[use.token];
      Diagnostic& diagnostic = context.report(rule(), token.range,
                                              {{"old", use.rename->old_name},
                                               {"new", use.rename->new_name},
                                               {"since", use.rename->since},
                                               {"reason", origin.reason}});
      if (!blocker.empty()) {
        diagnostic.message += "; no fix: " + blocker + ", and renaming only the rest would leave the file half-renamed";
      } else {
        diagnostic.fixes.push_back(fix);
      }
    }
  }

 private:
  static std::string line_of(const SourceFile& file, const cxx::Token& token) {
    return std::to_string(file.location(token.range.start).line);
  }

  static std::string macro_argument(const std::string& name, const SourceFile& file, const cxx::Token& token) {
    return "`" + name + "` on line " + line_of(file, token) + " is a macro argument, which the macro may paste or stringize";
  }

  // Unresolved (the compile error) is the library's name; a name that resolves is declared by
  // the file or by a header it compiles against, so that build still has it.
  static bool resolves(const cxx::SourceScan& scan, size_t index) { return scan.reference(index).resolved; }

  void collect_names(const cxx::SourceScan& scan, const SourceFile& file, std::vector<Use>& uses,
                     std::string& blocker) const {
    const std::vector<cxx::Token>& tokens = scan.tokens();
    for (size_t i = 0; i < tokens.size(); ++i) {
      const cxx::Token& token = tokens[i];
      if (token.kind != TokenKind::Identifier || token.disabled) continue;
      const Rename* rename = find(token.spelling);
      if (rename == nullptr) continue;
      // Only code and macro bodies: not a macro's own name, not #ifdef/#undef/#include lines.
      bool in_macro_body = token.directive == Directive::Define && token.directive_position >= 3;
      if (token.directive != Directive::None && !in_macro_body) continue;
      // The project's own macro of that name (a compatibility shim) is not the library's.
      if (scan.defines_macro(rename->old_name)) continue;
      if (resolves(scan, i)) continue;
      uses.push_back({i, rename});
      if (blocker.empty() && !in_macro_body && scan.in_macro_arguments(i)) {
        blocker = macro_argument(rename->old_name, file, token);
      }
    }
  }

  void collect_fields(const cxx::SourceScan& scan, const SourceFile& file, std::vector<Use>& uses,
                      std::string& blocker) const {
    for (const FieldRename& field : fields_) {
      for (const cxx::MemberAccess& access :
           cxx::member_accesses(scan, field.rename.old_name, field.struct_name, field.holder)) {
        if (resolves(scan, access.member)) continue;
        const cxx::Token& member = scan.tokens()[access.member];
        if (access.of_struct) {
          uses.push_back({access.member, &field.rename});
          if (blocker.empty() && member.directive == Directive::None && scan.in_macro_arguments(access.member)) {
            blocker = macro_argument(field.rename.old_name, file, member);
          }
        } else if (blocker.empty() && cxx::followed_by_field(scan, access.member, field.fields)) {
          // `x->ctx.device_type` with `x` of unknown type: maybe the renamed field.
          const cxx::Token& base = scan.tokens()[access.base];
          std::string what = "its base";
          if (base.kind == TokenKind::Identifier) what = std::string("`").append(base.spelling).append("`");
          blocker = "`" + field.rename.old_name + "` on line " + line_of(file, member) +
                    " may be the " + field.struct_name + " field renamed `" + field.rename.new_name +
                    "`, but the type of " + what + " is not known from this file";
        }
      }
    }
  }

  const Rename* find(std::string_view name) const {
    for (const Rename& rename : renames_) {
      if (rename.old_name == name) return &rename;
    }
    return nullptr;
  }

  std::vector<Rename> renames_;
  std::vector<FieldRename> fields_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cxx_renamed_identifier_check(const engine::RuleSpec& rule) {
  return std::make_unique<CxxRenamedIdentifierCheck>(rule);
}

}  // namespace torchmigrate::checks
