// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/catalog/internal_codes.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>

namespace torchmigrate::engine {
namespace {

RuleDocs docs_of(std::string what, std::string why, std::string limitations) {
  RuleDocs docs;
  docs.what = std::move(what);
  docs.why = std::move(why);
  docs.limitations = std::move(limitations);
  return docs;
}

RuleSpec internal_rule(std::string code, std::string name, std::string summary, Severity severity, RuleDocs docs) {
  RuleSpec rule;
  rule.code = std::move(code);
  rule.name = std::move(name);
  rule.summary = std::move(summary);
  rule.severity = severity;
  rule.default_enabled = true;
  rule.kind = RuleKind::Build;
  rule.impact = RuleImpact::Tooling;
  rule.lazy_docs = std::make_shared<const LazyDocs>(std::move(docs));
  return rule;
}

constexpr std::string_view kSelecting =
    "Reported whatever `select` says. `ignore = [\"{}\"]` (or `--ignore {}`, or a `per-file-ignores` entry) leaves "
    "these notes out of the report and the exit code; `# noqa: {}` on the line, or `# torchmigrate: noqa: "
    "{}` anywhere in the file, suppresses one. A bare `# noqa` does not: a file that was not checked should "
    "not pass by accident.";

std::string selecting(std::string_view code) {
  std::string text(kSelecting);
  for (size_t at = text.find("{}"); at != std::string::npos; at = text.find("{}", at + code.size())) {
    text.replace(at, 2, code);
  }
  return text;
}

std::vector<RuleSpec> make_internal_rules() {
  std::vector<RuleSpec> rules;
  rules.push_back(internal_rule(
      kIoErrorCode, "io-error", "A file could not be read, was skipped, or its fixes could not be written",
      Severity::Error,
      docs_of("Reports a file that was not checked or not fixed: it cannot be read, it is not valid UTF-8 or "
              "contains NUL bytes, it is over the size budget (`max-file-size-mb`; a note), a notebook is "
              "malformed, no libclang is installed for C/C++/CUDA files (one note for the run), or its fixes "
              "could not be written (a read-only file: a warning).",
              "The file's findings are unknown: the report says so instead of letting it pass silently. Ruff "
              "reports the same as E902.",
              selecting(kIoErrorCode))));
  rules.push_back(internal_rule(
      kParseErrorCode, "parse-error", "A Python file has a syntax error, or nests too deeply to parse", Severity::Error,
      docs_of("Reports the first syntax error of a Python file (or notebook cell), and a file whose code nests "
              "too deeply to parse, which is skipped.",
              "Findings near a syntax error may be missing, and `--fix` never applies a fix that adds a syntax "
              "error to such a file. Ruff reports syntax errors too, but cannot ignore them.",
              selecting(kParseErrorCode))));
  rules.push_back(internal_rule(
      kInternalErrorCode, "internal-error", "torchmigrate failed on a file: it was skipped, or a fix rolled back",
      Severity::Error,
      docs_of("Reports a file on which torchmigrate itself failed: the file was skipped, or its fixes were "
              "rolled back (a fix that would not apply cleanly, fixes that never settle).",
              "A bug in torchmigrate: please report it with the file, or a reduced copy of it.",
              selecting(kInternalErrorCode))));
  return rules;
}

}  // namespace

const std::vector<RuleSpec>& internal_rules() {
  static const std::vector<RuleSpec> rules = make_internal_rules();
  return rules;
}

const RuleSpec* find_internal_rule(std::string_view code_or_name) {
  std::string upper(code_or_name);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const RuleSpec& rule : internal_rules()) {
    if (rule.code == upper || rule.name == code_or_name) return &rule;
  }
  return nullptr;
}

void drop_deselected_file_problems(std::vector<Diagnostic>& diagnostics, const RuleSelection& selection) {
  // Whatever `select` says, as Ruff's syntax errors: `--select TM2` must not hide that a file
  // was not checked. Only an ignore takes them out.
  RuleSelection ignoring = selection;
  ignoring.select.clear();
  std::erase_if(diagnostics, [&](const Diagnostic& diagnostic) {
    if (!is_internal_code(diagnostic.code)) return false;
    const RuleSpec* rule = find_internal_rule(diagnostic.code);
    return rule != nullptr && !ignoring.enabled(*rule);
  });
}

}  // namespace torchmigrate::engine
