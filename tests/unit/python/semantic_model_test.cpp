// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate::python;

namespace {

Node last_call(Node root) {
  Node last;
  std::vector<Node> stack{root};
  while (!stack.empty()) {
    Node node = stack.back();
    stack.pop_back();
    if (node.kind() == "call" && (!last || node.start() > last.start())) last = node;
    for (uint32_t i = 0; i < node.named_child_count(); ++i) stack.push_back(node.named_child(i));
  }
  return last;
}

// Resolves the callee of the last call in `source`.
std::optional<std::string> resolve_last_call(const std::string& source) {
  SyntaxTree tree = SyntaxTree::parse(source);
  SemanticModel model(tree.root());
  Node last = last_call(tree.root());
  REQUIRE(last);
  return model.resolve_call(last);
}

}  // namespace

TEST_CASE("every import form resolves to the qualified name") {
  CHECK(resolve_last_call("import torch\ntorch.export.export(m)\n") == "torch.export.export");
  CHECK(resolve_last_call("import torch as T\nT.export.export(m)\n") == "torch.export.export");
  CHECK(resolve_last_call("import torch.export\ntorch.export.export(m)\n") == "torch.export.export");
  CHECK(resolve_last_call("import torch.export as te\nte.export_for_inference(m)\n") ==
        "torch.export.export_for_inference");
  CHECK(resolve_last_call("from torch import export\nexport.export(m)\n") == "torch.export.export");
  CHECK(resolve_last_call("from torch.export import export_for_inference as efi\nefi(m)\n") ==
        "torch.export.export_for_inference");
  CHECK(resolve_last_call("from torch.export import (\n    Dim,\n    export,\n)\nexport(m)\n") ==
        "torch.export.export");
  CHECK(resolve_last_call("import torch._inductor.config as ic\nic.patch(x=1)\n") == "torch._inductor.config.patch");
}

TEST_CASE("simple assignment aliases resolve through the assigned name") {
  CHECK(resolve_last_call("import torch\nf = torch.export.export_for_inference\nf(m)\n") ==
        "torch.export.export_for_inference");
  CHECK(resolve_last_call("import torch.export as te\ng = te\ng.export(m)\n") == "torch.export.export");
}

TEST_CASE("local definitions shadow imports") {
  CHECK_FALSE(resolve_last_call("from torch.export import export\ndef export(m): pass\nexport(m)\n"));
  CHECK_FALSE(resolve_last_call("from torch.export import export\nclass export: pass\nexport(m)\n"));
  CHECK_FALSE(resolve_last_call("from torch.export import export\ndef f(export):\n    export(m)\n"));
  CHECK_FALSE(resolve_last_call("from torch.export import export\nexport = make()\nexport(m)\n"));
  CHECK_FALSE(resolve_last_call("import torch\ndef f():\n    torch = other\n    torch.export.export(m)\n"));
  CHECK_FALSE(resolve_last_call("import torch\nfor torch in xs:\n    torch.export.export(m)\n"));
  CHECK_FALSE(resolve_last_call("from .export import export\nexport(m)\n"));
  CHECK_FALSE(resolve_last_call("self.exporter.export(m)\n"));
  CHECK_FALSE(resolve_last_call("export(m)\n"));
}

TEST_CASE("scope rules: a function sees the module's final binding, a class body is not visible") {
  CHECK(resolve_last_call("def f():\n    export(m)\nfrom torch.export import export\n") == "torch.export.export");
  CHECK_FALSE(resolve_last_call("from torch.export import export\ndef f():\n    export(m)\ndef export(m): pass\n"));
  CHECK(resolve_last_call("from torch.export import export\nclass A:\n    export = 1\n    def f(self):\n"
                          "        export(m)\n") == "torch.export.export");
  CHECK(resolve_last_call("import torch\nexport = torch.export.export\ndef f():\n    export(m)\n") ==
        "torch.export.export");
  // Code before a rebinding at the same level still sees the import.
  CHECK(resolve_last_call("from torch.export import export\nexport(m)\nexport = None\n") == "torch.export.export");
}

TEST_CASE("a syntax error does not hide the rest of the file") {
  SyntaxTree tree = SyntaxTree::parse("def broken(:\n    pass\nimport torch\ntorch.export.export(m)\n");
  CHECK(tree.first_error().has_value());
  CHECK(resolve_last_call("def broken(:\n    pass\nimport torch\ntorch.export.export(m)\n") == "torch.export.export");
}

namespace {

using Names = std::vector<std::optional<std::string>>;

// Every name the callee of the last call in `source` may refer to.
Names resolve_last_call_all(const std::string& source) {
  SyntaxTree tree = SyntaxTree::parse(source);
  SemanticModel model(tree.root());
  Node last = last_call(tree.root());
  REQUIRE(last);
  return model.resolve_call_all(last);
}

const std::optional<std::string> kOther;  // a possibility that is not an import

}  // namespace

TEST_CASE("every binding that may reach a use is a possibility") {
  CHECK(resolve_last_call_all("import torch\nif c:\n    f = torch.a\nelse:\n    f = torch.b\nf(m)\n") ==
        Names{"torch.b", "torch.a"});
  CHECK(resolve_last_call_all("import torch\nif c:\n    f = torch.a\nelif d:\n    f = torch.b\nelse:\n    f = g\nf(m)\n") ==
        Names{kOther, "torch.b", "torch.a"});
  CHECK(resolve_last_call_all("import torch\nf = torch.a\nif c:\n    f = torch.b\nf(m)\n") ==
        Names{"torch.b", "torch.a"});
  CHECK(resolve_last_call_all("try:\n    from torch import a as f\nexcept ImportError:\n    f = None\nf(m)\n") ==
        Names{kOther, "torch.a"});
  CHECK(resolve_last_call_all("import torch\nf = torch.a\nfor x in xs:\n    f = torch.b\nf(m)\n") ==
        Names{"torch.b", "torch.a"});
  CHECK(resolve_last_call_all("import torch\nf = torch.a\nmatch x:\n    case 1:\n        f = torch.b\nf(m)\n") ==
        Names{"torch.b", "torch.a"});
}

TEST_CASE("an unconditional binding hides the ones before it") {
  CHECK(resolve_last_call_all("import torch\nif c:\n    f = torch.a\nf = torch.b\nf(m)\n") == Names{"torch.b"});
  CHECK(resolve_last_call_all("import torch\nf = torch.a\nwith x:\n    f = torch.b\nf(m)\n") == Names{"torch.b"});
  CHECK(resolve_last_call_all("import torch\nf = torch.a\ntry:\n    pass\nfinally:\n    f = torch.b\nf(m)\n") ==
        Names{"torch.b"});
}

TEST_CASE("a binding in another branch of the same statement never reaches a use") {
  CHECK(resolve_last_call_all("import torch\nf = torch.a\nif c:\n    f = torch.b\nelse:\n    f(m)\n") ==
        Names{"torch.a"});
  CHECK(resolve_last_call_all(
            "import torch\nf = torch.a\ntry:\n    g()\nexcept E:\n    f = torch.b\nexcept F:\n    f(m)\n") ==
        Names{"torch.a"});
  // A try body may have run before its handler.
  CHECK(resolve_last_call_all("import torch\nf = torch.a\ntry:\n    f = torch.b\nexcept E:\n    f(m)\n") ==
        Names{"torch.b", "torch.a"});
}

TEST_CASE("conditional expressions and names with several bindings carry every arm") {
  CHECK(resolve_last_call_all("import torch\nf = torch.a if c else torch.b\nf(m)\n") == Names{"torch.a", "torch.b"});
  CHECK(resolve_last_call_all("import torch\n(torch.a if c else g)(m)\n") == Names{"torch.a", kOther});
  CHECK(resolve_last_call_all("import torch\nif c:\n    f = torch.a\nelse:\n    f = torch.b\ng = f\ng(m)\n") ==
        Names{"torch.b", "torch.a"});
  CHECK(resolve_last_call_all("import torch\nif c:\n    t = torch\nelse:\n    t = T\nt.export(m)\n") ==
        Names{kOther, "torch.export"});
}

TEST_CASE("functions see every binding that may be in effect when the module finishes") {
  CHECK(resolve_last_call_all("import torch\nif c:\n    f = torch.a\nelse:\n    f = torch.b\ndef h():\n    f(m)\n") ==
        Names{"torch.b", "torch.a"});
  CHECK(resolve_last_call_all("import torch\nf = torch.a\ndef h():\n    f(m)\nf = g\n") == Names{kOther});
  CHECK(resolve_last_call_all("import torch\nf = torch.a\ndef h(f):\n    f(m)\n") == Names{kOther});
  CHECK(resolve_last_call_all("g(m)\n") == Names{kOther});
}

// Two functions and a class with a method: four bodies, five scopes.
constexpr std::string_view kFourBodies =
    "import torch\n"
    "def first(a):\n    x = torch.compile\n    return x(a)\n"
    "class Model:\n    def second(self):\n        import torch.onnx as onnx\n        return onnx.export(self)\n"
    "def third():\n    return torch.nn.Module()\n";

TEST_CASE("a body is read only when a question is asked inside it") {
  std::string_view source = kFourBodies;
  SyntaxTree tree = SyntaxTree::parse(source);
  SemanticModel model(tree.root());
  CHECK(model.bodies_read() == 0);
  CHECK(model.module_scope().bindings.count("first") == 1);
  CHECK(model.module_scope().bindings.count("Model") == 1);

  Node call = last_call(tree.root());  // torch.nn.Module(), in `third`
  CHECK(model.resolve_call(call) == "torch.nn.Module");
  CHECK(model.bodies_read() == 1);

  // A binding handed out stays valid while later questions read more bodies.
  const Binding* torch_import = model.lookup("torch", call);
  REQUIRE(torch_import != nullptr);
  size_t onnx_call = source.find("onnx.export(");
  CHECK(model.scope(model.scope_at(static_cast<uint32_t>(onnx_call))).bindings.count("onnx") == 1);
  CHECK(model.bodies_read() == 3);  // the class body, then the method's
  CHECK(torch_import->qualified_name == "torch");

  // Only module-level imports are listed; all_scopes reads the remaining body.
  CHECK(model.module_imports().size() == 1);
  CHECK(model.all_scopes().size() == 5);
  CHECK(model.bodies_read() == 4);
  CHECK(model.scope(model.scope_at(static_cast<uint32_t>(source.find("x(a)")))).bindings.count("a") == 1);
}

TEST_CASE("a body read later sees every module binding, as the function runs after the module") {
  // The import follows the function: when `f` runs, `torch` is bound, so `g` is torch.compile.
  CHECK(resolve_last_call("def f():\n    g = torch.compile\n    return g(m)\nimport torch\n") == "torch.compile");
  CHECK_FALSE(resolve_last_call("def f():\n    g = torch.compile\n    return g(m)\n"));
  // An alias assigned after the function reaches it; a rebinding after the function hides the import.
  CHECK(resolve_last_call("import torch.export as te\ndef f():\n    g = h\n    return g.export_for_inference(1)\n"
                          "h = te\n") == "torch.export.export_for_inference");
  CHECK_FALSE(resolve_last_call(
      "import torch.export as te\ndef f():\n    g = te\n    return g.export_for_inference(1)\nte = None\n"));
}

TEST_CASE("a focused model never reads a body outside its focus") {
  const std::string source = "import torch\ndef a():\n    torch.x()\ndef b():\n    torch.y()\n";
  SyntaxTree tree = SyntaxTree::parse(source);
  uint32_t b_start = static_cast<uint32_t>(source.find("def b"));
  SemanticModel model(tree.root(), Focus({{b_start, static_cast<uint32_t>(source.size())}}));
  CHECK(model.all_scopes().size() == 3);
  CHECK(model.bodies_read() == 1);
  CHECK(model.resolve_call(last_call(tree.root())) == "torch.y");
}
