# SPDX-License-Identifier: MIT
"""End-to-end tests of the rule docs: `torchmigrate rule CODE` (Markdown with code blocks tagged
by the examples' language, or JSON equal to the catalog entry) and `rules --write-docs`."""
import json
import re
import unittest

from tm_e2e import SOURCE_DIR, TempTree, run

CATALOG = {path.stem: json.loads(path.read_text()) for path in sorted((SOURCE_DIR / "rules").glob("TM*.json"))}
FENCE = re.compile(r"^```(\S*)$", re.MULTILINE)


class RuleCommand(unittest.TestCase):
    def test_code_blocks_are_tagged_with_the_examples_language(self):
        expected = {"TM201": "python", "TM151": "cpp", "TM401": "dockerfile", "TM402": "text", "TM403": "cmake"}
        for code, language in expected.items():
            with self.subTest(code=code):
                markdown = run("rule", code, check_exit=0).stdout
                tags = FENCE.findall(markdown)
                # Opening fences carry the tag, closing ones are bare.
                self.assertEqual(tags[0::2], [language] * (len(tags) // 2))
                self.assertEqual(set(tags[1::2]), {""})
                if CATALOG[code].get("language") == "build":
                    self.assertIn(f"In `{CATALOG[code]['docs']['example_file']}`:", markdown)

    def test_json_output_carries_the_catalog_entry(self):
        for code, entry in CATALOG.items():
            with self.subTest(code=code):
                shown = json.loads(run("rule", code, "--output-format", "json", check_exit=0).stdout)
                self.assertEqual(shown["code"], code)
                self.assertEqual(shown["name"], entry["name"])
                self.assertEqual(shown["language"], entry.get("language", "python"))
                self.assertEqual(shown["fix"]["applicability"], entry["fix"]["applicability"])
                self.assertEqual([r["id"] for r in shown["references"]], entry["references"])
                for key, text in entry["docs"].items():
                    self.assertEqual(shown["docs"][key], text, key)
        self.assertIn("unknown rule", run("rule", "TM999", "--output-format", "json", check_exit=2).stderr)


class WriteDocs(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree()
        self.addCleanup(self.tree.cleanup)

    def test_writes_a_page_per_rule_and_an_index_and_drops_stale_pages(self):
        stale = self.tree.write("docs/TM998-renamed-rule.md", "old\n")
        notes = self.tree.write("docs/notes.md", "kept\n")
        run("rules", "--write-docs", "docs", cwd=self.tree.root, check_exit=0)
        docs = self.tree.root / "docs"
        pages = sorted(p.name for p in docs.glob("TM*.md"))
        self.assertEqual(pages, sorted(f"{code}-{entry['name']}.md" for code, entry in CATALOG.items()))
        self.assertFalse(stale.exists())
        self.assertTrue(notes.exists())
        index = (docs / "README.md").read_text()
        for code, entry in CATALOG.items():
            self.assertIn(f"| [{code}]({code}-{entry['name']}.md) | {entry['name']} |", index)
        page = (docs / f"TM201-{CATALOG['TM201']['name']}.md").read_text()
        self.assertEqual(page, run("rule", "TM201", check_exit=0).stdout)

    def test_unwritable_directory_is_a_usage_error(self):
        self.tree.write("file", "x\n")
        self.assertIn("cannot create directory", run("rules", "--write-docs", "file/docs", cwd=self.tree.root,
                                                     check_exit=2).stderr)


if __name__ == "__main__":
    unittest.main()
