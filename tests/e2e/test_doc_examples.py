# SPDX-License-Identifier: MIT
"""Every torchmigrate command shown in README.md and docs/ runs as written.

Commands (and the `mkdir -p` lines that prepare their output folders) are taken from code blocks (fenced or indented, with or without a `$ ` prompt or a YAML
`run:`/`- ` prefix) and from inline code in the text. Each document's commands run in order, with
`sh`, in a fresh git copy of the bundled example project, with the built binary first on PATH.
Placeholders in prose (`CODE`, `FILE...`) get the concrete values in PLACEHOLDERS; a placeholder
that is not in the table fails the test, so a new one has to be added here, on purpose.
A command passes when it exits 0 or 1 (1 is "findings remain") and prints no error."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tm_e2e import BINARY, EXAMPLE, SOURCE_DIR

SUBCOMMANDS = ("check", "merge", "rule", "rules", "server", "completion", "report", "--version", "--help")
PLACEHOLDERS = {
    "[PATH...]": "", "PATH...": ".", "PATH": ".", "FILES...": "setup.py", "FILE...": "setup.py", "FILE": "setup.py",
    "DIR": ".", "CODE": "TM101", "SHARD...": "shard-*.json",
}
# A standalone upper-case word that is not a rule code, option value or environment variable.
PLACEHOLDER = re.compile(r"(?<![\w$=-])(?!ALL\b)(?:\[[A-Z]+\.\.\.\]|[A-Z]{2,}(?:\.\.\.)?)(?![\w=])")
PREFIX = re.compile(r"^(?:\$ |- run: |run: |- )")
COMMAND_START = re.compile(r"^(?:\S*/)?torchmigrate (?:" + "|".join(re.escape(s) for s in SUBCOMMANDS) + r")\b")


def documents():
    yield SOURCE_DIR / "README.md"
    yield from sorted((SOURCE_DIR / "docs").glob("*.md"))


def code_lines(text):
    """Lines of fenced and indented code blocks, and inline code spans (those with arguments:
    a bare `torchmigrate rule` in a sentence names the command, it is no example)."""
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            yield line.strip()
        else:
            yield from (span for span in re.findall(r"`([^`]+)`", line) if len(span.split()) > 2)


def commands_in(text):
    found = []
    for line in code_lines(text):
        line = PREFIX.sub("", line.strip())
        if line.startswith("mkdir -p "):  # the folders the next examples write into
            found.append(line)
            continue
        pipe = line.find("| torchmigrate ")
        candidate = line[pipe + 2:] if pipe >= 0 else line
        if not COMMAND_START.match(candidate):
            continue
        line = re.sub(r"\s{2,}#.*$", "", line)  # a trailing comment
        for placeholder, value in PLACEHOLDERS.items():
            line = re.sub(r"(?<![\w-])" + re.escape(placeholder) + r"(?![\w])", value, line)
        found.append(line.strip())
    return found


class DocumentedCommandsRun(unittest.TestCase):
    def test_every_documented_command_runs(self):
        binary = shutil.which(BINARY) or BINARY
        bin_dir = tempfile.mkdtemp(prefix="torchmigrate-docs-bin-")
        self.addCleanup(shutil.rmtree, bin_dir)
        os.symlink(os.path.abspath(binary), os.path.join(bin_dir, "torchmigrate"))
        total = 0
        for document in documents():
            commands = commands_in(document.read_text())
            if not commands:
                continue
            work = Path(tempfile.mkdtemp(prefix="torchmigrate-docs-"))
            self.addCleanup(shutil.rmtree, work)
            project = work / "project"
            shutil.copytree(EXAMPLE, project)
            subprocess.run(["git", "init", "-q", str(project)], check=True)
            # HOME too: examples that install something for the user write there.
            (work / "home").mkdir()
            env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], HOME=str(work / "home"),
                       GITHUB_STEP_SUMMARY=str(work / "summary.md"),
                       CI_NODE_INDEX="1", CI_NODE_TOTAL="2")  # what CI recipes read
            env.pop("TORCHMIGRATE_OUTPUT_FORMAT", None)
            for command in commands:
                total += 1
                with self.subTest(document=document.name, command=command):
                    self.assertIsNone(PLACEHOLDER.search(command), f"unknown placeholder in `{command}`")
                    # A path before `torchmigrate` (a CI recipe's build folder) means the same binary.
                    runnable = re.sub(r"(^|\| )\S*/torchmigrate ", r"\1torchmigrate ", command)
                    result = subprocess.run(["sh", "-c", runnable], cwd=project, env=env, capture_output=True,
                                            text=True, timeout=120, stdin=subprocess.DEVNULL)
                    self.assertIn(result.returncode, (0, 1), f"{command}\n{result.stderr}")
                    self.assertNotIn("error:", result.stderr, command)
        self.assertGreater(total, 20, "the docs should show at least this many commands")


if __name__ == "__main__":
    unittest.main()
