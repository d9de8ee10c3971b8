// SPDX-License-Identifier: MIT
// Project facts: what a project's own tree shows that the findings of a single file may depend
// on. Each fact is named by what it observes, has a value type, and is gathered by one function
// from the project's files. The facts are registered in one table (project_facts.cpp, kFacts);
// adding one is its handle below, a line in that table and its gather function. A check says
// which facts it reads (FileCheck::facts_read) and reads their values through
// Settings::project_fact; a project gathers them all from its own files the first time a file
// whose firing rules read one asks (Project::facts), and never otherwise.
#pragma once

#include <any>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "torchmigrate/buildfiles/cuda_mentions.hpp"
#include "torchmigrate/engine/run/parallel.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/fact_memo.hpp"

namespace torchmigrate::engine {

// A fact's handle: its place in the table, its name and the type of its value. The place is its
// bit in FactsRead; the name is its key in the result cache's settings fingerprint, so changing
// either changes what cached results mean.
template <class T>
struct ProjectFact {
  unsigned index = 0;
  std::string_view name;
};

// A DLPack the project builds against itself rather than torch's `ATen/dlpack.h`.
struct OwnDlpack {
  bool ships_own = false;           // a dlpack.h outside torch, a dlpack submodule or CMake dlpack target
  bool declares_old_names = false;  // its dlpack.h still has kDLGPU/kDLCPUPinned/DLContext (before 0.5)
  std::string evidence;             // where it was seen, relative to the project root
};

// A line of one of the project's files: where a project-wide finding lands, or what it rests on.
struct ProjectLine {
  std::string file;   // relative to the project root, `/`-separated; empty: no such line
  uint32_t line = 0;  // 1-based
  std::string text;   // the line as written, trimmed

  [[nodiscard]] bool found() const { return !file.empty(); }
  // "pyproject.toml:4"
  [[nodiscard]] std::string where() const { return file + ":" + std::to_string(line); }
};

// The Python versions the project admits: its declared requirement and the environments it
// names (classifiers, tox/nox environments, CI matrices, conda, `.python-version`, images).
struct PythonVersions {
  std::string lowest;                 // the lowest MAJOR.MINOR some file admits ("3.9"); empty: nothing says
  ProjectLine lowest_from;            // the line that admits it
  std::string highest;                // the highest MAJOR.MINOR some file names ("3.14"); empty: none
  ProjectLine highest_from;           // the line that names it
  ProjectLine requirement;            // the `requires-python` / `python_requires` line, if any
  std::string requirement_specifier;  // its PEP 440 specifier set (">=3.9")
  // A torch requirement limited to older Pythons by a marker (`torch<2.9; python_version < "3.10"`):
  // the marker's exclusive Python bound and the torch specifier it applies; empty when none.
  std::string guard_python_below;
  std::string guard_torch_specifier;
};

// Where the project declares its dependencies: a finding about the project's requirements as a
// whole lands on its torch requirement, else on its packaging file.
struct RequirementAnchor {
  ProjectLine torch;           // the first torch requirement of the project's own pin files
  std::string packaging_file;  // pyproject.toml, setup.py, setup.cfg or a requirements file
};

namespace facts {
// Some Python file of the project calls `torch.onnx.export(..., dynamo=True)`.
inline constexpr ProjectFact<bool> onnx_dynamo_export{0, "dynamo_export"};
// Some CMake file of the project calls `find_package(Torch)`.
inline constexpr ProjectFact<bool> cmake_finds_torch{1, "find_torch"};
// The DLPack of the project's own, if it has one (for a project with C/C++/CUDA files).
inline constexpr ProjectFact<OwnDlpack> own_dlpack{2, "dlpack"};
// The environment variables the project's own Python code reads by name (`os.environ.get("X")`,
// `os.getenv("X")`, ...), sorted: a setting of one of them may be the project's, not torch's.
inline constexpr ProjectFact<std::vector<std::string>> python_environment_reads{3, "environment_reads"};
// Where the project's build files name CUDA 13, or a torch wheel index of another build.
inline constexpr ProjectFact<buildfiles::CudaMentions> cuda_mentions{4, "cuda_mentions"};
// The names the project registers Dynamo backends under, sorted (dynamo_backend_facts.hpp).
inline constexpr ProjectFact<std::vector<std::string>> dynamo_backends{5, "dynamo_backends"};
// The Python versions the project admits, with the lines that say so.
inline constexpr ProjectFact<PythonVersions> python_versions{6, "python_versions"};
// The first call of `torch.onnx.export` that does not pass `dynamo=False` (the dynamo path once
// torch 2.9 made it the default); not found when every call passes it.
inline constexpr ProjectFact<ProjectLine> onnx_export_dynamo_path{7, "onnx_export_dynamo_path"};
// Some requirement list, extra, conda environment or install command declares `onnxscript`.
inline constexpr ProjectFact<bool> declares_onnxscript{8, "declares_onnxscript"};
// Where the project's requirements are declared.
inline constexpr ProjectFact<RequirementAnchor> requirement_anchor{9, "requirement_anchor"};
// The pytest configuration entry that turns torch's DeprecationWarnings into errors
// (`filterwarnings = error`, `error::DeprecationWarning`, `addopts = -W error`), its text
// the filter; not found when the configuration pytest uses has none, or a later entry
// ignores them again (pytest_config.hpp).
inline constexpr ProjectFact<ProjectLine> pytest_warnings_as_errors{10, "pytest_warnings_as_errors"};
}  // namespace facts

// The values of the facts gathered from one project, by fact; a fact not gathered has its type's
// default value (nothing known: false, no DLPack of its own).
class ProjectFacts {
 public:
  template <class T>
  [[nodiscard]] const T& get(ProjectFact<T> fact) const {
    if (fact.index < values_.size()) {
      if (const T* value = std::any_cast<T>(&values_[fact.index])) return *value;
    }
    static const T unknown{};
    return unknown;
  }
  template <class T>
  ProjectFacts& set(ProjectFact<T> fact, std::type_identity_t<T> value) {
    if (values_.size() <= fact.index) values_.resize(fact.index + 1);
    values_[fact.index] = std::move(value);
    return *this;
  }

 private:
  std::vector<std::any> values_;  // by ProjectFact::index
};

// Which facts a file's findings may depend on: the result cache keys a file by these alone, so
// a file whose rules read none never waits for them to be gathered.
class FactsRead {
 public:
  FactsRead() = default;
  template <class T, class... U>
  FactsRead(ProjectFact<T> first, ProjectFact<U>... rest)  // implicit: `return {facts::own_dlpack};`
      : bits_(((1u << first.index) | ... | (1u << rest.index))) {}

  FactsRead& operator|=(const FactsRead& other) {
    bits_ |= other.bits_;
    return *this;
  }
  [[nodiscard]] bool reads(unsigned index) const { return (bits_ >> index & 1u) != 0; }
  [[nodiscard]] bool any() const { return bits_ != 0; }
  // Bit ProjectFact::index for each fact read: stable per fact.
  [[nodiscard]] unsigned bits() const { return bits_; }

 private:
  friend FactsRead all_facts();
  unsigned bits_ = 0;
};

// Every registered fact.
FactsRead all_facts();

// What a fact is gathered from: the project's root and its own files (nested projects excluded).
struct ProjectTree {
  const std::filesystem::path& root;
  const std::vector<DiscoveredFile>& files;
  const buildfiles::ExtraExtensions& extensions;
  // Runs a gather function's loop over files, on the threads that share the gathering.
  const LoopRunner& parallel;
  // Where a gather function notes the paths it looks at besides `files` (fact_memo.hpp); may be null.
  FactInputs* inputs = nullptr;
};

// Every registered fact of the project, each by its gather function.
ProjectFacts gather_project_facts(const ProjectTree& tree);

// The values of the facts in `read`, each under its name in `out` (the result cache's key).
void add_fact_keys(const ProjectFacts& facts, FactsRead read, nlohmann::json& out);
// The same, taken from every fact's key (`add_fact_keys` with all_facts()) kept by an earlier run.
void add_fact_keys(const nlohmann::json& every_key, FactsRead read, nlohmann::json& out);

}  // namespace torchmigrate::engine
