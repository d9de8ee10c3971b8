// SPDX-License-Identifier: MIT
#include "torchmigrate/python/statement_edits.hpp"

#include <algorithm>

namespace torchmigrate::python {

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

uint32_t line_start(std::string_view source, uint32_t offset) {
  size_t newline = source.rfind('\n', offset == 0 ? 0 : offset - 1);
  if (offset == 0 || newline == std::string_view::npos) return 0;
  return static_cast<uint32_t>(newline + 1);
}

uint32_t next_line_start(std::string_view source, uint32_t offset) {
  size_t newline = source.find('\n', offset);
  return newline == std::string_view::npos ? static_cast<uint32_t>(source.size()) : static_cast<uint32_t>(newline + 1);
}

bool rest_of_line_is_empty(std::string_view source, uint32_t offset) {
  size_t newline = source.find('\n', offset);
  std::string_view rest =
      source.substr(offset, newline == std::string_view::npos ? std::string_view::npos : newline - offset);
  size_t hash = rest.find('#');
  return is_blank(rest.substr(0, hash));
}

std::vector<Node> statements_of(Node block) {
  std::vector<Node> statements;
  for (uint32_t i = 0; i < block.named_child_count(); ++i) {
    Node child = block.named_child(i);
    if (child.kind() != "comment") statements.push_back(child);
  }
  return statements;
}

Edit remove_lines_spanning_neighbour(std::string_view source, const std::vector<Node>& items,
                                     std::vector<Node>::const_iterator self, uint32_t from, uint32_t to) {
  if (self != items.begin()) {
    Node neighbour = *(self - 1);
    return Edit::replace({neighbour.start(), to},
                         std::string(source.substr(neighbour.start(), from - neighbour.start())));
  }
  Node neighbour = *(self + 1);
  uint32_t kept = line_start(source, neighbour.start());
  return Edit::replace({from, neighbour.end()}, std::string(source.substr(kept, neighbour.end() - kept)));
}

Edit remove_from_sequence(const std::vector<Node>& items, Node item) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (!(items[i] == item)) continue;
    if (i > 0) return Edit::remove({items[i - 1].end(), item.end()});
    if (i + 1 < items.size()) return Edit::remove({item.start(), items[i + 1].start()});
  }
  return Edit::remove(item.range());
}

std::string_view newline_of(std::string_view source) {
  size_t newline = source.find('\n');
  return newline != std::string_view::npos && newline > 0 && source[newline - 1] == '\r' ? "\r\n" : "\n";
}

std::optional<Edit> remove_statement(Node statement) {
  if (!statement) return std::nullopt;
  Node parent = statement.parent();
  if (!parent) return std::nullopt;
  std::string_view source = statement.source();
  std::vector<Node> siblings = statements_of(parent);
  if (parent.kind() == "block" && siblings.size() == 1) return Edit::replace(statement.range(), "pass");

  Node previous = statement.prev_sibling();
  Node next = statement.next_sibling();
  if (next && next.kind() == ";") {
    Node after = next.next_sibling();
    uint32_t until = after && after.start() < next_line_start(source, next.end()) ? after.start() : next.end();
    return Edit::remove({statement.start(), until});
  }
  if (previous && previous.kind() == ";") return Edit::remove({previous.start(), statement.end()});
  uint32_t from = line_start(source, statement.start());
  if (!is_blank(source.substr(from, statement.start() - from)) || !rest_of_line_is_empty(source, statement.end())) {
    return std::nullopt;
  }
  uint32_t to = next_line_start(source, statement.end());
  if (parent.kind() != "block") return Edit::remove({from, to});
  auto self = std::find(siblings.begin(), siblings.end(), statement);
  if (self == siblings.end()) return std::nullopt;
  return remove_lines_spanning_neighbour(source, siblings, self, from, to);
}

}  // namespace torchmigrate::python
