// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/torch_range.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <string_view>
#include <system_error>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"

namespace torchmigrate::engine {
namespace fs = std::filesystem;

namespace {

// The kinds of file a range is read from, in the order their pins are listed.
enum class PinFileKind {
  Requirements,
  Constraints,
  Pyproject,
  SetupCfg,
  SetupPy,
  Environment,
  CondaRecipe,
  Dockerfile,
  Tox,
  CiWorkflow,
  Shell,  // an install script (`pip install torch==...`) in an environment folder
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<PinFileKind> package_pin_kind(std::string_view name) {
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

std::optional<PinFileKind> environment_pin_kind(std::string_view name) {
  std::string folded = lower(name);
  if (folded.starts_with("dockerfile") || folded.starts_with("containerfile") || folded.ends_with(".dockerfile")) {
    return PinFileKind::Dockerfile;
  }
  if (name == "tox.ini") return PinFileKind::Tox;
  if (name == ".gitlab-ci.yml" || name == ".gitlab-ci.yaml") return PinFileKind::CiWorkflow;
  if (name == "meta.yaml" || name == "meta.yml") return PinFileKind::CondaRecipe;
  return std::nullopt;
}

// A cheap test before a regex: only a line that names torch (any case) can pin it.
bool mentions_torch(std::string_view text) {
  for (size_t at = text.find_first_of("tT"); at != std::string_view::npos; at = text.find_first_of("tT", at + 1)) {
    if (text.size() - at >= 5 && lower(text.substr(at, 5)) == "torch") return true;
  }
  return false;
}

bool is_yaml(std::string_view name) { return name.ends_with(".yml") || name.ends_with(".yaml"); }

// Folders whose YAML files define CI jobs (matrices, install steps).
bool is_ci_folder(std::string_view folder) {
  return folder == "workflows" || folder == ".circleci" || folder == ".azure-pipelines" || folder == ".gitlab" ||
         folder == "ci" || folder == ".ci" || folder == ".buildkite" || folder == "jenkins" || folder == ".jenkins";
}

// A file's kind by its name, and by its place for CI definitions (`.github/workflows/*.yml`,
// `.circleci/*.yml`), which have no telling name of their own.
std::optional<PinFileKind> pin_kind_of(const fs::path& file) {
  std::string name = file.filename().string();
  if (auto kind = package_pin_kind(name)) return kind;
  if (auto kind = environment_pin_kind(name)) return kind;
  std::string parent = lower(file.parent_path().filename().string());
  if (is_yaml(name) && is_ci_folder(parent)) return PinFileKind::CiWorkflow;
  if (name.ends_with(".sh") || name.ends_with(".bash")) return PinFileKind::Shell;
  if (name.ends_with(".txt")) return PinFileKind::Requirements;  // named by `-r FILE`, or `reqs_*.txt`
  return std::nullopt;
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

std::optional<std::string> read_text(const fs::path& file, std::vector<std::string>* notes) {
  ReadResult read = read_file(file);
  if (!read.text && notes != nullptr) notes->push_back(display(file) + ": cannot be read; ignored");
  return std::move(read.text);
}

size_t line_of(std::string_view text, size_t offset) {
  return static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n')) + 1;
}

// The MAJOR.MINOR of a PEP 440 version; nullopt for an epoch, which torch never had.
std::optional<TorchVersion> major_minor(const buildfiles::Version& version) {
  if (version.epoch() != 0) return std::nullopt;
  const std::vector<long>& release = version.release();
  return TorchVersion{static_cast<int>(release[0]), release.size() > 1 ? static_cast<int>(release[1]) : 0};
}

// The highest MAJOR.MINOR below or at an upper bound: `<2.9` -> 2.8, `<2.9.1` -> 2.9,
// `<=2.8.1` -> 2.8; `<3` says nothing at this granularity.
std::optional<TorchVersion> highest_release(const buildfiles::UpperBound& bound) {
  std::optional<TorchVersion> version = major_minor(bound.version);
  if (!version || bound.inclusive) return version;
  const std::vector<long>& release = bound.version.release();
  bool patch = std::any_of(release.begin() + std::min<std::ptrdiff_t>(2, static_cast<std::ptrdiff_t>(release.size())),
                           release.end(), [](long part) { return part != 0; });
  if (patch) return version;
  if (release.size() < 2 || version->minor == 0) return std::nullopt;
  return TorchVersion{version->major, version->minor - 1};
}

// One interval; a file's pins are joined into their hull (alternatives: markers, matrix entries).
struct Interval {
  std::optional<TorchVersion> lowest, highest;
  std::string low_source, high_source;              // the lines that gave them
  bool bounded_below = true, bounded_above = true;  // false once an entry has no bound there

  void add(std::optional<TorchVersion> low, std::optional<TorchVersion> high, const std::string& source) {
    bounded_below = bounded_below && low.has_value();
    bounded_above = bounded_above && high.has_value();
    if (low && (!lowest || *low < *lowest)) {
      lowest = low;
      low_source = source;
    }
    if (high && (!highest || *highest < *high)) {
      highest = high;
      high_source = source;
    }
  }
  [[nodiscard]] std::optional<TorchPin> pin() const {
    std::optional<TorchVersion> low = bounded_below ? lowest : std::nullopt;
    std::optional<TorchVersion> high = bounded_above ? highest : std::nullopt;
    if (!low && !high) return std::nullopt;
    return TorchPin{low, high, low ? low_source : high_source};
  }
};

// The requirements of one file read by the same reader as the packaging rules
// (buildfiles::find_requirements), each turned into the releases it admits.
class PinCollector {
 public:
  PinCollector(const fs::path& file, std::vector<std::string>& notes) : where_(display(file)), notes_(notes) {}

  void add_all(std::string_view text, buildfiles::FileKind kind) {
    // A file that never says torch (pytorch included, in any case) pins nothing: most CI files.
    if (!mentions_torch(text)) return;
    buildfiles::BuildFile build_file = buildfiles::BuildFile::read(text, kind);
    std::optional<buildfiles::FormatError> error;
    std::vector<buildfiles::Requirement> requirements = buildfiles::find_requirements(build_file, "torch", &error);
    if (error) notes_.push_back(where_ + ":" + std::to_string(error->line) + ": " + error->what + "; ignored");
    // conda calls the distribution `pytorch`.
    if (kind == buildfiles::FileKind::CondaEnvironment || kind == buildfiles::FileKind::Dockerfile ||
        kind == buildfiles::FileKind::Yaml) {
      for (buildfiles::Requirement& conda : buildfiles::find_requirements(build_file, "pytorch")) {
        if (conda.conda) requirements.push_back(std::move(conda));
      }
    }
    for (const buildfiles::Requirement& requirement : requirements) add(text, requirement);
  }

  // One requirement given as text (tox.ini's `deps`), at `offset`.
  void add_line(std::string_view text, size_t offset, std::string_view line) {
    std::optional<buildfiles::Pep508> parsed = buildfiles::parse_pep508(line);
    if (!parsed) return;
    std::string name =
        buildfiles::normalize_name(line.substr(parsed->name_begin, parsed->name_end - parsed->name_begin));
    if (name != "torch") return;
    add_specifier(text, offset, trim(line), parsed->specifier);
  }

  // A version a CI matrix names (`torch-version: [2.1, 2.4]`): tested, so supported; the newest
  // one tested is no bound (a matrix lags behind releases).
  void add_version(std::string_view text, size_t offset, std::string_view value) {
    std::optional<buildfiles::Version> version = buildfiles::Version::parse(value);
    if (!version) return;
    std::optional<TorchVersion> release = major_minor(*version);
    if (!release) return;
    std::string source = source_at(text, offset);
    interval_.add(release, std::nullopt, source);
  }

  std::optional<TorchPin> take() const { return interval_.pin(); }

 private:
  void add(std::string_view text, const buildfiles::Requirement& requirement) {
    std::string shown(trim(text.substr(requirement.range.start, requirement.range.length())));
    add_specifier(text, requirement.range.start, shown, requirement.specifier);
  }

  void add_specifier(std::string_view text, size_t offset, std::string_view shown, const std::string& specifier) {
    // `torch==${TORCH_VERSION}`, `torch=={{ torch }}`: set elsewhere; nothing to read here.
    if (specifier.find_first_of("${%") != std::string::npos) return;
    std::string source = source_at(text, offset);
    auto note = [&](const std::string& why) {
      notes_.push_back(source + ": cannot read the torch requirement `" + std::string(shown) + "` (" + why +
                       "); ignored");
    };
    std::optional<std::vector<buildfiles::Specifier>> specifiers = buildfiles::parse_specifiers(specifier);
    if (!specifiers) return note("`" + specifier + "` is not a version specifier");
    std::optional<buildfiles::LowerBound> lowest = buildfiles::lowest_admitted(*specifiers);
    std::optional<buildfiles::UpperBound> highest = buildfiles::highest_admitted(*specifiers);
    std::optional<TorchVersion> low = lowest ? major_minor(lowest->version) : std::nullopt;
    std::optional<TorchVersion> high = highest ? highest_release(*highest) : std::nullopt;
    if ((lowest && !low) || (highest && !major_minor(highest->version))) return note("torch versions have no epoch");
    if (!low && !high) return;  // `torch`, `torch!=2.7.0`: says nothing about the range
    interval_.add(low, high, source);
  }

  [[nodiscard]] std::string source_at(std::string_view text, size_t offset) const {
    return where_ + ":" + std::to_string(line_of(text, offset));
  }

  std::string where_;
  std::vector<std::string>& notes_;
  Interval interval_;
};

// `-r other.txt` / `--requirement=other.txt` / `-c constraints.txt` in a requirements file, and
// `pip install -r FILE` in a Dockerfile, workflow or tox.ini: pip reads those files too, so
// their pins count.
std::vector<std::string> referenced_files(std::string_view text) {
  static const std::regex option(R"((?:^|[\s"'])(?:-r|-c|--requirement|--constraint)(?:[ \t]+|=)?["']?([^\s"';&|)]+))");
  std::vector<std::string> files;
  // Line by line, and only the lines with an option: no match spans a line break, and a regular
  // expression over a whole CI file was most of resolving a project's range.
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.find("-r") == std::string_view::npos && line.find("-c") == std::string_view::npos) continue;
    std::string owned(line);
    for (auto it = std::sregex_iterator(owned.begin(), owned.end(), option); it != std::sregex_iterator(); ++it) {
      std::string file = (*it)[1].str();
      for (std::string_view prefix : {"{toxinidir}/", "./"}) {
        if (file.starts_with(prefix)) file.erase(0, prefix.size());
      }
      if (file.empty() || file.find_first_of("${") != std::string::npos || file.starts_with("-")) continue;
      files.push_back(file);
    }
  }
  return files;
}

// tox.ini: each requirement of a `deps` list, with tox's factor conditions (`py38: torch==1.13`)
// dropped.
void read_tox(std::string_view text, PinCollector& pins) {
  static const std::regex factor(R"(^[\w.,!{}-]+:\s+)");
  static const std::regex deps_key(R"(^deps\s*=\s*)");
  size_t offset = 0;
  while (offset < text.size()) {
    size_t end = text.find('\n', offset);
    if (end == std::string_view::npos) end = text.size();
    std::string line(trim(text.substr(offset, end - offset)));
    if (!mentions_torch(line)) {
      offset = end + 1;
      continue;
    }
    line = std::regex_replace(line, deps_key, "");
    line = std::regex_replace(line, factor, "");
    if (line.starts_with("torch") || line.starts_with("Torch")) pins.add_line(text, offset, line);
    offset = end + 1;
  }
}

// CI matrices and variables: `torch-version: [1.13, "2.0"]`, `pytorch_version: 2.1.0`, or a
// block list under the key. Values that are not versions (`nightly`, `${{ ... }}`) are skipped.
void read_matrix(std::string_view text, PinCollector& pins) {
  // `torch-version`, `pytorch_versions`, `TORCH_VER`, `VER_TORCH`, `MIN_TORCH_VERSION`, a bare `torch`.
  static const std::regex key(
      R"(^(\s*)(?:-\s+)?["']?(?:(?:min[-_ ]?)?(?:py)?torch(?:[-_ ]?(?:versions?|ver))?|ver[-_ ]?(?:py)?torch)["']?\s*:\s*(.*)$)",
      std::regex::icase);
  auto values_of = [&](std::string_view value, size_t offset) {
    value = trim(value);
    if (value.starts_with('['))
      value = value.substr(1, value.find(']') == std::string_view::npos ? value.size() - 1 : value.find(']') - 1);
    size_t start = 0;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      std::string_view item =
          trim(value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
      if (!item.empty() && (item.front() == '"' || item.front() == '\'')) item = item.substr(1, item.size() - 2);
      if (size_t hash = item.find(" #"); hash != std::string_view::npos) item = trim(item.substr(0, hash));
      if (!item.empty()) pins.add_version(text, offset, item);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  };
  size_t offset = 0;
  // Inside a block list under the key: the key's indentation; npos outside one.
  size_t list_indent = std::string::npos;
  while (offset < text.size()) {
    size_t end = text.find('\n', offset);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(offset, end - offset));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch match;
    size_t indent = line.find_first_not_of(" \t");
    if (list_indent != std::string::npos && indent != std::string::npos && line.compare(indent, 2, "- ") == 0 &&
        indent >= list_indent) {
      values_of(std::string_view(line).substr(indent + 2), offset);
    } else if (mentions_torch(line) && std::regex_match(line, match, key)) {
      std::string value = match[2].str();
      list_indent = std::string::npos;
      if (trim(value).empty()) {
        list_indent = static_cast<size_t>(match[1].length());
      } else {
        values_of(value, offset);
      }
    } else if (indent != std::string::npos) {
      list_indent = std::string::npos;
    }
    offset = end + 1;
  }
}

// The format a pin file's lines are read in (comments, continuations).
buildfiles::FileKind format_of(PinFileKind kind) {
  switch (kind) {
    case PinFileKind::Requirements:
    case PinFileKind::Constraints: return buildfiles::FileKind::Requirements;
    case PinFileKind::Pyproject: return buildfiles::FileKind::Toml;
    case PinFileKind::SetupCfg:
    case PinFileKind::Tox: return buildfiles::FileKind::Ini;
    case PinFileKind::SetupPy: return buildfiles::FileKind::SetupPy;
    case PinFileKind::Environment:
    case PinFileKind::CondaRecipe: return buildfiles::FileKind::CondaEnvironment;
    case PinFileKind::Dockerfile: return buildfiles::FileKind::Dockerfile;
    case PinFileKind::CiWorkflow: return buildfiles::FileKind::Yaml;
    case PinFileKind::Shell: return buildfiles::FileKind::Shell;
  }
  return buildfiles::FileKind::Unknown;
}

std::optional<TorchPin> read_one(const fs::path& file, PinFileKind kind, std::vector<std::string>& notes,
                                 std::vector<std::string>* referenced) {
  std::optional<std::string> text = read_text(file, &notes);
  if (!text) return std::nullopt;
  PinCollector pins(file, notes);
  switch (kind) {
    case PinFileKind::Requirements:
    case PinFileKind::Constraints: pins.add_all(*text, buildfiles::FileKind::Requirements); break;
    case PinFileKind::Pyproject: pins.add_all(*text, buildfiles::FileKind::Toml); break;
    case PinFileKind::SetupCfg: pins.add_all(*text, buildfiles::FileKind::Ini); break;
    case PinFileKind::SetupPy: pins.add_all(*text, buildfiles::FileKind::SetupPy); break;
    case PinFileKind::Environment:
    case PinFileKind::CondaRecipe: pins.add_all(*text, buildfiles::FileKind::CondaEnvironment); break;
    case PinFileKind::Dockerfile: pins.add_all(*text, buildfiles::FileKind::Dockerfile); break;
    case PinFileKind::Tox: read_tox(*text, pins); break;
    case PinFileKind::CiWorkflow:
      pins.add_all(*text, buildfiles::FileKind::Yaml);
      read_matrix(*text, pins);
      break;
    case PinFileKind::Shell: pins.add_all(*text, buildfiles::FileKind::Shell); break;
  }
  if (referenced != nullptr && kind != PinFileKind::Pyproject && kind != PinFileKind::SetupCfg &&
      kind != PinFileKind::SetupPy) {
    // Comments say nothing: a `# -r old.txt` or `# see -c` note is no include.
    // `--requirement` and `--constraint` contain these too.
    if (text->find("-r") == std::string::npos && text->find("-c") == std::string::npos) return pins.take();
    std::string code;
    for (const buildfiles::LogicalLine& line : buildfiles::logical_lines(*text, format_of(kind)))
      code += line.text + '\n';
    for (std::string& name : referenced_files(code)) referenced->push_back(std::move(name));
  }
  return pins.take();
}

// Folders below a project's root where its environments are conventionally described, searched
// three levels deep (`tools/docker/cuda/Dockerfile`, `packaging/dependencies/x/reqs_torch.txt`).
constexpr std::string_view kEnvironmentDirectories[] = {
    ".github",       ".circleci", ".azure-pipelines", ".gitlab", ".buildkite",
    ".devcontainer", "docker",    "dockerfiles",      "ci",      ".ci",
    "jenkins",       ".jenkins",  "recipe",           "conda",   "conda.recipe",
    "conda-recipe",  ".conda",    "packaging",        "tools",   "scripts"};
constexpr int kEnvironmentDepth = 3;

bool is_environment_directory(std::string_view name) {
  std::string folded = lower(name);
  return std::find(std::begin(kEnvironmentDirectories), std::end(kEnvironmentDirectories), folded) !=
         std::end(kEnvironmentDirectories);
}

// What counts inside an environment folder: container and conda files everywhere, CI YAML in CI
// folders, install scripts, and requirement lists (`requirements*.txt`, `reqs_*.txt`).
bool counts_in(std::string_view folder, std::string_view name) {
  if (environment_pin_kind(name) || package_pin_kind(name)) return true;
  if (is_yaml(name)) return is_ci_folder(lower(folder));
  if (name.ends_with(".sh") || name.ends_with(".bash")) return true;
  std::string folded = lower(name);
  return folded.ends_with(".txt") &&
         (folded.find("req") != std::string::npos || folded.find("constraint") != std::string::npos);
}

void environment_files(const fs::path& folder, int depth, std::vector<std::pair<PinFileKind, fs::path>>& found) {
  std::string name = folder.filename().string();
  for (const std::string& file :
       regular_files_named(folder, [&](std::string_view file) { return counts_in(name, file); })) {
    if (std::optional<PinFileKind> kind = pin_kind_of(folder / file)) found.emplace_back(*kind, folder / file);
  }
  if (depth == kEnvironmentDepth) return;
  std::error_code error;
  std::vector<fs::path> folders;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    std::error_code type_error;
    if (it->is_directory(type_error) && !it->is_symlink(type_error)) folders.push_back(it->path());
  }
  std::sort(folders.begin(), folders.end());
  for (const fs::path& below : folders) environment_files(below, depth + 1, found);
}

std::string describe_pin(const TorchPin& pin) {
  TorchRange range;
  range.min_torch = pin.lowest ? *pin.lowest : TorchVersion{};
  range.max_torch = pin.highest;
  if (!pin.lowest && pin.highest) return "<= " + pin.highest->str();
  return range.span();
}

}  // namespace

std::string TorchRange::span() const {
  if (max_torch && *max_torch == min_torch) return min_torch.str();
  if (max_torch && min_torch < *max_torch) return min_torch.str() + "-" + max_torch->str();
  return ">= " + min_torch.str();
}

std::string TorchRange::describe() const {
  std::string text = "supported torch " + span();
  if (!pinned()) return text + " (default; no torch pin found)";
  return text + " (from " + source + (inherited_from.empty() ? "" : ", inherited") + ")";
}

bool is_pin_file_name(std::string_view file_name) { return package_pin_kind(file_name).has_value(); }

bool is_environment_file_name(std::string_view file_name) { return environment_pin_kind(file_name).has_value(); }

std::vector<TorchPin> read_torch_pins(const fs::path& file, std::vector<std::string>& notes,
                                      std::vector<std::string>* referenced) {
  std::optional<PinFileKind> kind = pin_kind_of(file);
  if (!kind) return {};
  std::vector<TorchPin> pins;
  std::vector<std::string> included;
  if (std::optional<TorchPin> pin = read_one(file, *kind, notes, &included)) pins.push_back(std::move(*pin));
  // A requirements file's `-r`/`-c` includes are part of it (relative to it), each read once.
  if (*kind == PinFileKind::Requirements || *kind == PinFileKind::Constraints) {
    std::set<fs::path> seen{file.lexically_normal()};
    std::vector<fs::path> pending;
    for (const std::string& name : included) pending.push_back((file.parent_path() / name).lexically_normal());
    while (!pending.empty()) {
      fs::path next = pending.back();
      pending.pop_back();
      if (!seen.insert(next).second) continue;
      std::vector<std::string> more;
      if (std::optional<TorchPin> pin = read_one(next, PinFileKind::Requirements, notes, &more)) pins.push_back(*pin);
      for (const std::string& name : more) pending.push_back((next.parent_path() / name).lexically_normal());
    }
  } else if (referenced != nullptr) {
    referenced->insert(referenced->end(), included.begin(), included.end());
  }
  return pins;
}

bool names_torch(const fs::path& file) {
  std::optional<PinFileKind> kind = pin_kind_of(file);
  std::optional<std::string> text = kind ? read_text(file, nullptr) : std::nullopt;
  if (!text || text->find("torch") == std::string::npos) return false;
  buildfiles::FileKind format = *kind == PinFileKind::Pyproject     ? buildfiles::FileKind::Toml
                                : *kind == PinFileKind::SetupCfg    ? buildfiles::FileKind::Ini
                                : *kind == PinFileKind::SetupPy     ? buildfiles::FileKind::SetupPy
                                : *kind == PinFileKind::Environment ? buildfiles::FileKind::CondaEnvironment
                                                                    : buildfiles::FileKind::Requirements;
  buildfiles::BuildFile build_file = buildfiles::BuildFile::read(*text, format);
  if (!buildfiles::find_requirements(build_file, "torch").empty()) return true;
  return format == buildfiles::FileKind::CondaEnvironment &&
         !buildfiles::find_requirements(build_file, "pytorch").empty();
}

std::vector<fs::path> pin_sources(const fs::path& root) {
  std::vector<std::pair<PinFileKind, fs::path>> found;
  for (const std::string& name : regular_files_named(root, [](std::string_view name) {
         return package_pin_kind(name).has_value() || environment_pin_kind(name).has_value();
       })) {
    found.emplace_back(*pin_kind_of(root / name), root / name);
  }
  std::error_code error;
  std::vector<fs::path> folders;
  for (fs::directory_iterator it(root, error), end; !error && it != end; it.increment(error)) {
    std::error_code type_error;
    if (is_environment_directory(it->path().filename().string()) && it->is_directory(type_error) &&
        !it->is_symlink(type_error)) {
      folders.push_back(it->path());
    }
  }
  for (const fs::path& folder : folders) environment_files(folder, 1, found);
  std::sort(found.begin(), found.end());
  std::vector<fs::path> files;
  for (auto& entry : found) files.push_back(std::move(entry.second));
  return files;
}

// A lower bound says a release is supported; an upper bound says the releases above it are
// not. So the range runs from the lowest lower bound any pin gives to the lowest upper bound.
// A pin whose lower bound lies above that upper bound contradicts it: then the widest range,
// with a warning naming the two.
TorchRange combine_pins(const std::vector<TorchPin>& pins) {
  TorchRange range;
  const TorchPin *lowest = nullptr, *highest_low = nullptr, *lowest_high = nullptr, *highest_high = nullptr;
  bool all_bounded_above = !pins.empty();
  for (const TorchPin& pin : pins) {
    if (pin.lowest && (lowest == nullptr || *pin.lowest < *lowest->lowest)) lowest = &pin;
    if (pin.lowest && (highest_low == nullptr || *highest_low->lowest < *pin.lowest)) highest_low = &pin;
    if (pin.highest && (lowest_high == nullptr || *pin.highest < *lowest_high->highest)) lowest_high = &pin;
    if (pin.highest && (highest_high == nullptr || *highest_high->highest < *pin.highest)) highest_high = &pin;
    all_bounded_above = all_bounded_above && pin.highest.has_value();
  }
  if (lowest == nullptr && lowest_high == nullptr) return range;
  range.max_torch = lowest_high != nullptr ? lowest_high->highest : std::nullopt;
  if (highest_low != nullptr && lowest_high != nullptr && *lowest_high->highest < *highest_low->lowest) {
    range.warnings.push_back(
        "conflicting torch pins: " + highest_low->source + " (" + describe_pin(*highest_low) + ") and " +
        lowest_high->source + " (" + describe_pin(*lowest_high) +
        ") admit no release together; using the widest range (correct the pins, or set `min-torch`)");
    range.max_torch = all_bounded_above ? highest_high->highest : std::nullopt;
  }
  if (lowest != nullptr) {
    range.min_torch = *lowest->lowest;
  } else if (range.max_torch && *range.max_torch < range.min_torch) {
    range.min_torch = *range.max_torch;  // only `torch<2.5`: at most 2.4, the oldest unknown
  }
  std::vector<std::string> sources;
  for (const TorchPin* pin : {lowest, lowest_high}) {
    if (pin != nullptr && std::find(sources.begin(), sources.end(), pin->source) == sources.end()) {
      sources.push_back(pin->source);
    }
  }
  range.source = sources.front() + (sources.size() > 1 ? " and " + sources[1] : "");
  return range;
}

TorchRange project_torch_range(const fs::path& root) {
  std::vector<std::string> notes;
  std::vector<TorchPin> pins;
  std::vector<fs::path> files;
  std::set<fs::path> read;
  std::vector<fs::path> pending = pin_sources(root);
  std::reverse(pending.begin(), pending.end());
  while (!pending.empty()) {
    fs::path file = pending.back();
    pending.pop_back();
    if (!read.insert(file.lexically_normal()).second) continue;
    std::vector<std::string> referenced;
    std::vector<TorchPin> more = read_torch_pins(file, notes, &referenced);
    files.push_back(file);
    // A package's own files declare what it supports; an environment (an image, a CI job, an
    // install script, the requirement files they install) is one supported release among
    // several, so its exact pin bounds nothing above.
    bool declares = file.parent_path() == root && is_pin_file_name(file.filename().string());
    if (!declares) {
      for (TorchPin& pin : more) pin.highest.reset();
      std::erase_if(more, [](const TorchPin& pin) { return !pin.lowest; });
    }
    pins.insert(pins.end(), more.begin(), more.end());
    // `pip install -r requirements/torch.txt` in a Dockerfile or workflow: relative to the
    // project's root (a build context, a checkout), else to the file.
    std::error_code error;
    for (const std::string& name : referenced) {
      for (const fs::path& base : {root, file.parent_path()}) {
        fs::path candidate = (base / name).lexically_normal();
        if (fs::is_regular_file(candidate, error)) {
          pending.push_back(candidate);
          break;
        }
      }
    }
  }
  TorchRange range = combine_pins(pins);
  range.notes.insert(range.notes.begin(), notes.begin(), notes.end());
  range.files = std::move(files);
  return range;
}

}  // namespace torchmigrate::engine
