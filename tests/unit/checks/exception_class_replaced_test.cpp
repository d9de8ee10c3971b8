// SPDX-License-Identifier: MIT
// TM114 (exception-class-replaced): which files it rules out from their lines before a parse.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/python_check.hpp"

using namespace torchmigrate;

namespace {

bool may_report(const std::string& text) {
  const engine::RuleSpec& rule = *engine::Catalog::builtin().find("TM114");
  std::unique_ptr<engine::PythonCheck> check = (*checks::builtin_registry().python(rule.check_family))(rule);
  return check->may_report(text);
}

}  // namespace

TEST_CASE("a cat called outside every try and with block is ruled out") {
  CHECK_FALSE(
      may_report("import torch\n\ndef f(xs):\n    return torch.cat(xs)\n\n"
                 "def g():\n    try:\n        h()\n    except RuntimeError:\n        pass\n"));
  // A try around the function that defines the call does not catch it there.
  CHECK_FALSE(may_report("try:\n    def f(xs):\n        return torch.cat(xs)\nexcept RuntimeError:\n    pass\n"));
  // A `with` that asserts nothing (`autocast`, `torch.no_grad()`) catches nothing.
  CHECK_FALSE(
      may_report("def f(xs):\n    \"\"\"Concatenates; raises nothing.\"\"\"\n    with torch.no_grad():\n"
                 "        return torch.cat(xs)\n"));
  CHECK_FALSE(
      may_report("@pytest.mark.xfail(raises=KeyError)\ndef test(xs):\n    with torch.no_grad():\n"
                 "        return torch.cat(xs)\n"));
  // The else and finally bodies of a try are not its body.
  CHECK_FALSE(
      may_report("def f(xs):\n    try:\n        pass\n    except RuntimeError:\n        pass\n"
                 "    else:\n        torch.cat(xs)\n"));
}

TEST_CASE("a cat called inside a try or with body, or passed to an assertion, may be reported") {
  CHECK(may_report("def f(xs):\n    try:\n        y = torch.cat(xs)\n    except RuntimeError:\n        pass\n"));
  CHECK(
      may_report("def f(xs):\n    if xs:\n        try:\n            for x in xs:\n"
                 "                y = torch.cat(x)\n        except (ValueError,\n  RuntimeError):\n"
                 "            pass\n"));
  CHECK(may_report("def test(xs):\n    with pytest.raises(RuntimeError):\n        torch.cat([])\n"));
  CHECK(
      may_report("class T:\n    def test(self):\n        self.assertRaises(\n            RuntimeError,\n"
                 "            lambda: torch.cat([]),\n        )\n"));
  CHECK(may_report("self.assertRaises(RuntimeError, torch.cat, [])\n"));
  CHECK(
      may_report("def test(xs):\n    with (\n        torch.no_grad(),\n        pytest.raises(RuntimeError),\n    ):\n"
                 "        torch.cat([])\n"));
  // `raises` under another name: any `with` may assert.
  CHECK(
      may_report("from pytest import raises as expect\n\ndef test():\n    with expect(RuntimeError):\n"
                 "        torch.cat([])\n"));
}

TEST_CASE("a cat that may reach a call under another name, or unreadable text, may be reported") {
  CHECK(may_report("from torch import cat as join\n\ndef f(xs):\n    return join(xs)\n"));
  CHECK(may_report("concat = torch.cat\n"));
  CHECK(
      may_report("def f(xs):\n\ttry:\n\t\treturn g(xs)\n\texcept RuntimeError:\n\t\tpass\n# torch.cat(xs)\n"
                 "y = torch.cat(xs)\n"));
  // A comment or a message is not a call.
  CHECK_FALSE(may_report("# torch.cat(xs) inside try\nraise RuntimeError('torch.cat failed')\n"));
}
