// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/result_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include "embedded_rules.hpp"
#include "torchmigrate/engine/run/content_hash.hpp"
#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/engine/workspace/project.hpp"
#include "torchmigrate/engine/workspace/working_directory.hpp"
#include "torchmigrate/version.hpp"

namespace torchmigrate::engine {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Bumped whenever the layout of the file changes; an older file then simply misses.
constexpr int kFormat = 7;
constexpr std::string_view kMagic = "torchmigrate-cache";
// Entries unused for this many days are dropped when the file is next written.
constexpr uint32_t kKeepDays = 30;

// The rule catalog as built in, so a rule change invalidates entries.
const std::string& catalog_hash() {
  static const std::string hash(embedded_catalog_digest());
  return hash;
}

// A path as it is inside the file's project, so a cache on shared storage serves every checkout
// of the project wherever it lies; the path as given for a file outside any project.
std::string portable_path(std::string_view path, const Settings& settings) {
  if (!settings.project || path.empty()) return std::string(path);
  // A walk's path below the project root, without std::filesystem's component lists (which
  // cost a warm run 5%).
  const std::string& root = settings.project->root().native();
  if (std::optional<std::string> absolute = plain_absolute(path);
      absolute && absolute->size() > root.size() && absolute->starts_with(root) && (*absolute)[root.size()] == '/' &&
      root.back() != '/') {
    return absolute->substr(root.size() + 1);
  }
  std::error_code error;
  fs::path absolute = absolute_path(fs::path(path)).lexically_normal();
  fs::path relative = absolute.lexically_relative(settings.project->root());
  if (relative.empty() || *relative.begin() == "..") {
    relative = fs::weakly_canonical(absolute, error).lexically_relative(settings.project->root());
  }
  if (error || relative.empty() || *relative.begin() == "..") return std::string(path);
  return relative.generic_string();
}

// `read` names the project's facts that matter: asking for them gathers them from the project's
// tree, so a file whose rules read none leaves them out.
std::string settings_hash(const Settings& settings, FactsRead read, const FactMemo* memo = nullptr) {
  json out{{"select", settings.selection.select},
           {"extend_select", settings.selection.extend_select},
           {"ignore", settings.selection.ignore},
           {"file_ignore", settings.selection.file_ignore},
           {"min_torch", settings.min_torch.str()},
           {"max_torch", settings.max_torch ? settings.max_torch->str() : ""},
           {"target", settings.target.str()},
           {"range_known", settings.torch_range_known},
           {"unsafe", settings.unsafe_fixes},
           {"fixable", settings.fixable},
           {"max_file_bytes", settings.max_file_bytes},
           {"unfixable", settings.unfixable},
           {"compile_db", portable_path(settings.compile_database_dir, settings)}};
  // Whether the file has a project; where the project lies is not part of any finding.
  if (settings.project) out["project"] = true;
  // Only when set: the keys of every other run stay as they were.
  if (settings.ignore_noqa) out["ignore_noqa"] = true;
  if (!settings.extend_fixable.empty()) out["extend_fixable"] = settings.extend_fixable;
  if (read.any() && settings.project) {
    add_fact_keys(settings.project->fact_keys(memo), read, out);
  } else if (read.any()) {
    add_fact_keys(settings.project_facts(), read, out);
  }
  for (const auto& [code, policy] : settings.policies) out["policies"][code] = std::string(to_string(policy));
  for (const auto& [ending, kind] : settings.build_extensions) out["build"][ending] = static_cast<int>(kind);
  return cache_hash({out.dump()});
}

// For callers that give a path, not a linter: every fact for a file that is not plain Python.
std::string settings_hash(const Settings& settings, std::string_view path) {
  std::filesystem::path file(path);
  bool python = language_for(file, settings.build_extensions) == Language::Python && file.filename() != "setup.py";
  return settings_hash(settings, python ? FactsRead{} : all_facts());
}

// Thrown for anything that does not verify; the caller treats it as a miss.
struct Rejected {};

void require(bool condition) {
  if (!condition) throw Rejected{};
}

// The cache file's encoding: little-endian integers, strings as a 32-bit length and the bytes.
// Binary rather than JSON: a warm run decodes only the entries it serves, without a parser.
class Writer {
 public:
  void u8(uint8_t value) { out_.push_back(static_cast<char>(value)); }
  void u32(uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) out_.push_back(static_cast<char>((value >> shift) & 0xFF));
  }
  void u64(uint64_t value) {
    u32(static_cast<uint32_t>(value));
    u32(static_cast<uint32_t>(value >> 32));
  }
  void str(std::string_view value) {
    u32(static_cast<uint32_t>(value.size()));
    out_.append(value);
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  uint8_t u8() {
    require(!in_.empty());
    auto value = static_cast<uint8_t>(in_[0]);
    in_.remove_prefix(1);
    return value;
  }
  uint32_t u32() {
    require(in_.size() >= 4);
    uint32_t value = 0;
    for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(in_[static_cast<size_t>(i)]);
    in_.remove_prefix(4);
    return value;
  }
  uint64_t u64() {
    uint64_t low = u32();
    return low | (static_cast<uint64_t>(u32()) << 32);
  }
  std::string_view str() {
    uint32_t size = u32();
    require(size <= in_.size());
    std::string_view value = in_.substr(0, size);
    in_.remove_prefix(size);
    return value;
  }
  // A count of items of at least `least` bytes each: never more than the rest could hold, so a
  // forged count cannot make a reader loop or allocate past the file.
  uint32_t count(size_t least) {
    uint32_t value = u32();
    require(value <= in_.size() / least);
    return value;
  }
  int choice(int last) {
    uint8_t value = u8();
    require(value <= last);
    return value;
  }
  [[nodiscard]] bool done() const { return in_.empty(); }

 private:
  std::string_view in_;
};

std::string encode(const std::vector<Diagnostic>& diagnostics) {
  Writer out;
  out.u32(static_cast<uint32_t>(diagnostics.size()));
  for (const Diagnostic& diagnostic : diagnostics) {
    out.str(diagnostic.code);
    out.str(diagnostic.message);
    out.u32(diagnostic.range.start);
    out.u32(diagnostic.range.end);
    out.u8(static_cast<uint8_t>(diagnostic.severity));
    out.u32(static_cast<uint32_t>(diagnostic.fixes.size()));
    for (const Fix& fix : diagnostic.fixes) {
      out.str(fix.title);
      out.u32(static_cast<uint32_t>(fix.edits.size()));
      for (const Edit& edit : fix.edits) {
        out.u32(edit.range.start);
        out.u32(edit.range.end);
        out.str(edit.replacement);
      }
      out.u8(static_cast<uint8_t>(fix.applicability));
      out.str(fix.requirements.torch ? fix.requirements.torch->str() : "");
      out.str(fix.requirements.below ? fix.requirements.below->str() : "");
      out.u32(static_cast<uint32_t>(fix.imported_modules.size()));
      for (const std::string& module : fix.imported_modules) out.str(module);
      out.u8(static_cast<uint8_t>(fix.policy));
    }
  }
  return std::move(out.bytes());
}

// A range must lie inside the text and start and end on character boundaries.
TextRange range_in(std::string_view text, uint32_t start, uint32_t end) {
  require(start <= end && end <= text.size());
  auto boundary = [&](uint32_t at) { return at == text.size() || (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80; };
  require(boundary(start) && boundary(end));
  return {start, end};
}

bool known_code(const std::string& code, const Catalog& catalog) {
  return code == kIoErrorCode || code == kParseErrorCode || code == kInternalErrorCode || catalog.find(code) != nullptr;
}

// Smallest encodings, for Reader::count: a diagnostic, a fix, an edit, a module name.
constexpr size_t kLeastDiagnostic = 21, kLeastFix = 22, kLeastEdit = 12, kLeastString = 4;

std::vector<Diagnostic> decode(std::string_view payload, std::string_view text, const Catalog& catalog) {
  Reader in(payload);
  std::vector<Diagnostic> diagnostics(in.count(kLeastDiagnostic));
  for (Diagnostic& diagnostic : diagnostics) {
    diagnostic.code = in.str();
    require(known_code(diagnostic.code, catalog));
    diagnostic.message = in.str();
    uint32_t start = in.u32();
    diagnostic.range = range_in(text, start, in.u32());
    diagnostic.severity = static_cast<Severity>(in.choice(static_cast<int>(Severity::Info)));
    diagnostic.fixes.resize(in.count(kLeastFix));
    for (Fix& fix : diagnostic.fixes) {
      fix.title = in.str();
      fix.edits.resize(in.count(kLeastEdit));
      for (Edit& edit : fix.edits) {
        uint32_t edit_start = in.u32();
        edit.range = range_in(text, edit_start, in.u32());
        edit.replacement = in.str();
      }
      fix.applicability = static_cast<Applicability>(in.choice(static_cast<int>(Applicability::DisplayOnly)));
      auto version = [&](std::optional<TorchVersion>& into) {
        std::string_view text = in.str();
        if (text.empty()) return;
        try {
          into = TorchVersion::parse(std::string(text));
        } catch (const std::invalid_argument&) {
          throw Rejected{};
        }
      };
      version(fix.requirements.torch);
      version(fix.requirements.below);
      fix.imported_modules.resize(in.count(kLeastString));
      for (std::string& module : fix.imported_modules) module = in.str();
      fix.policy = static_cast<FixPolicy>(in.choice(static_cast<int>(FixPolicy::AdoptNew)));
    }
  }
  require(in.done());
  return diagnostics;
}

// The first line of the file: magic, format and the checksum of everything after the line.
std::string header(std::string_view body) {
  return std::string(kMagic) + ' ' + std::to_string(kFormat) + ' ' + cache_hash({body}) + '\n';
}

uint32_t today() {
  return static_cast<uint32_t>(
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()).time_since_epoch().count());
}

// Identifies one version of a file: a run that replaced the cache file made a new inode.
using Stamp = ResultCache::FileStamp;

void write_stamp(Writer& out, const std::optional<Stamp>& stamp) {
  out.u8(stamp ? 1 : 0);
  if (!stamp) return;
  out.u64(stamp->device);
  out.u64(stamp->inode);
  out.u64(stamp->size);
  out.u64(static_cast<uint64_t>(stamp->mtime_ns));
  out.u64(static_cast<uint64_t>(stamp->ctime_ns));
}

std::optional<Stamp> read_stamp(Reader& in) {
  if (in.choice(1) == 0) return std::nullopt;
  Stamp stamp;
  stamp.device = in.u64();
  stamp.inode = in.u64();
  stamp.size = in.u64();
  stamp.mtime_ns = static_cast<int64_t>(in.u64());
  stamp.ctime_ns = static_cast<int64_t>(in.u64());
  return stamp;
}

struct Stored {
  std::string_view settings;
  uint32_t day = 0;
  std::optional<Stamp> file;  // the checked file's stamp when its text was read (see FileStamp)
  std::string_view payload;
};

// The cache file as read: its entries point into `bytes`, which never changes after reading.
struct Snapshot {
  struct Entry {
    std::string_view key;
    Stored stored;
  };
  std::unique_ptr<char[]> bytes;  // not a string: the whole file would be zeroed before the read
  size_t size = 0;
  std::optional<Stamp> stamp;  // none: there was no file
  // By key, one entry per key: save() writes them sorted, so they are read in order, without a
  // node per entry (a warm run looks up every file of the tree in here).
  std::vector<Entry> entries;

  [[nodiscard]] const Entry* find(std::string_view key) const {
    auto found = std::lower_bound(entries.begin(), entries.end(), key,
                                  [](const Entry& entry, std::string_view wanted) { return entry.key < wanted; });
    return found != entries.end() && found->key == key ? &*found : nullptr;
  }
  // The entry of `slot` that records the checked file's stamp (the last, should there be more).
  [[nodiscard]] const Entry* stamped(std::string_view slot) const {
    auto first = std::lower_bound(entries.begin(), entries.end(), slot,
                                  [](const Entry& entry, std::string_view wanted) { return entry.key < wanted; });
    const Entry* found = nullptr;
    for (auto it = first; it != entries.end() && it->key.starts_with(slot); ++it) {
      if (it->stored.file) found = &*it;
    }
    return found;
  }
  [[nodiscard]] size_t index_of(const Entry& entry) const { return static_cast<size_t>(&entry - entries.data()); }
};

// Smallest encoding of an entry (key, settings, day, stamp flag, payload), for Reader::count.
constexpr size_t kLeastEntry = 17;
// Hex digits of a cache_hash: a key is the slot's hash followed by the content's.
constexpr size_t kSlotSize = 32;

// A file that does not verify has no entries: it is replaced at the end of the run.
std::unique_ptr<Snapshot> read_snapshot(const fs::path& file) {
  auto snapshot = std::make_unique<Snapshot>();
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return snapshot;
  struct stat info {};
  bool ok = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  if (ok) {
    snapshot->stamp = stamp_of(info);
    snapshot->size = static_cast<size_t>(info.st_size);
    snapshot->bytes = std::make_unique_for_overwrite<char[]>(snapshot->size);
    size_t done = 0;
    while (ok && done < snapshot->size) {
      ssize_t got = ::read(fd, snapshot->bytes.get() + done, snapshot->size - done);
      if (got < 0 && errno == EINTR) continue;
      ok = got > 0;
      if (ok) done += static_cast<size_t>(got);
    }
  }
  ::close(fd);
  if (!ok) {
    snapshot->size = 0;
    return snapshot;
  }
  std::string_view bytes(snapshot->bytes.get(), snapshot->size);
  size_t newline = bytes.find('\n');
  if (newline == std::string_view::npos) return snapshot;
  std::string_view body = bytes.substr(newline + 1);
  if (bytes.substr(0, newline + 1) != header(body)) return snapshot;
  std::vector<Snapshot::Entry>& entries = snapshot->entries;
  try {
    Reader in(body);
    require(in.str() == kVersion && in.str() == catalog_hash());
    uint32_t count = in.count(kLeastEntry);
    entries.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view key = in.str();
      require(key.size() == 2 * kSlotSize);
      Stored entry;
      entry.settings = in.str();
      entry.day = in.u32();
      entry.file = read_stamp(in);
      entry.payload = in.str();
      entries.push_back({key, entry});
    }
    require(in.done());
  } catch (const Rejected&) {
    entries.clear();
  }
  // A file written by another tool, or by hand, may be out of order or repeat a key: the first
  // of a key counts.
  auto by_key = [](const Snapshot::Entry& a, const Snapshot::Entry& b) { return a.key < b.key; };
  if (!std::is_sorted(entries.begin(), entries.end(), by_key)) std::stable_sort(entries.begin(), entries.end(), by_key);
  auto same_key = [](const Snapshot::Entry& a, const Snapshot::Entry& b) { return a.key == b.key; };
  entries.erase(std::unique(entries.begin(), entries.end(), same_key), entries.end());
  return snapshot;
}

// Is `path` (after resolving the links of its longest existing prefix) inside `root`?
bool resolves_inside(const fs::path& path, const fs::path& root) {
  std::error_code error;
  fs::path existing = path;
  fs::path rest;
  while (!fs::exists(fs::symlink_status(existing, error)) && existing.has_relative_path()) {
    rest = existing.filename() / rest;
    existing = existing.parent_path();
  }
  fs::path resolved = fs::weakly_canonical(existing, error);
  if (error) return false;
  fs::path real_root = fs::weakly_canonical(root, error);
  if (error) return false;
  fs::path relative = (resolved / rest).lexically_normal().lexically_relative(real_root);
  return !relative.empty() && *relative.begin() != ".." && relative != ".";
}

// A directory created here is marked as a cache: for git (`*` ignores everything in it, as
// Ruff's cache does) and for backup tools (https://bford.info/cachedir/).
std::string mark_as_cache(const fs::path& directory) {
  std::ofstream ignore(directory / ".gitignore");
  ignore << "# Created by torchmigrate: this directory is a cache.\n*\n";
  std::ofstream tag(directory / "CACHEDIR.TAG");
  tag << "Signature: 8a477f597d28d172789f06886806bc55\n"
         "# This file is a cache directory tag created by torchmigrate.\n"
         "# For information about cache directory tags, see https://bford.info/cachedir/\n";
  return ignore && tag ? "" : "cannot write its .gitignore and CACHEDIR.TAG";
}

}  // namespace

// Project facts in the cache file: an entry per project root, whose settings field holds every
// fact's key and whose payload holds what they were gathered from.
class CachedFacts final : public FactMemo {
 public:
  explicit CachedFacts(ResultCache::State& state) : state_(state) {}
  [[nodiscard]] std::optional<StoredFacts> recall(const std::string& project_root) const override;
  void remember(const std::string& project_root, const StoredFacts& facts, int64_t newest_ns) const override;

 private:
  ResultCache::State& state_;
};

struct ResultCache::State {
  struct Fresh {
    std::string settings;
    std::optional<Stamp> file;
    std::string payload;
  };

  const Catalog* catalog = nullptr;  // the run's: an entry names only its rules
  fs::path directory;
  std::ostream* warnings = nullptr;
  std::unique_ptr<Snapshot> disk;  // read once at open, never changed
  uint32_t today = 0;

  std::mutex mutex;                    // guards what follows
  std::map<std::string, Fresh> fresh;  // stored this run
  std::vector<bool> used;              // by index into `disk`'s entries: served this run
  std::map<std::string_view, Stamp> restamped;  // served keys of `disk` whose file now has a trustworthy stamp
  int64_t opened_ns = 0;                   // when the run opened the cache (wall clock)
  bool dirty = false;                  // something to save
  bool warned = false;
  unsigned saves = 0;
  CachedFacts facts{*this};

  [[nodiscard]] fs::path file() const { return directory / kCacheFileName; }

  void warn_once(const std::string& problem) {
    if (warnings == nullptr || warned) return;
    warned = true;
    *warnings << "torchmigrate: warning: cannot write the cache in " << directory.string() << ": " << problem
              << "; findings are not cached\n";
  }
};

namespace {

// A stamp taken before the file was read identifies that text only when the file's times lie
// before this run began: a file written in the same clock tick as its stamp could change again
// without its stamp changing (git calls such an index entry "racily clean").
std::optional<Stamp> trustworthy(const std::optional<Stamp>& stamp, int64_t opened_ns) {
  constexpr int64_t kMargin = 2'000'000'000;
  if (!stamp || stamp->mtime_ns >= opened_ns - kMargin || stamp->ctime_ns >= opened_ns - kMargin) return std::nullopt;
  return stamp;
}

}  // namespace

namespace {

// The key of a project's facts: a slot of their own (no file's slot hashes these words) and a
// fixed second half; whether the entry still holds is decided by its inputs, not its key.
std::string facts_key(const std::string& project_root) {
  std::string slot = cache_hash({"project facts", std::string_view("\0", 1), kVersion, catalog_hash(), project_root});
  return slot + cache_hash({slot, "facts"});
}

std::string encode(const StoredFacts& facts) {
  Writer out;
  out.str(facts.signature);
  out.u32(static_cast<uint32_t>(facts.extra_paths.size()));
  for (const std::string& path : facts.extra_paths) out.str(path);
  return std::move(out.bytes());
}

StoredFacts decode_facts(std::string_view payload, std::string_view keys) {
  Reader in(payload);
  StoredFacts facts;
  facts.signature = in.str();
  facts.extra_paths.resize(in.count(kLeastString));
  for (std::string& path : facts.extra_paths) path = in.str();
  require(in.done());
  facts.keys = keys;
  return facts;
}

}  // namespace

std::optional<StoredFacts> CachedFacts::recall(const std::string& project_root) const {
  std::string key = facts_key(project_root);
  std::lock_guard lock(state_.mutex);
  try {
    if (auto it = state_.fresh.find(key); it != state_.fresh.end()) {
      return decode_facts(it->second.payload, it->second.settings);
    }
    const Snapshot::Entry* found = state_.disk->find(key);
    if (found == nullptr) return std::nullopt;
    StoredFacts facts = decode_facts(found->stored.payload, found->stored.settings);
    // Served or not, the entry stays until remember() replaces it: a project not gathered again
    // keeps its facts.
    state_.used[state_.disk->index_of(*found)] = true;
    if (found->stored.day < state_.today) state_.dirty = true;
    return facts;
  } catch (const Rejected&) {
    return std::nullopt;
  }
}

void CachedFacts::remember(const std::string& project_root, const StoredFacts& facts, int64_t newest_ns) const {
  ResultCache::FileStamp newest;
  newest.mtime_ns = newest.ctime_ns = newest_ns;
  if (!trustworthy(newest, state_.opened_ns)) return;
  std::string key = facts_key(project_root);
  std::lock_guard lock(state_.mutex);
  state_.fresh.insert_or_assign(key, ResultCache::State::Fresh{facts.keys, std::nullopt, encode(facts)});
  state_.dirty = true;
}

std::string ResultCache::fingerprint(const Settings& settings, FactsRead facts) const {
  return settings_hash(settings, facts, &state_->facts);
}

const FactMemo& ResultCache::fact_memo() const { return state_->facts; }

ResultCache::ResultCache(std::shared_ptr<State> state) : state_(std::move(state)) {}

const fs::path& ResultCache::directory() const { return state_->directory; }

std::optional<ResultCache> ResultCache::open(const Catalog& catalog, const fs::path& directory,
                                             const std::optional<fs::path>& confine_to, std::string& problem,
                                             std::ostream* warnings) {
  std::error_code error;
  if (confine_to && !resolves_inside(directory, *confine_to)) {
    problem = "it is not inside " + confine_to->string() + " (after resolving symbolic links)";
    return std::nullopt;
  }
  fs::file_status status = fs::status(directory, error);
  if (!fs::exists(status)) {
    fs::create_directories(directory, error);
    if (error) {
      problem = "cannot create it: " + error.message();
      return std::nullopt;
    }
    problem = mark_as_cache(directory);
    if (!problem.empty()) return std::nullopt;
  } else if (!fs::is_directory(status)) {
    problem = "it is not a directory";
    return std::nullopt;
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    problem = "it is not writable";
    return std::nullopt;
  }
  auto state = std::make_shared<State>();
  state->catalog = &catalog;
  state->directory = directory;
  state->warnings = warnings;
  state->today = today();
  state->opened_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  state->disk = read_snapshot(state->file());
  state->used.assign(state->disk->entries.size(), false);
  return ResultCache(std::move(state));
}

std::string ResultCache::settings_fingerprint(const Settings& settings, FactsRead facts) {
  return settings_hash(settings, facts);
}

std::string ResultCache::key(std::string_view path, std::string_view text, const Settings& settings) {
  return key(slot(path, settings, settings_hash(settings, path)), text);
}

std::string ResultCache::slot(std::string_view path, const Settings& settings, std::string_view fingerprint) {
  std::string slot_material = std::string(kVersion) + '\0' + catalog_hash();
  slot_material += '\0';
  slot_material += portable_path(path, settings);
  slot_material += '\0';
  slot_material += fingerprint;
  return cache_hash({slot_material});
}

std::string ResultCache::key(const std::string& slot, std::string_view text) {
  // The pieces are hashed in place: a copy of every text cost a cached run a percent.
  return slot + cache_hash({slot, std::string_view("\0", 1), text});
}

bool ResultCache::has_stamp(const std::string& slot) const { return state_->disk->stamped(slot) != nullptr; }

bool ResultCache::unchanged_without_findings(const std::string& slot, std::string_view fingerprint,
                                             const FileStamp& stamp) const {
  State& state = *state_;
  const Snapshot::Entry* found = state.disk->stamped(slot);
  if (found == nullptr) return false;
  const Stored& stored = found->stored;
  try {
    require(stored.file == stamp && stored.settings == fingerprint);
    // Ranges are checked against the text, which is not read here: only an entry without
    // findings (whose payload decodes against any text) is served.
    require(decode(stored.payload, "", *state.catalog).empty());
  } catch (const Rejected&) {
    return false;
  }
  std::lock_guard lock(state.mutex);
  state.used[state.disk->index_of(*found)] = true;
  if (stored.day < state.today) state.dirty = true;
  return true;
}

std::optional<std::vector<Diagnostic>> ResultCache::load(const std::string& key, std::string_view path,
                                                         const Settings& settings, std::string_view text) const {
  return load(key, settings_hash(settings, path), text);
}

std::optional<std::vector<Diagnostic>> ResultCache::load(const std::string& key, std::string_view fingerprint,
                                                         std::string_view text,
                                                         const std::optional<FileStamp>& stamp) const {
  State& state = *state_;
  std::string fresh_settings, fresh_payload;
  std::string_view stored_settings, payload;
  const Snapshot::Entry* disk_entry = nullptr;  // in the snapshot, which outlives the run's bookkeeping
  const Stored* stored = nullptr;
  {
    std::lock_guard lock(state.mutex);
    if (auto it = state.fresh.find(key); it != state.fresh.end()) {
      fresh_settings = it->second.settings;
      fresh_payload = it->second.payload;
      stored_settings = fresh_settings;
      payload = fresh_payload;
    } else if (const Snapshot::Entry* found = state.disk->find(key)) {
      disk_entry = found;
      stored = &found->stored;  // `disk` is immutable: safe to read without the lock
      stored_settings = stored->settings;
      payload = stored->payload;
    } else {
      return std::nullopt;
    }
  }
  std::vector<Diagnostic> diagnostics;
  try {
    require(stored_settings == fingerprint);
    diagnostics = decode(payload, text, *state_->catalog);
  } catch (const Rejected&) {
    return std::nullopt;
  }
  if (stored != nullptr) {
    std::lock_guard lock(state.mutex);
    state.used[state.disk->index_of(*disk_entry)] = true;
    // Its day is refreshed at most once a day: a warm run of an unchanged tree writes nothing.
    if (stored->day < state.today) state.dirty = true;
    // A checkout the cache has not seen (another clone, a CI restore) is read once, then served
    // by its stamps.
    if (std::optional<FileStamp> fresh = trustworthy(stamp, state.opened_ns); fresh && stored->file != fresh) {
      state.restamped.insert_or_assign(disk_entry->key, *fresh);
      state.dirty = true;
    }
  }
  return diagnostics;
}

void ResultCache::store(const std::string& key, std::string_view path, const Settings& settings,
                        const std::vector<Diagnostic>& diagnostics) const {
  store(key, settings_hash(settings, path), diagnostics);
}

void ResultCache::store(const std::string& key, std::string_view fingerprint,
                        const std::vector<Diagnostic>& diagnostics, const std::optional<FileStamp>& stamp) const {
  State::Fresh entry{std::string(fingerprint), trustworthy(stamp, state_->opened_ns), encode(diagnostics)};
  std::lock_guard lock(state_->mutex);
  state_->fresh.insert_or_assign(key, std::move(entry));
  state_->dirty = true;
}

void ResultCache::save() const {
  State& state = *state_;
  std::lock_guard lock(state.mutex);
  if (!state.dirty) return;
  state.dirty = false;
  // The file as it is now: another run may have replaced it since this one read it.
  const Snapshot* base = state.disk.get();
  std::unique_ptr<Snapshot> current;
  if (stamp_file(state.file()) != state.disk->stamp) {
    current = read_snapshot(state.file());
    base = current.get();
  }

  // A slot this run served or stored keeps only that entry: the file's older texts go.
  std::set<std::string_view> slots;
  std::map<std::string_view, Stored> out;  // sorted: the same entries make the same file
  for (const auto& [key, entry] : state.fresh) {
    out[key] = {entry.settings, state.today, entry.file, entry.payload};
    slots.insert(std::string_view(key).substr(0, kSlotSize));
  }
  for (size_t index = 0; index < state.used.size(); ++index) {
    if (!state.used[index]) continue;
    auto [key, entry] = state.disk->entries[index];
    entry.day = state.today;
    if (auto restamped = state.restamped.find(key); restamped != state.restamped.end()) entry.file = restamped->second;
    out.emplace(key, entry);
    slots.insert(std::string_view(key).substr(0, kSlotSize));
  }
  for (const auto& [key, entry] : base->entries) {
    // Entries of files this run did not see (other projects, files outside its paths) are kept
    // until unused for kKeepDays: the file stays bounded by what was checked in that time.
    if (slots.count(key.substr(0, kSlotSize)) != 0 || entry.day + kKeepDays < state.today) continue;
    out.emplace(key, entry);
  }

  Writer body;
  body.str(kVersion);
  body.str(catalog_hash());
  body.u32(static_cast<uint32_t>(out.size()));
  for (const auto& [key, entry] : out) {
    body.str(key);
    body.str(entry.settings);
    body.u32(entry.day);
    write_stamp(body, entry.file);
    body.str(entry.payload);
  }
  // Written beside the file and renamed, so a reader never sees half a file.
  fs::path temporary = state.file();
  temporary += ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(state.saves++);
  std::error_code error;
  {
    std::ofstream stream(temporary, std::ios::binary | std::ios::trunc);
    stream << header(body.bytes()) << body.bytes();
    stream.close();
    if (!stream) {
      fs::remove(temporary, error);
      return state.warn_once("cannot write " + temporary.string());
    }
  }
  fs::rename(temporary, state.file(), error);
  if (error) {
    fs::remove(temporary, error);
    state.warn_once(error.message());
  }
}

std::optional<ResultCache> open_result_cache(const Catalog& catalog, const std::string& cli_directory,
                                             const ResolvedConfig& config, std::ostream& warnings) {
  fs::path directory;
  std::optional<fs::path> confine_to;
  const char* environment = std::getenv(kCacheDirEnvironment);
  if (!cli_directory.empty()) {
    directory = cli_directory;
  } else if (environment != nullptr && *environment != '\0') {
    directory = environment;
  } else if (config.cache_dir) {
    directory = *config.cache_dir;
    confine_to = config.cache_dir_root;
  } else {
    return std::nullopt;
  }
  std::string problem;
  std::optional<ResultCache> cache = ResultCache::open(catalog, directory, confine_to, problem, &warnings);
  if (!cache) {
    warnings << "torchmigrate: warning: not using the cache directory " << directory.string() << ": " << problem
             << "; findings are not cached\n";
  }
  return cache;
}

}  // namespace torchmigrate::engine
