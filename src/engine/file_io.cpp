// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace torchmigrate::engine {

namespace fs = std::filesystem;

ReadResult read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {std::nullopt, std::strerror(errno)};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return {std::nullopt, "read failed"};
  return {buffer.str(), {}};
}

std::string write_file_atomically(const fs::path& path, const std::string& content, const std::string& expected) {
  ReadResult current = read_file(path);
  if (!current.text) return "cannot re-read before writing: " + current.error;
  if (*current.text != expected) return "the file changed on disk while it was being fixed; left unchanged";

  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::string("cannot stat: ") + std::strerror(errno);
  std::string temp_template = (path.parent_path() / ("." + path.filename().string() + ".torchmigrate-XXXXXX")).string();
  int fd = ::mkstemp(temp_template.data());
  if (fd < 0) return std::string("cannot create a temporary file beside it: ") + std::strerror(errno);
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      std::string error = std::strerror(errno);
      ::close(fd);
      ::unlink(temp_template.c_str());
      return "write failed: " + error;
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  ::fchmod(fd, info.st_mode & 07777);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(temp_template.c_str());
    return std::string("write failed: ") + std::strerror(errno);
  }
  if (::rename(temp_template.c_str(), path.c_str()) != 0) {
    std::string error = std::strerror(errno);
    ::unlink(temp_template.c_str());
    return "rename failed: " + error;
  }
  return {};
}

}  // namespace torchmigrate::engine
