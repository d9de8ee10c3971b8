// SPDX-License-Identifier: MIT
// The compatibility-guard verdict follows the catalog: change a rule's kind or release in a copy
// of rules/*.json and the same code is judged differently.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;
namespace fs = std::filesystem;

namespace {

// The catalog's sources, with `edit` applied to one rule's entry.
Catalog catalog_with(const std::string& code, const std::function<void(nlohmann::json&)>& edit) {
  std::vector<std::string> texts;
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(fs::path(TORCHMIGRATE_SOURCE_DIR) / "rules")) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with("TM")) continue;
    std::ifstream in(entry.path());
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    if (name == code + ".json") {
      nlohmann::json parsed = nlohmann::json::parse(text);
      edit(parsed);
      text = parsed.dump();
    }
    names.push_back(name);
    texts.push_back(text);
  }
  std::vector<std::pair<std::string, std::string_view>> sources;
  for (size_t i = 0; i < texts.size(); ++i) sources.emplace_back(names[i], texts[i]);
  return Catalog::parse(sources);
}

std::vector<std::string> codes_found(const Catalog& catalog, const std::string& code, const std::string& text) {
  Settings settings;
  settings.min_torch = TorchVersion::parse("2.7");
  settings.selection.select = {code};
  Linter linter(catalog, checks::builtin_registry(), settings);
  std::vector<std::string> codes;
  for (const Diagnostic& diagnostic : linter.lint(SourceFile("t.py", text, Language::Python))) {
    codes.push_back(diagnostic.code);
  }
  return codes;
}

const std::string kNewSide =
    "import torch\n"
    "if torch.__version__ >= '2.8':\n"
    "    torch.onnx.export(model, (x,), 'm.onnx')\n";
const std::string kTry =
    "import torch\n"
    "try:\n"
    "    torch.onnx.export(model, (x,), 'm.onnx')\n"
    "except AttributeError:\n"
    "    pass\n";

}  // namespace

TEST_CASE("the guard verdict follows a rule's kind in the catalog") {
  Catalog builtin = catalog_with("TM302", [](nlohmann::json&) {});
  // A changed default: the new side of a version test was written for the new default, and a
  // try/except catches nothing a default change raises.
  CHECK(codes_found(builtin, "TM302", kNewSide).empty());
  CHECK(codes_found(builtin, "TM302", kTry) == std::vector<std::string>{"TM302"});

  // The same rule as a deprecated API: using it on the new side is what the rule is about, and a
  // try/except around it is compatibility code.
  Catalog deprecated = catalog_with("TM302", [](nlohmann::json& rule) {
    rule["kind"] = "deprecated";
    rule["fix"].erase("policies");
  });
  CHECK(codes_found(deprecated, "TM302", kNewSide) == std::vector<std::string>{"TM302"});
  CHECK(codes_found(deprecated, "TM302", kTry).empty());
}

TEST_CASE("the guard verdict follows a rule's release in the catalog") {
  Catalog builtin = catalog_with("TM202", [](nlohmann::json&) {});
  CHECK(codes_found(builtin, "TM202", kNewSide).empty());
  // Were the change in 2.9, a test against 2.8 would no longer separate old from new.
  Catalog later = catalog_with("TM202", [](nlohmann::json& rule) { rule["release"]["to"] = "2.9"; });
  CHECK(codes_found(later, "TM202", kNewSide) == std::vector<std::string>{"TM202"});
}

TEST_CASE("feature tests count only on the rule's own spellings from the catalog") {
  const std::string text =
      "import torch.fx.experimental.symbolic_shapes as ss\n"
      "def known(x):\n"
      "    if hasattr(ss, 'guard_or_false'):\n"
      "        return ss.guard_or_false(x)\n"
      "    return ss.definitely_true(x)\n";
  Catalog builtin = catalog_with("TM102", [](nlohmann::json&) {});
  CHECK(codes_found(builtin, "TM102", text).empty());
  Catalog without = catalog_with("TM102", [](nlohmann::json& rule) { rule.erase("compat_attributes"); });
  CHECK(codes_found(without, "TM102", text) == std::vector<std::string>{"TM102"});
}
