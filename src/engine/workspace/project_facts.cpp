// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/project_facts.hpp"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <nlohmann/json.hpp>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/cmake.hpp"
#include "torchmigrate/engine/run/parallel.hpp"
#include "torchmigrate/engine/workspace/dlpack_facts.hpp"
#include "torchmigrate/engine/workspace/dynamo_backend_facts.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/packaging_facts.hpp"
#include "torchmigrate/engine/workspace/pytest_config.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::engine {
namespace {

// Whether the call passes `dynamo=<value>`, written so.
bool passes_dynamo(python::Node call, std::string_view value_text) {
  python::Node arguments = call.field("arguments");
  if (!arguments) return false;
  for (uint32_t i = 0; i < arguments.named_child_count(); ++i) {
    python::Node argument = arguments.named_child(i);
    if (argument.kind() != "keyword_argument") continue;
    python::Node name = argument.field("name");
    python::Node value = argument.field("value");
    if (name && value && name.text() == "dynamo" && value.text() == value_text) return true;
  }
  return false;
}

bool passes_dynamo_true(python::Node call) { return passes_dynamo(call, "True"); }

// The first call of `torch.onnx.export` in the source that `matches`, or a null node.
template <class Matches>
python::Node first_onnx_export(const python::SyntaxTree& tree, Matches matches) {
  python::SemanticModel model(tree.root());
  // Iterative pre-order walk over the calls.
  std::vector<python::Node> stack{tree.root()};
  while (!stack.empty()) {
    python::Node node = stack.back();
    stack.pop_back();
    if (node.kind() == "call" && matches(node) && model.resolve_call(node) == "torch.onnx.export") return node;
    for (uint32_t i = node.named_child_count(); i-- > 0;) stack.push_back(node.named_child(i));
  }
  return {};
}

// The first call of `torch.onnx.export` that does not pass `dynamo=False`, in file order.
ProjectLine onnx_export_dynamo_path_of(const ProjectTree& tree) {
  std::vector<uint32_t> lines(tree.files.size(), 0);
  parallel_for(tree.files.size(), tree.jobs, [&](size_t i) {
    const DiscoveredFile& file = tree.files[i];
    if (file.language != Language::Python) return;
    ReadResult read = read_file(file.path);
    if (read.text) lines[i] = onnx_export_on_dynamo_path(*read.text);
  });
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] != 0) return {project_relative(tree.root, tree.files[i].path), lines[i], {}};
  }
  return {};
}

// Whether some Python file of the project calls `torch.onnx.export(..., dynamo=True)`: reads only
// the Python files that mention both `onnx` and `dynamo`, and stops at the first call.
bool any_onnx_dynamo_export(const ProjectTree& tree) {
  std::atomic<bool> found{false};
  parallel_for(tree.files.size(), tree.jobs, [&](size_t i) {
    const DiscoveredFile& file = tree.files[i];
    if (found || file.language != Language::Python) return;
    ReadResult read = read_file(file.path);
    if (!read.text) return;  // the session reports unreadable files
    if (calls_onnx_dynamo_export(*read.text)) found = true;
  });
  return found;
}

// Whether some CMake file of the project calls `find_package(Torch)`: parses only the CMake files
// that mention `Torch`, and stops at the first call.
bool any_cmake_finds_torch(const ProjectTree& tree) {
  std::atomic<bool> found{false};
  parallel_for(tree.files.size(), tree.jobs, [&](size_t i) {
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

// The environment variables the project's Python files (setup.py included) read by name.
std::vector<std::string> python_environment_reads_of(const ProjectTree& tree) {
  std::vector<std::vector<std::string>> per_file(tree.files.size());
  parallel_for(tree.files.size(), tree.jobs, [&](size_t i) {
    const DiscoveredFile& file = tree.files[i];
    bool python = file.language == Language::Python ||
                  buildfiles::kind_for(file.path, tree.extensions) == buildfiles::FileKind::SetupPy;
    if (!python) return;
    ReadResult read = read_file(file.path);
    if (!read.text) return;  // the session reports unreadable files
    if (read.text->find("environ") == std::string::npos && read.text->find("getenv") == std::string::npos) return;
    per_file[i] = environment_reads(*read.text);
  });
  std::vector<std::string> names;
  for (std::vector<std::string>& found : per_file) names.insert(names.end(), found.begin(), found.end());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// Where the project's build files name CUDA 13, another wheel index or an architecture-list
// entry: the first of each, in the order of the files.
buildfiles::CudaMentions cuda_mentions_of(const ProjectTree& tree) {
  std::vector<buildfiles::CudaMentions> per_file(tree.files.size());
  parallel_for(tree.files.size(), tree.jobs, [&](size_t i) {
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
  void (*gather)(const ProjectTree& tree, ProjectFacts& facts);
  nlohmann::json (*key)(const ProjectFacts& facts);
  std::string_view name;
};

template <const auto& Fact, auto Gather>
constexpr RegisteredFact registered() {
  return {Fact.index, [](const ProjectTree& tree, ProjectFacts& facts) { facts.set(Fact, Gather(tree)); },
          [](const ProjectFacts& facts) { return key_of(facts.get(Fact)); }, Fact.name};
}

// Every project fact and its gather function, in the order of their indices: a new fact is a
// handle in project_facts.hpp, a line here and its gather function.
constexpr RegisteredFact kFacts[] = {
    registered<facts::onnx_dynamo_export, any_onnx_dynamo_export>(),
    registered<facts::cmake_finds_torch, any_cmake_finds_torch>(),
    registered<facts::own_dlpack, own_dlpack_of>(),
    registered<facts::python_environment_reads, python_environment_reads_of>(),
    registered<facts::cuda_mentions, cuda_mentions_of>(),
    registered<facts::dynamo_backends, registered_dynamo_backends>(),
    registered<facts::python_versions, python_versions_of>(),
    registered<facts::onnx_export_dynamo_path, onnx_export_dynamo_path_of>(),
    registered<facts::declares_onnxscript, declares_onnxscript_of>(),
    registered<facts::requirement_anchor, requirement_anchor_of>(),
    registered<facts::pytest_warnings_as_errors, pytest_warnings_as_errors_of>(),
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

// Whether the source may call `torch.onnx.export` in some spelling: `....onnx.export(` through any
// alias of torch or of `torch.onnx`, or an `export` imported from `torch.onnx`. Most files of a
// project say neither, and are not parsed.
namespace {
bool may_call_onnx_export(std::string_view python_source) {
  return python_source.find("onnx.export") != std::string_view::npos ||
         python_source.find("onnx import") != std::string_view::npos;
}
}  // namespace

bool calls_onnx_dynamo_export(std::string_view python_source) {
  if (!may_call_onnx_export(python_source) || python_source.find("dynamo") == std::string_view::npos) return false;
  python::SyntaxTree tree = python::SyntaxTree::parse(python_source);
  if (tree.too_deep()) return false;  // the linter reports it (TM901)
  return static_cast<bool>(first_onnx_export(tree, passes_dynamo_true));
}

uint32_t onnx_export_on_dynamo_path(std::string_view python_source) {
  if (!may_call_onnx_export(python_source)) return 0;
  python::SyntaxTree tree = python::SyntaxTree::parse(python_source);
  if (tree.too_deep()) return 0;  // the linter reports it (TM901)
  python::Node call = first_onnx_export(tree, [](python::Node node) { return !passes_dynamo(node, "False"); });
  if (!call) return 0;
  return static_cast<uint32_t>(std::count(python_source.begin(), python_source.begin() + call.start(), '\n') + 1);
}

FactsRead all_facts() {
  FactsRead all;
  all.bits_ = (1u << std::size(kFacts)) - 1;
  return all;
}

ProjectFacts gather_project_facts(const ProjectTree& tree) {
  ProjectFacts facts;
  for (const RegisteredFact& fact : kFacts) fact.gather(tree, facts);
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
