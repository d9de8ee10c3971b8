// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/logical_lines.hpp"

namespace torchmigrate::buildfiles {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

bool joins_backslash_lines(FileKind kind) {
  switch (kind) {
    case FileKind::Dockerfile:
    case FileKind::Shell:
    case FileKind::Makefile:
    case FileKind::Requirements:
    case FileKind::DotEnv:
    case FileKind::Singularity:  // its sections are shell
    case FileKind::Yaml:  // shell in `run:` blocks
      return true;
    default:
      return false;
  }
}

// YAML and requirement files only open a quote at the start of a scalar or word, so an
// apostrophe inside plain text (`run: echo don't`) is not a quote.
bool opens_quote(std::string_view line, size_t i, FileKind kind) {
  if (kind != FileKind::Yaml && kind != FileKind::CondaEnvironment && kind != FileKind::Requirements) return true;
  if (i == 0) return true;
  char before = line[i - 1];
  return is_space(before) || before == ':' || before == '[' || before == '{' || before == ',' || before == '=' ||
         before == '(';
}

// cmd.exe: `REM` as a command or a `::` label line is a comment, also after `&` (`set X=1 & rem
// note`), where the comment takes its `&` with it. `#` means nothing, only `"` quotes, and `^`
// escapes the next character outside quotes.
size_t batch_comment_start(std::string_view line, char& quote) {
  size_t cut = 0;  // where a comment starting at the current command would cut the line
  bool command_start = true;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote != 0) {
      if (c == '"') quote = 0;
      continue;
    }
    if (c == '&' || c == '|' || c == '(') {
      if (!command_start || c == '(') cut = c == '(' ? i + 1 : i;
      command_start = true;
      continue;
    }
    if (command_start && (is_space(c) || c == '@')) continue;
    if (command_start) {
      std::string_view rest = line.substr(i);
      bool rem = rest.size() >= 3 && (rest[0] | 0x20) == 'r' && (rest[1] | 0x20) == 'e' && (rest[2] | 0x20) == 'm' &&
                 (rest.size() == 3 || is_space(rest[3]));
      if (rem || rest.starts_with("::")) return cut;
    }
    command_start = false;
    if (c == '"') {
      quote = c;
    } else if (c == '^') {
      ++i;
    }
  }
  return line.size();
}

}  // namespace

size_t comment_start(std::string_view line, FileKind kind, char& quote) {
  if (kind == FileKind::Batch) return batch_comment_start(line, quote);
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote != 0) {
      if (c == '\\' && quote == '"' && kind != FileKind::Yaml && kind != FileKind::CondaEnvironment) {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '\\' && kind != FileKind::Requirements) {
      ++i;  // an escaped character never starts a quote or a comment
      continue;
    }
    if ((c == '"' || c == '\'') && opens_quote(line, i, kind)) {
      if (kind == FileKind::Makefile || kind == FileKind::Requirements) continue;  // no quoting there
      quote = c;
      continue;
    }
    if (c != '#') continue;
    // CMake, Makefiles, TOML and INI start a comment anywhere; shell-like syntaxes only at a word start.
    bool anywhere = kind == FileKind::CMake || kind == FileKind::Makefile || kind == FileKind::Toml ||
                    kind == FileKind::Ini || kind == FileKind::SetupPy;
    if (anywhere || i == 0 || is_space(line[i - 1])) return i;
  }
  return line.size();
}

std::vector<LogicalLine> logical_lines(std::string_view text, FileKind kind) {
  std::vector<LogicalLine> lines;
  LogicalLine current;
  bool open = false;  // a logical line continues on the next physical line
  char quote = 0;
  int depth = 0;      // CMake parentheses
  size_t position = 0;
  while (position < text.size()) {
    size_t newline = text.find('\n', position);
    size_t line_end = newline == std::string_view::npos ? text.size() : newline;
    size_t next = newline == std::string_view::npos ? text.size() : newline + 1;
    std::string_view line = text.substr(position, line_end - position);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    if (!open) {
      current = LogicalLine{};
      current.begin = static_cast<uint32_t>(position);
      quote = 0;
      depth = 0;
      while (current.indent < line.size() && is_space(line[current.indent])) ++current.indent;
    } else if (kind == FileKind::Dockerfile) {
      // Docker drops comment lines inside a continued instruction.
      size_t first = line.find_first_not_of(" \t");
      if (first != std::string_view::npos && line[first] == '#') {
        position = next;
        current.end = static_cast<uint32_t>(next);
        continue;
      }
    }
    size_t code_end = comment_start(line, kind, quote);
    std::string_view code = line.substr(0, code_end);
    bool continues = false;
    bool batch = kind == FileKind::Batch;
    if ((joins_backslash_lines(kind) || (batch && quote == 0)) && code_end == line.size()) {
      char escape = batch ? '^' : '\\';  // cmd.exe continues a line with `^`
      size_t escapes = 0;
      while (escapes < code.size() && code[code.size() - 1 - escapes] == escape) ++escapes;
      if (escapes % 2 == 1) {
        code.remove_suffix(1);
        continues = true;
      }
    }
    char cmake_quote = 0;
    for (size_t i = 0; i < code.size(); ++i) {
      current.text.push_back(code[i]);
      current.offsets.push_back(static_cast<uint32_t>(position + i));
      if (kind != FileKind::CMake) continue;
      if (cmake_quote != 0) {
        if (code[i] == '"') cmake_quote = 0;
      } else if (code[i] == '"') {
        cmake_quote = '"';
      } else if (code[i] == '(') {
        ++depth;
      } else if (code[i] == ')' && depth > 0) {
        --depth;
      }
    }
    if (kind == FileKind::CMake && depth > 0 && next < text.size()) {
      // A command continues until its parenthesis closes; the newline counts as a space.
      current.text.push_back(' ');
      current.offsets.push_back(static_cast<uint32_t>(line_end));
      continues = true;
    }
    current.end = static_cast<uint32_t>(next);
    if (continues && next < text.size()) {
      open = true;
    } else {
      open = false;
      current.offsets.push_back(static_cast<uint32_t>(position + code.size()));
      lines.push_back(std::move(current));
    }
    position = next;
  }
  if (open) {
    current.offsets.push_back(static_cast<uint32_t>(text.size()));
    lines.push_back(std::move(current));
  }
  return lines;
}

}  // namespace torchmigrate::buildfiles
