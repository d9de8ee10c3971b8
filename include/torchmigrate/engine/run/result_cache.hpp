// SPDX-License-Identifier: MIT
// Result cache: findings keyed by the file's content, its path inside its project, the settings
// and the tool build (version and rule catalog), so an unchanged file costs a hash and a lookup,
// in any checkout of the project; and in the checkout that wrote an entry, an unchanged file
// without findings costs a stat (FileStamp).
//
// One file per cache directory (`results.bin`), read once when the cache opens and written once
// by save() at the end of the run: a run costs two file operations, not one per checked file.
// The file is never trusted as stored: its header carries the format version and a checksum of
// everything after it, and its body the tool version and catalog hash; a file that does not
// verify is ignored as a whole. Each entry also carries its settings hash, and every finding is
// checked against the file (known code and severity, ranges inside the text). An entry that does
// not verify is a miss, and the fresh findings replace it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/workspace/config.hpp"
#include "torchmigrate/engine/workspace/fact_memo.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"

namespace torchmigrate::engine {

// The environment variable naming a cache directory, like --cache-dir.
inline constexpr const char* kCacheDirEnvironment = "TORCHMIGRATE_CACHE_DIR";

// The file in the cache directory that holds every entry.
inline constexpr const char* kCacheFileName = "results.bin";

class CachedFacts;

class ResultCache {
 public:
  using FileStamp = engine::FileStamp;  // engine/workspace/file_io.hpp
  // nullopt when the file cannot be stat'ed.
  [[nodiscard]] static std::optional<FileStamp> stamp(const std::filesystem::path& file) { return stamp_file(file); }
  // Whether an entry under `slot` records a stamp: only then can stamping the file spare reading it.
  [[nodiscard]] bool has_stamp(const std::string& slot) const;

  // Opens the cache in `directory`, creating it when missing; a directory created here gets a
  // `.gitignore` (`*`) and a `CACHEDIR.TAG`, an existing one is used as it is. With `confine_to`
  // (a cache-dir from a configuration file) the directory, after resolving symbolic links, must
  // lie inside that directory. Reads the cache file (a missing or unverifiable one is empty).
  // Returns nullopt with `problem` set when the cache cannot be used.
  // Entries naming a code that is not `catalog`'s (or a file problem's) are not served.
  static std::optional<ResultCache> open(const Catalog& catalog, const std::filesystem::path& directory,
                                         const std::optional<std::filesystem::path>& confine_to, std::string& problem,
                                         std::ostream* warnings = nullptr);

  // What of `settings` a file's findings depend on, as a hash, with the project facts its rules
  // read (Linter::facts_read; gathering them reads the whole project). The same for every
  // file that reads the same facts under one Settings: a run computes it once per linter and
  // set of facts, not once per file.
  [[nodiscard]] static std::string settings_fingerprint(const Settings& settings, FactsRead facts);
  // The same, with the project's facts recalled from this cache while what they were gathered
  // from is unchanged (fact_memo.hpp), else gathered and kept here for later runs.
  [[nodiscard]] std::string fingerprint(const Settings& settings, FactsRead facts) const;
  // Project facts kept in the cache file beside the findings. Valid while this cache lives.
  [[nodiscard]] const FactMemo& fact_memo() const;
  // A file's slot: a hash of the tool build, the path in its project and the settings'
  // fingerprint. A new text of the same file replaces the entry of its slot.
  [[nodiscard]] static std::string slot(std::string_view path, const Settings& settings, std::string_view fingerprint);
  // The slot followed by a hash of the slot and the text.
  [[nodiscard]] static std::string key(const std::string& slot, std::string_view text);
  [[nodiscard]] static std::string key(std::string_view path, std::string_view text, const Settings& settings);
  // True when the slot's entry was made from a file with exactly `stamp` and has no findings:
  // the file need not be read. Thread-safe.
  [[nodiscard]] bool unchanged_without_findings(const std::string& slot, std::string_view fingerprint,
                                                const FileStamp& stamp) const;
  // nullopt on a miss or an entry that does not verify against the settings' fingerprint and
  // `text`. A hit records `stamp` (the file's, taken before reading `text`) for later runs.
  // Thread-safe, like store().
  [[nodiscard]] std::optional<std::vector<Diagnostic>> load(const std::string& key, std::string_view fingerprint,
                                                            std::string_view text,
                                                            const std::optional<FileStamp>& stamp = std::nullopt) const;
  [[nodiscard]] std::optional<std::vector<Diagnostic>> load(const std::string& key, std::string_view path,
                                                            const Settings& settings, std::string_view text) const;
  // Kept in memory until save(), with `stamp` (taken before the text was read).
  void store(const std::string& key, std::string_view fingerprint, const std::vector<Diagnostic>& diagnostics,
             const std::optional<FileStamp>& stamp = std::nullopt) const;
  void store(const std::string& key, std::string_view path, const Settings& settings,
             const std::vector<Diagnostic>& diagnostics) const;
  // Writes the cache file once, when this run stored or used entries: this run's entries, and
  // those of the file as it is now (re-read if another run replaced it since open) that are
  // neither replaced by this run nor unused for 30 days. Temporary file and rename: a reader
  // never sees half a file; of two runs saving at once the last wins and the other's new entries
  // are lost (they are recomputed next time). Best effort: a failure only costs speed (said once
  // on `warnings`).
  void save() const;
  [[nodiscard]] const std::filesystem::path& directory() const;

 private:
  struct State;
  friend class CachedFacts;
  explicit ResultCache(std::shared_ptr<State> state);

  std::shared_ptr<State> state_;
};

// The cache a run uses: --cache-dir (`cli_directory`), else $TORCHMIGRATE_CACHE_DIR, else the
// configuration's cache-dir (confined to the configuration's directory); none without any.
// A directory that cannot be used is reported once on `warnings` and the run goes uncached.
std::optional<ResultCache> open_result_cache(const Catalog& catalog, const std::string& cli_directory,
                                             const ResolvedConfig& config, std::ostream& warnings);

}  // namespace torchmigrate::engine
