// SPDX-License-Identifier: MIT
#include "torchmigrate/python/statement_slice.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace torchmigrate::python {
namespace {

constexpr bool is_name_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

bool is_exit(std::string_view word) {
  return word == "return" || word == "raise" || word == "continue" || word == "break";
}

// How a logical line begins: what it binds, and what it needs around it to parse.
enum class Lead { Other, Import, Scope, Def, Class, Try, Clause, Decorator, Binder, Exit };

Lead lead_of(std::string_view first, std::string_view second) {
  if (first == "import" || first == "from") return Lead::Import;
  if (first == "global" || first == "nonlocal") return Lead::Scope;
  if (first == "def" || (first == "async" && second == "def")) return Lead::Def;
  if (first == "class") return Lead::Class;
  if (is_exit(first)) return Lead::Exit;
  if (first == "try") return Lead::Try;
  if (first == "elif" || first == "else" || first == "except" || first == "finally") return Lead::Clause;
  // Their names anywhere may be targets: `for a, b in`, `with f() as g`, `case Point(x=a)`.
  if (first == "for" || first == "with" || first == "async" || first == "case" || first == "match" || first == "del") {
    return Lead::Binder;
  }
  return Lead::Other;
}

bool is_keyword(std::string_view word) {
  static const std::unordered_set<std::string_view> kKeywords = {
      "False",    "None",   "True",  "and",  "as",     "assert",   "async",   "await", "break", "class",
      "continue", "def",    "del",   "elif", "else",   "except",   "finally", "for",   "from",  "global",
      "if",       "import", "in",    "is",   "lambda", "nonlocal", "not",     "or",    "pass",  "raise",
      "return",   "try",    "while", "with", "yield",  "match",    "case"};
  return kKeywords.contains(word);
}

// A name in code, with what stands right before and after it.
struct Word {
  uint32_t begin = 0;
  uint32_t end = 0;
  bool after_dot = false;
  char next = 0;  // the next byte that is not a space (0 at the line's end)
  bool before_walrus = false;
  bool nested = false;  // inside brackets
  uint32_t statement = 0;
};

struct Statement {
  uint32_t start = 0;  // the first byte of its first line
  uint32_t end = 0;    // past the newline of its last line
  uint32_t start_row = 0;
  uint32_t end_row = 0;
  uint32_t indent = 0;
  uint32_t words_begin = 0;
  uint32_t words_end = 0;
  uint32_t last_assign = UINT32_MAX;  // the last `=` (or `+=`...) outside brackets
  uint32_t last_bracket = 0;          // past the last opening bracket outside brackets
  char last = 0;                      // its last byte of code
  bool header = false;                // ends with `:`: a block follows
  bool exits = false;                 // holds `return`, `raise`, `continue` or `break`
  bool returns = false;               // holds `return`
  bool imports = false;               // holds `import`, `global` or `nonlocal`: may bind any name in it
  Lead lead = Lead::Other;
  int parent = -1;
  int previous = -1;    // the statement before it in the same block
  int next = -1;        // the statement after it in the same block
  int function = -1;    // the innermost def around it
  int last_child = -1;  // a header's last statement
  int block_end = -1;   // a header's: the first statement after its block
};

// Logical lines, read with the tokenizer's rules for strings, comments, brackets and
// continuations; false where only a parser could tell.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool read(std::vector<Statement>& statements, std::vector<Word>& words) {
    size_t at = text_.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    size_t line_start = 0;
    while (at < text_.size()) {
      Statement s;
      s.start = static_cast<uint32_t>(line_start);
      s.start_row = row_;
      size_t p = at;
      while (p < text_.size() && text_[p] == ' ') ++p;
      if (p < text_.size() && (text_[p] == '\t' || text_[p] == '\f')) return false;
      s.indent = static_cast<uint32_t>(p - at);
      s.words_begin = static_cast<uint32_t>(words.size());
      size_t first_code = p;
      bool decorator = p < text_.size() && text_[p] == '@';
      if (!read_line(p, s, words)) return false;
      s.end = static_cast<uint32_t>(p);
      s.end_row = row_;
      s.words_end = static_cast<uint32_t>(words.size());
      if (!any_code_) {
        words.resize(s.words_begin);
      } else {
        // A keyword leads only from the statement's first byte: `(yield x)` is no yield statement.
        if (s.words_end > s.words_begin && words[s.words_begin].begin == first_code) {
          std::string_view first = name(words[s.words_begin]);
          std::string_view second = s.words_end > s.words_begin + 1 ? name(words[s.words_begin + 1]) : "";
          s.lead = lead_of(first, second);
        }
        if (decorator) s.lead = Lead::Decorator;
        bool imports = false;
        for (uint32_t w = s.words_begin; w < s.words_end; ++w) {
          words[w].statement = static_cast<uint32_t>(statements.size());
          std::string_view word = words[w].after_dot ? std::string_view() : name(words[w]);
          s.exits = s.exits || is_exit(word);
          s.returns = s.returns || word == "return";
          imports = imports || word == "import" || word == "global" || word == "nonlocal";
        }
        // Statements after a `;` (`import os; import torch`, `x = 1; y = 2`) may bind anything.
        // `if x: import y`, `try: import y`, `import os; import torch` import too, and a statement
        // after a `;` may bind anything.
        s.imports = imports;
        if (semicolon_ && s.lead == Lead::Other) s.lead = Lead::Binder;
        statements.push_back(s);
      }
      at = line_start = p;
    }
    return true;
  }

  [[nodiscard]] std::string_view name(const Word& word) const {
    return text_.substr(word.begin, word.end - word.begin);
  }

 private:
  // From `p` to past the end of the logical line.
  bool read_line(size_t& p, Statement& s, std::vector<Word>& words) {
    int depth = 0;
    char last = 0;  // the last byte of code
    any_code_ = false;
    semicolon_ = false;
    bool after_dot = false;
    while (p < text_.size()) {
      char c = text_[p];
      if (c == '\n') {
        ++row_;
        ++p;
        if (depth == 0) break;
        continue;
      }
      if (c == '\r') {
        if (p + 1 < text_.size() && text_[p + 1] != '\n') return false;
        ++p;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\f') {
        ++p;
        continue;
      }
      if (c == '#') {
        p = std::min(text_.find('\n', p), text_.size());
        continue;
      }
      if (c == '\\') {
        size_t after = p + 1 < text_.size() && text_[p + 1] == '\r' ? p + 2 : p + 1;
        if (after < text_.size() && text_[after] == '\n') {
          ++row_;
          p = after + 1;
        } else {
          ++p;
        }
        continue;
      }
      any_code_ = true;
      if (c == '"' || c == '\'') {
        if (!read_string(p, false, words)) return false;
        last = c;
        after_dot = false;
        continue;
      }
      if (is_name_byte(static_cast<unsigned char>(c))) {
        if (!read_name(p, after_dot, depth > 0, words)) return false;
        last = text_[p - 1] == '"' || text_[p - 1] == '\'' ? '"' : 'a';
        after_dot = false;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        if (depth == 0) s.last_bracket = static_cast<uint32_t>(p + 1);
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        if (--depth < 0) return false;
      } else if (c == '=' && depth == 0) {
        note_equals(p, s);
      } else if (c == ';' && depth == 0) {
        semicolon_ = true;
      }
      after_dot = c == '.';
      last = c;
      ++p;
    }
    if (depth != 0) return false;
    s.last = last;
    s.header = last == ':';
    return true;
  }

  // A name from `p`, or a string with its prefix (`rb"..."`); `p` ends past it.
  bool read_name(size_t& p, bool after_dot, bool nested, std::vector<Word>& words) {
    size_t end = p;
    while (end < text_.size() && is_name_byte(static_cast<unsigned char>(text_[end]))) ++end;
    std::string_view word = text_.substr(p, end - p);
    if (end < text_.size() && (text_[end] == '"' || text_[end] == '\'') && word.size() <= 2 &&
        word.find_first_not_of("rRbBuUfFtT") == std::string_view::npos) {
      p = end;
      return read_string(p, word.find_first_of("fFtT") != std::string_view::npos, words);
    }
    add_word(p, end, after_dot, words);
    words.back().nested = nested;
    p = end;
    return true;
  }

  // An `=` outside brackets at `p`: an assignment's, an augmented one's, or a comparison's.
  void note_equals(size_t& p, Statement& s) const {
    char before = p > 0 ? text_[p - 1] : 0;
    if (p + 1 < text_.size() && text_[p + 1] == '=') {
      ++p;  // `==`
    } else if (before != '=' && before != '!' && before != '<' && before != '>' && before != ':') {
      s.last_assign = static_cast<uint32_t>(p);
    } else if ((before == '<' || before == '>') && p > 1 && text_[p - 2] == before) {
      s.last_assign = static_cast<uint32_t>(p);  // `<<=`, `>>=`
    }
  }

  void add_word(size_t begin, size_t end, bool after_dot, std::vector<Word>& words) const {
    Word word{static_cast<uint32_t>(begin), static_cast<uint32_t>(end), after_dot, 0, false};
    size_t next = end;
    while (next < text_.size() && (text_[next] == ' ' || text_[next] == '\t')) ++next;
    if (next < text_.size()) word.next = text_[next];
    word.before_walrus = word.next == ':' && next + 1 < text_.size() && text_[next + 1] == '=';
    words.push_back(word);
  }

  // From the opening quote at `p` to past the closing one. The names in an f-string's braces are
  // code and recorded.
  bool read_string(size_t& p, bool formatted, std::vector<Word>& words) {
    char quote = text_[p];
    bool triple = p + 2 < text_.size() && text_[p + 1] == quote && text_[p + 2] == quote;
    p += triple ? 3 : 1;
    int braces = 0;
    while (p < text_.size()) {
      char c = text_[p];
      if (c == '\\') {
        if (p + 1 < text_.size() && text_[p + 1] == '\n') ++row_;
        p += 2;
        continue;
      }
      if (c == '\n') {
        if (!triple) return false;
        ++row_;
      } else if (c == '\r' && p + 1 < text_.size() && text_[p + 1] != '\n') {
        return false;
      } else if (braces > 0 && (c == '"' || c == '\'')) {
        // A string inside the braces (`f"{d['key']}"`); one with the f-string's own quote
        // (Python 3.12) is read differently by older Pythons.
        if (c == quote && !triple) return false;
        size_t close = text_.find(c, p + 1);
        if (close == std::string_view::npos || text_.substr(p, close - p).find('\n') != std::string_view::npos) {
          return false;
        }
        p = close;
      } else if (c == quote && braces == 0 &&
                 (!triple || (p + 2 < text_.size() && text_[p + 1] == quote && text_[p + 2] == quote))) {
        p += triple ? 3 : 1;
        return true;
      } else if (formatted && c == '{') {
        if (braces == 0 && p + 1 < text_.size() && text_[p + 1] == '{') {
          ++p;
        } else {
          ++braces;
        }
      } else if (formatted && c == '}' && braces > 0) {
        --braces;
      } else if (braces > 0 && is_name_byte(static_cast<unsigned char>(c))) {
        size_t end = p;
        while (end < text_.size() && is_name_byte(static_cast<unsigned char>(text_[end]))) ++end;
        add_word(p, end, p > 0 && text_[p - 1] == '.', words);
        p = end;
        continue;
      }
      ++p;
    }
    return false;
  }

  std::string_view text_;
  uint32_t row_ = 0;
  bool any_code_ = false;
  bool semicolon_ = false;  // the logical line holds several statements
};

// Links each statement to its block: parent header, neighbours, enclosing function. False where
// the indentation is one Python rejects.
bool link_blocks(std::vector<Statement>& statements) {
  std::vector<int> open;           // headers whose block is open
  std::vector<int> last_in_block;  // by depth in `open` (+1): the last statement seen there
  last_in_block.push_back(-1);
  for (int i = 0; i < static_cast<int>(statements.size()); ++i) {
    Statement& s = statements[i];
    if (i > 0 && statements[i - 1].header && s.indent <= statements[i - 1].indent) return false;
    while (!open.empty() && statements[open.back()].indent >= s.indent) {
      statements[open.back()].block_end = i;
      open.pop_back();
      last_in_block.pop_back();
    }
    s.parent = open.empty() ? -1 : open.back();
    uint32_t block_indent = s.parent < 0 ? 0 : statements[s.parent + 1].indent;
    if (s.indent != block_indent) return false;
    s.previous = last_in_block.back();
    if (s.previous >= 0) statements[s.previous].next = i;
    last_in_block.back() = i;
    if (s.parent >= 0) {
      Statement& parent = statements[s.parent];
      parent.last_child = i;
      s.function = parent.lead == Lead::Def ? s.parent : parent.function;
    }
    if (s.header) {
      open.push_back(i);
      last_in_block.push_back(-1);
    }
  }
  for (int header : open) statements[header].block_end = static_cast<int>(statements.size());
  return statements.empty() || !statements.back().header;
}

// Why a statement is kept decides which of its names matter, and how much.
enum Keep : uint8_t {
  kAnchor = 1,     // holds an anchor word: a finding may lie here; how its names resolve matters
  kBound = 2,      // binds a name kept code uses: its kind matters (an import, an alias, a local)
  kValued = 4,     // a guard's condition, or binds a name one reads: values matter, followed further
  kStructure = 8,  // kept only so that the slice parses
  kImport = 16,    // an import, or an alias of one, that no kept code is known to use yet
};

class Slicer {
 public:
  Slicer(std::string_view text, const Reader& reader, const std::vector<Statement>& statements,
         const std::vector<Word>& words)
      : text_(text),
        reader_(reader),
        statements_(statements),
        words_(words),
        state_(statements.size(), 0),
        exits_scanned_(statements.size(), false) {
    for (uint32_t s = 0; s < statements_.size(); ++s) {
      const Statement& statement = statements_[s];
      for (uint32_t w = statement.words_begin; w < statement.words_end; ++w) {
        if (!words_[w].after_dot) occurrences_[name(words_[w])].push_back(w);
      }
      if (statement.returns) returns_by_function_[statement.function].push_back(s);
      if (statement.lead == Lead::Scope) {
        for (uint32_t w = statement.words_begin + 1; w < statement.words_end; ++w) declared_.insert(name(words_[w]));
      }
    }
  }

  // Keeps what the statements holding an anchor word need, and so on until nothing more is.
  void run(const std::vector<std::string>& anchors, const std::vector<std::string>& markers) {
    for (const std::string& anchor : anchors) {
      if (anchor.empty()) continue;
      for (size_t at = text_.find(anchor); at != std::string_view::npos; at = text_.find(anchor, at + 1)) {
        size_t end = at + anchor.size();
        if ((at > 0 && is_name_byte(static_cast<unsigned char>(text_[at - 1]))) ||
            (end < text_.size() && is_name_byte(static_cast<unsigned char>(text_[end])))) {
          continue;
        }
        keep(statement_at(static_cast<uint32_t>(at)), kAnchor);
      }
    }
    for (const std::string& marker : markers) {
      if (marker.empty()) continue;
      for (size_t at = text_.find(marker); at != std::string_view::npos; at = text_.find(marker, at + 1)) {
        keep(statement_at(static_cast<uint32_t>(at)), kValued);
      }
    }
    for (size_t i = 0; i < statements_.size(); ++i) {
      const Statement& s = statements_[i];
      if (!s.imports) continue;
      keep(static_cast<int>(i), kImport);
      for_each_imported_name(s, [&](std::string_view bound) { import_derived(bound); });
    }
    while (!queue_.empty()) {
      auto [index, how] = queue_.back();
      queue_.pop_back();
      follow(index, how);
    }
  }

  [[nodiscard]] bool kept(size_t index) const { return state_[index] != 0; }

 private:
  int statement_at(uint32_t offset) const {
    auto after = std::upper_bound(statements_.begin(), statements_.end(), offset,
                                  [](uint32_t value, const Statement& s) { return value < s.start; });
    if (after == statements_.begin()) return -1;
    int index = static_cast<int>(after - statements_.begin()) - 1;
    return offset < statements_[index].end ? index : -1;
  }

  std::string_view name(const Word& word) const { return reader_.name(word); }

  void keep(int index, Keep how) {
    if (index < 0 || (state_[index] & how) != 0) return;
    state_[index] |= how;
    queue_.push_back({index, how});
  }

  // What a statement kept for `how` needs in turn.
  void follow(int index, Keep how) {
    const Statement& s = statements_[index];
    // The headers around it and the clauses before it, whose conditions may guard it.
    Keep around = how == kStructure || how == kImport ? kStructure : kValued;
    keep(s.parent, around);
    if (s.lead == Lead::Clause) keep(s.previous, around);
    if (s.header) keep(index + 1, kStructure);
    if (s.lead == Lead::Try) {
      for (int next = s.next; next >= 0 && statements_[next].lead == Lead::Clause; next = statements_[next].next) {
        keep(next, around);
      }
    }
    // A handler's fallbacks (`except ImportError: X = None`) tell an optional import.
    if (how == kValued && s.lead == Lead::Clause && name(words_[s.words_begin]) == "except" && s.header) {
      for (int child = index + 1; child >= 0; child = statements_[child].next) keep(child, kStructure);
    }
    if (s.lead == Lead::Def || s.lead == Lead::Class) {
      for (int before = s.previous; before >= 0 && statements_[before].lead == Lead::Decorator;
           before = statements_[before].previous) {
        keep(before, kStructure);
      }
    }
    if (s.lead == Lead::Decorator) keep(s.next, kStructure);
    if (how == kValued && s.header) keep_feature_test(index);
    if (how == kAnchor) {
      for (int around = index; around >= 0; around = statements_[around].parent) keep_early_exits_before(around);
      note_anchor_names(s);
    }
    for (uint32_t w = s.words_begin; w < s.words_end; ++w) {
      const Word& word = words_[w];
      if (word.after_dot || is_keyword(name(word))) continue;
      if ((s.lead == Lead::Def || s.lead == Lead::Class) && binds(s, w)) continue;  // its own name: no use
      // An alias resolves through what it names; a local binding is a local whatever its value.
      if (how == kAnchor || (how == kBound && alias_like(s) && word.begin > s.last_assign)) {
        bound(name(word), s.function);
      }
      if (how == kValued) valued(name(word), s.function);
    }
  }

  // `if hasattr(obj, "new"): <uses .new> else: <fallback>`: the guard reads each branch's text
  // for the attribute, so the whole `if` chain is kept.
  void keep_feature_test(int index) {
    int head = index;
    while (statements_[head].lead == Lead::Clause && statements_[head].previous >= 0) head = statements_[head].previous;
    if (whole_chains_.contains(head)) return;
    const Statement& first = statements_[head];
    if (first.words_begin == first.words_end || name(words_[first.words_begin]) != "if") return;
    bool tests = false;
    for (int clause = head; clause >= 0 && (clause == head || statements_[clause].lead == Lead::Clause);
         clause = statements_[clause].next) {
      const Statement& branch = statements_[clause];
      for (uint32_t w = branch.words_begin; w < branch.words_end && !tests; ++w) {
        tests = name(words_[w]) == "hasattr" || name(words_[w]) == "getattr";
      }
    }
    if (!tests) return;
    whole_chains_.insert(head);
    for (int clause = head; clause >= 0 && (clause == head || statements_[clause].lead == Lead::Clause);
         clause = statements_[clause].next) {
      keep(clause, kValued);
      const Statement& branch = statements_[clause];
      for (int inner = clause + 1; branch.header && inner < branch.block_end; ++inner) keep(inner, kStructure);
    }
  }

  // `if old_torch: return` before a kept statement: the rest of the block runs only where the
  // branch was not taken.
  void keep_early_exits_before(int index) {
    for (int before = statements_[index].previous; before >= 0; before = statements_[before].previous) {
      if (exits_scanned_[before]) break;
      exits_scanned_[before] = true;
      const Statement& s = statements_[before];
      if (s.words_begin == s.words_end || name(words_[s.words_begin]) != "if") continue;
      if (!s.header) {
        if (s.exits) keep(before, kValued);  // `if old_torch: return`
        continue;
      }
      for (int clause = before; clause >= 0; clause = statements_[clause].next) {
        const Statement& branch = statements_[clause];
        if (clause != before && branch.lead != Lead::Clause) break;
        int last = branch.last_child;
        if (!branch.header && branch.exits) {
          keep(clause, kValued);  // `else: return`
        } else if (last >= 0 && statements_[last].exits) {
          keep(clause, kValued);  // ends with `return`, or with `log(); return`
          keep(last, kStructure);
        }
      }
    }
  }

  // An alias or a dictionary assigned in an anchor statement makes the names it binds anchors.
  // So does an import holding an anchor word: `s` of `from torch.jit import script as s`.
  void note_anchor_names(const Statement& s) {
    if (s.imports) {
      for_each_imported_name(s, [&](std::string_view imported) { anchor_name(imported); });
      return;
    }
    if (!(alias_like(s) || assigns_dict(s))) return;
    for (uint32_t w = s.words_begin; w < s.words_end; ++w) {
      if (binds(s, w)) anchor_name(name(words_[w]));
    }
  }

  void anchor_name(std::string_view anchor) {
    if (!anchor_names_.insert(anchor).second) return;
    auto found = occurrences_.find(anchor);
    if (found == occurrences_.end()) return;
    for (uint32_t w : found->second) keep(static_cast<int>(words_[w].statement), kAnchor);
  }

  // A name whose binding's kind matters, used in `function` (-1: outside any def): what binds
  // it there, in an enclosing function or at module level is kept.
  void bound(std::string_view used, int function) {
    if (!bound_.insert({used, function}).second) return;
    for_each_binding(used, function, [&](uint32_t index) { keep(static_cast<int>(index), kBound); });
  }

  // A name whose value a guard may read: what binds it is kept with what its value uses, and a
  // function's returns (`def torch_version(): return version.parse(torch.__version__)`).
  void valued(std::string_view used, int function) {
    if (!valued_.insert({used, function}).second) return;
    bound(used, function);
    for_each_binding(used, function, [&](uint32_t index) {
      keep(static_cast<int>(index), kValued);
      if (statements_[index].lead != Lead::Def) return;
      auto returns = returns_by_function_.find(static_cast<int>(index));
      if (returns == returns_by_function_.end()) return;
      for (uint32_t exit : returns->second) keep(static_cast<int>(exit), kValued);
    });
  }

  // The statements that may bind `used` where code in `function` sees it. A name some function
  // declares `global` or `nonlocal` may be bound in any.
  template <typename Visit>
  void for_each_binding(std::string_view used, int function, Visit visit) {
    auto found = occurrences_.find(used);
    if (found == occurrences_.end()) return;
    bool anywhere = declared_.contains(used);
    for (uint32_t w : found->second) {
      const Statement& s = statements_[words_[w].statement];
      if (!binds(s, w) || !(anywhere || sees(function, s.function))) continue;
      visit(words_[w].statement);
    }
  }

  // Whether code in function `inner` sees the bindings of function `outer` (-1: the module).
  bool sees(int inner, int outer) const {
    for (; inner >= 0; inner = statements_[inner].function) {
      if (inner == outer) return true;
    }
    return outer < 0;
  }

  // The names an import statement binds: `c` of `import a.b as c`, `a` of `import a.b`, `x` and
  // `z` of `from m import x, y as z`.
  template <typename Visit>
  void for_each_imported_name(const Statement& s, Visit visit) const {
    uint32_t w = s.words_begin;
    while (w < s.words_end && name(words_[w]) != "import") ++w;
    for (++w; w < s.words_end;) {
      uint32_t first = w++;
      while (w < s.words_end && words_[w].after_dot) ++w;
      if (w + 1 < s.words_end && name(words_[w]) == "as") {
        visit(name(words_[w + 1]));
        w += 2;
      } else {
        visit(name(words_[first]));
      }
    }
  }

  // A name an import binds, or an alias of one: `m = torch.backends.cuda.matmul` is kept though
  // no kept code uses `m`, since a fix may spell a name through it.
  void import_derived(std::string_view derived) {
    if (!imported_.insert(derived).second) return;
    auto found = occurrences_.find(derived);
    if (found == occurrences_.end()) return;
    for (uint32_t w : found->second) {
      const Statement& s = statements_[words_[w].statement];
      // A rebinding (`functorch_config = None`) decides which binding a fix may spell through.
      if (binds(s, w)) keep(static_cast<int>(words_[w].statement), kImport);
      if (s.last_assign == UINT32_MAX || words_[w].begin <= s.last_assign || !alias_like(s)) continue;
      keep(static_cast<int>(words_[w].statement), kImport);
      for (uint32_t target = s.words_begin; target < s.words_end && words_[target].begin < s.last_assign; ++target) {
        if (binds(s, target)) import_derived(name(words_[target]));
      }
    }
  }

  // Whether the word at `w` may be a name its statement binds.
  bool binds(const Statement& s, uint32_t w) const {
    const Word& word = words_[w];
    if (word.after_dot) return false;
    if (s.imports) return true;  // `import a.b` binds `a`, `from m import x as y` binds `y`
    switch (s.lead) {
      case Lead::Def:
      case Lead::Class: return w == s.words_begin + (name(words_[s.words_begin]) == "async" ? 2 : 1);
      case Lead::Binder:
      case Lead::Clause: return word.next != '.' && word.next != '(' && word.next != '[';
      default: break;
    }
    if (word.before_walrus) return true;
    if (w == s.words_begin && word.next == ':' && !s.header) return true;  // `x: int = 0`
    return s.last_assign != UINT32_MAX && word.begin < s.last_assign && word.next != '.' && word.next != '(' &&
           word.next != '[';
  }

  bool binds_a_name(const Statement& s) const {
    for (uint32_t w = s.words_begin; w < s.words_end && words_[w].begin < s.last_assign; ++w) {
      if (binds(s, w)) return true;
    }
    return false;
  }

  // `f = a.b`, `f = a if c else b` or `f = (a.b)`: the semantic model may make `f` an alias.
  bool alias_like(const Statement& s) const {
    if (s.last_assign == UINT32_MAX || s.header || !binds_a_name(s)) return false;
    if (s.last_bracket <= s.last_assign) return true;
    size_t value = text_.find_first_not_of(" \t\\\n\r", s.last_assign + 1);
    if (value != std::string_view::npos && text_[value] == '(' && s.last == ')') return true;
    for (uint32_t w = s.words_begin; w < s.words_end; ++w) {
      if (words_[w].begin > s.last_assign && !words_[w].nested && name(words_[w]) == "if") return true;
    }
    return false;
  }

  // `opts = {...}` or `opts = dict(...)`: a check may follow `opts` to its keys.
  bool assigns_dict(const Statement& s) const {
    if (s.last_assign == UINT32_MAX || s.header || !binds_a_name(s)) return false;
    size_t at = text_.find_first_not_of(" \t\\\n\r", s.last_assign + 1);
    return at != std::string_view::npos && (text_[at] == '{' || text_.substr(at).starts_with("dict("));
  }

  std::string_view text_;
  const Reader& reader_;
  const std::vector<Statement>& statements_;
  const std::vector<Word>& words_;
  std::vector<uint8_t> state_;  // Keep bits
  std::vector<bool> exits_scanned_;
  std::vector<std::pair<int, Keep>> queue_;
  std::unordered_map<std::string_view, std::vector<uint32_t>> occurrences_;  // names, not attributes
  std::unordered_map<int, std::vector<uint32_t>> returns_by_function_;
  struct NameInFunction {
    std::string_view name;
    int function;
    bool operator==(const NameInFunction&) const = default;
  };
  struct NameInFunctionHash {
    size_t operator()(const NameInFunction& key) const {
      return std::hash<std::string_view>()(key.name) ^ (static_cast<size_t>(key.function) * 0x9E3779B97F4A7C15ULL);
    }
  };
  std::unordered_set<NameInFunction, NameInFunctionHash> bound_;
  std::unordered_set<NameInFunction, NameInFunctionHash> valued_;
  std::unordered_set<std::string_view> declared_;      // named by a `global` or `nonlocal` statement
  std::unordered_set<int> whole_chains_;               // `if` chains kept whole
  std::unordered_set<std::string_view> imported_;      // names imports bind, and their aliases
  std::unordered_set<std::string_view> anchor_names_;  // aliases of anchors: their uses are anchors too
};

}  // namespace

std::optional<std::vector<SliceSpan>> slice_statements(std::string_view text, const std::vector<std::string>& anchors,
                                                       const std::vector<std::string>& markers) {
  std::vector<Statement> statements;
  std::vector<Word> words;
  Reader reader(text);
  if (!reader.read(statements, words) || !link_blocks(statements)) return std::nullopt;
  Slicer slicer(text, reader, statements, words);
  slicer.run(anchors, markers);
  std::vector<SliceSpan> spans;
  size_t kept_bytes = 0;
  for (size_t i = 0; i < statements.size(); ++i) {
    if (!slicer.kept(i)) continue;
    const Statement& s = statements[i];
    // From the end of the statement before: the comments above a statement go with it (a fix
    // that deletes it deletes them).
    uint32_t start = i == 0 ? 0 : statements[i - 1].end;
    uint32_t start_row = i == 0 ? 0 : statements[i - 1].end_row;
    kept_bytes += s.end - start;
    if (!spans.empty() && spans.back().end == start) {
      spans.back().end = s.end;
      spans.back().end_at = {s.end_row, 0};
    } else {
      spans.push_back({start, s.end, {start_row, 0}, {s.end_row, 0}});
    }
  }
  if (kept_bytes * 2 > text.size()) return std::nullopt;
  // A last line without a newline ends inside its row.
  if (!spans.empty() && spans.back().end == text.size() && !text.ends_with('\n')) {
    size_t line = text.rfind('\n');
    spans.back().end_at.column = static_cast<uint32_t>(text.size() - (line == std::string_view::npos ? 0 : line + 1));
  }
  return spans;
}

}  // namespace torchmigrate::python
