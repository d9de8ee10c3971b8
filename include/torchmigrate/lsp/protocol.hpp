// SPDX-License-Identifier: MIT
// JSON-RPC 2.0 messages (parsed and validated from a frame's body, and built for replies) and
// the few LSP 3.17 structures the server reads and writes, with their JSON mappings.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace torchmigrate::lsp {

using json = nlohmann::json;

enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  RequestCancelled = -32800,
  ContentModified = -32801,  // the document changed while the request was being answered
  ServerCancelled = -32802,  // only for requests that allow it (pull diagnostics)
};

struct Request {
  json id;  // integer or string
  std::string method;
  json params;  // object, array or null when absent
};

struct Notification {
  std::string method;
  json params;
};

// A reply from the client to a request the server sent.
struct Response {
  json id;
  json result;
  json error;  // null unless the client reported an error
};

// A body that is not a valid message; answered with `code` and `id` (null when unknown).
struct Malformed {
  ErrorCode code = ErrorCode::InvalidRequest;
  std::string message;
  json id;
};

using Message = std::variant<Request, Notification, Response, Malformed>;

// Never throws: bad JSON becomes ParseError, a bad shape InvalidRequest.
Message parse_message(std::string_view body);

json make_response(const json& id, json result);
json make_error(const json& id, ErrorCode code, std::string_view message);
json make_notification(std::string_view method, json params);
json make_request(const json& id, std::string_view method, json params);

// --- LSP structures -------------------------------------------------------------------------

// `character` counts UTF-16 code units, as LSP requires by default.
struct Position {
  uint32_t line = 0;
  uint32_t character = 0;
  bool operator==(const Position&) const = default;
  auto operator<=>(const Position&) const = default;
};

struct Range {
  Position start;
  Position end;
  bool operator==(const Range&) const = default;
};

struct TextEdit {
  Range range;
  std::string new_text;
};

struct ContentChange {
  std::optional<Range> range;  // absent: the whole document is replaced
  std::string text;
};

enum class DiagnosticSeverity { Error = 1, Warning = 2, Information = 3, Hint = 4 };

struct LspDiagnostic {
  Range range;
  DiagnosticSeverity severity = DiagnosticSeverity::Warning;
  std::string code;
  std::string code_href;  // codeDescription.href; omitted when empty
  std::string message;
};

void to_json(json& out, const Position& position);
void from_json(const json& in, Position& position);
void to_json(json& out, const Range& range);
void from_json(const json& in, Range& range);
void to_json(json& out, const TextEdit& edit);
void from_json(const json& in, ContentChange& change);
void to_json(json& out, const LspDiagnostic& diagnostic);

inline constexpr const char* kSource = "torchmigrate";
inline constexpr const char* kFixAllKind = "source.fixAll.torchmigrate";
// The command a code action becomes for a client without `codeActionLiteralSupport`: its one
// argument is the WorkspaceEdit, which the server sends back with `workspace/applyEdit`.
inline constexpr const char* kApplyEditCommand = "torchmigrate.applyEdit";

}  // namespace torchmigrate::lsp
