# SPDX-License-Identifier: MIT
"""The HTML migration report, opened in a real browser: Debian's chromium in headless mode loads the
file with networking disabled, and the rendered DOM is checked against `check --output-format json`."""
import collections
import html.parser
import json
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tm_e2e import EXAMPLE, TempTree, copy_tree, run

CHROMIUM = shutil.which("chromium")
# Every name resolves nowhere and every request goes to a closed port: the page must need neither.
OFFLINE = ["--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]
URGENCY = {"1": "breaks", "2": "silent", "3": "deprecated", "4": "build"}


def dump_dom(path, fragment=""):
    """The DOM after the page's script ran, as chromium serialises it."""
    with tempfile.TemporaryDirectory(prefix="torchmigrate-chromium-") as profile:
        result = subprocess.run(
            [CHROMIUM, "--headless=new", "--disable-gpu", "--no-sandbox", "--no-first-run", f"--user-data-dir={profile}",
             *OFFLINE, "--dump-dom", Path(path).resolve().as_uri() + fragment],
            capture_output=True, text=True, timeout=120)
    if result.returncode != 0 or "<html" not in result.stdout:
        raise AssertionError(f"chromium failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return result.stdout


class Page(html.parser.HTMLParser):
    """What the tests read from a page: headline metrics, chart bars, table rows, the row count."""

    def __init__(self, text):
        super().__init__()
        self.metrics, self.bars, self.rows, self.count = {}, collections.defaultdict(list), [], {}
        self._metric, self._svg, self._in_findings = None, None, False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-metric" in attrs:
            self._metric = attrs["data-metric"]
        if tag == "svg":
            self._svg = attrs.get("id")
        if tag == "rect" and self._svg and "bar" in attrs.get("class", "").split():
            self.bars[self._svg].append(float(attrs["width"]))
        if tag == "table":
            self._in_findings = attrs.get("id") == "findings"
        if tag == "tr" and self._in_findings and "data-rule" in attrs:
            self.rows.append(attrs)
        if attrs.get("id") == "shown-count":
            self.count = attrs

    def handle_endtag(self, tag):
        if tag == "svg":
            self._svg = None
        if tag == "table":
            self._in_findings = False

    def handle_data(self, data):
        if self._metric is not None:
            self.metrics[self._metric] = int(data)
            self._metric = None


def fix_kind(finding):
    fix = finding.get("fix")
    if not fix or not fix.get("edits") or fix["applicability"] == "display-only":
        return "manual"
    return fix["applicability"]


class HtmlReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tree = TempTree()
        cls.report = cls.tree.root / "out" / "report.html"
        run("report", EXAMPLE, "-o", cls.report, "--no-cache", check_exit=0)
        cls.text = cls.report.read_text()
        cls.findings = json.loads(run("check", EXAMPLE, "--no-cache", "--output-format", "json", check_exit=1).stdout)
        cls.files = run("check", EXAMPLE, "--show-files", check_exit=0).stdout.splitlines()

    @classmethod
    def tearDownClass(cls):
        cls.tree.cleanup()

    def test_no_external_assets(self):
        text = self.text
        self.assertIn("Content-Security-Policy", text)
        self.assertIn("default-src 'none'", text)
        self.assertNotRegex(text, r"(?i)<(link|img|iframe|object|embed|audio|video|source)\b")
        self.assertNotRegex(text, r"(?i)<script[^>]*\bsrc\s*=")
        self.assertNotRegex(text, r"(?i)url\(|@import")
        # The only addresses are links to the upstream pull requests in the rules' explanations.
        addresses = re.findall(r"(?i)https?://[^\s\"'<>)]+", text)
        self.assertTrue(addresses)
        for address in addresses:
            self.assertRegex(address, r"^https://github\.com/pytorch/pytorch/(pull|issues)/\d+$")
        for match in re.finditer(r"(?i)https?://", text):
            self.assertRegex(text[max(0, match.start() - 9):match.start()], r'<a href="$')

    def test_markdown_headline_has_the_same_numbers(self):
        markdown = run("report", EXAMPLE, "--output-format", "markdown", "-o", self.tree.root / "report.md",
                       check_exit=0)
        self.assertEqual(markdown.stdout, "")
        text = (self.tree.root / "report.md").read_text()
        self.assertIn(f"| findings | {len(self.findings)} |", text)
        self.assertIn(f"| files checked | {len(self.files)} |", text)

    @unittest.skipUnless(CHROMIUM, "needs chromium (Debian package `chromium`)")
    def test_headline_and_charts_in_the_browser(self):
        page = Page(dump_dom(self.report))
        codes = collections.Counter(f["code"] for f in self.findings)
        self.assertEqual(page.metrics["findings"], len(self.findings))
        self.assertEqual(page.metrics["files"], len(self.files))
        self.assertEqual(page.metrics["files-with-findings"], len({f["filename"] for f in self.findings}))
        self.assertEqual(page.metrics["projects"], 1)
        for digit, urgency in URGENCY.items():
            expected = sum(n for code, n in codes.items() if code[2] == digit)
            self.assertEqual(page.metrics[f"urgency-{urgency}"], expected, urgency)
        kinds = collections.Counter(fix_kind(f) for f in self.findings)
        for kind in ("safe", "unsafe", "manual"):
            self.assertEqual(page.metrics[f"fix-{kind}"], kinds[kind], kind)
        self.assertGreater(kinds["safe"], 0)
        self.assertGreater(kinds["manual"], 0)
        # Every chart drew bars, each visible, the longest the full bar width.
        for chart in ("chart-releases", "chart-rules", "chart-directories", "chart-projects", "chart-work"):
            self.assertTrue(page.bars[chart], chart)
            self.assertTrue(all(width >= 1 for width in page.bars[chart]), chart)
        self.assertEqual(round(sum(page.bars["chart-projects"])), 380)
        # The script rendered the whole table.
        self.assertEqual(len(page.rows), len(self.findings))
        self.assertEqual(collections.Counter(row["data-rule"] for row in page.rows), codes)
        self.assertEqual(int(page.count["data-total"]), len(self.findings))

    @unittest.skipUnless(CHROMIUM, "needs chromium (Debian package `chromium`)")
    def test_filter_and_sort_in_the_address(self):
        codes = collections.Counter(f["code"] for f in self.findings)
        code, expected = codes.most_common(1)[0]
        self.assertLess(expected, len(self.findings))
        page = Page(dump_dom(self.report, f"#filter={code}"))
        self.assertEqual([row["data-rule"] for row in page.rows], [code] * expected)
        self.assertEqual(int(page.count["data-matched"]), expected)
        # A field filter, from the query string this time.
        build = sum(n for c, n in codes.items() if c.startswith("TM4"))
        page = Page(dump_dom(self.report, "?filter=urgency%3Abuild"))
        self.assertEqual(len(page.rows), build)
        self.assertTrue(all(row["data-urgency"] == "build" for row in page.rows))
        # Sorted by a column named in the address, both ways, the filter kept.
        page = Page(dump_dom(self.report, "#sort=rule"))
        rules = [row["data-rule"] for row in page.rows]
        self.assertEqual(rules, sorted(codes.elements()))
        page = Page(dump_dom(self.report, "#filter=urgency:build&sort=-rule"))
        rules = [row["data-rule"] for row in page.rows]
        self.assertEqual(rules, sorted((c for c in codes.elements() if c.startswith("TM4")), reverse=True))
        manual = sum(1 for f in self.findings if fix_kind(f) == "manual")
        page = Page(dump_dom(self.report, "#filter=fix%3Amanual"))
        self.assertEqual(len(page.rows), manual)

    def test_baseline_progress(self):
        tree = TempTree(EXAMPLE)
        try:
            baseline = tree.root / "baseline.json"
            run("check", tree.project, "--write-baseline", baseline, "--no-cache", check_exit=0)
            recorded = json.loads(baseline.read_text())
            # One recorded finding goes away, one new one comes.
            compiling = tree.project / "src" / "legacy_models" / "compiling.py"
            before = json.loads(run("check", compiling, "--output-format", "json", "--no-cache").stdout)
            gone = [f for f in before if not f["code"].startswith("TM1")][0]
            lines = compiling.read_text().splitlines(keepends=True)
            del lines[gone["location"]["row"] - 1]
            lines.append("ep2 = torch.export.export(model, (x,))\n")
            compiling.write_text("".join(lines))
            after = json.loads(run("check", tree.project, "--output-format", "json", "--no-cache").stdout)

            report = tree.root / "progress.html"
            run("report", tree.project, "--baseline", baseline, "-o", report, "--no-cache", check_exit=0)
            page = Page(report.read_text())
            total = sum(entry.get("count", 1) for entry in recorded["findings"])
            self.assertEqual(page.metrics["baseline-recorded"], total)
            self.assertGreaterEqual(page.metrics["baseline-fixed"], 1)
            self.assertGreaterEqual(page.metrics["baseline-new"], 1)
            self.assertEqual(page.metrics["baseline-open"] + page.metrics["baseline-fixed"], total)
            # Unlike `check --baseline`, the report keeps every finding.
            self.assertEqual(page.metrics["findings"], len(after))
            self.assertIn(gone["code"], report.read_text().split("Fixed since the baseline")[1])
        finally:
            tree.cleanup()

    def test_hostile_file_name(self):
        tree = TempTree()
        try:
            name = 'a<img src=x onerror=alert(1)>"\'.py'
            tree.write(f"p/{name}", "import torch\nep = torch.export.export_for_inference(m, (x,))\n")
            report = tree.root / "r.html"
            run("report", tree.root / "p", "-o", report, "--no-cache", check_exit=0)
            text = report.read_text()
            self.assertNotIn("<img", text)
            self.assertIn("a&lt;img src=x onerror=alert(1)&gt;&quot;&#39;.py", text)
            if CHROMIUM:
                page = dump_dom(report)
                self.assertNotIn("<img", page)
                self.assertEqual(len(Page(page).rows), 1)
        finally:
            tree.cleanup()

    def test_monorepo_report_read_from_elsewhere(self):
        """Examples on several lines, no machine paths, the charts before a short project table,
        `code` in messages, paths that break between directories."""
        tree = TempTree()
        try:
            for name in ("a", "b", "c"):
                tree.write(f"mono/{name}/requirements.txt", "torch>=2.8\n")
            tree.write("mono/a/deep/module.py", "import torch\nep = torch.export.export_for_inference(m, (x,))\n")
            (tree.root / "elsewhere").mkdir()
            report, markdown = tree.root / "r.html", tree.root / "r.md"
            run("report", tree.root / "mono", "-o", report, "--no-cache", cwd=tree.root / "elsewhere", check_exit=0)
            run("report", tree.root / "mono", "--output-format", "markdown", "-o", markdown, "--no-cache",
                cwd=tree.root / "elsewhere", check_exit=0)
            text = report.read_text()
            for written in (text, markdown.read_text()):
                self.assertNotIn(str(tree.root), written)
            self.assertIn("`a/deep/module.py`", markdown.read_text())
            examples = re.findall(r"<pre><code>(.*?)</code></pre>", text, re.S)
            self.assertTrue(examples)
            for example in examples:
                self.assertNotIn("\\n", example)
            self.assertTrue(any("\n" in example.strip() for example in examples))
            self.assertLess(text.index('id="charts"'), text.index('id="projects"'))
            projects = text[text.index('id="projects"'):text.index("</table>", text.index('id="projects"'))]
            self.assertEqual(projects.count("<tr>"), 2)  # the header and project a
            self.assertIn("2 projects without findings", projects)
            self.assertIn("a/<wbr>requirements.txt:1", projects)
            self.assertRegex(text, r'<p class="summary">[^<]*<code>')
            self.assertNotIn("break-all", text)
            if CHROMIUM:
                page = dump_dom(report)
                self.assertRegex(page, r'<td class="file">a/<wbr>deep/<wbr>module\.py</td>')
                self.assertRegex(page, r'<td class="message">[^<]*<code>torch\.export\.export_for_inference</code>')
        finally:
            tree.cleanup()

    def test_default_output_file_and_options(self):
        tree = TempTree()
        try:
            result = run("report", EXAMPLE, "--no-cache", cwd=tree.root, check_exit=0)
            self.assertEqual(result.stdout, "")
            self.assertIn("report.html", result.stderr)
            self.assertTrue((tree.root / "report.html").read_text().startswith("<!DOCTYPE html>"))
            run("report", EXAMPLE, "--no-cache", "--output-format", "markdown", cwd=tree.root, check_exit=0)
            self.assertTrue((tree.root / "report.md").read_text().startswith("## torchmigrate\n"))
            # The report changes no file and replaces nothing: those options are check's.
            for option in ("--fix", "--diff", "--write-baseline=b.json", "--statistics"):
                self.assertIn("unknown option", run("report", EXAMPLE, option, cwd=tree.root, check_exit=2).stderr)
        finally:
            tree.cleanup()

    def test_check_writes_the_same_page(self):
        out = self.tree.root / "check.html"
        run("check", EXAMPLE, "--output-format", "html", "-o", out, "--no-cache", check_exit=1)
        self.assertEqual(out.read_text(), self.text)

    def test_a_7000_file_tree_stays_under_5_mb(self):
        tree = TempTree()
        try:
            copy_tree(tree.root / "big", 7000)
            report = tree.root / "big.html"
            run("report", tree.root / "big", "-o", report, "--no-cache", check_exit=0)
            size = report.stat().st_size
            self.assertLess(size, 5 * 1024 * 1024)
            files = int(re.search(r'data-metric="files">(\d+)<', report.read_text()).group(1))
            self.assertEqual(files, 7001)  # the copies and requirements.txt
        finally:
            tree.cleanup()


if __name__ == "__main__":
    unittest.main()
