# SPDX-License-Identifier: MIT
"""The server stops analysing a document as soon as newer input changes it: the stale version's
diagnostics are never published, the newest version's arrive promptly, and a pull request that
was overtaken by an edit is answered with ServerCancelled (retrigger) instead of stale findings."""
import threading
import time
import unittest

from lsp_client import LspClient
from tm_e2e import TempTree, run

# Under the 4 MB budget, with a finding on every line: seconds of analysis.
SLOW_TEXT = "import torch\n" + 'torch.onnx.export(m, x, "f")\n' * 100_000
SMALL_TEXT = "import torch\nx = 1\n"
EDIT_AFTER = 0.5  # seconds after the open, while the slow analysis runs


def full_change(client, path, version, text):
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": path.as_uri(), "version": version}, "contentChanges": [{"text": text}]})


class StaleAnalysis(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tree = TempTree()
        cls.path = cls.tree.write("slow.py", SLOW_TEXT)
        started = time.monotonic()
        run("check", "--no-cache", "slow.py", cwd=cls.tree.root, check_exit=1)
        cls.full_lint = time.monotonic() - started

    @classmethod
    def tearDownClass(cls):
        cls.tree.cleanup()

    def setUp(self):
        # The edit must land while the first analysis is still running for the test to mean anything.
        self.assertGreater(self.full_lint, 3 * EDIT_AFTER, "the slow document lints too fast to overtake")

    def test_an_edit_stops_the_analysis_of_the_version_it_replaces(self):
        client = LspClient(self.tree.root, pull_diagnostics=False)
        self.addCleanup(client.process.kill)
        client.open(self.path)
        time.sleep(EDIT_AFTER)
        edited = time.monotonic()
        full_change(client, self.path, 2, SMALL_TEXT)
        published = []
        while True:
            message = client.receive()
            if message.get("method") == "textDocument/publishDiagnostics":
                published.append(message["params"])
                if message["params"].get("version") == 2:
                    break
        waited = time.monotonic() - edited
        self.assertEqual([params["version"] for params in published], [2], "the stale version was published")
        self.assertEqual(published[-1]["diagnostics"], [])
        self.assertLess(waited, self.full_lint / 2, f"{waited:.2f} s after the edit; a full lint takes {self.full_lint:.2f} s")
        client.close()

    def test_a_pull_overtaken_by_an_edit_is_cancelled_for_a_retrigger(self):
        client = LspClient(self.tree.root)
        self.addCleanup(client.process.kill)
        client.open(self.path)
        timer = threading.Timer(EDIT_AFTER, full_change, (client, self.path, 2, SMALL_TEXT))
        timer.start()
        with self.assertRaises(RuntimeError) as raised:
            client.diagnostics(self.path)
        timer.join()
        self.assertIn("-32802", str(raised.exception))
        self.assertIn("retriggerRequest", str(raised.exception))
        self.assertEqual(client.diagnostics(self.path), [])
        client.close()


if __name__ == "__main__":
    unittest.main()
