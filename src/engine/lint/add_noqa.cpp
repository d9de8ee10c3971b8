// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/add_noqa.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/comment_syntax.hpp"
#include "torchmigrate/engine/lint/suppressions.hpp"
#include "torchmigrate/python/syntax_tree.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::engine {
namespace {

// A comment appended at the end of this line would land inside a multi-line string.
bool line_ends_in_string(const python::SyntaxTree& tree, uint32_t line_end) {
  if (line_end == 0) return false;
  for (python::Node node = tree.root().descendant_for_range(line_end - 1, line_end); node; node = node.parent()) {
    if (node.kind() == "string" && node.start() < line_end && node.end() > line_end) return true;
  }
  return false;
}

}  // namespace

std::vector<TextRange> python_comments(const python::SyntaxTree& tree) {
  std::vector<TextRange> comments;
  python::for_each_node(tree.root(), [&](python::Node node) {
    if (node.kind() == "comment") comments.push_back(node.range());
  });
  return comments;
}

bool is_suppressible(const Diagnostic& diagnostic, const Catalog& catalog) {
  // Catalog rules only, and not the unused-suppression rule: a directive for it would be unused.
  const RuleSpec* rule = catalog.find(diagnostic.code);
  return rule != nullptr && rule->check_family != "unused-suppression";
}

std::optional<Edit> line_suppression(const SourceFile& file, const python::SyntaxTree* tree,
                                     const Suppressions& suppressions, uint32_t line,
                                     const std::vector<std::string>& codes) {
  // A notebook's JSON lines, a cmd script, a file of no known kind: no comment can be appended.
  const CommentSyntax syntax = comment_syntax(file);
  if (!syntax.writable) return std::nullopt;
  if (syntax.comments_from_tree && tree == nullptr) return std::nullopt;  // strings unknown
  line = suppressions.noqa_line(line);
  TextRange range = file.lines().line_range(line, file.text());
  std::string_view content = file.slice(range);
  size_t last = content.find_last_not_of(" \t");
  if (last != std::string_view::npos && content[last] == '\\') return std::nullopt;  // continued line
  if (tree != nullptr && line_ends_in_string(*tree, range.end)) return std::nullopt;
  return noqa_edit(file, suppressions, line, codes);
}

NoqaResult add_noqa(const SourceFile& file, const std::vector<Diagnostic>& diagnostics, const Catalog& catalog) {
  if (file.is_excerpt()) throw std::logic_error("--add-noqa needs the whole text of " + file.path());
  NoqaResult result;
  result.text = file.text();
  if (std::none_of(diagnostics.begin(), diagnostics.end(),
                   [&](const Diagnostic& diagnostic) { return is_suppressible(diagnostic, catalog); }))
    return result;
  std::optional<python::SyntaxTree> tree;
  std::vector<TextRange> comments;
  if (comment_syntax(file).comments_from_tree) {
    tree.emplace(python::SyntaxTree::parse(file.text()));
    comments = python_comments(*tree);
  }
  Suppressions suppressions = Suppressions::parse(file, tree ? &comments : nullptr, tree ? &*tree : nullptr);
  // One directive per line it goes on: the findings of a continued line or of a string spanning
  // lines share the one at the end of its last line.
  std::map<uint32_t, std::set<std::string>> codes_by_line;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (is_suppressible(diagnostic, catalog))
      codes_by_line[suppressions.noqa_line(file.lines().line_of(diagnostic.range.start))].insert(diagnostic.code);
  }
  std::vector<Edit> edits;
  for (const auto& [line, codes] : codes_by_line) {
    std::optional<Edit> edit =
        line_suppression(file, tree ? &*tree : nullptr, suppressions, line, {codes.begin(), codes.end()});
    if (!edit) {
      result.skipped_lines.push_back(line + 1);
      continue;
    }
    edits.push_back(std::move(*edit));
    ++result.added;
  }
  result.text = apply_edits(file.text(), edits);
  return result;
}

}  // namespace torchmigrate::engine
