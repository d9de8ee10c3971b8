// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "torchmigrate/engine/lint/prefilter.hpp"

#include <memory>
#include <vector>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/front.hpp"

using namespace torchmigrate::engine;

namespace {

RuleSpec rule(std::vector<std::string> triggers, TriggerMatch match = TriggerMatch::Word,
              std::vector<std::vector<std::string>> groups = {}) {
  RuleSpec spec;
  spec.triggers = std::move(triggers);
  spec.trigger_match = match;
  spec.trigger_groups = std::move(groups);
  return spec;
}

// Whether `spec` fires on each text, as expected.
void expect(const RuleSpec& spec, const std::vector<std::pair<std::string_view, bool>>& cases) {
  Prefilter prefilter({&spec});
  for (const auto& [text, fires] : cases) {
    INFO("text: " << text);
    CHECK(prefilter.candidates(text)[0] == fires);
  }
}

}  // namespace

TEST_CASE("word triggers match whole identifier words only") {
  RuleSpec map = rule({"map", "cond"});
  expect(map, {
      {"torch.map(f, xs)", true},
      {"from x import cond as c", true},
      {"heatmap = mapping(condition)", false},
      {"_map map_ map1 cond2", false},
      {"a-map+b", true},
      {"", false},
  });
}

TEST_CASE("words of any length are found, past the length the quick check tells apart") {
  std::string long_word(70, 'w');
  RuleSpec long_trigger = rule({long_word});
  expect(long_trigger, {
                           {long_word, true},
                           {"x " + long_word + "(1)", true},
                           {std::string(64, 'w'), false},
                           {std::string(71, 'w'), false},
                       });
}

TEST_CASE("a word at the very start or end of the file matches") {
  RuleSpec onnx = rule({"onnx"});
  expect(onnx, {
      {"onnx", true},
      {"onnx.export", true},
      {"import torch.onnx", true},
      {"onnxscript", false},
      {"to_onnx", false},
  });
}

TEST_CASE("non-ASCII bytes are word boundaries") {
  RuleSpec mps = rule({"mps"});
  expect(mps, {
      {"d\xc3\xa9mps", true},  // dé + mps: é is not in [A-Za-z0-9_]
      {"mps\xe2\x80\x94x", true},  // mps + em dash
      {"\xff" "mps" "\x80", true},
      {"\xc3\xa9mpsx", false},
  });
}

TEST_CASE("overlapping triggers each match on their own") {
  RuleSpec short_one = rule({"export"});
  RuleSpec long_one = rule({"export_for_inference"});
  Prefilter both({&short_one, &long_one});
  CHECK(both.candidates("torch.export.export_for_inference(m)") == std::vector<bool>{true, true});
  CHECK(both.candidates("export_for_inference(m)") == std::vector<bool>{false, true});
  CHECK(both.candidates("export(m)") == std::vector<bool>{true, false});
  // Two rules sharing one trigger both fire.
  RuleSpec again = rule({"export", "other"});
  CHECK(Prefilter({&short_one, &again}).candidates("x = export") == std::vector<bool>{true, true});
}

TEST_CASE("a trigger of several words matches them in sequence, bounded at both ends") {
  RuleSpec header = rule({"torch/types.h"});
  expect(header, {
      {"#include <torch/types.h>", true},
      {"#include \"torch/csrc/api/include/torch/types.h\"", true},
      {"torch/types.h", true},
      {"torch/types.hpp", false},
      {"mytorch/types.h", false},
      {"torch/types", false},
      {"torch", false},
  });
}

TEST_CASE("a space or punctuation in a word trigger allows any whitespace Python allows there") {
  RuleSpec tokens = rule({"torch.quantization", "from torch import", "torch as"});
  expect(tokens, {
                     {"torch.quantization.prepare(m)", true},
                     {"x = (torch\n    . quantization)", true},
                     {"x = torch.\\\n    quantization", true},
                     {"from  torch\timport (\n  quantization)", true},
                     {"from \\\n torch import nn", true},
                     {"x = (torch  # the module\n  # and more\n  .quantization)", true},
                     {"import os, torch  as t", true},
                     {"torchao.quantization", false},
                     {"torch.quantization_utils", false},
                     {"torch..quantization", false},
                     {"torch  # .quantization", false},
                     {"from torchao import x", false},
                     {"fromtorch import", false},
                     {"import torch\nastype = 1", false},
                 });
  RuleSpec call = rule({"type("});
  expect(call, {
                   {"type(e) is RuntimeError", true},
                   {"builtins.type (\n  e)", true},
                   {"dtype(e)", false},
                   {"type = 1", false},
                   {"type[int]", false},
               });
}

TEST_CASE("punctuation before the first word must precede it, and `$` ends a statement") {
  RuleSpec alias = rule({"= torch$"});
  expect(alias, {
                    {"t = torch", true},
                    {"t=torch\n", true},
                    {"t: object = torch  # the module", true},
                    {"t = torch; t.quantization", true},
                    {"t = \\\n  torch\r\n", true},
                    {"t = torch \\\n", true},
                    {"import torch\n", false},
                    {"x = torch.zeros(1)", false},
                    {"x = torch(1)", false},
                    {"x = torchvision", false},
                    {"x = mytorch", false},
                    {"f(torch)", false},
                });
}

TEST_CASE("punctuation before the first word may be followed by a comment on its line") {
  RuleSpec element = rule({", NotImplementedError", "(NotImplementedError"});
  expect(element, {
                      {"except (ValueError,  # why\n        NotImplementedError):", true},
                      {"except (  # a handler of both\n    NotImplementedError, ValueError):", true},
                      {"except (ValueError, # one\n  # two\n  NotImplementedError):", true},
                      // A `#` in a string may look like a comment: the plain reading is kept too.
                      {"except (\"#\",\n        NotImplementedError):", true},
                      {"raise NotImplementedError", false},
                      {"x = 1  # (\nNotImplementedError", true},  // errs towards matching
                      {"x = 1  # no punctuation\nNotImplementedError", false},
                  });
}

TEST_CASE("several punctuation bytes before the first word may have gaps between them") {
  RuleSpec literal = rule({"(\"mps"});
  expect(literal, {
                      {"torch.device(\"mps\")", true},
                      {"torch.device( \"mps\")", true},
                      {"torch.device(\n    \"mps:0\")", true},
                      {"torch.device(  # which backend\n    \"mps\")", true},
                      {"torch.device(r\"mps\")", false},
                      {"device == \"mps\"", false},
                      {"torch.device(x, \"mps\")", false},
                  });
}

TEST_CASE("substring triggers match inside words; any-case ones ignore ASCII case") {
  RuleSpec arch = rule({"TORCH_CUDA_ARCH_LIST"}, TriggerMatch::Substring);
  expect(arch, {
      {"cmake -DTORCH_CUDA_ARCH_LIST=8.0", true},
      {"torch_cuda_arch_list", false},
  });
  RuleSpec noqa = rule({"noqa", "NOLINT"}, TriggerMatch::AnyCase);
  expect(noqa, {
      {"x = 1  # NoQA: TM101", true},
      {"x = 1  #nOqA", true},
      {"f();  // NOLINTNEXTLINE(TM151)", true},
      {"NOQA", true},
      {"no qa, no lint", false},
      {"noq", false},
  });
}

TEST_CASE("trigger groups: one word of every group must occur as well") {
  RuleSpec onnx_export = rule({"onnx"}, TriggerMatch::Word, {{"export"}, {"torch", "functorch"}});
  expect(onnx_export, {
      {"from torch import onnx as o\no.export(m)", true},
      {"import functorch, onnx; export", true},
      {"from torch import onnx", false},
      {"export onnx", false},
      {"torch.export.export(m)", false},
  });
}

TEST_CASE("rules are reported in the order given, each on its own") {
  RuleSpec a = rule({"alpha"});
  RuleSpec b = rule({"beta"}, TriggerMatch::Substring);
  RuleSpec c = rule({"gamma"}, TriggerMatch::Word, {{"delta"}});
  Prefilter prefilter({&a, &b, &c});
  CHECK(prefilter.candidates("xbetax gamma") == std::vector<bool>{false, true, false});
  CHECK(prefilter.candidates("delta gamma alpha") == std::vector<bool>{true, false, true});
  CHECK(Prefilter({}).candidates("anything").empty());
}

TEST_CASE("linters that enable the same rules share one prefilter") {
  const Catalog& catalog = Catalog::builtin();
  LintEnvironment first(catalog, torchmigrate::checks::builtin_registry(), {});
  LintEnvironment second(catalog, torchmigrate::checks::builtin_registry(), {});
  std::vector<const RuleSpec*> python = {catalog.find("TM201"), catalog.find("TM202")};
  std::shared_ptr<const Prefilter> shared = first.prefilter(python);
  CHECK(second.prefilter(python) == shared);
  CHECK(second.prefilter({catalog.find("TM201")}) != shared);
  // Once no linter holds it, the next one builds its own.
  std::weak_ptr<const Prefilter> released = shared;
  shared.reset();
  CHECK(released.expired());
  CHECK(first.prefilter(python)->candidates("torch.export.export(m, x)")[0]);
}

TEST_CASE("in Python, a word trigger in a comment or a prose string admits nothing") {
  RuleSpec jit = rule({"jit.script", "import script"});
  Prefilter prefilter({&jit});
  auto fires = [&](std::string_view text) -> bool { return prefilter.candidates(text, WordPlacesOf::Python)[0]; };
  CHECK_FALSE(fires("# use torch.jit.script here\nx = 1\n"));
  CHECK_FALSE(fires("raise RuntimeError('torch.jit.script not supported')\n"));
  CHECK(fires("# torch.jit.script\nm = torch.jit.script(m)\n"));
  CHECK(fires("from torch.jit import script\n"));
  // Other texts (build files, C++) are read as they are.
  CHECK(prefilter.candidates("# torch.jit.script\n")[0]);
}

TEST_CASE("TorchScript rules need an entry point, not any import from torch.jit") {
  const Catalog& catalog = Catalog::builtin();
  for (const char* code : {"TM312", "TM320"}) {
    INFO(code);
    Prefilter prefilter({catalog.find(code)});
    auto fires = [&](std::string_view text) -> bool { return prefilter.candidates(text, WordPlacesOf::Python)[0]; };
    CHECK(fires("from torch.jit import script\n"));
    CHECK(fires("from torch.jit import load as load_scripted\n"));
    CHECK(fires("from torch.jit import Final, trace\n"));
    CHECK(fires("from torch.jit import (\n    Final,\n    save,\n)\n"));
    CHECK(fires("from torch.jit import *\n"));
    CHECK(fires("import torch.jit as tj\n"));
    CHECK(fires("m = torch.jit.trace_module(m, inputs)\n"));
    CHECK_FALSE(fires("from torch.jit import Final\n"));
    CHECK_FALSE(fires("if not torch.jit.is_scripting():\n    pass\n"));
    CHECK_FALSE(fires("from pickle import load\n"));
  }
}
