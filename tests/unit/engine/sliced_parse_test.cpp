// SPDX-License-Identifier: MIT
// A file that only checks accepting a slice admit is parsed in the statements they need
// (python/statement_slice.hpp). What users read (messages, ranges, fixes) must be what a parse
// of the whole file gives, through aliases, shadowing names and compatibility guards.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {

struct Findings {
  std::vector<std::string> findings;  // code, range, message, each fix's title and fixed text
  size_t syntax_errors = 0;
};

// With `slice` off the prefilter is off too, and every file is parsed whole.
Findings lint(const std::string& code, const std::string& text, bool slice) {
  Settings settings;
  settings.min_torch = TorchVersion::parse("2.7");
  settings.target = TorchVersion::parse("2.9");
  settings.selection.select = {code};
  settings.prefilter = slice;
  Linter linter(Catalog::builtin(), checks::builtin_registry(), settings);
  Findings out;
  for (const Diagnostic& diagnostic : linter.lint(SourceFile("train.py", text, Language::Python))) {
    if (diagnostic.code == kParseErrorCode) {
      ++out.syntax_errors;
      continue;
    }
    std::string line = diagnostic.code + " " + std::to_string(diagnostic.range.start) + "-" +
                       std::to_string(diagnostic.range.end) + " " + diagnostic.message;
    for (const Fix& fix : diagnostic.fixes) line += "\n  fix: " + fix.title + "\n" + apply_edits(text, fix.edits);
    out.findings.push_back(line);
  }
  return out;
}

// Functions the slice leaves out; one holds Python 2 code, which only a whole parse reports.
std::string filler() {
  std::string out = "def legacy():\n    print \"python 2\"\n";
  for (int i = 0; i < 24; ++i) {
    out += "def helper" + std::to_string(i) + "(value):\n    total = value * 2\n    return total + 1\n";
  }
  return out;
}

enum class Parsed { Sliced, Whole };

// The sliced findings, checked against the whole file's; the slice must have been kept (or, for
// a fix that reads beyond its statement, given way to a whole parse).
std::vector<std::string> sliced_findings(const std::string& code, const std::string& body,
                                         Parsed parsed = Parsed::Sliced) {
  std::string text = body + filler();
  Findings sliced = lint(code, text, true);
  Findings whole = lint(code, text, false);
  CHECK(sliced.findings == whole.findings);
  CHECK(sliced.syntax_errors == (parsed == Parsed::Sliced ? 0 : 1));
  CHECK(whole.syntax_errors == 1);
  return sliced.findings;
}

}  // namespace

TEST_CASE("A sliced parse finds what a whole parse finds: TF32 settings (TM309)") {
  std::vector<std::string> findings = sliced_findings("TM309",
                                                      R"py(import torch
def main(args):
    setup(args)
    if args.allow_tf32:
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
)py");
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].starts_with("TM309 77-114 `torch.backends.cuda.matmul.allow_tf32` is a legacy TF32 setting"));
  CHECK(findings[0].find("\n  fix: On torch >= 2.9 only: set `fp32_precision = \"tf32\"` instead") !=
        std::string::npos);
  CHECK(findings[0].find("        torch.backends.cuda.matmul.fp32_precision = \"tf32\"\n") != std::string::npos);
  CHECK(findings[1].starts_with("TM309 130-161 `torch.backends.cudnn.allow_tf32` is a legacy TF32 setting"));
}

TEST_CASE("A sliced parse follows aliases kept code does not use, which fixes spell names through") {
  std::vector<std::string> findings = sliced_findings("TM309",
                                                      R"py(import torch
matmul = torch.backends.cuda.matmul
def main():
    print('start')
    torch.backends.cuda.matmul.allow_tf32 = False
)py");
  REQUIRE(findings.size() == 1);
}

TEST_CASE("A sliced parse keeps the guards and the bindings that decide a finding") {
  std::vector<std::string> findings = sliced_findings("TM309",
                                                      R"py(import torch
from packaging import version
def early_version():
    print('early')
    if version.parse(torch.__version__) >= version.parse('2.9'):
        log('new')
        return
    torch.backends.cuda.matmul.allow_tf32 = True
def early_feature():
    print('early')
    if hasattr(torch.backends.cuda.matmul, 'fp32_precision'):
        return
    torch.backends.cuda.matmul.allow_tf32 = True
def branch():
    if hasattr(torch.backends.cuda.matmul, 'fp32_precision'):
        log('new API')
        torch.backends.cuda.matmul.fp32_precision = 'tf32'
    else:
        torch.backends.cuda.matmul.allow_tf32 = True
def rebound(make_fake):
    print('start')
    torch = make_fake()
    torch.backends.cuda.matmul.allow_tf32 = True
def plain():
    torch.backends.cuda.matmul.allow_tf32 = True
)py");
  // Every guarded setting is compatibility code, and in `rebound` `torch` is a local name: only
  // `plain` sets torch's own switch.
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].starts_with("TM309 751-788 "));
}

TEST_CASE("A sliced parse finds TorchScript through imports, aliases and modules (TM312)") {
  std::vector<std::string> findings = sliced_findings("TM312",
                                                      R"py(import torch
import torch.jit as J
from torch.jit import script as s
def export(model, path):
    log('export')
    trace = torch.jit.trace
    traced = trace(model)
    J.save(s(model), path)
def shadowed(make):
    s = make()
    return s(1)
)py");
  // The alias's value, `J.save` and `s(model)`; not the local `s`.
  REQUIRE(findings.size() == 3);
  CHECK(findings[0].starts_with("TM312 124-139 `torch.jit.trace` is TorchScript"));
  CHECK(findings[1].starts_with("TM312 170-176 `torch.jit.save` is TorchScript"));
  CHECK(findings[2].starts_with("TM312 177-178 `torch.jit.script` is TorchScript"));
}

TEST_CASE("A fix that reads beyond its statement is made from a whole parse") {
  // Deleting a setting reads the statements around it; unwrapping a `with` reads its whole block.
  std::vector<std::string> deleted = sliced_findings("TM113", R"py(import torch
def setup():
    torch._inductor.config.disable_decompose_k = False
    compile_model()
)py",
                                                     Parsed::Whole);
  REQUIRE(deleted.size() == 1);
  CHECK(deleted[0].find("def setup():\n    compile_model()\n") != std::string::npos);
  std::vector<std::string> unwrapped = sliced_findings("TM113", R"py(import torch
def run(model, x):
    with torch._inductor.config.patch(disable_decompose_k=False):
        compiled = torch.compile(model)
        out = compiled(x)
    return out
)py",
                                                       Parsed::Whole);
  REQUIRE(unwrapped.size() == 1);
  CHECK(unwrapped[0].find("    compiled = torch.compile(model)\n    out = compiled(x)\n    return out\n") !=
        std::string::npos);
}

TEST_CASE("A sliced parse keeps one-line imports, exits and the branches a feature test reads") {
  std::vector<std::string> script = sliced_findings("TM312", R"py(import sys
if sys.platform != "win32": import torch.jit as tj
def export(model):
    return tj.script(model)
)py");
  CHECK(script.size() == 1);
  std::vector<std::string> tf32 = sliced_findings("TM309", R"py(import torch
def call_then_return(torch_version):
    if torch_version >= (2, 9):
        print("using the new TF32 API")
        set_precision("tf32"); return
    torch.backends.cuda.matmul.allow_tf32 = True
def else_return(torch_version):
    if torch_version < (2, 9):
        print("legacy TF32 switch")
    else: return
    torch.backends.cuda.matmul.allow_tf32 = True
def marker_in_finally():
    try:
        torch.backends.cuda.matmul.allow_tf32 = True
    except AttributeError:
        pass
    finally:
        print("TF32 configured")
        use_fp32_precision_api = False
def other_branch():
    if not hasattr(torch, "set_float32_matmul_precision"):
        torch.backends.cuda.matmul.allow_tf32 = True
    else:
        torch.set_float32_matmul_precision("high")
def plain():
    torch.backends.cuda.matmul.allow_tf32 = True
)py");
  // Each guarded setting is compatibility code: only `plain`'s is reported.
  REQUIRE(tf32.size() == 1);
  CHECK(tf32[0].starts_with("TM309 796-833 "));
}
