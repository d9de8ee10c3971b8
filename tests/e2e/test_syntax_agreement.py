# SPDX-License-Identifier: MIT
"""The Python front must call a file a syntax error (TM901) exactly when Python does.

Corpus: every .py file of Debian's Python packages (standard library, its test suite, lib2to3,
pip and what it depends on), installed by scripts/bootstrap.sh. Python's verdict is
ast.parse under Debian's own interpreter for that library; the front's verdict comes from
tests/syntax/syntax_verdict (the linter's reading, decoding and parsing, nothing else). Every
disagreement must be listed, with its reason, in tests/syntax/known_disagreements.txt."""
import os
import re
import shutil
import subprocess
import sys
import unittest
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tm_e2e import BINARY, TempTree, run, SOURCE_DIR

SYNTAX_DIR = SOURCE_DIR / "tests" / "syntax"
VERDICT_BIN = os.environ.get("TORCHMIGRATE_SYNTAX_VERDICT",
                             str(Path(BINARY).resolve().parent / "tests" / "syntax_verdict"))
DEBIAN_PYTHON = "/usr/bin/python3"
MIN_FILES = 2000
WORKERS = 4


def corpus_packages(minor):
    return [f"libpython3.{minor}-minimal", f"libpython3.{minor}-stdlib", f"libpython3.{minor}-testsuite",
            "python3-lib2to3", "python3-pip", "python3-setuptools", "python3-pkg-resources", "python3-wheel"]


def corpus_key(path):
    """A file's name in the allow-list: its path inside the library directory."""
    match = re.search(r"/(?:python3\.\d+|dist-packages)/(.+)$", path)
    return match.group(1) if match else path


def load_known(path):
    """tests/syntax/known_disagreements.txt: `key<TAB>side<TAB>reason`, side being who rejects."""
    known = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, side, reason = line.split("\t", 2)
        assert side in ("python", "torchmigrate"), f"{path.name}:{number}: side must be python or torchmigrate"
        assert reason.strip(), f"{path.name}:{number}: every entry needs its reason"
        known[key] = side
    return known


def verdicts(command, paths):
    """Runs `command` over `paths` in WORKERS chunks at once; returns {path: verdict fields}."""
    chunks = [paths[i::WORKERS] for i in range(WORKERS)]

    def one(chunk):
        result = subprocess.run(command, input="\n".join(chunk) + "\n", capture_output=True, text=True,
                                timeout=300, check=True)
        return result.stdout.splitlines()

    found = {}
    with ThreadPoolExecutor(WORKERS) as pool:
        for lines in pool.map(one, chunks):
            for line in lines:
                path, *fields = line.split("\t")
                found[path] = fields
    return found


class PythonSyntaxAgreement(unittest.TestCase):
    def corpus(self):
        if not (shutil.which("dpkg-query") and os.access(DEBIAN_PYTHON, os.X_OK)):
            self.skipTest("the corpus is Debian's Python packages; this is not a Debian system")
        minor = subprocess.run([DEBIAN_PYTHON, "-c", "import sys; print(sys.version_info[1])"],
                               capture_output=True, text=True, check=True).stdout.strip()
        paths = set()
        for package in corpus_packages(minor):
            listed = subprocess.run(["dpkg-query", "-L", package], capture_output=True, text=True)
            self.assertEqual(listed.returncode, 0, f"{package} is not installed; run scripts/bootstrap.sh")
            paths.update(p for p in listed.stdout.splitlines() if p.endswith(".py") and os.path.isfile(p))
        return sorted(paths)

    def test_front_and_python_agree_on_every_file(self):
        paths = self.corpus()
        self.assertGreaterEqual(len(paths), MIN_FILES)
        ours = verdicts([VERDICT_BIN], paths)
        python = verdicts([DEBIAN_PYTHON, str(SYNTAX_DIR / "python_verdicts.py")], paths)
        self.assertEqual(set(ours), set(paths))
        self.assertEqual(set(python), set(paths))
        known = load_known(SYNTAX_DIR / "known_disagreements.txt")
        unexplained, stale = [], []
        for path in paths:
            python_rejects = python[path][0] == "error"
            # A skipped file (not UTF-8, NUL bytes) is not checked, so it is not called valid either.
            ours_rejects = ours[path][0] in ("error", "skipped")
            side = known.get(corpus_key(path))
            if python_rejects == ours_rejects:
                if side is not None:
                    stale.append(f"{corpus_key(path)}: listed as a disagreement, but both sides now agree")
                continue
            actual = "python" if python_rejects else "torchmigrate"
            if side != actual:
                unexplained.append(f"{corpus_key(path)}: only {actual} rejects it "
                                   f"(python: {' '.join(python[path])}; ours: {' '.join(ours[path])})")
        self.assertEqual(unexplained + stale, [], f"{len(paths)} files checked")


# Python 2 forms tree-sitter-python parses without an error (it recovers silently), and Python 3
# spellings that look like them. Python's verdict (the interpreter running this test) decides.
RECOVERED_FORMS = {
    "print_statement": 'x = 1\nprint "x"\ny = 2\n',
    "print_statement_tuple": "print x, y\n",
    "exec_statement": 'exec "x = 1" in d\n',
    "except_comma": "try:\n    pass\nexcept ValueError, e:\n    pass\n",
    "diamond": "if a <> b:\n    pass\n",
    "long_integer": "x = 10L\n",
    "long_hex": "x = 0x1fL\n",
    "octal_leading_zero": "x = 0777\n",
    "trailing_underscore": "x = 1_\n",
    "backtick_repr": "x = `y`\n",
    "ur_prefix": 'x = ur"abc"\n',
    "bf_prefix": 'x = bf"abc"\n',
    "raise_comma": 'raise E, "msg"\n',
    "tuple_parameter": "def f((a, b)):\n    pass\n",
    "lambda_tuple_parameter": "f = lambda (a, b): a\n",
    "python3_look_alikes": ('print (a), b\nprint -1\nprint >>f, "x"\nprint\nexec("x")\nx = print\n'
                            "x = 07j + 0_0 + 00 + 0 + 1_000 + 0x_1f + 1.5 + .5 + 1e5\n"
                            'x = rb"a" + Rb"b" + f"{1}" + u"x" + fR"y" + BR"z" + "don\'t"\n'
                            "raise (E, 1)\ntry:\n    pass\nexcept (A, B) as e:\n    pass\n"
                            "def f(a, b=(1, 2), *c, **d):\n    pass\ng = lambda a, b=(1,): a\n"),
}


class RecoveredPython2Forms(unittest.TestCase):
    """The front rejects what Python rejects where tree-sitter recovers without an ERROR node."""

    def test_front_and_python_agree_on_each_form(self):
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        paths = [str(tree.write(f"{name}.py", source)) for name, source in RECOVERED_FORMS.items()]
        ours = verdicts([VERDICT_BIN], paths)
        python = verdicts([sys.executable, str(SYNTAX_DIR / "python_verdicts.py")], paths)
        for path in paths:
            with self.subTest(Path(path).name):
                self.assertEqual(ours[path][0], python[path][0], f"ours: {ours[path]}, python: {python[path]}")
                if python[path][0] == "error":  # the same line
                    self.assertEqual(ours[path][1].split(":")[0], python[path][1].split(":")[0])

    def test_a_print_statement_mid_file_is_reported_with_the_other_findings(self):
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        tree.write("legacy.py", 'import torch\nx = 1\nprint "x"\nep = torch.export.export(m, (x,))\n')
        result = run("check", "legacy.py", "--output-format", "concise", cwd=tree.root, check_exit=1)
        self.assertIn("legacy.py:3:1: TM901 Syntax error: Missing parentheses in call to 'print'. "
                      "Did you mean print(...)? (Python 2 syntax)", result.stdout)
        self.assertIn("legacy.py:4:6: TM201", result.stdout)


class StarredTupleElement(unittest.TestCase):
    """The reduced false TM901: a starred tuple element with a parenthesized operand."""

    def test_backward_returning_padding_nones_is_not_a_syntax_error(self):
        tree = TempTree()
        self.addCleanup(tree.cleanup)
        tree.write("flash.py", (
            "import torch\n\n\n"
            "class FlashAttnFunc(torch.autograd.Function):\n"
            "    @staticmethod\n"
            "    def backward(ctx, dout, *args):\n"
            "        dq, dk, dv = _backward(ctx, dout)\n"
            "        return dq, dk, dv, *((None,) * 5)\n\n\n"
            "ep = torch.export.export(m, (x,))\n"))
        result = run("check", "flash.py", "--select", "ALL", cwd=tree.root)
        self.assertNotIn("TM901", result.stdout)
        self.assertIn("flash.py:11:6: TM201", result.stdout)


if __name__ == "__main__":
    unittest.main()
