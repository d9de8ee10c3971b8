// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/file_kind.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace torchmigrate::buildfiles {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

constexpr std::array<std::pair<FileKind, std::string_view>, 13> kNames = {{
    {FileKind::Dockerfile, "dockerfile"},
    {FileKind::Shell, "shell"},
    {FileKind::Yaml, "yaml"},
    {FileKind::CondaEnvironment, "conda-environment"},
    {FileKind::CMake, "cmake"},
    {FileKind::Makefile, "makefile"},
    {FileKind::Toml, "toml"},
    {FileKind::Ini, "ini"},
    {FileKind::Requirements, "requirements"},
    {FileKind::SetupPy, "setup-py"},
    {FileKind::DotEnv, "dotenv"},
    {FileKind::Batch, "batch"},
    {FileKind::Singularity, "singularity"},
}};

bool in_requirements_directory(const std::filesystem::path& directory) {
  const std::string name = lower(directory.filename().string());
  return name == "requirements" || name == "reqs";
}

// Singularity Hub's convention names variants `Singularity.<tag>`; Apptainer keeps the names.
// Checked after every other kind, so `singularity.sh` stays a shell script; a page about
// containers (`singularity.md`) is not a definition file.
bool is_container_definition(std::string_view folded, std::string_view extension) {
  if (extension == ".def") return true;
  for (std::string_view text : {".md", ".rst", ".txt", ".html", ".adoc", ".org", ".log"}) {
    if (extension == text) return false;
  }
  for (std::string_view stem : {"singularity", "apptainer"}) {
    if (folded == stem || (folded.starts_with(stem) && folded[stem.size()] == '.')) return true;
  }
  return false;
}

}  // namespace

FileKind kind_for(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  const std::string folded = lower(name);
  const std::string extension = lower(path.extension().string());
  if (name == "setup.py") return FileKind::SetupPy;
  if (folded.starts_with("dockerfile") || folded.starts_with("containerfile") || extension == ".dockerfile") {
    return FileKind::Dockerfile;
  }
  if (name == "CMakeLists.txt" || extension == ".cmake") return FileKind::CMake;
  if (name == "Makefile" || name == "GNUmakefile" || name == "makefile" || extension == ".mk") return FileKind::Makefile;
  if (extension == ".txt" && (folded.starts_with("requirements") || folded.starts_with("constraints"))) {
    return FileKind::Requirements;
  }
  // `requirements/test.txt`, `requirements/pytorch/base.txt`: a common layout for split requirement
  // files. Only the two nearest directories count, so a checkout under some `requirements` folder
  // does not turn every text file into one.
  if (extension == ".txt" && (in_requirements_directory(path.parent_path()) ||
                              in_requirements_directory(path.parent_path().parent_path()))) {
    return FileKind::Requirements;
  }
  if (extension == ".yml" || extension == ".yaml") {
    return folded.starts_with("environment") ? FileKind::CondaEnvironment : FileKind::Yaml;
  }
  if (extension == ".sh" || extension == ".bash") return FileKind::Shell;
  if (extension == ".toml") return FileKind::Toml;
  if (extension == ".cfg" || extension == ".ini") return FileKind::Ini;
  if (name == ".env" || extension == ".env") return FileKind::DotEnv;
  if (extension == ".bat" || extension == ".cmd") return FileKind::Batch;
  if (is_container_definition(folded, extension)) return FileKind::Singularity;
  return FileKind::Unknown;
}

FileKind kind_for(const std::filesystem::path& path, const ExtraExtensions& extra) {
  FileKind kind = kind_for(path);
  if (kind != FileKind::Unknown || extra.empty()) return kind;
  const std::string name = path.filename().string();
  for (const auto& [ending, extra_kind] : extra) {
    if (name.size() > ending.size() && name.ends_with(ending)) return extra_kind;
  }
  return FileKind::Unknown;
}

std::string_view to_string(FileKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<FileKind> parse_kind(std::string_view name) {
  for (const auto& [kind, known] : kNames) {
    if (known == name) return kind;
  }
  return std::nullopt;
}

}  // namespace torchmigrate::buildfiles
