// SPDX-License-Identifier: MIT
// How fast the language server re-publishes diagnostics while a user types in a 5,000-line
// Python file: the time from a didChange to its publishDiagnostics (incremental re-parse and
// lint), printed next to the time of a full re-lint (parse from scratch and lint).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/lsp/server.hpp"

using namespace torchmigrate;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kLines = 5000;
constexpr int kEdits = 200;

// A plausible model file: imports, classes, functions, and an export call every 40 lines.
std::string generate_source() {
  std::string text = "import torch\nimport torch.nn as nn\nfrom torch.export import export\n\n";
  int line = 4;
  for (int block = 0; line < kLines; ++block) {
    std::string n = std::to_string(block);
    std::string chunk = "class Block" + n + "(nn.Module):\n"
                        "    def __init__(self, width):\n"
                        "        super().__init__()\n"
                        "        self.linear = nn.Linear(width, width)\n"
                        "        self.scale = " + n + " * 0.5\n"
                        "\n"
                        "    def forward(self, x):\n"
                        "        y = self.linear(x) * self.scale\n"
                        "        return torch.relu(y) + x\n"
                        "\n"
                        "\n"
                        "def build_" + n + "(width=64):\n"
                        "    model = Block" + n + "(width)\n"
                        "    sample = torch.randn(2, width)\n"
                        "    values = [model(sample) for _ in range(3)]\n"
                        "    total = sum(v.sum() for v in values)\n"
                        "    if total > 0:\n"
                        "        return model, sample\n"
                        "    return model, -sample\n"
                        "\n"
                        "\n"
                        "def export_" + n + "():\n"
                        "    model, sample = build_" + n + "()\n"
                        "    program = export(model, (sample,))\n"
                        "    other = torch.export.export(model, (sample,), strict=True)\n"
                        "    return program, other\n"
                        "\n"
                        "\n"
                        "# Block " + n + " keeps its numbers stable for the tests below.\n"
                        "CONSTANTS_" + n + " = {\n"
                        "    'a': 1,\n"
                        "    'b': 2,\n"
                        "    'c': [1, 2, 3],\n"
                        "    'd': {'x': 1.0, 'y': 2.0},\n"
                        "}\n"
                        "\n"
                        "\n"
                        "def helper_" + n + "(items):\n"
                        "    return [item * 2 for item in items if item]\n"
                        "\n";
    text += chunk;
    line += 40;
  }
  return text;
}

std::string json_string(const std::string& text) { return nlohmann::json(text).dump(); }

double milliseconds(Clock::duration duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

double percentile(std::vector<double> values, double fraction) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(fraction * static_cast<double>(values.size() - 1))];
}

// One timed edit: how long it took, which edit, and on which line.
struct Timed {
  double ms;
  int edit;
  int line;
};

// The edit timings: each edit's, each by the kind of line it typed into, and the slowest.
struct EditTimes {
  std::vector<double> by_kind[3];
  std::vector<double> per_edit;
  std::vector<Timed> slowest;
};

const char* const kKindNames[] = {"inside a body", "blank line", "module-level name or comment"};

std::vector<std::string> split_lines(const std::string& source) {
  std::vector<std::string> lines;
  for (size_t start = 0; start < source.size();) {
    size_t end = source.find('\n', start);
    lines.push_back(source.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

int line_kind(const std::vector<std::string>& lines, int line) {
  const std::string& text = lines[static_cast<size_t>(line)];
  if (text.empty()) return 1;
  return text[0] == ' ' ? 0 : 2;
}

// The didChange of edit `i`: insert a `z` at `column` of `line`, or delete it again.
std::string did_change(int i, int line, size_t column, bool insert) {
  std::string range = R"({"start":{"line":)" + std::to_string(line) + R"(,"character":)" + std::to_string(column) +
                      R"(},"end":{"line":)" + std::to_string(line) + R"(,"character":)" +
                      std::to_string(insert ? column : column + 1) + "}}";
  return R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///bench/model.py","version":)" +
         std::to_string(i + 2) + R"(},"contentChanges":[{"range":)" + range + R"(,"text":")" + (insert ? "z" : "") +
         R"("}]}})";
}

// Typing: insert a character at spread-out lines, then delete it again, one edit per message.
// Each edit is also counted by what its line is: inside a body, a blank line (typing at its
// column 0 inside a class ends the class), or a module-level line (a def, class or constant's
// name, or a comment). False when an edit was not re-published.
template <typename Send>
bool time_edits(Send& send, const size_t& published, const std::vector<std::string>& lines, EditTimes& times) {
  for (int i = 0; i < kEdits; ++i) {
    int line = 7 + (i / 2) * 97 % (kLines - 20);
    bool insert = i % 2 == 0;
    // Column 8, or the end of a shorter line: the deletion takes back exactly what was typed.
    size_t column = std::min<size_t>(8, lines[static_cast<size_t>(line)].size());
    std::string body = did_change(i, line, column, insert);
    size_t before = published;
    Clock::time_point start = Clock::now();
    send(body);
    times.per_edit.push_back(milliseconds(Clock::now() - start));
    times.by_kind[line_kind(lines, line)].push_back(times.per_edit.back());
    times.slowest.push_back({times.per_edit.back(), i, line});
    if (published != before + 1) {
      std::fprintf(stderr, "edit %d was not re-published\n", i);
      return false;
    }
  }
  return true;
}

// The same file linted from scratch each time, as a server without incremental parsing would.
// False when a lint disagrees with the server's `findings`.
bool time_full_lints(const std::string& source, size_t findings, std::vector<double>& full) {
  engine::Linter linter(engine::Catalog::builtin(), checks::builtin_registry(), {});
  for (int i = 0; i < 20; ++i) {
    Clock::time_point start = Clock::now();
    SourceFile file("model.py", source, Language::Python);
    std::vector<Diagnostic> diagnostics = linter.lint(file);
    full.push_back(milliseconds(Clock::now() - start));
    if (diagnostics.size() != findings) {
      std::fprintf(stderr, "full lint found %zu findings, the server %zu\n", diagnostics.size(), findings);
      return false;
    }
  }
  return true;
}

void print_report(const std::string& source, size_t findings, const std::vector<std::string>& lines, EditTimes& times,
                  const std::vector<double>& full) {
  const std::vector<double>& per_edit = times.per_edit;
  double edit_median = percentile(per_edit, 0.5);
  double full_median = percentile(full, 0.5);
  std::printf("file: %d lines, %zu bytes, %zu findings\n", kLines, source.size(), findings);
  std::printf("per edit (didChange -> publishDiagnostics, incremental re-parse): median %.2f ms, p95 %.2f ms, max %.2f ms (%d edits)\n",
              edit_median, percentile(per_edit, 0.95), percentile(per_edit, 1.0), kEdits);
  for (int kind = 0; kind < 3; ++kind) {
    if (times.by_kind[kind].empty()) continue;
    std::printf("  %-29s median %.2f ms, p95 %.2f ms (%zu edits)\n", kKindNames[kind],
                percentile(times.by_kind[kind], 0.5), percentile(times.by_kind[kind], 0.95),
                times.by_kind[kind].size());
  }
  // What the p95 is made of: the slowest edits and what they typed into.
  std::vector<Timed>& slowest = times.slowest;
  std::sort(slowest.begin(), slowest.end(), [](const Timed& a, const Timed& b) { return a.ms > b.ms; });
  std::printf("  slowest edits:\n");
  for (size_t i = 0; i < 5 && i < slowest.size(); ++i) {
    std::printf("    %6.2f ms  %s at line %d: \"%s\"\n", slowest[i].ms, slowest[i].edit % 2 == 0 ? "typed" : "deleted",
                slowest[i].line + 1, lines[static_cast<size_t>(slowest[i].line)].c_str());
  }
  std::printf("full re-lint (parse from scratch + lint):                        median %.2f ms\n", full_median);
  std::printf("full re-lint / per edit: %.1fx\n", full_median / edit_median);
}

}  // namespace

int main() {
  std::string source = generate_source();
  size_t published = 0;
  size_t last_count = 0;
  lsp::Server server(
      [&](const nlohmann::json& message) {
        if (message.value("method", "") == "textDocument/publishDiagnostics") {
          ++published;
          last_count = message["params"]["diagnostics"].size();
        }
      },
      engine::Catalog::builtin(), checks::builtin_registry());
  auto send = [&](const std::string& body) { server.handle(lsp::parse_message(body)); };
  send(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"rootUri":"file:///bench"}})");
  send(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  send(
      R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///bench/model.py","languageId":"python","version":1,"text":)" +
      json_string(source) + "}}}");
  size_t findings = last_count;

  std::vector<std::string> lines = split_lines(source);
  EditTimes times;
  if (!time_edits(send, published, lines, times)) return 1;
  std::vector<double> full;
  if (!time_full_lints(source, findings, full)) return 1;
  print_report(source, findings, lines, times, full);
  return 0;
}
