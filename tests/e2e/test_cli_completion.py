# SPDX-License-Identifier: MIT
"""`torchmigrate completion bash|zsh|fish`: each script loads in its shell and completes the
real subcommands, options and their values (bash and fish are asked for completions; zsh,
which needs a terminal for that, is loaded and its functions checked)."""
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tm_e2e import run


def script(shell):
    path = Path(tempfile.mkdtemp(prefix="torchmigrate-completion-")) / f"torchmigrate.{shell}"
    path.write_text(run("completion", shell, check_exit=0).stdout)
    return path


def bash_complete(path, *words):
    """What bash offers for the last of `words` (`torchmigrate` is the first)."""
    array = " ".join(f"'{word}'" for word in words)
    code = (f"source '{path}'; COMP_WORDS=({array}); COMP_CWORD={len(words) - 1}; _torchmigrate; "
            'printf "%s\\n" "${COMPREPLY[@]}"')
    return subprocess.run(["bash", "-c", code], capture_output=True, text=True, check=True).stdout.split()


class Completion(unittest.TestCase):
    def test_bash_completes_commands_options_and_values(self):
        path = script("bash")
        self.assertEqual(bash_complete(path, "torchmigrate", "c"), ["check", "completion"])
        self.assertIn("--stdin-filename", bash_complete(path, "torchmigrate", "check", "--st"))
        self.assertIn("--per-file-ignores", bash_complete(path, "torchmigrate", "check", "--per"))
        self.assertEqual(bash_complete(path, "torchmigrate", "check", "--color", ""), ["auto", "always", "never"])
        self.assertIn("sarif", bash_complete(path, "torchmigrate", "check", "--output-format", "s"))
        self.assertIn("TM201", bash_complete(path, "torchmigrate", "check", "--select", "TM2"))
        self.assertIn("TM101", bash_complete(path, "torchmigrate", "rule", "TM10"))
        self.assertEqual(bash_complete(path, "torchmigrate", "completion", "z"), ["zsh"])

    @unittest.skipUnless(shutil.which("fish"), "needs fish")
    def test_fish_completes_commands_options_and_values(self):
        path = script("fish")

        def offered(line):
            result = subprocess.run(["fish", "-c", f"source '{path}'; complete -C'{line}'"], capture_output=True,
                                    text=True, check=True)
            return [entry.split("\t")[0] for entry in result.stdout.splitlines()]

        self.assertIn("check", offered("torchmigrate "))
        self.assertIn("--select", offered("torchmigrate check --sel"))
        self.assertEqual(sorted(offered("torchmigrate check --color ")), ["always", "auto", "never"])
        self.assertIn("TM305", offered("torchmigrate check --extend-select "))

    @unittest.skipUnless(shutil.which("zsh"), "needs zsh")
    def test_zsh_script_loads_and_defines_its_functions(self):
        path = script("zsh")
        code = (f"autoload -U compinit; compinit -u -D; source '{path}'; "
                "print -l ${(k)functions[(I)_torchmigrate*]}; print ${_comps[torchmigrate]}")
        result = subprocess.run(["zsh", "-f", "-c", code], capture_output=True, text=True)
        self.assertEqual(result.stderr, "")
        help_text = run("--help", check_exit=0).stdout
        commands = re.findall(r"^  (\w+)\s{2,}", help_text.split("Subcommands:")[1], re.M)
        self.assertIn("check", commands)
        self.assertEqual(set(result.stdout.split()) - {"_torchmigrate"}, {f"_torchmigrate_{name}" for name in commands})

    def test_an_unknown_shell_is_a_usage_error(self):
        run("completion", "powershell", check_exit=2)


if __name__ == "__main__":
    unittest.main()
