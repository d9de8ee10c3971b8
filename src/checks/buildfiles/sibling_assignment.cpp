// SPDX-License-Identifier: MIT
// A second assignment written on its own line after one that stands alone on its line: the line
// is copied with the name and value replaced, so the new one keeps the form of the old
// (`ENV X=1`, `export X=1`, `  X: "1"`, `- X=1`, `set X=1`, `os.environ["X"] = "1"`).
// A line with anything else on it (`X=1 cmd`, `ENV A=1 X=1`, a continuation) gets no copy:
// copying would repeat the command or the other settings.
#include <array>

#include "torchmigrate/checks/build_checks.hpp"

namespace torchmigrate::checks {
namespace {

using buildfiles::FileKind;

std::string_view trim_left(std::string_view text) {
  size_t start = text.find_first_not_of(" \t");
  return start == std::string_view::npos ? std::string_view() : text.substr(start);
}

std::string_view trim_right(std::string_view text) {
  size_t end = text.find_last_not_of(" \t\r");
  return end == std::string_view::npos ? std::string_view() : text.substr(0, end + 1);
}

// What may stand before the name: the instruction that makes a line one assignment.
bool standalone_prefix(std::string_view prefix, FileKind kind) {
  static constexpr std::array<std::string_view, 5> kLine = {"", "export ", "ENV ", "- ", "set "};
  static constexpr std::array<std::string_view, 3> kPython = {"os.environ[", "os.environ.setdefault(", "os.putenv("};
  std::string_view text = trim_left(prefix);
  if (kind == FileKind::SetupPy) {
    if (text.empty()) return false;
    text.remove_suffix(1);  // the key's opening quote
    for (std::string_view start : kPython) {
      if (text == start) return true;
    }
    return false;
  }
  if (kind == FileKind::Batch && text == "set \"") return true;
  for (std::string_view start : kLine) {
    if (text == start) return kind != FileKind::Batch || start == "set ";
  }
  return false;
}

// What may follow the value: nothing but a comment, or the call's or quoting's close.
bool standalone_suffix(std::string_view suffix, FileKind kind) {
  std::string_view text = trim_right(suffix);
  if (kind == FileKind::SetupPy) {
    size_t comment = text.find('#');
    text = trim_right(text.substr(0, comment));
    return text.empty() || text == ")";
  }
  if (kind == FileKind::Batch) return text.empty() || text == "\"";
  std::string_view rest = trim_left(text);
  return rest.empty() || (rest.front() == '#' && rest.size() < text.size());
}

}  // namespace

std::optional<Edit> sibling_assignment(const SourceFile& file, FileKind kind, const buildfiles::Assignment& assignment,
                                       std::string_view name, std::string_view value) {
  const std::string& text = file.text();
  if (file.is_excerpt() || assignment.value_range.empty()) return std::nullopt;
  size_t name_start = assignment.name_range.start;
  size_t line_start = text.rfind('\n', name_start == 0 ? 0 : name_start - 1);
  line_start = line_start == std::string::npos || name_start == 0 ? 0 : line_start + 1;
  size_t line_end = text.find('\n', assignment.value_range.end);
  bool has_newline = line_end != std::string::npos;
  if (!has_newline) line_end = text.size();
  if (text.find('\n', name_start) < assignment.value_range.end) return std::nullopt;  // spans lines
  std::string_view all(text);
  std::string_view prefix = all.substr(line_start, name_start - line_start);
  std::string_view suffix = all.substr(assignment.value_range.end, line_end - assignment.value_range.end);
  if (!standalone_prefix(prefix, kind) || !standalone_suffix(suffix, kind)) return std::nullopt;
  std::string_view between =
      all.substr(assignment.name_range.end, assignment.value_range.start - assignment.name_range.end);
  std::string quoted = assignment.value_quoted
                           ? std::string(1, assignment.quote) + std::string(value) + assignment.quote
                           : std::string(value);
  // The copy keeps a closing `)` or `"` but not a trailing comment.
  std::string_view close = trim_left(suffix);
  close = close.substr(0, close.find_first_not_of(")\""));
  std::string line = std::string(prefix) + std::string(name) + std::string(between) + quoted + std::string(close);
  bool crlf = has_newline && line_end > 0 && text[line_end - 1] == '\r';
  std::string ending = crlf ? "\r\n" : "\n";
  if (!has_newline) return Edit::insert(static_cast<uint32_t>(text.size()), ending + line);
  return Edit::insert(static_cast<uint32_t>(line_end + 1), line + ending);
}

}  // namespace torchmigrate::checks
