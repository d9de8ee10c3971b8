# SPDX-License-Identifier: MIT
"""Every option of `torchmigrate check` that takes a value, in every spelling, followed by file
names the way pre-commit calls a hook (`entry`, then `args`, then the files). Each option takes
exactly one value per occurrence: the paths after it are paths, never more values. The
reference for each row is the same option written after the paths, where nothing can follow it."""
import re
import unittest

from tm_e2e import TempTree, run

# Each file has an error (TM102), a warning with a safe fix (TM201) and an off-by-default rule (TM305).
SOURCE = ("import torch\n"
          "from torch.fx.experimental.symbolic_shapes import definitely_true\n\n"
          "ep = torch.export.export(model, (x,))\n"
          "if definitely_true(a == b):\n    pass\n"
          "y = torch.segment_reduce(data, 'sum', lengths=lengths)\n")
FILES = ["a.py", "b.py"]
HOOK_ENTRY = ["check", "--force-exclude"]  # .pre-commit-hooks.yaml's entry, less the program


def outputs_of(tree, result, extra_files):
    """What a run produced: exit code, stdout, and the text of any file it was told to write."""
    written = {}
    for name in extra_files:
        path = tree.root / name
        written[name] = path.read_text() if path.is_file() else (sorted(p.name for p in path.iterdir())
                                                                   if path.is_dir() else None)
    return result.returncode, result.stdout, written


# option spellings, value, files the run writes, and whether the value must change the report
# (proving it reached the option instead of being read as a path or swallowing one).
OPTIONS = [
    (["--select"], "TM2", [], True),
    (["--extend-select"], "TM305", [], True),
    (["--ignore"], "TM2", [], True),
    (["--policy"], "TM201=adopt-new", [], False),
    (["--min-torch"], "2.8", [], True),
    (["--target-version"], "2.9", [], False),
    (["--extend-exclude"], "a.py", [], True),  # with --force-exclude, as the hook passes it
    (["--exclude"], "a.py", [], True),
    (["--per-file-ignores", "--extend-per-file-ignores"], "a.py:TM102", [], True),
    (["--fixable"], "TM102", [], True),
    (["--unfixable"], "TM201", [], True),
    (["--extend-fixable"], "TM201", [], False),
    (["--shard"], "1/2", [], True),
    (["--stdin-filename"], "a.py", [], False),
    (["--config"], "other.toml", [], True),
    (["--baseline"], "baseline.json", [], True),
    (["--write-baseline"], "written-baseline.json", ["written-baseline.json"], True),
    (["--cache-dir"], "cache", ["cache"], False),
    (["--project-root"], "..", [], False),
    (["--output-format"], "json", [], True),
    (["-o", "--output-file"], "report.txt", ["report.txt"], True),
    (["-p"], "compile-db", [], False),
    (["-j", "--jobs"], "1", [], False),
    (["--color"], "never", [], False),
]


def spellings(name, value):
    """`--opt v` and `--opt=v`; a short option as `-o v` and `-ov`."""
    if name.startswith("--"):
        return [[name, value], [f"{name}={value}"]]
    return [[name, value], [f"{name}{value}"]]


class OptionsBeforePaths(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)
        for name in FILES:
            self.tree.write(name, SOURCE)
        self.tree.write("other.toml", 'select = ["TM1"]\n')
        (self.tree.root / "compile-db").mkdir()
        self.tree.write("compile-db/compile_commands.json", "[]\n")
        run("check", *FILES, "--write-baseline", "baseline.json", "--select", "TM201", cwd=self.tree.root,
            check_exit=0)

    def clean(self, writes):
        for name in writes:
            path = self.tree.root / name
            if path.is_dir():
                for child in sorted(path.rglob("*"), reverse=True):
                    child.rmdir() if child.is_dir() else child.unlink()
                path.rmdir()
            elif path.exists():
                path.unlink()

    def produce(self, args, writes):
        self.clean(writes)
        result = run(*args, cwd=self.tree.root)
        self.assertNotIn("error", result.stderr, f"{args}: {result.stderr}")
        return outputs_of(self.tree, result, writes)

    def test_every_value_option_in_every_spelling_leaves_the_paths_alone(self):
        plain = self.produce([*HOOK_ENTRY, *FILES], [])
        for names, value, writes, changes_report in OPTIONS:
            reference = self.produce([*HOOK_ENTRY, *FILES, names[0], value], writes)
            if changes_report:
                self.assertNotEqual(reference, plain, f"{names[0]} {value} had no effect")
            for name in names:
                for spelling in spellings(name, value):
                    with self.subTest(option=spelling):
                        self.assertEqual(self.produce([*HOOK_ENTRY, *spelling, *FILES], writes), reference)

    def test_the_table_covers_every_option_that_takes_a_value(self):
        help_text = run("check", "--help", check_exit=0).stdout
        # CLI11 prints a value option with its type: `  --select LIST ...`, `  -j,--jobs UINT ...`.
        taking_value = set()
        for line in help_text.splitlines():
            match = re.match(r"^\s+(-[\w-]+(?:,\s*--[\w-]+)?)\s+(?:LIST|TEXT|UINT|INT|DIR|FILE|PATH|K/N|ENUM|[A-Z]+:)", line)
            if match:
                taking_value.update(name.strip() for name in match.group(1).split(","))
        listed = {name for names, *_ in OPTIONS for name in names}
        self.assertEqual(taking_value, listed)

    def test_lists_by_comma_and_by_repetition_agree(self):
        for option, first, second in [("--select", "TM1", "TM201"), ("--extend-select", "TM305", "TM306"),
                                      ("--ignore", "TM102", "TM201"), ("--extend-exclude", "a.py", "b.py"),
                                      ("--policy", "TM201=adopt-new", "TM202=keep-old"),
                                      ("--exclude", "a.py", "b.py"), ("--unfixable", "TM201", "TM102"),
                                      ("--per-file-ignores", "a.py:TM102", "b.py:TM201")]:
            with self.subTest(option=option):
                comma = self.produce([*HOOK_ENTRY, option, f"{first},{second}", *FILES], [])
                repeated = self.produce([*HOOK_ENTRY, option, first, option, second, *FILES], [])
                equals = self.produce([*HOOK_ENTRY, f"{option}={first}", f"{option}={second}", *FILES], [])
                self.assertEqual(comma, repeated)
                self.assertEqual(comma, equals)

    def test_a_list_value_is_never_taken_for_a_path(self):
        result = run(*HOOK_ENTRY, "--select", "TM1", "a.py", cwd=self.tree.root, check_exit=1)
        self.assertIn("a.py:", result.stdout)
        self.assertNotIn("b.py", result.stdout)
        self.assertNotIn("TM201", result.stdout)
        # Before the fix, `--extend-exclude scripts src/` checked `.` with src/ excluded.
        (self.tree.root / "src").mkdir()
        self.tree.write("src/c.py", SOURCE)
        result = run("check", "--extend-exclude", "b.py", "src/", cwd=self.tree.root, check_exit=1)
        self.assertEqual({line.split(":")[0] for line in result.stdout.splitlines() if ".py:" in line}, {"src/c.py"})


if __name__ == "__main__":
    unittest.main()
