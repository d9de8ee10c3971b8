// SPDX-License-Identifier: MIT
#include "torchmigrate/python/syntax_tree.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "torchmigrate/python/tree_walk.hpp"

// The grammar (tree-sitter-python), linked into this layer only.
extern "C" const TSLanguage* tree_sitter_python();

namespace torchmigrate::python {
namespace {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};

using Parser = std::unique_ptr<TSParser, ParserDeleter>;

// A new parser for every parse. A tree-sitter 0.20 parser kept across parses (one per thread,
// as before) let earlier parses change later ones: in broken code its error recovery read the
// same text differently after other files or edits had gone through it, while ts_parser_reset
// changed nothing. A new parser costs under a microsecond.
Parser new_parser() {
  Parser created(ts_parser_new());
  if (!ts_parser_set_language(created.get(), tree_sitter_python())) {
    throw std::runtime_error("tree-sitter-python grammar ABI does not match the tree-sitter runtime");
  }
  return created;
}

// tree-sitter-python ends lines only at `\n`, but Python also ends them at a lone `\r` (old Mac
// files). The parser reads such a file through this view, which shows each lone `\r` as `\n`:
// one byte for one byte, so every offset into the real text stays valid.
bool is_lone_cr(std::string_view text, size_t i) {
  return text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n');
}

// tree-sitter points are (row, byte column) pairs; rows end where the parser sees `\n`.
TSPoint point_at(std::string_view text, uint32_t offset) {
  TSPoint point{0, 0};
  uint32_t line_start = 0;
  for (uint32_t i = 0; i < offset; ++i) {
    if (text[i] == '\n' || is_lone_cr(text, i)) {
      ++point.row;
      line_start = i + 1;
    }
  }
  point.column = offset - line_start;
  return point;
}

struct LoneCrAsNewline {
  std::string_view text;
  std::string chunk;

  static const char* read(void* payload, uint32_t byte_index, TSPoint /*position*/, uint32_t* bytes_read) {
    auto* self = static_cast<LoneCrAsNewline*>(payload);
    if (byte_index >= self->text.size()) {
      *bytes_read = 0;
      return "";
    }
    constexpr size_t kChunk = 64 * 1024;
    size_t end = std::min(self->text.size(), byte_index + kChunk);
    self->chunk.assign(self->text.substr(byte_index, end - byte_index));
    for (size_t i = byte_index; i < end; ++i) {
      if (is_lone_cr(self->text, i)) self->chunk[i - byte_index] = '\n';
    }
    *bytes_read = static_cast<uint32_t>(self->chunk.size());
    return self->chunk.data();
  }
};

TSTree* parse_text(const TSTree* old_tree, std::string_view source) {
  bool lone_cr = false;
  for (size_t at = source.find('\r'); at != std::string_view::npos && !lone_cr; at = source.find('\r', at + 1)) {
    lone_cr = is_lone_cr(source, at);
  }
  if (!lone_cr) {
    return ts_parser_parse_string(new_parser().get(), old_tree, source.data(), static_cast<uint32_t>(source.size()));
  }
  LoneCrAsNewline view{source, {}};
  TSInput input{};
  input.payload = &view;
  input.read = &LoneCrAsNewline::read;
  input.encoding = TSInputEncodingUTF8;
  return ts_parser_parse(new_parser().get(), old_tree, input);
}

// The first ERROR or MISSING node in pre-order, entering only subtrees that hold an error.
std::optional<Node> find_error(Node root) {
  std::optional<Node> found;
  for_each_node(root, [&](Node node) {
    if (node.kind() == "ERROR" || node.is_missing()) {
      found = node;
      return WalkStep::Stop;
    }
    return node.has_error() ? WalkStep::Enter : WalkStep::Skip;
  });
  return found;
}

TSTree* parse_bytes(std::string_view source, const TSTree* old_tree) {
  TSTree* tree = parse_text(old_tree, source);
  if (tree == nullptr) throw std::runtime_error("tree-sitter failed to parse");
  return tree;
}

struct Leaf {
  std::string_view kind;
  uint32_t start;
  bool in_error;
};

// Every token under `root` in source order, marked when an ERROR node encloses it.
void append_leaves(Node root, std::vector<Leaf>& result) {
  std::vector<bool> in_error;  // per depth: an ERROR node encloses that level
  for_each_node(root, [&](Node node, uint32_t depth) {
    in_error.resize(depth + 1);
    in_error[depth] = (depth > 0 && in_error[depth - 1]) || node.kind() == "ERROR";
    if (node.child_count() == 0) result.push_back({node.kind(), node.start(), in_error[depth]});
  });
}

// The tokens of the module's statements that hold a syntax error, with a gap (an empty kind)
// before each statement: a rejected star, its opener and its operand are in one statement. A
// walk of every token cost an editor several milliseconds per mistyped line.
std::vector<Leaf> leaves_of_broken_statements(Node root) {
  std::vector<Leaf> result;
  if (root.kind() == "ERROR") {
    append_leaves(root, result);
    return result;
  }
  for_each_named_child(root, [&](Node statement) {
    if (!statement.has_error()) return;
    result.push_back({"", statement.start(), false});
    append_leaves(statement, result);
  });
  return result;
}

// Tokens after which a `*` can only be the star of a starred tuple element, never a product.
bool opens_tuple_element(std::string_view kind) {
  static constexpr std::string_view kOpeners[] = {",",  "=",  "return", "yield", "in",  "+=",  "-=",  "*=",
                                                 "/=", "//=", "%=",    "@=",    "&=",  "|=",  "^=",  ">>=",
                                                 "<<=", "**=", "["};
  return std::find(std::begin(kOpeners), std::end(kOpeners), kind) != std::end(kOpeners);
}

// Tokens after a `*` that the grammar handles itself: a name operand (`*rest`, `*self.x`), or
// none at all (the bare `*` of a parameter list).
bool grammar_handles_star_before(std::string_view kind) {
  static constexpr std::string_view kHandled[] = {"identifier", ",", ")", ":", "=", "]", "*", "**"};
  return std::find(std::begin(kHandled), std::end(kHandled), kind) != std::end(kHandled);
}

// Offsets of starred tuple elements the grammar rejected: a `*` opening an element whose
// operand is not a name, inside an ERROR or right before one.
std::vector<uint32_t> rejected_stars(const TSTree* tree, std::string_view source) {
  std::vector<Leaf> tokens = leaves_of_broken_statements(Node(ts_tree_root_node(tree), source));
  std::vector<uint32_t> stars;
  for (size_t i = 1; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != "*" || !opens_tuple_element(tokens[i - 1].kind)) continue;
    if (grammar_handles_star_before(tokens[i + 1].kind)) continue;
    if (tokens[i].in_error || tokens[i + 1].in_error) stars.push_back(tokens[i].start);
  }
  return stars;
}

// Whether rejected_stars can find anything: a `*` inside an ERROR or right before one (only
// whitespace or a line continuation between). Typing leaves a syntax error most of the time,
// and the token walk of rejected_stars visits the whole file; this visits only the nodes on the
// way to each ERROR.
bool star_near_error(const TSTree* tree, std::string_view source) {
  auto is_blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\\'; };
  bool found = false;
  for_each_node(Node(ts_tree_root_node(tree), source), [&](Node node) {
    if (node.kind() != "ERROR") return node.has_error() ? WalkStep::Enter : WalkStep::Skip;
    uint32_t start = std::min<uint32_t>(node.start(), static_cast<uint32_t>(source.size()));
    uint32_t end = std::min<uint32_t>(node.end(), static_cast<uint32_t>(source.size()));
    found = source.substr(start, end - start).find('*') != std::string_view::npos;
    uint32_t before = start;
    while (before > 0 && is_blank(source[before - 1])) --before;
    found = found || (before > 0 && source[before - 1] == '*');
    return found ? WalkStep::Stop : WalkStep::Skip;
  });
  return found;
}

uint32_t first_error_offset(const TSTree* tree, std::string_view source) {
  auto error = find_error(Node(ts_tree_root_node(tree), source));
  return error ? error->start() : UINT32_MAX;
}

// tree-sitter-python 0.23.6 (the newest grammar of ABI 14, which the tree-sitter 0.20 runtime
// loads; 0.25 keeps the same rule) accepts a starred element of an unparenthesized tuple only
// when its operand is a name, attribute or subscript: `return dq, *((None,) * 5)`, `x = *[a], b`
// and `a, *(b) = c` become ERROR although Python accepts them. Such a star is blanked (one byte
// for one, so every offset holds) and the text parsed again; that tree is kept when its first
// error lies further on (its element is then a plain expression, not a `list_splat`).
TSTree* parse_python(std::string_view source, const TSTree* old_tree) {
  TSTree* tree = parse_bytes(source, old_tree);
  if (!ts_node_has_error(ts_tree_root_node(tree)) || !star_near_error(tree, source)) return tree;
  std::string blanked(source);
  bool changed = false;
  TSTree* retried = nullptr;
  // Error recovery can hide a later rejected star inside the first ERROR; a few rounds find it.
  for (int round = 0; round < 4; ++round) {
    std::vector<uint32_t> stars = rejected_stars(retried != nullptr ? retried : tree, blanked);
    std::erase_if(stars, [&](uint32_t offset) { return blanked[offset] != '*'; });
    if (stars.empty()) break;
    for (uint32_t offset : stars) blanked[offset] = ' ';
    changed = true;
    // Re-parsed from the last tree with each blanked star marked as edited: an editor's
    // mistyped line near a `*` must not cost a parse of the whole file.
    TSTree* previous = retried != nullptr ? retried : tree;
    TSTree* edited = ts_tree_copy(previous);
    for (uint32_t offset : stars) {
      TSPoint at = point_at(source, offset);
      TSInputEdit edit{offset, offset + 1, offset + 1, at, {at.row, at.column + 1}, {at.row, at.column + 1}};
      ts_tree_edit(edited, &edit);
    }
    TSTree* reparsed = parse_bytes(blanked, edited);
    ts_tree_delete(edited);
    if (retried != nullptr) ts_tree_delete(retried);
    retried = reparsed;
    if (!ts_node_has_error(ts_tree_root_node(retried))) break;
  }
  if (!changed) return tree;
  if (first_error_offset(retried, source) > first_error_offset(tree, source)) {
    ts_tree_delete(tree);
    return retried;
  }
  ts_tree_delete(retried);
  return tree;
}

}  // namespace

std::vector<Node> Node::children_of_field(std::string_view field) const {
  // ts_node_field_name_for_child is unreliable for repeated fields in tree-sitter 0.20; the
  // cursor reports them correctly.
  std::vector<Node> children;
  TSTreeCursor cursor = ts_tree_cursor_new(node_);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const char* name = ts_tree_cursor_current_field_name(&cursor);
      if (name != nullptr && field == name) children.push_back(wrap(ts_tree_cursor_current_node(&cursor)));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return children;
}

SyntaxTree SyntaxTree::parse(std::string_view source) { return {parse_python(source, nullptr), source}; }

SyntaxTree SyntaxTree::parse_spans(std::string_view source, const std::vector<SliceSpan>& spans) {
  // No span parses nothing (tree-sitter reads an empty list as the whole text).
  std::vector<TSRange> ranges;
  if (spans.empty()) ranges.push_back({{0, 0}, {0, 0}, 0, 0});
  for (const SliceSpan& span : spans) {
    ranges.push_back(
        {{span.start_at.row, span.start_at.column}, {span.end_at.row, span.end_at.column}, span.start, span.end});
  }
  Parser parser = new_parser();
  if (!ts_parser_set_included_ranges(parser.get(), ranges.data(), static_cast<uint32_t>(ranges.size()))) {
    throw std::runtime_error("tree-sitter refused the ranges of a sliced parse");
  }
  TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, source.data(), static_cast<uint32_t>(source.size()));
  if (tree == nullptr) throw std::runtime_error("tree-sitter failed to parse");
  return {tree, source};
}

std::optional<Node> SyntaxTree::first_error() const { return find_error(root()); }

size_t SyntaxTree::syntax_error_count() const {
  size_t count = 0;
  // Only subtrees that contain an error are entered.
  for_each_node(root(), [&](Node node) {
    if (node.is_missing()) {
      ++count;
      return WalkStep::Skip;
    }
    if (node.kind() == "ERROR") ++count;
    return node.has_error() ? WalkStep::Enter : WalkStep::Skip;
  });
  return count;
}

bool SyntaxTree::too_deep() const {
  // Iterative walk: measuring the depth must not itself recurse. A node's subtree nests at most
  // one level per byte, plus one (the worst over real code and adversarial nestings of every
  // Python construct); with twice that as the bound, the walk enters only nodes large enough
  // to reach the limit, a handful per file instead of every node.
  bool deep = false;
  for_each_node(root(), [&](Node node, uint32_t depth) {
    if (depth > kMaxDepth) {
      deep = true;
      return WalkStep::Stop;
    }
    uint64_t bytes = node.end() - node.start();
    return depth + 2 * bytes + 16 > kMaxDepth ? WalkStep::Enter : WalkStep::Skip;
  });
  return deep;
}

namespace {

// Where the text ends after `inserted` is written at `point`.
TSPoint advance(TSPoint point, std::string_view inserted) {
  uint32_t rows = 0;
  size_t line_start = 0;
  for (size_t i = 0; i < inserted.size(); ++i) {
    if (inserted[i] == '\n' || is_lone_cr(inserted, i)) {
      ++rows;
      line_start = i + 1;
    }
  }
  if (rows == 0) return {point.row, point.column + static_cast<uint32_t>(inserted.size())};
  return {point.row + rows, static_cast<uint32_t>(inserted.size() - line_start)};
}

// Where an edit's mark should start: at the last byte of the code before it when only
// whitespace lies between. tree-sitter 0.20 reuses an unedited node only when the external
// token before it (the indentation scanner's state) is unchanged, and otherwise parses the
// node's text afresh. The nodes that start right after a line's last token begin with the
// zero-width NEWLINE and DEDENT tokens, so deleting a line between two functions changed that
// state for a node spanning most of the module: a whole re-parse. Marking the byte before them
// makes the parser descend into those nodes and reuse their children.
uint32_t widened_start(std::string_view before, uint32_t start) {
  while (start > 0 && std::isspace(static_cast<unsigned char>(before[start - 1]))) --start;
  return start > 0 ? start - 1 : 0;
}

}  // namespace

void SyntaxTree::edit(std::string_view before, TextRange replaced, std::string_view replacement) {
  uint32_t start = widened_start(before, replaced.start);
  std::string new_text(before.substr(start, replaced.start - start));
  new_text.append(replacement);
  TSInputEdit input{};
  input.start_byte = start;
  input.old_end_byte = replaced.end;
  input.new_end_byte = start + static_cast<uint32_t>(new_text.size());
  input.start_point = point_at(before, start);
  input.old_end_point = advance(input.start_point, before.substr(start, replaced.end - start));
  input.new_end_point = advance(input.start_point, std::string_view(new_text));
  ts_tree_edit(tree_.get(), &input);
}

void SyntaxTree::reparse(std::string_view source) {
  tree_.reset(parse_python(source, tree_.get()));
  source_ = source;
}

namespace {

struct KindTable {
  std::vector<KindId> canonical;  // symbol -> kind id
  std::unordered_map<std::string, KindId> by_name;
  KindId error = 0;  // ERROR nodes carry a built-in symbol outside the grammar's range
};

const KindTable& kind_table() {
  static const KindTable table = [] {
    KindTable built;
    const TSLanguage* language = tree_sitter_python();
    uint32_t count = ts_language_symbol_count(language);
    built.canonical.resize(count);
    for (uint32_t symbol = 0; symbol < count; ++symbol) {
      std::string name = ts_language_symbol_name(language, static_cast<TSSymbol>(symbol));
      auto [it, inserted] = built.by_name.emplace(name, static_cast<KindId>(built.by_name.size()));
      built.canonical[symbol] = it->second;
    }
    built.error = built.by_name.emplace("ERROR", static_cast<KindId>(built.by_name.size())).first->second;
    return built;
  }();
  return table;
}

}  // namespace

KindId python_kind_id(std::string_view kind) {
  const KindTable& table = kind_table();
  auto it = table.by_name.find(std::string(kind));
  if (it == table.by_name.end()) throw std::invalid_argument("unknown Python node kind: " + std::string(kind));
  return it->second;
}

KindId python_kind_id(TSSymbol symbol) {
  const KindTable& table = kind_table();
  return symbol < table.canonical.size() ? table.canonical[symbol] : table.error;
}

uint32_t python_kind_count() { return static_cast<uint32_t>(kind_table().by_name.size()); }

}  // namespace torchmigrate::python
