// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/python_source_facts.hpp"

#include <algorithm>
#include <iterator>

#include "torchmigrate/buildfiles/build_file.hpp"
#include "torchmigrate/core/text_search.hpp"
#include "torchmigrate/engine/workspace/dynamo_backend_facts.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/packaging_facts.hpp"
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

// The calls of `torch.onnx.export` in the source, in file order.
std::vector<python::Node> onnx_exports(const python::SyntaxTree& tree) {
  python::SemanticModel model(tree.root());
  std::vector<python::Node> found;
  // Iterative pre-order walk over the calls.
  std::vector<python::Node> stack{tree.root()};
  while (!stack.empty()) {
    python::Node node = stack.back();
    stack.pop_back();
    if (node.kind() == "call" && model.resolve_call(node) == "torch.onnx.export") found.push_back(node);
    for (uint32_t i = node.named_child_count(); i-- > 0;) stack.push_back(node.named_child(i));
  }
  return found;
}

// Whether the source may call `torch.onnx.export` in some spelling: `....onnx.export(` through any
// alias of torch or of `torch.onnx`, or an `export` imported from `torch.onnx`. Most files of a
// project say neither, and are not parsed.
bool may_call_onnx_export(std::string_view python_source) {
  for (size_t at = find_text(python_source, "onnx"); at != std::string_view::npos;
       at = find_text(python_source, "onnx", at + 1)) {
    std::string_view rest = python_source.substr(at + 4);
    if (rest.starts_with(".export") || rest.starts_with(" import")) return true;
  }
  return false;
}

// What one Python file says about its ONNX exports.
struct OnnxExports {
  bool dynamo_true = false;       // some call passes `dynamo=True`
  uint32_t dynamo_path_line = 0;  // the first call that does not pass `dynamo=False`
};

OnnxExports onnx_exports_of(std::string_view python_source) {
  OnnxExports found;
  if (!may_call_onnx_export(python_source)) return found;
  python::SyntaxTree tree = python::SyntaxTree::parse(python_source);
  if (tree.too_deep()) return found;  // the linter reports it (TM901)
  for (python::Node call : onnx_exports(tree)) {
    found.dynamo_true = found.dynamo_true || passes_dynamo(call, "True");
    if (found.dynamo_path_line == 0 && !passes_dynamo(call, "False")) {
      auto before = python_source.begin() + call.start();
      found.dynamo_path_line = static_cast<uint32_t>(std::count(python_source.begin(), before, '\n') + 1);
    }
  }
  return found;
}

// What one file of the project contributes.
struct Observed {
  OnnxExports onnx;
  std::vector<std::string> environment_reads;
  std::vector<std::string> dynamo_backends;
};

Observed observe(const DiscoveredFile& file, const buildfiles::ExtraExtensions& extensions) {
  Observed observed;
  buildfiles::FileKind kind = buildfiles::kind_for(file.path, extensions);
  bool python = file.language == Language::Python;
  bool setup_py = kind == buildfiles::FileKind::SetupPy;
  bool packaging = kind == buildfiles::FileKind::Toml || kind == buildfiles::FileKind::Ini || setup_py;
  if (!python && !packaging) return observed;
  ReadResult read = read_file(file.path);
  if (!read.text) return observed;  // the session reports unreadable files
  std::string_view text = *read.text;
  if ((python || setup_py) && contains_text(text, "env")) observed.environment_reads = environment_reads(text);
  if (python) {
    observed.onnx = onnx_exports_of(text);
    python_dynamo_backends(text, observed.dynamo_backends);
  }
  if (packaging) entry_point_dynamo_backends(text, observed.dynamo_backends);
  return observed;
}

std::vector<std::string> sorted_unique(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

bool calls_onnx_dynamo_export(std::string_view python_source) {
  return contains_text(python_source, "dynamo") && onnx_exports_of(python_source).dynamo_true;
}

uint32_t onnx_export_on_dynamo_path(std::string_view python_source) {
  return onnx_exports_of(python_source).dynamo_path_line;
}

void gather_python_source_facts(const ProjectTree& tree, ProjectFacts& facts) {
  std::vector<Observed> per_file(tree.files.size());
  tree.parallel(tree.files.size(), [&](size_t i) { per_file[i] = observe(tree.files[i], tree.extensions); });
  bool dynamo_true = false;
  ProjectLine dynamo_path;
  std::vector<std::string> environment_reads;
  std::vector<std::string> dynamo_backends;
  for (size_t i = 0; i < per_file.size(); ++i) {
    Observed& observed = per_file[i];
    dynamo_true = dynamo_true || observed.onnx.dynamo_true;
    if (dynamo_path.line == 0 && observed.onnx.dynamo_path_line != 0) {
      dynamo_path = {project_relative(tree.root, tree.files[i].path), observed.onnx.dynamo_path_line, {}};
    }
    std::move(observed.environment_reads.begin(), observed.environment_reads.end(),
              std::back_inserter(environment_reads));
    std::move(observed.dynamo_backends.begin(), observed.dynamo_backends.end(), std::back_inserter(dynamo_backends));
  }
  facts.set(facts::onnx_dynamo_export, dynamo_true);
  facts.set(facts::onnx_export_dynamo_path, dynamo_path);
  facts.set(facts::python_environment_reads, sorted_unique(std::move(environment_reads)));
  facts.set(facts::dynamo_backends, sorted_unique(std::move(dynamo_backends)));
}

}  // namespace torchmigrate::engine
