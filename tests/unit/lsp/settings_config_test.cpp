// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/lsp/settings.hpp"

using namespace torchmigrate;
namespace fs = std::filesystem;

TEST_CASE("the server reads the project's configuration files like the CLI; client options override them") {
  fs::path root = fs::temp_directory_path() / ("torchmigrate-lsp-config-" + std::to_string(::getpid()));
  fs::create_directories(root / "tests");
  std::ofstream(root / "torchmigrate.toml") << "select = [\"TM2\"]\nmin-torch = \"2.8\"\nexclude = [\"vendored\"]\n"
                                               "[per-file-ignores]\n\"tests/**\" = [\"TM201\"]\n";
  lsp::SettingsResolver resolver(engine::Catalog::builtin(), checks::builtin_registry());
  resolver.set_roots({root});

  auto settings = resolver.settings_for(root / "a.py");
  CHECK(settings->settings.selection.select == std::vector<std::string>{"TM2"});
  CHECK(settings->settings.min_torch == engine::TorchVersion{2, 8});
  CHECK(resolver.settings_for(root / "tests" / "test_a.py")->settings.selection.file_ignore == std::vector<std::string>{"TM201"});
  CHECK(resolver.is_excluded(root / "vendored" / "x.py"));
  CHECK_FALSE(resolver.is_excluded(root / "a.py"));

  lsp::ClientOptions options;
  options.select = {"TM1"};
  CHECK(resolver.set_options(options).empty());
  CHECK(resolver.settings_for(root / "a.py")->settings.selection.select == std::vector<std::string>{"TM1"});
  // As on the command line: codes in any case, with spaces; no patch release in minTorch.
  options.select = {" tm201"};
  options.min_torch = "2.8.1";
  std::vector<std::string> option_errors = resolver.set_options(options);
  CHECK(resolver.settings_for(root / "a.py")->settings.selection.select == std::vector<std::string>{"TM201"});
  REQUIRE(option_errors.size() == 1);
  CHECK_THAT(option_errors[0], Catch::StartsWith("option `minTorch`: `2.8.1` is not a version MAJOR.MINOR"));
  options.min_torch.reset();

  // A broken file falls back to the defaults and says why.
  std::ofstream(root / "torchmigrate.toml") << "selekt = 1\n";
  resolver.invalidate();
  CHECK(resolver.settings_for(root / "a.py")->settings.selection.select.empty());
  std::vector<std::string> errors = resolver.take_errors();
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("unknown key `selekt`"));
  fs::remove_all(root);
}

TEST_CASE("the server's targetVersion option: a catalog release or latest, like --target-version") {
  fs::path root = fs::temp_directory_path() / ("torchmigrate-lsp-target-" + std::to_string(::getpid()));
  fs::create_directories(root);
  std::ofstream(root / "requirements.txt") << "torch>=2.7\n";
  lsp::SettingsResolver resolver(engine::Catalog::builtin(), checks::builtin_registry());
  resolver.set_roots({root});
  CHECK(resolver.settings_for(root / "a.py")->settings.target == engine::TorchVersion{2, 8});

  lsp::ClientOptions options;
  options.target_version = "latest";
  CHECK(resolver.set_options(options).empty());
  CHECK(resolver.settings_for(root / "a.py")->settings.target == engine::Catalog::builtin().targets().back());

  options.target_version = "1.0";
  std::vector<std::string> errors = resolver.set_options(options);
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::StartsWith("option `targetVersion`: unknown target version `1.0`; expected 2.8"));
  CHECK(resolver.settings_for(root / "a.py")->settings.target == engine::TorchVersion{2, 8});

  std::vector<std::string> parse_errors;
  lsp::ClientOptions parsed = lsp::parse_client_options(nlohmann::json{{"targetVersion", 2.9}}, parse_errors);
  CHECK_FALSE(parsed.target_version.has_value());
  CHECK(parse_errors.size() == 1);
  fs::remove_all(root);
}
