// SPDX-License-Identifier: MIT
// TM211: what puts a model in eval mode before the export, which models come from the caller,
// and the `report_parameters` switch.
#include <catch2/catch.hpp>

#include "family_rule.hpp"

using namespace torchmigrate;

namespace {

std::vector<Diagnostic> lint(const std::string& body) {
  engine::Settings settings;
  settings.selection.select = {"TM211"};
  settings.target = TorchVersion{2, 9};
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
  return linter.lint(SourceFile("t.py", "import torch\n\n" + body, Language::Python));
}

// `setup` then the export of `m`, in a function taking `parameters`.
std::vector<Diagnostic> lint_export(const std::string& setup, const std::string& parameters = "path") {
  return lint("def f(" + parameters + "):\n    " + setup + "\n    torch.onnx.export(m, (x,), 'm.onnx')\n");
}

}  // namespace

TEST_CASE("TM211 counts eval() and train(False) before the call, on the same spelling") {
  CHECK(lint_export("m = Net(); m.eval()").empty());
  CHECK(lint_export("m = Net(); m.train(mode=False)").empty());
  CHECK(lint_export("m = Net().cuda().eval().half()").empty());
  CHECK(lint_export("m = Net(); m.train(True)").size() == 1);
  CHECK(lint_export("m = Net(); other.eval()").size() == 1);
  CHECK(lint_export("m = Net(); m.train()").size() == 1);
  // A def nested before the call does not run there.
  CHECK(lint_export("m = Net()\n    def later():\n        m.eval()").size() == 1);
}

TEST_CASE("TM211 leaves models that come from the caller") {
  CHECK(lint_export("pass", "m, path").empty());
  CHECK(lint_export("m = model.to('cpu')", "model").empty());
  CHECK(lint_export("m = torch.nn.Sequential(*layers)", "*layers").empty());
  CHECK(lint_export("m = Net(size)", "size").empty());  // a local made from a parameter
  CHECK(lint_export("m = Net(3)", "size").size() == 1);
}

TEST_CASE("TM211 reports parameters too when the family's report_parameters is set") {
  const engine::RuleSpec* builtin = engine::Catalog::builtin().find("TM211");
  REQUIRE(builtin != nullptr);
  nlohmann::json params = *builtin->check_params;
  params["report_parameters"] = true;
  engine::Catalog catalog =
      testing::family_catalog("export-training-mode", params.dump(), "`{callee}` {problem}", "onnx");
  std::vector<std::string> messages =
      testing::family_messages(catalog, "import torch\n\ndef f(m):\n    torch.onnx.export(m, (x,), 'm.onnx')\n");
  REQUIRE(messages.size() == 1);
  CHECK(messages.front().starts_with("`torch.onnx.export` exports `m` in whatever mode"));
}
