# SPDX-License-Identifier: MIT
"""Helpers for end-to-end tests: run the built torchmigrate binary like a user would."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

BINARY = os.environ.get("TORCHMIGRATE_BIN", "torchmigrate")
SOURCE_DIR = Path(os.environ.get("TORCHMIGRATE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
EXAMPLE = SOURCE_DIR / "examples" / "legacy-project"


def run(*args, cwd=None, check_exit=None, input=None, env=None):
    """Runs torchmigrate with `args` (and `input` on stdin); returns the CompletedProcess (text mode)."""
    result = subprocess.run([BINARY, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120,
                            input=input if input is not None else "", env=env)
    if check_exit is not None and result.returncode != check_exit:
        raise AssertionError(
            f"exit {result.returncode} != {check_exit} for {args}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
    return result


class TempTree:
    """A temporary directory, optionally holding a copy of a source tree."""

    def __init__(self, source=None):
        self.root = Path(tempfile.mkdtemp(prefix="torchmigrate-e2e-"))
        if source is not None:
            shutil.copytree(source, self.root / "project")

    @property
    def project(self):
        return self.root / "project"

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)
