// SPDX-License-Identifier: MIT
// exception_widening: which handler or test expectation misses the new class, and how the
// widened class tuple is written.
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/checks/exception_widening.hpp"
#include "torchmigrate/python/semantic_model.hpp"
#include "torchmigrate/python/syntax_tree.hpp"
#include "torchmigrate/python/tree_walk.hpp"

using torchmigrate::apply_edits;
using torchmigrate::checks::ClassChange;
using torchmigrate::checks::find_missed_catch;
using torchmigrate::checks::MissedCatch;
using torchmigrate::checks::widen_classes;
using torchmigrate::python::Node;
using torchmigrate::python::SemanticModel;
using torchmigrate::python::SyntaxTree;

namespace {

const ClassChange kChange{"RuntimeError", "ValueError", {"Exception", "BaseException"}};

// The text of the site that misses `raise_me()` in `source` ("" for none), and the source once
// its classes are widened.
std::pair<std::string, std::string> missed(const std::string& source) {
  SyntaxTree tree = SyntaxTree::parse(source);
  SemanticModel model(tree.root());
  Node call;
  torchmigrate::python::for_each_node(tree.root(), [&](Node node) {
    if (node.kind() == "call" && node.field("function").text() == "raise_me") call = node;
  });
  REQUIRE(call);
  std::optional<MissedCatch> catch_site = find_missed_catch(model, call, kChange);
  if (!catch_site) return {"", source};
  return {std::string(catch_site->classes.text()),
          apply_edits(source, {widen_classes(catch_site->classes, "ValueError")})};
}

}  // namespace

TEST_CASE("the nearest handler of the old class alone misses the new class") {
  auto [classes, fixed] = missed("try:\n    raise_me()\nexcept RuntimeError as e:\n    pass\n");
  CHECK(classes == "RuntimeError");
  CHECK(fixed == "try:\n    raise_me()\nexcept (RuntimeError, ValueError) as e:\n    pass\n");
}

TEST_CASE("a tuple keeps its layout and comments; the new class goes after its last element") {
  auto [classes, fixed] =
      missed("try:\n    raise_me()\nexcept (\n    KeyError,\n    RuntimeError,  # why\n):\n    pass\n");
  CHECK(classes == "(\n    KeyError,\n    RuntimeError,  # why\n)");
  CHECK(fixed == "try:\n    raise_me()\nexcept (\n    KeyError,\n    RuntimeError, ValueError,  # why\n):\n    pass\n");
}

TEST_CASE("a handler of the new class, a base or everything catches it") {
  CHECK(missed("try:\n    raise_me()\nexcept RuntimeError:\n    pass\nexcept ValueError:\n    pass\n").first.empty());
  CHECK(missed("try:\n    raise_me()\nexcept (RuntimeError, Exception):\n    pass\n").first.empty());
  CHECK(missed("try:\n    raise_me()\nexcept RuntimeError:\n    pass\nexcept:\n    pass\n").first.empty());
  CHECK(missed("try:\n    raise_me()\nexcept errors:\n    pass\n").first.empty());
}

TEST_CASE("a try that catches neither class lets the error reach the outer one") {
  auto [classes, fixed] = missed(
      "try:\n    try:\n        raise_me()\n    except KeyError:\n        pass\nexcept RuntimeError:\n    pass\n");
  CHECK(classes == "RuntimeError");
  CHECK(
      missed(
          "try:\n    try:\n        raise_me()\n    except ValueError:\n        pass\nexcept RuntimeError:\n    pass\n")
          .first.empty());
}

TEST_CASE("a nested def and a handler body are not the try's body") {
  CHECK(missed("try:\n    def f():\n        raise_me()\nexcept RuntimeError:\n    pass\n").first.empty());
  CHECK(missed("try:\n    pass\nexcept RuntimeError:\n    raise_me()\n").first.empty());
}

TEST_CASE("test expectations: pytest.raises blocks and assertRaises lambdas") {
  CHECK(missed("import pytest\nwith pytest.raises(RuntimeError):\n    raise_me()\n").first == "RuntimeError");
  CHECK(missed("self.assertRaises(RuntimeError, lambda: raise_me())\n").first == "RuntimeError");
  CHECK(missed("self.assertRaisesRegex((RuntimeError, ValueError), 'x', lambda: raise_me())\n").first.empty());
  CHECK(missed("with open(p):\n    raise_me()\n").first.empty());
  CHECK(missed("f(lambda: raise_me())\n").first.empty());
}
