# SPDX-License-Identifier: MIT
"""A minimal Language Server Protocol client for end-to-end tests: starts `torchmigrate server`,
speaks JSON-RPC with Content-Length framing, and pulls diagnostics and code actions."""
import json
import subprocess

from tm_e2e import BINARY


class LspClient:
    def __init__(self, root, pull_diagnostics=True, arguments=("server",), capabilities=None):
        """`capabilities` replaces the client's (pull diagnostics and code action literals)."""
        self.process = subprocess.Popen([BINARY, *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=root)
        self.next_id = 1
        self.received = []  # messages other than the answers to our requests, in order
        if capabilities is None:
            capabilities = {"textDocument": {
                **({"diagnostic": {}} if pull_diagnostics else {}),
                "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}}},
            }}
        self.initialize_result = self.request("initialize", {
            "processId": None,
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": capabilities,
        })
        self.notify("initialized", {})

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EOFError("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == request_id and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            self.received.append(message)

    def open(self, path):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.as_uri(), "languageId": "python", "version": 1, "text": path.read_text()}})

    def diagnostics(self, path):
        return self.request("textDocument/diagnostic", {"textDocument": {"uri": path.as_uri()}})["items"]

    def fix_all(self, path):
        """The text after the server's source.fixAll action, or None when it offers none."""
        actions = self.request("textDocument/codeAction", {
            "textDocument": {"uri": path.as_uri()},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        })
        if not actions:
            return None
        edit = actions[0]["edit"]
        edits = edit["changes"][path.as_uri()] if "changes" in edit else edit["documentChanges"][0]["edits"]
        return apply_text_edits(path.read_text(), edits)

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=10)
        self.process.stdin.close()
        self.process.stdout.close()


def apply_text_edits(text, edits):
    """Applies LSP edits (UTF-16 positions; the fixtures are ASCII) to `text`."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position):
        return starts[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text
