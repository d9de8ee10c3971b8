// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/packaging_facts.hpp"

#include <algorithm>
#include <atomic>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/torch_range.hpp"

namespace torchmigrate::engine {
namespace fs = std::filesystem;
using buildfiles::FileKind;

namespace {

std::string name_of(const std::string& relative) {
  size_t slash = relative.rfind('/');
  return slash == std::string::npos ? relative : relative.substr(slash + 1);
}

// A project file a fact reads: its place relative to the root and its kind.
struct Candidate {
  std::string relative;
  std::string path;
  FileKind kind;
  int rank;  // files at the root first, then by `rank_of`
};

// The project's files that `wanted` picks, root-level ones first, each group in path order.
template <class Wanted>
std::vector<Candidate> candidates(const ProjectTree& tree, Wanted wanted) {
  std::vector<Candidate> out;
  for (const DiscoveredFile& file : tree.files) {
    if (file.contents) continue;  // standard input: not a file of the tree
    FileKind kind = buildfiles::kind_for(file.path, tree.extensions);
    std::optional<int> rank = wanted(name_of(file.path), kind);
    if (!rank) continue;
    std::string relative = project_relative(tree.root, file.path);
    if (relative.empty()) continue;
    int depth = static_cast<int>(std::count(relative.begin(), relative.end(), '/'));
    out.push_back({relative, file.path, kind, (depth == 0 ? 0 : 100) + *rank});
  }
  std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.relative < b.relative;
  });
  return out;
}

uint32_t line_at(std::string_view text, size_t offset) {
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + std::min(offset, text.size()), '\n') + 1);
}

std::string line_text(std::string_view text, size_t offset) {
  size_t start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  start = (start == std::string_view::npos || offset == 0) ? 0 : start + 1;
  size_t end = text.find('\n', offset);
  std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return std::string(line.substr(first, line.find_last_not_of(" \t\r") + 1 - first));
}

void merge(PythonVersions& into, const PythonVersions& from) {
  if (!from.lowest.empty()) {
    std::optional<buildfiles::Version> a = buildfiles::Version::parse(from.lowest);
    std::optional<buildfiles::Version> b = buildfiles::Version::parse(into.lowest);
    if (into.lowest.empty() || (a && b && *a < *b)) {
      into.lowest = from.lowest;
      into.lowest_from = from.lowest_from;
    }
  }
  if (!from.highest.empty()) {
    std::optional<buildfiles::Version> a = buildfiles::Version::parse(from.highest);
    std::optional<buildfiles::Version> b = buildfiles::Version::parse(into.highest);
    if (into.highest.empty() || (a && b && *b < *a)) {
      into.highest = from.highest;
      into.highest_from = from.highest_from;
    }
  }
  if (!into.requirement.found() && from.requirement.found()) {
    into.requirement = from.requirement;
    into.requirement_specifier = from.requirement_specifier;
  }
  if (into.guard_python_below.empty() && !from.guard_python_below.empty()) {
    into.guard_python_below = from.guard_python_below;
    into.guard_torch_specifier = from.guard_torch_specifier;
  }
}

// The order pin files are preferred in, as an anchor: the package's metadata first.
std::optional<int> pin_rank(std::string_view name, FileKind kind) {
  if (name == "pyproject.toml") return 0;
  if (name == "setup.py") return 1;
  if (name == "setup.cfg") return 2;
  if (kind == FileKind::Requirements) return name.starts_with("constraints") ? 5 : 3;
  if (kind == FileKind::CondaEnvironment) return 4;
  return std::nullopt;
}

}  // namespace

std::string project_relative(const fs::path& root, const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::weakly_canonical(fs::absolute(path, error), error);
  if (error) absolute = fs::absolute(path, error).lexically_normal();
  fs::path relative = absolute.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") return {};
  return relative.generic_string();
}

PythonVersions python_versions_of(const ProjectTree& tree) {
  std::vector<Candidate> files = candidates(tree, [](const std::string& name, FileKind kind) {
    if (name == "noxfile.py") return std::optional<int>(10);
    if (kind == FileKind::Unknown || kind == FileKind::CMake || kind == FileKind::Batch) return std::optional<int>();
    return std::optional<int>(pin_rank(name, kind).value_or(20));
  });
  std::vector<PythonVersions> found(files.size());
  tree.parallel(files.size(), [&](size_t i) {
    ReadResult read = read_file(files[i].path);
    if (read.text) read_python_versions(files[i].relative, files[i].kind, *read.text, found[i]);
  });
  PythonVersions versions;
  // `.python-version` is no build file: read where pyenv and uv look for it.
  fs::path python_version = tree.root / ".python-version";
  if (tree.inputs != nullptr) tree.inputs->extra_paths.push_back(python_version.string());
  if (ReadResult read = read_file(python_version); read.text) {
    read_python_versions(".python-version", FileKind::Unknown, *read.text, versions);
  }
  for (const PythonVersions& one : found) merge(versions, one);
  return versions;
}

bool declares_onnxscript_of(const ProjectTree& tree) {
  std::vector<Candidate> files = candidates(tree, [](const std::string&, FileKind kind) {
    return kind == FileKind::Unknown || kind == FileKind::CMake ? std::optional<int>() : std::optional<int>(0);
  });
  std::atomic<bool> found{false};
  tree.parallel(files.size(), [&](size_t i) {
    if (found) return;
    ReadResult read = read_file(files[i].path);
    if (!read.text || read.text->find("onnxscript") == std::string::npos) return;
    buildfiles::BuildFile file = buildfiles::BuildFile::read(*read.text, files[i].kind);
    if (!buildfiles::find_requirements(file, "onnxscript").empty()) found = true;
    // tox.ini's `deps`, which the requirement reader does not read: one requirement a line.
    if (name_of(files[i].relative) == "tox.ini") {
      for (const buildfiles::LogicalLine& line : file.lines) {
        std::string_view text = line.text;
        size_t start = text.find_first_not_of(" \t");
        if (start != std::string_view::npos && text.substr(start).starts_with("onnxscript")) found = true;
      }
    }
  });
  return found;
}

RequirementAnchor requirement_anchor_of(const ProjectTree& tree) {
  std::vector<Candidate> files = candidates(tree, [](const std::string& name, FileKind kind) {
    if (std::optional<int> rank = pin_rank(name, kind)) return rank;
    bool environment = kind == FileKind::Dockerfile || kind == FileKind::Yaml || kind == FileKind::Shell;
    return environment ? std::optional<int>(50) : std::optional<int>();
  });
  RequirementAnchor anchor;
  for (const Candidate& file : files) {
    if (anchor.packaging_file.empty() && file.rank < 100 && pin_rank(name_of(file.relative), file.kind)) {
      anchor.packaging_file = file.relative;
    }
    if (anchor.torch.found()) continue;
    ReadResult read = read_file(file.path);
    if (!read.text || read.text->find("torch") == std::string::npos) continue;
    buildfiles::BuildFile build_file = buildfiles::BuildFile::read(*read.text, file.kind);
    std::vector<buildfiles::Requirement> torch = buildfiles::find_requirements(build_file, "torch");
    if (torch.empty()) continue;
    anchor.torch = {file.relative, line_at(*read.text, torch.front().range.start),
                    line_text(*read.text, torch.front().range.start)};
  }
  return anchor;
}

}  // namespace torchmigrate::engine
