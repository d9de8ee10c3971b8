// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/requirement_deletion.hpp"

#include "torchmigrate/buildfiles/shell_words.hpp"

namespace torchmigrate::checks {
namespace {

std::string_view trimmed(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

const buildfiles::LogicalLine* line_at(const buildfiles::BuildFile& file, uint32_t offset) {
  for (const buildfiles::LogicalLine& line : file.lines) {
    if (line.begin <= offset && offset < line.end) return &line;
  }
  return nullptr;
}

// A requirement file line, an environment.yml item (`- name`, `- "name"`) or a TOML array item
// on a line of its own (`"name",`) that is the requirement and nothing else (comments aside): the
// whole line goes. A TOML array keeps its meaning when the item before the one deleted is left
// with a trailing comma.
std::optional<Edit> whole_line(const buildfiles::BuildFile& file, const buildfiles::LogicalLine& line,
                               std::string_view written) {
  std::string_view code = trimmed(line.text);
  if (file.kind == buildfiles::FileKind::CondaEnvironment) {
    if (!code.starts_with("- ")) return std::nullopt;
    code = trimmed(code.substr(2));
  }
  if (file.kind == buildfiles::FileKind::Toml && code.ends_with(',')) code = trimmed(code.substr(0, code.size() - 1));
  if (file.kind != buildfiles::FileKind::Requirements && code.size() >= 2 &&
      (code.front() == '"' || code.front() == '\'') && code.back() == code.front()) {
    code = code.substr(1, code.size() - 2);
  }
  if (code != written) return std::nullopt;
  return Edit::remove({line.begin, line.end});
}

// The requirement's word in an install command with at least one other package: the word goes
// with the blanks before it.
std::optional<Edit> command_word(const buildfiles::LogicalLine& line, uint32_t offset) {
  std::vector<buildfiles::ShellWord> words = buildfiles::shell_words(line.text);
  size_t install = words.size();
  size_t packages = 0;
  std::optional<size_t> target;
  for (size_t k = 0; k < words.size(); ++k) {
    const buildfiles::ShellWord& word = words[k];
    if (word.is_operator) {
      if (target) break;
      install = words.size();
      continue;
    }
    bool holds = line.offsets[word.begin] <= offset && offset <= line.offsets[word.end - 1];
    if (install == words.size()) {
      if (word.value == "install" && k > 0) {
        install = k;
        packages = 0;
      }
      continue;
    }
    if (word.value.starts_with("-")) {
      if (buildfiles::install_option_takes_argument(word.value)) ++k;
      continue;
    }
    ++packages;
    if (holds) target = k;
  }
  if (!target || packages < 2) return std::nullopt;
  return Edit::remove({line.offsets[words[*target - 1].end], line.offsets[words[*target].end - 1] + 1});
}

}  // namespace

std::optional<Edit> requirement_deletion(const buildfiles::BuildFile& file,
                                         const buildfiles::Requirement& requirement) {
  if (!requirement.fixable) return std::nullopt;
  const buildfiles::LogicalLine* line = line_at(file, requirement.range.start);
  if (line == nullptr) return std::nullopt;
  std::string_view written = file.text.substr(requirement.range.start, requirement.range.end - requirement.range.start);
  switch (file.kind) {
    case buildfiles::FileKind::Requirements:
    case buildfiles::FileKind::CondaEnvironment:
    case buildfiles::FileKind::Toml: return whole_line(file, *line, written);
    case buildfiles::FileKind::Dockerfile:
    case buildfiles::FileKind::Shell:
    case buildfiles::FileKind::Yaml:
    case buildfiles::FileKind::Makefile: return command_word(*line, requirement.range.start);
    default: return std::nullopt;
  }
}

}  // namespace torchmigrate::checks
