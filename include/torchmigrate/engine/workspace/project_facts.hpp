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
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "torchmigrate/buildfiles/cuda_mentions.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"

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
  unsigned jobs;
};

// Every registered fact of the project, each by its gather function.
ProjectFacts gather_project_facts(const ProjectTree& tree);

// The values of the facts in `read`, each under its name in `out` (the result cache's key).
void add_fact_keys(const ProjectFacts& facts, FactsRead read, nlohmann::json& out);

// Whether this Python source calls `torch.onnx.export(..., dynamo=True)` (names resolved
// through its imports).
bool calls_onnx_dynamo_export(std::string_view python_source);

// The environment variables this Python source reads by name, sorted and unique
// (environment_reads.cpp).
std::vector<std::string> environment_reads(std::string_view python_source);

}  // namespace torchmigrate::engine
