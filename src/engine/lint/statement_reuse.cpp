// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/statement_reuse.hpp"

#include <algorithm>

#include "torchmigrate/engine/lint/word_scan.hpp"
#include "torchmigrate/python/tree_walk.hpp"

namespace torchmigrate::engine {
namespace {

size_t statement_index(const std::vector<TextRange>& statements, uint32_t offset) {
  auto after = std::upper_bound(statements.begin(), statements.end(), offset,
                                [](uint32_t value, const TextRange& range) { return value < range.start; });
  return after == statements.begin() ? statements.size() : static_cast<size_t>(after - statements.begin() - 1);
}

TextRange shifted(TextRange range, int64_t delta) {
  return {static_cast<uint32_t>(range.start + delta), static_cast<uint32_t>(range.end + delta)};
}

// Shifts a finding made for a statement that moved by `delta` bytes; false when the finding
// or one of its fixes reaches outside `statement`.
bool move_into(Diagnostic& diagnostic, TextRange statement, int64_t delta) {
  auto inside = [&](TextRange range) { return statement.start <= range.start && range.end <= statement.end; };
  if (!inside(diagnostic.range)) return false;
  for (const Fix& fix : diagnostic.fixes) {
    for (const Edit& edit : fix.edits) {
      if (!inside(edit.range)) return false;
    }
  }
  diagnostic.range = shifted(diagnostic.range, delta);
  for (Fix& fix : diagnostic.fixes) {
    for (Edit& edit : fix.edits) edit.range = shifted(edit.range, delta);
  }
  return true;
}

}  // namespace

// The module's top-level statements (comments included), in order.
std::vector<python::Node> top_level_statements(const python::SyntaxTree& tree) {
  std::vector<python::Node> statements;
  python::for_each_node(tree.root(), [&](python::Node node, uint32_t depth) {
    if (depth == 1 && node.is_named()) statements.push_back(node);
    return depth == 0 ? python::WalkStep::Enter : python::WalkStep::Skip;
  });
  return statements;
}

// Whether `statement` is the binding itself: a def or class (its body does not change what its
// name refers to), an import, or a plain assignment. What such a binding means is all in its
// kind and qualified names; a binding inside a compound statement also depends on the branch it
// is in, so that statement's text is part of its meaning.
bool binds_directly(python::Node statement, const python::Binding& binding) {
  if (binding.node == statement || statement.field("definition") == binding.node) return true;
  return statement.kind() == "expression_statement" && statement.named_child_count() == 1 &&
         statement.named_child(0) == binding.node;
}

// What each module-level name means, as text: its kind, qualified names and, unless the
// statement is the binding itself, the text of the statement that binds it. Equal texts before
// and after an edit that changed one region of statements: every use of the name outside the
// edit resolves as before (the other statements keep their order, so each binding stays before
// or after each use).
ModuleNames module_names(const python::SemanticModel& model, const std::vector<python::Node>& statements,
                         const std::vector<TextRange>& ranges) {
  ModuleNames names;
  for (const auto& [name, bindings] : model.module_scope().bindings) {
    std::string& out = names[name];
    for (const python::Binding& binding : bindings) {
      size_t index = statement_index(ranges, binding.node.start());
      out.append(std::to_string(static_cast<int>(binding.kind))).append(1, '\0').append(binding.qualified_name);
      // `from m import C` and `import m.C as C` bind the same name to different statements, and
      // TM301 tells an object imported by name from a module imported whole.
      out.append(1, '\0').append(binding.node ? binding.node.kind() : "");
      for (const auto& alternative : binding.alternatives) out.append(1, '\0').append(alternative.value_or("-"));
      python::Node statement = index < statements.size() ? statements[index] : python::Node();
      if (statement && !binds_directly(statement, binding)) out.append(1, '\0').append(statement.text());
      out.append(1, '\n');
    }
  }
  return names;
}

bool is_guard_statement(python::Node statement) {
  std::string_view kind = statement.kind();
  return kind == "if_statement" || kind == "try_statement" || kind == "while_statement";
}

std::optional<StatementReuse> reusable(const LintMemo& memo, uint64_t front,
                                       const std::vector<python::Node>& statements,
                                       const std::vector<TextRange>& ranges) {
  if (memo.front != front) return std::nullopt;
  auto old_text = [&](size_t i) {
    return std::string_view(memo.text).substr(memo.statements[i].start,
                                              memo.statements[i].end - memo.statements[i].start);
  };
  // The edit's region: the statements between those both texts start and end with.
  const size_t before = memo.statements.size();
  const size_t after = statements.size();
  size_t first = 0;
  while (first < before && first < after && old_text(first) == statements[first].text()) ++first;
  size_t old_end = before;
  size_t new_end = after;
  while (old_end > first && new_end > first && old_text(old_end - 1) == statements[new_end - 1].text()) {
    --old_end;
    --new_end;
  }
  auto edited_before = [&](size_t index) { return first <= index && index < old_end; };
  auto edited_now = [&](size_t index) { return first <= index && index < new_end; };
  StatementReuse reuse;
  for (size_t index = first; index < new_end; ++index) reuse.rechecked.push_back(index);
  for (size_t index = 0; index < before; ++index) {
    // A guard's branches and early exits may guard the statements after it.
    if (edited_before(index) && memo.guard_statements[index]) return std::nullopt;
    // A syntax error may only be in the edit: elsewhere the parser's recovery could have read
    // the same text differently.
    if (!edited_before(index) && memo.broken_statements[index]) return std::nullopt;
  }
  for (size_t index = 0; index < after; ++index) {
    if (edited_now(index) ? is_guard_statement(statements[index]) : statements[index].has_error()) {
      return std::nullopt;
    }
  }
  // Findings and comments move with their statements; the edited ones' are found again.
  auto now = [&](size_t index) { return index < first ? index : index + after - before; };
  auto delta = [&](size_t index) {
    return static_cast<int64_t>(ranges[now(index)].start) - memo.statements[index].start;
  };
  for (const Diagnostic& diagnostic : memo.findings) {
    size_t index = statement_index(memo.statements, diagnostic.range.start);
    if (index >= before) return std::nullopt;
    if (edited_before(index)) continue;
    Diagnostic kept = diagnostic;
    if (!move_into(kept, memo.statements[index], delta(index))) return std::nullopt;
    reuse.findings.push_back(std::move(kept));
  }
  for (TextRange comment : memo.comments) {
    size_t index = statement_index(memo.statements, comment.start);
    if (index >= before) return std::nullopt;
    if (!edited_before(index)) reuse.comments.push_back(shifted(comment, delta(index)));
  }
  return reuse;
}

namespace {

// The names bound in one map and not the other, or bound to something else.
std::vector<std::string_view> changed_names(const ModuleNames& before, const ModuleNames& after) {
  std::vector<std::string_view> changed;
  auto old_name = before.begin();
  auto new_name = after.begin();
  while (old_name != before.end() || new_name != after.end()) {
    if (new_name == after.end() || (old_name != before.end() && old_name->first < new_name->first)) {
      changed.push_back((old_name++)->first);
    } else if (old_name == before.end() || new_name->first < old_name->first) {
      changed.push_back((new_name++)->first);
    } else {
      if (old_name->second != new_name->second) changed.push_back(old_name->first);
      ++old_name;
      ++new_name;
    }
  }
  return changed;
}

// Whether the word at `at` names something else than a module-level name: an attribute
// (`model.forward`) or what a def or class statement defines (a method's name).
bool names_something_else(std::string_view text, size_t at) {
  size_t before = at;
  while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
  if (before > 0 && text[before - 1] == '.') return true;
  if (before == at) return false;
  size_t word = before;
  while (word > 0 && is_word_byte(static_cast<unsigned char>(text[word - 1]))) --word;
  std::string_view keyword = text.substr(word, before - word);
  return keyword == "def" || keyword == "class";
}

// Where `text` spells `name` as a whole word that may refer to the module-level name: every use
// of it, and maybe a few in strings.
template <typename Visit>
void for_each_spelling(std::string_view text, std::string_view name, Visit visit) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    bool starts = at == 0 || !is_word_byte(static_cast<unsigned char>(text[at - 1]));
    bool ends = end == text.size() || !is_word_byte(static_cast<unsigned char>(text[end]));
    if (starts && ends && !names_something_else(text, at)) visit(static_cast<uint32_t>(at));
  }
}

}  // namespace

bool recheck_users(StatementReuse& reuse, const ModuleNames& before, const ModuleNames& after, std::string_view text,
                   const std::vector<python::Node>& statements, const std::vector<TextRange>& ranges) {
  std::vector<bool> users(statements.size(), false);
  for (std::string_view name : changed_names(before, after)) {
    for_each_spelling(text, name, [&](uint32_t at) {
      size_t index = statement_index(ranges, at);
      if (index < statements.size() && at < ranges[index].end) users[index] = true;
    });
  }
  for (size_t index : reuse.rechecked) users[index] = false;
  bool any = false;
  for (size_t index = 0; index < statements.size(); ++index) {
    if (!users[index]) continue;
    if (is_guard_statement(statements[index])) return false;
    reuse.rechecked.push_back(index);
    any = true;
  }
  if (!any) return true;
  std::sort(reuse.rechecked.begin(), reuse.rechecked.end());
  auto rechecked = [&](uint32_t at) {
    size_t index = statement_index(ranges, at);
    return index < statements.size() && users[index];
  };
  std::erase_if(reuse.findings, [&](const Diagnostic& finding) { return rechecked(finding.range.start); });
  std::erase_if(reuse.comments, [&](const TextRange& comment) { return rechecked(comment.start); });
  return true;
}

}  // namespace torchmigrate::engine
