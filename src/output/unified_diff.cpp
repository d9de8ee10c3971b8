// SPDX-License-Identifier: MIT
#include "torchmigrate/output/unified_diff.hpp"

#include <dtl/dtl.hpp>

#include <vector>

namespace torchmigrate::output {
namespace {

// Lines without their terminators; a final line without newline is marked so the two
// sides still differ when only the final newline changed.
std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start) + "\n\\ No newline at end of file");
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

void write_unified_diff(const std::string& path, const std::string& before, const std::string& after,
                        std::ostream& out) {
  std::vector<std::string> a = split_lines(before);
  std::vector<std::string> b = split_lines(after);
  dtl::Diff<std::string> diff(a, b);
  diff.compose();
  diff.composeUnifiedHunks();
  // git-style prefixes; an absolute path keeps a single slash after them.
  std::string shown = path.starts_with('/') ? path.substr(1) : path;
  out << "--- a/" << shown << "\n+++ b/" << shown << "\n";
  diff.printUnifiedFormat(out);
}

}  // namespace torchmigrate::output
