// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "torchmigrate/checks/call_mapping.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;
using namespace torchmigrate::checks;

namespace {

CallMapping mapping(const char* json) { return CallMapping(Params(nlohmann::json::parse(json), "test"), "g"); }

python::Node first_call(python::Node node) {
  if (node.kind() == "call") return node;
  for (uint32_t i = 0; i < node.named_child_count(); ++i) {
    if (python::Node call = first_call(node.named_child(i))) return call;
  }
  return {};
}

// The first call of `source` rewritten by `map`, or "refused: <reason>".
std::string rewrite(const CallMapping& map, const std::string& source) {
  python::SyntaxTree tree = python::SyntaxTree::parse(source);
  python::Node call = first_call(tree.root());
  REQUIRE(call);
  CallRewrite result = map.rewrite(call);
  if (const auto* reason = std::get_if<std::string>(&result)) return "refused: " + *reason;
  return apply_edits(source, std::get<std::vector<Edit>>(result));
}

}  // namespace

TEST_CASE("an empty mapping keeps calls as written") {
  CallMapping identity;
  CHECK(identity.is_identity());
  CHECK(rewrite(identity, "f(a, **k)") == "f(a, **k)");
  CHECK_FALSE(mapping(R"({"negate": true})").is_identity());
}

TEST_CASE("keywords are added, moved into a chained call, and limited") {
  CallMapping map = mapping(R"({"max_positional": 2, "add_keywords": [{"name": "strict", "value": "True"}],
                                "then_call": {"method": "run", "moving": ["table"]}})");
  CHECK(rewrite(map, "f(m, a)") == "f(m, a, strict=True).run()");
  CHECK(rewrite(map, "f(m, strict=False, table=t)") == "f(m, strict=False).run(table=t)");
  CHECK(rewrite(map, "f(m, a, b)") == "refused: passes more than 2 positional arguments");
  CHECK(rewrite(map, "f(m, *a)") == "refused: passes `*args`, whose arguments the rewrite cannot count");
  CHECK(rewrite(map, "f(m, **k)") == "refused: passes `**kwargs`, whose keywords the rewrite cannot see");
}

TEST_CASE("only the replacement's keywords are accepted; refused keywords say why") {
  CallMapping accepted = mapping(R"({"keywords": ["t", "index"]})");
  CHECK(rewrite(accepted, "f(x, index=0)") == "f(x, index=0)");
  CHECK(rewrite(accepted, "f(x, *dims)") == "f(x, *dims)");
  CHECK(rewrite(accepted, "f(x, 0, min=2)") == "refused: passes `min=`, which `g` does not take");
  CallMapping refused = mapping(R"({"refuse_keywords": [{"name": "options", "reason": "it has no equivalent"}]})");
  CHECK(rewrite(refused, "f(x, options=o)") == "refused: passes `options=`: it has no equivalent");
}

TEST_CASE("packing turns the rest of the arguments into a tuple and a dict") {
  CallMapping map = mapping(R"({"pack": {"after": 1, "keywords_into": "kwargs"},
                                "add_keywords": [{"name": "dynamo", "value": "True"}]})");
  CHECK(rewrite(map, "f(m)") == "f(m, dynamo=True)");
  CHECK(rewrite(map, "f(m, x)") == "f(m, (x,), dynamo=True)");
  CHECK(rewrite(map, "f(m, x, y, a=1, b=2)") == R"(f(m, (x, y), kwargs={"a": 1, "b": 2}, dynamo=True))");
  CHECK(rewrite(map, "f(m, *xs)") == "f(m, (*xs,), dynamo=True)");
  CHECK(rewrite(map, "f(*everything)") == "refused: does not pass its first argument by position");
  CHECK(rewrite(map, "f(model=m)") == "refused: does not pass its first argument by position");
  CHECK(rewrite(map, "f(m, a=1, *rest)") == "refused: passes a positional argument after a keyword argument");
}

TEST_CASE("a negated replacement keeps the expression's meaning") {
  CallMapping map = mapping(R"({"negate": true})");
  CHECK(rewrite(map, "if f(x): pass") == "if not f(x): pass");
  CHECK(rewrite(map, "y = f(x) == z") == "y = (not f(x)) == z");
  CHECK(rewrite(map, "y = f(x).bit") == "y = (not f(x)).bit");
}

TEST_CASE("mapping keys are checked when the catalog loads") {
  CHECK_THROWS_WITH(mapping(R"({"max_positionals": 2})"), Catch::Contains("unknown key `max_positionals`"));
  CHECK_THROWS_WITH(mapping(R"({"negate": true, "then_call": {"method": "run"}})"),
                    Catch::Contains("cannot be combined"));
  CHECK_THROWS_WITH(mapping(R"({"pack": {"after": 1}})"), Catch::Contains("missing key `keywords_into`"));
}

// A call whose argument list is cut short (no closing parenthesis, or a syntax error inside it)
// ends where its last argument ends: the keyword added after that argument and the method
// chained after the call would both be inserted at that one offset, and which goes first is
// undefined. Such a call is reported without a fix (found by fuzzing `python_lint_fix`).
TEST_CASE("a call with a syntax error in its arguments is not rewritten") {
  CallMapping map = mapping(R"({"max_positional": 3, "add_keywords": [{"name": "strict", "value": "True"}],
                                "then_call": {"method": "run_decompositions", "moving": ["decomp_table"]}})");
  CHECK(rewrite(map, "ep = f(model, args)\n") == "ep = f(model, args, strict=True).run_decompositions()\n");
  // The parser's recovery closes `f(m.d` with a zero-width `)` and leaves `=a` outside: before
  // the fix, `, strict=True` and `.run_decompositions()` were both inserted after `m.d`
  // ("p: f(m.d, strict=True.run_decompositions()=a"), edits the fixer rejects as overlapping (TM902).
  CHECK(rewrite(map, "p: f(m.d=a") == "refused: has a syntax error in its arguments");
  CHECK(rewrite(map, "g: f(():y") == "refused: has a syntax error in its arguments");
  // `, strict=True` would land inside the broken text, after `args` and before ` -`.
  CHECK(rewrite(map, "ep = f(model, args -)\n") == "refused: has a syntax error in its arguments");
  CallMapping negated = mapping(R"({"negate": true})");
  CHECK(rewrite(negated, "p: f(m.d=a") == "refused: has a syntax error in its arguments");
  CHECK(rewrite(negated, "y = f(x)") == "y = not f(x)");
}
