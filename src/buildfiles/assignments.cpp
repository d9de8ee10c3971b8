// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/buildfiles/text_scan.hpp"

#include <algorithm>
#include <cctype>

#include "torchmigrate/buildfiles/batch.hpp"
#include "torchmigrate/buildfiles/shell_words.hpp"

namespace torchmigrate::buildfiles {
namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool wanted(std::string_view name, const std::vector<std::string>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}



// Fills value, value_range and quoting for text[from, to) of a logical line.
void set_value(Assignment& assignment, const LogicalLine& line, size_t from, size_t to) {
  std::string_view raw = std::string_view(line.text).substr(from, to - from);
  assignment.value_range = line.token_range(from, to);
  if (from == to) assignment.value_range = {line.offsets[from], line.offsets[from]};
  if (raw.size() >= 2 && (raw.front() == '"' || raw.front() == '\'') && raw.back() == raw.front() &&
      std::count(raw.begin(), raw.end(), raw.front()) == 2) {
    assignment.value_quoted = true;
    assignment.quote = raw.front();
    assignment.value = std::string(raw.substr(1, raw.size() - 2));
  } else {
    assignment.value = std::string(raw);
  }
}

// `name`, spelt at [name_from, name_to) of the line, set to the value at [value_from, value_to).
Assignment assignment_of(std::string name, const LogicalLine& line, size_t name_from, size_t name_to, size_t value_from,
                         size_t value_to) {
  Assignment assignment;
  assignment.name = std::move(name);
  assignment.name_range = line.token_range(name_from, name_to);
  set_value(assignment, line, value_from, value_to);
  return assignment;
}

bool is_operator_word(const ShellWord& word) { return word.is_operator; }

bool is_declaration(std::string_view word) {
  return word == "export" || word == "readonly" || word == "declare" || word == "typeset" || word == "local";
}

// The lines around a YAML entry: deleting the only entry of a mapping or block would leave an
// empty (null) value, so such an entry cannot be removed.
bool is_only_yaml_child(const BuildFile& file, size_t index) {
  const LogicalLine& line = file.lines[index];
  auto content = [&](size_t i) { return file.lines[i].text.find_first_not_of(" \t") != std::string::npos; };
  bool sibling_before = false;
  for (size_t i = index; i-- > 0;) {
    if (!content(i)) continue;
    sibling_before = file.lines[i].indent >= line.indent;
    break;
  }
  bool sibling_after = false;
  for (size_t i = index + 1; i < file.lines.size(); ++i) {
    if (!content(i)) continue;
    sibling_after = file.lines[i].indent >= line.indent;
    break;
  }
  return !sibling_before && !sibling_after;
}

// The whole logical line, unless the format forbids dropping it (YAML's only child).
std::optional<TextRange> whole_line(const BuildFile& file, size_t index) {
  bool yaml = file.kind == FileKind::Yaml || file.kind == FileKind::CondaEnvironment;
  if (yaml && is_only_yaml_child(file, index)) return std::nullopt;
  return TextRange{file.lines[index].begin, file.lines[index].end};
}

// Shell words of text[from...]: NAME=value words (prefix assignments, export lists, env
// arguments, `--build-arg`/`-e` values) and `-DNAME=value` defines.
void shell_assignments(const BuildFile& file, size_t index, size_t from, bool line_may_go,
                       const std::vector<std::string>& names, std::vector<Assignment>& out) {
  const LogicalLine& line = file.lines[index];
  std::string_view text = std::string_view(line.text).substr(from);
  std::vector<ShellWord> words = shell_words(text);
  bool single_command = std::none_of(words.begin(), words.end(), is_operator_word);
  size_t command_start = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    const ShellWord& word = words[i];
    if (word.is_operator) {
      command_start = i + 1;
      continue;
    }
    std::string_view raw = text.substr(word.begin, word.end - word.begin);
    size_t name_at = raw.starts_with("-D") ? 2 : 0;
    size_t equals = raw.find('=', name_at);
    if (equals == std::string_view::npos) continue;
    std::string_view name = raw.substr(name_at, equals - name_at);
    if (!wanted(name, names) || !is_assignment_word(raw.substr(name_at))) continue;

    size_t base = from + word.begin;
    Assignment assignment =
        assignment_of(std::string(name), line, base + name_at, base + equals, base + equals + 1, from + word.end);

    if (name_at == 0) {
      // Where does the word sit in its command?
      const ShellWord& head = words[command_start];
      size_t end_of_command = i + 1;
      while (end_of_command < words.size() && !words[end_of_command].is_operator) ++end_of_command;
      bool leading = true;  // only assignments (or `env`) before it
      for (size_t k = command_start; k < i; ++k) {
        if (!is_assignment_word(words[k].value) && !(k == command_start && words[k].value == "env")) leading = false;
      }
      bool declaration = is_declaration(head.value) && command_start < i;
      size_t others = 0;  // other words of the command besides the head keyword
      for (size_t k = command_start; k < end_of_command; ++k) {
        if (k != i && !(declaration && k == command_start) && !(k == command_start && head.value == "env")) ++others;
      }
      bool command_follows = false;
      for (size_t k = i + 1; k < end_of_command; ++k) {
        if (!is_assignment_word(words[k].value)) command_follows = true;
      }
      if ((leading || declaration) && others == 0 && single_command && line_may_go) {
        assignment.removal = whole_line(file, index);
      } else if (leading && !declaration && command_follows) {
        assignment.removal = line.span(base, from + words[i + 1].begin);
      } else if ((leading || declaration) && others > 0 && !(head.value == "env" && !command_follows)) {
        // One of several: drop it with the space before it (there is always a word before).
        if (i > command_start) {
          assignment.removal = line.span(from + words[i - 1].end, from + word.end);
        } else {
          assignment.removal = line.span(base, from + words[i + 1].begin);
        }
      }
    }
    out.push_back(std::move(assignment));
  }
}

void dockerfile_assignments(const BuildFile& file, size_t index, const std::vector<std::string>& names,
                            std::vector<Assignment>& out) {
  const LogicalLine& line = file.lines[index];
  std::string_view text = line.text;
  size_t start = skip_spaces(text, 0);
  size_t instruction_end = start;
  while (instruction_end < text.size() && !is_space(text[instruction_end])) ++instruction_end;
  std::string_view instruction = text.substr(start, instruction_end - start);
  if (equals_ignore_case(instruction, "RUN")) {
    shell_assignments(file, index, instruction_end, false, names, out);
    return;
  }
  if (!equals_ignore_case(instruction, "ENV") && !equals_ignore_case(instruction, "ARG")) return;
  std::vector<ShellWord> words = shell_words(text.substr(instruction_end));
  if (words.empty()) return;
  size_t base = instruction_end;
  if (equals_ignore_case(instruction, "ENV") && words[0].value.find('=') == std::string::npos) {
    // Legacy `ENV NAME value with spaces`.
    if (!wanted(words[0].value, names)) return;
    size_t value_start = words.size() > 1 ? base + words[1].begin : text.size();
    Assignment assignment = assignment_of(words[0].value, line, base + words[0].begin, base + words[0].end, value_start,
                                          trim_end(text, value_start, text.size()));
    assignment.removal = TextRange{line.begin, line.end};
    out.push_back(std::move(assignment));
    return;
  }
  for (size_t i = 0; i < words.size(); ++i) {
    std::string_view raw = text.substr(base + words[i].begin, words[i].end - words[i].begin);
    size_t equals = raw.find('=');
    std::string_view name = raw.substr(0, equals == std::string_view::npos ? raw.size() : equals);
    if (!wanted(name, names)) continue;
    Assignment assignment;
    assignment.name = std::string(name);
    assignment.name_range = line.token_range(base + words[i].begin, base + words[i].begin + name.size());
    if (equals == std::string_view::npos) {
      // `ARG NAME` declares without a value.
      set_value(assignment, line, base + words[i].end, base + words[i].end);
    } else {
      set_value(assignment, line, base + words[i].begin + equals + 1, base + words[i].end);
    }
    if (words.size() == 1) {
      assignment.removal = TextRange{line.begin, line.end};
    } else if (i > 0) {
      assignment.removal = line.span(base + words[i - 1].end, base + words[i].end);
    } else {
      assignment.removal = line.span(base + words[i].begin, base + words[i + 1].begin);
    }
    out.push_back(std::move(assignment));
  }
}

// `NAME: value` (a key of a mapping) or `- NAME=value` (compose's list form); other lines are
// scanned as shell (`run:` steps).
void yaml_assignments(const BuildFile& file, size_t index, const std::vector<std::string>& names,
                      std::vector<Assignment>& out) {
  const LogicalLine& line = file.lines[index];
  std::string_view text = line.text;
  size_t start = skip_spaces(text, 0);
  bool list_item = text.substr(start).starts_with("- ");
  size_t key_start = list_item ? skip_spaces(text, start + 2) : start;
  size_t key_end = key_start;
  bool key_quoted = key_start < text.size() && (text[key_start] == '"' || text[key_start] == '\'');
  if (key_quoted) {
    size_t close = text.find(text[key_start], key_start + 1);
    key_end = close == std::string_view::npos ? text.size() : close + 1;
  } else {
    while (key_end < text.size() && text[key_end] != ':' && !is_space(text[key_end])) ++key_end;
  }
  size_t colon = skip_spaces(text, key_end);
  std::string_view key = text.substr(key_start + (key_quoted ? 1 : 0),
                                     key_end - key_start - (key_quoted ? 2 : 0));
  if (colon < text.size() && text[colon] == ':' && (colon + 1 == text.size() || is_space(text[colon + 1]))) {
    if (wanted(key, names)) {
      size_t value_start = skip_spaces(text, colon + 1);
      Assignment assignment =
          assignment_of(std::string(key), line, key_start + (key_quoted ? 1 : 0), key_end - (key_quoted ? 1 : 0),
                        value_start, trim_end(text, value_start, text.size()));
      if (!list_item) assignment.removal = whole_line(file, index);
      out.push_back(std::move(assignment));
      return;
    }
    // `run: X=1 cmd`: the value is shell, but the line itself must stay.
    shell_assignments(file, index, colon + 1, false, names, out);
    return;
  }
  shell_assignments(file, index, list_item ? start + 2 : start, true, names, out);
}

void makefile_assignments(const BuildFile& file, size_t index, const std::vector<std::string>& names,
                          std::vector<Assignment>& out) {
  const LogicalLine& line = file.lines[index];
  std::string_view text = line.text;
  if (!text.empty() && file.text[line.begin] == '\t') {  // a recipe line is shell
    shell_assignments(file, index, 0, true, names, out);
    return;
  }
  size_t i = skip_spaces(text, 0);
  for (std::string_view keyword : {"export", "override"}) {
    if (text.substr(i).starts_with(keyword) && i + keyword.size() < text.size() && is_space(text[i + keyword.size()])) {
      i = skip_spaces(text, i + keyword.size());
    }
  }
  size_t name_end = i;
  while (name_end < text.size() && is_identifier_char(text[name_end])) ++name_end;
  std::string_view name = text.substr(i, name_end - i);
  if (!wanted(name, names)) return;
  size_t op = skip_spaces(text, name_end);
  size_t value_start = std::string_view::npos;
  for (std::string_view candidate : {":::=", "::=", ":=", "?=", "+=", "!=", "="}) {
    if (text.substr(op).starts_with(candidate)) {
      value_start = skip_spaces(text, op + candidate.size());
      break;
    }
  }
  if (value_start == std::string_view::npos) return;
  Assignment assignment =
      assignment_of(std::string(name), line, i, name_end, value_start, trim_end(text, value_start, text.size()));
  assignment.removal = TextRange{line.begin, line.end};
  out.push_back(std::move(assignment));
}

// `set(NAME v1 v2 [CACHE ...|PARENT_SCOPE])`, `set(ENV{NAME} v)`, and `-DNAME=v` arguments.
void cmake_assignments(const BuildFile& file, size_t index, const std::vector<std::string>& names,
                       std::vector<Assignment>& out) {
  const LogicalLine& line = file.lines[index];
  std::string_view text = line.text;
  for (const std::string& name : names) {
    for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      size_t after = at + name.size();
      if (after < text.size() && is_identifier_char(text[after])) continue;
      if (at >= 2 && text.substr(at - 2, 2) == "-D") {
        if (after < text.size() && text[after] == '=') {
          size_t end = after + 1;
          while (end < text.size() && !is_space(text[end]) && text[end] != ')' && text[end] != '"') ++end;
          out.push_back(assignment_of(name, line, at, after, after + 1, end));
        }
        continue;
      }
      if (at > 0 && is_identifier_char(text[at - 1])) continue;
      // What precedes must be `set(` or `set(ENV{`.
      size_t before = at;
      bool env = before >= 4 && text.substr(before - 4, 4) == "ENV{";
      if (env) before -= 4;
      while (before > 0 && is_space(text[before - 1])) --before;
      if (before == 0 || text[before - 1] != '(') continue;
      size_t command_end = before - 1;
      while (command_end > 0 && is_space(text[command_end - 1])) --command_end;
      if (command_end < 3 || !equals_ignore_case(text.substr(command_end - 3, 3), "set")) continue;
      if (command_end > 3 && is_identifier_char(text[command_end - 4])) continue;
      size_t value_start = after + (env && after < text.size() && text[after] == '}' ? 1 : 0);
      value_start = skip_spaces(text, value_start);
      // Values run to the closing parenthesis, minus CACHE/PARENT_SCOPE tails.
      std::vector<ShellWord> items;
      size_t close = value_start;
      {
        char quote = 0;
        for (; close < text.size(); ++close) {
          if (quote != 0) {
            if (text[close] == '\\') ++close;
            else if (text[close] == quote) quote = 0;
          } else if (text[close] == '"') {
            quote = '"';
          } else if (text[close] == ')') {
            break;
          }
        }
      }
      size_t value_end = value_start;
      std::string joined;
      for (const ShellWord& word : shell_words(text.substr(value_start, close - value_start))) {
        if (word.value == "CACHE" || word.value == "PARENT_SCOPE") break;
        value_end = value_start + word.end;
        if (!joined.empty()) joined += ';';
        joined += word.value;
      }
      Assignment assignment = assignment_of(name, line, at, after, value_start, value_end);
      assignment.value = joined;
      out.push_back(std::move(assignment));
    }
  }
}

// TOML and INI: `NAME = value`, also inside inline tables or environment strings.
void key_value_assignments(const BuildFile& file, size_t index, const std::vector<std::string>& names,
                           std::vector<Assignment>& out) {
  const LogicalLine& line = file.lines[index];
  std::string_view text = line.text;
  for (const std::string& name : names) {
    for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      size_t after = at + name.size();
      if ((at > 0 && (is_identifier_char(text[at - 1]) || text[at - 1] == '$')) ||
          (after < text.size() && is_identifier_char(text[after]))) {
        continue;
      }
      size_t op = skip_spaces(text, after);
      if (op >= text.size() || text[op] != '=' || (op + 1 < text.size() && text[op + 1] == '=')) continue;
      size_t value_start = skip_spaces(text, op + 1);
      size_t value_end = value_start;
      if (value_start < text.size() && (text[value_start] == '"' || text[value_start] == '\'')) {
        size_t close = text.find(text[value_start], value_start + 1);
        value_end = close == std::string_view::npos ? text.size() : close + 1;
      } else {
        while (value_end < text.size() && !is_space(text[value_end]) && text[value_end] != ',' &&
               text[value_end] != '}' && text[value_end] != '"' && text[value_end] != '\'') {
          ++value_end;
        }
      }
      out.push_back(assignment_of(name, line, at, after, value_start, value_end));
    }
  }
}

// Which logical lines of a Singularity/Apptainer definition are shell: the sections the
// runtime or the build runs (`%post`, `%environment`, ...). The header (`Bootstrap:`,
// `From:`), `%help`, `%labels`, `%files` and templated `%arguments` are not.
std::vector<bool> singularity_shell_lines(const BuildFile& file) {
  static constexpr std::string_view kShellSections[] = {
      "environment", "post", "setup", "runscript", "startscript", "test",
      "appenv", "appinstall", "apprun", "appstart", "apptest"};
  std::vector<bool> shell(file.lines.size(), false);
  bool in_shell = false;
  for (size_t index = 0; index < file.lines.size(); ++index) {
    const LogicalLine& line = file.lines[index];
    std::string_view text = std::string_view(line.text).substr(line.indent);
    if (text.size() > 1 && text[0] == '%' && std::isalpha(static_cast<unsigned char>(text[1]))) {
      size_t end = 1;
      while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
      std::string_view section = text.substr(1, end - 1);
      in_shell = std::find(std::begin(kShellSections), std::end(kShellSections), section) != std::end(kShellSections);
      continue;
    }
    shell[index] = in_shell;
  }
  return shell;
}

}  // namespace

std::vector<Assignment> find_assignments(const BuildFile& file, const std::vector<std::string>& names) {
  if (file.kind == FileKind::Batch) return find_batch_assignments(file, names);
  std::vector<Assignment> out;
  std::vector<bool> shell_lines;
  if (file.kind == FileKind::Singularity) shell_lines = singularity_shell_lines(file);
  for (size_t index = 0; index < file.lines.size(); ++index) {
    const std::string& text = file.lines[index].text;
    if (std::none_of(names.begin(), names.end(), [&](const std::string& name) { return text.find(name) != std::string::npos; })) {
      continue;
    }
    switch (file.kind) {
      case FileKind::Dockerfile: dockerfile_assignments(file, index, names, out); break;
      case FileKind::Shell:
      case FileKind::DotEnv: shell_assignments(file, index, 0, true, names, out); break;
      case FileKind::Singularity:
        if (shell_lines[index]) shell_assignments(file, index, 0, true, names, out);
        break;
      case FileKind::Yaml:
      case FileKind::CondaEnvironment: yaml_assignments(file, index, names, out); break;
      case FileKind::Makefile: makefile_assignments(file, index, names, out); break;
      case FileKind::CMake: cmake_assignments(file, index, names, out); break;
      case FileKind::Toml:
      case FileKind::Ini: key_value_assignments(file, index, names, out); break;
      case FileKind::Requirements:
      case FileKind::SetupPy:  // Python: read from its syntax tree by the checks' build front
      case FileKind::Batch:
      case FileKind::Unknown: break;
    }
  }
  return out;
}

}  // namespace torchmigrate::buildfiles
