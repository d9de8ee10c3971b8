// SPDX-License-Identifier: MIT
// ImportEditor::split_off: part of a `from` import moves to a statement of its own.
#include <algorithm>

#include "torchmigrate/python/import_editor.hpp"
#include "torchmigrate/python/statement_edits.hpp"

namespace torchmigrate::python {
namespace {

bool holds_comment(Node node) {
  for (uint32_t i = 0; i < node.child_count(); ++i) {
    Node child = node.child(i);
    if (child.kind() == "comment" || holds_comment(child)) return true;
  }
  return false;
}

}  // namespace

std::optional<std::vector<Edit>> ImportEditor::split_off(Node statement, const std::vector<Node>& items,
                                                         std::string_view new_module) {
  std::vector<Node> all = statement.children_of_field("name");
  auto moving = [&](Node item) { return std::find(items.begin(), items.end(), item) != items.end(); };
  size_t moved = static_cast<size_t>(std::count_if(all.begin(), all.end(), moving));
  if (moved == 0 || moved != items.size() || moved == all.size()) return std::nullopt;
  std::string_view source = statement.source();
  uint32_t line = line_start(source, statement.start());
  std::string_view indent = source.substr(line, statement.start() - line);
  if (!is_blank(indent) || !rest_of_line_is_empty(source, statement.end()) || holds_comment(statement)) {
    return std::nullopt;
  }
  std::vector<Edit> edits;
  std::string names;
  // Each run of moved names goes with the comma before it, or after it when the run comes first
  // (a kept name follows then): the removals never overlap.
  for (size_t i = 0; i < all.size();) {
    if (!moving(all[i])) {
      ++i;
      continue;
    }
    size_t last = i;
    while (last + 1 < all.size() && moving(all[last + 1])) ++last;
    for (size_t j = i; j <= last; ++j) names += (names.empty() ? "" : ", ") + std::string(all[j].text());
    edits.push_back(i > 0 ? Edit::remove({all[i - 1].end(), all[last].end()})
                          : Edit::remove({all[i].start(), all[last + 1].start()}));
    i = last + 1;
  }
  size_t end = source.find('\n', statement.end());
  auto at = static_cast<uint32_t>(end == std::string_view::npos ? source.size() : end);
  if (at > statement.end() && source[at - 1] == '\r') --at;
  std::string added =
      std::string(newline_of(source)) + std::string(indent) + "from " + std::string(new_module) + " import " + names;
  edits.push_back(Edit::insert(at, std::move(added)));
  return edits;
}

}  // namespace torchmigrate::python
