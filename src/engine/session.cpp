// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/session.hpp"

#include "torchmigrate/engine/file_io.hpp"
#include "torchmigrate/engine/parallel.hpp"

namespace torchmigrate::engine {
namespace {

Diagnostic file_problem(const char* code, std::string message) {
  Diagnostic diagnostic;
  diagnostic.code = code;
  diagnostic.message = std::move(message);
  diagnostic.severity = Severity::Error;
  return diagnostic;
}

FileOutcome process(const Linter& linter, const DiscoveredFile& file, FixMode mode) {
  FileOutcome outcome;
  std::string display = file.path.string();
  ReadResult read = read_file(file.path);
  if (!read.text) {
    outcome.source = std::make_shared<SourceFile>(display, "", file.language);
    outcome.diagnostics.push_back(file_problem(kIoErrorCode, "Failed to read file: " + read.error));
    return outcome;
  }
  auto source = std::make_shared<SourceFile>(display, std::move(*read.text), file.language);
  if (mode == FixMode::Report) {
    outcome.diagnostics = linter.lint(*source);
    outcome.source = std::move(source);
    return outcome;
  }
  FixOutcome fixed = fix_file(linter, *source);
  outcome.original = source->text();
  outcome.changed = fixed.text != source->text();
  outcome.applied = std::move(fixed.applied);
  outcome.diagnostics = std::move(fixed.remaining);
  if (fixed.rollback) outcome.diagnostics.insert(outcome.diagnostics.begin(), *fixed.rollback);
  if (fixed.hit_pass_limit) {
    outcome.diagnostics.insert(outcome.diagnostics.begin(),
                               file_problem(kInternalErrorCode, "Fixes did not settle after " +
                                                                    std::to_string(kMaxFixPasses) +
                                                                    " passes; the rest were left (please report this)"));
  }
  if (mode == FixMode::Apply && outcome.changed) {
    std::string error = write_file_atomically(file.path, fixed.text, source->text());
    if (!error.empty()) {
      // Nothing was written: report against the text on disk.
      outcome.diagnostics = linter.lint(*source);
      outcome.diagnostics.insert(outcome.diagnostics.begin(), file_problem(kIoErrorCode, "Failed to write fixes: " + error));
      outcome.applied.clear();
      outcome.changed = false;
      outcome.source = std::move(source);
      return outcome;
    }
  }
  // The remaining findings refer to the fixed text.
  outcome.source = std::make_shared<SourceFile>(display, std::move(fixed.text), file.language);
  return outcome;
}

}  // namespace

std::vector<FileOutcome> run_session(const Linter& linter, const std::vector<DiscoveredFile>& files, FixMode mode,
                                     unsigned jobs) {
  std::vector<FileOutcome> outcomes(files.size());
  parallel_for(files.size(), jobs, [&](size_t i) { outcomes[i] = process(linter, files[i], mode); });
  return outcomes;
}

}  // namespace torchmigrate::engine
