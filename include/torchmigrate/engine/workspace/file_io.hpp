// SPDX-License-Identifier: MIT
// Reading source files and writing fixed ones atomically (temporary file in the same directory
// + rename), keeping permissions, owner, BOM and bytes, and refusing to overwrite a file that
// changed since it was read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct stat;

namespace torchmigrate::engine {

// A file as the file system describes it, taken before its text is read: the result cache
// records it (when the file was last written well before the run), and a later run serves an
// unchanged file without reading it, as git's index does. Any write changes the change time,
// even one that restores the modification time.
struct FileStamp {
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

// nullopt when the file cannot be stat'ed.
std::optional<FileStamp> stamp_file(const char* path);
inline std::optional<FileStamp> stamp_file(const std::filesystem::path& path) { return stamp_file(path.c_str()); }
FileStamp stamp_of(const struct ::stat& info);

struct ReadResult {
  std::optional<std::string> text;  // the raw bytes
  std::string error;                // set when text is empty
  bool read_only = false;           // no write permission: fixes are never written (and no chmod)
  // The opened file's stamp, taken before its bytes were read: the stamp a cache needs, without
  // a stat of the path of its own.
  std::optional<FileStamp> stamp = std::nullopt;
};

// `for_writing` also asks whether the file may be written (read_only; a syscall per file that a
// report run does not need).
ReadResult read_file(const std::filesystem::path& path, bool for_writing = false);

// The names of the regular files in `directory` (links followed) that `wanted` accepts. Names
// come from one listing; only a link or an entry of unknown type costs a stat.
std::vector<std::string> regular_files_named(const std::filesystem::path& directory,
                                             const std::function<bool(std::string_view name)>& wanted);

// What the engine sees of a file's bytes: the text without a UTF-8 byte order mark (so offsets,
// columns and the first line are those of the code), or why the file must not be touched.
struct DecodedSource {
  std::string text;
  bool bom = false;
  std::string skip_reason;  // non-empty for binary (NUL bytes) or non-UTF-8 content
};

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

DecodedSource decode_source(std::string bytes);
// The bytes to write for `text`, restoring the byte order mark when the file had one.
std::string encode_source(std::string_view text, bool bom);
// Offset of the first byte that is not part of well-formed UTF-8, or npos.
size_t invalid_utf8_offset(std::string_view text);

// Test seam for the write path: `before_rename` runs once the temporary file is complete and
// flushed, just before the rename, with the temporary file's path. Tests use it to simulate a
// crash there (throw, or _exit in a child process) or a concurrent edit of the original.
struct WriteHooks {
  std::function<void(const std::filesystem::path& temporary)> before_rename;
};

// Writes `content` to `path` (to the file a symbolic link points at, never replacing the link)
// only if the file still holds `expected`, checked again just before the rename. Returns an
// error message, or an empty string on success. Read-only files and files with several hard
// links are refused rather than modified.
std::string write_file_atomically(const std::filesystem::path& path, const std::string& content,
                                  const std::string& expected, const WriteHooks& hooks = {});

}  // namespace torchmigrate::engine
