// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/file_io.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace torchmigrate::engine {

namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

bool no_write_permission(const char* path, const struct stat& info) {
  // access() alone is not enough: it grants root everything, yet a 0444 file is meant to stay.
  return (info.st_mode & 0222) == 0 || ::access(path, W_OK) != 0;
}

// Removes the temporary file unless it was renamed into place, also when a hook throws.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string path) : path_(std::move(path)) {}
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  bool open() {
    fd_ = ::mkstemp(path_.data());
    return fd_ >= 0;
  }
  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  bool close() {
    int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }
  void commit() { committed_ = true; }

 private:
  std::string path_;
  int fd_ = -1;
  bool committed_ = false;
};

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

}  // namespace

namespace {

int64_t nanoseconds(const struct timespec& time) {
  return static_cast<int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

}  // namespace

FileStamp stamp_of(const struct stat& info) {
  return {static_cast<uint64_t>(info.st_dev), static_cast<uint64_t>(info.st_ino), static_cast<uint64_t>(info.st_size),
          nanoseconds(info.st_mtim), nanoseconds(info.st_ctim)};
}

std::optional<FileStamp> stamp_file(const char* path) {
  struct stat info {};
  if (::stat(path, &info) != 0) return std::nullopt;
  return stamp_of(info);
}

ReadResult read_file(const fs::path& path, bool for_writing) {
  // O_NONBLOCK so that a FIFO given on the command line cannot hang the run.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return {std::nullopt, errno_text()};
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    std::string error = errno_text();
    ::close(fd);
    return {std::nullopt, error};
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    return {std::nullopt, "not a regular file"};
  }
  // Read into the string itself (no copy through a buffer); a file that grew meanwhile is read
  // to its end, one that shrank is cut where it ended.
  std::string bytes(static_cast<size_t>(info.st_size) + 1, '\0');
  size_t filled = 0;
  for (;;) {
    if (filled == bytes.size()) bytes.resize(bytes.size() * 2);
    const size_t asked = bytes.size() - filled;
    ssize_t got = ::read(fd, bytes.data() + filled, asked);
    if (got < 0) {
      if (errno == EINTR) continue;
      std::string error = errno_text();
      ::close(fd);
      return {std::nullopt, error};
    }
    if (got == 0) break;
    filled += static_cast<size_t>(got);
    // All the bytes fstat promised, and a read that returned less than it was asked for (the
    // buffer holds one byte more): the end, without another read to hear it (a read per file
    // adds up over a tree). A short read before that point is read on.
    if (filled == static_cast<size_t>(info.st_size) && static_cast<size_t>(got) < asked) break;
  }
  ::close(fd);
  bytes.resize(filled);
  return {std::move(bytes), {}, for_writing && no_write_permission(path.c_str(), info), stamp_of(info)};
}

std::vector<std::string> regular_files_named(const fs::path& directory,
                                             const std::function<bool(std::string_view name)>& wanted) {
  std::vector<std::string> names;
  DIR* listing = ::opendir(directory.c_str());
  if (listing == nullptr) return names;
  while (const dirent* entry = ::readdir(listing)) {
    std::string_view name = entry->d_name;
    if (!wanted(name)) continue;
    std::error_code error;
    if (entry->d_type == DT_REG ||
        ((entry->d_type == DT_LNK || entry->d_type == DT_UNKNOWN) && fs::is_regular_file(directory / name, error))) {
      names.emplace_back(name);
    }
  }
  ::closedir(listing);
  return names;
}

size_t invalid_utf8_offset(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  size_t size = text.size();
  for (size_t i = 0; i < size;) {
    // ASCII, nearly all of a source file, eight bytes at a time.
    if (uint64_t word = 0; i + sizeof word <= size) {
      std::memcpy(&word, bytes + i, sizeof word);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += sizeof word;
        continue;
      }
    }
    unsigned char lead = bytes[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    size_t length;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;   // no overlong forms
      if (lead == 0xED) high = 0x9F;  // no UTF-16 surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;   // no overlong forms
      if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + length > size) return i;
    if (bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (size_t k = 2; k < length; ++k) {
      if ((bytes[i + k] & 0xC0) != 0x80) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

DecodedSource decode_source(std::string bytes) {
  DecodedSource decoded;
  if (std::string_view(bytes).starts_with(kUtf8Bom)) {
    decoded.bom = true;
    bytes.erase(0, kUtf8Bom.size());
  }
  if (size_t nul = bytes.find('\0'); nul != std::string::npos) {
    decoded.skip_reason = "the file contains NUL bytes (binary?)";
  } else if (size_t bad = invalid_utf8_offset(bytes); bad != std::string_view::npos) {
    decoded.skip_reason = "the file is not valid UTF-8 (first bad byte at offset " +
                          std::to_string(bad + (decoded.bom ? kUtf8Bom.size() : 0)) + ")";
  }
  decoded.text = std::move(bytes);
  return decoded;
}

std::string encode_source(std::string_view text, bool bom) {
  std::string bytes;
  bytes.reserve(text.size() + (bom ? kUtf8Bom.size() : 0));
  if (bom) bytes.append(kUtf8Bom);
  bytes.append(text);
  return bytes;
}

std::string write_file_atomically(const fs::path& path, const std::string& content, const std::string& expected,
                                  const WriteHooks& hooks) {
  // Write through a symbolic link to its target: renaming over the link would replace it.
  std::error_code error;
  fs::path target = fs::canonical(path, error);
  if (error) return "cannot resolve the path: " + error.message();

  struct stat info {};
  if (::stat(target.c_str(), &info) != 0) return "cannot stat: " + errno_text();
  if (!S_ISREG(info.st_mode)) return "not a regular file";
  if (no_write_permission(target.c_str(), info)) return "the file is read-only; left unchanged";
  if (info.st_nlink > 1) {
    return "the file has " + std::to_string(info.st_nlink) +
           " hard links and replacing it would split them; left unchanged";
  }
  ReadResult current = read_file(target);
  if (!current.text) return "cannot re-read before writing: " + current.error;
  if (*current.text != expected) return "the file changed on disk while it was being fixed; left unchanged";

  // Hidden, beside the file (same file system, so the rename is atomic), named after it.
  std::string temporary_name = ".";
  temporary_name.append(target.filename().string()).append(".torchmigrate-XXXXXX");
  TemporaryFile temporary((target.parent_path() / temporary_name).string());
  if (!temporary.open()) return "cannot create a temporary file beside it: " + errno_text();
  if (!write_all(temporary.fd(), content)) return "write failed: " + errno_text();
  // Owner first: changing it may clear set-id bits that the mode then restores. Only root may
  // give a file away, so a failure here just leaves the temporary file ours.
  if (::fchown(temporary.fd(), info.st_uid, info.st_gid) != 0 && errno != EPERM) {
    return "cannot keep the owner: " + errno_text();
  }
  if (::fchmod(temporary.fd(), info.st_mode & 07777) != 0) return "cannot keep the permissions: " + errno_text();
  if (::fsync(temporary.fd()) != 0) return "write failed: " + errno_text();
  if (!temporary.close()) return "write failed: " + errno_text();

  if (hooks.before_rename) hooks.before_rename(temporary.path());

  // Last look before replacing: an editor may have saved the file while it was being fixed.
  current = read_file(target);
  if (!current.text || *current.text != expected) {
    return "the file changed on disk while it was being fixed; left unchanged";
  }
  if (::rename(temporary.path().c_str(), target.c_str()) != 0) return "rename failed: " + errno_text();
  temporary.commit();
  // Make the rename itself durable; a failure here cannot undo it, so it is not reported.
  int directory = ::open(target.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory >= 0) {
    ::fsync(directory);
    ::close(directory);
  }
  return {};
}

}  // namespace torchmigrate::engine
