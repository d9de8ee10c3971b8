// SPDX-License-Identifier: MIT
// TM323 (`registered-name-subscript`): the display-only replacement of a flattened slice by the
// name holding `_flatten()`'s result, and a family that takes every torch name from its params.
#include <catch2/catch.hpp>

#include "family_rule.hpp"

using namespace torchmigrate;

namespace {

const std::string kHeader =
    "from torch.distributed.device_mesh import init_device_mesh\n\n"
    "def f():\n"
    "    mesh = init_device_mesh('cuda', (2, 2, 2), mesh_dim_names=('dp', 'cp', 'tp'))\n";

std::vector<Diagnostic> lint(const std::string& body) {
  engine::Settings settings;
  settings.selection.select = {"TM323"};
  settings.target = TorchVersion{2, 10};
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  return linter.lint(SourceFile("t.py", kHeader + body, Language::Python));
}

// The one finding's one fix, as the text it would write (its edits applied), and its title.
std::pair<std::string, std::string> suggestion(const std::string& body) {
  std::vector<Diagnostic> found = lint(body);
  REQUIRE(found.size() == 1);
  REQUIRE(found.front().fixes.size() == 1);
  const Fix& fix = found.front().fixes.front();
  CHECK(fix.applicability == Applicability::DisplayOnly);
  return {apply_edits(kHeader + body, fix.edits), fix.title};
}

}  // namespace

TEST_CASE("TM323 suggests the name that holds the flattened mesh") {
  auto [text, title] = suggestion("    flat = mesh['dp', 'cp']._flatten()\n    return mesh['dp_cp']\n");
  CHECK(text == kHeader + "    flat = mesh['dp', 'cp']._flatten()\n    return flat\n");
  CHECK(title == "Replace with `flat`, the mesh `_flatten()` returned");
}

TEST_CASE("TM323 suggests no edit where no name holds the flattened mesh at the slice") {
  const std::string advice = "Keep the mesh `_flatten()` returns for `dp_cp` and use it instead of ";
  // The result is discarded.
  auto [discarded, title] = suggestion("    mesh['dp', 'cp']._flatten()\n    return mesh['dp_cp']\n");
  CHECK(discarded == kHeader + "    mesh['dp', 'cp']._flatten()\n    return mesh['dp_cp']\n");
  CHECK(title == advice + "`mesh['dp_cp']`");
  // The name was rebound before the slice.
  auto [rebound, rebound_title] =
      suggestion("    flat = mesh['dp', 'cp']._flatten()\n    flat = None\n    return mesh['dp_cp']\n");
  CHECK(rebound.ends_with("return mesh['dp_cp']\n"));
  CHECK(rebound_title == advice + "`mesh['dp_cp']`");
  // The slice combines the flattened dimension with another one.
  auto [combined, combined_title] =
      suggestion("    flat = mesh['dp', 'cp']._flatten()\n    return mesh['dp_cp', 'tp']\n");
  CHECK(combined.ends_with("return mesh['dp_cp', 'tp']\n"));
  CHECK(combined_title == advice + "`mesh['dp_cp', 'tp']`");
}

TEST_CASE("TM323 reports a slice once, and only after the flattening") {
  CHECK(lint("    mesh['dp', 'cp']._flatten()\n    mesh['dp', 'cp']._flatten()\n    return mesh['dp_cp']\n").size() ==
        1);
  CHECK(lint("    a = mesh['dp_cp']\n    mesh['dp', 'cp']._flatten()\n").empty());
  CHECK(lint("    mesh['dp', 'cp']._flatten('')\n    return mesh['dp_cp']\n").size() == 1);  // "" means the default
  CHECK(lint("    mesh['dp', 'cp']._flatten(*names)\n    return mesh['dp_cp']\n").empty());
}

TEST_CASE("registered-name-subscript takes the constructors, method and separator from its params") {
  engine::Catalog catalog = testing::family_catalog("registered-name-subscript", R"({
      "constructors": ["grids.make_grid"], "method": "merge",
      "name_argument": {"keyword": "as_name", "position": 1}, "default_separator": "+",
      "file_mentions": ["Grid"], "annotations": ["Grid"],
      "title": "Keep `{name}`", "replace_title": "Use `{bound}`"})",
                                                    "`{slice}`: `{root}` `{name}`", "merge");
  CHECK(testing::family_messages(catalog, "import grids\ng = grids.make_grid()\ng['a', 'b'].merge()\ng['a+b']\n") ==
        std::vector<std::string>{"`g['a+b']`: `g` `a+b`"});
  CHECK(testing::family_messages(catalog, "import grids\ng = grids.make_grid()\ng['a', 'b'].merge(0, 'ab')\ng['ab']\n")
            .size() == 1);
  CHECK(testing::family_messages(catalog,
                                 "import grids\ng = grids.make_grid()\ng['a', 'b'].merge(as_name='ab')\ng['ab']\n")
            .size() == 1);
  // Another callee makes no root; a parameter counts only in a file that spells a mention.
  CHECK(testing::family_messages(catalog, "import grids\ng = grids.other()\ng['a', 'b'].merge()\ng['a+b']\n").empty());
  CHECK(testing::family_messages(catalog, "def f(g):\n    g['a', 'b'].merge()\n    g['a+b']\n").empty());
  CHECK(testing::family_messages(catalog, "def f(g):  # a Grid\n    g['a', 'b'].merge()\n    g['a+b']\n").size() == 1);
}
