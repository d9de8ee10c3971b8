// SPDX-License-Identifier: MIT
// One run over many files: read, lint or fix, and (for --fix) write back, in parallel. Each
// file's outcome depends only on that file, so the result is the same for any thread count.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/linter.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"

namespace torchmigrate::engine {

enum class FixMode { Report, Apply, Diff };

// A file whose fixes change it: its bytes as read and as --fix writes them (BOM, line endings kept).
struct Rewrite {
  std::string original;
  std::string fixed;
};

// One per file of a run, so small: what only a changed file has lies behind a pointer.
struct FileOutcome {
  // The text the diagnostics refer to: without a byte order mark, and the fixed text after --fix.
  // Null once run_session is done with a file that has no diagnostics and nothing to write.
  std::shared_ptr<const SourceFile> source;
  std::vector<Diagnostic> diagnostics;
  std::vector<AppliedFix> applied;  // fixes written (Apply) or that would be written (Diff)
  // Null unless the fixes change the file (written by --fix, shown by --diff), and after a failed write.
  std::unique_ptr<const Rewrite> rewrite;

  [[nodiscard]] bool changed() const { return rewrite != nullptr; }
};

std::vector<FileOutcome> run_session(const Linter& linter, const std::vector<DiscoveredFile>& files, FixMode mode,
                                     unsigned jobs);
// What a file with findings keeps of its text once its result is produced.
enum class TextKept {
  Whole,      // baselines, --add-noqa and shards read any line; fixes rewrite the file
  ShownLines  // a report shows only the lines its findings and fixes reach (engine/run/shown_lines.hpp)
};

// With a cache, a report run reuses the findings of files whose content and settings are unchanged.
// Fixes are not written through a symbolic link that leads out of the project unless `follow_links`.
// `on_file` (for a progress display) is called from the worker threads as each file is done.
// Without libclang, only the run's first C/C++/CUDA file says so (cxx/libclang_note.hpp).
class ResultCache;
using OnFileDone = std::function<void(const FileOutcome&)>;
// For runs whose settings differ per file (configuration files in subdirectories): `linters`
// holds the linter of each of `files`, in the same order.
std::vector<FileOutcome> run_session(const std::vector<const Linter*>& linters,
                                     const std::vector<DiscoveredFile>& files, FixMode mode, unsigned jobs,
                                     const ResultCache* cache = nullptr, bool follow_links = false,
                                     const OnFileDone& on_file = {}, TextKept kept = TextKept::Whole);

// A report run that checks files while a walk is still finding them. The walking thread hands
// each file over with its linter (resolving linters is the walk's work: the workspace's
// configuration, project and linter maps are the walking thread's alone), and up to jobs - 1
// workers check them meanwhile; the walking thread joins them in finish(). A worker still reaches
// the workspace through a project's facts, which wait for the walk's end (Workspace::begin_walk):
// a file that would wait for them (during the walk, or while another worker gathers them) is put
// aside until no other file waits, and the worker takes the next one instead of idling.
// Outcomes are those run_session gives for the same files and linters.
class StreamedSession {
 public:
  using LinterFor = std::function<const Linter&(const DiscoveredFile&)>;
  StreamedSession(unsigned jobs, const ResultCache* cache, OnFileDone on_file, TextKept kept);
  // Stops handing out files and joins the workers: what a run that failed mid-walk leaves.
  ~StreamedSession();
  StreamedSession(const StreamedSession&) = delete;
  StreamedSession& operator=(const StreamedSession&) = delete;

  // Hands a file over, with the linter `linter_for` gives it, unless a name of the same real
  // path (overlapping roots, a link to a walked file) that sorts before it was handed over: the
  // walk's final list keeps the name that sorts first, so a file is checked once, under that
  // name. Real paths are kept as 64-bit hashes; a collision only moves a file's check to finish().
  void add(const DiscoveredFile& file, std::string_view real_path, const LinterFor& linter_for);
  // Checks what is left with the calling thread's help, joins the workers and returns an outcome
  // for each of `files` (the walk's final list: sorted, one name kept of a file reached twice), in
  // its order. A name of the list that was not added is checked here, with its linter.
  std::vector<FileOutcome> finish(const std::vector<DiscoveredFile>& files, const LinterFor& linter_for);

 private:
  static constexpr size_t kBatch = 32;
  struct State;
  void hand_over();
  void work();
  std::unique_ptr<State> state_;
};

// True for the diagnostics that say a file could not be read, checked, fixed or written.
bool is_file_problem(const Diagnostic& diagnostic);

}  // namespace torchmigrate::engine
