// SPDX-License-Identifier: MIT
// `made_arguments` of the moved-modules family: which arguments count as made by a listed call,
// with every name taken from the params.
#include <catch2/catch.hpp>

#include "family_rule.hpp"

using namespace torchmigrate;

namespace {

engine::Catalog catalog() {
  return testing::family_catalog("moved-modules", R"({
      "details": {"moved": "m", "deleted": "d", "package": "p", "lost": "l", "not_imported": "n"},
      "made_arguments": {
        "callees": ["lib.attend"],
        "arguments": [{"keyword": "x", "position": 0}],
        "made_by": [{"callee": "lib.make", "keyword": "kind", "position": 1, "value": "lib.special"},
                    {"callee": "lib.make_special"}],
        "severity": "info", "detail": "{argument} from {made_by}", "advice": "Do it another way"}})",
                                 "`{name}`: {detail}", "attend");
}

std::vector<std::string> messages(const std::string& body) {
  return testing::family_messages(catalog(), "import lib\nfrom lib import attend\n\ndef f(y):\n" + body);
}

}  // namespace

TEST_CASE("made_arguments reports an argument a listed call made in the same scope") {
  const std::vector<std::string> expected = {"`lib.attend`: a from lib.make"};
  CHECK(messages("    a = lib.make(y, kind=lib.special)\n    attend(a)\n") == expected);
  CHECK(messages("    a = lib.make(y, lib.special)\n    attend(x=a)\n") == expected);
  CHECK(messages("    a = lib.make_special()\n    attend(a)\n") ==
        std::vector<std::string>{"`lib.attend`: a from lib.make_special"});
}

TEST_CASE("made_arguments leaves other values, arguments, scopes and rebound names") {
  CHECK(messages("    a = lib.make(y, kind=lib.plain)\n    attend(a)\n").empty());
  CHECK(messages("    a = lib.make(y)\n    attend(a)\n").empty());
  CHECK(messages("    a = lib.make(y, kind=lib.special)\n    attend(y, a)\n").empty());
  CHECK(messages("    a = lib.make(y, kind=lib.special)\n    a = a.dense()\n    attend(a)\n").empty());
  CHECK(messages("    a = lib.make(y, kind=lib.special)\n    def g():\n        attend(a)\n").empty());
  CHECK(messages("    a = lib.make(y, kind=lib.special)\n    other(a)\n").empty());
}
