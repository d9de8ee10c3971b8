// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/shown_lines.hpp"

namespace torchmigrate::engine {

std::shared_ptr<const SourceFile> keep_shown_lines(const SourceFile& file, std::vector<Diagnostic>& diagnostics) {
  std::vector<TextRange> spans;
  for (const Diagnostic& diagnostic : diagnostics) {
    spans.push_back(diagnostic.range);
    for (const Fix& fix : diagnostic.fixes) {
      for (const Edit& edit : fix.edits) spans.push_back(edit.range);
    }
  }
  ExcerptOffsets offsets;
  auto excerpt = std::make_shared<const SourceFile>(SourceFile::excerpt(file, spans, offsets));
  auto rebase = [&](TextRange& range) { range = {offsets(range.start), offsets(range.end)}; };
  for (Diagnostic& diagnostic : diagnostics) {
    rebase(diagnostic.range);
    for (Fix& fix : diagnostic.fixes) {
      for (Edit& edit : fix.edits) rebase(edit.range);
    }
  }
  return excerpt;
}

}  // namespace torchmigrate::engine
