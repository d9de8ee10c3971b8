// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <functional>

#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/python/statement_edits.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;
using namespace torchmigrate::checks;

namespace {

void walk(python::Node node, const std::function<void(python::Node)>& visit) {
  visit(node);
  for (uint32_t i = 0; i < node.named_child_count(); ++i) walk(node.named_child(i), visit);
}

const std::vector<std::string> kModules = {"torch._inductor.config", "torch._dynamo.config", "torch._functorch.config"};

// Every (kind, module.key) found in `source`.
std::vector<std::pair<ConfigUsageKind, std::string>> usages(const std::string& source) {
  python::SyntaxTree tree = python::SyntaxTree::parse(source);
  python::SemanticModel model(tree.root());
  ConfigUsageFinder finder(model, kModules);
  std::vector<std::pair<ConfigUsageKind, std::string>> found;
  walk(tree.root(), [&](python::Node node) {
    for (const ConfigUsage& usage : finder.at(node)) found.emplace_back(usage.kind, usage.module + "." + usage.key);
  });
  return found;
}

bool has(const std::vector<std::pair<ConfigUsageKind, std::string>>& found, ConfigUsageKind kind, const std::string& key) {
  return std::find(found.begin(), found.end(), std::make_pair(kind, key)) != found.end();
}

// Applies `edit_for(call)` to the first call in `source` whose text starts with `prefix`.
std::string edit_call(const std::string& source, const std::string& prefix,
                      const std::function<std::optional<Edit>(python::Node)>& edit_for) {
  python::SyntaxTree tree = python::SyntaxTree::parse(source);
  python::Node target;
  walk(tree.root(), [&](python::Node node) {
    if (!target && node.kind() == "call" && node.text().substr(0, prefix.size()) == prefix) target = node;
  });
  REQUIRE(target);
  std::optional<Edit> edit = edit_for(target);
  if (!edit) return "<no edit>";
  return apply_edits(source, {*edit});
}

std::optional<Edit> remove_patch(python::Node call) { return remove_patch_use(call); }

}  // namespace

TEST_CASE("attribute uses resolve through every import spelling") {
  auto found = usages(
      "import torch\nimport torch._inductor.config as ic\nfrom torch._inductor import config\n"
      "from torch._inductor.config import aot_inductor\n"
      "torch._inductor.config.aot_inductor.embed_cubin = True\n"
      "x = ic.use_mixed_mm\n"
      "aot_inductor.compile_wrapper_with_O0 = True\n");
  CHECK(has(found, ConfigUsageKind::AttributeWrite, "torch._inductor.config.aot_inductor.embed_cubin"));
  CHECK(has(found, ConfigUsageKind::AttributeRead, "torch._inductor.config.use_mixed_mm"));
  CHECK(has(found, ConfigUsageKind::AttributeWrite, "torch._inductor.config.aot_inductor.compile_wrapper_with_O0"));
}

TEST_CASE("a project's own config object is not a torch config") {
  auto found = usages("class C: pass\nconfig = C()\nconfig.use_mixed_mm = True\nfrom myproj import config as c\nc.use_mixed_mm = 1\n");
  CHECK(found.empty());
}

TEST_CASE("patch, compile options, builtins and mocks are found") {
  auto found = usages(
      "import torch\nfrom torch._inductor import config\nfrom unittest import mock\n"
      "config.patch(use_mixed_mm=True)\n"
      "config.patch({'aot_inductor.embed_cubin': True})\n"
      "config.patch('rocm.n_max_profiling_configs', 2)\n"
      "torch.compile(m, options={'mixed_mm_choice': 'aten'})\n"
      "torch._inductor.aoti_compile_and_package(ep, inductor_configs={'max_autotune': True})\n"
      "getattr(config.aot_inductor, 'embed_cubin')\n"
      "setattr(config, 'use_mixed_mm', True)\n"
      "hasattr(config, 'autotune_fallback_to_aten')\n"
      "mock.patch.object(config, 'mixed_mm_choice', 'triton')\n"
      "mock.patch('torch._dynamo.config.enable_cpp_framelocals_guard_eval', True)\n"
      "def f(m):\n    opts = {'use_mixed_mm': False}\n    return torch.compile(m, options=opts)\n");
  CHECK(has(found, ConfigUsageKind::PatchKeyword, "torch._inductor.config.use_mixed_mm"));
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.aot_inductor.embed_cubin"));
  CHECK(has(found, ConfigUsageKind::PatchPositional, "torch._inductor.config.rocm.n_max_profiling_configs"));
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.mixed_mm_choice"));
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.max_autotune"));
  CHECK(has(found, ConfigUsageKind::GetAttr, "torch._inductor.config.aot_inductor.embed_cubin"));
  CHECK(has(found, ConfigUsageKind::SetAttr, "torch._inductor.config.use_mixed_mm"));
  CHECK_FALSE(has(found, ConfigUsageKind::GetAttr, "torch._inductor.config.autotune_fallback_to_aten"));
  CHECK(has(found, ConfigUsageKind::MockPatchObject, "torch._inductor.config.mixed_mm_choice"));
  CHECK(has(found, ConfigUsageKind::MockPatchString, "torch._dynamo.config.enable_cpp_framelocals_guard_eval"));
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.use_mixed_mm"));
}

TEST_CASE("load_config, dict splats and dashed compile options are found") {
  auto found = usages(
      "import torch\nfrom torch._inductor import config\nimport torch._dynamo.config as dc\n"
      "config.load_config({'aot_inductor.embed_cubin': True})\n"
      "dc.load_config({'enable_cpp_framelocals_guard_eval': True})\n"
      "config.patch(**{'use_mixed_mm': True})\n"
      "torch.compile(m, options={'mixed-mm-choice': 'aten'})\n"
      "torch._inductor.aoti_compile_and_package(ep, inductor_configs={'max-autotune': True})\n"
      "config.patch(**{'autotune-fallback-to-aten': False})\n");
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.aot_inductor.embed_cubin"));
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._dynamo.config.enable_cpp_framelocals_guard_eval"));
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.use_mixed_mm"));
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.mixed_mm_choice"));
  // Only torch.compile reads dashes as underscores.
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.max-autotune"));
  CHECK(has(found, ConfigUsageKind::DictEntry, "torch._inductor.config.autotune-fallback-to-aten"));
}

TEST_CASE("dicts not given to a torch config API are not config uses") {
  auto found = usages(
      "import torch\nsave({'use_mixed_mm': True})\nopts = {'use_mixed_mm': True}\nsave(opts)\n"
      "torch.compile(m, backend='eager', options={'use_mixed_mm': True})\n");
  CHECK(found.empty());
}

TEST_CASE("environment variables set from Python are found") {
  python::SyntaxTree tree = python::SyntaxTree::parse(
      "import os\nos.environ['A'] = '1'\nos.environ.setdefault('B', '0')\nos.putenv('C', 'x')\nos.environ.get('D')\n");
  python::SemanticModel model(tree.root());
  ConfigUsageFinder finder(model, kModules);
  std::vector<std::string> names;
  walk(tree.root(), [&](python::Node node) {
    for (const EnvUsage& usage : finder.env_at(node)) names.push_back(usage.name);
  });
  CHECK(names == std::vector<std::string>{"A", "B", "C"});
}

TEST_CASE("removing a patch keeps the code valid") {
  // Only item of a `with`: the body is dedented.
  CHECK(edit_call("with cfg.patch(a=1):\n    run()\n    more()\n", "cfg.patch", remove_patch) == "run()\nmore()\n");
  CHECK(edit_call("def f():\n    with cfg.patch(a=1):\n        run()\n\n        more()\n", "cfg.patch", remove_patch) ==
        "def f():\n    run()\n\n    more()\n");
  // One of several items: only that item goes.
  CHECK(edit_call("with cfg.patch(a=1), other():\n    run()\n", "cfg.patch", remove_patch) == "with other():\n    run()\n");
  CHECK(edit_call("with other(), cfg.patch(a=1):\n    run()\n", "cfg.patch", remove_patch) == "with other():\n    run()\n");
  // A multi-line string in the body must keep its text: `if True:` instead of dedenting.
  CHECK(edit_call("with cfg.patch(a=1):\n    s = '''x\ny'''\n", "cfg.patch", remove_patch) == "if True:\n    s = '''x\ny'''\n");
  // Body on the header line.
  CHECK(edit_call("with cfg.patch(a=1): run()\n", "cfg.patch", remove_patch) == "run()\n");
  // Decorators go with their line.
  CHECK(edit_call("@cfg.patch(a=1)\ndef test():\n    pass\n", "cfg.patch", remove_patch) == "def test():\n    pass\n");
  // `as` targets are used later: no edit.
  CHECK(edit_call("with cfg.patch(a=1) as p:\n    run(p)\n", "cfg.patch", remove_patch) == "<no edit>");
}

TEST_CASE("removing a statement never leaves an empty block") {
  auto remove = [](python::Node call) { return python::remove_statement(enclosing_statement(call)); };
  CHECK(edit_call("def f():\n    setattr(c, 'a', 1)\n", "setattr", remove) == "def f():\n    pass\n");
  CHECK(edit_call("x = 1\nsetattr(c, 'a', 1)  # note\ny = 2\n", "setattr", remove) == "x = 1\ny = 2\n");
  CHECK(edit_call("def f():\n    x = 1\n    setattr(c, 'a', 1)\n", "setattr", remove) == "def f():\n    x = 1\n");
  CHECK(edit_call("def f():\n    setattr(c, 'a', 1)\n    x = 1\n", "setattr", remove) == "def f():\n    x = 1\n");
  CHECK(edit_call("x = 1; setattr(c, 'a', 1)\n", "setattr", remove) == "x = 1\n");
  CHECK(edit_call("setattr(c, 'a', 1); x = 1\n", "setattr", remove) == "x = 1\n");
}

TEST_CASE("removing a dict entry leaves no dangling comma") {
  auto remove_first_pair = [](const std::string& source) {
    python::SyntaxTree tree = python::SyntaxTree::parse(source);
    python::Node pair;
    walk(tree.root(), [&](python::Node node) {
      if (!pair && node.kind() == "pair" && node.text().find("'k'") != std::string_view::npos) pair = node;
    });
    REQUIRE(pair);
    return apply_edits(source, {remove_dict_pair(pair)});
  };
  CHECK(remove_first_pair("d = {'k': 1}\n") == "d = {}\n");
  CHECK(remove_first_pair("d = {'k': 1, 'b': 2}\n") == "d = {'b': 2}\n");
  CHECK(remove_first_pair("d = {'a': 1, 'k': 1}\n") == "d = {'a': 1}\n");
  CHECK(remove_first_pair("d = {\n    'a': 1,\n    'k': 1,  # why\n    'b': 2,\n}\n") == "d = {\n    'a': 1,\n    'b': 2,\n}\n");
}

TEST_CASE("plain strings and side-effect-free values") {
  python::SyntaxTree tree = python::SyntaxTree::parse("a = 'x'\nb = f'{x}'\nc = 'a\\n'\nd = call()\ne = -1\n");
  auto value = [&](uint32_t i) { return tree.root().named_child(i).named_child(0).field("right"); };
  CHECK(plain_string(value(0)) == std::optional<std::string>("x"));
  CHECK_FALSE(plain_string(value(1)));
  CHECK_FALSE(plain_string(value(2)));
  CHECK_FALSE(is_side_effect_free(value(3)));
  CHECK(is_side_effect_free(value(4)));
}
