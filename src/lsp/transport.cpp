// SPDX-License-Identifier: MIT
#include "torchmigrate/lsp/transport.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <istream>
#include <optional>
#include <ostream>

namespace torchmigrate::lsp {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string trim(const std::string& text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

std::optional<size_t> parse_length(const std::string& value) {
  if (value.empty() || value.size() > 12) return std::nullopt;
  size_t length = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    length = length * 10 + static_cast<size_t>(c - '0');
  }
  return length;
}

}  // namespace

Frame Transport::read() {
  std::optional<size_t> length;
  std::string error;
  bool any_header = false;
  std::string line;
  // Header lines end with \r\n; a bare \n is accepted too.
  for (;;) {
    if (!std::getline(in_, line)) return {Frame::Status::EndOfStream, {}, {}};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (!any_header) continue;  // stray blank lines between frames
      break;
    }
    any_header = true;
    size_t colon = line.find(':');
    if (colon == std::string::npos) {
      if (error.empty()) error = "malformed header line";
      continue;
    }
    std::string name = lower(trim(line.substr(0, colon)));
    std::string value = trim(line.substr(colon + 1));
    if (name == "content-length") {
      length = parse_length(value);
      if (!length && error.empty()) error = "invalid Content-Length `" + value.substr(0, 20) + "`";
    }
  }
  if (!length) {
    return {Frame::Status::BadHeader, {}, error.empty() ? "the header has no Content-Length" : error};
  }
  if (*length > kMaxContentLength) {
    return {Frame::Status::BadHeader, {}, "Content-Length " + std::to_string(*length) + " is too large"};
  }
  Frame frame{Frame::Status::Message, std::string(*length, '\0'), {}};
  in_.read(frame.body.data(), static_cast<std::streamsize>(*length));
  if (static_cast<size_t>(in_.gcount()) != *length) return {Frame::Status::EndOfStream, {}, "truncated message"};
  if (!error.empty()) return {Frame::Status::BadHeader, {}, error};
  return frame;
}

std::string frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

void Transport::write(const nlohmann::json& message) {
  // Invalid UTF-8 in a file must not make the reply unserialisable: replace it.
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard lock(write_mutex_);
  out_ << frame(body);
  out_.flush();
}

}  // namespace torchmigrate::lsp
