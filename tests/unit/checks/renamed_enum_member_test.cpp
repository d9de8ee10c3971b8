// SPDX-License-Identifier: MIT
// Family `renamed-enum-member` on a made-up enum: the enum, members and values come from params.
#include <catch2/catch.hpp>

#include "family_rule.hpp"

using namespace torchmigrate;

TEST_CASE("renamed-enum-member calls the enum with the member's value") {
  const char* params = R"({"enum": "mylib.Color", "members": [{"name": "GREY", "new_name": "GRAY", "value": 7}]})";
  engine::Catalog catalog =
      testing::family_catalog("renamed-enum-member", params, "`{old}` is `{new}` now ({value})", "GREY");
  const std::string source = "from mylib import Color\nx = Color.GREY\ny = Color.RED\n";
  CHECK(testing::family_messages(catalog, source) == std::vector<std::string>{"`GREY` is `GRAY` now (7)"});
  CHECK(testing::family_fixed(catalog, source) == "from mylib import Color\nx = Color(7)\ny = Color.RED\n");
}
