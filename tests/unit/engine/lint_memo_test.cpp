// SPDX-License-Identifier: MIT
// An editor's lint that re-checks only the edited statement must find exactly what a full lint
// of the same text finds: random typing (and undoing) in the fixtures of the statement-local
// rules, each state linted both ways.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;
namespace fs = std::filesystem;

namespace {

std::string describe(const std::vector<Diagnostic>& diagnostics) {
  std::ostringstream out;
  for (const Diagnostic& diagnostic : diagnostics) {
    out << diagnostic.code << ' ' << diagnostic.range.start << '-' << diagnostic.range.end << ' '
        << to_string(diagnostic.severity) << ' ' << diagnostic.message << '\n';
    for (const Fix& fix : diagnostic.fixes) {
      out << "  fix " << fix.title << ' ' << to_string(fix.applicability) << ' ' << to_string(fix.policy) << '\n';
      for (const Edit& edit : fix.edits) {
        out << "    " << edit.range.start << '-' << edit.range.end << ' ' << edit.replacement << '\n';
      }
    }
  }
  return out.str();
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What a user may type inside a line: characters that open or close constructs, keywords.
const std::vector<std::string> kTyped = {"z", " ", "#", "(", ")", ":", "strict=True, ", "\n", "torch.", "None"};
// Whole lines, written at another line's indentation: new statements, guards, suppressions and
// names that shadow or re-import what the rules look for.
const std::vector<std::string> kLines = {"x = 1",
                                         "import torch",
                                         "export = print",
                                         "from torch.export import export",
                                         "import torch.onnx as onnx",
                                         "if torch.__version__ >= '2.8':\n{indent}    pass",
                                         "# noqa: TM201",
                                         "torch.export.export(m, (x,))  # noqa: TM201",
                                         "def helper(): return torch.onnx.export(m, x, f)",
                                         "from torch import segment_reduce",
                                         "segment_reduce = print",
                                         "torch.tensordot(a, b, dims=1, out=c)",
                                         "DLDeviceType = None",
                                         "from torch.utils.dlpack import DLDeviceType",
                                         "import torch.mps",
                                         "device = torch.device('mps')",
                                         "import torch.ao.quantization as tq",
                                         "tq.prepare(m)",
                                         "from torch.ao.quantization import QConfig",
                                         "QConfig.from_dict(d)",
                                         "from torch.ao.quantization.quantize_pt2e import prepare_pt2e"};

// A document being typed in. Its tree borrows `text`, so a state is built in place and never
// moved: a moved short string would leave the tree reading freed memory.
struct Typing {
  explicit Typing(std::string initial) : text(std::move(initial)), tree(python::SyntaxTree::parse(text)) {}
  Typing(const Typing&) = delete;
  Typing& operator=(const Typing&) = delete;

  std::string text;
  python::SyntaxTree tree;
  engine::LintMemo memo;
  TextRange last_inserted;
  std::string last_removed;
};

void replace(Typing& state, TextRange replaced, const std::string& replacement) {
  state.tree.edit(state.text, replaced, replacement);
  state.last_removed = state.text.substr(replaced.start, replaced.end - replaced.start);
  state.text.replace(replaced.start, replaced.end - replaced.start, replacement);
  state.last_inserted = {replaced.start, static_cast<uint32_t>(replaced.start + replacement.size())};
  state.tree.reparse(state.text);
}

size_t char_boundary(const std::string& text, size_t at) {
  while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
  return at;
}

// One random edit: typing inside a line, deleting a few characters, or a new line of code at
// the indentation of the line it goes before.
void type_once(Typing& state, std::mt19937& random) {
  const std::string& text = state.text;
  size_t at = char_boundary(text, std::uniform_int_distribution<size_t>(0, text.size())(random));
  switch (random() % 3) {
    case 0:
      replace(state, {static_cast<uint32_t>(at), static_cast<uint32_t>(at)}, kTyped[random() % kTyped.size()]);
      return;
    case 1: {
      size_t end = char_boundary(text, std::min(text.size(), at + 1 + random() % 3));
      replace(state, {static_cast<uint32_t>(at), static_cast<uint32_t>(end)}, "");
      return;
    }
    default: {
      size_t line = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;
      if (line > text.size()) line = 0;
      std::string indent = text.substr(line, text.find_first_not_of(" \t", line) - line);
      if (indent.find('\n') != std::string::npos) indent.clear();
      std::string code = kLines[random() % kLines.size()];
      for (size_t hole = code.find("{indent}"); hole != std::string::npos; hole = code.find("{indent}")) {
        code.replace(hole, 8, indent);
      }
      replace(state, {static_cast<uint32_t>(line), static_cast<uint32_t>(line)}, indent + code + "\n");
    }
  }
}

// Takes the last edit back, as an editor's undo does.
void undo(Typing& state) {
  std::string removed = state.last_removed;
  replace(state, state.last_inserted, removed);
}

// The built-in catalog with default settings, shared by the tests (building it is not free).
const engine::Linter& default_linter() {
  static const engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), {});
  return linter;
}

// Lints the state with its memo and whole, checks that both agree, and returns the findings.
std::string lint_both(const engine::Linter& linter, Typing& state) {
  SourceFile file("m.py", state.text, Language::Python);
  std::string remembered = describe(linter.lint(file, state.tree, {}, &state.memo));
  CHECK(remembered == describe(linter.lint(file, state.tree)));
  return remembered;
}

// Replaces the first `from` in the state's text with `to`.
void edit(Typing& state, const std::string& from, const std::string& to) {
  size_t at = state.text.find(from);
  REQUIRE(at != std::string::npos);
  replace(state, {static_cast<uint32_t>(at), static_cast<uint32_t>(at + from.size())}, to);
}

}  // namespace

TEST_CASE("Re-checking only the edited statement finds what a full lint finds") {
  const engine::Linter& linter = default_linter();
  std::vector<fs::path> sources;
  // The rules of the statement-local families: missing-keyword, segment-reduce,
  // renamed-enum-member, tensordot-out, mps-use, and deprecated-module-tree in files without
  // its moved module.
  for (const char* rule : {"TM201", "TM202", "TM302", "TM108", "TM109", "TM305", "TM306", "TM301", "TM221", "TM129"}) {
    for (const auto& entry :
         fs::directory_iterator(fs::path(TORCHMIGRATE_SOURCE_DIR) / "tests/fixtures/python" / rule)) {
      if (entry.path().extension() == ".py") sources.push_back(entry.path());
    }
  }
  std::sort(sources.begin(), sources.end());
  REQUIRE(sources.size() >= 10);
  uint64_t reuses = 0;
  uint64_t renames = 0;
  uint64_t reuses_with_errors = 0;
  std::mt19937 random(20261201);
  for (size_t index = 0; index < sources.size(); ++index) {
    const fs::path& source = sources[index];
    // Every other file keeps its syntax errors for a while; the others' are taken back at once.
    const bool keeps_errors = index % 2 == 1;
    std::string text = read(source);
    Typing state(text);
    for (int step = 0; step < 80; ++step) {
      // Edits pile up; one in four is taken back, and one that breaks the syntax at once or,
      // in every other file, half the time.
      bool broken = state.tree.first_error().has_value();
      if (step > 0 && (broken ? !keeps_errors || random() % 2 == 0 : random() % 4 == 0)) {
        undo(state);
      } else if (step > 0) {
        type_once(state, random);
      }
      SourceFile file(source.filename().string(), state.text, Language::Python);
      uint64_t before = state.memo.reuses;
      std::string remembered = describe(linter.lint(file, state.tree, {}, &state.memo));
      if (state.memo.reuses > before && state.tree.first_error()) ++reuses_with_errors;
      // The same tree both ways: after a syntax error, tree-sitter's incremental re-parse may
      // recover differently from a parse from scratch, which is not what is tested here.
      std::string full = describe(linter.lint(file, state.tree));
      INFO(source.filename().string() << " after " << step << " edits:\n" << state.text);
      REQUIRE(remembered == full);
    }
    reuses += state.memo.reuses;
    renames += state.memo.renames;
  }
  // The shortcut was taken often enough, with and without a syntax error in the edited
  // statement, for the comparison to mean something.
  INFO(reuses << " reuses, " << renames << " of them after a rename, " << reuses_with_errors << " with errors");
  CHECK(reuses >= 300);
  CHECK(renames >= 50);
  CHECK(reuses_with_errors >= 50);
}

TEST_CASE("An edit that changes what other statements mean re-checks them all") {
  const engine::Linter& linter = default_linter();
  const std::string text =
      "import torch\n\nif torch.__version__ < \"2.8\":\n    raise ImportError(\"needs torch 2.8\")\n\n"
      "export = torch.export.export\n\n\ndef run(m, x):\n    return export(m, (x,))\n";
  Typing state(text);
  // Code after the early exit runs on torch 2.8 only: nothing to report.
  CHECK(lint_both(linter, state).empty());
  // The exit is gone: the call after it now runs on 2.7 as well.
  edit(state, "raise ImportError", "print");
  CHECK(lint_both(linter, state).find("TM201") != std::string::npos);
  // `export` no longer names torch's.
  edit(state, "export = torch.export.export", "export = print");
  CHECK(lint_both(linter, state).empty());
  // Inside the function only: the shortcut, with the same answer.
  edit(state, "export = print", "export = torch.export.export");
  CHECK(lint_both(linter, state).find("TM201") != std::string::npos);
  uint64_t before = state.memo.reuses;
  edit(state, "return export(m, (x,))", "return export(m, (x, x))");
  CHECK(lint_both(linter, state).find("TM201") != std::string::npos);
  CHECK(state.memo.reuses == before + 1);
  // A syntax error inside the function: still one statement, reported fresh each time.
  edit(state, "return export", "return = export");
  std::string broken = lint_both(linter, state);
  INFO(broken);
  CHECK(broken.find("TM901") != std::string::npos);
  CHECK(state.memo.reuses == before + 2);
  edit(state, "return = export", "return export");
  CHECK(lint_both(linter, state).find("TM901") == std::string::npos);
}

TEST_CASE("An edit that splits or joins statements re-checks all it touched") {
  const engine::Linter& linter = default_linter();
  Typing state("import torch\n\n\ndef run(m, x):\n    return torch.export.export(m, (x,))\n\n\nrun(m, x)\n");
  lint_both(linter, state);
  // One statement becomes two, each with a finding; then they are one again.
  edit(state, "def run(m, x):\n    return torch.export.export(m, (x,))",
       "torch.export.export(m, (x,))\ntorch.export.export(n, (y,))");
  std::string split = lint_both(linter, state);
  CHECK(split.find("TM201") != split.rfind("TM201"));
  CHECK(state.memo.reuses == 1);
  edit(state, "(x,))\ntorch", "(x,)); torch");
  lint_both(linter, state);
  CHECK(state.memo.reuses == 2);
}

TEST_CASE("A renamed module-level name re-checks the statements that spell it") {
  const engine::Linter& linter = default_linter();
  Typing state(
      "import torch\nfrom torch.export import export\n\n\ndef run(m, x):\n    return export(m, (x,))\n\n\n"
      "def other(m):\n    return m\n");
  CHECK(lint_both(linter, state).find("TM201") != std::string::npos);
  // `export` is no longer torch's: `run` is checked again, `other` is not.
  edit(state, "import export", "import export as exported");
  CHECK(lint_both(linter, state).find("TM201") == std::string::npos);
  CHECK(state.memo.reuses == 1);
  CHECK(state.memo.renames == 1);
  // A def renamed to the imported name shadows it for the statements after it.
  edit(state, "import export as exported", "import export");
  CHECK(lint_both(linter, state).find("TM201") != std::string::npos);
  edit(state, "def other", "def export");
  CHECK(lint_both(linter, state).find("TM201") == std::string::npos);
  CHECK(state.memo.renames == 3);
}

TEST_CASE("A renamed name spelled as a method or an attribute re-checks no more") {
  const engine::Linter& linter = default_linter();
  Typing state(
      "import torch\n\n\ndef forward(m, x):\n    return torch.export.export(m, (x,))\n\n\n"
      "class A:\n    def forward(self, x):\n        return self.forward(x)\n\n\n"
      "class B(A):\n    def forward(self, x):\n        return super(). forward(x)\n\n\nforward(m, x)\n");
  lint_both(linter, state);
  // The def and the call that uses it; not the classes, which name only their own methods.
  edit(state, "def forward(m", "def forwarded(m");
  lint_both(linter, state);
  CHECK(state.memo.renames == 1);
  CHECK(state.memo.rechecked == 2);
}

TEST_CASE("A renamed name that a guard spells re-checks every statement") {
  const engine::Linter& linter = default_linter();
  Typing state(
      "import torch\nimport torch as T\n\nif T.__version__ < \"2.8\":\n    raise ImportError(\"needs torch 2.8\")\n\n"
      "from torch.export import export\n\n\ndef run(m, x):\n    return export(m, (x,))\n");
  CHECK(lint_both(linter, state).empty());
  // The early exit no longer tests torch's version, so `run` (which does not spell `T`) now
  // runs on 2.7 as well.
  edit(state, "import torch as T", "import numpy as T");
  CHECK(lint_both(linter, state).find("TM201") != std::string::npos);
  CHECK(state.memo.reuses == 0);
}

TEST_CASE("A binding that moves into a branch re-checks every statement") {
  const engine::Linter& linter = default_linter();
  const std::string text =
      "import torch\n\nexport = print\nwith ctx:\n    export = torch.export.export\n\nexport(m, (x,))\n";
  Typing state(text);
  // After the `with`, `export` is torch's: reported, with fixes.
  std::string certain = lint_both(linter, state);
  CHECK(certain.find("fix Add") != std::string::npos);
  // In a `case` the binding may not run: `export` may still be `print`. Same names, same kinds,
  // but the use in another statement now reads differently.
  std::string_view with = "with ctx:\n    export";
  size_t at = state.text.find(with);
  replace(state, {static_cast<uint32_t>(at), static_cast<uint32_t>(at + with.size())},
          "match ctx:\n    case _:\n        export");
  std::string uncertain = lint_both(linter, state);
  CHECK(uncertain.find("uncertain") != std::string::npos);
  CHECK(uncertain.find("fix Add") == std::string::npos);
}

TEST_CASE("TM301 re-checks one statement unless its moved module is spelled") {
  const engine::Linter& linter = default_linter();
  const std::string text =
      "import torch\nfrom torch.ao.quantization import QConfig\n\n\ndef build(d):\n    return "
      "QConfig.from_dict(d)\n\n\n"
      "def run(m):\n    return torch.ao.quantization.prepare(m)\n";
  Typing state(text);
  lint_both(linter, state);
  // An edit inside one function: the other's findings are kept, not recomputed.
  edit(state, "prepare(m)", "prepare(m, inplace=True)");
  CHECK(lint_both(linter, state).find("torch.ao.quantization.prepare") != std::string::npos);
  CHECK(state.memo.reuses == 1);
  // The class imported by name is reported at its import only; imported as a module member
  // under the same name and meaning, its use is a use of the deprecated tree again.
  size_t at_use = state.text.find("QConfig.from_dict");
  CHECK(lint_both(linter, state).find(std::to_string(at_use) + "-") == std::string::npos);
  edit(state, "from torch.ao.quantization import QConfig", "import torch.ao.quantization.QConfig as QConfig");
  CHECK(lint_both(linter, state).find(std::to_string(state.text.find("QConfig.from_dict")) + "-") != std::string::npos);
  // Spelling the moved module makes every statement depend on the others: no shortcut.
  uint64_t before = state.memo.reuses;
  edit(state, "import torch\n", "import torch\nimport torch.ao.quantization.quantize_pt2e as qp\n");
  lint_both(linter, state);
  edit(state, "inplace=True", "inplace=False");
  lint_both(linter, state);
  CHECK(state.memo.reuses == before);
}
