# SPDX-License-Identifier: MIT
"""The `args:` examples of docs/pre-commit.md, exactly as written there, run by the real
pre-commit: pre-commit appends the file names right after the args, so an option that took
more than one value would read them as its values."""
import re
import unittest

import test_precommit as harness
from test_cli_options import SOURCE

try:
    import yaml  # pre-commit depends on PyYAML
except ImportError:  # pragma: no cover - pre-commit missing too
    yaml = None

DOC = harness.SOURCE_DIR / "docs" / "pre-commit.md"


def documented_hooks_with_args():
    """The YAML blocks of docs/pre-commit.md whose hooks have `args:`, as lists of hook dicts."""
    hooks = []
    for block in re.findall(r"```yaml\n(.*?)```", DOC.read_text(), re.DOTALL):
        if "args:" not in block:
            continue
        indent = min(len(line) - len(line.lstrip()) for line in block.splitlines() if line.strip())
        text = "\n".join(line[indent:] for line in block.splitlines())
        hooks += [hook for hook in yaml.safe_load(text) if "args" in hook]
    return hooks


@unittest.skipUnless(harness.PRE_COMMIT and harness.GIT and yaml, "needs `pre-commit`, `git` and PyYAML")
class DocumentedHookArgs(unittest.TestCase):
    # The hooks repository and project set-up of test_precommit.py, without its tests.
    setUpClass = classmethod(harness.PreCommitHooks.setUpClass.__func__)
    tearDownClass = classmethod(harness.PreCommitHooks.tearDownClass.__func__)
    project = harness.PreCommitHooks.project
    pre_commit = harness.PreCommitHooks.pre_commit
    assert_exit = harness.PreCommitHooks.assert_exit
    reported_paths = harness.PreCommitHooks.reported_paths

    def test_the_documentation_has_args_examples_for_both_hooks(self):
        self.assertEqual({hook["id"] for hook in documented_hooks_with_args()}, {"torchmigrate", "torchmigrate-fix"})

    def test_each_documented_args_example_runs_on_every_file_passed(self):
        for hook in documented_hooks_with_args():
            with self.subTest(hook=hook["id"], args=hook["args"]):
                project = self.project({"a.py": SOURCE, "pkg/b.py": SOURCE}, hooks=(hook,))
                result = self.pre_commit(project, hook["id"], "--all-files")
                self.assert_exit(result, 1)
                self.assertNotIn("error:", result.stdout)
                if hook["id"] == "torchmigrate":
                    # --min-torch 2.8 makes TM102's fix safe; --extend-select TM305 adds TM305.
                    self.assertEqual(self.reported_paths(result.stdout), {"a.py", "pkg/b.py"})
                    self.assertRegex(result.stdout, r"(?m)^a\.py:\d+:\d+: TM305 ")
                    self.assertRegex(result.stdout, r"(?m)^pkg/b\.py:\d+:\d+: TM102 \[\*\] ")
                else:
                    # --unsafe-fixes --policy TM201=adopt-new rewrote both files the 2.8 way.
                    self.assertIn("files were modified by this hook", result.stdout)
                    for name in ("a.py", "pkg/b.py"):
                        text = (project / name).read_text()
                        self.assertNotEqual(text, SOURCE, name)
                        self.assertNotIn("strict=True", text, name)
                        self.assertNotIn("definitely_true", text, name)


if __name__ == "__main__":
    unittest.main()
