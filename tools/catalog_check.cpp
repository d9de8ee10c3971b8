// SPDX-License-Identifier: MIT
// `catalog_check RULES_DIR`: loads every rules/TM*.json as the binary will, and builds each
// rule's check (and each of its per-release variants) through the registry, so that an unknown
// family, a missing parameter or a misspelt one (checks::Params rejects every key it did not
// read) fails the build instead of a user's run. Exit 0 when every rule loads; else 1, with one
// `TMxxx: ...` line per problem on stderr.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"

namespace fs = std::filesystem;
using namespace torchmigrate;

namespace {

// The family's factory builds the check, reading its parameters; a family that the engine runs
// itself (no factory) takes no parameters.
void build_check(const engine::RuleSpec& rule, const engine::CheckRegistry& registry) {
  if (const engine::PythonCheckFactory* factory = registry.python(rule.check_family)) {
    (void)(*factory)(rule);
  } else if (const engine::FileCheckFactory* file = registry.file(rule.check_family)) {
    (void)(*file)(rule);
  } else if (rule.check_family == "unused-suppression") {
    checks::Params(rule).finish();
  } else {
    throw engine::CatalogError("unknown check family `" + rule.check_family + "`");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: catalog_check RULES_DIR\n";
    return 2;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(argv[1])) {
    std::string name = entry.path().filename().string();
    if (name.starts_with("TM") && name.ends_with(".json")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> texts;
  texts.reserve(files.size());
  for (const fs::path& file : files) {
    engine::ReadResult read = engine::read_file(file.string());
    if (!read.text) {
      std::cerr << file.filename().string() << ": " << read.error << '\n';
      return 1;
    }
    texts.push_back(std::move(*read.text));
  }
  std::vector<std::pair<std::string, std::string_view>> sources;
  for (size_t i = 0; i < files.size(); ++i) sources.emplace_back(files[i].filename().stem().string(), texts[i]);
  int problems = 0;
  try {
    engine::Catalog catalog = engine::Catalog::parse(sources);
    const engine::CheckRegistry& registry = checks::builtin_registry();
    for (const engine::RuleSpec& rule : catalog.rules()) {
      try {
        (void)rule.docs();  // read lazily by the binary: checked here
        build_check(rule, registry);
        for (const auto& variant : rule.variants) build_check(*variant, registry);
      } catch (const std::exception& error) {
        // Errors read from the rule already start with its code.
        std::string what = error.what();
        std::cerr << (what.starts_with(rule.code + ":") ? what : rule.code + ": " + what) << '\n';
        ++problems;
      }
    }
    if (problems == 0) std::cout << "catalog_check: " << catalog.rules().size() << " rules load\n";
  } catch (const std::exception& error) {
    // The catalog's own errors name the file ("TM104: ...").
    std::cerr << error.what() << '\n';
    return 1;
  }
  return problems == 0 ? 0 : 1;
}
