# SPDX-License-Identifier: MIT
"""Colour on a terminal (run under `script`, which gives the program a real pseudo-terminal),
none in a pipe; NO_COLOR, FORCE_COLOR and --color; --quiet and --silent."""
import os
import re
import shlex
import shutil
import subprocess
import unittest

from test_cli_options import SOURCE
from tm_e2e import BINARY, TempTree

SCRIPT = shutil.which("script")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
BOLD_RED_CODE = re.compile(r"\x1b\[1m\x1b\[31mTM102\x1b\[0m|\x1b\[31m\x1b\[1mTM102\x1b\[0m|\x1b\[1;31mTM102\x1b\[0m")


class Colour(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        self.tree.write("a.py", SOURCE)
        self.tree.write("requirements.txt", "torch>=2.7,<2.8\n")  # a pinned range: `[*]` marks safe fixes
        self.env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
        self.env["TERM"] = "xterm-256color"
        # These runs compare layouts; the progress line has its own tests below.
        self.env["TORCHMIGRATE_PROGRESS_DELAY_MS"] = "600000"

    def piped(self, *args, env=None):
        return subprocess.run([shutil.which(BINARY) or BINARY, "check", "a.py", *args], cwd=self.tree.root,
                              env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=120)

    def on_terminal(self, *args, env=None):
        """stdout and stderr of a run on a pseudo-terminal (both arrive on it, with \\r\\n endings)."""
        command = shlex.join([shutil.which(BINARY) or BINARY, "check", "a.py", *args])
        result = subprocess.run([SCRIPT, "-qec", command, "/dev/null"], cwd=self.tree.root,
                                env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=120)
        return result.stdout.replace("\r\n", "\n")

    @unittest.skipUnless(SCRIPT, "needs `script` (util-linux)")
    def test_terminal_output_is_coloured_and_otherwise_the_piped_text(self):
        for format_name in ("concise", "full"):
            with self.subTest(format=format_name):
                terminal = self.on_terminal("--output-format", format_name)
                self.assertRegex(terminal, BOLD_RED_CODE)
                self.assertIn("\x1b[1ma.py\x1b[0m", terminal)
                self.assertRegex(terminal, r"\x1b\[36m\[\*\]\x1b\[0m")
                piped = self.piped("--output-format", format_name)
                self.assertNotIn("\x1b", piped.stdout + piped.stderr)
                self.assertEqual(ANSI.sub("", terminal), piped.stderr + piped.stdout)
        self.assertRegex(self.on_terminal("--output-format", "full"), r"\x1b\[31m\^+ TM102\x1b\[0m")

    @unittest.skipUnless(SCRIPT, "needs `script` (util-linux)")
    def test_no_color_and_color_never_win_on_a_terminal(self):
        self.assertNotIn("\x1b", self.on_terminal(env={"NO_COLOR": "1"}))
        self.assertNotIn("\x1b", self.on_terminal("--color", "never"))
        self.assertIn("\x1b", self.on_terminal(env={"NO_COLOR": ""}))  # empty means unset

    def test_force_color_and_color_always_colour_a_pipe(self):
        self.assertRegex(self.piped(env={"FORCE_COLOR": "1"}).stdout, BOLD_RED_CODE)
        self.assertRegex(self.piped("--color", "always").stdout, BOLD_RED_CODE)
        self.assertRegex(self.piped("--color=always", env={"NO_COLOR": "1"}).stdout, BOLD_RED_CODE)
        self.assertNotIn("\x1b", self.piped(env={"FORCE_COLOR": "0"}).stdout)
        # Machine-readable formats are never coloured.
        self.assertNotIn("\x1b", self.piped("--color", "always", "--output-format", "json").stdout)

    def test_quiet_prints_the_findings_only_and_silent_nothing(self):
        plain = self.piped()
        quiet = self.piped("-q")
        self.assertEqual(quiet.returncode, 1)
        self.assertEqual(quiet.stdout, "".join(line + "\n" for line in plain.stdout.splitlines()
                                               if line.startswith("a.py:")))
        self.assertIn("supported torch", plain.stderr)
        self.assertEqual(quiet.stderr, "")
        self.assertEqual(self.piped("--quiet").stdout, quiet.stdout)
        for flag in ("-s", "--silent"):
            silent = self.piped(flag)
            self.assertEqual((silent.returncode, silent.stdout, silent.stderr), (1, "", ""))
        self.assertEqual(self.piped("-s", "--exit-zero").returncode, 0)



PROGRESS = re.compile(r"\r\x1b\[2K\[\s*\d+/500 files\] \d+ findings?")


class ProgressLine(unittest.TestCase):
    """The line appears on a terminal once a run has lasted a while (shortened here to 0 ms with
    TORCHMIGRATE_PROGRESS_DELAY_MS), is erased before the report, and never reaches a pipe or a
    CI log."""

    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        for i in range(500):
            self.tree.write(f"pkg/m{i:03}.py", SOURCE)
        ci_variables = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "NO_COLOR", "FORCE_COLOR")
        self.env = {key: value for key, value in os.environ.items() if key not in ci_variables}
        self.env.update(TERM="xterm-256color", TORCHMIGRATE_PROGRESS_DELAY_MS="0")
        self.command = [shutil.which(BINARY) or BINARY, "check", "--no-cache", "-j1", "pkg"]

    def on_terminal(self, env=None):
        # Bytes, not text mode, which would turn each \r into a newline.
        result = subprocess.run([SCRIPT, "-qec", shlex.join(self.command), "/dev/null"], cwd=self.tree.root,
                                env={**self.env, **(env or {})}, capture_output=True, timeout=300)
        return result.stdout.decode()

    @unittest.skipUnless(SCRIPT, "needs `script` (util-linux)")
    def test_a_terminal_sees_the_progress_line_and_then_the_report_alone(self):
        terminal = self.on_terminal()
        self.assertTrue(PROGRESS.search(terminal), "no progress line on the terminal")
        # Erased before the report: the last redraw is followed by an erase, then the report.
        last = terminal.rindex("files]")
        self.assertIn("\r\x1b[2K", terminal[last:])
        self.assertIn("Found 1500 findings", terminal[last:])

    @unittest.skipUnless(SCRIPT, "needs `script` (util-linux)")
    def test_ci_and_dumb_terminals_get_no_progress_line(self):
        self.assertIsNone(PROGRESS.search(self.on_terminal({"CI": "true"})), "a progress line in CI")
        self.assertIsNone(PROGRESS.search(self.on_terminal({"TERM": "dumb"})), "a progress line on a dumb terminal")

    def test_a_pipe_gets_no_progress_line(self):
        result = subprocess.run(self.command, cwd=self.tree.root, env=self.env, capture_output=True, text=True,
                                timeout=300)
        self.assertNotIn("\x1b", result.stdout + result.stderr)
        self.assertNotIn("files]", result.stderr)


if __name__ == "__main__":
    unittest.main()
