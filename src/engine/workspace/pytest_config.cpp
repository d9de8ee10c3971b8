// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/pytest_config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <map>
#include <regex>

#include "torchmigrate/buildfiles/toml_guard.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/packaging_facts.hpp"

namespace torchmigrate::engine {
namespace {

std::string_view trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\r") + 1 - begin);
}

// The words of an `addopts` value with their lines; quotes are dropped, as the shell would.
struct Word {
  std::string text;
  uint32_t line;
};

void add_words(std::string_view value, uint32_t line, std::vector<Word>& out) {
  size_t at = 0;
  while (at < value.size()) {
    at = value.find_first_not_of(" \t\r", at);
    if (at == std::string_view::npos) break;
    size_t end = value.find_first_of(" \t\r", at);
    std::string word(value.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    std::erase_if(word, [](char c) { return c == '"' || c == '\''; });
    out.push_back({word, line});
    at = end == std::string_view::npos ? value.size() : end;
  }
}

// `-W FILTER`, `-WFILTER`, `--pythonwarnings[=]FILTER`, `-p no:warnings` among the words.
void read_addopts(const std::vector<Word>& words, PytestConfig& config) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i].text;
    bool next = i + 1 < words.size();
    if ((word == "-W" || word == "--pythonwarnings") && next) {
      config.filters.push_back({words[i + 1].text, words[i + 1].line});
      ++i;
    } else if (word.starts_with("--pythonwarnings=")) {
      config.filters.push_back({word.substr(17), words[i].line});
    } else if (word.starts_with("-W") && word.size() > 2) {
      config.filters.push_back({word.substr(word[2] == '=' ? 3 : 2), words[i].line});
    } else if ((word == "-p" && next && words[i + 1].text == "no:warnings") || word == "-pno:warnings") {
      config.warnings_plugin_off = true;
    }
  }
}

// pytest.ini, tox.ini and setup.cfg: `key = value` or `key: value` in `section`, a value
// continued on the indented lines below it.
std::optional<PytestConfig> read_ini(std::string_view text, std::string_view section, bool always) {
  PytestConfig config;
  std::vector<Word> addopts;
  bool found = always, inside = false;
  std::string key;
  auto add = [&](std::string_view value, uint32_t line) {
    if (key == "filterwarnings") config.filters.push_back({std::string(value), line});
    if (key == "addopts") add_words(value, line, addopts);
  };
  size_t start = 0;
  for (uint32_t number = 1; start <= text.size(); ++number) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    std::string_view content = trim(line);
    if (content.empty() || content.starts_with('#') || content.starts_with(';')) continue;
    if (line.starts_with('[')) {
      size_t close = line.find(']');
      inside = close != std::string_view::npos && trim(line.substr(1, close - 1)) == section;
      found = found || inside;
      key.clear();
      continue;
    }
    if (!inside) continue;
    if (line.starts_with(' ') || line.starts_with('\t')) {
      add(content, number);
      continue;
    }
    size_t separator = line.find_first_of("=:");
    if (separator == std::string_view::npos) continue;
    key = std::string(trim(line.substr(0, separator)));
    if (std::string_view value = trim(line.substr(separator + 1)); !value.empty()) add(value, number);
  }
  read_addopts(addopts, config);
  if (!found) return std::nullopt;
  return config;
}

// A string or an array of strings, each with its line; a string's lines are entries apart.
template <class Add>
void toml_lines(const toml::node* node, Add add) {
  if (node == nullptr) return;
  auto one = [&](const toml::node& item) {
    const std::string* value = item.is_string() ? &item.as_string()->get() : nullptr;
    if (value == nullptr) return;
    auto line = static_cast<uint32_t>(item.source().begin.line);
    size_t start = 0;
    for (uint32_t offset = 0; start <= value->size(); ++offset) {
      size_t end = std::min(value->find('\n', start), value->size());
      if (std::string_view entry = trim(std::string_view(*value).substr(start, end - start)); !entry.empty()) {
        add(entry, line + offset);
      }
      start = end + 1;
    }
  };
  if (const toml::array* array = node->as_array()) {
    for (const toml::node& item : *array) one(item);
  } else {
    one(*node);
  }
}

// pyproject.toml: [tool.pytest.ini_options], or pytest 9's [tool.pytest].
std::optional<PytestConfig> read_pyproject(std::string_view text) {
  toml::table document;
  try {
    buildfiles::refuse_unsafe_toml(text);
    document = toml::parse(text);
  } catch (const toml::parse_error&) {
    return std::nullopt;  // not pytest's to read either: it fails on it
  }
  const toml::table* pytest = document["tool"]["pytest"].as_table();
  if (pytest == nullptr) return std::nullopt;
  if (const toml::table* options = (*pytest)["ini_options"].as_table()) pytest = options;
  PytestConfig config;
  toml_lines(pytest->get("filterwarnings"), [&](std::string_view entry, uint32_t line) {
    config.filters.push_back({std::string(entry), line});
  });
  std::vector<Word> addopts;
  toml_lines(pytest->get("addopts"), [&](std::string_view entry, uint32_t line) { add_words(entry, line, addopts); });
  read_addopts(addopts, config);
  return config;
}

// The action Python's warnings module makes of a filter's first field (a prefix names one).
std::string_view action_of(std::string_view written) {
  for (std::string_view action : {"default", "always", "all", "ignore", "module", "once", "error"}) {
    if (action.starts_with(written)) return action;
  }
  return {};
}

bool deprecation_category(std::string_view category) {
  if (category.starts_with("builtins.")) category.remove_prefix(9);
  return category.empty() || category == "Warning" || category == "DeprecationWarning";
}

// Whether the regular expression `pattern` matches the start of one of `texts` (as Python's
// warnings module matches a filter's message and module); true when it does not compile here,
// since it may then match.
template <size_t N>
bool may_match(std::string_view pattern, const std::array<std::string_view, N>& texts) {
  if (pattern.empty()) return true;
  try {
    std::regex regex{std::string(pattern), std::regex::ECMAScript | std::regex::icase};
    return std::any_of(texts.begin(), texts.end(), [&](std::string_view text) {
      return std::regex_search(text.begin(), text.end(), regex, std::regex_constants::match_continuous);
    });
  } catch (const std::regex_error&) {
    return true;
  }
}

// How torch 2.10 and 2.11 word the warnings, and the modules that issue them.
constexpr std::array<std::string_view, 6> kMessages{
    "`torch.jit.script` is deprecated. Please switch to `torch.compile` or `torch.export`.",
    "`torch.jit.save` is deprecated. Please switch to `torch.export`.",
    "`torch.jit.freeze` is deprecated. Please use `torch.compile` instead.",
    "`torch.jit.interface` is deprecated. Please use `torch.compile` instead.",
    "`torch.jit.trace` is not supported in Python 3.14+ and may break. Please switch to `torch.compile` or "
    "`torch.export`.",
    "Lite Interpreter is deprecated. Please consider switching to ExecuTorch.",
};
constexpr std::array<std::string_view, 6> kModules{"torch.jit._script", "torch.jit._trace", "torch.jit._serialization",
                                                   "torch.jit._freeze", "torch.jit._async", "torch.jit._fuser"};

}  // namespace

std::optional<PytestConfig> read_pytest_config(std::string_view name, std::string_view text) {
  if (name == "pytest.ini" || name == ".pytest.ini") return read_ini(text, "pytest", true);
  if (name == "tox.ini") return read_ini(text, "pytest", false);
  if (name == "setup.cfg") return read_ini(text, "tool:pytest", false);
  if (name == "pyproject.toml") return read_pyproject(text);
  return std::nullopt;
}

const PytestFilter* warnings_as_errors_filter(const PytestConfig& config) {
  if (config.warnings_plugin_off) return nullptr;
  const PytestFilter* found = nullptr;
  for (const PytestFilter& filter : config.filters) {
    std::array<std::string_view, 5> parts{};
    std::string_view rest = filter.text;
    for (size_t i = 0; i < parts.size() && !rest.empty(); ++i) {
      size_t colon = i + 1 < parts.size() ? rest.find(':') : std::string_view::npos;
      parts[i] = trim(rest.substr(0, colon));
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
    auto [action, message, category, module, lineno] = parts;
    if (!deprecation_category(category) || !trim(lineno).empty()) continue;
    if (action_of(action) == "error") {
      if (message.empty() && module.empty()) found = &filter;
    } else if (may_match(message, kMessages) && may_match(module, kModules)) {
      found = nullptr;  // shown or ignored again
    }
  }
  return found;
}

ProjectLine pytest_warnings_as_errors_of(const ProjectTree& tree) {
  // pytest's order within a directory; a directory's first file with a pytest section counts.
  static const std::map<std::string_view, int> kRank{
      {"pytest.ini", 0}, {".pytest.ini", 1}, {"pyproject.toml", 2}, {"tox.ini", 3}, {"setup.cfg", 4}};
  std::map<std::string, std::map<int, std::string>> by_directory;  // directory -> rank -> relative
  for (const DiscoveredFile& file : tree.files) {
    if (file.contents) continue;
    std::string_view path = file.path;
    size_t name_at = path.rfind('/');
    if (!kRank.contains(path.substr(name_at == std::string_view::npos ? 0 : name_at + 1))) continue;
    std::string relative = project_relative(tree.root, file.path);  // resolves links: only for these names
    size_t slash = relative.rfind('/');
    auto rank = kRank.find(std::string_view(relative).substr(slash == std::string::npos ? 0 : slash + 1));
    if (relative.empty() || rank == kRank.end()) continue;
    by_directory[slash == std::string::npos ? "" : relative.substr(0, slash)][rank->second] = relative;
  }
  for (const auto& [directory, files] : by_directory) {
    for (const auto& [rank, relative] : files) {
      ReadResult read = read_file(tree.root / relative);
      if (!read.text) continue;
      std::string_view name = std::string_view(relative).substr(directory.empty() ? 0 : directory.size() + 1);
      std::optional<PytestConfig> config = read_pytest_config(name, *read.text);
      if (!config) continue;
      if (const PytestFilter* filter = warnings_as_errors_filter(*config)) {
        return {relative, filter->line, filter->text};
      }
      break;  // pytest reads no other file of this directory
    }
  }
  return {};
}

}  // namespace torchmigrate::engine
