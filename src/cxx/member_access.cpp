// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/member_access.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace torchmigrate::cxx {
namespace {

bool code_token(const Token& token) {
  if (token.kind == TokenKind::Comment || token.disabled) return false;
  return token.directive == Directive::None || (token.directive == Directive::Define && token.directive_position >= 3);
}

std::optional<size_t> previous_code(const std::vector<Token>& tokens, size_t index) {
  for (size_t i = index; i-- > 0;) {
    if (code_token(tokens[i])) return i;
  }
  return std::nullopt;
}

std::optional<size_t> next_code(const std::vector<Token>& tokens, size_t index) {
  for (size_t i = index + 1; i < tokens.size(); ++i) {
    if (code_token(tokens[i])) return i;
  }
  return std::nullopt;
}

bool declarator_punctuation(std::string_view spelling) {
  return spelling == "*" || spelling == "&" || spelling == "&&" || spelling == "const" || spelling == "volatile";
}

// Names the file declares as `struct_name` values: `DLTensor* t`, `const DLTensor& t`, and
// `auto* t = &m->holder;` / `auto& t = m.holder;`.
std::vector<std::string_view> struct_variables(const std::vector<Token>& tokens, std::string_view struct_name,
                                               std::string_view holder) {
  std::vector<std::string_view> names;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (!code_token(tokens[i]) || tokens[i].kind == TokenKind::Comment) continue;
    bool typed = tokens[i].spelling == struct_name;
    if (!typed && tokens[i].spelling != "auto") continue;
    std::optional<size_t> at = next_code(tokens, i);
    while (at && declarator_punctuation(tokens[*at].spelling)) at = next_code(tokens, *at);
    if (!at || tokens[*at].kind != TokenKind::Identifier) continue;
    if (typed) {
      names.push_back(tokens[*at].spelling);
      continue;
    }
    // `auto`: the initializer must end in `holder` right before the `;`.
    std::optional<size_t> equals = next_code(tokens, *at);
    if (!equals || tokens[*equals].spelling != "=") continue;
    std::optional<size_t> last;
    for (std::optional<size_t> k = next_code(tokens, *equals); k && tokens[*k].spelling != ";"; k = next_code(tokens, *k)) {
      last = k;
    }
    if (last && tokens[*last].spelling == holder) names.push_back(tokens[*at].spelling);
  }
  return names;
}

}  // namespace

std::vector<MemberAccess> member_accesses(const SourceScan& scan, std::string_view member,
                                          std::string_view struct_name, std::string_view holder) {
  const std::vector<Token>& tokens = scan.tokens();
  std::vector<MemberAccess> accesses;
  std::vector<std::string_view> variables;
  bool variables_known = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::Identifier || tokens[i].spelling != member || !code_token(tokens[i])) continue;
    std::optional<size_t> arrow = previous_code(tokens, i);
    if (!arrow || (tokens[*arrow].spelling != "." && tokens[*arrow].spelling != "->")) continue;
    std::optional<size_t> base = previous_code(tokens, *arrow);
    if (!base) continue;
    if (!variables_known) {
      variables = struct_variables(tokens, struct_name, holder);
      variables_known = true;
    }
    std::string_view name = tokens[*base].spelling;
    bool known = tokens[*base].kind == TokenKind::Identifier &&
                 (name == holder || std::find(variables.begin(), variables.end(), name) != variables.end());
    accesses.push_back({i, *base, known});
  }
  return accesses;
}

bool followed_by_field(const SourceScan& scan, size_t member, const std::vector<std::string>& fields) {
  const std::vector<Token>& tokens = scan.tokens();
  std::optional<size_t> arrow = next_code(tokens, member);
  if (!arrow || (tokens[*arrow].spelling != "." && tokens[*arrow].spelling != "->")) return false;
  std::optional<size_t> field = next_code(tokens, *arrow);
  return field && std::find(fields.begin(), fields.end(), tokens[*field].spelling) != fields.end();
}

}  // namespace torchmigrate::cxx
