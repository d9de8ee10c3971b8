# SPDX-License-Identifier: MIT
"""The result cache and the project's facts: a build file's entry holds the facts its rules read,
so a change of those facts is a miss for it, and a change of facts it cannot read is not."""
import json
import unittest

from tm_e2e import TempTree, cache_keys, run

NO_DYNAMO = 'import torch\n\ndef export(m, x):\n    torch.onnx.export(m, x, "m.onnx")\n'
DYNAMO = 'import torch\n\ndef export(m, x):\n    torch.onnx.export(m, x, "m.onnx", dynamo=True)\n'


def findings(cwd, cache):
    report = run("check", "--cache-dir", cache, "--output-format", "json", ".", cwd=cwd).stdout
    return {(finding["filename"], finding["code"], finding["severity"]) for finding in json.loads(report)}


class CacheKeysHoldTheFactsTheirRulesRead(unittest.TestCase):
    def test_a_pin_escalates_when_the_project_starts_exporting_with_dynamo(self):
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        (tree.root / "project" / ".git").mkdir(parents=True)
        tree.write("project/requirements.txt", "torch>=2.7,<2.8\nonnxscript==0.2.5\n")
        tree.write("project/requirements-dev.txt", "numpy>=1.0\n")
        tree.write("project/model.py", NO_DYNAMO)
        cache = tree.root / "cache"

        self.assertIn(("requirements.txt", "TM402", "warning"), findings(tree.project, cache))
        before = set(cache_keys(cache))
        self.assertEqual(len(before), 3)

        # The facts changed: the pin's entry is a miss and its finding is now an error. The
        # other requirements file reads no fact (no rule can fire on it): its entry stays.
        tree.write("project/model.py", DYNAMO)
        after_findings = findings(tree.project, cache)
        self.assertIn(("requirements.txt", "TM402", "error"), after_findings)
        self.assertNotIn(("requirements.txt", "TM402", "warning"), after_findings)
        after = set(cache_keys(cache))
        self.assertEqual(len(after - before), 2)  # model.py and requirements.txt
        # model.py's old text is replaced in its slot; the pin's old entry was keyed by other
        # facts (another slot) and ages out like any entry this run did not use.
        self.assertEqual(len(before - after), 1)

        # Warm: the same findings from the cache, and nothing rewritten.
        self.assertEqual(findings(tree.project, cache), after_findings)
        self.assertEqual(set(cache_keys(cache)), after)

    def test_a_torchscript_finding_escalates_when_pytest_turns_warnings_into_errors(self):
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        (tree.root / "project" / ".git").mkdir(parents=True)
        tree.write("project/requirements.txt", "torch>=2.9\n")
        tree.write("project/pytest.ini", "[pytest]\naddopts = -ra\n")
        tree.write("project/model.py", "import torch\n\nscripted = torch.jit.script(model)\n")
        cache = tree.root / "cache"

        def torchscript(cwd):
            report = run("check", "--cache-dir", cache, "--target-version", "2.10", "--select", "TM320",
                         "--output-format", "json", ".", cwd=cwd).stdout
            return {(finding["filename"], finding["severity"]) for finding in json.loads(report)}

        self.assertEqual(torchscript(tree.project), {("model.py", "warning")})
        # model.py is unchanged; the pytest configuration its finding reads is not.
        tree.write("project/pytest.ini", "[pytest]\nfilterwarnings = error\n")
        self.assertEqual(torchscript(tree.project), {("model.py", "error")})
        self.assertEqual(torchscript(tree.project), {("model.py", "error")})
        tree.write("project/pytest.ini", "[pytest]\nfilterwarnings =\n    error\n    ignore::DeprecationWarning\n")
        self.assertEqual(torchscript(tree.project), {("model.py", "warning")})


if __name__ == "__main__":
    unittest.main()
