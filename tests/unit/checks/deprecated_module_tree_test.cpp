// SPDX-License-Identifier: MIT
// Family `deprecated-module-tree` on a made-up library: advice, `covers` and `move` come from params.
#include <catch2/catch.hpp>

#include "family_rule.hpp"
#include "torchmigrate/checks/python_checks.hpp"

using namespace torchmigrate;

namespace {

const char* const kParams = R"({
  "modules": ["oldlib.tree"], "submodules": ["fast"], "default_advice": "use newlib",
  "advice": [{"apis": ["fast", "run"], "text": "use newlib.fast"},
             {"apis": ["everything"], "text": "it all moves", "covers": ["run"]}],
  "move": {"from": "oldlib.tree.fast", "to": "newlib.fast", "names": ["run"]}})";

engine::Catalog catalog(const std::string& params = kParams) {
  return testing::family_catalog("deprecated-module-tree", params, "`{name}`: {advice}", "oldlib");
}

}  // namespace

TEST_CASE("deprecated-module-tree advice is the params' advice by API") {
  CHECK(testing::family_messages(catalog(), "import oldlib.tree.fast as f\nf.run(1)\n") ==
        std::vector<std::string>{"`oldlib.tree.fast`: use newlib.fast", "`oldlib.tree.fast.run`: use newlib.fast"});
  // Distinct advice joined in order; `everything` covers `run`'s.
  CHECK(testing::family_messages(catalog(), "from oldlib.tree import run, everything, other\n") ==
        std::vector<std::string>{"`oldlib.tree`: it all moves; use newlib"});
}

TEST_CASE("deprecated-module-tree moves imports whose every use `move.to` has") {
  CHECK(testing::family_fixed(catalog(), "import oldlib.tree.fast as f\nf.run(1)\n") ==
        "import newlib.fast as f\nf.run(1)\n");
  CHECK(testing::family_fixed(catalog(), "from oldlib.tree.fast import run\n") == "from newlib.fast import run\n");
  CHECK(testing::family_fixed(catalog(), "from oldlib.tree import fast\nfast.run(2)\n") ==
        "from newlib import fast\nfast.run(2)\n");
  // `walk` is not in `move.names`.
  const std::string other = "from oldlib.tree import fast\nfast.walk(2)\n";
  CHECK(testing::family_fixed(catalog(), other) == other);
}

TEST_CASE("deprecated-module-tree rejects a misspelt param") {
  engine::Catalog bad = catalog(R"({"modules": ["oldlib.tree"], "default_advise": "x"})");
  CHECK_THROWS_WITH(checks::make_deprecated_module_tree_check(bad.rules().at(0)),
                    Catch::Contains("missing key `default_advice`"));
}
