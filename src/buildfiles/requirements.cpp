// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/buildfiles/text_scan.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>

#include "torchmigrate/buildfiles/shell_words.hpp"
#include "torchmigrate/buildfiles/toml_guard.hpp"

namespace torchmigrate::buildfiles {
namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }



bool is_specifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '<' || c == '>' || c == '=' || c == '!' || c == '~' ||
         c == '.' || c == '*' || c == ',' || c == '+' || c == '-' || c == '_' || c == ' ' || c == '\t';
}

// Collects one requirement string found at file offsets [begin, begin + text.size()), whose
// bytes are exactly `text` when `exact`.
void add(std::vector<Requirement>& out, std::string_view text, uint32_t begin, std::string_view wanted, bool conda,
         bool exact = true) {
  std::optional<Pep508> parsed = conda ? parse_conda_spec(text) : parse_pep508(text);
  if (!parsed) return;
  std::string_view name = text.substr(parsed->name_begin, parsed->name_end - parsed->name_begin);
  if (normalize_name(name) != wanted) return;
  Requirement requirement;
  requirement.name = std::string(name);
  requirement.specifier = parsed->specifier;
  requirement.conda = conda;
  requirement.range = {begin, static_cast<uint32_t>(begin + trim_end(text, 0, text.size()))};
  requirement.specifier_range = {static_cast<uint32_t>(begin + parsed->specifier_begin),
                                 static_cast<uint32_t>(begin + parsed->specifier_end)};
  requirement.fixable = exact;
  out.push_back(std::move(requirement));
}

void requirement_file(const BuildFile& file, std::string_view wanted, std::vector<Requirement>& out) {
  for (const LogicalLine& line : file.lines) {
    std::string_view text = line.text;
    size_t start = skip_spaces(text, 0);
    if (start >= text.size() || text[start] == '-') continue;  // options: -r, -c, -e, --index-url
    // pip options after a requirement (`--hash=...`, `-f URL`) end it.
    size_t end = text.size();
    for (size_t i = start; i + 1 < text.size(); ++i) {
      if (is_space(text[i]) && text[i + 1] == '-' && i + 2 < text.size() &&
          (text[i + 2] == '-' || std::isalpha(static_cast<unsigned char>(text[i + 2])))) {
        end = i;
        break;
      }
    }
    std::string_view requirement = text.substr(start, end - start);
    // A continuation inside a requirement breaks the byte mapping: report, do not rewrite.
    bool contiguous = line.offsets[start + requirement.size() - 1] - line.offsets[start] == requirement.size() - 1;
    size_t before = out.size();
    add(out, requirement, line.offsets[start], wanted, false, contiguous);
    if (!contiguous && out.size() > before) {
      out.back().range = line.token_range(start, start + requirement.size());
      out.back().specifier_range = out.back().range;
    }
  }
}

// Byte offset of a toml++ source position (1-based line, column in code points).
uint32_t offset_of(std::string_view text, const toml::source_position& position) {
  size_t offset = 0;
  for (uint32_t line = 1; line < position.line && offset < text.size(); ++line) {
    size_t newline = text.find('\n', offset);
    if (newline == std::string_view::npos) return static_cast<uint32_t>(text.size());
    offset = newline + 1;
  }
  for (uint32_t column = 1; column < position.column && offset < text.size(); ++column) {
    ++offset;
    while (offset < text.size() && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80) ++offset;
  }
  return static_cast<uint32_t>(offset);
}

void toml_strings(const toml::node* node, std::string_view text, std::string_view wanted, std::vector<Requirement>& out) {
  if (node == nullptr) return;
  if (const toml::array* array = node->as_array()) {
    for (const toml::node& item : *array) toml_strings(&item, text, wanted, out);
    return;
  }
  if (const toml::table* table = node->as_table()) {
    for (const auto& [key, value] : *table) toml_strings(&value, text, wanted, out);
    return;
  }
  const toml::value<std::string>* string = node->as_string();
  if (string == nullptr) return;
  const std::string& value = string->get();
  uint32_t quote = offset_of(text, node->source().begin);
  // Single-line strings whose bytes are the value map exactly; others are reported unfixed.
  bool exact = quote < text.size() && (text[quote] == '"' || text[quote] == '\'') &&
               text.substr(quote + 1, value.size()) == value && quote + 1 + value.size() < text.size() &&
               text[quote + 1 + value.size()] == text[quote];
  size_t before = out.size();
  add(out, value, quote + 1, wanted, false, exact);
  if (!exact && out.size() > before) {
    uint32_t end = offset_of(text, node->source().end);
    out.back().range = {quote, std::max(end, quote)};
    out.back().specifier_range = out.back().range;
  }
}

void pyproject(const BuildFile& file, std::string_view wanted, std::vector<Requirement>& out,
               std::optional<FormatError>* error) {
  toml::table root;
  try {
    refuse_unsafe_toml(file.text);
    root = toml::parse(file.text);
  } catch (const toml::parse_error& parse_error) {
    // Not valid TOML: nothing to read reliably.
    if (error != nullptr) {
      *error = FormatError{static_cast<uint32_t>(parse_error.source().begin.line),
                           "not valid TOML (" + std::string(parse_error.description()) + ")"};
    }
    return;
  }
  toml_strings(root["project"]["dependencies"].node(), file.text, wanted, out);
  toml_strings(root["project"]["optional-dependencies"].node(), file.text, wanted, out);
  toml_strings(root["build-system"]["requires"].node(), file.text, wanted, out);
  toml_strings(root["dependency-groups"].node(), file.text, wanted, out);
  std::sort(out.begin(), out.end(), [](const Requirement& a, const Requirement& b) { return a.range < b.range; });
}

// setup.cfg: `install_requires`, `setup_requires`, `tests_require` under [options], and every
// key under [options.extras_require]; values are one requirement per (continuation) line.
void setup_cfg(const BuildFile& file, std::string_view wanted, std::vector<Requirement>& out) {
  std::string section;
  bool in_list = false;
  uint32_t key_indent = 0;
  for (const LogicalLine& line : file.lines) {
    std::string_view text = line.text;
    size_t start = skip_spaces(text, 0);
    if (start >= text.size()) continue;
    if (text[start] == ';') continue;  // INI comment
    if (line.indent == 0 && text[start] == '[') {
      size_t close = text.find(']');
      section = std::string(text.substr(start + 1, close == std::string_view::npos ? 0 : close - start - 1));
      in_list = false;
      continue;
    }
    size_t value_start = start;
    if (!in_list || line.indent <= key_indent) {
      in_list = false;
      size_t equals = text.find_first_of("=:");
      if (equals == std::string_view::npos) continue;
      std::string_view key = text.substr(start, trim_end(text, start, equals) - start);
      bool list_key = (section == "options" &&
                       (key == "install_requires" || key == "setup_requires" || key == "tests_require")) ||
                      section == "options.extras_require";
      if (!list_key) continue;
      in_list = true;
      key_indent = line.indent;
      value_start = skip_spaces(text, equals + 1);
    }
    size_t value_end = trim_end(text, value_start, text.size());
    if (value_start < value_end) add(out, text.substr(value_start, value_end - value_start), line.offsets[value_start], wanted, false);
  }
}

// setup.py: any string literal that is a requirement on the distribution.
void setup_py(const BuildFile& file, std::string_view wanted, std::vector<Requirement>& out) {
  std::string_view text = file.text;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '#') {
      size_t newline = text.find('\n', i);
      if (newline == std::string_view::npos) break;
      i = newline;
      continue;
    }
    if (c != '"' && c != '\'') continue;
    bool triple = text.substr(i, 3) == std::string(3, c);
    size_t open = i + (triple ? 3 : 1);
    size_t close = open;
    for (; close < text.size(); ++close) {
      if (text[close] == '\\') {
        ++close;
        continue;
      }
      if (triple ? text.substr(close, 3) == std::string(3, c) : (text[close] == c || text[close] == '\n')) break;
    }
    std::string_view literal = text.substr(open, std::min(close, text.size()) - open);
    bool prefixed = i > 0 && std::isalpha(static_cast<unsigned char>(text[i - 1]));  // f"", b"", r""
    if (!triple && !prefixed && literal.find('\\') == std::string_view::npos) {
      add(out, literal, static_cast<uint32_t>(open), wanted, false);
    }
    i = std::min(close + (triple ? 2 : 0), text.size());
  }
}

// environment.yml: `- spec` items are conda specs, or pip requirements under `- pip:`.
void conda_environment(const BuildFile& file, std::string_view wanted, std::vector<Requirement>& out) {
  std::optional<uint32_t> pip_indent;
  for (const LogicalLine& line : file.lines) {
    std::string_view text = line.text;
    size_t start = skip_spaces(text, 0);
    if (start >= text.size()) continue;
    if (pip_indent && line.indent <= *pip_indent) pip_indent.reset();
    if (!text.substr(start).starts_with("- ")) continue;
    size_t item = skip_spaces(text, start + 2);
    size_t item_end = trim_end(text, item, text.size());
    std::string_view value = text.substr(item, item_end - item);
    if (value == "pip:") {
      pip_indent = line.indent;
      continue;
    }
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
      ++item;
    }
    add(out, value, line.offsets[item], wanted, !pip_indent.has_value());
  }
}

// `pip install ...`, `uv pip install ...`, `conda install ...` in shell-like lines.
void install_commands(const BuildFile& file, std::string_view wanted, std::vector<Requirement>& out) {
  for (const LogicalLine& line : file.lines) {
    if (line.text.find(wanted) == std::string::npos) continue;
    std::vector<ShellWord> words = shell_words(line.text);
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i].value != "install" || i == 0) continue;
      // `/opt/conda/bin/conda install`: the program's name decides.
      std::string_view tool = words[i - 1].value;
      tool = tool.substr(tool.rfind('/') + 1);
      bool conda = tool == "conda" || tool == "mamba" || tool == "micromamba";
      bool pip = tool == "pip" || tool == "pip3" || tool.starts_with("pip3.");
      if (!conda && !pip) continue;
      for (size_t k = i + 1; k < words.size() && !words[k].is_operator; ++k) {
        const ShellWord& word = words[k];
        if (word.value.starts_with("-")) {
          if (install_option_takes_argument(word.value)) ++k;
          continue;
        }
        std::string_view raw = std::string_view(line.text).substr(word.begin, word.end - word.begin);
        bool contiguous = line.offsets[word.end - 1] - line.offsets[word.begin] == raw.size() - 1;
        size_t before = out.size();
        if (word.fully_quoted) {
          add(out, raw.substr(1, raw.size() - 2), line.offsets[word.begin] + 1, wanted, conda,
              contiguous && raw.find('\\') == std::string_view::npos);
        } else {
          add(out, raw, line.offsets[word.begin], wanted, conda, contiguous && raw.find_first_of("\\'\"") == std::string_view::npos);
          if (out.size() > before) {
            out.back().needs_quoting = true;
            out.back().word_range = line.token_range(word.begin, word.end);
            out.back().word = std::string(raw);
          }
        }
      }
    }
  }
}

}  // namespace

bool install_option_takes_argument(std::string_view option) {
  static const std::vector<std::string> with_argument = {"-r",
                                                         "-c",
                                                         "-e",
                                                         "-i",
                                                         "--index-url",
                                                         "--extra-index-url",
                                                         "--requirement",
                                                         "--constraint",
                                                         "-f",
                                                         "--find-links",
                                                         "--channel",
                                                         "-n",
                                                         "--name",
                                                         "-p",
                                                         "--prefix",
                                                         "-t",
                                                         "--target"};
  return std::find(with_argument.begin(), with_argument.end(), option) != with_argument.end();
}

std::string normalize_name(std::string_view name) {
  std::string out;
  bool separator = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      separator = true;
      continue;
    }
    if (separator && !out.empty()) out.push_back('-');
    separator = false;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

std::optional<Pep508> parse_pep508(std::string_view text) {
  Pep508 result;
  size_t i = skip_spaces(text, 0);
  if (i >= text.size() || !std::isalnum(static_cast<unsigned char>(text[i]))) return std::nullopt;
  result.name_begin = i;
  while (i < text.size() && is_name_char(text[i])) ++i;
  result.name_end = i;
  i = skip_spaces(text, i);
  if (i < text.size() && text[i] == '[') {
    size_t close = text.find(']', i);
    if (close == std::string_view::npos) return std::nullopt;
    i = skip_spaces(text, close + 1);
  }
  bool parenthesised = i < text.size() && text[i] == '(';
  if (parenthesised) i = skip_spaces(text, i + 1);
  size_t spec_begin = i;
  while (i < text.size() && is_specifier_char(text[i])) ++i;
  size_t spec_end = trim_end(text, spec_begin, i);
  if (parenthesised) {
    if (i >= text.size() || text[i] != ')') return std::nullopt;
    ++i;
  }
  size_t rest = skip_spaces(text, i);
  if (rest < text.size() && text[rest] != ';' && text[rest] != '@') return std::nullopt;
  if (rest < text.size() && text[rest] == '@') spec_end = spec_begin;  // a URL requirement
  result.specifier_begin = spec_begin;
  result.specifier_end = spec_end;
  if (spec_begin == spec_end) result.specifier_end = result.specifier_begin = result.name_end;
  result.specifier = std::string(text.substr(spec_begin, spec_end - spec_begin));
  if (rest < text.size() && text[rest] == '@') result.specifier.clear();
  return result;
}

std::optional<Pep508> parse_conda_spec(std::string_view text) {
  Pep508 result;
  size_t i = skip_spaces(text, 0);
  size_t channel = text.find("::", i);
  if (channel != std::string_view::npos) i = channel + 2;
  if (i >= text.size() || !std::isalnum(static_cast<unsigned char>(text[i]))) return std::nullopt;
  result.name_begin = i;
  while (i < text.size() && is_name_char(text[i])) ++i;
  result.name_end = i;
  size_t end = trim_end(text, i, text.size());
  result.specifier_begin = result.specifier_end = i;
  if (i == end) return result;
  std::string_view spec = text.substr(i, end - i);
  if (spec.find_first_of("|[") != std::string_view::npos) return std::nullopt;  // alternatives, brackets
  std::string version;
  if (spec.front() == '=' && !spec.starts_with("==")) {
    // `=1.2` and `=1.2=build`: a fuzzy prefix match.
    version = std::string(spec.substr(1, spec.find('=', 1) == std::string_view::npos ? std::string_view::npos
                                                                                       : spec.find('=', 1) - 1));
    result.specifier = "==" + (version.ends_with("*") ? version : version + ".*");
  } else if (is_space(spec.front())) {
    // `name 1.2 [build]`: a version without operator is a prefix match too.
    size_t v = skip_spaces(spec, 0);
    size_t v_end = spec.find_first_of(" \t", v);
    std::string_view first = spec.substr(v, v_end == std::string_view::npos ? std::string_view::npos : v_end - v);
    if (!first.empty() && std::isdigit(static_cast<unsigned char>(first.front()))) {
      version = std::string(first);
      result.specifier = "==" + (version.ends_with("*") ? version : version + ".*");
    } else {
      result.specifier = std::string(first);
    }
  } else {
    result.specifier = std::string(spec);
  }
  if (result.specifier.find(".*.*") != std::string::npos) result.specifier.replace(result.specifier.find(".*.*"), 4, ".*");
  result.specifier_end = end;
  return result;
}

std::vector<Requirement> find_requirements(const BuildFile& file, std::string_view name,
                                           std::optional<FormatError>* error) {
  std::vector<Requirement> out;
  // Quick test on the letters alone, so `ONNX_Script` still counts.
  auto letters = [](std::string_view text) {
    std::string out;
    for (char c : text) {
      if (c != '-' && c != '_' && c != '.') out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    return out;
  };
  if (file.text.find(name) == std::string_view::npos && letters(file.text).find(letters(name)) == std::string::npos) {
    return out;
  }
  switch (file.kind) {
    case FileKind::Requirements: requirement_file(file, name, out); break;
    case FileKind::Toml: pyproject(file, name, out, error); break;
    case FileKind::Ini: setup_cfg(file, name, out); break;
    case FileKind::SetupPy: setup_py(file, name, out); break;
    case FileKind::CondaEnvironment: conda_environment(file, name, out); break;
    case FileKind::Dockerfile:
    case FileKind::Shell:
    case FileKind::Yaml:
    case FileKind::Makefile: install_commands(file, name, out); break;
    case FileKind::CMake:
    case FileKind::DotEnv:
    case FileKind::Batch:        // `pip install` in cmd scripts and container definitions is
    case FileKind::Singularity:  // not read yet
    case FileKind::Unknown: break;
  }
  return out;
}

}  // namespace torchmigrate::buildfiles
