// SPDX-License-Identifier: MIT
// Transcript tests: framed JSON-RPC goes in through the real transport and parser, the
// server's framed output comes back as one string to compare exactly.
#pragma once

#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/lsp/server.hpp"
#include "torchmigrate/lsp/transport.hpp"

namespace torchmigrate::lsp::testing {

inline std::string framed(std::initializer_list<std::string> bodies) {
  std::string out;
  for (const std::string& body : bodies) out += frame(body);
  return out;
}

struct TranscriptResult {
  std::string output;
  std::optional<int> exit_code;
};

// Feeds every frame of `input` to one server. By default each message is its own batch (as
// when the client waits for each reply); `one_batch` delivers them all at once.
inline TranscriptResult run_transcript(const std::string& input, bool one_batch = false) {
  std::istringstream in(input);
  std::ostringstream out;
  Transport transport(in, out);
  Server server([&](const json& message) { transport.write(message); }, engine::Catalog::builtin(),
                checks::builtin_registry());
  std::vector<Message> batch;
  for (;;) {
    Frame frame = transport.read();
    if (frame.status == Frame::Status::EndOfStream) break;
    Message message = frame.status == Frame::Status::BadHeader
                          ? Message(Malformed{ErrorCode::ParseError, "Parse error: " + frame.error, nullptr})
                          : parse_message(frame.body);
    if (one_batch) {
      batch.push_back(std::move(message));
    } else {
      server.handle(message);
    }
  }
  if (one_batch) server.handle_batch(batch);
  return {out.str(), server.exit_code()};
}

// The start of most transcripts: a client with the usual capabilities, rooted at /project.
inline const std::string kCodeActionCapabilities =
    R"({"textDocument":{"codeAction":{"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["quickfix","source"]}}},"hover":{"contentFormat":["markdown","plaintext"]}}})";
inline std::string initialize_request(const std::string& capabilities = kCodeActionCapabilities,
                                      const std::string& options = "null") {
  return R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///project","capabilities":)" +
         capabilities + R"(,"initializationOptions":)" + options + "}}";
}

inline const std::string kInitialized = R"({"jsonrpc":"2.0","method":"initialized","params":{}})";
inline const std::string kShutdown = R"({"jsonrpc":"2.0","id":99,"method":"shutdown"})";
inline const std::string kExit = R"({"jsonrpc":"2.0","method":"exit"})";

inline std::string did_open(const std::string& uri, const std::string& json_text, int version = 1,
                            const std::string& language_id = "python") {
  return R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":")" + uri +
         R"(","languageId":")" + language_id + R"(","version":)" + std::to_string(version) + R"(,"text":)" +
         json_text + "}}}";
}

}  // namespace torchmigrate::lsp::testing
