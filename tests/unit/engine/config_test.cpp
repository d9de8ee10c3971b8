// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "../temp_dir.hpp"
#include "torchmigrate/engine/workspace/config.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;
namespace fs = std::filesystem;
using torchmigrate::testing::TempDir;

namespace {

// Read as a run reads it: the file and whatever it extends.
std::string error_of(const fs::path& file) {
  try {
    read_config_chain(file, Catalog::builtin());
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

const RuleSpec& rule(const char* code) { return *Catalog::builtin().find(code); }

}  // namespace

TEST_CASE("every key is read from torchmigrate.toml") {
  TempDir dir;
  fs::path file = dir.write("torchmigrate.toml", R"(
select = ["TM1", "TM2"]
extend-select = ["TM001"]
ignore = ["TM204"]
exclude = ["third_party"]
extend-exclude = ["generated/*.py"]
min-torch = "2.8"
policy = { TM201 = "adopt-new" }
respect-gitignore = false
output-format = "json"
cache-dir = ".cache/torchmigrate"
[per-file-ignores]
"tests/*.py" = ["TM2"]
[extension]
pyw = "python"
conf = "shell"
)");
  std::optional<ConfigFile> config = read_config_file(file, Catalog::builtin());
  REQUIRE(config);
  CHECK(config->select == std::vector<std::string>{"TM1", "TM2"});
  CHECK(config->extend_select == std::vector<std::string>{"TM001"});
  CHECK(config->ignore == std::vector<std::string>{"TM204"});
  CHECK(config->min_torch == "2.8");
  CHECK(config->policy.at("TM201") == FixPolicy::AdoptNew);
  CHECK(config->respect_gitignore == false);
  CHECK(config->output_format == "json");
  REQUIRE(config->per_file_ignores.size() == 1);
  CHECK(config->per_file_ignores[0].first.pattern == "tests/*.py");
  CHECK(config->per_file_ignores[0].first.root == config->root);
  CHECK(config->extensions.at("pyw") == Language::Python);
  CHECK(config->extensions.at("conf") == Language::BuildFile);
  CHECK(config->build_extensions.at(".conf") == buildfiles::FileKind::Shell);
}

TEST_CASE("errors name the file, the key and the valid choices") {
  TempDir dir;
  CHECK_THAT(error_of(dir.write("a/torchmigrate.toml", "selekt = [\"TM1\"]\n")),
             Catch::Contains("torchmigrate.toml:1:1: unknown key `selekt`; valid keys: cache-dir"));
  CHECK_THAT(error_of(dir.write("b/torchmigrate.toml", "select = [\"TM99\"]\n")),
             Catch::Contains("`select` has an unknown rule selector `TM99`"));
  CHECK_THAT(error_of(dir.write("c/torchmigrate.toml", "policy = \"newest\"\n")),
             Catch::Contains("`policy` invalid policy `newest`; expected keep-old or adopt-new"));
  CHECK_THAT(error_of(dir.write("d/torchmigrate.toml", "output-format = \"xml\"\n")),
             Catch::Contains("expected one of: concise, full, grouped, pylint, json, json-lines, rdjson, sarif"));
  CHECK_THAT(error_of(dir.write("e/torchmigrate.toml", "min-torch = 2.8\n")), Catch::Contains("`min-torch` must be a string"));
  CHECK_THAT(error_of(dir.write("f/torchmigrate.toml", "select = [\n")), Catch::Contains("invalid TOML"));
  CHECK_THAT(error_of(dir.write("g/pyproject.toml", "[tool.torchmigrate]\nfoo = 1\n")),
             Catch::Contains("pyproject.toml:2:1: unknown key `tool.torchmigrate.foo`"));
  CHECK_THAT(error_of(dir.write("h/torchmigrate.toml", "policy = { TM101 = \"adopt-new\" }\n")),
             Catch::Contains("not a rule with a keep-old/adopt-new choice"));
}

TEST_CASE("the nearest configuration above a file applies; pyproject needs the tool section") {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.torchmigrate]\nselect = [\"TM1\"]\n");
  dir.write("service/pyproject.toml", "[project]\nname = \"service\"\n");
  dir.write("service/torchmigrate.toml", "select = [\"TM2\"]\n");
  dir.write("service/sub/.torchmigrate.toml", "select = [\"TM3\"]\n");
  dir.write("service/sub/torchmigrate.toml", "select = [\"TM4\"]\n");
  dir.write("lib/pyproject.toml", "[project]\nname = \"lib\"\n");
  CHECK(find_config_file(dir.path / "pkg") == dir.path / "pyproject.toml");
  CHECK(find_config_file(dir.path / "lib") == dir.path / "pyproject.toml");
  CHECK(find_config_file(dir.path / "service") == dir.path / "service" / "torchmigrate.toml");
  CHECK(find_config_file(dir.path / "service/sub") == dir.path / "service/sub/.torchmigrate.toml");

  ConfigResolver resolver(Catalog::builtin(), {}, std::nullopt, false);
  CHECK(resolver.for_path(dir.write("service/m.py", "")).settings.selection.select == std::vector<std::string>{"TM2"});
  CHECK(resolver.for_path(dir.write("lib/m.py", "")).settings.selection.select == std::vector<std::string>{"TM1"});
}

TEST_CASE("command-line options override the file; --config and --isolated pick the source") {
  TempDir dir;
  dir.write("torchmigrate.toml", "select = [\"TM1\"]\nignore = [\"TM102\"]\nmin-torch = \"2.8\"\n");
  fs::path file = dir.write("m.py", "");
  CliOverrides cli;
  cli.select = {"TM2"};
  cli.ignore = {"TM202"};
  ConfigResolver resolver(Catalog::builtin(), cli, std::nullopt, false);
  const ResolvedConfig& resolved = resolver.for_path(file);
  CHECK(resolved.settings.selection.select == std::vector<std::string>{"TM2"});
  CHECK(resolved.settings.selection.ignore == std::vector<std::string>{"TM102", "TM202"});
  CHECK(resolved.settings.min_torch == TorchVersion{2, 8});

  ConfigResolver isolated(Catalog::builtin(), {}, std::nullopt, true);
  CHECK(isolated.for_path(file).settings.selection.select.empty());
  CHECK_FALSE(isolated.for_path(file).source.has_value());

  fs::path other = dir.write("elsewhere/custom.toml", "select = [\"TM3\"]\n");
  ConfigResolver explicit_config(Catalog::builtin(), {}, other, false);
  CHECK(explicit_config.for_path(file).settings.selection.select == std::vector<std::string>{"TM3"});
}

TEST_CASE("per-file ignores and excludes match globs relative to the config file") {
  TempDir dir;
  dir.write("torchmigrate.toml",
            "exclude = [\"vendored\", \"gen/**/*.py\"]\n[per-file-ignores]\n\"tests/**\" = [\"TM2\"]\n\"conftest.py\" = [\"TM101\"]\n");
  ConfigResolver resolver(Catalog::builtin(), {}, std::nullopt, false);
  const ResolvedConfig& resolved = resolver.for_path(dir.write("tests/unit/test_a.py", ""));
  CHECK(resolved.ignored_for(dir.path / "tests/unit/test_a.py") == std::vector<std::string>{"TM2"});
  CHECK(resolved.ignored_for(dir.path / "src/conftest.py") == std::vector<std::string>{"TM101"});
  CHECK(resolved.ignored_for(dir.path / "src/a.py").empty());
  CHECK(resolved.excluded(dir.path / "vendored"));
  CHECK(resolved.excluded(dir.path / "src/vendored/x.py"));
  CHECK(resolved.excluded(dir.path / "gen/a/b.py"));
  CHECK_FALSE(resolved.excluded(dir.path / "src/gen.py"));
}

TEST_CASE("semantic mistakes are errors with the file, line and key") {
  TempDir dir;
  CHECK_THAT(error_of(dir.write("a/torchmigrate.toml", "min-torch = \"2.8\"\nexclude = [\"ok\", \"[\"]\n")),
             Catch::Contains("torchmigrate.toml:2:18: `exclude` has the glob `[`, which has a `[` without a closing `]`"));
  CHECK_THAT(error_of(dir.write("b/torchmigrate.toml", "[per-file-ignores]\n\"tests/[a\" = [\"TM2\"]\n")),
             Catch::Contains(":2:14: `per-file-ignores.\"tests/[a\"` is not a usable glob"));
  CHECK_THAT(error_of(dir.write("c/torchmigrate.toml", "[per-file-ignores]\n\"tests/**\" = []\n")),
             Catch::Contains("`per-file-ignores.\"tests/**\"` is empty"));
  CHECK_THAT(error_of(dir.write("d/torchmigrate.toml", "[extension]\npy = \"cxx\"\n")),
             Catch::Contains(":2:6: `extension.py` maps `py`, a Python ending, to `cxx`; that would stop those files"));
  CHECK_THAT(error_of(dir.write("e/torchmigrate.toml", "[extension]\nyml = \"shell\"\n")),
             Catch::Contains("a build-file ending"));
  CHECK_THAT(error_of(dir.write("f/torchmigrate.toml", "[extension]\n\"\" = \"python\"\n")),
             Catch::Contains("names the ending ``"));
  CHECK_THAT(error_of(dir.write("g/torchmigrate.toml", "[extension]\n\"tar.gz\" = \"python\"\n")),
             Catch::Contains("one word after the last dot"));
  CHECK_THAT(error_of(dir.write("h/pyproject.toml", "[tool]\ntorchmigrate = 5\n")),
             Catch::Contains("pyproject.toml:2:16: `tool.torchmigrate` must be a table"));
  CHECK_THAT(error_of(dir.write("i/pyproject.toml", "[tool.torchmigrate]\nselect = \"TM1\"\n")),
             Catch::Contains("pyproject.toml:2:10: `tool.torchmigrate.select` must be an array of strings"));
  CHECK_THAT(error_of(dir.write("j/torchmigrate.toml", "select = [\"TM1\", 3]\n")),
             Catch::Contains(":1:18: `select` must be an array of strings"));
  // Mapping an ending to the front that already reads it, or a new ending, is fine.
  CHECK(error_of(dir.write("k/torchmigrate.toml", "[extension]\npy = \"python\"\n\".pyw\" = \"python\"\n")).empty());
}

TEST_CASE("a configured cache-dir must name a directory inside the project") {
  TempDir dir;
  for (const char* value : {"..", "../..", "", ".", "./", "a/../..", "/tmp/cache"}) {
    INFO(value);
    std::string error = error_of(dir.write("torchmigrate.toml", std::string("cache-dir = \"") + value + "\"\n"));
    CHECK_THAT(error, Catch::Contains("torchmigrate.toml:1:13: `cache-dir`"));
  }
  CHECK(error_of(dir.write("torchmigrate.toml", "cache-dir = \".cache/torchmigrate\"\n")).empty());
}

TEST_CASE("select = [] selects no rule; extend-select still adds") {
  TempDir dir;
  dir.write("a/torchmigrate.toml", "select = []\n");
  dir.write("b/torchmigrate.toml", "select = []\nextend-select = [\"TM201\"]\n");
  ConfigResolver resolver(Catalog::builtin(), {}, std::nullopt, false);
  const Settings& none = resolver.for_path(dir.write("a/m.py", "")).settings;
  const Settings& one = resolver.for_path(dir.write("b/m.py", "")).settings;
  for (const RuleSpec& rule : Catalog::builtin().rules()) {
    INFO(rule.code);
    CHECK_FALSE(none.selection.enabled(rule));
    CHECK(one.selection.enabled(rule) == (rule.code == "TM201"));
  }
  // The command line's --select still replaces it.
  CliOverrides cli;
  cli.select = {"TM201"};
  ConfigResolver with_cli(Catalog::builtin(), cli, std::nullopt, false);
  CHECK(with_cli.for_path(dir.path / "a" / "m.py").settings.selection.enabled(*Catalog::builtin().find("TM201")));
}

TEST_CASE("a broken pyproject.toml is an error when it mentions torchmigrate, else passed over") {
  TempDir dir;
  fs::create_directories(dir.path / ".git");
  dir.write("pyproject.toml", "[tool.torchmigrate]\nselect = [\"TM1\"]\n");
  dir.write("ours/pyproject.toml", "[tool.torchmigrate\nselect = [\"TM2\"]\n");
  dir.write("theirs/pyproject.toml", "[project\nname = \"x\"\n");
  CHECK(find_config_file(dir.path / "ours") == dir.path / "ours" / "pyproject.toml");
  CHECK_THAT(error_of(dir.path / "ours" / "pyproject.toml"), Catch::Contains("pyproject.toml:1:"));
  CHECK_THAT(error_of(dir.path / "ours" / "pyproject.toml"), Catch::Contains("invalid TOML"));
  CHECK(find_config_file(dir.path / "theirs") == dir.path / "pyproject.toml");
}

TEST_CASE("a non-ASCII character outside strings and comments is a TOML error, with its place") {
  // toml++ 3.3.0 reaches undefined behaviour on some of these (U+FEEF here); TOML 1.0 allows
  // them only in strings and comments, so they are refused before it parses.
  TempDir dir;
  fs::create_directories(dir.path / ".git");
  const std::string key_with_u_feef =
      "nam\xEF\xBB\xAF"
      "e = \"x\"\n";
  CHECK_THAT(error_of(dir.write("a/torchmigrate.toml", "# caf\xC3\xA9\n" + key_with_u_feef)),
             Catch::EndsWith("torchmigrate.toml:2:4: invalid TOML: non-ASCII character outside a string or comment"));
  // A pyproject.toml that mentions torchmigrate is ours to report; one that does not is passed over.
  const fs::path ours = dir.write("b/pyproject.toml", "[tool.torchmigrate]\n" + key_with_u_feef);
  CHECK(find_config_file(dir.path / "b") == ours);
  CHECK_THAT(error_of(ours), Catch::EndsWith("pyproject.toml:2:4: invalid TOML: non-ASCII character outside a "
                                             "string or comment"));
  dir.write("c/pyproject.toml", "[project]\n" + key_with_u_feef);
  CHECK_FALSE(find_config_file(dir.path / "c"));
  CHECK_THAT(error_of(dir.write("d/.torchmigrate.toml", "\xC2\xA0select = [\"TM1\"]\n")),
             Catch::Contains(".torchmigrate.toml:1:1: invalid TOML: non-ASCII character"));
  try {
    read_inline_config("select = [\"TM1\"] \xEF\xBB\xAF", Catalog::builtin());
    FAIL("an inline setting with U+FEEF outside its string was accepted");
  } catch (const ConfigError& error) {
    CHECK_THAT(error.what(), Catch::StartsWith("--config:1:18: "));
    CHECK_THAT(error.what(), Catch::Contains("(non-ASCII character outside a string or comment)"));
  }
  // Strings, comments and a leading byte order mark keep their non-ASCII characters.
  std::optional<ConfigFile> config = read_config_file(
      dir.write("e/torchmigrate.toml", "\xEF\xBB\xBF# r\xC3\xA9sum\xC3\xA9\nexclude = [\"caf\xC3\xA9\"]\n"),
      Catalog::builtin());
  REQUIRE(config);
}

TEST_CASE("the resolver remembers each directory's answer: the order of questions never matters") {
  TempDir dir;
  dir.write("torchmigrate.toml", "select = [\"TM1\"]\n");
  dir.write("service/torchmigrate.toml", "select = [\"TM2\"]\n");
  fs::create_directories(dir.path / "checkout" / ".git");
  std::vector<std::string> files = {"service/a/b/m.py", "service/a/n.py", "service/o.py",
                                    "other/a/p.py",     "q.py",           "checkout/src/r.py"};
  for (const std::string& file : files) dir.write(file, "");
  auto selections = [&](std::vector<std::string> order) {
    ConfigResolver resolver(Catalog::builtin(), {}, std::nullopt, false);
    std::map<std::string, std::vector<std::string>> seen;
    for (const std::string& file : order) seen[file] = resolver.for_path(dir.path / file).settings.selection.select;
    return seen;
  };
  auto deepest_first = selections(files);
  CHECK(deepest_first == selections({files.rbegin(), files.rend()}));
  CHECK(deepest_first["service/a/b/m.py"] == std::vector<std::string>{"TM2"});
  CHECK(deepest_first["service/a/n.py"] == std::vector<std::string>{"TM2"});
  CHECK(deepest_first["other/a/p.py"] == std::vector<std::string>{"TM1"});
  CHECK(deepest_first["q.py"] == std::vector<std::string>{"TM1"});
  // Inside a repository below the configuration: none applies, however the question came.
  CHECK(deepest_first["checkout/src/r.py"] != std::vector<std::string>{"TM1"});
}

TEST_CASE("the search for a configuration stops at the repository root") {
  TempDir dir;
  dir.write("torchmigrate.toml", "select = [\"TM1\"]\n");
  fs::create_directories(dir.path / "checkout" / ".git");
  fs::create_directories(dir.path / "checkout" / "src");
  CHECK_FALSE(find_config_file(dir.path / "checkout" / "src"));
  // A worktree or submodule has a `.git` file instead of a directory.
  dir.write("other/.git", "gitdir: ../somewhere\n");
  CHECK_FALSE(find_config_file(dir.path / "other"));
  CHECK(find_config_file(dir.path / "plain") == dir.path / "torchmigrate.toml");
}

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
  CHECK_THAT(error_of(dir.write("a/torchmigrate.toml", "extend = \"missing.toml\"\n")),
             Catch::Contains("torchmigrate.toml: `extend = \"missing.toml\"` names no file"));
  dir.write("b/one.toml", "extend = \"two.toml\"\n");
  dir.write("b/two.toml", "extend = \"one.toml\"\n");
  CHECK_THAT(error_of(dir.path / "b/one.toml"), Catch::Contains("closes a cycle"));
  CHECK_THAT(error_of(dir.write("c/torchmigrate.toml", "extend = \"\"\n")), Catch::Contains("`extend` is empty"));
  dir.write("d/pyproject.toml", "[project]\nname = \"x\"\n");
  CHECK_THAT(error_of(dir.write("d/sub/torchmigrate.toml", "extend = \"../pyproject.toml\"\n")),
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
