// SPDX-License-Identifier: MIT
// The top of the report: the headline numbers and the progress against a baseline.
#include <fmt/format.h>

#include "torchmigrate/output/html.hpp"

namespace torchmigrate::output::html {
namespace {

constexpr size_t kFixedListed = 200;

// One number, found by tests and scripts through its `data-metric`.
std::string card(std::string_view id, size_t value, std::string_view label) {
  return fmt::format(
      "<div class=\"card {0}\"><span class=\"num\" id=\"metric-{0}\" data-metric=\"{0}\">{1}</span>"
      "<span class=\"label\">{2}</span></div>\n",
      escape(id), value, escape(label));
}

std::string cards(const std::vector<HeadlineItem>& items, std::string_view group) {
  std::string out = fmt::format("<div class=\"cards {}\">\n", escape(group));
  for (const HeadlineItem& item : items) {
    if (item.group == group) out += card(item.id, item.value, item.label);
  }
  return out + "</div>\n";
}

std::string progress_block(const BaselineProgress& progress, const engine::Catalog& catalog) {
  std::string out = fmt::format(
      "<div id=\"progress\"><h3>Progress since the baseline <code>{}</code></h3>\n<div class=\"cards progress\">\n",
      escape_text(progress.path));
  std::pair<const char*, std::pair<const char*, size_t>> items[] = {
      {"baseline-recorded", {"recorded in the baseline", progress.recorded}},
      {"baseline-fixed", {"fixed since", progress.fixed_count()}},
      {"baseline-open", {"still open", progress.still_open}},
      {"baseline-new", {"new since", progress.new_since}},
  };
  for (const auto& [id, item] : items) out += card(id, item.second, item.first);
  out += fmt::format(
      "</div>\n<p class=\"note\">Findings that break on {} are never recorded in a baseline, so they are neither "
      "new nor fixed here; the table marks the new findings.</p>\n",
      catalog.release().to.str());
  if (!progress.fixed.empty()) {
    out += "<details><summary>Fixed since the baseline</summary><ul class=\"fixed\">\n";
    size_t listed = 0;
    for (const engine::BaselineEntry& entry : progress.fixed) {
      if (listed++ == kFixedListed) {
        out += fmt::format("<li>\u2026 and {} more</li>\n", progress.fixed.size() - kFixedListed);
        break;
      }
      out += fmt::format("<li><code>{}</code> {} {}{}</li>\n", escape_text(entry.code), breakable_path(entry.path),
                         code_spans(entry.message), entry.count > 1 ? fmt::format(" (\u00d7{})", entry.count) : "");
    }
    out += "</ul></details>\n";
  }
  return out + "</div>\n";
}

}  // namespace

std::string headline_section(const Report& report, const Headline& headline) {
  std::vector<HeadlineItem> items = headline_items(headline);
  std::string out = "<section id=\"headline\"><h2>Headline</h2>\n";
  out += cards(items, "scope");
  out += "<h3>By urgency</h3>\n" + cards(items, "urgency");
  out += "<h3>Who does the work</h3>\n" + cards(items, "work");
  if (report.progress != nullptr) out += progress_block(*report.progress, *report.catalog);
  return out + "</section>\n";
}

}  // namespace torchmigrate::output::html
