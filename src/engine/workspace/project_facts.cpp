// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/project_facts.hpp"

#include <atomic>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/buildfiles/cmake.hpp"
#include "torchmigrate/engine/run/parallel.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::engine {
namespace {

bool passes_dynamo_true(python::Node call) {
  python::Node arguments = call.field("arguments");
  if (!arguments) return false;
  for (uint32_t i = 0; i < arguments.named_child_count(); ++i) {
    python::Node argument = arguments.named_child(i);
    if (argument.kind() != "keyword_argument") continue;
    python::Node name = argument.field("name");
    python::Node value = argument.field("value");
    if (name && value && name.text() == "dynamo" && value.text() == "True") return true;
  }
  return false;
}

}  // namespace

bool calls_onnx_dynamo_export(std::string_view python_source) {
  if (python_source.find("onnx") == std::string_view::npos || python_source.find("dynamo") == std::string_view::npos) {
    return false;
  }
  python::SyntaxTree tree = python::SyntaxTree::parse(python_source);
  if (tree.too_deep()) return false;  // the linter reports it (TM901)
  python::SemanticModel model(tree.root());
  // Iterative pre-order walk over the calls.
  std::vector<python::Node> stack{tree.root()};
  while (!stack.empty()) {
    python::Node node = stack.back();
    stack.pop_back();
    if (node.kind() == "call" && passes_dynamo_true(node) && model.resolve_call(node) == "torch.onnx.export") return true;
    for (uint32_t i = node.named_child_count(); i-- > 0;) stack.push_back(node.named_child(i));
  }
  return false;
}

ProjectFacts gather_project_facts(const std::vector<DiscoveredFile>& files, const buildfiles::ExtraExtensions& extra,
                                  unsigned jobs) {
  ProjectFacts facts;
  std::atomic<bool> dynamo{false};
  std::atomic<bool> torch_cmake{false};
  parallel_for(files.size(), jobs, [&](size_t i) {
    const DiscoveredFile& file = files[i];
    bool python = file.language == Language::Python;
    buildfiles::FileKind kind = buildfiles::kind_for(file.path, extra);
    if ((python && dynamo) || (kind == buildfiles::FileKind::CMake && torch_cmake)) return;
    if (!python && kind != buildfiles::FileKind::CMake) return;
    ReadResult read = read_file(file.path);
    if (!read.text) return;  // the session reports unreadable files
    if (python && calls_onnx_dynamo_export(*read.text)) dynamo = true;
    if (kind == buildfiles::FileKind::CMake && read.text->find("Torch") != std::string::npos &&
        buildfiles::calls_find_package(buildfiles::BuildFile::read(*read.text, kind), "Torch")) {
      torch_cmake = true;
    }
  });
  facts.calls_onnx_dynamo_export = dynamo;
  facts.cmake_finds_torch = torch_cmake;
  return facts;
}

}  // namespace torchmigrate::engine
