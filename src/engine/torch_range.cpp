// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/torch_range.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <set>
#include <fstream>
#include <functional>
#include <sstream>
#include <system_error>

#include "torchmigrate/engine/pep440.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::engine {
namespace fs = std::filesystem;

namespace {

enum class PinFileKind { Requirements, Constraints, Pyproject, SetupCfg, SetupPy, Environment };

std::optional<PinFileKind> pin_file_kind(const std::string& name) {
  if (name.starts_with("requirements") && name.ends_with(".txt")) return PinFileKind::Requirements;
  if (name.starts_with("constraints") && name.ends_with(".txt")) return PinFileKind::Constraints;
  if (name == "pyproject.toml") return PinFileKind::Pyproject;
  if (name == "setup.cfg") return PinFileKind::SetupCfg;
  if (name == "setup.py") return PinFileKind::SetupPy;
  if (name.starts_with("environment") && (name.ends_with(".yml") || name.ends_with(".yaml"))) {
    return PinFileKind::Environment;
  }
  return std::nullopt;
}

// The project's pin files in one directory, in tie-breaking order.
std::vector<fs::path> pin_files(const fs::path& directory) {
  std::vector<std::pair<PinFileKind, fs::path>> found;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    std::error_code type_error;
    if (!it->is_regular_file(type_error)) continue;
    if (auto kind = pin_file_kind(it->path().filename().string())) found.emplace_back(*kind, it->path());
  }
  std::sort(found.begin(), found.end());
  std::vector<fs::path> files;
  for (auto& entry : found) files.push_back(std::move(entry.second));
  return files;
}

// Paths are shown relative to the working directory when they are inside it.
std::string display(const fs::path& path) {
  std::error_code error;
  fs::path cwd = fs::current_path(error);
  if (!error) {
    fs::path relative = path.lexically_relative(cwd);
    if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  }
  return path.generic_string();
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::optional<std::string> read_text(const fs::path& file, std::vector<std::string>& notes) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    notes.push_back(display(file) + ": cannot be read; ignored");
    return std::nullopt;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Collects pins from requirement strings, noting the ones that cannot be read.
class PinCollector {
 public:
  PinCollector(const fs::path& file, std::vector<std::string>& notes) : where_(display(file)), notes_(notes) {}

  // `conda`: a conda match spec, where the package may also be called `pytorch`.
  void add(std::string_view requirement_text, size_t line, bool conda = false) {
    std::optional<Requirement> requirement = parse_requirement(requirement_text);
    if (!requirement) return;
    bool is_torch = requirement->name == "torch" || (conda && requirement->name == "pytorch");
    if (!is_torch) return;
    std::string specifiers = conda ? conda_to_pep440(requirement->specifiers) : requirement->specifiers;
    std::string source = where_ + ":" + std::to_string(line);
    try {
      if (std::optional<TorchVersion> lowest = lowest_admitted(specifiers)) pins_.push_back({*lowest, source});
    } catch (const SpecifierError& error) {
      std::string shown(trim(requirement_text));
      notes_.push_back(source + ": cannot read the torch requirement `" + shown + "` (" + error.what() + "); ignored");
    }
  }

  std::vector<TorchPin> take() { return std::move(pins_); }

 private:
  // Conda match specs: `pytorch=2.8` and `pytorch 2.8.*` mean `==2.8.*`; a build string may follow.
  static std::string conda_to_pep440(const std::string& specifiers) {
    std::string_view spec = trim(specifiers);
    if (spec.starts_with('=') && !spec.starts_with("==")) {
      spec.remove_prefix(1);
      spec = spec.substr(0, spec.find('='));
      return "==" + std::string(trim(spec));
    }
    if (!spec.empty() && std::isdigit(static_cast<unsigned char>(spec.front()))) {
      spec = spec.substr(0, spec.find(' '));
      return "==" + std::string(spec);
    }
    return std::string(spec);
  }

  std::string where_;
  std::vector<std::string>& notes_;
  std::vector<TorchPin> pins_;
};

// `-r other.txt` / `--requirement=other.txt` / `-c constraints.txt` lines: pip reads those files
// as part of this one, so their pins count (`requirements.txt` that only says
// `-r requirements/base.txt` is common).
std::optional<std::string> included_file(std::string_view line) {
  for (std::string_view option : {"--requirement", "--constraint", "-r", "-c"}) {
    if (!line.starts_with(option)) continue;
    std::string_view rest = line.substr(option.size());
    if (!rest.empty() && rest.front() == '=') rest.remove_prefix(1);
    else if (!rest.empty() && !std::isspace(static_cast<unsigned char>(rest.front())) && option.size() > 2) continue;
    rest = trim(rest);
    if (rest.empty()) return std::nullopt;
    return std::string(rest.substr(0, rest.find_first_of(" \t")));
  }
  return std::nullopt;
}

void read_requirements(std::string_view text, PinCollector& pins, std::vector<std::string>& includes) {
  size_t number = 0;
  size_t start_line = 0;
  std::string logical;  // a requirement continued over lines with `\`
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (logical.empty()) start_line = number;
    // A `#` starts a comment at the line start or after whitespace.
    for (size_t hash = line.find('#'); hash != std::string::npos; hash = line.find('#', hash + 1)) {
      if (hash == 0 || std::isspace(static_cast<unsigned char>(line[hash - 1]))) {
        line.erase(hash);
        break;
      }
    }
    std::string_view view = trim(line);
    if (view.ends_with('\\')) {
      logical += std::string(view.substr(0, view.size() - 1)) + " ";
      continue;
    }
    logical += std::string(view);
    std::string_view requirement = trim(logical);
    // Options (`-r other.txt`, `--hash=...` after a requirement) are not part of the specifier.
    if (!requirement.empty() && requirement.front() != '-') {
      size_t option = requirement.find(" -");
      pins.add(requirement.substr(0, option), start_line);
    } else if (auto included = included_file(requirement)) {
      includes.push_back(*included);
    }
    logical.clear();
  }
}

void read_pyproject(const fs::path& file, std::string_view text, PinCollector& pins, std::vector<std::string>& notes) {
  toml::table document;
  try {
    document = toml::parse(text, file.string());
  } catch (const toml::parse_error& error) {
    notes.push_back(display(file) + ":" + std::to_string(error.source().begin.line) + ": not valid TOML (" +
                    std::string(error.description()) + "); ignored");
    return;
  }
  auto add_array = [&](const toml::node* node) {
    const toml::array* array = node == nullptr ? nullptr : node->as_array();
    if (array == nullptr) return;
    for (const toml::node& element : *array) {
      if (const auto* value = element.as_string()) pins.add(value->get(), element.source().begin.line);
    }
  };
  add_array(document["project"]["dependencies"].node());
  if (const toml::table* optional = document["project"]["optional-dependencies"].as_table()) {
    for (const auto& [group, requirements] : *optional) add_array(&requirements);
  }
}

// setup.cfg: `install_requires` in [options] and every key of [options.extras_require], each a
// requirement per (continuation) line.
void read_setup_cfg(std::string_view text, PinCollector& pins) {
  std::string section;
  bool in_list = false;
  size_t number = 0;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string_view view = trim(line);
    if (view.empty() || view.front() == '#' || view.front() == ';') continue;
    bool continuation = std::isspace(static_cast<unsigned char>(line.front()));
    if (view.front() == '[' && view.back() == ']') {
      section = std::string(trim(view.substr(1, view.size() - 2)));
      in_list = false;
      continue;
    }
    if (continuation) {
      if (in_list) pins.add(view, number);
      continue;
    }
    size_t equals = view.find_first_of("=:");
    if (equals == std::string_view::npos) {
      in_list = false;
      continue;
    }
    std::string key(trim(view.substr(0, equals)));
    in_list = (section == "options" && key == "install_requires") || section == "options.extras_require";
    std::string_view value = trim(view.substr(equals + 1));
    if (in_list && !value.empty()) pins.add(value, number);
  }
}

// setup.py: string literals of `install_requires=[...]` / `extras_require={...: [...]}` in any
// call, following a name to its module-level list assignment.
void read_setup_py(std::string_view text, PinCollector& pins) {
  python::SyntaxTree tree = python::SyntaxTree::parse(text);
  python::Node root = tree.root();
  auto line_of = [&](const python::Node& node) {
    return static_cast<size_t>(std::count(text.begin(), text.begin() + node.start(), '\n')) + 1;
  };
  auto module_assignment = [&](std::string_view name) -> python::Node {
    python::Node found;
    for (uint32_t i = 0; i < root.named_child_count(); ++i) {
      python::Node statement = root.named_child(i);
      if (statement.kind() != "expression_statement" || statement.named_child_count() == 0) continue;
      python::Node assignment = statement.named_child(0);
      if (assignment.kind() == "assignment" && assignment.field("left").text() == name) {
        found = assignment.field("right");
      }
    }
    return found;
  };
  std::function<void(python::Node, int)> add_strings = [&](python::Node value, int depth) {
    if (!value || depth > 3) return;
    std::string_view kind = value.kind();
    if (kind == "identifier") {
      add_strings(module_assignment(value.text()), depth + 1);
    } else if (kind == "list" || kind == "tuple" || kind == "set") {
      for (uint32_t i = 0; i < value.named_child_count(); ++i) add_strings(value.named_child(i), depth);
    } else if (kind == "dictionary") {
      for (uint32_t i = 0; i < value.named_child_count(); ++i) {
        python::Node pair = value.named_child(i);
        if (pair.kind() == "pair") add_strings(pair.field("value"), depth);
      }
    } else if (kind == "string") {
      std::string_view literal = value.text();
      size_t quote = literal.find_first_of("'\"");
      if (quote == std::string_view::npos) return;
      literal.remove_prefix(quote);
      size_t delimiter = literal.starts_with("'''") || literal.starts_with("\"\"\"") ? 3 : 1;
      if (literal.size() < 2 * delimiter) return;
      pins.add(literal.substr(delimiter, literal.size() - 2 * delimiter), line_of(value));
    }
  };
  // The tree is small (one setup.py); a plain walk over keyword arguments is enough.
  std::function<void(python::Node)> walk = [&](python::Node node) {
    if (node.kind() == "keyword_argument") {
      std::string_view name = node.field("name").text();
      if (name == "install_requires" || name == "extras_require") add_strings(node.field("value"), 0);
    }
    for (uint32_t i = 0; i < node.named_child_count(); ++i) walk(node.named_child(i));
  };
  walk(root);
}

// environment.yml: list items under the top-level `dependencies:` key, including its `pip:` list.
void read_environment(std::string_view text, PinCollector& pins) {
  bool in_dependencies = false;
  size_t number = 0;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (size_t hash = line.find(" #"); hash != std::string::npos) line.erase(hash);
    std::string_view view = trim(line);
    if (view.empty() || view.front() == '#') continue;
    if (!std::isspace(static_cast<unsigned char>(line.front())) && view.front() != '-') {
      in_dependencies = view.starts_with("dependencies:");
      continue;
    }
    if (!in_dependencies || view.front() != '-') continue;
    view = trim(view.substr(1));
    if (view.size() >= 2 && (view.front() == '"' || view.front() == '\'') && view.back() == view.front()) {
      view = view.substr(1, view.size() - 2);
    }
    if (size_t channel = view.find("::"); channel != std::string_view::npos) view.remove_prefix(channel + 2);
    pins.add(view, number, /*conda=*/true);
  }
}

}  // namespace

std::string TorchRange::describe() const {
  std::string text = "supported torch >= " + min_torch.str();
  if (source == "default") return text + " (default; no torch requirement with a lower bound found)";
  return text + " (from " + source + ")";
}

bool is_pin_file_name(const std::string& file_name) { return pin_file_kind(file_name).has_value(); }

bool holds_pins(const fs::path& directory) { return !pin_files(directory).empty(); }

std::vector<fs::path> find_project_roots(const std::vector<fs::path>& paths) {
  std::vector<fs::path> roots;
  // pre-commit passes thousands of files from a few directories: each directory is read once.
  std::set<fs::path> visited;
  for (const fs::path& path : paths) {
    std::error_code error;
    fs::path directory = fs::weakly_canonical(fs::absolute(path, error), error);
    if (error) continue;
    if (!fs::is_directory(directory, error)) directory = directory.parent_path();
    for (;;) {
      if (!visited.insert(directory).second) break;
      if (!pin_files(directory).empty()) {
        if (std::find(roots.begin(), roots.end(), directory) == roots.end()) roots.push_back(directory);
        break;
      }
      // A repository's top is the project's outer edge.
      if (fs::exists(directory / ".git", error) || directory == directory.parent_path()) break;
      directory = directory.parent_path();
    }
  }
  return roots;
}

namespace {

// A requirements file and the files it includes with `-r`/`-c`, each read once.
std::vector<TorchPin> read_requirements_file(const fs::path& file, std::vector<std::string>& notes,
                                             std::set<fs::path>& seen) {
  std::error_code error;
  fs::path canonical = fs::weakly_canonical(file, error);
  if (!seen.insert(error ? file : canonical).second) return {};
  std::optional<std::string> text = read_text(file, notes);
  if (!text) return {};
  PinCollector collector(file, notes);
  std::vector<std::string> includes;
  read_requirements(*text, collector, includes);
  std::vector<TorchPin> pins = collector.take();
  for (const std::string& included : includes) {
    std::vector<TorchPin> more = read_requirements_file((file.parent_path() / included).lexically_normal(), notes, seen);
    pins.insert(pins.end(), more.begin(), more.end());
  }
  return pins;
}

}  // namespace

std::vector<TorchPin> read_torch_pins(const fs::path& file, std::vector<std::string>& notes) {
  std::optional<PinFileKind> kind = pin_file_kind(file.filename().string());
  if (!kind) return {};
  if (*kind == PinFileKind::Requirements || *kind == PinFileKind::Constraints) {
    std::set<fs::path> seen;
    return read_requirements_file(file, notes, seen);
  }
  std::optional<std::string> text = read_text(file, notes);
  if (!text) return {};
  PinCollector pins(file, notes);
  switch (*kind) {
    case PinFileKind::Requirements:
    case PinFileKind::Constraints: break;  // read above
    case PinFileKind::Pyproject: read_pyproject(file, *text, pins, notes); break;
    case PinFileKind::SetupCfg: read_setup_cfg(*text, pins); break;
    case PinFileKind::SetupPy: read_setup_py(*text, pins); break;
    case PinFileKind::Environment: read_environment(*text, pins); break;
  }
  return pins.take();
}

TorchRange detect_torch_range(const std::vector<fs::path>& paths) {
  TorchRange range;
  std::optional<TorchPin> lowest;
  for (const fs::path& root : find_project_roots(paths)) {
    for (const fs::path& file : pin_files(root)) {
      for (const TorchPin& pin : read_torch_pins(file, range.notes)) {
        // The oldest torch any pin admits must keep working; the first pin wins a tie.
        if (!lowest || pin.version < lowest->version) lowest = pin;
      }
    }
  }
  if (lowest) {
    range.min_torch = lowest->version;
    range.source = lowest->source;
  }
  return range;
}

TorchRange resolve_torch_range(const std::optional<TorchOverride>& override_value, const std::vector<fs::path>& paths) {
  if (override_value) {
    TorchRange range;
    range.min_torch = TorchVersion::parse(override_value->value);
    range.source = override_value->source;
    return range;
  }
  return detect_torch_range(paths);
}

}  // namespace torchmigrate::engine
