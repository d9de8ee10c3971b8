// SPDX-License-Identifier: MIT
// The language server: lifecycle, request dispatch and the handlers, on top of the engine.
// It receives parsed messages and hands replies to a sink, so tests drive it without I/O;
// run_server adds the transport and a reader thread.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/python_check.hpp"
#include "torchmigrate/lsp/documents.hpp"
#include "torchmigrate/lsp/protocol.hpp"
#include "torchmigrate/lsp/settings.hpp"
#include "torchmigrate/lsp/transport.hpp"

namespace torchmigrate::lsp {

struct ClientSupport {
  bool pull_diagnostics = false;
  bool diagnostic_refresh = false;
  bool document_changes = false;
  bool code_action_literals = false;
  bool apply_edit = false;  // workspace/applyEdit: code actions as commands for clients without literals
  bool hover_markdown = false;
  bool watch_files_registration = false;
};

class Server {
 public:
  using Sink = std::function<void(const json&)>;
  Server(Sink sink, const engine::Catalog& catalog, const engine::CheckRegistry& registry);

  // Handles messages that arrived together, in order. A $/cancelRequest in the batch cancels
  // a request of the batch; diagnostics are pushed once per changed document, at the end.
  void handle_batch(const std::vector<Message>& batch);
  void handle(const Message& message) { handle_batch({message}); }

  // Asked while a document is analysed: true when newer input already changes that document
  // (or input ended), so the analysis is stale and is stopped.
  void set_stale_check(std::function<bool(const std::string& uri)> stale) { stale_ = std::move(stale); }

  // Set once `exit` arrived: 0 after a shutdown request, 1 otherwise.
  [[nodiscard]] std::optional<int> exit_code() const { return exit_code_; }
  [[nodiscard]] bool shutdown_requested() const { return state_ == State::ShuttingDown; }

 private:
  enum class State { Uninitialized, Running, ShuttingDown, Exited };

  void dispatch_request(const Request& request, const std::vector<json>& cancelled);
  void dispatch_notification(const Notification& notification);

  json initialize(const json& params);
  json shutdown(const json& params);
  json code_action(const json& params);
  json execute_command(const json& params);
  json hover(const json& params);
  json pull_diagnostics(const json& params);

  void initialized(const json& params);
  void did_open(const json& params);
  void did_change(const json& params);
  void did_save(const json& params);
  void did_close(const json& params);
  void did_change_watched_files(const json& params);
  void did_change_configuration(const json& params);

  const Document::Analysis& analyze(Document& document);
  json diagnostic_json(const Document& document, const Diagnostic& diagnostic) const;
  json workspace_edit(const Document& document, const std::vector<Edit>& edits) const;
  void settings_changed();
  void apply_options(const json& options);
  void report_settings_errors(const std::vector<std::string>& errors);
  void publish_pending();
  void show_message(int type, const std::string& message);
  void log_message(int type, const std::string& message);
  Document& document_for(const json& params);

  Sink sink_;
  std::function<bool(const std::string& uri)> stale_;
  const engine::Catalog& catalog_;
  State state_ = State::Uninitialized;
  std::optional<int> exit_code_;
  ClientSupport client_;
  SettingsResolver resolver_;
  DocumentStore documents_;
  std::set<std::string> pending_publish_;
  std::vector<std::string> startup_errors_;
  uint64_t analysis_counter_ = 0;
  int64_t next_request_id_ = 1;
};

// Serves LSP over the streams until `exit` or the end of input; returns the exit code.
int run_server(const engine::Catalog& catalog, std::istream& in, std::ostream& out);

}  // namespace torchmigrate::lsp
