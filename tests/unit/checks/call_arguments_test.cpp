// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;
using namespace torchmigrate::checks;

namespace {

// Applies `edit_for(arguments)` to the first call of `source`.
template <typename EditFor>
std::string edit_first_call(const std::string& source, EditFor edit_for) {
  python::SyntaxTree tree = python::SyntaxTree::parse(source);
  python::Node call = tree.root().named_child(0).named_child(0);
  REQUIRE(call.kind() == "call");
  CallArguments arguments(call);
  return apply_edits(source, {edit_for(arguments)});
}

}  // namespace

TEST_CASE("adding a keyword argument keeps trailing commas and layout") {
  auto add = [](const CallArguments& arguments) { return arguments.add_keyword("strict", "True"); };
  CHECK(edit_first_call("f()", add) == "f(strict=True)");
  CHECK(edit_first_call("f(a, b)", add) == "f(a, b, strict=True)");
  CHECK(edit_first_call("f(a, b,)", add) == "f(a, b, strict=True,)");
  // One argument per line with a trailing comma: the keyword gets a line of its own.
  CHECK(edit_first_call("f(\n    a,\n    b,\n)", add) == "f(\n    a,\n    b,\n    strict=True,\n)");
  CHECK(edit_first_call("f(\n    a,\n    b,  # note\n)", add) == "f(\n    a,\n    b,  # note\n    strict=True,\n)");
  CHECK(edit_first_call("f(\r\n    a,\r\n)", add) == "f(\r\n    a,\r\n    strict=True,\r\n)");
  CHECK(edit_first_call("f(\n    (a,\n     b),\n)", add) == "f(\n    (a,\n     b),\n    strict=True,\n)");
  // Without a trailing comma, or with arguments sharing the opening line, the layout is kept.
  CHECK(edit_first_call("f(\n    a,\n    b\n)", add) == "f(\n    a,\n    b, strict=True\n)");
  CHECK(edit_first_call("f(a,\n  b,\n)", add) == "f(a,\n  b,\n  strict=True,\n)");
  CHECK(edit_first_call("f(a, b,\n)", add) == "f(a, b, strict=True,\n)");
  CHECK(edit_first_call("f(a, *rest)", add) == "f(a, *rest, strict=True)");
}

TEST_CASE("removing an argument removes its separating comma") {
  auto remove = [](const char* name) {
    return [name](const CallArguments& arguments) { return arguments.remove_argument(arguments.keyword(name)); };
  };
  CHECK(edit_first_call("f(a, t=1)", remove("t")) == "f(a)");
  CHECK(edit_first_call("f(t=1, a=2)", remove("t")) == "f(a=2)");
  CHECK(edit_first_call("f(t=1,)", remove("t")) == "f()");
  CHECK(edit_first_call("f(a, t=1, b=2)", remove("t")) == "f(a, b=2)");
}

TEST_CASE("splats and positional arguments are recognised") {
  python::SyntaxTree tree = python::SyntaxTree::parse("f(a, b, *rest, k=1, **extra)");
  CallArguments arguments(tree.root().named_child(0).named_child(0));
  CHECK(arguments.positional().size() == 2);
  CHECK(arguments.has_star_args());
  CHECK(arguments.has_star_kwargs());
  CHECK(arguments.keyword_value("k").text() == "1");
  CHECK_FALSE(arguments.keyword("missing"));
  CHECK(arguments.may_be_given("missing", std::nullopt));  // through **extra
}
