// SPDX-License-Identifier: MIT
#include "torchmigrate/lsp/protocol.hpp"

#include <algorithm>
#include <stdexcept>

namespace torchmigrate::lsp {
namespace {

bool valid_id(const json& id) { return id.is_number_integer() || id.is_string(); }

}  // namespace

Message parse_message(std::string_view body) {
  json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return Malformed{ErrorCode::ParseError, "Parse error: the body is not valid JSON", nullptr};
  if (!message.is_object()) {
    return Malformed{ErrorCode::InvalidRequest, "Invalid request: a message must be a JSON object", nullptr};
  }
  json id = message.contains("id") ? message["id"] : json();
  json reply_id = valid_id(id) ? id : json();
  auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0") {
    return Malformed{ErrorCode::InvalidRequest, "Invalid request: `jsonrpc` must be \"2.0\"", reply_id};
  }
  if (message.contains("id") && !valid_id(id)) {
    return Malformed{ErrorCode::InvalidRequest, "Invalid request: `id` must be an integer or a string", nullptr};
  }
  auto method = message.find("method");
  if (method == message.end()) {
    if (message.contains("id") && (message.contains("result") || message.contains("error"))) {
      return Response{id, message.value("result", json()), message.value("error", json())};
    }
    return Malformed{ErrorCode::InvalidRequest, "Invalid request: `method` is missing", reply_id};
  }
  if (!method->is_string()) {
    return Malformed{ErrorCode::InvalidRequest, "Invalid request: `method` must be a string", reply_id};
  }
  json params = message.value("params", json());
  if (!params.is_null() && !params.is_object() && !params.is_array()) {
    return Malformed{ErrorCode::InvalidRequest, "Invalid request: `params` must be an object or an array", reply_id};
  }
  if (message.contains("id")) return Request{id, method->get<std::string>(), std::move(params)};
  return Notification{method->get<std::string>(), std::move(params)};
}

json make_response(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json make_error(const json& id, ErrorCode code, std::string_view message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", static_cast<int>(code)}, {"message", message}}}};
}

json make_notification(std::string_view method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

json make_request(const json& id, std::string_view method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

void to_json(json& out, const Position& position) {
  out = {{"line", position.line}, {"character", position.character}};
}

void from_json(const json& in, Position& position) {
  // Negative or fractional numbers are invalid params; numbers past the text are clamped later.
  auto read = [&](const char* key) {
    const json& value = in.at(key);
    if (!value.is_number_unsigned()) {
      throw std::invalid_argument("a position needs non-negative integer `line` and `character`");
    }
    return static_cast<uint32_t>(std::min<uint64_t>(value.get<uint64_t>(), UINT32_MAX));
  };
  position.line = read("line");
  position.character = read("character");
}

void to_json(json& out, const Range& range) { out = {{"start", range.start}, {"end", range.end}}; }

void from_json(const json& in, Range& range) {
  range.start = in.at("start").get<Position>();
  range.end = in.at("end").get<Position>();
  if (range.end < range.start) throw std::invalid_argument("a range must not end before it starts");
}

void to_json(json& out, const TextEdit& edit) { out = {{"range", edit.range}, {"newText", edit.new_text}}; }

void from_json(const json& in, ContentChange& change) {
  change.text = in.at("text").get<std::string>();
  if (in.contains("range")) {
    change.range = in.at("range").get<Range>();
  } else {
    change.range.reset();
  }
}

void to_json(json& out, const LspDiagnostic& diagnostic) {
  out = {{"range", diagnostic.range},
         {"severity", static_cast<int>(diagnostic.severity)},
         {"code", diagnostic.code},
         {"source", kSource},
         {"message", diagnostic.message}};
  if (!diagnostic.code_href.empty()) out["codeDescription"] = {{"href", diagnostic.code_href}};
}

}  // namespace torchmigrate::lsp
