// SPDX-License-Identifier: MIT
// Transcript tests of every method the server handles: framed JSON-RPC in, the exact framed
// JSON-RPC out (object keys come out sorted).
#include <catch2/catch.hpp>

#include "torchmigrate/version.hpp"
#include "transcript.hpp"

using namespace torchmigrate::lsp;
using namespace torchmigrate::lsp::testing;

namespace {

const std::string kUri = "file:///project/model.py";

// Line 1 holds a 2-byte (é) and a 4-byte, astral (😀, two UTF-16 units) character before the
// finding: UTF-16 column 16 is byte 19 and code point 17.
const std::string kText = R"("import torch\ns = \"é😀\"; ep = torch.export.export(m, (x,))\n")";

const std::string kInitializeResult =
    R"({"id":1,"jsonrpc":"2.0","result":{"capabilities":{"codeActionProvider":{"codeActionKinds":["quickfix","source.fixAll.torchmigrate"],"resolveProvider":false},"hoverProvider":true,"positionEncoding":"utf-16","textDocumentSync":{"change":2,"openClose":true,"save":{"includeText":false}}},"serverInfo":{"name":"torchmigrate","version":")" +
    std::string(torchmigrate::kVersion) + R"("}}})";

std::string tm201(const std::string& range) {
  return R"({"code":"TM201","message":"`torch.export.export` defaults to `strict=False` in torch 2.8 (it was `True`); pass `strict=` explicitly","range":)" +
         range + R"(,"severity":2,"source":"torchmigrate"})";
}

const std::string kTm201Range = R"({"end":{"character":44,"line":1},"start":{"character":16,"line":1}})";

std::string publish(const std::string& diagnostics, int version, const std::string& uri = kUri) {
  return R"({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":[)" + diagnostics +
         R"(],"uri":")" + uri + R"(","version":)" + std::to_string(version) + "}}";
}

std::string request(int id, const std::string& method, const std::string& params) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method + R"(","params":)" + params + "}";
}

std::string notification(const std::string& method, const std::string& params) {
  return R"({"jsonrpc":"2.0","method":")" + method + R"(","params":)" + params + "}";
}

std::string result(int id, const std::string& value) {
  return R"({"id":)" + std::to_string(id) + R"(,"jsonrpc":"2.0","result":)" + value + "}";
}

std::string error(const std::string& id, int code, const std::string& message) {
  return R"({"error":{"code":)" + std::to_string(code) + R"(,"message":")" + message + R"("},"id":)" + id +
         R"(,"jsonrpc":"2.0"})";
}

const std::string kShutdownResult = result(99, "null");

std::string array(std::initializer_list<std::string> items) {
  std::string out = "[";
  for (const std::string& item : items) out += (out.size() > 1 ? "," : "") + item;
  return out + "]";
}

// The engine's own wording for a bad selector (the server adds the option name).
std::string selector_error(const std::string& selector) {
  try {
    torchmigrate::engine::validate_selector(selector, torchmigrate::engine::Catalog::builtin());
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(valid)";
}

}  // namespace

TEST_CASE("lifecycle: initialize advertises what is implemented, shutdown then exit ends with 0") {
  TranscriptResult run = run_transcript(framed({initialize_request(), kInitialized, kShutdown, kExit}));
  CHECK(run.output == framed({kInitializeResult, kShutdownResult}));
  CHECK(run.exit_code == 0);
}

TEST_CASE("lifecycle: exit without shutdown ends with 1") {
  TranscriptResult run = run_transcript(framed({initialize_request(), kInitialized, kExit}));
  CHECK(run.output == framed({kInitializeResult}));
  CHECK(run.exit_code == 1);
}

TEST_CASE("lifecycle: requests before initialize, a second initialize, and requests after shutdown are refused") {
  TranscriptResult run = run_transcript(framed({
      request(7, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":0,"character":0}})"),
      did_open(kUri, kText),  // dropped: not initialized yet
      initialize_request(),
      initialize_request(),
      kShutdown,
      request(8, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":0,"character":0}})"),
      kExit,
      request(9, "shutdown", "null"),  // after exit: nothing is read any more
  }));
  CHECK(run.output == framed({
                          error("7", -32002, "The server is not initialized yet"),
                          kInitializeResult,
                          error("1", -32600, "The server is already initialized"),
                          kShutdownResult,
                          error("8", -32600, "The server is shutting down"),
                      }));
  CHECK(run.exit_code == 0);
}

TEST_CASE("unknown methods: requests get MethodNotFound, notifications are ignored") {
  TranscriptResult run = run_transcript(framed({
      initialize_request(),
      kInitialized,
      request(2, "textDocument/definition", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":0,"character":0}})"),
      R"({"jsonrpc":"2.0","id":"abc","method":"$/unknownRequest"})",
      notification("$/setTrace", R"({"value":"off"})"),
      notification("workspace/somethingNew", "{}"),
      kShutdown,
  }));
  CHECK(run.output == framed({
                          kInitializeResult,
                          error("2", -32601, "Unhandled method textDocument/definition"),
                          error(R"("abc")", -32601, "Unhandled method $/unknownRequest"),
                          kShutdownResult,
                      }));
}

TEST_CASE("malformed input is answered with ParseError or InvalidRequest and the server carries on") {
  std::string input = framed({initialize_request()});
  input += "Content-Length: 9\r\n\r\n{\"jsonrpc";  // cut JSON
  input += "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n";  // no Content-Length
  input += "Content-Length: abc\r\n\r\n";
  input += framed({
      "[]",
      R"({"id":3,"method":"shutdown"})",
      R"({"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"})",
      R"({"jsonrpc":"2.0","id":4,"method":12})",
      R"({"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":42})",
      R"({"jsonrpc":"2.0","id":6})",
      request(7, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"}})"),
      request(8, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":-1,"character":0}})"),
      notification("textDocument/didChange", R"({"textDocument":{"uri":"file:///project/missing.py","version":2},"contentChanges":[]})"),
      kShutdown,
  });
  input += "content-length: 33\n\n" + std::string(R"({"jsonrpc":"2.0","method":"exit"})");  // lenient header
  TranscriptResult run = run_transcript(input);
  CHECK(run.output ==
        framed({
            kInitializeResult,
            error("null", -32700, "Parse error: the body is not valid JSON"),
            error("null", -32700, "Parse error: the header has no Content-Length"),
            error("null", -32700, "Parse error: invalid Content-Length `abc`"),
            error("null", -32600, "Invalid request: a message must be a JSON object"),
            error("3", -32600, R"(Invalid request: `jsonrpc` must be \"2.0\")"),
            error("null", -32600, "Invalid request: `id` must be an integer or a string"),
            error("4", -32600, "Invalid request: `method` must be a string"),
            error("5", -32600, "Invalid request: `params` must be an object or an array"),
            error("6", -32600, "Invalid request: `method` is missing"),
            error("7", -32602, "Invalid params: `file:///project/model.py` is not open"),
            error("8", -32602, "Invalid params: `file:///project/model.py` is not open"),
            R"({"jsonrpc":"2.0","method":"window/logMessage","params":{"message":"textDocument/didChange: `file:///project/missing.py` is not open","type":1}})",
            kShutdownResult,
        }));
  CHECK(run.exit_code == 0);
}

TEST_CASE("didOpen publishes diagnostics with UTF-16 ranges after non-ASCII and astral characters") {
  TranscriptResult run = run_transcript(framed({initialize_request(), kInitialized, did_open(kUri, kText), kShutdown}));
  CHECK(run.output == framed({kInitializeResult, publish(tm201(kTm201Range), 1), kShutdownResult}));
}

TEST_CASE("didChange applies incremental edits given in UTF-16 positions and re-publishes") {
  // Insert ", strict=True" before the closing parenthesis (UTF-16 column 43, byte 46).
  std::string insert = notification(
      "textDocument/didChange",
      R"({"textDocument":{"uri":"file:///project/model.py","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":43},"end":{"line":1,"character":43}},"text":", strict=True"}]})");
  // Two changes in one notification: the second is relative to the text the first left.
  // First replace "😀" (columns 6-8) by "a", then delete ", strict=True" (now at 42-55).
  std::string two = notification(
      "textDocument/didChange",
      R"({"textDocument":{"uri":"file:///project/model.py","version":3},"contentChanges":[)"
      R"({"range":{"start":{"line":1,"character":6},"end":{"line":1,"character":8}},"text":"a"},)"
      R"({"range":{"start":{"line":1,"character":42},"end":{"line":1,"character":55}},"text":""}]})");
  // A change without a range replaces the whole text; later ranges refer to the new text.
  std::string whole = notification(
      "textDocument/didChange",
      R"({"textDocument":{"uri":"file:///project/model.py","version":4},"contentChanges":[)"
      R"({"text":"import torch\n\n𝔵 = torch.export.export(m, (x,))\n"},)"
      R"({"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"text":"# 😀😀\n"}]})");
  TranscriptResult run = run_transcript(
      framed({initialize_request(), kInitialized, did_open(kUri, kText), insert, two, whole, kShutdown}));
  CHECK(run.output == framed({
                          kInitializeResult,
                          publish(tm201(kTm201Range), 1),
                          publish("", 2),
                          publish(tm201(R"({"end":{"character":43,"line":1},"start":{"character":15,"line":1}})"), 3),
                          publish(tm201(R"({"end":{"character":33,"line":3},"start":{"character":5,"line":3}})"), 4),
                          kShutdownResult,
                      }));
}

TEST_CASE("changes that arrive together are published once, for the last version") {
  std::string first = notification(
      "textDocument/didChange",
      R"({"textDocument":{"uri":"file:///project/model.py","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":43},"end":{"line":1,"character":43}},"text":", strict"}]})");
  std::string second = notification(
      "textDocument/didChange",
      R"({"textDocument":{"uri":"file:///project/model.py","version":3},"contentChanges":[{"range":{"start":{"line":1,"character":51},"end":{"line":1,"character":51}},"text":"=True"}]})");
  TranscriptResult run =
      run_transcript(framed({initialize_request(), kInitialized, did_open(kUri, kText), first, second}), true);
  CHECK(run.output == framed({kInitializeResult, publish("", 3)}));
}

TEST_CASE("didSave re-publishes, didClose clears the diagnostics") {
  TranscriptResult run = run_transcript(framed({
      initialize_request(),
      kInitialized,
      did_open(kUri, kText),
      notification("textDocument/didSave", R"({"textDocument":{"uri":"file:///project/model.py"}})"),
      notification("textDocument/didClose", R"({"textDocument":{"uri":"file:///project/model.py"}})"),
      kShutdown,
  }));
  CHECK(run.output == framed({
                          kInitializeResult,
                          publish(tm201(kTm201Range), 1),
                          publish(tm201(kTm201Range), 1),
                          R"({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":[],"uri":"file:///project/model.py"}})",
                          kShutdownResult,
                      }));
}

TEST_CASE("positions past the end of a line or of the text are clamped; negative ones are invalid params") {
  std::string past = notification(
      "textDocument/didChange",
      R"({"textDocument":{"uri":"file:///project/model.py","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":400},"end":{"line":70,"character":0}},"text":"\nz = 1\n"}]})");
  TranscriptResult run = run_transcript(framed({
      initialize_request(),
      kInitialized,
      did_open(kUri, R"("import torch\ntorch.export.export(m, (x,))\n")"),
      past,
      request(2, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":-1,"character":0}})"),
      request(3, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":1,"character":200}})"),
      kShutdown,
  }));
  CHECK(run.output ==
        framed({
            kInitializeResult,
            publish(tm201(R"({"end":{"character":28,"line":1},"start":{"character":0,"line":1}})"), 1),
            publish(tm201(R"({"end":{"character":28,"line":1},"start":{"character":0,"line":1}})"), 2),
            error("2", -32602, "Invalid params: a position needs non-negative integer `line` and `character`"),
            result(3, "null"),
            kShutdownResult,
        }));
}

namespace {

std::string code_action_request(int id, const std::string& range, const std::string& only = "") {
  return request(id, "textDocument/codeAction",
                 R"({"textDocument":{"uri":"file:///project/model.py"},"range":)" + range +
                     R"(,"context":{"diagnostics":[])" + (only.empty() ? "" : R"(,"only":)" + only) + "}}");
}

std::string edit_changes(const std::string& edits, const std::string& uri = kUri) {
  return R"({"changes":{")" + uri + R"(":[)" + edits + "]}}";
}

// The buffers have no project on disk, so nothing pins torch below 2.8: keeping the old default
// is an unsafe fix (the code may already run with the new one), and no fix-all applies it.
const std::string kKeepOldCaveat =
    "(no upper bound below torch 2.8 is pinned, so the code may already run with its default)";

std::string keep_old_action(const std::string& uri = kUri) {
  return R"({"diagnostics":[)" + tm201(kTm201Range) + R"(],"edit":)" +
         edit_changes(
             R"({"newText":", strict=True","range":{"end":{"character":43,"line":1},"start":{"character":43,"line":1}}})",
             uri) +
         R"x(,"isPreferred":false,"kind":"quickfix","title":"Add `strict=True` to keep the 2.7 behaviour )x" +
         kKeepOldCaveat + R"x( (TM201)"})x";
}
std::string adopt_new_action(const std::string& uri = kUri) {
  return R"({"diagnostics":[)" + tm201(kTm201Range) + R"(],"edit":)" +
         edit_changes(R"({"newText":", strict=False","range":{"end":{"character":43,"line":1},"start":{"character":43,"line":1}}})", uri) +
         R"x(,"isPreferred":false,"kind":"quickfix","title":"Add `strict=False` to adopt the 2.8 default (TM201)"})x";
}
std::string noqa_action(const std::string& uri = kUri) {
  return R"({"diagnostics":[)" + tm201(kTm201Range) + R"(],"edit":)" +
         edit_changes(R"({"newText":"  # noqa: TM201","range":{"end":{"character":44,"line":1},"start":{"character":44,"line":1}}})", uri) +
         R"(,"kind":"quickfix","title":"Suppress with `# noqa: TM201`"})";
}
const std::string kKeepOld = keep_old_action();
const std::string kAdoptNew = adopt_new_action();
const std::string kNoqa = noqa_action();

const std::string kAtCall = R"({"start":{"line":1,"character":20},"end":{"line":1,"character":20}})";

}  // namespace

TEST_CASE("code actions: keep-old and adopt-new quick fixes, a noqa suppression and fix-all") {
  // The buffer has no project on disk: `minTorch` gives it a known range, as a pin would.
  TranscriptResult run = run_transcript(framed({
      initialize_request(kCodeActionCapabilities, R"({"minTorch":"2.7"})"),
      kInitialized,
      did_open(kUri, kText),
      code_action_request(2, kAtCall),
      code_action_request(3, kAtCall, R"(["quickfix"])"),
      code_action_request(4, R"({"start":{"line":0,"character":0},"end":{"line":0,"character":3}})"),
      code_action_request(5, R"({"start":{"line":0,"character":0},"end":{"line":0,"character":0}})", R"(["source.fixAll"])"),
      code_action_request(6, kAtCall, R"(["refactor"])"),
      kShutdown,
  }));
  CHECK(run.output == framed({
                          kInitializeResult,
                          publish(tm201(kTm201Range), 1),
                          result(2, "[" + kKeepOld + "," + kAdoptNew + "," + kNoqa + "]"),
                          result(3, "[" + kKeepOld + "," + kAdoptNew + "," + kNoqa + "]"),
                          result(4, "[]"),
                          result(5, "[]"),
                          result(6, "[]"),
                      }) + frame(kShutdownResult));
}

TEST_CASE("code actions: versioned documentChanges for clients that support them; noqa lists are extended") {
  std::string capabilities =
      R"({"workspace":{"workspaceEdit":{"documentChanges":true}},"textDocument":{"codeAction":{"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["quickfix"]}}}}})";
  TranscriptResult run = run_transcript(framed({
      initialize_request(capabilities, R"({"minTorch":"2.7"})"),  // a known range, as a pin gives
      kInitialized,
      did_open(kUri, R"("import torch\ntorch.export.export(m, (x,))  # noqa: TM101\n")", 7),
      code_action_request(2, R"({"start":{"line":1,"character":0},"end":{"line":1,"character":0}})", R"(["quickfix"])"),
      kShutdown,
  }));
  std::string diagnostic = tm201(R"({"end":{"character":28,"line":1},"start":{"character":0,"line":1}})");
  auto versioned = [](const std::string& edit) {
    return R"({"documentChanges":[{"edits":[)" + edit + R"(],"textDocument":{"uri":"file:///project/model.py","version":7}}]})";
  };
  std::string keep_old =
      R"({"diagnostics":[)" + diagnostic + R"(],"edit":)" +
      versioned(
          R"({"newText":", strict=True","range":{"end":{"character":27,"line":1},"start":{"character":27,"line":1}}})") +
      R"x(,"isPreferred":false,"kind":"quickfix","title":"Add `strict=True` to keep the 2.7 behaviour )x" +
      kKeepOldCaveat + R"x( (TM201)"})x";
  std::string adopt_new = R"({"diagnostics":[)" + diagnostic + R"(],"edit":)" +
                          versioned(R"({"newText":", strict=False","range":{"end":{"character":27,"line":1},"start":{"character":27,"line":1}}})") +
                          R"x(,"isPreferred":false,"kind":"quickfix","title":"Add `strict=False` to adopt the 2.8 default (TM201)"})x";
  std::string noqa = R"({"diagnostics":[)" + diagnostic + R"(],"edit":)" +
                     versioned(R"({"newText":", TM201","range":{"end":{"character":43,"line":1},"start":{"character":43,"line":1}}})") +
                     R"(,"kind":"quickfix","title":"Suppress with `# noqa: TM201`"})";
  std::string code_action_capabilities =
      R"({"id":1,"jsonrpc":"2.0","result":{"capabilities":{"codeActionProvider":{"codeActionKinds":["quickfix","source.fixAll.torchmigrate"],"resolveProvider":false},"hoverProvider":true,"positionEncoding":"utf-16","textDocumentSync":{"change":2,"openClose":true,"save":{"includeText":false}}},"serverInfo":{"name":"torchmigrate","version":")" +
      std::string(torchmigrate::kVersion) + R"("}}})";
  CHECK(run.output == framed({
                          code_action_capabilities,
                          publish(diagnostic, 7),
                          result(2, "[" + keep_old + "," + adopt_new + "," + noqa + "]"),
                          kShutdownResult,
                      }));
}

TEST_CASE("code actions are not advertised to clients without code action literals, yet answered") {
  TranscriptResult run = run_transcript(framed({
      initialize_request("{}"),
      kInitialized,
      did_open(kUri, kText),
      code_action_request(2, kAtCall),
      kShutdown,
  }));
  CHECK(
      run.output ==
      framed({
          R"({"id":1,"jsonrpc":"2.0","result":{"capabilities":{"hoverProvider":true,"positionEncoding":"utf-16","textDocumentSync":{"change":2,"openClose":true,"save":{"includeText":false}}},"serverInfo":{"name":"torchmigrate","version":")" +
              std::string(torchmigrate::kVersion) + R"("}}})",
          publish(tm201(kTm201Range), 1),
          result(2, "[]"),
          kShutdownResult,
      }));
}

TEST_CASE("hover on a flagged range shows the rule's docs with its before/after example") {
  TranscriptResult run = run_transcript(framed({
      initialize_request(),
      kInitialized,
      did_open(kUri, kText),
      request(2, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":1,"character":16}})"),
      request(3, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":1,"character":44}})"),
      request(4, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":0,"character":3}})"),
      kShutdown,
  }));
  const torchmigrate::engine::RuleSpec& rule = *torchmigrate::engine::Catalog::builtin().find("TM201");
  json contents = {
      {"kind", "markdown"},
      {"value", "**TM201** `export-strict-default-changed`: " + rule.summary + "\n\n" + rule.docs().what + "\n\n" +
                    rule.docs().why + "\n\nBefore:\n```python\n" + rule.docs().before + "```\n\nAfter:\n```python\n" +
                    rule.docs().after + "```\n\nOr, adopting the 2.8 behaviour:\n```python\n" +
                    rule.docs().after_adopt_new + "```\n\n**Fix safety:** " + rule.docs().fix_safety + "\n"}};
  std::string hover = R"({"contents":)" + contents.dump() + R"(,"range":)" + kTm201Range + "}";
  CHECK(run.output == framed({
                          kInitializeResult,
                          publish(tm201(kTm201Range), 1),
                          result(2, hover),
                          result(3, "null"),  // the range's end is outside it
                          result(4, "null"),
                          kShutdownResult,
                      }));
}

TEST_CASE("pull diagnostics: advertised when the client supports them, unchanged results say so") {
  std::string capabilities = R"({"textDocument":{"diagnostic":{"dynamicRegistration":false}}})";
  std::string pull = R"({"textDocument":{"uri":"file:///project/model.py"}})";
  TranscriptResult run = run_transcript(framed({
      initialize_request(capabilities),
      kInitialized,
      did_open(kUri, kText),
      request(2, "textDocument/diagnostic", pull),
      request(3, "textDocument/diagnostic", R"({"textDocument":{"uri":"file:///project/model.py"},"previousResultId":"1"})"),
      notification("textDocument/didChange",
                   R"({"textDocument":{"uri":"file:///project/model.py","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"\n"}]})"),
      request(4, "textDocument/diagnostic", R"({"textDocument":{"uri":"file:///project/model.py"},"previousResultId":"1"})"),
      request(5, "textDocument/diagnostic", R"({"textDocument":{"uri":"file:///project/other.py"}})"),
      kShutdown,
  }));
  CHECK(run.output ==
        framed({
            R"({"id":1,"jsonrpc":"2.0","result":{"capabilities":{"diagnosticProvider":{"identifier":"torchmigrate","interFileDependencies":false,"workspaceDiagnostics":false},"hoverProvider":true,"positionEncoding":"utf-16","textDocumentSync":{"change":2,"openClose":true,"save":{"includeText":false}}},"serverInfo":{"name":"torchmigrate","version":")" +
                std::string(torchmigrate::kVersion) + R"("}}})",
            result(2, R"({"items":[)" + tm201(kTm201Range) + R"(],"kind":"full","resultId":"1"})"),
            result(3, R"({"kind":"unchanged","resultId":"1"})"),
            result(4, R"({"items":[)" + tm201(R"({"end":{"character":44,"line":2},"start":{"character":16,"line":2}})") +
                          R"(],"kind":"full","resultId":"2"})"),
            result(5, R"({"items":[],"kind":"full"})"),
            kShutdownResult,
        }));
}

TEST_CASE("cancellation: a request cancelled before it is handled gets RequestCancelled") {
  std::string hover = request(2, "textDocument/hover", R"({"textDocument":{"uri":"file:///project/model.py"},"position":{"line":0,"character":0}})");
  std::string cancel = notification("$/cancelRequest", R"({"id":2})");
  std::string cancel_unknown = notification("$/cancelRequest", R"({"id":42})");
  TranscriptResult run = run_transcript(
      framed({initialize_request(), kInitialized, did_open(kUri, kText), hover, cancel, cancel_unknown}), true);
  CHECK(run.output == framed({kInitializeResult, error("2", -32800, "Request cancelled"), publish(tm201(kTm201Range), 1)}));
}

TEST_CASE("settings: initializationOptions select rules and policies; bad entries are shown and dropped") {
  std::string options = R"({"ignore":["TM201"],"extendSelect":["TM999"],"minTorch":"two","policy":{"TM101":"adopt-new"},"colour":true})";
  std::string open_export = did_open(kUri, kText);
  std::string onnx_uri = "file:///project/onnx_export.py";
  std::string open_onnx = did_open(onnx_uri, R"("import torch\ntorch.onnx.export(m, (x,), \"m.onnx\", dynamo=False)\n")");
  TranscriptResult run = run_transcript(framed({
      initialize_request(R"({})", options),
      kInitialized,
      open_export,
      kShutdown,
  }));
  auto show = [](const std::string& message) {
    return R"({"jsonrpc":"2.0","method":"window/showMessage","params":{"message":"torchmigrate: )" + message +
           R"(","type":2}})";
  };
  CHECK(
      run.output ==
      framed({
          R"({"id":1,"jsonrpc":"2.0","result":{"capabilities":{"hoverProvider":true,"positionEncoding":"utf-16","textDocumentSync":{"change":2,"openClose":true,"save":{"includeText":false}}},"serverInfo":{"name":"torchmigrate","version":")" +
              std::string(torchmigrate::kVersion) + R"("}}})",
          show("unknown option `colour`; ignored"),
          show("option `extendSelect`: " + selector_error("TM999")),
          show("option `minTorch`: `two` is not a version MAJOR.MINOR; ignored"),
          show("option `policy`: TM101 has no keep-old/adopt-new choice; ignored"),
          publish("", 1),  // TM201 is ignored
          kShutdownResult,
      }));
}

TEST_CASE("settings: a changed config file or configuration re-lints the open documents") {
  std::string capabilities = R"({"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}}})";
  TranscriptResult run = run_transcript(framed({
      initialize_request(capabilities),
      kInitialized,
      R"({"jsonrpc":"2.0","id":1,"result":null})",  // the client accepts the registration
      did_open(kUri, kText),
      notification("workspace/didChangeWatchedFiles", R"({"changes":[{"uri":"file:///project/notes.txt","type":2}]})"),
      notification("workspace/didChangeWatchedFiles", R"({"changes":[{"uri":"file:///project/pyproject.toml","type":2}]})"),
      notification("workspace/didChangeConfiguration", R"({"settings":{"torchmigrate":{"ignore":["TM2"]}}})"),
      notification("workspace/didChangeConfiguration", R"({"settings":{"torchmigrate":{}}})"),
      notification("workspace/didChangeConfiguration", R"({"settings":{"otherTool":{}}})"),
      kShutdown,
  }));
  CHECK(run.output ==
        framed({
            R"({"id":1,"jsonrpc":"2.0","result":{"capabilities":{"hoverProvider":true,"positionEncoding":"utf-16","textDocumentSync":{"change":2,"openClose":true,"save":{"includeText":false}}},"serverInfo":{"name":"torchmigrate","version":")" +
                std::string(torchmigrate::kVersion) + R"("}}})",
            R"({"id":1,"jsonrpc":"2.0","method":"client/registerCapability","params":{"registrations":[{"id":"torchmigrate-config-files","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"**/pyproject.toml"},{"globPattern":"**/torchmigrate.toml"},{"globPattern":"**/.torchmigrate.toml"}]}}]}})",
            publish(tm201(kTm201Range), 1),
            publish(tm201(kTm201Range), 1),  // pyproject.toml changed: settings re-read
            publish("", 1),                  // TM2 ignored
            publish(tm201(kTm201Range), 1),  // back to the defaults
            kShutdownResult,
        }));
}

TEST_CASE("the CLI's file filter applies: files in excluded directories get no diagnostics") {
  TranscriptResult run = run_transcript(framed({
      initialize_request(),
      kInitialized,
      did_open("file:///project/.venv/lib/site.py", kText),
      did_open("file:///elsewhere/build/model.py", kText),  // outside the workspace: checked
      kShutdown,
  }));
  CHECK(run.output == framed({
                          kInitializeResult,
                          publish("", 1, "file:///project/.venv/lib/site.py"),
                          publish(tm201(kTm201Range), 1, "file:///elsewhere/build/model.py"),
                          kShutdownResult,
                      }));
}

TEST_CASE("C/C++/CUDA and build files are opened and published by their file name; unsaved buffers by languageId") {
  TranscriptResult run = run_transcript(framed({
      initialize_request(kCodeActionCapabilities, R"({"minTorch":"2.7"})"),  // a known range, as a pin gives
      kInitialized,
      did_open("file:///project/kernel.cu", R"("int main() { return 0; }\n")", 1, "cuda-cpp"),
      did_open("untitled:Untitled-1", kText, 1, "python"),
      request(2, "textDocument/codeAction",
              R"({"textDocument":{"uri":"untitled:Untitled-1"},"range":{"start":{"line":1,"character":16},"end":{"line":1,"character":16}},"context":{"diagnostics":[],"only":["quickfix"]}})"),
      kShutdown,
  }));
  std::string untitled = "untitled:Untitled-1";
  CHECK(run.output == framed({
                          kInitializeResult,
                          publish("", 1, "file:///project/kernel.cu"),
                          publish(tm201(kTm201Range), 1, untitled),
                          result(2, array({keep_old_action(untitled), adopt_new_action(untitled), noqa_action(untitled)})),
                          kShutdownResult,
                      }));
}
