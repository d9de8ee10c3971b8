// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/session.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "torchmigrate/cxx/libclang_note.hpp"
#include "torchmigrate/engine/catalog/internal_codes.hpp"

#include "torchmigrate/engine/lint/notebook_check.hpp"
#include "torchmigrate/engine/run/confined_write.hpp"
#include "torchmigrate/engine/run/parallel.hpp"
#include "torchmigrate/engine/run/result_cache.hpp"
#include "torchmigrate/engine/run/shown_lines.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/engine/workspace/project.hpp"

namespace torchmigrate::engine {
namespace {

Diagnostic file_problem(const char* code, std::string message, Severity severity = Severity::Error) {
  Diagnostic diagnostic;
  diagnostic.code = code;
  diagnostic.message = std::move(message);
  diagnostic.severity = severity;
  return diagnostic;
}

// The result cache's settings fingerprint, once per linter and set of project facts in a run:
// building and hashing it for every file cost a warm run a fifth of its time. One cache a run.
class Fingerprints {
 public:
  const std::string& of(const ResultCache& cache, const Linter& linter, FactsRead facts) {
    Key key{&linter, facts.bits()};
    {
      std::lock_guard lock(mutex_);
      if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    }
    // Outside the lock: it may gather the project's facts.
    std::string fingerprint = cache.fingerprint(linter.settings(), facts);
    std::lock_guard lock(mutex_);
    return memo_.try_emplace(key, std::move(fingerprint)).first->second;
  }

 private:
  using Key = std::pair<const Linter*, unsigned>;
  std::mutex mutex_;
  std::map<Key, std::string> memo_;  // node-based: references stay valid
};

FileOutcome unread(const DiscoveredFile& file) {
  FileOutcome outcome;
  outcome.source = std::make_shared<SourceFile>(file.path, "", file.language);
  return outcome;
}

// A report run's view of the result cache for one file: its slot and its stamp. A file whose
// rules may read the project's facts (build and C/C++ files) is keyed by the facts that the rules
// firing on its text read, so it is keyed once read: gathering facts no rule of the file reads
// would read the whole project again.
class CacheLookup {
 public:
  CacheLookup(const Linter& linter, const DiscoveredFile& file, const ResultCache* cache, Fingerprints& fingerprints)
      : linter_(linter), file_(file), cache_(cache), fingerprints_(fingerprints) {
    if (cache_ == nullptr) return;
    keyed_by_text_ = linter.facts_read(SourceFile(file.path, "", file.language), true).any();
    // The key without project facts: every Python file's, and that of a file keyed by its text
    // when no rule firing on that text reads a fact.
    factless_ = &fingerprints.of(*cache, linter, {});
    factless_slot_ = ResultCache::slot(file.path, linter.settings(), *factless_);
    // Stamped before reading only when an entry could spare the read; otherwise the stamp comes
    // from the opened file (a stat of the path per file was most of what writing a cache cost).
    if (!file.contents && cache->has_stamp(factless_slot_)) stamp_ = stamp_file(file.path.c_str());
  }

  // Unchanged since a run that found nothing in it: not even read. A file keyed by its text has
  // an entry under the factless key only if its text read no fact, and while its stamp holds, its
  // text has not changed, so neither has that (most build files: a YAML file without pins).
  [[nodiscard]] bool unchanged_without_findings() const {
    return stamp_ && cache_->unchanged_without_findings(factless_slot_, *factless_, *stamp_);
  }
  void stamp_from_read(const std::optional<ResultCache::FileStamp>& stamp) {
    if (cache_ != nullptr && !file_.contents && !stamp_) stamp_ = stamp;
  }
  // The file's findings: from the cache, or linted and stored.
  std::vector<Diagnostic> findings(const SourceFile& source) {
    if (cache_ == nullptr) return linter_.lint(source);
    const std::string* fingerprint = factless_;
    std::string slot = factless_slot_;
    if (keyed_by_text_) {
      fingerprint = &fingerprints_.of(*cache_, linter_, linter_.facts_read(source));
      slot = ResultCache::slot(file_.path, linter_.settings(), *fingerprint);
    }
    std::string key = ResultCache::key(slot, source.text());
    if (auto cached = cache_->load(key, *fingerprint, source.text(), stamp_)) return std::move(*cached);
    std::vector<Diagnostic> found = linter_.lint(source);
    // Not cached without libclang: once it is installed, the file must be checked.
    if (std::none_of(found.begin(), found.end(), cxx::is_libclang_missing_note)) {
      cache_->store(key, *fingerprint, found, stamp_);
    }
    return found;
  }

 private:
  const Linter& linter_;
  const DiscoveredFile& file_;
  const ResultCache* cache_;
  Fingerprints& fingerprints_;
  bool keyed_by_text_ = false;
  const std::string* factless_ = nullptr;
  std::string factless_slot_;
  std::optional<ResultCache::FileStamp> stamp_;
};

// The findings of the text on disk, after a fix could not be written.
FileOutcome unfixed(const Linter& linter, std::shared_ptr<SourceFile> source, Diagnostic problem) {
  FileOutcome outcome;
  outcome.diagnostics = linter.lint(*source);
  outcome.diagnostics.insert(outcome.diagnostics.begin(), std::move(problem));
  outcome.source = std::move(source);
  return outcome;
}

FileOutcome fix_outcome(const Linter& linter, const DiscoveredFile& file, FixMode mode, bool follow_links,
                        std::shared_ptr<SourceFile> source, std::string original_bytes, const ReadResult& read,
                        bool bom) {
  FixOutcome fixed = file.language == Language::Notebook ? fix_notebook(linter, *source) : fix_file(linter, *source);
  bool changed = fixed.text != source->text();
  if (changed && mode == FixMode::Apply && read.read_only) {
    // Reported, not forced: making the file writable is the owner's decision.
    return unfixed(linter, std::move(source),
                   file_problem(kIoErrorCode, "The file is read-only; its fixes were not applied", Severity::Warning));
  }
  FileOutcome outcome;
  if (changed) {
    // Braces: clang before 16 has no parenthesised aggregate initialisation (P0960).
    outcome.rewrite =
        std::make_unique<const Rewrite>(Rewrite{std::move(original_bytes), encode_source(fixed.text, bom)});
  }
  outcome.applied = std::move(fixed.applied);
  outcome.diagnostics = std::move(fixed.problems);
  outcome.diagnostics.insert(outcome.diagnostics.end(), fixed.remaining.begin(), fixed.remaining.end());
  if (mode == FixMode::Apply && outcome.changed() && !file.contents) {
    std::string error = follow_links ? "" : write_leaves_project(file.path);
    if (error.empty()) error = write_file_atomically(file.path, outcome.rewrite->fixed, outcome.rewrite->original);
    // Nothing was written: report against the text on disk.
    if (!error.empty())
      return unfixed(linter, std::move(source), file_problem(kIoErrorCode, "Failed to write fixes: " + error));
  }
  // The remaining findings refer to the fixed text.
  outcome.source = std::make_shared<SourceFile>(file.path, std::move(fixed.text), file.language);
  return outcome;
}

FileOutcome process(const Linter& linter, const DiscoveredFile& file, FixMode mode, const ResultCache* cache,
                    Fingerprints& fingerprints, bool follow_links) {
  CacheLookup lookup(linter, file, mode == FixMode::Report ? cache : nullptr, fingerprints);
  if (lookup.unchanged_without_findings()) return unread(file);
  ReadResult read =
      file.contents ? ReadResult{*file.contents, {}, false} : read_file(file.path, mode == FixMode::Apply);
  lookup.stamp_from_read(read.stamp);
  if (!read.text) {
    FileOutcome outcome = unread(file);
    outcome.diagnostics.push_back(file_problem(kIoErrorCode, "Failed to read file: " + read.error));
    return outcome;
  }
  std::string original_bytes = std::move(*read.text);
  // A report needs only the decoded text: the bytes as read are kept for fixes alone.
  DecodedSource decoded = decode_source(mode == FixMode::Report ? std::move(original_bytes) : original_bytes);
  if (!decoded.skip_reason.empty()) {
    // Never parsed, never written: offsets into bytes we cannot decode would mean nothing.
    FileOutcome outcome = unread(file);
    outcome.diagnostics.push_back(
        file_problem(kIoErrorCode, "Skipped: " + decoded.skip_reason + "; not checked", Severity::Info));
    return outcome;
  }
  auto source = std::make_shared<SourceFile>(file.path, std::move(decoded.text), file.language);
  if (mode != FixMode::Report) {
    return fix_outcome(linter, file, mode, follow_links, std::move(source), std::move(original_bytes), read,
                       decoded.bom);
  }
  FileOutcome outcome;
  outcome.diagnostics = lookup.findings(*source);
  outcome.source = std::move(source);
  return outcome;
}

// Without libclang every C/C++/CUDA file would repeat the same note: the first file of the run
// keeps it, counting the files it stands for, and the others drop it.
void report_missing_libclang_once(std::vector<FileOutcome>& outcomes) {
  Diagnostic* first = nullptr;
  size_t files = 0;
  for (FileOutcome& outcome : outcomes) {
    auto note = std::find_if(outcome.diagnostics.begin(), outcome.diagnostics.end(), cxx::is_libclang_missing_note);
    if (note == outcome.diagnostics.end()) continue;
    ++files;
    if (first == nullptr) {
      first = &*note;
    } else {
      outcome.diagnostics.erase(note);
    }
  }
  if (first != nullptr) cxx::count_unchecked_files(*first, files);
}

// A file with nothing to report and nothing to write needs nothing after the run: outputs,
// baselines and shards only read the files with findings, and a report only the lines it
// shows. Dropping the rest as each file is done keeps a run's memory in proportion to its
// findings, not to the size of the tree.
void release_unneeded_source(FileOutcome& outcome, TextKept kept) {
  if (outcome.diagnostics.empty() && !outcome.changed() && outcome.applied.empty()) {
    outcome = FileOutcome();
    return;
  }
  // A notebook's positions are read from its whole JSON (output/notebook_positions.hpp).
  if (kept == TextKept::ShownLines && outcome.source && !outcome.changed() &&
      outcome.source->language() != Language::Notebook) {
    outcome.source = keep_shown_lines(*outcome.source, outcome.diagnostics);
  }
}

// One file of a run, whatever happens: one bad file never stops a run (and an exception must
// not escape a worker thread).
FileOutcome check_file(const Linter& linter, const DiscoveredFile& file, FixMode mode, const ResultCache* cache,
                       Fingerprints& fingerprints, bool follow_links, const OnFileDone& on_file, TextKept kept) {
  FileOutcome outcome;
  try {
    outcome = process(linter, file, mode, cache, fingerprints, follow_links);
  } catch (const std::exception& error) {
    outcome = FileOutcome();
    outcome.source = std::make_shared<SourceFile>(file.path, "", file.language);
    outcome.diagnostics.push_back(file_problem(
        kInternalErrorCode, std::string("Internal error, file skipped: ") + error.what() + " (please report this)"));
  }
  // After the cache, which keeps what the file's text alone decides: whether a fix would import
  // the file itself depends on other files of the project.
  if (outcome.source) withhold_self_imports(outcome.diagnostics, *outcome.source);
  // The problems found here, outside the linter (unreadable, not written, a crash), by the same
  // selection as the linter's.
  drop_deselected_file_problems(outcome.diagnostics, linter.settings().selection);
  if (on_file) on_file(outcome);
  release_unneeded_source(outcome, kept);
  return outcome;
}

// Whether checking the file now would wait: its project's facts are not gathered, a rule that
// fires on its text reads one, and either the walk is still finding the project's files or another
// thread is gathering them. Such a file is checked later and the worker takes another meanwhile.
// Its text is read to know (again when it is checked: only for files that wait).
bool would_wait_for_facts(const Linter& linter, const DiscoveredFile& file, bool walking) {
  const std::shared_ptr<const Project>& project = linter.settings().project;
  if (!project || project->facts_gathered()) return false;
  if (!walking && !project->facts_being_gathered()) return false;  // this thread gathers them
  if (!linter.facts_read(SourceFile(file.path, "", file.language), true).any()) return false;
  if (file.contents) return linter.facts_read(SourceFile(file.path, *file.contents, file.language)).any();
  ReadResult read = read_file(file.path);
  return read.text && linter.facts_read(SourceFile(file.path, std::move(*read.text), file.language)).any();
}

}  // namespace

bool is_file_problem(const Diagnostic& diagnostic) {
  return diagnostic.code == kIoErrorCode || diagnostic.code == kInternalErrorCode;
}

std::vector<FileOutcome> run_session(const Linter& linter, const std::vector<DiscoveredFile>& files, FixMode mode,
                                     unsigned jobs) {
  return run_session(std::vector<const Linter*>(files.size(), &linter), files, mode, jobs, nullptr);
}

std::vector<FileOutcome> run_session(const std::vector<const Linter*>& linters,
                                     const std::vector<DiscoveredFile>& files, FixMode mode, unsigned jobs,
                                     const ResultCache* cache, bool follow_links, const OnFileDone& on_file,
                                     TextKept kept) {
  std::vector<FileOutcome> outcomes(files.size());
  Fingerprints fingerprints;
  parallel_for(files.size(), jobs, [&](size_t i) {
    outcomes[i] = check_file(*linters.at(i), files[i], mode, cache, fingerprints, follow_links, on_file, kept);
  });
  report_missing_libclang_once(outcomes);
  return outcomes;
}

struct StreamedSession::State {
  const ResultCache* cache = nullptr;
  OnFileDone on_file;
  TextKept kept = TextKept::Whole;
  Fingerprints fingerprints;
  unsigned jobs = 1;

  struct Added {
    DiscoveredFile file;
    const Linter* linter;
    FileOutcome outcome;
  };
  std::mutex mutex;  // guards what follows, up to `workers`
  std::condition_variable wake;
  // As added. A deque's elements stay in place, so a worker uses an element through a pointer
  // taken under the lock; indexing it while a hand-over grows it would not be safe.
  std::deque<Added> files;
  size_t next = 0;                   // the next file to hand out
  bool closed = false;               // no file will be added
  std::atomic<bool> stopped{false};  // hand out nothing more, and check no further file
  std::vector<std::thread> workers;  // started with the first hand-over of more than one file
  std::vector<Added*> deferred;      // put aside (would_wait_for_facts), checked when nothing else waits
  std::vector<Added> pending;        // added, not handed over yet (the walking thread's own)
  // The walking thread's own: by the hash of a real path, the index of the name added for it.
  std::unordered_map<size_t, size_t> added_by_real_path;

  bool take(std::vector<Added*>& mine, bool& put_aside);
};

// What a worker takes next, under the state's lock: after the walk, a file put aside whose
// project's facts no other thread is gathering (so that the facts are gathered while other files
// still wait, not at the end); else a share of the queue; else, with the queue empty, any file put
// aside. `put_aside` is set for a file taken from `deferred`: it is checked now, even if it waits.
bool StreamedSession::State::take(std::vector<Added*>& mine, bool& put_aside) {
  put_aside = false;
  if (closed && !deferred.empty()) {
    auto free = std::find_if(deferred.begin(), deferred.end(), [](const Added* added) {
      const std::shared_ptr<const Project>& project = added->linter->settings().project;
      return !project || !project->facts_being_gathered();
    });
    if (free == deferred.end() && next == files.size()) free = deferred.begin();
    if (free != deferred.end()) {
      mine.push_back(*free);
      deferred.erase(free);
      put_aside = true;
      return true;
    }
  }
  if (next == files.size()) return false;
  // Half of what waits, at most a batch: the other workers get the rest.
  size_t waiting = files.size() - next;
  size_t last = next + std::clamp<size_t>(waiting / 2, 1, kBatch);
  for (; next < last; ++next) mine.push_back(&files[next]);
  return true;
}

StreamedSession::StreamedSession(unsigned jobs, const ResultCache* cache, OnFileDone on_file, TextKept kept)
    : state_(std::make_unique<State>()) {
  state_->cache = cache;
  state_->on_file = std::move(on_file);
  state_->kept = kept;
  state_->jobs = jobs;
  state_->pending.reserve(kBatch);
}

StreamedSession::~StreamedSession() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopped = true;
  }
  state_->wake.notify_all();
  for (std::thread& worker : state_->workers) {
    if (worker.joinable()) worker.join();
  }
}

void StreamedSession::add(const DiscoveredFile& file, std::string_view real_path, const LinterFor& linter_for) {
  State& state = *state_;
  // Read without the lock: only this thread grows `files`, and workers never write a name.
  size_t index = state.files.size() + state.pending.size();
  auto [earlier, first] = state.added_by_real_path.try_emplace(std::hash<std::string_view>()(real_path), index);
  if (!first) {
    size_t other = earlier->second;
    const std::string& name =
        other < state.files.size() ? state.files[other].file.path : state.pending[other - state.files.size()].file.path;
    if (!path_order(file.path, name)) return;
    earlier->second = index;  // the final list keeps this name: checked under it too
  }
  state.pending.push_back({file, &linter_for(file), {}});
  // Handed over in batches: a lock and a wake-up per file cost more than a cached file's check.
  if (state.pending.size() >= kBatch) hand_over();
}

void StreamedSession::hand_over() {
  State& state = *state_;
  if (state.pending.empty()) return;
  {
    std::lock_guard lock(state.mutex);
    for (State::Added& added : state.pending) state.files.push_back(std::move(added));
  }
  state.pending.clear();
  state.wake.notify_all();
  // The walking thread is the last worker, once the walk is done; a run of one file (an editor's
  // save, a hook on one file) starts no thread. Only this thread adds files or starts workers.
  if (state.workers.empty() && state.files.size() > 1) {
    size_t helpers = std::min<size_t>(state.jobs, state.files.size()) - 1;
    for (size_t w = 0; w < helpers; ++w) state.workers.emplace_back([this] { work(); });
  }
}

void StreamedSession::work() {
  State& state = *state_;
  std::vector<State::Added*> mine;
  for (;;) {
    mine.clear();
    bool walking = false;
    bool put_aside = false;
    {
      std::unique_lock lock(state.mutex);
      state.wake.wait(lock, [&] { return state.stopped || state.closed || state.next < state.files.size(); });
      if (state.stopped) return;
      walking = !state.closed;
      if (!state.take(mine, put_aside)) return;  // closed, and nothing left
    }
    for (State::Added* added : mine) {
      if (state.stopped) return;  // a failed walk waits for no further check
      if (!put_aside && would_wait_for_facts(*added->linter, added->file, walking)) {
        std::lock_guard lock(state.mutex);
        state.deferred.push_back(added);
        continue;
      }
      added->outcome = check_file(*added->linter, added->file, FixMode::Report, state.cache, state.fingerprints, false,
                                  state.on_file, state.kept);
    }
  }
}

std::vector<FileOutcome> StreamedSession::finish(const std::vector<DiscoveredFile>& files,
                                                 const LinterFor& linter_for) {
  State& state = *state_;
  hand_over();
  {
    std::lock_guard lock(state.mutex);
    state.closed = true;
  }
  state.wake.notify_all();
  work();
  for (std::thread& worker : state.workers) worker.join();
  std::vector<FileOutcome> outcomes(files.size());
  // One root walked without links: the final list is the order of adding.
  bool same_order = files.size() == state.files.size();
  for (size_t i = 0; same_order && i < files.size(); ++i) same_order = files[i].path == state.files[i].file.path;
  if (same_order) {
    for (size_t i = 0; i < files.size(); ++i) outcomes[i] = std::move(state.files[i].outcome);
  } else {
    std::unordered_map<std::string_view, State::Added*> added;
    added.reserve(state.files.size());
    for (State::Added& entry : state.files) added.try_emplace(entry.file.path, &entry);
    for (size_t i = 0; i < files.size(); ++i) {
      auto found = added.find(files[i].path);
      outcomes[i] = found != added.end() ? std::move(found->second->outcome)
                                         : check_file(linter_for(files[i]), files[i], FixMode::Report, state.cache,
                                                      state.fingerprints, false, state.on_file, state.kept);
    }
  }
  state.files.clear();  // the copies of the walk's entries, before the report is written
  report_missing_libclang_once(outcomes);
  return outcomes;
}

}  // namespace torchmigrate::engine
