# SPDX-License-Identifier: MIT
"""The language server and `check` judge every file of a monorepo alike: the same findings at
the same places, and the server's fix-all gives the text `check --fix` writes. Both ask the
engine's Workspace for the file's project (torch range, facts) and configuration (policy)."""
import json
import shutil
import unittest

from lsp_client import LspClient
from test_project_fixtures import PROJECTS, materialise
from tm_e2e import run

MONOREPO = PROJECTS / "monorepo-two-projects"


def cli_findings(root, relative):
    result = run("check", "--no-cache", "--output-format", "json", relative, cwd=root)
    return sorted((f["code"], f["location"]["row"] - 1, f["location"]["column"] - 1, f["end_location"]["row"] - 1,
                   f["end_location"]["column"] - 1) for f in json.loads(result.stdout))


def server_findings(items):
    return sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["line"],
                   d["range"]["end"]["character"]) for d in items)


class CliAndServerAgree(unittest.TestCase):
    def test_same_findings_and_fixes_for_every_file(self):
        root = materialise(MONOREPO)
        fixed_root = materialise(MONOREPO)
        try:
            run("check", "--no-cache", "--fix", ".", cwd=fixed_root)
            client = LspClient(root)
            try:
                files = sorted(p for p in root.rglob("*.py") if ".git" not in p.parts)
                self.assertGreater(len(files), 1)
                for path in files:
                    relative = path.relative_to(root).as_posix()
                    with self.subTest(file=relative):
                        client.open(path)
                        self.assertEqual(cli_findings(root, relative), server_findings(client.diagnostics(path)))
                        fixed = client.fix_all(path)
                        expected = (fixed_root / relative).read_text()
                        self.assertEqual(expected, fixed if fixed is not None else path.read_text())
            finally:
                client.close()
        finally:
            shutil.rmtree(root, ignore_errors=True)
            shutil.rmtree(fixed_root, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
