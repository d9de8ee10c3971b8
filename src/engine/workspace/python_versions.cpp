// SPDX-License-Identifier: MIT
// Which Python versions a file says the project admits (packaging_facts.hpp): the declared
// requirement, classifiers, tox and nox environments, CI matrices, conda environments,
// `.python-version` and `python:` base images. Only keys and names that are about Python count,
// so Node versions and CUDA 12.9 images say nothing.
#include <algorithm>
#include <optional>
#include <regex>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/engine/workspace/packaging_facts.hpp"

namespace torchmigrate::engine {
namespace {

using buildfiles::FileKind;

std::string_view trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\r") + 1 - begin);
}

std::string file_name(const std::string& file) {
  size_t slash = file.rfind('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

// MAJOR.MINOR of a version ("3.9.18" -> "3.9").
std::string major_minor(const buildfiles::Version& version) {
  const std::vector<long>& release = version.release();
  if (release.empty()) return {};
  return std::to_string(release[0]) + "." + std::to_string(release.size() > 1 ? release[1] : 0);
}

bool lower(const std::string& a, const std::string& b) {
  std::optional<buildfiles::Version> x = buildfiles::Version::parse(a), y = buildfiles::Version::parse(b);
  return x && y && *x < *y;
}

class Reader {
 public:
  Reader(const std::string& file, std::string_view text, PythonVersions& out) : file_(file), text_(text), out_(out) {}

  // Each line of the file, with its 1-based number.
  template <class Visit>
  void lines(Visit visit) const {
    size_t start = 0;
    for (uint32_t number = 1; start <= text_.size(); ++number) {
      size_t end = text_.find('\n', start);
      if (end == std::string_view::npos) end = text_.size();
      visit(text_.substr(start, end - start), number);
      if (end == text_.size()) break;
      start = end + 1;
    }
  }

  ProjectLine line(std::string_view text, uint32_t number) const { return {file_, number, std::string(trim(text))}; }

  void admit(const std::string& version, std::string_view text, uint32_t number) const {
    if (version.empty()) return;
    if (out_.lowest.empty() || lower(version, out_.lowest)) {
      out_.lowest = version;
      out_.lowest_from = line(text, number);
    }
    if (out_.highest.empty() || lower(out_.highest, version)) {
      out_.highest = version;
      out_.highest_from = line(text, number);
    }
  }

  // Every `N.M` that `pattern` captures (groups 1 and 2) in `part` of the line `text`.
  void admit_all(std::string_view text, uint32_t number, const std::regex& pattern,
                 std::optional<std::string_view> part = std::nullopt) const {
    std::string owned(part.value_or(text));
    for (std::sregex_iterator it(owned.begin(), owned.end(), pattern), end; it != end; ++it) {
      admit((*it)[1].str() + "." + (*it)[2].str(), text, number);
    }
  }

  // `requires-python = ">=3.9"` and the like: the project's declared requirement.
  void requirement(std::string_view specifier, std::string_view text, uint32_t number) const {
    std::optional<std::vector<buildfiles::Specifier>> specifiers = buildfiles::parse_specifiers(trim(specifier));
    if (!specifiers) return;
    if (!out_.requirement.found()) {
      out_.requirement = line(text, number);
      out_.requirement_specifier = std::string(trim(specifier));
    }
    if (std::optional<buildfiles::LowerBound> lowest = buildfiles::lowest_admitted(*specifiers)) {
      admit(major_minor(lowest->version), text, number);
    }
  }

 private:
  const std::string& file_;
  std::string_view text_;
  PythonVersions& out_;
};

void read_declared(const Reader& reader, FileKind kind, const std::string& name) {
  static const std::regex toml(R"(^\s*requires-python\s*=\s*["']([^"']*)["'])");
  static const std::regex setup_py(R"(python_requires\s*=\s*["']([^"']*)["'])");
  static const std::regex setup_cfg(R"(^\s*python_requires\s*=\s*(.+?)\s*$)");
  static const std::regex classifier(R"(Programming Language :: Python :: (\d+)\.(\d+))");
  const std::regex* declared = kind == FileKind::SetupPy                            ? &setup_py
                               : kind == FileKind::Toml && name == "pyproject.toml" ? &toml
                               : kind == FileKind::Ini && name == "setup.cfg"       ? &setup_cfg
                                                                                    : nullptr;
  if (declared == nullptr) return;
  reader.lines([&](std::string_view text, uint32_t number) {
    if (text.find("ython") == std::string_view::npos) return;
    std::string owned(text);
    std::smatch match;
    if (std::regex_search(owned, match, *declared)) reader.requirement(match[1].str(), text, number);
    reader.admit_all(text, number, classifier);
  });
}

// `envlist = py39,py310`, `[testenv:py39]`, `basepython = python3.9`.
void read_tox(const Reader& reader) {
  static const std::regex factor(R"(\bpy(\d)(\d+)\b)");
  static const std::regex interpreter(R"(\bpython(\d)\.(\d+)\b)");
  reader.lines([&](std::string_view text, uint32_t number) {
    if (trim(text).starts_with('#') || trim(text).starts_with(';')) return;
    reader.admit_all(text, number, factor);
    reader.admit_all(text, number, interpreter);
  });
}

// `@nox.session(python=["3.9", "3.10"])`, `PYTHON_VERSIONS = ["3.9"]`.
void read_nox(const Reader& reader) {
  static const std::regex version(R"(["'](\d)\.(\d+)["'])");
  reader.lines([&](std::string_view text, uint32_t number) {
    std::string folded(text);
    std::transform(folded.begin(), folded.end(), folded.begin(), [](unsigned char c) { return std::tolower(c); });
    if (folded.find("python") == std::string::npos || trim(text).starts_with('#')) return;
    reader.admit_all(text, number, version);
  });
}

// Whether the text says `python` in any case.
bool mentions_python(std::string_view text) {
  static constexpr std::string_view kName = "python";
  auto same = [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; };
  return std::search(text.begin(), text.end(), kName.begin(), kName.end(), same) != text.end();
}

// CI: `python-version: ["3.9", "3.10"]`, `- python: 3.9`, a block list under the key; and
// `python:3.9` images in CI files and Dockerfiles.
void read_ci(const Reader& reader, bool yaml) {
  static const std::regex key(R"(^(\s*)-?\s*["']?(?:python[-_]?versions?|python)["']?\s*:(.*)$)", std::regex::icase);
  static const std::regex value(R"((?:^|[\s\[,"'])(\d)\.(\d+)(?=$|[\s\],"'.]))");
  static const std::regex item(R"(^(\s*)-\s*["']?(\d)\.(\d+))");
  static const std::regex image(R"(\bpython:(\d)\.(\d+))");
  int block = -1;  // the indentation of a key whose value is a block list below it
  reader.lines([&](std::string_view text, uint32_t number) {
    // The image and the key name Python; only a block list's items do not. Most lines of a CI
    // file do neither, and skip the regular expressions.
    if (block < 0 && !mentions_python(text)) return;
    std::string owned(text);
    if (trim(text).starts_with('#')) return;
    reader.admit_all(text, number, image);
    if (!yaml) return;
    std::smatch match;
    if (block >= 0 && std::regex_search(owned, match, item) && static_cast<int>(match[1].length()) >= block) {
      reader.admit(match[2].str() + "." + match[3].str(), text, number);
      return;
    }
    block = -1;
    if (!std::regex_search(owned, match, key)) return;
    std::string rest = match[2].str();
    if (trim(rest).empty()) {
      block = static_cast<int>(match[1].length());
      return;
    }
    if (rest.find("//") != std::string::npos) return;  // `python: docker://...`
    reader.admit_all(text, number, value, rest);
  });
}

// `- python=3.9` in a conda environment.
void read_conda(const Reader& reader, std::string_view text) {
  buildfiles::BuildFile file = buildfiles::BuildFile::read(text, FileKind::CondaEnvironment);
  for (const buildfiles::Requirement& requirement : buildfiles::find_requirements(file, "python")) {
    std::optional<std::vector<buildfiles::Specifier>> specifiers = buildfiles::parse_specifiers(requirement.specifier);
    if (!specifiers) continue;
    std::optional<buildfiles::LowerBound> lowest = buildfiles::lowest_admitted(*specifiers);
    if (!lowest) continue;
    size_t start = text.rfind('\n', requirement.range.start);
    start = start == std::string_view::npos ? 0 : start + 1;
    size_t end = text.find('\n', requirement.range.start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    uint32_t number = static_cast<uint32_t>(std::count(text.begin(), text.begin() + start, '\n') + 1);
    reader.admit(major_minor(lowest->version), line, number);
  }
}

// `.python-version`: one version a line (pyenv allows several).
void read_pinned(const Reader& reader) {
  static const std::regex version(R"(^\s*(\d)\.(\d+))");
  reader.lines([&](std::string_view text, uint32_t number) { reader.admit_all(text, number, version); });
}

// A torch requirement limited to older Pythons by a marker: `python_version < "3.10"`.
void read_guard(std::string_view text, FileKind kind, PythonVersions& out) {
  if (!out.guard_python_below.empty() || text.find("python_") == std::string_view::npos) return;
  static const std::regex marker(R"(python_(?:full_)?version\s*(<=|<|==)\s*["'](\d+)\.(\d+))");
  buildfiles::BuildFile file = buildfiles::BuildFile::read(text, kind);
  for (const buildfiles::Requirement& requirement : buildfiles::find_requirements(file, "torch")) {
    std::string written(text.substr(requirement.range.start, requirement.range.length()));
    std::smatch match;
    if (!std::regex_search(written, match, marker)) continue;
    long minor = std::stol(match[3].str()) + (match[1].str() == "<" ? 0 : 1);
    out.guard_python_below = match[2].str() + "." + std::to_string(minor);
    out.guard_torch_specifier = requirement.specifier;
    return;
  }
}

}  // namespace

void read_python_versions(const std::string& file, FileKind kind, std::string_view text, PythonVersions& out) {
  Reader reader(file, text, out);
  const std::string name = file_name(file);
  if (name == ".python-version") return read_pinned(reader);
  if (name == "noxfile.py") return read_nox(reader);
  if (name == "tox.ini") return read_tox(reader);
  switch (kind) {
    case FileKind::Toml:
    case FileKind::Ini:
    case FileKind::SetupPy: read_declared(reader, kind, name); break;
    case FileKind::Yaml: read_ci(reader, true); break;
    case FileKind::Dockerfile: read_ci(reader, false); break;
    case FileKind::CondaEnvironment: read_conda(reader, text); break;
    default: break;
  }
  switch (kind) {
    case FileKind::Toml:
    case FileKind::Ini:
    case FileKind::SetupPy:
    case FileKind::Requirements:
    case FileKind::CondaEnvironment: read_guard(text, kind, out); break;
    default: break;
  }
}

}  // namespace torchmigrate::engine
