# SPDX-License-Identifier: MIT
"""The language server started as VS Code's client starts it (`server --stdio`), driven by a
minimal client that declares no capabilities: code actions come as Command objects (or none),
hover is plain text, and a rule code links to no PyTorch pull request."""
import re
import unittest

from lsp_client import LspClient, apply_text_edits
from tm_e2e import TempTree

SOURCE = "import torch\nep = torch.export.export_for_inference(m, (x,))\n"
WHOLE_LINE = {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 10}}


class MinimalClient(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.path = self.tree.write("p/m.py", SOURCE)

    def start(self, capabilities):
        client = LspClient(self.tree.root / "p", arguments=("server", "--stdio"), capabilities=capabilities)
        self.addCleanup(client.close)
        client.open(self.path)
        return client

    def code_actions(self, client):
        return client.request("textDocument/codeAction", {
            "textDocument": {"uri": self.path.as_uri()}, "range": WHOLE_LINE,
            "context": {"diagnostics": []}})

    def hover(self, client):
        return client.request("textDocument/hover", {
            "textDocument": {"uri": self.path.as_uri()}, "position": {"line": 1, "character": 20}})

    def test_no_capabilities(self):
        client = self.start({})
        self.assertNotIn("codeActionProvider", client.initialize_result["capabilities"])
        # Asked anyway, the server answers (an empty list: the client can apply neither form).
        self.assertEqual(self.code_actions(client), [])
        hover = self.hover(client)["contents"]
        self.assertEqual(hover["kind"], "plaintext")
        text = hover["value"]
        self.assertIn("TM101 export-for-inference-removed", text)
        self.assertIn("Before:\n    ", text)
        for mark in ("**", "```", "`"):
            self.assertNotIn(mark, text)
        # The pushed diagnostics link no rule code to a PyTorch pull request.
        published = [m for m in client.received if m.get("method") == "textDocument/publishDiagnostics"]
        while not published:
            message = client.receive()
            if message.get("method") == "textDocument/publishDiagnostics":
                published.append(message)
        diagnostics = published[-1]["params"]["diagnostics"]
        self.assertEqual([d["code"] for d in diagnostics], ["TM101"])
        self.assertNotRegex(str(diagnostics), r"github\.com/pytorch")

    def test_markdown_hover_when_declared(self):
        client = self.start({"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}}})
        hover = self.hover(client)["contents"]
        self.assertEqual(hover["kind"], "markdown")
        self.assertIn("```python", hover["value"])

    def test_commands_for_a_client_that_applies_edits(self):
        client = self.start({"workspace": {"applyEdit": True}})
        capabilities = client.initialize_result["capabilities"]
        self.assertIs(capabilities["codeActionProvider"], True)
        self.assertEqual(capabilities["executeCommandProvider"]["commands"], ["torchmigrate.applyEdit"])
        commands = self.code_actions(client)
        self.assertTrue(commands)
        for command in commands:
            self.assertEqual(set(command), {"title", "command", "arguments"})
            self.assertEqual(command["command"], "torchmigrate.applyEdit")
        fix = next(c for c in commands if not c["title"].startswith("Suppress"))
        self.assertIsNone(client.request("workspace/executeCommand",
                                         {"command": fix["command"], "arguments": fix["arguments"]}))
        while not any(m.get("method") == "workspace/applyEdit" for m in client.received):
            client.received.append(client.receive())
        apply = next(m for m in client.received if m.get("method") == "workspace/applyEdit")
        client.send({"jsonrpc": "2.0", "id": apply["id"], "result": {"applied": True}})
        fixed = apply_text_edits(SOURCE, apply["params"]["edit"]["changes"][self.path.as_uri()])
        self.assertNotIn("export_for_inference", fixed)
        self.assertTrue(re.search(r"torch\.export\.", fixed))


if __name__ == "__main__":
    unittest.main()
