// SPDX-License-Identifier: MIT
#include "torchmigrate/lsp/actions.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "torchmigrate/engine/lint/add_noqa.hpp"
#include "torchmigrate/engine/lint/comment_syntax.hpp"

namespace torchmigrate::lsp {

std::optional<Suppression> suppression_edit(const Document& document, const Diagnostic& diagnostic,
                                            const engine::Catalog& catalog) {
  if (!engine::is_suppressible(diagnostic, catalog)) return std::nullopt;
  const SourceFile& file = document.file();
  const python::SyntaxTree* tree = document.tree();
  std::vector<TextRange> comments;
  if (tree != nullptr) comments = engine::python_comments(*tree);
  engine::Suppressions suppressions = engine::Suppressions::parse(file, tree != nullptr ? &comments : nullptr, tree);
  std::optional<Edit> edit = engine::line_suppression(file, tree, suppressions,
                                                      file.lines().line_of(diagnostic.range.start), {diagnostic.code});
  if (!edit) return std::nullopt;
  return Suppression{std::move(*edit), engine::comment_syntax(file).label(diagnostic.code)};
}

Edit minimal_edit(std::string_view before, std::string_view after) {
  size_t prefix = 0;
  size_t limit = std::min(before.size(), after.size());
  while (prefix < limit && before[prefix] == after[prefix]) ++prefix;
  auto continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  while (prefix > 0 && prefix < before.size() && continuation(before[prefix])) --prefix;
  size_t suffix = 0;
  while (suffix < limit - prefix && before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) ++suffix;
  while (suffix > 0 && continuation(before[before.size() - suffix])) --suffix;
  TextRange replaced{static_cast<uint32_t>(prefix), static_cast<uint32_t>(before.size() - suffix)};
  return Edit::replace(replaced, std::string(after.substr(prefix, after.size() - suffix - prefix)));
}

std::string rule_hover_markdown(const engine::RuleSpec& rule) {
  const engine::RuleDocs& docs = rule.docs();
  auto block = [&](const std::string& code) {
    return engine::markdown_code_block(engine::example_language(rule), code);
  };
  std::string text = fmt::format("**{}** `{}`: {}\n\n{}\n\n{}\n\nBefore:\n{}\nAfter:\n{}", rule.code, rule.name,
                                 rule.summary, docs.what, docs.why, block(docs.before), block(docs.after));
  if (!docs.after_adopt_new.empty()) {
    text += fmt::format("\n{}:\n{}", engine::adopt_new_lead(rule), block(docs.after_adopt_new));
  }
  if (!docs.fix_safety.empty()) text += fmt::format("\n**{}:** {}\n", engine::kFixSafetyTitle, docs.fix_safety);
  return text;
}

namespace {

// Prose for a plain-text hover: the catalog's `code spans` without their backticks.
std::string plain(std::string_view markdown) {
  std::string out;
  for (char c : markdown) {
    if (c != '`') out += c;
  }
  return out;
}

// Code indented by four spaces, ending in a newline.
std::string indented(std::string_view code) {
  std::string out;
  for (size_t start = 0; start < code.size();) {
    size_t end = std::min(code.find('\n', start), code.size());
    out += "    " + std::string(code.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string rule_hover_text(const engine::RuleSpec& rule) {
  const engine::RuleDocs& docs = rule.docs();
  std::string text =
      fmt::format("{} {}: {}\n\n{}\n\n{}\n\nBefore:\n{}\nAfter:\n{}", rule.code, rule.name, plain(rule.summary),
                  plain(docs.what), plain(docs.why), indented(docs.before), indented(docs.after));
  if (!docs.after_adopt_new.empty()) {
    text += fmt::format("\n{}:\n{}", engine::adopt_new_lead(rule), indented(docs.after_adopt_new));
  }
  if (!docs.fix_safety.empty()) text += fmt::format("\n{}: {}\n", engine::kFixSafetyTitle, plain(docs.fix_safety));
  return text;
}

}  // namespace torchmigrate::lsp
