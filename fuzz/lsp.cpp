// SPDX-License-Identifier: MIT
// The LSP transport and protocol (src/lsp/transport.cpp, protocol.cpp): the input is what a
// client writes to the server's stdin. Every frame is read and parsed as a JSON-RPC message;
// didOpen/didChange notifications drive a Python document through its incremental edits and
// re-parses (src/lsp/documents.cpp), and positions in any params are mapped through it
// (src/lsp/positions.cpp). Every reply the server could write for a message is framed and read
// back unchanged. The server's own handlers refuse bad params with json::exception or
// std::invalid_argument; anything else escaping is a bug.
#include <memory>
#include <sstream>
#include <string>

#include "fuzz_target.hpp"
#include "torchmigrate/lsp/documents.hpp"
#include "torchmigrate/lsp/positions.hpp"
#include "torchmigrate/lsp/protocol.hpp"
#include "torchmigrate/lsp/transport.hpp"

using namespace torchmigrate;
using namespace torchmigrate::lsp;

namespace {

// The reply travels through a second transport and comes back as the same JSON.
void round_trip(const json& message) {
  std::istringstream no_input;
  std::ostringstream written;
  Transport writer(no_input, written);
  writer.write(message);
  std::istringstream read_back(written.str());
  std::ostringstream unused;
  Transport reader(read_back, unused);
  const Frame frame = reader.read();
  FUZZ_REQUIRE(frame.status == Frame::Status::Message);
  FUZZ_REQUIRE(json::parse(frame.body) == message);
}

void handle(const std::string& method, const json& params, const json* id, std::unique_ptr<Document>& document) {
  if (method == "textDocument/didOpen") {
    document = std::make_unique<Document>("file:///fuzz.py", std::nullopt, Language::Python, 1,
                                          params.at("textDocument").at("text").get<std::string>());
  } else if (method == "textDocument/didChange") {
    if (!document) document = std::make_unique<Document>("file:///fuzz.py", std::nullopt, Language::Python, 1, "");
    const auto changes = params.at("contentChanges").get<std::vector<ContentChange>>();
    document->apply_changes(changes, document->version() + 1);
  }
  if (document && params.is_object()) {
    const PositionMapper mapper(document->file());
    if (params.contains("position")) {
      const uint32_t offset = mapper.offset(params["position"].get<Position>());
      FUZZ_REQUIRE(offset <= document->file().text().size());
      (void)mapper.position(offset);
    }
    if (params.contains("range")) {
      const TextRange range = mapper.text_range(params["range"].get<Range>());
      FUZZ_REQUIRE(range.end <= document->file().text().size());
      (void)mapper.range(range);
    }
  }
  if (id != nullptr) {
    round_trip(make_response(*id, params));
    round_trip(make_error(*id, ErrorCode::InvalidParams, method));
  } else {
    round_trip(make_notification(method, params));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in{std::string(fuzz::bytes(data, size))};
  std::ostringstream out;
  Transport transport(in, out);
  std::unique_ptr<Document> document;
  for (int frames = 0; frames < 64; ++frames) {
    const Frame frame = transport.read();
    if (frame.status == Frame::Status::EndOfStream) break;
    if (frame.status == Frame::Status::BadHeader) continue;
    const Message message = parse_message(frame.body);
    try {
      if (const auto* request = std::get_if<Request>(&message)) {
        handle(request->method, request->params, &request->id, document);
      } else if (const auto* notification = std::get_if<Notification>(&message)) {
        handle(notification->method, notification->params, nullptr, document);
      } else if (const auto* malformed = std::get_if<Malformed>(&message)) {
        round_trip(make_error(malformed->id, malformed->code, malformed->message));
      }
    } catch (const json::exception&) {
      // Invalid params: the server answers InvalidParams.
    } catch (const std::invalid_argument&) {
      // Likewise.
    }
  }
  return 0;
}
