// SPDX-License-Identifier: MIT
#include "torchmigrate/lsp/server.hpp"

#include <condition_variable>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/notebook_check.hpp"
#include "torchmigrate/lsp/actions.hpp"
#include "torchmigrate/lsp/positions.hpp"
#include "torchmigrate/lsp/uri.hpp"
#include "torchmigrate/version.hpp"

namespace torchmigrate::lsp {
namespace {

// Invalid params raise this (or a json exception) and are answered with InvalidParams.
class ParamsError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The value at a chain of object keys, or nullptr where any step is missing or not an object.
const json* lookup(const json& root, std::initializer_list<const char*> keys) {
  const json* node = &root;
  for (const char* key : keys) {
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

bool flag(const json& root, std::initializer_list<const char*> keys) {
  const json* value = lookup(root, keys);
  return value != nullptr && value->is_boolean() && value->get<bool>();
}

const json& required_object(const json& params, const char* key) {
  const json* value = lookup(params, {key});
  if (value == nullptr || !value->is_object()) throw ParamsError(std::string("`") + key + "` must be an object");
  return *value;
}

std::string uri_of(const json& params) {
  const json* uri = lookup(params, {"textDocument", "uri"});
  if (uri == nullptr || !uri->is_string()) throw ParamsError("`textDocument.uri` must be a string");
  return uri->get<std::string>();
}

DiagnosticSeverity lsp_severity(Severity severity) {
  switch (severity) {
    case Severity::Error: return DiagnosticSeverity::Error;
    case Severity::Warning: return DiagnosticSeverity::Warning;
    case Severity::Info: return DiagnosticSeverity::Information;
  }
  return DiagnosticSeverity::Warning;
}

// A kind passes `only` when it equals an entry or is a sub-kind of one ("source" admits
// "source.fixAll.torchmigrate").
bool kind_allowed(std::string_view kind, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  return std::any_of(only.begin(), only.end(), [&](const std::string& entry) {
    return kind == entry || (kind.starts_with(entry) && kind.size() > entry.size() && kind[entry.size()] == '.');
  });
}

// Code actions for a client that takes only Command objects: each becomes the command that sends
// its edit back with workspace/applyEdit; none when the client cannot apply edits either.
json as_commands(const json& actions, bool apply_edit) {
  json commands = json::array();
  if (!apply_edit) return commands;
  for (const json& action : actions) {
    commands.push_back(
        {{"title", action.at("title")}, {"command", kApplyEditCommand}, {"arguments", {action.at("edit")}}});
  }
  return commands;
}

}  // namespace

Server::Server(Sink sink, const engine::Catalog& catalog, const engine::CheckRegistry& registry)
    : sink_(std::move(sink)), catalog_(catalog), resolver_(catalog, registry) {}

void Server::handle_batch(const std::vector<Message>& batch) {
  std::vector<json> cancelled;
  for (const Message& message : batch) {
    const auto* notification = std::get_if<Notification>(&message);
    if (notification == nullptr || notification->method != "$/cancelRequest") continue;
    if (const json* id = lookup(notification->params, {"id"}); id != nullptr) cancelled.push_back(*id);
  }
  for (const Message& message : batch) {
    if (state_ == State::Exited) break;
    if (const auto* request = std::get_if<Request>(&message)) {
      dispatch_request(*request, cancelled);
    } else if (const auto* notification = std::get_if<Notification>(&message)) {
      dispatch_notification(*notification);
    } else if (const auto* response = std::get_if<Response>(&message)) {
      if (!response->error.is_null()) std::cerr << "torchmigrate server: the client answered with an error: " << response->error.dump() << '\n';
    } else if (const auto* malformed = std::get_if<Malformed>(&message)) {
      sink_(make_error(malformed->id, malformed->code, malformed->message));
    }
  }
  if (state_ == State::Running) publish_pending();
}

void Server::dispatch_request(const Request& request, const std::vector<json>& cancelled) {
  if (state_ == State::Uninitialized && request.method != "initialize") {
    sink_(make_error(request.id, ErrorCode::ServerNotInitialized, "The server is not initialized yet"));
    return;
  }
  if (state_ == State::ShuttingDown) {
    sink_(make_error(request.id, ErrorCode::InvalidRequest, "The server is shutting down"));
    return;
  }
  if (std::find(cancelled.begin(), cancelled.end(), request.id) != cancelled.end()) {
    sink_(make_error(request.id, ErrorCode::RequestCancelled, "Request cancelled"));
    return;
  }
  using Handler = json (Server::*)(const json&);
  static const std::map<std::string, Handler, std::less<>> kHandlers = {
      {"initialize", &Server::initialize},
      {"shutdown", &Server::shutdown},
      {"textDocument/codeAction", &Server::code_action},
      {"textDocument/diagnostic", &Server::pull_diagnostics},
      {"textDocument/hover", &Server::hover},
      {"workspace/executeCommand", &Server::execute_command},
  };
  auto handler = kHandlers.find(request.method);
  // Pull diagnostics exist only for clients that support them (not advertised otherwise).
  if (handler == kHandlers.end() || (request.method == "textDocument/diagnostic" && !client_.pull_diagnostics)) {
    sink_(make_error(request.id, ErrorCode::MethodNotFound, "Unhandled method " + request.method));
    return;
  }
  if (request.method == "initialize" && state_ != State::Uninitialized) {
    sink_(make_error(request.id, ErrorCode::InvalidRequest, "The server is already initialized"));
    return;
  }
  try {
    json result = (this->*handler->second)(request.params);
    sink_(make_response(request.id, std::move(result)));
  } catch (const engine::LintCancelled&) {
    // Newer edits are already waiting: the client asks again (pull diagnostics are told to).
    if (request.method == "textDocument/diagnostic") {
      json error = make_error(request.id, ErrorCode::ServerCancelled, "The document changed; ask again");
      error["error"]["data"] = {{"retriggerRequest", true}};
      sink_(error);
    } else {
      sink_(make_error(request.id, ErrorCode::ContentModified, "The document changed while answering"));
    }
  } catch (const json::exception& error) {
    sink_(make_error(request.id, ErrorCode::InvalidParams, std::string("Invalid params: ") + error.what()));
  } catch (const std::invalid_argument& error) {
    sink_(make_error(request.id, ErrorCode::InvalidParams, std::string("Invalid params: ") + error.what()));
  } catch (const std::exception& error) {
    sink_(make_error(request.id, ErrorCode::InternalError, std::string("Internal error: ") + error.what()));
  }
}

void Server::dispatch_notification(const Notification& notification) {
  if (notification.method == "exit") {
    exit_code_ = state_ == State::ShuttingDown ? 0 : 1;
    state_ = State::Exited;
    return;
  }
  // Before initialize and after shutdown, notifications other than exit are dropped.
  if (state_ != State::Running) return;
  using Handler = void (Server::*)(const json&);
  static const std::map<std::string, Handler, std::less<>> kHandlers = {
      {"initialized", &Server::initialized},
      {"textDocument/didChange", &Server::did_change},
      {"textDocument/didClose", &Server::did_close},
      {"textDocument/didOpen", &Server::did_open},
      {"textDocument/didSave", &Server::did_save},
      {"workspace/didChangeConfiguration", &Server::did_change_configuration},
      {"workspace/didChangeWatchedFiles", &Server::did_change_watched_files},
  };
  auto handler = kHandlers.find(notification.method);
  if (handler == kHandlers.end()) return;  // $/ and unknown notifications are ignored
  try {
    (this->*handler->second)(notification.params);
  } catch (const std::exception& error) {
    // Notifications have no reply; say what went wrong where the user can see it.
    log_message(1, notification.method + ": " + error.what());
  }
}

json Server::initialize(const json& params) {
  if (!params.is_object()) throw ParamsError("initialize params must be an object");
  const json capabilities = params.value("capabilities", json::object());
  client_.pull_diagnostics = lookup(capabilities, {"textDocument", "diagnostic"}) != nullptr;
  client_.diagnostic_refresh = flag(capabilities, {"workspace", "diagnostics", "refreshSupport"});
  client_.document_changes = flag(capabilities, {"workspace", "workspaceEdit", "documentChanges"});
  client_.code_action_literals = lookup(capabilities, {"textDocument", "codeAction", "codeActionLiteralSupport"}) != nullptr;
  client_.apply_edit = flag(capabilities, {"workspace", "applyEdit"});
  client_.watch_files_registration = flag(capabilities, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  if (const json* formats = lookup(capabilities, {"textDocument", "hover", "contentFormat"}); formats && formats->is_array()) {
    client_.hover_markdown = std::find(formats->begin(), formats->end(), "markdown") != formats->end();
  }

  std::vector<std::filesystem::path> roots;
  if (const json* folders = lookup(params, {"workspaceFolders"}); folders && folders->is_array()) {
    for (const json& folder : *folders) {
      const json* uri = lookup(folder, {"uri"});
      if (uri == nullptr || !uri->is_string()) continue;
      if (auto path = path_from_uri(uri->get<std::string>())) roots.push_back(*path);
    }
  }
  if (const json* root_uri = lookup(params, {"rootUri"}); roots.empty() && root_uri && root_uri->is_string()) {
    if (auto path = path_from_uri(root_uri->get<std::string>())) roots.push_back(*path);
  }
  resolver_.set_roots(std::move(roots));
  state_ = State::Running;

  json sync = {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}};
  json server_capabilities = {{"positionEncoding", "utf-16"}, {"textDocumentSync", sync}, {"hoverProvider", true}};
  if (client_.code_action_literals) {
    server_capabilities["codeActionProvider"] = {{"codeActionKinds", {"quickfix", kFixAllKind}},
                                                 {"resolveProvider", false}};
  } else if (client_.apply_edit) {
    server_capabilities["codeActionProvider"] = true;
    server_capabilities["executeCommandProvider"] = {{"commands", {kApplyEditCommand}}};
  }
  if (client_.pull_diagnostics) {
    server_capabilities["diagnosticProvider"] = {
        {"identifier", kSource}, {"interFileDependencies", false}, {"workspaceDiagnostics", false}};
  }
  // Problems with the options are shown after `initialized`, when the client listens.
  std::vector<std::string> errors;
  ClientOptions options = parse_client_options(params.value("initializationOptions", json()), errors);
  std::vector<std::string> rejected = resolver_.set_options(options);
  errors.insert(errors.end(), rejected.begin(), rejected.end());
  startup_errors_ = std::move(errors);
  return {{"capabilities", server_capabilities}, {"serverInfo", {{"name", kSource}, {"version", kVersion}}}};
}

json Server::shutdown(const json& /*params*/) {
  publish_pending();  // edits that arrived with the shutdown still get their diagnostics
  state_ = State::ShuttingDown;
  return nullptr;
}

void Server::initialized(const json& /*params*/) {
  report_settings_errors(std::exchange(startup_errors_, {}));
  if (client_.watch_files_registration) {
    json watchers = json::array();
    for (std::string_view name : kConfigFileNames) watchers.push_back({{"globPattern", "**/" + std::string(name)}});
    json registration = {{"id", "torchmigrate-config-files"},
                         {"method", "workspace/didChangeWatchedFiles"},
                         {"registerOptions", {{"watchers", watchers}}}};
    sink_(make_request(next_request_id_++, "client/registerCapability", {{"registrations", {registration}}}));
  }
}

Document& Server::document_for(const json& params) {
  std::string uri = uri_of(params);
  Document* document = documents_.find(uri);
  if (document == nullptr) throw ParamsError("`" + uri + "` is not open");
  return *document;
}

void Server::did_open(const json& params) {
  const json& item = required_object(params, "textDocument");
  std::string uri = item.at("uri").get<std::string>();
  std::optional<std::filesystem::path> path = path_from_uri(uri);
  Language language = document_language(path, item.value("languageId", ""));
  documents_.open(Document(uri, path, language, item.at("version").get<int>(), item.at("text").get<std::string>()));
  pending_publish_.insert(uri);
}

void Server::did_change(const json& params) {
  Document& document = document_for(params);
  int version = lookup(params, {"textDocument", "version"}) != nullptr ? params["textDocument"]["version"].get<int>()
                                                                        : document.version();
  std::vector<ContentChange> changes = params.at("contentChanges").get<std::vector<ContentChange>>();
  document.apply_changes(changes, version);
  pending_publish_.insert(document.uri());
}

void Server::did_save(const json& params) {
  Document& document = document_for(params);
  // A saved config file changes the settings even for clients that do not watch files.
  if (document.path() && is_config_file(*document.path())) {
    settings_changed();
    return;
  }
  pending_publish_.insert(document.uri());
}

void Server::did_close(const json& params) {
  std::string uri = uri_of(params);
  if (!documents_.close(uri)) throw ParamsError("`" + uri + "` is not open");
  pending_publish_.insert(uri);  // clears its diagnostics
}

void Server::did_change_watched_files(const json& params) {
  for (const json& change : params.at("changes")) {
    auto path = path_from_uri(change.at("uri").get<std::string>());
    if (path && is_config_file(*path)) {
      settings_changed();
      return;
    }
  }
}

void Server::did_change_configuration(const json& params) {
  const json* settings = lookup(params, {"settings", "torchmigrate"});
  if (settings == nullptr) return;  // another tool's settings, or a pull-model client
  std::vector<std::string> errors;
  ClientOptions options = parse_client_options(*settings, errors);
  std::vector<std::string> rejected = resolver_.set_options(options);
  errors.insert(errors.end(), rejected.begin(), rejected.end());
  report_settings_errors(errors);
  settings_changed();
}

void Server::settings_changed() {
  resolver_.invalidate();
  for (auto& [uri, document] : documents_.all()) {
    document.drop_analysis();
    pending_publish_.insert(uri);
  }
  if (client_.pull_diagnostics && client_.diagnostic_refresh) {
    sink_(make_request(next_request_id_++, "workspace/diagnostic/refresh", nullptr));
  }
}

void Server::report_settings_errors(const std::vector<std::string>& errors) {
  for (const std::string& error : errors) show_message(2, "torchmigrate: " + error);
}

const Document::Analysis& Server::analyze(Document& document) {
  const auto& cached = document.analysis();
  if (cached && cached->generation == resolver_.generation()) return *cached;
  Document::Analysis analysis;
  analysis.settings = resolver_.settings_for(document.path().value_or(std::filesystem::path()));
  analysis.generation = resolver_.generation();
  analysis.id = ++analysis_counter_;
  report_settings_errors(resolver_.take_errors());
  if (!document.path() || !resolver_.is_excluded(*document.path())) {
    const engine::Linter& linter = *analysis.settings->linter;
    engine::StopRequested stop;
    if (stale_) stop = [this, &document] { return stale_(document.uri()); };
    analysis.diagnostics = document.tree() != nullptr
                               ? linter.lint(document.file(), *document.tree(), stop, &document.lint_memo())
                               : linter.lint(document.file());
    engine::withhold_self_imports(analysis.diagnostics, document.file());
  }
  document.set_analysis(std::move(analysis));
  return *document.analysis();
}

json Server::diagnostic_json(const Document& document, const Diagnostic& diagnostic) const {
  LspDiagnostic converted;
  converted.range = PositionMapper(document.file()).range(diagnostic.range);
  converted.severity = lsp_severity(diagnostic.severity);
  converted.code = diagnostic.code;
  converted.message = diagnostic.message;
  // The rule's page, not the PyTorch change: clicking a code should explain the rule.
  if (const engine::RuleSpec* rule = catalog_.find(diagnostic.code)) converted.code_href = engine::rule_docs_url(*rule);
  return converted;
}

json Server::workspace_edit(const Document& document, const std::vector<Edit>& edits) const {
  PositionMapper mapper(document.file());
  json text_edits = json::array();
  for (const Edit& edit : edits) text_edits.push_back(TextEdit{mapper.range(edit.range), edit.replacement});
  if (client_.document_changes) {
    return {{"documentChanges",
             {{{"textDocument", {{"uri", document.uri()}, {"version", document.version()}}}, {"edits", text_edits}}}}};
  }
  return {{"changes", {{document.uri(), text_edits}}}};
}

json Server::code_action(const json& params) {
  Document& document = document_for(params);
  TextRange requested = PositionMapper(document.file()).text_range(params.at("range").get<Range>());
  std::vector<std::string> only;
  if (const json* kinds = lookup(params, {"context", "only"}); kinds != nullptr) {
    only = kinds->get<std::vector<std::string>>();
  }
  const Document::Analysis& analysis = analyze(document);
  const engine::Settings& settings = analysis.settings->settings;
  json actions = json::array();
  bool quickfix = kind_allowed("quickfix", only);
  for (const Diagnostic& diagnostic : analysis.diagnostics) {
    if (!quickfix) break;
    // Touching counts: a cursor right after a finding still offers its fixes.
    if (diagnostic.range.start > requested.end || requested.start > diagnostic.range.end) continue;
    json lsp_diagnostic = diagnostic_json(document, diagnostic);
    const Fix* chosen = engine::chosen_fix(diagnostic, settings);
    // A notebook's edits are Python text; only fix-all writes them into its JSON strings.
    const bool notebook = document.file().language() == Language::Notebook;
    for (const Fix& fix : diagnostic.fixes) {
      if (notebook || fix.edits.empty() || settings.effective(fix) == Applicability::DisplayOnly) continue;
      bool preferred = &fix == chosen && settings.effective(fix) == Applicability::Safe;
      actions.push_back({{"title", fix.title + " (" + diagnostic.code + ")"},
                         {"kind", "quickfix"},
                         {"diagnostics", {lsp_diagnostic}},
                         {"isPreferred", preferred},
                         {"edit", workspace_edit(document, fix.edits)}});
    }
    if (auto suppression = suppression_edit(document, diagnostic, catalog_)) {
      actions.push_back({{"title", "Suppress with `" + suppression->comment + "`"},
                         {"kind", "quickfix"},
                         {"diagnostics", {lsp_diagnostic}},
                         {"edit", workspace_edit(document, {suppression->edit})}});
    }
  }
  // Fix-all applies what `check --fix` would; computed only when something would apply.
  if (kind_allowed(kFixAllKind, only) &&
      std::any_of(analysis.diagnostics.begin(), analysis.diagnostics.end(), [&](const Diagnostic& diagnostic) {
        const Fix* fix = engine::chosen_fix(diagnostic, settings);
        return fix != nullptr && !fix->edits.empty() && engine::will_apply(*fix, settings);
      })) {
    engine::FixOutcome fixed = document.file().language() == Language::Notebook
                                   ? engine::fix_notebook(*analysis.settings->linter, document.file())
                                   : engine::fix_file(*analysis.settings->linter, document.file());
    if (!fixed.rollback && fixed.text != document.file().text()) {
      actions.push_back({{"title", settings.unsafe_fixes ? "Fix all torchmigrate findings (including unsafe fixes)"
                                                        : "Fix all safely fixable torchmigrate findings"},
                         {"kind", kFixAllKind},
                         {"edit", workspace_edit(document, {minimal_edit(document.file().text(), fixed.text)})}});
    }
  }
  return client_.code_action_literals ? actions : as_commands(actions, client_.apply_edit);
}

json Server::execute_command(const json& params) {
  const json* command = lookup(params, {"command"});
  const json* arguments = lookup(params, {"arguments"});
  if (command == nullptr || *command != kApplyEditCommand || arguments == nullptr || !arguments->is_array() ||
      arguments->empty() || !arguments->front().is_object()) {
    throw ParamsError(std::string("the only command is `") + kApplyEditCommand + "` with a WorkspaceEdit");
  }
  sink_(make_request(next_request_id_++, "workspace/applyEdit",
                     {{"label", "torchmigrate"}, {"edit", arguments->front()}}));
  return nullptr;
}

json Server::hover(const json& params) {
  Document& document = document_for(params);
  PositionMapper mapper(document.file());
  uint32_t offset = mapper.offset(params.at("position").get<Position>());
  const Document::Analysis& analysis = analyze(document);
  std::string text;
  std::optional<TextRange> range;
  std::set<std::string> shown;
  for (const Diagnostic& diagnostic : analysis.diagnostics) {
    bool hit = diagnostic.range.contains(offset) || (diagnostic.range.empty() && diagnostic.range.start == offset);
    const engine::RuleSpec* rule = catalog_.find(diagnostic.code);
    if (!hit || rule == nullptr || !shown.insert(diagnostic.code).second) continue;
    if (!text.empty()) text += client_.hover_markdown ? "\n---\n\n" : "\n\n";
    text += client_.hover_markdown ? rule_hover_markdown(*rule) : rule_hover_text(*rule);
    if (!range) range = diagnostic.range;
  }
  if (text.empty()) return nullptr;
  return {{"contents", {{"kind", client_.hover_markdown ? "markdown" : "plaintext"}, {"value", text}}},
          {"range", mapper.range(*range)}};
}

json Server::pull_diagnostics(const json& params) {
  std::string uri = uri_of(params);
  Document* document = documents_.find(uri);
  if (document == nullptr) return {{"kind", "full"}, {"items", json::array()}};
  const Document::Analysis& analysis = analyze(*document);
  std::string result_id = std::to_string(analysis.id);
  if (const json* previous = lookup(params, {"previousResultId"}); previous && *previous == result_id) {
    return {{"kind", "unchanged"}, {"resultId", result_id}};
  }
  json items = json::array();
  for (const Diagnostic& diagnostic : analysis.diagnostics) items.push_back(diagnostic_json(*document, diagnostic));
  return {{"kind", "full"}, {"resultId", result_id}, {"items", items}};
}

void Server::publish_pending() {
  std::set<std::string> pending = std::exchange(pending_publish_, {});
  if (client_.pull_diagnostics) return;  // the client asks for them instead
  for (const std::string& uri : pending) {
    Document* document = documents_.find(uri);
    json params = {{"uri", uri}, {"diagnostics", json::array()}};
    if (document != nullptr) {
      const Document::Analysis* analysis = nullptr;
      try {
        analysis = &analyze(*document);
      } catch (const engine::LintCancelled&) {
        // Stale: the edits waiting in the input bring a newer version to publish instead.
        pending_publish_.insert(uri);
        continue;
      }
      for (const Diagnostic& diagnostic : analysis->diagnostics) {
        params["diagnostics"].push_back(diagnostic_json(*document, diagnostic));
      }
      params["version"] = document->version();
    }
    sink_(make_notification("textDocument/publishDiagnostics", std::move(params)));
  }
}

void Server::show_message(int type, const std::string& message) {
  sink_(make_notification("window/showMessage", {{"type", type}, {"message", message}}));
}

void Server::log_message(int type, const std::string& message) {
  sink_(make_notification("window/logMessage", {{"type", type}, {"message", message}}));
}

namespace {

// Messages are read and parsed by a thread of their own, so that everything that arrived while
// the server was busy is handled as one batch (and a cancellation can overtake its request),
// and so that an analysis can see that newer input already changes its document.
struct Inbox {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<Message> messages;
  std::set<std::string> changed_uris;  // documents that waiting messages open, change or close
  bool closed = false;

  [[nodiscard]] bool makes_stale(const std::string& uri) {
    std::lock_guard lock(mutex);
    return closed || changed_uris.contains(uri);
  }
};

Message to_message(const Frame& frame) {
  if (frame.status == Frame::Status::BadHeader) {
    return Malformed{ErrorCode::ParseError, "Parse error: " + frame.error, nullptr};
  }
  return parse_message(frame.body);
}

// The document a didOpen, didChange or didClose is about.
std::optional<std::string> changed_uri(const Message& message) {
  const auto* notification = std::get_if<Notification>(&message);
  if (notification == nullptr || !notification->method.starts_with("textDocument/did") ||
      notification->method == "textDocument/didSave") {
    return std::nullopt;
  }
  const json* uri = lookup(notification->params, {"textDocument", "uri"});
  if (uri == nullptr || !uri->is_string()) return std::nullopt;
  return uri->get<std::string>();
}

}  // namespace

int run_server(const engine::Catalog& catalog, std::istream& in, std::ostream& out) {
  auto transport = std::make_shared<Transport>(in, out);
  auto inbox = std::make_shared<Inbox>();
  // Detached: after `exit` the process ends while the reader may still be blocked on input.
  std::thread([transport, inbox] {
    for (;;) {
      Frame frame = transport->read();
      if (frame.status == Frame::Status::EndOfStream) {
        std::lock_guard lock(inbox->mutex);
        inbox->closed = true;
        inbox->ready.notify_one();
        return;
      }
      Message message = to_message(frame);
      std::optional<std::string> uri = changed_uri(message);
      std::lock_guard lock(inbox->mutex);
      if (uri) inbox->changed_uris.insert(std::move(*uri));
      inbox->messages.push_back(std::move(message));
      inbox->ready.notify_one();
    }
  }).detach();

  Server server([&](const json& message) { transport->write(message); }, catalog, checks::builtin_registry());
  server.set_stale_check([inbox](const std::string& uri) { return inbox->makes_stale(uri); });
  for (;;) {
    std::deque<Message> messages;
    bool closed = false;
    {
      std::unique_lock lock(inbox->mutex);
      inbox->ready.wait(lock, [&] { return !inbox->messages.empty() || inbox->closed; });
      messages.swap(inbox->messages);
      inbox->changed_uris.clear();
      closed = inbox->closed;
    }
    server.handle_batch(
        std::vector<Message>(std::make_move_iterator(messages.begin()), std::make_move_iterator(messages.end())));
    if (server.exit_code()) return *server.exit_code();
    if (closed) return server.shutdown_requested() ? 0 : 1;
  }
}

}  // namespace torchmigrate::lsp
