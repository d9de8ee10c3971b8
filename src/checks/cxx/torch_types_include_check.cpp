// SPDX-License-Identifier: MIT
// Family `cxx-missing-include`: a file relies on a header that another one it includes
// stopped including (`torch/types.h` no longer brings the dispatcher and `torch/library.h`).
// The fix adds the missing #include after the file's first include block.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/checks/cxx_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using cxx::Directive;
using cxx::TokenKind;

struct Need {
  std::string header;
  std::vector<std::vector<std::string>> names;  // each split at `::`
  std::vector<std::string> spellings;           // as written in the catalog
};

std::vector<std::string> split_qualified(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at = name.find("::"); at != std::string::npos; at = name.find("::", start)) {
    parts.push_back(name.substr(start, at - start));
    start = at + 2;
  }
  parts.push_back(name.substr(start));
  return parts;
}

struct Use {
  size_t need = 0;
  std::string name;
  TextRange range;
};

class CxxMissingIncludeCheck final : public engine::FileCheck {
 public:
  explicit CxxMissingIncludeCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    includer_ = params.string("includer");
    sufficient_ = params.strings("sufficient");
    for (const Params& entry : params.objects("needs")) {
      Need need;
      need.header = entry.string("header");
      for (const std::string& name : entry.strings("names")) {
        need.names.push_back(split_qualified(name));
        need.spellings.push_back(name);
      }
      entry.finish();
      needs_.push_back(std::move(need));
    }
    params.finish();
  }

  void check(engine::FileCheckContext& context) override {
    const cxx::SourceScan& scan = context.source_scan();
    const cxx::IncludeDirective* includer = nullptr;
    for (const cxx::IncludeDirective& include : scan.includes()) {
      if (include.disabled) continue;
      if (std::find(sufficient_.begin(), sufficient_.end(), include.header) != sufficient_.end()) return;
      if (include.header == includer_ && includer == nullptr) includer = &include;
    }
    if (includer == nullptr) return;

    std::vector<std::optional<Use>> first_use(needs_.size());
    const std::vector<cxx::Token>& tokens = scan.tokens();
    for (size_t i = 0; i < tokens.size(); ++i) {
      const cxx::Token& token = tokens[i];
      if (token.kind != TokenKind::Identifier || token.disabled) continue;
      if (token.directive != Directive::None && !(token.directive == Directive::Define && token.directive_position >= 3)) {
        continue;
      }
      for (size_t n = 0; n < needs_.size(); ++n) {
        if (first_use[n]) continue;
        for (size_t k = 0; k < needs_[n].names.size(); ++k) {
          std::optional<TextRange> range = match(tokens, i, needs_[n].names[k]);
          if (!range) continue;
          // A class or function the file declares itself is not torch's.
          cxx::NameReference reference = scan.reference(i);
          if (reference.resolved && reference.in_main_file) continue;
          first_use[n] = Use{n, needs_[n].spellings[k], *range};
          break;
        }
      }
    }

    std::optional<Use> reported;
    std::vector<std::string> headers;
    for (const std::optional<Use>& use : first_use) {
      if (!use) continue;
      headers.push_back(needs_[use->need].header);
      if (!reported || use->range.start < reported->range.start) reported = use;
    }
    if (!reported) return;

    std::string missing;
    for (const std::string& header : headers) missing += (missing.empty() ? "`" : ", `") + header + "`";
    Diagnostic& diagnostic = context.report(
        rule(), reported->range, {{"name", reported->name}, {"header", missing}, {"includer", includer_}});

    const SourceFile& file = context.file();
    uint32_t insert_at = end_of_first_include_block(scan, file);
    std::string text;
    for (const std::string& header : headers) {
      text += std::string(file.line_ending()) + "#include " + (includer->angled ? "<" : "\"") + header +
              (includer->angled ? ">" : "\"");
    }
    diagnostic.fixes.push_back(
        rule_fix(rule(), "Include " + missing, {Edit::insert(insert_at, std::move(text))}, Applicability::Safe));
  }

 private:
  // The qualified name `parts` ending at token `index`: its range, from the first qualifier.
  static std::optional<TextRange> match(const std::vector<cxx::Token>& tokens, size_t index,
                                        const std::vector<std::string>& parts) {
    if (tokens[index].spelling != parts.back()) return std::nullopt;
    size_t at = index;
    for (size_t p = parts.size() - 1; p-- > 0;) {
      if (at < 2 || tokens[at - 1].spelling != "::" || tokens[at - 2].spelling != parts[p]) return std::nullopt;
      at -= 2;
    }
    return TextRange{tokens[at].range.start, tokens[index].range.end};
  }

  // The end of the line of the last #include of the first run of #include lines.
  static uint32_t end_of_first_include_block(const cxx::SourceScan& scan, const SourceFile& file) {
    std::optional<uint32_t> last_line;
    for (const cxx::IncludeDirective& include : scan.includes()) {
      if (include.disabled) continue;
      uint32_t line = file.lines().line_of(include.range.start);
      if (last_line && line != *last_line + 1) break;
      last_line = line;
    }
    return file.lines().line_range(*last_line, file.text()).end;
  }

  std::string includer_;
  std::vector<std::string> sufficient_;
  std::vector<Need> needs_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cxx_missing_include_check(const engine::RuleSpec& rule) {
  return std::make_unique<CxxMissingIncludeCheck>(rule);
}

}  // namespace torchmigrate::checks
