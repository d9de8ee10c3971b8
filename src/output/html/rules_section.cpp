// SPDX-License-Identifier: MIT
// The explanation of every rule with findings, rendered from the catalog into the report so the
// table's rule links work offline.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/output/html.hpp"

namespace torchmigrate::output::html {
namespace {

std::string paragraph(std::string_view heading, const std::string& text) {
  if (text.empty()) return {};
  return fmt::format("<h4>{}</h4>{}\n", escape(heading), prose(text));
}

// Line by line: inside <pre> a newline is a line break, not a character to show escaped.
std::string example(std::string_view heading, const std::string& code) {
  if (code.empty()) return {};
  std::string lines;
  for (size_t start = 0; start <= code.size();) {
    size_t end = std::min(code.find('\n', start), code.size());
    if (start > 0) lines += '\n';
    lines += escape_text(std::string_view(code).substr(start, end - start), true);
    start = end + 1;
  }
  return fmt::format("<div class=\"example\"><h4>{}</h4><pre><code>{}</code></pre></div>\n", escape(heading), lines);
}

std::string explanation(const engine::RuleSpec& rule) {
  Urgency urgency = urgency_of(&rule);
  std::string out = fmt::format(
      "<article class=\"rule\" id=\"rule-{0}\"><h3><code>{0}</code> {1} <span class=\"tag {2}\">{3}</span> "
      "<span class=\"tag\">{4}</span></h3>\n<p class=\"summary\">{5}</p>\n",
      escape(rule.code), escape(rule.name), urgency_id(urgency), urgency_label(urgency), escape(to_string(rule.kind)),
      code_spans(rule.summary));
  out += paragraph("What it finds", rule.docs().what);
  out += paragraph("Why", rule.docs().why);
  out += "<div class=\"examples\">" + example("Before", rule.docs().before) + example("After", rule.docs().after);
  out += example("After (adopt-new policy)", rule.docs().after_adopt_new) + "</div>\n";
  out += paragraph(engine::kFixSafetyTitle, rule.docs().fix_safety);
  out += paragraph(engine::kLimitationsTitle, rule.docs().limitations);
  if (!rule.references.empty()) {
    out += "<p class=\"references\">Upstream: ";
    for (const std::string& reference : rule.references) {
      out += fmt::format("<a href=\"{}\" rel=\"noreferrer\">{}</a> ", escape(engine::reference_url(reference)),
                         escape(reference));
    }
    out += "</p>\n";
  }
  return out + fmt::format("<p class=\"back\"><a class=\"filter-link\" href=\"#filter={}\">Show its findings</a></p>"
                           "</article>\n",
                           escape(rule.code));
}

}  // namespace

std::string rules_section(const Report& report) {
  std::set<std::string> codes;
  for (const FileFindings& findings : report.files) {
    for (const Diagnostic& diagnostic : findings.diagnostics) codes.insert(diagnostic.code);
  }
  std::string out = "<section id=\"rules\"><h2>The rules found</h2>\n";
  for (const std::string& code : codes) {
    const engine::RuleSpec* rule = report.catalog != nullptr ? report.catalog->find(code) : nullptr;
    if (rule != nullptr) out += explanation(*rule);
  }
  return out + "</section>\n";
}

}  // namespace torchmigrate::output::html
