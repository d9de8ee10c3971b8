// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/torch_range.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <system_error>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/engine/file_io.hpp"

namespace torchmigrate::engine {
namespace fs = std::filesystem;

namespace {

enum class PinFileKind { Requirements, Constraints, Pyproject, SetupCfg, SetupPy, Environment };

std::optional<PinFileKind> pin_file_kind(std::string_view name) {
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
  for (const std::string& name :
       regular_files_named(directory, [](std::string_view name) { return pin_file_kind(name).has_value(); })) {
    found.emplace_back(*pin_file_kind(name), directory / name);
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

// The torch requirements of one pin file, read by the same reader as the packaging rules
// (buildfiles::find_requirements), each turned into the lowest MAJOR.MINOR it admits.
class PinCollector {
 public:
  PinCollector(const fs::path& file, std::vector<std::string>& notes) : where_(display(file)), notes_(notes) {}

  void add_all(std::string_view text, buildfiles::FileKind kind) {
    buildfiles::BuildFile build_file = buildfiles::BuildFile::read(text, kind);
    std::optional<buildfiles::FormatError> error;
    std::vector<buildfiles::Requirement> requirements = buildfiles::find_requirements(build_file, "torch", &error);
    if (error) notes_.push_back(where_ + ":" + std::to_string(error->line) + ": " + error->what + "; ignored");
    // conda calls the distribution `pytorch`.
    if (kind == buildfiles::FileKind::CondaEnvironment) {
      for (buildfiles::Requirement& conda : buildfiles::find_requirements(build_file, "pytorch")) {
        if (conda.conda) requirements.push_back(std::move(conda));
      }
    }
    for (const buildfiles::Requirement& requirement : requirements) add(text, requirement);
  }

  std::vector<TorchPin> take() {
    std::stable_sort(pins_.begin(), pins_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<TorchPin> pins;
    for (auto& [offset, pin] : pins_) pins.push_back(std::move(pin));
    return pins;
  }

 private:
  void add(std::string_view text, const buildfiles::Requirement& requirement) {
    size_t line = static_cast<size_t>(std::count(text.begin(), text.begin() + requirement.range.start, '\n')) + 1;
    std::string source = where_ + ":" + std::to_string(line);
    std::string shown(trim(text.substr(requirement.range.start, requirement.range.length())));
    auto note = [&](const std::string& why) {
      notes_.push_back(source + ": cannot read the torch requirement `" + shown + "` (" + why + "); ignored");
    };
    std::optional<std::vector<buildfiles::Specifier>> specifiers = buildfiles::parse_specifiers(requirement.specifier);
    if (!specifiers) return note("`" + requirement.specifier + "` is not a version specifier");
    std::optional<buildfiles::LowerBound> lowest = buildfiles::lowest_admitted(*specifiers);
    if (!lowest) return;  // no lower bound: says nothing about the oldest supported torch
    const buildfiles::Version& version = lowest->version;
    if (version.epoch() != 0) return note("torch versions have no epoch");
    const std::vector<long>& release = version.release();
    TorchVersion pinned{static_cast<int>(release[0]), release.size() > 1 ? static_cast<int>(release[1]) : 0};
    pins_.emplace_back(requirement.range.start, TorchPin{pinned, source});
  }

  std::string where_;
  std::vector<std::string>& notes_;
  std::vector<std::pair<uint32_t, TorchPin>> pins_;  // by offset, for a stable order
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

std::vector<std::string> included_files(std::string_view text) {
  std::vector<std::string> includes;
  for (const buildfiles::LogicalLine& line : buildfiles::logical_lines(text, buildfiles::FileKind::Requirements)) {
    if (auto included = included_file(trim(line.text))) includes.push_back(*included);
  }
  return includes;
}

}  // namespace

std::string TorchRange::describe() const {
  std::string text = "supported torch >= " + min_torch.str();
  if (source == "default") return text + " (default; no torch requirement with a lower bound found)";
  return text + " (from " + source + ")";
}

bool is_pin_file_name(std::string_view file_name) { return pin_file_kind(file_name).has_value(); }

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
  collector.add_all(*text, buildfiles::FileKind::Requirements);
  std::vector<TorchPin> pins = collector.take();
  for (const std::string& included : included_files(*text)) {
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
  pins.add_all(*text, buildfiles::kind_for(file));
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
