// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "torchmigrate/python/compat_guards.hpp"
#include "torchmigrate/python/tree_walk.hpp"

using namespace torchmigrate;
using namespace torchmigrate::python;

namespace {

GuardRule removed_api() {
  GuardRule rule;
  rule.release = TorchVersion{2, 8};
  rule.min_torch = TorchVersion{2, 7};
  rule.old_names = {"definitely_true"};
  rule.new_names = {"guard_or_false"};
  return rule;
}

// The verdict at the first occurrence of `marker` in `source`.
GuardVerdict verdict_at(const std::string& source, const std::string& marker, const GuardRule& rule) {
  SyntaxTree tree = SyntaxTree::parse(source);
  SemanticModel model(tree.root());
  CompatGuards guards(tree.root(), model);
  size_t at = source.find(marker);
  REQUIRE(at != std::string::npos);
  return guards.verdict(static_cast<uint32_t>(at), "TM999", rule);
}

// Work done to answer one question per occurrence of `marker`.
uint64_t work_for(const std::string& source, const std::string& marker) {
  SyntaxTree tree = SyntaxTree::parse(source);
  SemanticModel model(tree.root());
  CompatGuards guards(tree.root(), model);
  GuardRule rule = removed_api();
  size_t answered = 0;
  for (size_t at = source.find(marker); at != std::string::npos; at = source.find(marker, at + 1)) {
    guards.verdict(static_cast<uint32_t>(at), "TM999", rule);
    ++answered;
  }
  CHECK(answered > 0);
  return guards.work();
}

}  // namespace

TEST_CASE("comparison direction decides which side is compatibility code") {
  GuardRule rule = removed_api();
  const char* old_sides[] = {
      "import torch\nif torch.__version__ < '2.8':\n    OLD()\n",
      "import torch\nif torch.__version__ <= '2.7.1':\n    OLD()\n",
      "import torch\nif (2, 8) > TORCH_VERSION:\n    OLD()\n",
      "import torch\nif not torch_version >= (2, 8):\n    OLD()\n",
      "import torch\nif torch_version >= (2, 8):\n    new()\nelse:\n    OLD()\n",
      "import torch\nfrom packaging import version\n"
      "if version.parse(torch.__version__) < version.parse('2.8'):\n    OLD()\n",
      "import torch\nif is_torch_less_than_2_8:\n    OLD()\n",
      "import torch\nx = OLD() if torch_version < (2, 8) else new()\n",
  };
  for (const char* source : old_sides) {
    INFO(source);
    CHECK(verdict_at(source, "OLD", rule) == GuardVerdict::Guarded);
  }
  const char* new_sides[] = {
      "import torch\nif torch.__version__ >= '2.8':\n    OLD()\n",
      "import torch\nif TORCH_VERSION >= (2, 8):\n    OLD()\n",
      "import torch\nif torch_version < (2, 8):\n    new()\nelse:\n    OLD()\n",
      "import torch\nif is_torch_greater_or_equal_than_2_8:\n    OLD()\n",
      "import torch\nif torch_version > (2, 7):\n    OLD()\n",  // 2.7.1 > 2.7: not old-only
  };
  for (const char* source : new_sides) {
    INFO(source);
    CHECK(verdict_at(source, "OLD", rule) == GuardVerdict::Report);
  }
}

TEST_CASE("a changed default counts either side of a version test, and no feature test") {
  GuardRule rule;
  rule.new_side_counts = true;
  rule.feature_tests = false;
  rule.release = TorchVersion{2, 8};
  rule.min_torch = TorchVersion{2, 7};
  CHECK(verdict_at("import torch\nif torch.__version__ >= '2.8':\n    CALL()\n", "CALL", rule) == GuardVerdict::Guarded);
  CHECK(verdict_at("import torch\nif torch.__version__ < '2.8':\n    CALL()\n", "CALL", rule) == GuardVerdict::Guarded);
  CHECK(verdict_at("import torch\nif torch.__version__ >= '2.1':\n    CALL()\n", "CALL", rule) == GuardVerdict::Report);
  CHECK(verdict_at("import torch\ntry:\n    CALL()\nexcept ImportError:\n    pass\n", "CALL", rule) == GuardVerdict::Report);
}

TEST_CASE("feature tests count only on the rule's own spellings, and `not` flips them") {
  GuardRule rule = removed_api();
  const std::string prefix = "import torch.fx.experimental.symbolic_shapes as ss\n";
  CHECK(verdict_at(prefix + "if hasattr(ss, 'definitely_true'):\n    OLD()\n", "OLD", rule) == GuardVerdict::Guarded);
  CHECK(verdict_at(prefix + "if not hasattr(ss, 'guard_or_false'):\n    OLD()\n", "OLD", rule) == GuardVerdict::Guarded);
  CHECK(verdict_at(prefix + "if hasattr(ss, 'guard_or_false'):\n    OLD()\n", "OLD", rule) == GuardVerdict::Report);
  CHECK(verdict_at(prefix + "if not hasattr(ss, 'definitely_true'):\n    OLD()\n", "OLD", rule) == GuardVerdict::Report);
  // Unrelated attribute, or an object that is not torch's.
  CHECK(verdict_at(prefix + "if not hasattr(ss, 'statically_known_true'):\n    OLD()\n", "OLD", rule) ==
        GuardVerdict::Report);
  CHECK(verdict_at(prefix + "if not hasattr(helpers, 'guard_or_false'):\n    OLD()\n", "OLD", rule) ==
        GuardVerdict::Report);
  // Another attribute, used in the branch that has it: the other branch is the project's fallback.
  const std::string uses = "    ss.statically_known_true(x)\n";
  CHECK(verdict_at(prefix + "if hasattr(ss, 'statically_known_true'):\n" + uses + "else:\n    OLD()\n", "OLD", rule) ==
        GuardVerdict::Guarded);
  CHECK(verdict_at(prefix + "if not hasattr(ss, 'statically_known_true'):\n    OLD()\nelse:\n" + uses, "OLD", rule) ==
        GuardVerdict::Guarded);
  CHECK(verdict_at(prefix + "if hasattr(ss, 'statically_known_true'):\n    pass\nelse:\n    OLD()\n", "OLD", rule) ==
        GuardVerdict::Report);
}

TEST_CASE("an early return keeps the rest of the block to the other side") {
  GuardRule rule = removed_api();
  const std::string prefix = "import torch.fx.experimental.symbolic_shapes as ss\ndef f(x):\n";
  CHECK(verdict_at(prefix + "    if hasattr(ss, 'guard_or_false'):\n        return ss.guard_or_false(x)\n    return OLD(x)\n",
                   "OLD", rule) == GuardVerdict::Guarded);
  CHECK(verdict_at(prefix + "    if hasattr(ss, 'definitely_true'):\n        return 1\n    return OLD(x)\n", "OLD", rule) ==
        GuardVerdict::Report);
  // Without the return, the code after the `if` runs on every version.
  CHECK(verdict_at(prefix + "    if hasattr(ss, 'guard_or_false'):\n        print(x)\n    return OLD(x)\n", "OLD", rule) ==
        GuardVerdict::Report);
}

TEST_CASE("branches only torch older than the supported minimum runs are unreachable") {
  GuardRule rule = removed_api();
  CHECK(verdict_at("import torch\nif torch_version < (2, 0):\n    OLD()\n", "OLD", rule) == GuardVerdict::Unreachable);
  CHECK(verdict_at("import torch\nif is_torch_less_than_1_11:\n    OLD()\n", "OLD", rule) == GuardVerdict::Unreachable);
  CHECK(verdict_at("import torch\nif torch_version >= (2, 5):\n    new()\nelse:\n    OLD()\n", "OLD", rule) ==
        GuardVerdict::Unreachable);
  rule.min_torch = TorchVersion{2, 4};
  CHECK(verdict_at("import torch\nif torch_version >= (2, 5):\n    new()\nelse:\n    OLD()\n", "OLD", rule) ==
        GuardVerdict::Guarded);
}

TEST_CASE("guards are computed once per file: work grows linearly with findings and nesting") {
  auto copies = [](size_t n) {
    std::string source = "import torch\n";
    for (size_t i = 0; i < n; ++i) source += "torch.onnx.export(m, x, 'f')  # FIND\n";
    return source;
  };
  uint64_t small = work_for(copies(500), "FIND");
  uint64_t large = work_for(copies(2000), "FIND");
  INFO("work for 500 and 2000 findings: " << small << ", " << large);
  CHECK(large <= small * 4 + 100);  // a walk per finding would be 16 times the work

  auto nested = [](size_t depth) {
    std::string source = "import torch\n";
    std::string indent;
    for (size_t i = 0; i < depth; ++i) {
      source += indent + "if torch_version < (2, 8):\n";
      indent += " ";
      source += indent + "OLD()\n";
    }
    return source;
  };
  uint64_t shallow = work_for(nested(200), "OLD");
  uint64_t deep = work_for(nested(800), "OLD");
  INFO("work for nesting 200 and 800: " << shallow << ", " << deep);
  CHECK(deep <= shallow * 4 + 100);
}

TEST_CASE("guard nodes gathered by the caller's walk give the same verdicts without a walk") {
  const std::string source =
      "import torch\nif torch.__version__ < '2.8':\n    OLD()\nelse:\n    x = OLD() if hasattr(torch, "
      "'guard_or_false') "
      "else None\ntry:\n    OLD()\nexcept ImportError:\n    pass\nwhile torch_version < (2, 8) and ready:\n    "
      "OLD()\nOLD()\n";
  SyntaxTree tree = SyntaxTree::parse(source);
  SemanticModel model(tree.root());
  GuardNodes gathered;
  std::vector<Node> ancestors;
  for_each_node(tree.root(), [&](Node node, uint32_t depth) {
    ancestors.resize(depth);
    if (is_guard_kind(python_kind_id(node.symbol())))
      gathered.emplace_back(node, depth > 0 ? ancestors.back() : Node());
    ancestors.push_back(node);
  });
  CHECK(gathered.size() == 5);
  CompatGuards walking(tree.root(), model);
  CompatGuards given(tree.root(), model, gathered);
  GuardRule rule = removed_api();
  size_t asked = 0;
  for (size_t at = source.find("OLD"); at != std::string::npos; at = source.find("OLD", at + 1), ++asked) {
    CHECK(walking.verdict(static_cast<uint32_t>(at), "TM999", rule) ==
          given.verdict(static_cast<uint32_t>(at), "TM999", rule));
  }
  CHECK(asked == 5);
  // The work of the walk the caller did: every node of the tree.
  CHECK(given.work() + 20 < walking.work());
}
