// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/batch.hpp"
#include "torchmigrate/buildfiles/text_scan.hpp"

#include <algorithm>
#include <cctype>

namespace torchmigrate::buildfiles {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

struct Command {
  size_t begin = 0, end = 0;  // in the logical line's text, separators excluded
};

// The commands of one logical line, split at `&`, `&&`, `|`, `||` and block parentheses outside
// quotes; `depth` (blocks open before the line) is updated to the depth after it. A `)` only
// closes a block that is open: at depth 0 cmd.exe reads it as text.
std::vector<Command> split_commands(std::string_view text, int& depth, bool& uses_blocks) {
  std::vector<Command> commands;
  size_t begin = 0;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      quoted = c != '"';
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '^') {
      ++i;
    } else if (c == '&' || c == '|' || c == '(' || (c == ')' && depth > 0)) {
      commands.push_back({begin, i});
      if (c == '(') ++depth;
      if (c == ')') --depth;
      uses_blocks = uses_blocks || c == '(' || c == ')';
      begin = i + 1;
    }
  }
  commands.push_back({begin, text.size()});
  std::erase_if(commands, [&](const Command& command) {
    return std::all_of(text.begin() + static_cast<long>(command.begin), text.begin() + static_cast<long>(command.end),
                       is_blank);
  });
  return commands;
}

size_t skip_blanks(std::string_view text, size_t i, size_t end) {
  while (i < end && is_blank(text[i])) ++i;
  return i;
}

size_t word_end(std::string_view text, size_t i, size_t end) {
  while (i < end && !is_blank(text[i])) ++i;
  return i;
}

// cmd.exe drops the `^` escapes of an unquoted value.
std::string unescape(std::string_view raw) {
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '^' && i + 1 < raw.size()) ++i;
    out.push_back(raw[i]);
  }
  return out;
}

class LineReader {
 public:
  LineReader(const LogicalLine& line, const std::vector<std::string>& names, std::vector<Assignment>& out)
      : line_(line), text_(line.text), names_(names), out_(out) {}

  // `alone`: the command is the line's only one, outside any block, so deleting the line is clean.
  void read(const Command& command, bool alone) {
    size_t start = skip_blanks(text_, command.begin, command.end);
    while (start < command.end && text_[start] == '@') start = skip_blanks(text_, start + 1, command.end);
    size_t first_end = word_end(text_, start, command.end);
    std::string_view first = text_.substr(start, first_end - start);
    if (equals_ignore_case(first, "set") || equals_ignore_case(first, "setx")) {
      keyword(command, start, first_end, alone);
      return;
    }
    // `if defined X set Y=1`, `for ... do set Y=%%a`, `) else set Y=1`: the keyword is a later
    // word of a conditional or loop command, which cannot be deleted alone.
    bool compound = false;
    for (std::string_view head : {"if", "for", "do", "else"}) compound = compound || equals_ignore_case(first, head);
    if (!compound) return;
    for (size_t at = first_end; at < command.end;) {
      at = skip_blanks(text_, at, command.end);
      size_t end = word_end(text_, at, command.end);
      std::string_view word = text_.substr(at, end - at);
      if (equals_ignore_case(word, "set") || equals_ignore_case(word, "setx")) {
        keyword(command, at, end, false);
        return;
      }
      at = end;
    }
  }

 private:
  void keyword(const Command& command, size_t keyword_begin, size_t keyword_end, bool alone) {
    size_t name_begin = skip_blanks(text_, keyword_end, command.end);
    if (name_begin == keyword_end) return;  // `set` must be followed by a blank
    bool setx = keyword_end - keyword_begin == 4;
    if (setx) {
      read_setx(command, name_begin, alone);
    } else {
      read_set(command, name_begin, alone);
    }
  }

  // `set NAME=value` (the value runs to the end of the command, trailing blanks included) and
  // `set "NAME=value"` (the value ends at the command's last quote). `set NAME=` with nothing
  // after it deletes the variable and is no assignment.
  void read_set(const Command& command, size_t name_begin, bool alone) {
    bool quoted = text_[name_begin] == '"';
    if (quoted) ++name_begin;
    size_t equals = text_.find('=', name_begin);
    if (equals == std::string_view::npos || equals >= command.end) return;
    std::string_view name = text_.substr(name_begin, equals - name_begin);
    if (std::find(names_.begin(), names_.end(), name) == names_.end()) return;
    size_t value_begin = equals + 1;
    size_t value_end = command.end;
    if (quoted) {
      size_t last_quote = text_.rfind('"', command.end - 1);
      if (last_quote >= value_begin) value_end = last_quote;
    }
    std::string_view raw = text_.substr(value_begin, value_end - value_begin);
    if (raw.empty()) return;
    Assignment assignment;
    assignment.name = std::string(name);
    assignment.name_range = line_.token_range(name_begin, equals);
    size_t shown_end = value_end;
    while (shown_end > value_begin && is_blank(text_[shown_end - 1])) --shown_end;
    assignment.value_range = line_.token_range(value_begin, shown_end);
    assignment.value = quoted ? std::string(raw) : unescape(raw);
    if (alone) assignment.removal = TextRange{line_.begin, line_.end};
    out_.push_back(std::move(assignment));
  }

  // `setx NAME value` and `setx NAME "value"`, optionally followed by `/M`; the registry forms
  // (`/K`, `/F`) read no literal value.
  void read_setx(const Command& command, size_t name_begin, bool alone) {
    size_t name_end = word_end(text_, name_begin, command.end);
    std::string_view name = text_.substr(name_begin, name_end - name_begin);
    if (std::find(names_.begin(), names_.end(), name) == names_.end()) return;
    size_t value_begin = skip_blanks(text_, name_end, command.end);
    if (value_begin == command.end || text_[value_begin] == '/') return;
    size_t value_end = word_end(text_, value_begin, command.end);
    Assignment assignment;
    if (text_[value_begin] == '"') {
      size_t close = text_.find('"', value_begin + 1);
      if (close == std::string_view::npos || close >= command.end) return;
      value_end = close + 1;
      assignment.value_quoted = true;
      assignment.quote = '"';
      assignment.value = std::string(text_.substr(value_begin + 1, close - value_begin - 1));
    } else {
      assignment.value = unescape(text_.substr(value_begin, value_end - value_begin));
    }
    assignment.name = std::string(name);
    assignment.name_range = line_.token_range(name_begin, name_end);
    assignment.value_range = line_.token_range(value_begin, value_end);
    if (alone) assignment.removal = TextRange{line_.begin, line_.end};
    out_.push_back(std::move(assignment));
  }

  const LogicalLine& line_;
  std::string_view text_;
  const std::vector<std::string>& names_;
  std::vector<Assignment>& out_;
};

}  // namespace

std::vector<Assignment> find_batch_assignments(const BuildFile& file, const std::vector<std::string>& names) {
  std::vector<Assignment> out;
  int depth = 0;
  for (const LogicalLine& line : file.lines) {
    int depth_before = depth;
    bool uses_blocks = false;
    std::vector<Command> commands = split_commands(line.text, depth, uses_blocks);
    if (std::none_of(names.begin(), names.end(), [&](const std::string& name) { return line.text.find(name) != std::string::npos; })) {
      continue;
    }
    // Deleting the only command of a block would leave `( )`, which cmd.exe rejects.
    bool alone = commands.size() == 1 && depth_before == 0 && !uses_blocks;
    LineReader reader(line, names, out);
    for (const Command& command : commands) reader.read(command, alone);
  }
  return out;
}

}  // namespace torchmigrate::buildfiles
