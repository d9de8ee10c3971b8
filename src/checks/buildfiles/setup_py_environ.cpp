// SPDX-License-Identifier: MIT
// Environment assignments in setup.py, read from its Python syntax tree. A line scan cannot
// tell `os.environ["X"] = "6.1"` from a comment, a docstring or `os.environ.get("X", "6.1")`;
// tree-sitter already runs on setup.py for the Python rules and parses a setup.py in well
// under a millisecond, so the build front parses it again rather than guessing from tokens.
// find_assignments, which chooses this reader for setup.py and the line reader otherwise, is here too.
//
// The key is the signal: any dictionary-like store under the variable's exact name is an
// environment being prepared (`os.environ[...]`, a copied `env[...]`, `{**os.environ, ...}`),
// since the name means nothing else. Only literal string values are read.
#include <algorithm>

#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::checks {
namespace {

struct PythonString {
  bool literal = false;     // a plain string, no f-string interpolation, no implicit concatenation
  TextRange content;        // between the quotes
  char quote = 0;
};

PythonString read_string(const python::Node& node) {
  PythonString out;
  if (!node || node.kind() != "string") return out;
  python::Node start, end;
  for (uint32_t i = 0; i < node.child_count(); ++i) {
    python::Node child = node.child(i);
    if (child.kind() == "interpolation") return out;
    if (child.kind() == "string_start") start = child;
    if (child.kind() == "string_end") end = child;
  }
  if (!start || !end || start.text().empty()) return out;
  out.literal = true;
  out.content = {start.end(), end.start()};
  out.quote = start.text().back();
  return out;
}

bool is_name(const PythonString& key, std::string_view source, const std::vector<std::string>& names) {
  if (!key.literal) return false;
  std::string_view text = source.substr(key.content.start, key.content.length());
  return std::find(names.begin(), names.end(), text) != names.end();
}

// The last name of a call's function: `putenv` for `os.putenv`, `update` for `env.update`.
std::string_view called_name(const python::Node& call) {
  python::Node function = call.field("function");
  if (!function) return {};
  if (function.kind() == "identifier") return function.text();
  if (function.kind() == "attribute") return function.field("attribute").text();
  return {};
}

class Reader {
 public:
  Reader(std::string_view source, const std::vector<std::string>& names) : source_(source), names_(names) {}

  void visit(const python::Node& node) {
    std::string_view kind = node.kind();
    if (kind == "assignment") {
      // `os.environ["X"] = "v"`, `env["X"] = "v"`
      python::Node left = node.field("left");
      if (left && left.kind() == "subscript" && left.named_child_count() == 2) {
        add(read_string(left.field("subscript")), node.field("right"));
      }
    } else if (kind == "pair") {
      // `{**os.environ, "X": "v"}`, `os.environ.update({"X": "v"})`
      add(read_string(node.field("key")), node.field("value"));
    } else if (kind == "call") {
      call(node);
    }
  }

  std::vector<buildfiles::Assignment> take() {
    std::sort(found_.begin(), found_.end(), [](const auto& a, const auto& b) { return a.name_range.start < b.name_range.start; });
    return std::move(found_);
  }

 private:
  void call(const python::Node& node) {
    std::string_view function = called_name(node);
    python::Node arguments = node.field("arguments");
    if (!arguments || arguments.kind() != "argument_list") return;
    if (function == "setdefault" || function == "putenv") {
      // `os.environ.setdefault("X", "v")`, `os.putenv("X", "v")`
      if (arguments.named_child_count() != 2) return;
      add(read_string(arguments.named_child(0)), arguments.named_child(1));
    } else if (function == "dict" || function == "update") {
      // `dict(os.environ, X="v")`, `os.environ.update(X="v")`
      for (uint32_t i = 0; i < arguments.named_child_count(); ++i) {
        python::Node argument = arguments.named_child(i);
        if (argument.kind() != "keyword_argument") continue;
        python::Node name = argument.field("name");
        if (!name || std::find(names_.begin(), names_.end(), name.text()) == names_.end()) continue;
        add_value(std::string(name.text()), name.range(), argument.field("value"));
      }
    }
  }

  void add(const PythonString& key, const python::Node& value) {
    if (!is_name(key, source_, names_)) return;
    add_value(std::string(source_.substr(key.content.start, key.content.length())), key.content, value);
  }

  void add_value(std::string name, TextRange name_range, const python::Node& value) {
    PythonString text = read_string(value);
    if (!text.literal) return;  // a computed value is not read, as in the other formats
    buildfiles::Assignment assignment;
    assignment.name = std::move(name);
    assignment.name_range = name_range;
    assignment.value = std::string(source_.substr(text.content.start, text.content.length()));
    assignment.value_range = value.range();
    assignment.value_quoted = true;
    assignment.quote = text.quote;
    found_.push_back(std::move(assignment));
  }

  std::string_view source_;
  const std::vector<std::string>& names_;
  std::vector<buildfiles::Assignment> found_;
};

}  // namespace

std::vector<buildfiles::Assignment> setup_py_assignments(engine::FileCheckContext& context,
                                                         const std::vector<std::string>& names) {
  const python::SyntaxTree& tree = context.python_tree();
  if (tree.too_deep()) return {};  // the Python front reports such a file (TM901)
  Reader reader(tree.source(), names);
  std::vector<python::Node> stack{tree.root()};
  while (!stack.empty()) {
    python::Node node = stack.back();
    stack.pop_back();
    reader.visit(node);
    for (uint32_t i = node.named_child_count(); i-- > 0;) stack.push_back(node.named_child(i));
  }
  return reader.take();
}

std::vector<buildfiles::Assignment> find_assignments(engine::FileCheckContext& context,
                                                     const std::vector<std::string>& names) {
  const buildfiles::BuildFile& file = context.build_file();
  if (file.kind == buildfiles::FileKind::SetupPy) return setup_py_assignments(context, names);
  return buildfiles::find_assignments(file, names);
}

}  // namespace torchmigrate::checks
