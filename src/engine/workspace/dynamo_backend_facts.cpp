// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/dynamo_backend_facts.hpp"

#include <algorithm>
#include <regex>

#include "torchmigrate/core/text_search.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::engine {
namespace {

// torch's registration functions (torch/_dynamo/backends/registry.py, 2.8 to 2.11).
bool is_registration(const std::optional<std::string>& name) {
  return name &&
         (*name == "torch._dynamo.register_backend" || *name == "torch._dynamo.backends.registry.register_backend" ||
          *name == "torch._dynamo.backends.registry.register_debug_backend" ||
          *name == "torch._dynamo.backends.registry.register_experimental_backend");
}

// The text of a plain string literal, if the node is one.
std::optional<std::string> string_text(python::Node node) {
  if (!node || node.kind() != "string") return std::nullopt;
  python::Node start = node.child(0);
  python::Node end = node.child(node.child_count() - 1);
  if (!start || !end || start.kind() != "string_start" || end.kind() != "string_end") return std::nullopt;
  if (start.text().find_first_of("fFbB") != std::string_view::npos) return std::nullopt;
  return std::string(node.source().substr(start.end(), end.start() - start.end()));
}

// `name="x"` of a registration call.
void add_call_name(python::Node call, std::vector<std::string>& out) {
  python::Node arguments = call.field("arguments");
  for (uint32_t i = 0; arguments && i < arguments.named_child_count(); ++i) {
    python::Node argument = arguments.named_child(i);
    if (argument.kind() != "keyword_argument" || argument.field("name").text() != "name") continue;
    if (std::optional<std::string> name = string_text(argument.field("value"))) out.push_back(*name);
  }
}

// `@register_backend` (not called) over `def x`: registered as `x`.
void add_decorated_name(const python::SemanticModel& model, python::Node definition, std::vector<std::string>& out) {
  python::Node function = definition.field("definition");
  if (!function || function.kind() != "function_definition") return;
  for (uint32_t i = 0; i < definition.named_child_count(); ++i) {
    python::Node decorator = definition.named_child(i);
    if (decorator.kind() != "decorator" || decorator.named_child_count() == 0) continue;
    python::Node expression = decorator.named_child(0);
    if (expression.kind() != "call" && is_registration(model.resolve(expression))) {
      out.push_back(std::string(function.field("name").text()));
    }
  }
}

}  // namespace

void python_dynamo_backends(std::string_view python_source, std::vector<std::string>& out) {
  // `register_backend(...)` or `@register_backend` (plain `register_` is in every `register_buffer`).
  if (find_text(python_source, "register_backend") == std::string_view::npos) return;
  python::SyntaxTree tree = python::SyntaxTree::parse(python_source);
  if (tree.too_deep()) return;  // the linter reports it (TM901)
  python::SemanticModel model(tree.root());
  std::vector<python::Node> stack{tree.root()};
  while (!stack.empty()) {
    python::Node node = stack.back();
    stack.pop_back();
    if (node.kind() == "call" && is_registration(model.resolve_call(node))) add_call_name(node, out);
    if (node.kind() == "decorated_definition") add_decorated_name(model, node, out);
    for (uint32_t i = node.named_child_count(); i-- > 0;) stack.push_back(node.named_child(i));
  }
}

void entry_point_dynamo_backends(std::string_view packaging_text, std::vector<std::string>& out) {
  size_t group = find_text(packaging_text, "torch_dynamo_backends");
  if (group == std::string_view::npos) return;
  // The group's entries follow it: up to the next TOML/INI section (after the group's own TOML
  // header, `[project.entry-points.torch_dynamo_backends]`), or the end of a setup.py list.
  std::string_view rest = packaging_text.substr(group + std::string_view("torch_dynamo_backends").size());
  bool toml_section = rest.starts_with("]") || rest.starts_with("\"]");
  if (toml_section) rest.remove_prefix(rest.find(']') + 1);
  size_t end = std::min(rest.find("\n["), toml_section ? rest.size() : rest.find(']'));
  end = std::min(end, rest.size());
  std::string entries(rest.substr(0, end));
  static const std::regex entry(R"re(["']?([A-Za-z0-9_.\-]+)["']?\s*=\s*["']?[A-Za-z_][\w.]*\s*:\s*[A-Za-z_][\w.]*)re");
  for (std::sregex_iterator it(entries.begin(), entries.end(), entry), last; it != last; ++it) out.push_back((*it)[1]);
}

}  // namespace torchmigrate::engine
