// SPDX-License-Identifier: MIT
// Family `cxx-namespace-moved`: calls of global functions that a header moved into a namespace,
// keeping deprecated globals (`from(x)` -> `torch::stable::detail::from(x)`). With a compile
// database a call counts when it resolves to a declaration in the library's headers; without
// one, or where it resolves nothing, in a file that includes one of the headers and mentions a
// name of the library. Unqualified
// calls only: never member calls, other qualifications, declarations, comments or strings.
#include <algorithm>
#include <string>
#include <vector>

#include "torchmigrate/checks/cxx_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using cxx::Directive;
using cxx::TokenKind;

struct Function {
  std::string name;
  std::string qualified;
  bool needs_template_arguments = false;  // `to<T>(...)`: a call spells its template arguments
};

bool is(const cxx::Token& token, std::string_view spelling) { return token.spelling == spelling; }

// Keywords after which an expression starts (`return from(x);`).
bool starts_expression(const cxx::Token& token) {
  return token.kind == TokenKind::Keyword && (is(token, "return") || is(token, "co_return") || is(token, "throw") ||
                                              is(token, "case") || is(token, "else") || is(token, "do"));
}

class CxxNamespaceMovedCheck final : public engine::FileCheck {
 public:
  explicit CxxNamespaceMovedCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    headers_ = params.strings("headers");
    mention_ = params.string("mention");
    declared_in_ = params.string("declared_in");
    using_spellings_ = params.strings("using_spellings");
    for (const Params& entry : params.objects("functions")) {
      functions_.push_back(
          {entry.string("name"), entry.string("qualified"), entry.boolean("needs_template_arguments", false)});
      entry.finish();
    }
    params.finish();
  }

  void check(engine::FileCheckContext& context) override {
    const cxx::SourceScan& scan = context.source_scan();
    bool ast = scan.has_compile_database();
    // A database that does not reach torch's headers (the file is not in it, or its include
    // paths miss torch) resolves nothing: such a call is judged by its tokens, as without one.
    bool by_tokens = token_mode_applies(scan);
    if (!ast && !by_tokens) return;
    std::string_view text = context.file().text();
    for (const std::string& spelling : using_spellings_) {
      if (text.find(spelling) != std::string_view::npos) return;  // the unqualified name may be the new one
    }
    const std::vector<cxx::Token>& tokens = scan.tokens();
    for (size_t i = 0; i < tokens.size(); ++i) {
      const Function* function = call_of(tokens, i);
      if (function == nullptr) continue;
      std::optional<size_t> first = unqualified_start(tokens, i);
      if (!first) continue;
      cxx::NameReference reference = ast ? scan.reference(i) : cxx::NameReference{};
      if (reference.resolved ? reference.declaring_file.find(declared_in_) == std::string::npos : !by_tokens) continue;
      TextRange range{tokens[*first].range.start, tokens[i].range.end};
      Diagnostic& diagnostic =
          context.report(rule(), range, {{"name", function->name}, {"qualified", function->qualified}});
      Fix fix = rule_fix(rule(), "Qualify as `" + function->qualified + "`",
                         {Edit::replace(range, function->qualified)}, Applicability::Safe);
      diagnostic.fixes.push_back(std::move(fix));
    }
  }

 private:
  // Without a compile database: the file includes a header of the library and mentions its name.
  bool token_mode_applies(const cxx::SourceScan& scan) const {
    bool included =
        std::any_of(scan.includes().begin(), scan.includes().end(), [&](const cxx::IncludeDirective& include) {
          return !include.disabled && std::find(headers_.begin(), headers_.end(), include.header) != headers_.end();
        });
    if (!included) return false;
    return std::any_of(scan.tokens().begin(), scan.tokens().end(), [&](const cxx::Token& token) {
      return token.kind == TokenKind::Identifier && !token.disabled && token.spelling == mention_;
    });
  }

  // The function token `i` calls: its name followed by `(`, or by `<...>(`.
  const Function* call_of(const std::vector<cxx::Token>& tokens, size_t i) const {
    const cxx::Token& token = tokens[i];
    if (token.kind != TokenKind::Identifier || token.disabled) return nullptr;
    if (token.directive != Directive::None &&
        !(token.directive == Directive::Define && token.directive_position >= 3)) {
      return nullptr;
    }
    auto function =
        std::find_if(functions_.begin(), functions_.end(), [&](const Function& f) { return is(token, f.name); });
    if (function == functions_.end() || i + 1 >= tokens.size()) return nullptr;
    size_t next = i + 1;
    if (is(tokens[next], "<")) {
      int depth = 0;
      for (; next < tokens.size() && next < i + 64; ++next) {
        if (is(tokens[next], "<")) ++depth;
        if (is(tokens[next], ">")) --depth;
        if (is(tokens[next], ">>")) depth -= 2;
        if (depth <= 0 || is(tokens[next], ";") || is(tokens[next], "{")) break;
      }
      if (depth != 0 || next >= tokens.size()) return nullptr;
      ++next;
    } else if (function->needs_template_arguments) {
      return nullptr;
    }
    return next < tokens.size() && is(tokens[next], "(") ? &*function : nullptr;
  }

  // Where the call's name starts when it is unqualified (`from`) or globally qualified (`::from`);
  // nullopt for a member call, another qualification or a declaration (`StableIValue from(`).
  static std::optional<size_t> unqualified_start(const std::vector<cxx::Token>& tokens, size_t i) {
    if (i == 0) return i;
    const cxx::Token& previous = tokens[i - 1];
    if (is(previous, ".") || is(previous, "->") || is(previous, ">") || is(previous, "~")) return std::nullopt;
    if (is(previous, "::")) {
      if (i >= 2 && (tokens[i - 2].kind == TokenKind::Identifier || is(tokens[i - 2], ">"))) return std::nullopt;
      return i - 1;
    }
    if (previous.kind == TokenKind::Identifier ||
        (previous.kind == TokenKind::Keyword && !starts_expression(previous))) {
      return std::nullopt;
    }
    return i;
  }

  std::vector<std::string> headers_;
  std::string mention_;
  std::string declared_in_;
  std::vector<std::string> using_spellings_;
  std::vector<Function> functions_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cxx_namespace_moved_check(const engine::RuleSpec& rule) {
  return std::make_unique<CxxNamespaceMovedCheck>(rule);
}

}  // namespace torchmigrate::checks
