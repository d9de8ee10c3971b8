// SPDX-License-Identifier: MIT
// Format names and dispatch, plus the helpers several formats share (summary, paths, names).
#include "torchmigrate/output/report.hpp"

#include <array>
#include <filesystem>
#include <stdexcept>

#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/run/baseline.hpp"
#include "torchmigrate/output/headline.hpp"
#include "torchmigrate/output/style.hpp"

namespace torchmigrate::output {

// The names live with the configuration that also accepts them; Format follows their order.
static_assert(engine::kOutputFormatNames.size() == static_cast<size_t>(Format::Html) + 1);
static_assert(engine::kOutputFormatNames[static_cast<size_t>(Format::Html)] == "html");

const std::vector<std::string>& format_names() {
  static const std::vector<std::string> names(engine::kOutputFormatNames.begin(), engine::kOutputFormatNames.end());
  return names;
}

Format parse_format(std::string_view name) {
  for (size_t i = 0; i < engine::kOutputFormatNames.size(); ++i) {
    if (engine::kOutputFormatNames[i] == name) return static_cast<Format>(i);
  }
  throw std::invalid_argument("unknown output format `" + std::string(name) +
                              "`; expected one of: " + engine::output_format_choices());
}

std::string report_path(const Report& report, const SourceFile& file) {
  return engine::root_relative(file.path(), {report.base, report.root});
}

std::string rule_name(const Report& report, std::string_view code) {
  if (report.catalog != nullptr) {
    if (const engine::RuleSpec* rule = report.catalog->find(code)) return rule->name;
  }
  if (code == kIoErrorCode) return "io-error";
  if (code == kParseErrorCode) return "parse-error";
  if (code == kInternalErrorCode) return "internal-error";
  return std::string(code);
}

bool fixable(const Diagnostic& diagnostic, const engine::Settings& settings) {
  const Fix* fix = engine::chosen_fix(diagnostic, settings);
  return fix != nullptr && !fix->edits.empty() && engine::will_apply(*fix, settings);
}

namespace {

// "1 error, 2 warnings, 1 info": the nonzero counts, most severe first.
std::string severity_breakdown(const std::array<size_t, 3>& counts) {
  static constexpr const char* kSingular[] = {"error", "warning", "info"};
  std::string text;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    if (!text.empty()) text += ", ";
    // "info" is uncountable.
    text += i == 2 ? std::to_string(counts[i]) + " info" : plural(counts[i], kSingular[i]);
  }
  return text;
}

}  // namespace

void write_summary(const Report& report, std::ostream& out) {
  if (!report.summary) return;
  Headline headline = compute_headline(report);
  size_t total = headline.findings, fixable_now = headline.fixable_now, unsafe_hidden = headline.unsafe_hidden;
  // Ruff says "Found N errors" for everything; here that wording is kept only when it is true,
  // and warnings and infos are counted as such. The severity of what --fix removed is no longer
  // known, so a fix run counts "findings".
  bool all_errors = headline.by_severity[0] == total;
  size_t fixed = headline.fixed;
  if (total == 0 && fixed == 0) {
    out << "All checks passed!\n";
    return;
  }
  if (report.fix_mode && fixed > 0) {
    out << "Found " << plural(total + fixed, "finding") << " (" << fixed << " fixed, " << total << " remaining";
    if (total > 0) out << ": " << severity_breakdown(headline.by_severity);
    out << ").\n";
  } else if (all_errors) {
    out << "Found " << plural(total, "error") << ".\n";
  } else {
    out << "Found " << plural(total, "finding") << " (" << severity_breakdown(headline.by_severity) << ").\n";
  }
  if (fixable_now > 0) {
    out << styled(report, Style::FixMarker, "[*]") << ' ' << fixable_now << " fixable with the `--fix` option";
    if (unsafe_hidden > 0) {
      out << " (" << unsafe_hidden << " hidden fix" << (unsafe_hidden == 1 ? "" : "es")
          << " can be enabled with the `--unsafe-fixes` option)";
    }
    out << ".\n";
  } else if (unsafe_hidden > 0) {
    out << "No fixes available (" << unsafe_hidden << " hidden fix" << (unsafe_hidden == 1 ? "" : "es")
        << " can be enabled with the `--unsafe-fixes` option).\n";
  }
}

void write(Format format, const Report& report, std::ostream& out) {
  switch (format) {
    case Format::Concise: write_concise(report, out); break;
    case Format::Full: write_full(report, out); break;
    case Format::Grouped: write_grouped(report, out); break;
    case Format::Pylint: write_pylint(report, out); break;
    case Format::Json: write_json(report, out); break;
    case Format::JsonLines: write_json_lines(report, out); break;
    case Format::Rdjson: write_rdjson(report, out); break;
    case Format::Sarif: write_sarif(report, out); break;
    case Format::Github: write_github(report, out); break;
    case Format::Gitlab: write_gitlab(report, out); break;
    case Format::Junit: write_junit(report, out); break;
    case Format::Markdown: write_markdown(report, out); break;
    case Format::Html: write_html(report, out); break;
  }
}

}  // namespace torchmigrate::output
