// SPDX-License-Identifier: MIT
#include "torchmigrate/python/statement_edits.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

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

namespace {

// The line that starts at `start`, without its line break.
std::string_view line_at(std::string_view source, uint32_t start) {
  std::string_view line = source.substr(start, next_line_start(source, start) - start);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

// A paragraph boundary: no line (`start` at the end of the text), a blank line, or a line indented
// less than `indent` (the block's header above, the code after the block below).
bool boundary(std::string_view source, uint32_t start, std::string_view indent) {
  if (start >= source.size()) return true;
  std::string_view line = line_at(source, start);
  return is_blank(line) || line.find_first_not_of(" \t") < indent.size();
}

// The comment lines directly above `statement` at its indentation: the first one's line start
// (the statement's own line start when there are none) and their text. Read from the lines, each
// confirmed a comment by the tree (not a line of a string): a comment before a block's first
// statement belongs to the block's parent in the tree, not to the block.
std::pair<uint32_t, std::string> comments_above(Node statement, uint32_t line, std::string_view indent) {
  std::string_view source = statement.source();
  Node top = statement;
  while (Node parent = top.parent()) top = parent;
  uint32_t first = line;
  std::string text;
  while (first > 0) {
    uint32_t above = line_start(source, first - 1);
    std::string_view content = line_at(source, above);
    if (content.size() <= indent.size() || !content.starts_with(indent) || content[indent.size()] != '#') break;
    uint32_t at = above + static_cast<uint32_t>(indent.size());
    if (top.descendant_for_range(at, at + 1).kind() != "comment") break;
    first = above;
    text.append(content).append("\n");
  }
  return {first, text};
}

// The range [start, end) to remove around a paragraph of comments and statement, [first, after),
// with the blank lines that would otherwise double up: those after it when code follows in the
// same block, those before it when it ends its block or the file.
TextRange with_blank_lines(std::string_view source, uint32_t first, uint32_t after, std::string_view indent) {
  uint32_t above = first;
  while (above > 0 && is_blank(line_at(source, line_start(source, above - 1)))) above = line_start(source, above - 1);
  if (above == first) return {first, after};
  uint32_t below = after;
  while (below < source.size() && is_blank(line_at(source, below))) below = next_line_start(source, below);
  if (boundary(source, below, indent)) return {above, after};  // the block or the file ends here
  return {first, below};
}

}  // namespace

std::optional<Edit> remove_statement_and_comments(Node statement, std::string_view subject) {
  std::optional<Edit> edit = remove_statement(statement);
  if (!edit) return edit;
  std::string_view source = statement.source();
  uint32_t line = line_start(source, statement.start());
  std::string_view indent = source.substr(line, statement.start() - line);
  if (!is_blank(indent)) return edit;
  auto [first, comments] = comments_above(statement, line, indent);
  if (first == line) return edit;
  uint32_t after = next_line_start(source, statement.end());
  // The line above the comments; none (the end of the text, for `boundary`) at the file's start.
  uint32_t before = first == 0 ? static_cast<uint32_t>(source.size()) : line_start(source, first - 1);
  bool paragraph = boundary(source, before, indent) && boundary(source, after, indent);
  if (!paragraph && (subject.empty() || comments.find(subject) == std::string::npos)) return edit;

  Edit& out = *edit;
  if (out.range == statement.range() && out.replacement == "pass") {
    out.range.start = first + static_cast<uint32_t>(indent.size());
    return edit;
  }
  TextRange cut = paragraph ? with_blank_lines(source, first, after, indent) : TextRange{first, after};
  if (out.range.start == line && out.range.end == after) {
    out.range = cut;
  } else if (out.range.start < cut.start && out.range.end == after &&
             out.replacement == source.substr(out.range.start, line - out.range.start)) {
    // Spanning the previous statement, kept verbatim: keep less of what follows it.
    out.replacement = std::string(source.substr(out.range.start, cut.start - out.range.start));
    out.range.end = cut.end;
  } else if (out.range.start == line) {
    out.range.start = first;  // spanning the next statement: only the comments are added
  }
  return edit;
}

}  // namespace torchmigrate::python
