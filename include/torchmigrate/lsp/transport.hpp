// SPDX-License-Identifier: MIT
// LSP base protocol framing: `Content-Length: N\r\n\r\n` followed by N bytes of JSON, over any
// pair of streams (stdin/stdout for the server, string streams for tests).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <string>

namespace torchmigrate::lsp {

struct Frame {
  enum class Status {
    Message,      // `body` holds one message
    BadHeader,    // the header block was unusable; `error` says why, reading can go on
    EndOfStream,  // the input closed (possibly in the middle of a frame)
  };
  Status status = Status::EndOfStream;
  std::string body;
  std::string error;
};

// Bodies larger than this are refused rather than buffered.
inline constexpr size_t kMaxContentLength = size_t{256} << 20;

class Transport {
 public:
  Transport(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

  // Blocks until one frame is read. Called from one thread only.
  Frame read();
  // Frames and flushes one message; safe to call from several threads.
  void write(const nlohmann::json& message);

 private:
  std::istream& in_;
  std::ostream& out_;
  std::mutex write_mutex_;
};

// The framed bytes of one message (used by write, and by tests to build transcripts).
std::string frame(const std::string& body);

}  // namespace torchmigrate::lsp
