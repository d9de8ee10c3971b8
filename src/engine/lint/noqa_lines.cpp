// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/noqa_lines.hpp"

#include <algorithm>

#include "torchmigrate/python/syntax_tree.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::engine {
namespace {

using Span = NoqaLines::Span;

// Strings whose text holds a line break. Only nodes spanning lines can contain one, so the
// walk leaves single-line subtrees (most statements) unvisited.
void add_string_spans(const SourceFile& file, const python::SyntaxTree& tree, std::vector<Span>& spans) {
  const LineIndex& lines = file.lines();
  python::for_each_node(tree.root(), [&](python::Node node) {
    if (node.end() <= node.start()) return python::WalkStep::Skip;
    uint32_t first = lines.line_of(node.start());
    uint32_t last = lines.line_of(node.end() - 1);
    if (first == last) return python::WalkStep::Skip;
    if (node.kind() != "string") return python::WalkStep::Enter;
    spans.push_back({first, last});
    return python::WalkStep::Skip;  // a string in an f-string's braces is inside this span
  });
}

bool in_comment(const std::vector<TextRange>& comments, uint32_t offset) {
  auto after = std::upper_bound(comments.begin(), comments.end(), offset,
                                [](uint32_t at, const TextRange& comment) { return at < comment.start; });
  return after != comments.begin() && std::prev(after)->end > offset;
}

// A line ending in `\` joins the next one. One inside a string is a string spanning lines,
// already a span; one in a comment joins nothing.
void add_continuation_spans(const SourceFile& file, const std::vector<TextRange>& comments, std::vector<Span>& spans) {
  const LineIndex& lines = file.lines();
  for (uint32_t line = 0; line + 1 < lines.line_count(); ++line) {
    TextRange range = lines.line_range(line, file.text());
    if (range.end == range.start || file.text()[range.end - 1] != '\\') continue;
    if (in_comment(comments, range.end - 1)) continue;
    spans.push_back({line, line + 1});
  }
}

}  // namespace

NoqaLines NoqaLines::of(const SourceFile& file, const python::SyntaxTree& tree,
                        const std::vector<TextRange>& comments) {
  std::vector<Span> spans;
  add_string_spans(file, tree, spans);
  add_continuation_spans(file, comments, spans);
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.first < b.first; });
  NoqaLines map;
  for (const Span& span : spans) {
    if (!map.spans_.empty() && span.first <= map.spans_.back().last) {
      map.spans_.back().last = std::max(map.spans_.back().last, span.last);
    } else {
      map.spans_.push_back(span);
    }
  }
  return map;
}

uint32_t NoqaLines::resolve(uint32_t line) const {
  auto after = std::upper_bound(spans_.begin(), spans_.end(), line,
                                [](uint32_t at, const Span& span) { return at < span.first; });
  if (after == spans_.begin()) return line;
  const Span& span = *std::prev(after);
  return line <= span.last ? span.last : line;
}

}  // namespace torchmigrate::engine
