// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <filesystem>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/config.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;
namespace fs = std::filesystem;
using torchmigrate::testing::TempDir;

namespace {

std::string chain_error(const fs::path& file) {
  try {
    read_config_chain(file, Catalog::builtin());
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

const RuleSpec& rule(const char* code) { return *Catalog::builtin().find(code); }

}  // namespace

TEST_CASE("extend: the extending file wins, list-extending keys add up, globs keep their own directory") {
  TempDir dir;
  dir.write("base.toml",
            "extend-select = [\"TM305\"]\nignore = [\"TM204\"]\nmin-torch = \"2.6\"\noutput-format = \"json\"\n"
            "exclude = [\"vendored\"]\nunfixable = [\"TM201\"]\n[per-file-ignores]\n\"tests/**\" = [\"TM2\"]\n");
  fs::path project = dir.write("project/torchmigrate.toml",
                               "extend = \"../base.toml\"\nignore = [\"TM302\"]\nmin-torch = \"2.7\"\n");
  ConfigResolver resolver(Catalog::builtin(), {}, std::nullopt, false);
  const ResolvedConfig& resolved = resolver.for_path(project.parent_path() / "a.py");
  CHECK(resolved.source == project);
  CHECK(resolved.settings.selection.extend_select == std::vector<std::string>{"TM305"});
  CHECK(resolved.settings.selection.ignore == std::vector<std::string>{"TM204", "TM302"});
  CHECK(resolved.settings.min_torch.str() == "2.7");
  CHECK(resolved.output_format == "json");
  CHECK_FALSE(resolved.settings.fixable_rule(rule("TM201")));
  CHECK(resolved.settings.fixable_rule(rule("TM202")));
  // The base's globs are relative to the base's directory, not the extending file's.
  CHECK(resolved.excluded(dir.path / "project/vendored"));
  CHECK(resolved.ignored_for(dir.path / "tests/test_a.py") == std::vector<std::string>{"TM2"});
  CHECK(resolved.ignored_for(dir.path / "project/tests/test_a.py").empty());
}

TEST_CASE("extend: a select of its own starts the selection afresh") {
  TempDir dir;
  dir.write("base.toml", "extend-select = [\"TM305\"]\nignore = [\"TM2\"]\n");
  fs::path child = dir.write("child/torchmigrate.toml", "extend = \"../base.toml\"\nselect = [\"TM1\"]\n");
  std::optional<ConfigFile> config = read_config_chain(child, Catalog::builtin());
  REQUIRE(config);
  CHECK(config->select == std::vector<std::string>{"TM1"});
  CHECK(config->extend_select.empty());
  CHECK(config->ignore.empty());
}

TEST_CASE("extend: missing files, cycles and empty names are errors naming the file") {
  TempDir dir;
  CHECK_THAT(chain_error(dir.write("a/torchmigrate.toml", "extend = \"missing.toml\"\n")),
             Catch::Contains("torchmigrate.toml: `extend = \"missing.toml\"` names no file"));
  dir.write("b/one.toml", "extend = \"two.toml\"\n");
  dir.write("b/two.toml", "extend = \"one.toml\"\n");
  CHECK_THAT(chain_error(dir.path / "b/one.toml"), Catch::Contains("closes a cycle"));
  CHECK_THAT(chain_error(dir.write("c/torchmigrate.toml", "extend = \"\"\n")), Catch::Contains("`extend` is empty"));
  dir.write("d/pyproject.toml", "[project]\nname = \"x\"\n");
  CHECK_THAT(chain_error(dir.write("d/sub/torchmigrate.toml", "extend = \"../pyproject.toml\"\n")),
             Catch::Contains("without a [tool.torchmigrate] table"));
}

TEST_CASE("fixable and unfixable: the most specific selector wins, unfixable on a tie") {
  Settings settings;
  CHECK(settings.fixable_rule(rule("TM201")));
  settings.unfixable = {"TM2"};
  CHECK_FALSE(settings.fixable_rule(rule("TM201")));
  settings.fixable = {"TM201"};
  CHECK(settings.fixable_rule(rule("TM201")));
  CHECK_FALSE(settings.fixable_rule(rule("TM202")));
  CHECK_FALSE(settings.fixable_rule(rule("TM101")));  // not in `fixable`
  settings = {};
  TempDir dir;
  fs::path file = dir.write("torchmigrate.toml", "fixable = []\n");
  ConfigResolver resolver(Catalog::builtin(), {}, std::nullopt, false);
  CHECK_FALSE(resolver.for_path(file.parent_path() / "a.py").settings.fixable_rule(rule("TM201")));
}
