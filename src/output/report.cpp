// SPDX-License-Identifier: MIT
#include "torchmigrate/output/report.hpp"

#include <stdexcept>

#include "torchmigrate/engine/fixer.hpp"

namespace torchmigrate::output {

Format parse_format(std::string_view name) {
  if (name == "concise") return Format::Concise;
  if (name == "full") return Format::Full;
  if (name == "json") return Format::Json;
  throw std::invalid_argument("unknown output format `" + std::string(name) + "`; expected one of: concise, full, json");
}

bool fixable(const Diagnostic& diagnostic, const engine::Settings& settings) {
  const Fix* fix = engine::chosen_fix(diagnostic, settings);
  return fix != nullptr && !fix->edits.empty() && engine::will_apply(*fix, settings);
}

void write_summary(const Report& report, std::ostream& out) {
  size_t total = 0, fixable_now = 0, unsafe_hidden = 0;
  engine::Settings with_unsafe = *report.settings;
  with_unsafe.unsafe_fixes = true;
  for (const FileFindings& findings : report.files) {
    for (const Diagnostic& diagnostic : findings.diagnostics) {
      ++total;
      if (fixable(diagnostic, *report.settings)) {
        ++fixable_now;
      } else if (fixable(diagnostic, with_unsafe)) {
        ++unsafe_hidden;
      }
    }
  }
  if (report.fix_mode) {
    if (total == 0 && report.fixed == 0) {
      out << "All checks passed!\n";
      return;
    }
    out << "Found " << total + report.fixed << " error" << (total + report.fixed == 1 ? "" : "s") << " ("
        << report.fixed << " fixed, " << total << " remaining).\n";
  } else if (total == 0) {
    out << "All checks passed!\n";
    return;
  } else {
    out << "Found " << total << " error" << (total == 1 ? "" : "s") << ".\n";
  }
  if (fixable_now > 0) {
    out << "[*] " << fixable_now << " fixable with the `--fix` option";
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
    case Format::Json: write_json(report, out); break;
  }
}

}  // namespace torchmigrate::output
