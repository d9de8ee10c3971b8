// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/project_facts.hpp"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <nlohmann/json.hpp>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/cmake.hpp"
#include "torchmigrate/engine/workspace/dlpack_facts.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/packaging_facts.hpp"
#include "torchmigrate/engine/workspace/pytest_config.hpp"
#include "torchmigrate/engine/workspace/python_source_facts.hpp"

namespace torchmigrate::engine {
namespace {

// Whether some CMake file of the project calls `find_package(Torch)`: parses only the CMake files
// that mention `Torch`, and stops at the first call.
bool any_cmake_finds_torch(const ProjectTree& tree) {
  std::atomic<bool> found{false};
  tree.parallel(tree.files.size(), [&](size_t i) {
    const DiscoveredFile& file = tree.files[i];
    buildfiles::FileKind kind = buildfiles::kind_for(file.path, tree.extensions);
    if (found || kind != buildfiles::FileKind::CMake) return;
    ReadResult read = read_file(file.path);
    if (!read.text) return;  // the session reports unreadable files
    if (read.text->find("Torch") != std::string::npos &&
        buildfiles::calls_find_package(buildfiles::BuildFile::read(*read.text, kind), "Torch")) {
      found = true;
    }
  });
  return found;
}

// The project's own DLPack: looked for only in a project with C/C++/CUDA files, where it matters.
OwnDlpack own_dlpack_of(const ProjectTree& tree) {
  bool has_cxx = std::any_of(tree.files.begin(), tree.files.end(),
                             [](const DiscoveredFile& file) { return file.language == Language::Cxx; });
  return has_cxx ? find_own_dlpack(tree.root, tree.inputs) : OwnDlpack{};
}

// Where the project's build files name CUDA 13, another wheel index or an architecture-list
// entry: the first of each, in the order of the files.
buildfiles::CudaMentions cuda_mentions_of(const ProjectTree& tree) {
  std::vector<buildfiles::CudaMentions> per_file(tree.files.size());
  tree.parallel(tree.files.size(), [&](size_t i) {
    const DiscoveredFile& file = tree.files[i];
    if (buildfiles::kind_for(file.path, tree.extensions) == buildfiles::FileKind::Unknown) return;
    ReadResult read = read_file(file.path);
    if (!read.text) return;  // the session reports unreadable files
    std::string where = std::filesystem::path(file.path).lexically_relative(tree.root).generic_string();
    buildfiles::find_cuda_mentions(*read.text, where.empty() ? file.path : where, per_file[i]);
  });
  buildfiles::CudaMentions mentions;
  for (const buildfiles::CudaMentions& found : per_file) {
    if (mentions.cuda13.empty()) mentions.cuda13 = found.cuda13;
    if (mentions.other_index.empty()) mentions.other_index = found.other_index;
    for (const auto& index : found.indexes) {
      if (mentions.index_of({index.first}).empty()) mentions.indexes.push_back(index);
    }
    for (const auto& entry : found.arch_entries) {
      if (mentions.arch_entry_of({entry.first}).empty()) mentions.arch_entries.push_back(entry);
    }
  }
  return mentions;
}

// A fact's value as the result cache's key holds it.
nlohmann::json key_of(bool value) { return value; }
nlohmann::json key_of(const std::vector<std::string>& value) { return value; }
nlohmann::json key_of(const buildfiles::CudaMentions& value) {
  nlohmann::json indexes = nlohmann::json::array();
  for (const auto& [build, evidence] : value.indexes) indexes.push_back({build, evidence});
  nlohmann::json arch_entries = nlohmann::json::array();
  for (const auto& [entry, evidence] : value.arch_entries) arch_entries.push_back({entry, evidence});
  return nlohmann::json::array({value.cuda13, value.other_index, indexes, arch_entries});
}
nlohmann::json key_of(const ProjectLine& value) { return nlohmann::json::array({value.file, value.line, value.text}); }
nlohmann::json key_of(const PythonVersions& value) {
  return nlohmann::json::array({value.lowest, key_of(value.lowest_from), value.highest, key_of(value.highest_from),
                                key_of(value.requirement), value.requirement_specifier, value.guard_python_below,
                                value.guard_torch_specifier});
}
nlohmann::json key_of(const RequirementAnchor& value) {
  return nlohmann::json::array({key_of(value.torch), value.packaging_file});
}
nlohmann::json key_of(const OwnDlpack& value) {
  return nlohmann::json::array({value.ships_own, value.declares_old_names, value.evidence});
}

// A fact of the table, its value type erased.
struct RegisteredFact {
  unsigned index;
  nlohmann::json (*key)(const ProjectFacts& facts);
  std::string_view name;
};

template <const auto& Fact>
constexpr RegisteredFact registered() {
  return {Fact.index, [](const ProjectFacts& facts) { return key_of(facts.get(Fact)); }, Fact.name};
}

// Every project fact, in the order of their indices: a new fact is a handle in
// project_facts.hpp, a line here and one in kGatherers.
constexpr RegisteredFact kFacts[] = {
    registered<facts::onnx_dynamo_export>(),
    registered<facts::cmake_finds_torch>(),
    registered<facts::own_dlpack>(),
    registered<facts::python_environment_reads>(),
    registered<facts::cuda_mentions>(),
    registered<facts::dynamo_backends>(),
    registered<facts::python_versions>(),
    registered<facts::onnx_export_dynamo_path>(),
    registered<facts::declares_onnxscript>(),
    registered<facts::requirement_anchor>(),
    registered<facts::pytest_warnings_as_errors>(),
};

using Gatherer = void (*)(const ProjectTree& tree, ProjectFacts& facts);

template <const auto& Fact, auto Gather>
constexpr Gatherer gathered() {
  return [](const ProjectTree& tree, ProjectFacts& facts) { facts.set(Fact, Gather(tree)); };
}

// What gathers each fact: most alone, those read from every Python source in one pass.
constexpr Gatherer kGatherers[] = {
    gather_python_source_facts,
    gathered<facts::cmake_finds_torch, any_cmake_finds_torch>(),
    gathered<facts::own_dlpack, own_dlpack_of>(),
    gathered<facts::cuda_mentions, cuda_mentions_of>(),
    gathered<facts::python_versions, python_versions_of>(),
    gathered<facts::declares_onnxscript, declares_onnxscript_of>(),
    gathered<facts::requirement_anchor, requirement_anchor_of>(),
    gathered<facts::pytest_warnings_as_errors, pytest_warnings_as_errors_of>(),
};

constexpr bool indexed_in_order() {
  for (unsigned i = 0; i < std::size(kFacts); ++i) {
    if (kFacts[i].index != i) return false;
  }
  return true;
}
static_assert(indexed_in_order(), "a fact's index is its place in kFacts");
static_assert(std::size(kFacts) <= 32, "FactsRead holds a bit per fact");

}  // namespace

FactsRead all_facts() {
  FactsRead all;
  all.bits_ = (1u << std::size(kFacts)) - 1;
  return all;
}

ProjectFacts gather_project_facts(const ProjectTree& tree) {
  ProjectFacts facts;
  for (Gatherer gather : kGatherers) gather(tree, facts);
  return facts;
}

void add_fact_keys(const ProjectFacts& facts, FactsRead read, nlohmann::json& out) {
  for (const RegisteredFact& fact : kFacts) {
    if (read.reads(fact.index)) out[std::string(fact.name)] = fact.key(facts);
  }
}

void add_fact_keys(const nlohmann::json& every_key, FactsRead read, nlohmann::json& out) {
  for (const RegisteredFact& fact : kFacts) {
    std::string name(fact.name);
    if (read.reads(fact.index) && every_key.contains(name)) out[name] = every_key[name];
  }
}

}  // namespace torchmigrate::engine
