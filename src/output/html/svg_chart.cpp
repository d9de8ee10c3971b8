// SPDX-License-Identifier: MIT
// Horizontal bar charts as inline SVG: no script, no library, readable without the page's script.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "torchmigrate/output/html.hpp"

namespace torchmigrate::output::html {
namespace {

constexpr int kWidth = 720;
constexpr int kLabelWidth = 260;
constexpr int kBarArea = 380;
constexpr int kRowHeight = 22;
constexpr int kBarHeight = 14;
constexpr int kTop = 8;
constexpr size_t kLabelChars = 40;

// Long labels (paths) keep their end, the part that tells them apart.
std::string shortened(const std::string& label) {
  if (label.size() <= kLabelChars) return label;
  size_t cut = label.size() - (kLabelChars - 1);
  while (cut < label.size() && (static_cast<unsigned char>(label[cut]) & 0xC0) == 0x80) ++cut;  // not inside a UTF-8 sequence
  return "\u2026" + label.substr(cut);
}

}  // namespace

size_t ChartBar::total() const {
  return std::accumulate(segments.begin(), segments.end(), size_t{0},
                         [](size_t sum, const ChartSegment& segment) { return sum + segment.value; });
}

std::vector<ChartBar> top_bars(std::vector<ChartBar> bars, size_t limit) {
  std::stable_sort(bars.begin(), bars.end(), [](const ChartBar& a, const ChartBar& b) { return a.total() > b.total(); });
  if (bars.size() <= limit || limit == 0) return bars;
  ChartBar rest{fmt::format("{} more", bars.size() - (limit - 1)), "", {}};
  for (size_t i = limit - 1; i < bars.size(); ++i) {
    for (const ChartSegment& segment : bars[i].segments) {
      auto same = std::find_if(rest.segments.begin(), rest.segments.end(),
                               [&](const ChartSegment& s) { return s.css_class == segment.css_class; });
      if (same == rest.segments.end()) {
        rest.segments.push_back(segment);
      } else {
        same->value += segment.value;
      }
    }
  }
  bars.resize(limit - 1);
  bars.push_back(std::move(rest));
  return bars;
}

std::string bar_chart_svg(std::string_view id, std::string_view title, const std::vector<ChartBar>& bars) {
  size_t largest = 0;
  for (const ChartBar& bar : bars) largest = std::max(largest, bar.total());
  int height = kTop * 2 + kRowHeight * static_cast<int>(std::max<size_t>(bars.size(), 1));
  std::string svg = fmt::format(
      "<svg id=\"{}\" class=\"chart\" viewBox=\"0 0 {} {}\" width=\"{}\" "
      "height=\"{}\" role=\"img\" aria-label=\"{}\">\n",
      escape(id), kWidth, height, kWidth, height, escape(title));
  if (bars.empty() || largest == 0) {
    svg += fmt::format("<text class=\"empty\" x=\"{}\" y=\"{}\">no findings</text>\n", kLabelWidth, kTop + 15);
  }
  for (size_t row = 0; row < bars.size(); ++row) {
    const ChartBar& bar = bars[row];
    int y = kTop + static_cast<int>(row) * kRowHeight;
    svg += bar.filter.empty() ? std::string("<g class=\"row\">")
                              : fmt::format("<g class=\"row link\" data-filter=\"{}\">", escape(bar.filter));
    svg += fmt::format("<title>{}: {}</title>", escape_text(bar.label), bar.total());
    svg += fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", kLabelWidth - 8, y + 12,
                       escape_text(shortened(bar.label)));
    double x = kLabelWidth;
    for (const ChartSegment& segment : bar.segments) {
      if (segment.value == 0) continue;
      // At least one pixel, so a single finding beside thousands still shows.
      double width = std::max(1.0, static_cast<double>(kBarArea) * static_cast<double>(segment.value) /
                                       static_cast<double>(largest));
      svg += fmt::format(
          "<rect class=\"bar {}\" x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" data-value=\"{}\">"
          "<title>{}: {}</title></rect>",
          escape(segment.css_class), x, y + 2, width, kBarHeight, segment.value, escape_text(segment.label),
          segment.value);
      x += width;
    }
    svg += fmt::format("<text class=\"value\" x=\"{:.1f}\" y=\"{}\">{}</text></g>\n", x + 6, y + 12, bar.total());
  }
  return svg + "</svg>\n";
}

}  // namespace torchmigrate::output::html
