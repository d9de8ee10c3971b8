#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Field trial: torchmigrate on pinned commits of real projects, with its fixes checked.

    python3 benchmarks/field_trial.py --mirrors DIR --bin build/torchmigrate --work SCRATCH --out OUT
        [--projects benchmarks/field_trial_projects.json] [--only NAME ...] [--select ALL|default]
        [--tm-arg=--min-torch --tm-arg=2.8 ...] [--timeout 900] [--keep-trees] [--sample N --seed S]
    python3 benchmarks/field_trial.py --out OUT --sample 20 --seed 1      # review sample of OUT/fixes.jsonl

For each project of the JSON file (`projects[]`: `name`, `repo` "owner/name", `commit`, optional
`git_dir`, `expected_range` {min, max, note} and `range_evidence`), the commit's tree is exported
from a bare git directory found under `--mirrors` (`owner+name/repo`, `owner+name`,
`owner/name.git`, ... or the entry's `git_dir`, absolute or relative to `--mirrors`) with
`git archive` (submodules are not part of it; when blobs are missing from a partial mirror, the
files that can be read are exported one by one and the missing ones listed). Then, in the tree:

1. `check . --output-format json -v --no-cache` (with `--select`, unless `--select default`): the
   findings per rule and the fixes offered per applicability; the same run with `--shard 1/1` for
   each project's range and each fix's declared torch requirement (optional, internal layout);
2. `check --show-settings FILE...` for every file with a finding: each file's settings, its torch
   range in particular (kept raw and parsed for a minimum, maximum and target however worded);
3. `check . --fix --show-fixes` on a copy and `check . --diff -v` on the original (which must stay
   unchanged; its stderr gives the per-project range lines); the diff is applied to a third copy
   by a strict patcher (no fuzz) and that copy must equal the fixed one; a second `--fix` on the
   fixed copy must change nothing;
4. every changed `.py` must still compile (`compile()`; files that did not compile before are
   counted apart), every changed `.ipynb` must be JSON with the same cells, and the BOM, the
   line-ending style and the final newline of every changed file must be kept;
5. every applied fix goes to `fixes.jsonl`: file, cell, line, rule, fix title, applicability and
   policy, its edits, the lines before and after with 2 lines of context (its edits applied alone
   to the original), what the fixed file holds there (other fixes on the same lines included),
   the range reported for the file and for its project, the fix's declared requirement, and, when
   the JSON gives the project's `expected_range`, `review_flags`: reasons the fix looks wrong for
   that range (it needs a newer torch than the project's oldest, or a torch older than its newest; a
   keyword older torch lacks; a keep-old fix although every supported torch already has the new
   default);
6. the mechanical checks of the release-train model, per file with the range `--show-settings`
   reports for it: (a) no changed-default finding (TM201-TM206, TM302) in a file whose range starts
   at 2.8 or later; (b) no applied safe fix whose declared requirement (`requires_torch`,
   `requires_torch_below` of the shard report) some release of [min, max(target, max)] lacks.

Range wording read: `supported torch 2.1-2.8 (from requirements.txt:1[, inherited]); target torch 2.8`
(one project), `N projects, supported torch 2.5-2.8 (2), >= 2.6 (1); target torch 2.8 (-v names each
project)` (kept apart, in `summary_lines`), `DIR: supported torch ...; configuration: ...` (`-v`), the
`supported torch:`, `target torch:` and `torch pins read:` lines of `--show-settings`, and older
wordings (`>= 2.7 (from default)`, `[2.7, 2.9]`, `2.7..2.9`).

Output in `--out`: `results.json` (everything, rewritten after each project), `fixes.jsonl` and
`summary.md`. A project that fails (mirror missing, export error, timeout, crash) is recorded with
its error and the next one runs. `--tm-arg` passes one argument to every `check` run (repeat it:
`--tm-arg=--target-version --tm-arg=2.9`); with `--unsafe-fixes` among them unsafe fixes count as
applied too. `--sample N --seed S` prints N random applied fixes (safe ones unless
`--sample-applicability`) as Markdown for review. Python 3.11, standard library only.
"""
import argparse
import difflib
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

DEFAULT_PROJECTS = Path(__file__).resolve().parent / "field_trial_projects.json"
CONTEXT = 2
VERSION = r"\d+(?:\.\d+)+(?:[a-z]+\d*)?(?:\.dev\d*)?"


# ---------------------------------------------------------------------------------------------------------------------
# Running commands


class CommandResult:
    def __init__(self, argv, returncode, stdout, stderr, seconds, timed_out=False, error=None):
        self.argv, self.returncode, self.stdout, self.stderr = argv, returncode, stdout, stderr
        self.seconds, self.timed_out, self.error = seconds, timed_out, error

    def summary(self):
        return {"argv": [str(a) for a in self.argv], "rc": self.returncode, "seconds": round(self.seconds, 2),
                "timed_out": self.timed_out, "error": self.error,
                "stderr_tail": self.stderr.decode("utf-8", "replace")[-2000:] if self.stderr else ""}


def run(argv, cwd=None, timeout=600, stdin=None):
    """Runs argv; never raises for a failing or hanging command."""
    start = time.monotonic()
    try:
        done = subprocess.run([str(a) for a in argv], cwd=cwd, input=stdin, capture_output=True, timeout=timeout,
                              check=False)
        return CommandResult(argv, done.returncode, done.stdout, done.stderr, time.monotonic() - start)
    except subprocess.TimeoutExpired as expired:
        return CommandResult(argv, None, expired.stdout or b"", expired.stderr or b"", time.monotonic() - start,
                             timed_out=True, error=f"timed out after {timeout} s")
    except OSError as error:
        return CommandResult(argv, None, b"", b"", time.monotonic() - start, error=str(error))


# ---------------------------------------------------------------------------------------------------------------------
# Mirrors and export


def git_dir_candidates(mirrors, entry):
    owner, name = entry["repo"].split("/", 1)
    if entry.get("git_dir"):
        explicit = Path(entry["git_dir"])
        yield explicit if explicit.is_absolute() else mirrors / explicit
    for base in (mirrors / f"{owner}+{name}", mirrors / owner / name, mirrors / name):
        yield base / "repo"
        yield base
        yield base.with_name(base.name + ".git")


def find_git_dir(mirrors, entry, timeout):
    tried = []
    for candidate in git_dir_candidates(mirrors, entry):
        tried.append(str(candidate))
        if not candidate.is_dir():
            continue
        probe = run(["git", "--git-dir", candidate, "cat-file", "-e", entry["commit"] + "^{commit}"], timeout=timeout)
        if probe.returncode == 0:
            return candidate, tried
    return None, tried


def export_tree(git_dir, commit, dest, timeout):
    """Exports commit's tree into dest. Returns (method, missing blob paths)."""
    dest.mkdir(parents=True)
    archive = dest.parent / (dest.name + ".tar")
    with open(archive, "wb") as out:
        try:
            done = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "--format=tar", commit], stdout=out,
                                  stderr=subprocess.PIPE, timeout=timeout, check=False)
            ok = done.returncode == 0
        except subprocess.TimeoutExpired:
            ok = False
    if ok:
        try:
            with tarfile.open(archive) as tar, warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tar.extractall(dest, filter="tar")
            archive.unlink()
            return "git archive", []
        except (tarfile.TarError, OSError):
            pass
    archive.unlink(missing_ok=True)
    shutil.rmtree(dest)
    dest.mkdir(parents=True)
    return "blob by blob", export_blobs(git_dir, commit, dest, timeout)


def export_blobs(git_dir, commit, dest, timeout):
    """Fallback export when git archive fails (blobs missing from a partial mirror)."""
    listing = run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", "--full-tree", commit], timeout=timeout)
    if listing.returncode != 0:
        raise RuntimeError("git ls-tree failed: " + listing.stderr.decode("utf-8", "replace"))
    entries = []
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode.decode(), sha.decode(), path.decode("utf-8", "surrogateescape")))
    missing = []
    batch = subprocess.Popen(["git", "--git-dir", str(git_dir), "cat-file", "--batch"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    try:
        for mode, sha, path in entries:
            batch.stdin.write(sha.encode() + b"\n")
            batch.stdin.flush()
            header = batch.stdout.readline().split()
            if len(header) < 3 or header[1] == b"missing":
                missing.append(path)
                continue
            data = batch.stdout.read(int(header[2]))
            batch.stdout.read(1)
            target = dest / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if mode == "120000":
                os.symlink(data.decode("utf-8", "surrogateescape"), target)
            else:
                target.write_bytes(data)
                if mode == "100755":
                    target.chmod(0o755)
    finally:
        batch.stdin.close()
        batch.wait(timeout=60)
    return missing


def tree_digest(root):
    """{relative path: sha256} of every regular file below root (symbolic links by their target)."""
    digest = {}
    for directory, _, files in os.walk(root):
        for name in files:
            path = Path(directory, name)
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                digest[rel] = "link:" + os.readlink(path)
            else:
                digest[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest


def copy_tree(source, dest):
    shutil.copytree(source, dest, symlinks=True)


# ---------------------------------------------------------------------------------------------------------------------
# Torch range lines and settings


def parse_range(text):
    """A torch range however it is worded: '>= 2.7', '2.1-2.8', '2.14' (one release), '[2.7, 2.9]',
    '>= 2.7, < 2.10', '2.7..2.9', with '(from SOURCE[, inherited[ from DIR]])' and '; target torch 2.8'."""
    parsed = {"text": text.strip()}
    target = re.search(rf"target(?:ing)?(?: (?:torch|release|version))?\s*[:=]?\s*({VERSION})", text, re.I)
    if target:
        parsed["target"] = target.group(1)
    source = re.search(r"\((?:from )?([^()]*(?:\([^)]*\)[^()]*)*)\)", text)
    if source and (source.group(0).startswith("(from") or source.group(1).startswith("default")):
        parsed["source"] = source.group(1)
        inherited = re.search(r",\s*inherited(?: from (.+))?$", parsed["source"])
        if inherited:
            parsed["inherited_from"] = inherited.group(1) or "(enclosing project)"
            parsed["source"] = parsed["source"][:inherited.start()]
        if parsed["source"].startswith("default"):
            parsed["default"] = True
    # The range alone: no source (its paths may hold versions), no target.
    span = re.split(r";\s*target\b", text, maxsplit=1, flags=re.I)[0]
    span = re.sub(r"\([^()]*(?:\([^)]*\)[^()]*)*\)", " ", span)
    span = re.sub(r"^\s*(?:supported torch|torch range|range)\s*:?\s*", "", span.strip(), flags=re.I)
    bracket = re.search(rf"[\[(]\s*({VERSION})?\s*,\s*({VERSION})?\s*[\])]", span)
    dots = re.search(rf"({VERSION})\s*(?:\.\.|–|—|-| to )\s*({VERSION})", span)
    if bracket:
        parsed["min"], parsed["max"] = bracket.group(1), bracket.group(2)
    elif dots:
        parsed["min"], parsed["max"] = dots.group(1), dots.group(2)
    else:
        low = re.search(rf"(?:>=|≥|>|~=|==|from|min(?:imum)?[:=]?)\s*({VERSION})", span)
        high = re.search(rf"(?:<=|≤|<|max(?:imum)?[:=]?|up to)\s*({VERSION})", span)
        if low:
            parsed["min"] = low.group(1)
        if high:
            parsed["max"] = high.group(1)
            parsed["max_exclusive"] = bool(re.search(rf"<(?!=)\s*{re.escape(high.group(1))}", span))
        if not low and not high:
            versions = re.findall(VERSION, span)
            if len(versions) == 1 and re.fullmatch(rf"\s*{VERSION}\s*", span):
                parsed["min"] = parsed["max"] = versions[0]  # one release: '2.14'
            elif versions:
                parsed["min"] = versions[0]
                if len(versions) > 1:
                    parsed["max"] = versions[1]
    return {key: value for key, value in parsed.items() if value is not None}


# "torchmigrate: [DIR: ]supported torch SPAN (from SOURCE); target torch T[ (from ...)][; configuration: ...]"
RANGE_LINE = re.compile(r"^torchmigrate: (?:(?P<project>[^:]+?): )?"
                        r"(?P<rest>(?:supported torch|torch range|target|range)\b.*)$")
# "torchmigrate: 3 projects, supported torch 2.5-2.8 (2), >= 2.6 (1); target torch 2.8 (-v names each project)"
SUMMARY_LINE = re.compile(r"^torchmigrate: (?P<count>\d+) projects?, supported torch (?P<spans>.*?); "
                          r"target torch (?P<targets>[^(]*?)\s*(?:\(-v names each project\))?\s*$")
NOT_RANGE = re.compile(r"^torchmigrate: (timing|note|warning|error)\b|^Would fix|^Fixed|^Found", re.I)


def parse_summary_line(line):
    match = SUMMARY_LINE.match(line)
    if not match:
        return None
    spans = [{"span": span, "projects": int(count)}
             for span, count in re.findall(r"\s*(.+?) \((\d+)\)(?:,|$)", match.group("spans"))]
    return {"raw": line, "projects": int(match.group("count")), "spans": spans,
            "targets": [t.strip() for t in match.group("targets").split(",") if t.strip()]}


def range_lines(stderr_text):
    """The per-project torch range lines of `check -v` (raw and parsed), and other lines naming torch (raw),
    among them the multi-project summary line (parsed apart by parse_summary_line)."""
    lines, other = [], []
    for line in stderr_text.splitlines():
        summary = parse_summary_line(line)
        if summary:
            other.append(line)
            continue
        match = RANGE_LINE.match(line)
        if match or ("torch" in line.lower() and re.search(VERSION, line) and not NOT_RANGE.search(line)):
            rest = match.group("rest") if match else line.removeprefix("torchmigrate: ")
            config = None
            if "; configuration:" in rest:
                rest, config = rest.split("; configuration:", 1)
            entry = {"raw": line, "project": (match.group("project") if match else None) or ".", **parse_range(rest)}
            if config is not None:
                entry["configuration"] = config.strip()
            lines.append(entry)
        elif "torch" in line.lower() and not line.startswith("torchmigrate: timing"):
            other.append(line)
    return lines, other


def parse_settings(text):
    """`--show-settings` blocks: {file: {key: value}}; the range keys ("supported torch", "target torch") are
    parsed too, under "_torch"; "torch pins read" is kept as a list under "_pins"."""
    settings, current = {}, None
    for line in text.splitlines():
        if line.startswith("Settings for "):
            current = settings.setdefault(line[len("Settings for "):].strip(), {})
        elif current is not None and ":" in line and line.startswith((" ", "\t")):
            key, value = line.strip().split(":", 1)
            current[key.strip()] = value.strip()
    for values in settings.values():
        ranges = {key: parse_range(value) for key, value in values.items() if is_range_key(key)}
        if ranges:
            values["_torch"] = ranges
        if "torch pins read" in values:
            values["_pins"] = [p.strip() for p in values["torch pins read"].split(",") if p.strip()]
    return settings


def is_range_key(key):
    """Keys of `--show-settings` that hold a range or a target (not the list of pin files, not ONNX)."""
    key = key.lower()
    return ("torch" in key or "target" in key or "range" in key) and not any(
        word in key for word in ("onnx", "pins", "read", "enabled", "rules"))


def file_range_parsed(settings):
    """{min, max, target, source, inherited_from} of a file's settings, from its range and target keys."""
    parsed = {}
    for key, value in (settings or {}).get("_torch", {}).items():
        if "target" in key.lower():
            if value.get("min"):
                parsed["target"] = value["min"]
        else:
            for field in ("min", "max", "source", "inherited_from", "default"):
                if field in value:
                    parsed[field] = value[field]
    return parsed


def file_range_text(settings):
    """The one-line torch range and target of a file's settings (whatever their keys are called)."""
    if not settings:
        return None
    parts = [f"{key}: {value}" for key, value in settings.items() if not key.startswith("_") and is_range_key(key)]
    return "; ".join(parts) or None


# ---------------------------------------------------------------------------------------------------------------------
# Findings and fixes


def load_findings(stdout):
    """The findings of a JSON report: the bare array, or the object form (`findings`, maybe `projects`)."""
    data = json.loads(stdout.decode("utf-8") or "[]")
    if isinstance(data, dict):
        return data.get("findings", []), data
    return data, None


def applied_applicabilities(tm_args):
    return {"safe", "unsafe"} if "--unsafe-fixes" in tm_args else {"safe"}


def split_lines(text):
    """Lines with their endings, split at "\n" only (rows count as the tool counts them)."""
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def line_starts(text):
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return starts


def offset_of(text, starts, location):
    row, column = location["row"], location["column"]
    if row - 1 >= len(starts):
        return len(text)
    return min(starts[row - 1] + column - 1, len(text))


def apply_edits(text, edits):
    starts = line_starts(text)
    spans = sorted(((offset_of(text, starts, e["location"]), offset_of(text, starts, e["end_location"]),
                     e.get("content") or "") for e in edits), reverse=True)
    for begin, end, content in spans:
        text = text[:begin] + content + text[end:]
    return text


def strip_bom(text):
    return text[1:] if text.startswith("\ufeff") else text


def cell_texts(notebook_text):
    """Every cell's source (1-based index into all cells, and into code cells), or None."""
    try:
        cells = json.loads(notebook_text).get("cells", [])
    except (json.JSONDecodeError, AttributeError):
        return None
    out = []
    for cell in cells:
        source = cell.get("source", "")
        out.append(("".join(source) if isinstance(source, list) else source, cell.get("cell_type")))
    return out


def notebook_cell(text, cell_number):
    cells = cell_texts(text)
    if not cells or not 1 <= cell_number <= len(cells):
        return None
    return cells[cell_number - 1][0]


def snippet(lines, first, last):
    lo, hi = max(0, first - CONTEXT), min(len(lines), last + 1 + CONTEXT)
    return lo + 1, [line.rstrip("\r\n") for line in lines[lo:hi]]


def map_rows(opcodes, first, last):
    """The rows of the fixed text that rows first..last (0-based) of the original became."""
    start = end = None
    for tag, i1, i2, j1, j2 in opcodes:
        if start is None and i1 <= first < max(i2, i1 + 1):
            start = j1 + (first - i1) if tag == "equal" else j1
        if i1 <= last < max(i2, i1 + 1):
            end = j1 + (last - i1) if tag == "equal" else max(j1, j2 - 1)
            break
    return start, end


def fix_record(project, finding, original_text, fixed_text, file_range, project_range):
    """One applied fix for review: its edits applied alone to the original, with context, and what the fixed
    file holds at the same place (where other fixes on the same lines show too)."""
    fix = finding["fix"]
    edits = fix.get("edits") or []
    cell = finding.get("cell")
    before_text = original_text
    fixed_unit = fixed_text
    if cell is not None:
        before_text = notebook_cell(original_text, cell) or ""
        fixed_unit = notebook_cell(fixed_text, cell) if fixed_text is not None else None
    before_text = strip_bom(before_text)
    record = {"project": project, "file": finding["filename"], "cell": cell, "line": finding["location"]["row"],
              "column": finding["location"]["column"], "rule": finding["code"], "name": finding.get("name"),
              "severity": finding.get("severity"), "message": finding.get("message"),
              "fix_title": fix.get("message"), "applicability": fix.get("applicability"), "policy": fix.get("policy"),
              "edits": edits, "file_range": file_range, "project_range": project_range}
    if not edits:
        return record
    after_text = apply_edits(before_text, edits)
    before_lines, after_lines = split_lines(before_text), split_lines(after_text)
    if 0 < record["line"] <= len(before_lines):
        record["finding_line_text"] = before_lines[record["line"] - 1].rstrip("\r\n")
    rows = [e["location"]["row"] for e in edits] + [e["end_location"]["row"] for e in edits]
    first, last = min(rows) - 1, max(rows) - 1
    added = after_text.count("\n") - before_text.count("\n")
    start, record["before"] = snippet(before_lines, first, last)
    _, record["after"] = snippet(after_lines, first, max(first, last + added))
    record["context_first_line"] = start
    if fixed_unit is not None:
        fixed_lines = split_lines(strip_bom(fixed_unit))
        plain = [line.rstrip("\r\n") for line in fixed_lines]
        opcodes = difflib.SequenceMatcher(None, [line.rstrip("\r\n") for line in before_lines], plain,
                                          autojunk=False).get_opcodes()
        lo, hi = map_rows(opcodes, first, last)
        if lo is not None and hi is not None:
            record["fixed_file_first_line"], record["in_fixed_file_lines"] = snippet(fixed_lines, lo, max(lo, hi))
        fixed_joined = "".join(fixed_lines)
        record["in_fixed_file"] = all((e.get("content") or "").strip() in fixed_joined for e in edits)
    return record


def shard_requirements(details):
    """{(path, code, message): [each finding's fixes as {title: {requires_torch, requires_torch_below,
    applicability_before_range}}]} of a shard report."""
    names = {0: "safe", 1: "unsafe", 2: "display-only"}
    table = defaultdict(list)
    for file in details.get("files", []):
        for diagnostic in file.get("diagnostics", []):
            fixes = {fix.get("title"): {"requires_torch": fix.get("requires_torch") or None,
                                        "requires_torch_below": fix.get("requires_torch_below") or None,
                                        "applicability_before_range": names.get(fix.get("applicability"),
                                                                                fix.get("applicability"))}
                     for fix in diagnostic.get("fixes", [])}
            table[(os.path.normpath(file["path"]), diagnostic["code"], diagnostic["message"])].append(fixes)
    return table


def match_requirement(table, finding):
    """The requirement of the fix a finding carries, taken from the shard report (first unused match)."""
    key = (os.path.normpath(finding["filename"]), finding["code"], finding.get("message"))
    candidates = table.get(key) or []
    title = (finding.get("fix") or {}).get("message")
    for index, fixes in enumerate(candidates):
        if title in fixes:
            candidates.pop(index)
            return fixes[title]
    return {}


# Keywords that fixes write, with the torch release that first accepted them, for the review flags below. These
# are facts about torch, not about torchmigrate, so a requirement the catalog does not declare still shows.
KEYWORD_SINCE = {"strict=": "2.2", "dynamo=": "2.5", "opset_version=17": "1.13", "opset_version=18": "2.1"}
# Values that keep-old fixes write, with the first release whose default they equal: on an older torch the
# "kept" value is not the old default (torch.onnx.export's default opset was 14 in 1.13 and 2.0, 17 from 2.1).
OLD_DEFAULT_SINCE = {"opset_version=17": "2.1"}


def version_key(text):
    parts = []
    for part in str(text).split("."):
        digits = re.match(r"\d+", part)
        if not digits:
            break
        parts.append(int(digits.group()))
    return tuple(parts + [0] * (3 - len(parts)))


def load_catalog(binary):
    """{code: rule} from `rule --all --output-format json` (empty when the binary cannot say)."""
    listing = run([binary, "rule", "--all", "--output-format", "json"], timeout=120)
    try:
        return {rule["code"]: rule for rule in json.loads(listing.stdout.decode("utf-8"))}
    except (ValueError, KeyError, TypeError):
        return {}


def catalog_requirement(rule):
    """(lowest, first release without) of a catalog rule's `fix.requires.torch` (">=2.5,<2.11")."""
    spec = ((rule.get("fix") or {}).get("requires") or {}).get("torch", "")
    low = re.search(rf">=\s*({VERSION})", spec)
    below = re.search(rf"<(?!=)\s*({VERSION})", spec)
    return (low.group(1) if low else None), (below.group(1) if below else None)


def declared_requirement(record, catalog):
    """The fix's declared (requires_torch, requires_torch_below): from the shard report, else from the catalog."""
    low, below = catalog_requirement(catalog.get(record["rule"], {}))
    if "requires_torch" in record or "requires_torch_below" in record:
        return record.get("requires_torch"), record.get("requires_torch_below")
    return low, below


# "nightly"/"latest" as an upper end: newer than any release a requirement names.
OPEN_END = "99"


def requirement_unmet(required, below, low, high):
    """Why releases low..high (MAJOR.MINOR, inclusive) do not all meet `>= required, < below`, or None."""
    if required and version_key(required) > version_key(low):
        return f"needs torch >= {required}; the range starts at {low}"
    if below and version_key(high) >= version_key(below):
        return f"needs torch < {below}; the range reaches {'nightly' if high == OPEN_END else high}"
    return None


def review_flags(record, expected, catalog):
    """Why an applied fix looks wrong for the project's own supported range (`expected_range` of the JSON)."""
    low = (expected or {}).get("min")
    if not low:
        return []
    high = (expected or {}).get("max")
    high = OPEN_END if not high or not re.match(r"\d", high) else high
    flags = []
    rule = catalog.get(record["rule"], {})
    required, below = declared_requirement(record, catalog)
    unmet = requirement_unmet(required, below, low, max(high, "2.8", key=version_key))
    if unmet:
        flags.append(f"{unmet} (the project supports torch {low}-{expected.get('max')})")
    for edit in record.get("edits", []):
        content = (edit.get("content") or "").replace(" ", "")
        for keyword, since in KEYWORD_SINCE.items():
            if keyword in content and version_key(since) > version_key(low) and not (
                    required and version_key(required) >= version_key(since)):
                flags.append(f"`{keyword}` exists since torch {since}; the project supports torch {low}")
    for edit in record.get("edits", []):
        content = (edit.get("content") or "").replace(" ", "")
        for value, since in OLD_DEFAULT_SINCE.items():
            if record.get("policy") == "keep-old" and value in content and version_key(since) > version_key(low):
                flags.append(f"`{value}` is the default only since torch {since}; on the project's oldest "
                             f"torch ({low}) the fix changes the result")
    if record.get("policy") == "keep-old" and rule.get("kind") == "changed-default":
        flip = rule.get("removed_in") or (rule.get("release") or {}).get("to")
        if flip and version_key(low) >= version_key(flip):
            flags.append(f"keep-old pins the behaviour from before torch {flip}, but every supported torch "
                         f"(from {low}) already has the new default: the fix changes behaviour")
    return flags


# Rules whose findings are changed defaults: reported only when the file's range crosses the change (min < 2.8).
CHANGED_DEFAULT_CODES = {"TM201", "TM202", "TM203", "TM204", "TM205", "TM206", "TM302"}
CHANGED_DEFAULT_RELEASE = "2.8"
DEFAULT_TARGET = "2.8"


def mechanical_checks(findings, applied_records, file_ranges_parsed):
    """(a) no changed-default finding in a file whose reported range starts at 2.8 or later; (b) no applied safe fix
    whose declared requirement some release of the file's reported range [min, max(target, max)] does not meet.
    Returns {"changed_default_outside_range": [...], "requirement_unmet": [...], "range_unknown": [...]}."""
    out = {"changed_default_outside_range": [], "requirement_unmet": [], "range_unknown": []}
    for finding in findings:
        if finding["code"] not in CHANGED_DEFAULT_CODES:
            continue
        parsed = file_ranges_parsed.get(os.path.normpath(finding["filename"])) or {}
        where = {"file": finding["filename"], "line": finding["location"]["row"], "rule": finding["code"]}
        if not parsed.get("min"):
            out["range_unknown"].append({**where, "check": "a"})
        elif version_key(parsed["min"]) >= version_key(CHANGED_DEFAULT_RELEASE):
            out["changed_default_outside_range"].append({**where, "range_min": parsed["min"]})
    for record in applied_records:
        if record.get("applicability") != "safe":
            continue
        parsed = record.get("file_range_parsed") or {}
        where = {"file": record["file"], "line": record["line"], "rule": record["rule"], "fix": record.get("fix_title")}
        if not parsed.get("min"):
            out["range_unknown"].append({**where, "check": "b"})
            continue
        high = max([parsed.get("target") or DEFAULT_TARGET, DEFAULT_TARGET] + ([parsed["max"]] if parsed.get("max")
                                                                                else []), key=version_key)
        unmet = requirement_unmet(record.get("requires_torch"), record.get("requires_torch_below"), parsed["min"], high)
        if unmet:
            out["requirement_unmet"].append({**where, "range": f"{parsed['min']}-{high}", "why": unmet})
    return out


# ---------------------------------------------------------------------------------------------------------------------
# Checks of the fixed files


def line_ending_style(data):
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    return "none" if crlf == lf == 0 else "crlf" if lf == 0 else "lf" if crlf == 0 else "mixed"


def encoding_issues(before, after):
    issues = []
    if before.startswith(b"\xef\xbb\xbf") != after.startswith(b"\xef\xbb\xbf"):
        issues.append("BOM changed")
    style_before, style_after = line_ending_style(before), line_ending_style(after)
    if style_before in ("crlf", "lf") and style_after not in (style_before, "none"):
        issues.append(f"line endings {style_before} -> {style_after}")
    if style_before == "mixed" and after.count(b"\r\n") < before.count(b"\r\n"):
        issues.append("CRLF line endings lost")
    if before.endswith(b"\n") != after.endswith(b"\n"):
        issues.append("final newline changed")
    return issues


def compiles(data, name):
    try:
        compile(data, name, "exec", dont_inherit=True)
        return None
    except (SyntaxError, ValueError) as error:
        return f"{type(error).__name__}: {error}"


def check_changed_file(rel, before, after):
    """Problems in one file changed by --fix: syntax, notebook structure, bytes kept."""
    result = {"file": rel, "issues": encoding_issues(before, after)}
    if rel.endswith((".py", ".pyi")):
        error_after = compiles(after, rel)
        if error_after:
            error_before = compiles(before, rel)
            result["compile"] = "already failed before the fix" if error_before else "fails after the fix"
            result["compile_error"] = error_after
    elif rel.endswith(".ipynb"):
        try:
            cells_after = json.loads(after.decode("utf-8-sig")).get("cells", [])
            cells_before = json.loads(before.decode("utf-8-sig")).get("cells", [])
            if len(cells_after) != len(cells_before):
                result["issues"].append(f"cell count {len(cells_before)} -> {len(cells_after)}")
            elif [c.get("cell_type") for c in cells_after] != [c.get("cell_type") for c in cells_before]:
                result["issues"].append("cell types changed")
        except (ValueError, AttributeError) as error:
            result["issues"].append(f"notebook is no longer valid JSON: {error}")
    return result


# ---------------------------------------------------------------------------------------------------------------------
# A strict unified-diff patcher (no fuzz: every hunk must match where it says)


class PatchError(Exception):
    pass


def diff_path(header):
    path = header.split(b"\t", 1)[0].rstrip(b"\r\n")
    return None if path == b"/dev/null" else path.decode("utf-8", "surrogateescape")


def parse_unified_diff(data):
    """[(old path, new path, [hunks])] of a unified diff; each hunk (old start, [(op, bytes line)])."""
    lines = data.split(b"\n")
    lines = [line + b"\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    patches, index = [], 0
    while index < len(lines):
        line = lines[index]
        if line.startswith(b"--- ") and index + 1 < len(lines) and lines[index + 1].startswith(b"+++ "):
            old, new = diff_path(line[4:]), diff_path(lines[index + 1][4:])
            hunks, index = [], index + 2
            while index < len(lines) and lines[index].startswith(b"@@"):
                match = re.match(rb"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", lines[index])
                if not match:
                    raise PatchError(f"bad hunk header {lines[index]!r}")
                old_count = int(match.group(2)) if match.group(2) is not None else 1
                new_count = int(match.group(4)) if match.group(4) is not None else 1
                body, index = [], index + 1
                seen_old = seen_new = 0
                while index < len(lines) and (seen_old < old_count or seen_new < new_count
                                              or lines[index].startswith(b"\\")):
                    text = lines[index]
                    if text.startswith(b"\\"):
                        if body:  # "\ No newline at end of file": the previous line has no newline
                            op, previous = body[-1]
                            body[-1] = (op, previous[:-1] if previous.endswith(b"\n") else previous)
                    else:
                        op, content = text[:1], text[1:]
                        if op == b"\n" or text == b"\n":  # an empty context line with its space stripped
                            op, content = b" ", b"\n"
                        if op not in (b" ", b"-", b"+"):
                            raise PatchError(f"bad hunk line {text!r}")
                        body.append((op, content))
                        seen_old += op in (b" ", b"-")
                        seen_new += op in (b" ", b"+")
                    index += 1
                hunks.append((int(match.group(1)), old_count, body))
            patches.append((old, new, hunks))
        else:
            index += 1
    return patches


def strip_prefix(old, new):
    if old and new and old.startswith("a/") and new.startswith("b/"):
        return old[2:], new[2:]
    if old is None and new and new.startswith("b/"):
        return None, new[2:]
    if new is None and old and old.startswith("a/"):
        return old[2:], None
    return old, new


def apply_unified_diff(data, root):
    """Applies data to the tree at root. Returns the relative paths written."""
    written = []
    for old, new, hunks in parse_unified_diff(data):
        old, new = strip_prefix(old, new)
        target = root / (new or old)
        source = (root / old).read_bytes() if old else b""
        lines = source.split(b"\n")
        lines = [line + b"\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
        out, position = [], 0
        for start, old_count, body in hunks:
            begin = start - 1 if old_count else start
            if begin < position or begin > len(lines):
                raise PatchError(f"{new or old}: hunk at {start} out of order or beyond the file")
            out.extend(lines[position:begin])
            position = begin
            for op, content in body:
                if op in (b" ", b"-"):
                    if position >= len(lines) or lines[position] != content:
                        raise PatchError(f"{new or old}: hunk at {start} does not match line {position + 1}")
                    position += 1
                if op in (b" ", b"+"):
                    out.append(content)
        out.extend(lines[position:])
        if new is None:
            target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            mode = target.stat().st_mode if target.exists() else None
            target.write_bytes(b"".join(out))
            if mode is not None:
                target.chmod(mode)
        written.append(new or old)
    return written


# ---------------------------------------------------------------------------------------------------------------------
# One project


def check_argv(options, *extra):
    argv = [options.bin, "check", "--no-cache"]
    if options.select != "default":
        argv += ["--select", options.select]
    return argv + list(extra) + list(options.tm_arg)


def chunks(items, size):
    for index in range(0, len(items), size):
        yield items[index:index + size]


def trial(entry, options, fixes_out):
    name = entry["name"]
    result = {"name": name, "repo": entry["repo"], "commit": entry["commit"], "date": entry.get("date"),
              "expected_range": entry.get("expected_range"), "errors": [], "commands": {}}
    timeout = options.timeout
    started = time.monotonic()
    git_dir, tried = find_git_dir(Path(options.mirrors), entry, timeout)
    if git_dir is None:
        result["errors"].append(f"commit {entry['commit']} not found in any of: {', '.join(tried)}")
        return result
    work = Path(options.work) / name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    original, fixed, patched = work / "original", work / "fixed", work / "patched"

    method, missing = export_tree(git_dir, entry["commit"], original, timeout)
    result["export"] = {"method": method, "missing_blobs": missing[:200], "missing_blob_count": len(missing)}
    digest_original = tree_digest(original)
    result["files"] = len(digest_original)
    result["py_files"] = sum(1 for path in digest_original if path.endswith(".py"))
    result["ipynb_files"] = sum(1 for path in digest_original if path.endswith(".ipynb"))
    copy_tree(original, fixed)
    copy_tree(original, patched)

    shown = run(check_argv(options, "--show-files", "."), cwd=original, timeout=timeout)
    result["commands"]["show_files"] = shown.summary()
    if shown.returncode == 0:
        listed = shown.stdout.decode("utf-8", "replace").splitlines()
        result["checked_files"] = sum(1 for line in listed if line.strip())

    # 1. The findings, and the ranges of the run.
    report = run(check_argv(options, "--output-format", "json", "-v", "."), cwd=original, timeout=timeout)
    result["commands"]["check"] = report.summary()
    stderr = report.stderr.decode("utf-8", "replace")
    result["range_lines"], result["other_torch_lines"] = range_lines(stderr)
    result["summary_lines"] = [s for s in map(parse_summary_line, stderr.splitlines()) if s]
    if report.returncode not in (0, 1):
        result["errors"].append(f"check exited {report.returncode} {report.error or ''}".strip())
        return result
    findings, envelope = load_findings(report.stdout)
    if envelope and envelope.get("projects"):
        result["report_projects"] = envelope["projects"]
    result["findings"] = len(findings)
    result["findings_by_rule"] = dict(sorted(Counter(f["code"] for f in findings).items()))
    offered = Counter()
    offered_by_rule = defaultdict(Counter)
    for finding in findings:
        kind = (finding.get("fix") or {}).get("applicability", "none")
        offered[kind] += 1
        offered_by_rule[finding["code"]][kind] += 1
    result["fixes_offered"] = dict(offered)
    result["fixes_offered_by_rule"] = {code: dict(counts) for code, counts in sorted(offered_by_rule.items())}
    result["timings"] = {"check_s": round(report.seconds, 2)}

    # The shard form of the report holds what the array lacks: each project's range and source, and each fix's
    # torch requirement and its applicability before the range was applied. Optional: its layout is internal.
    requirements = {}
    shard = run(check_argv(options, "--output-format", "json", "--shard", "1/1", "."), cwd=original, timeout=timeout)
    result["commands"]["shard"] = shard.summary()
    try:
        details = json.loads(shard.stdout.decode("utf-8"))["shard"]
        result["report_projects"] = details.get("projects")
        requirements = shard_requirements(details)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        result["shard_error"] = f"{type(error).__name__}: {error}"

    # 2. Each file's settings.
    files_with_findings = sorted({f["filename"] for f in findings})
    settings = {}
    for part in chunks(files_with_findings, 200):
        shown = run(check_argv(options, "--show-settings", *part), cwd=original, timeout=timeout)
        if shown.returncode != 0:
            result["errors"].append(f"--show-settings exited {shown.returncode}: "
                                    + shown.stderr.decode("utf-8", "replace")[-300:])
            break
        settings.update(parse_settings(shown.stdout.decode("utf-8", "replace")))
    file_ranges = {path: file_range_text(values) for path, values in settings.items()}
    file_ranges_parsed = {os.path.normpath(path): file_range_parsed(values) for path, values in settings.items()}
    result["file_ranges"] = dict(Counter(value for value in file_ranges.values() if value))
    result["pin_files_read"] = dict(Counter(", ".join(values.get("_pins", [])) for values in settings.values()
                                            if values.get("_pins")))

    # 3. --fix, --diff, the diff applied, a second --fix.
    fix = run(check_argv(options, "--fix", "--show-fixes", "--output-format", "json", "."), cwd=fixed, timeout=timeout)
    result["commands"]["fix"] = fix.summary()
    result["summary_lines"] = result.get("summary_lines", []) + [
        s for s in map(parse_summary_line, fix.stderr.decode("utf-8", "replace").splitlines()) if s]
    result["timings"]["fix_s"] = round(fix.seconds, 2)
    if fix.returncode not in (0, 1):
        result["errors"].append(f"--fix exited {fix.returncode} {fix.error or ''}".strip())
    fixed_count = re.search(r"Fixed (\d+)", fix.stderr.decode("utf-8", "replace"))
    result["fixed_reported"] = int(fixed_count.group(1)) if fixed_count else 0
    try:
        result["remaining_after_fix"] = len(load_findings(fix.stdout)[0])
    except ValueError:
        result["errors"].append("--fix printed no JSON report")

    digest_fixed = tree_digest(fixed)
    changed = sorted(path for path in set(digest_original) | set(digest_fixed)
                     if digest_original.get(path) != digest_fixed.get(path))
    result["changed_files"] = changed

    # 4. The changed files.
    checks = []
    for path in changed:
        before = (original / path).read_bytes() if path in digest_original else b""
        after = (fixed / path).read_bytes() if path in digest_fixed and not (fixed / path).is_symlink() else b""
        checks.append(check_changed_file(path, before, after))
    result["compile_failures"] = [c for c in checks if c.get("compile") == "fails after the fix"]
    result["compile_failures_preexisting"] = [c["file"] for c in checks
                                              if c.get("compile") == "already failed before the fix"]
    result["file_issues"] = [c for c in checks if c["issues"]]

    diff = run(check_argv(options, "--diff", "-v", "."), cwd=original, timeout=timeout)
    result["commands"]["diff"] = diff.summary()
    if diff.returncode not in (0, 1):
        result["errors"].append(f"--diff exited {diff.returncode} {diff.error or ''}".strip())
    # The range lines: `-v` prints them with the text formats (the diff run), not with json.
    more_ranges, more_other = range_lines(diff.stderr.decode("utf-8", "replace"))
    known = {line["raw"] for line in result["range_lines"]}
    result["range_lines"] += [line for line in more_ranges if line["raw"] not in known]
    result["other_torch_lines"] = sorted(set(result["other_torch_lines"]) | set(more_other))
    after_diff = tree_digest(original)
    result["diff_wrote_files"] = sorted(p for p in set(after_diff) | set(digest_original)
                                        if after_diff.get(p) != digest_original.get(p))
    try:
        written = apply_unified_diff(diff.stdout, patched)
        digest_patched = tree_digest(patched)
        mismatched = sorted(path for path in set(digest_patched) | set(digest_fixed)
                            if digest_patched.get(path) != digest_fixed.get(path))
        result["diff_files"] = len(written)
        result["diff_equals_fix"] = not mismatched and diff.returncode in (0, 1)
        result["diff_mismatches"] = mismatched[:50]
    except (PatchError, OSError) as error:
        result["diff_equals_fix"] = False
        result["diff_error"] = str(error)

    # 5. The applied fixes, one record each.
    applies = applied_applicabilities(options.tm_arg)
    applied = [f for f in findings if (f.get("fix") or {}).get("applicability") in applies and (f["fix"].get("edits"))]
    result["fixes_applied"] = dict(Counter(f["fix"]["applicability"] for f in applied))
    result["fixes_applied_by_rule"] = dict(sorted(Counter(f["code"] for f in applied).items()))
    def project_range(path):
        """The range line of the project a file belongs to: the deepest project directory above it."""
        best, depth = None, -1
        for line in result["range_lines"]:
            root = line.get("project") or "."
            if (root == "." or path == root or path.startswith(root.rstrip("/") + "/")) and (
                    root.count("/") + (root != ".") > depth):
                best, depth = line, root.count("/") + (root != ".")
        return [best["raw"].removeprefix("torchmigrate: ")] if best else []
    cache = {}
    records = []
    not_in_fixed = flagged = 0
    for finding in applied:
        path = finding["filename"]
        rel = os.path.normpath(path)
        if rel not in cache:
            before = original / rel
            after = fixed / rel
            cache[rel] = (before.read_bytes().decode("utf-8", "replace") if before.exists() else "",
                          after.read_bytes().decode("utf-8", "replace") if after.exists() else None)
        original_text, fixed_text = cache[rel]
        settings_key = path if path in file_ranges else rel
        record = fix_record(name, finding, original_text, fixed_text, file_ranges.get(settings_key),
                            project_range(rel))
        record["file_range_parsed"] = file_ranges_parsed.get(rel) or {}
        record.update(match_requirement(requirements, finding))
        if "requires_torch" not in record and "requires_torch_below" not in record:
            record["requires_torch"], record["requires_torch_below"] = catalog_requirement(
                options.catalog.get(record["rule"], {}))
            record["requirement_from"] = "catalog"
        record["commit"] = entry["commit"]
        if entry.get("expected_range"):
            record["expected_range"] = entry["expected_range"]
            record["review_flags"] = review_flags(record, entry["expected_range"], options.catalog)
            flagged += bool(record["review_flags"])
        not_in_fixed += record.get("in_fixed_file") is False
        records.append(record)
        fixes_out.write(json.dumps(record, ensure_ascii=False) + "\n")
    fixes_out.flush()
    result["mechanical_checks"] = mechanical_checks(findings, records, file_ranges_parsed)
    result["findings_by_file_range"] = dict(Counter(
        f"{(file_ranges_parsed.get(os.path.normpath(f['filename'])) or {}).get('min', '?')}-"
        f"{(file_ranges_parsed.get(os.path.normpath(f['filename'])) or {}).get('max', '')}" for f in findings))
    result["fix_records_not_in_fixed_file"] = not_in_fixed
    result["fixes_flagged_against_expected_range"] = flagged

    # 6. A second --fix must change nothing.
    again = run(check_argv(options, "--fix", "--output-format", "json", "."), cwd=fixed, timeout=timeout)
    result["commands"]["fix_again"] = again.summary()
    digest_again = tree_digest(fixed)
    changed_again = sorted(path for path in set(digest_fixed) | set(digest_again)
                           if digest_fixed.get(path) != digest_again.get(path))
    result["idempotent"] = not changed_again and again.returncode in (0, 1)
    result["changed_by_second_fix"] = changed_again[:50]
    result["timings"]["total_s"] = round(time.monotonic() - started, 1)
    return result


# ---------------------------------------------------------------------------------------------------------------------
# Reports


def root_range(result):
    """The range the tool reported for the repository's top project ("."), from the shard report or the -v lines."""
    for project in result.get("report_projects") or []:
        if project.get("root") in (".", ""):
            return f"{project.get('torch_range')} (from {project.get('source')})"
    for line in result.get("range_lines") or []:
        if line.get("project") == ".":
            return re.sub(r"^(supported torch|torch range)\s*", "", line.get("text", "")).split(";")[0]
    return "?"


def ranges_cell(result):
    if result.get("report_projects"):
        counts = Counter(f"{p.get('torch_range')} (from {p.get('source')})" for p in result["report_projects"])
        return "; ".join(f"{text} ×{count}" if count > 1 else text for text, count in counts.most_common(4)) + (
            f"; … ({len(counts)} distinct)" if len(counts) > 4 else "")
    lines = result.get("range_lines") or []
    if not lines:
        return "?"
    counts = Counter()
    for line in lines:
        text = line.get("text", "")
        text = re.sub(r"^(supported torch|torch range)\s*", "", text).split(";")[0]
        counts[text] += 1
    return "; ".join(f"{text} ×{count}" if count > 1 else text for text, count in counts.most_common(4)) + (
        f"; … ({len(counts)} distinct)" if len(counts) > 4 else "")


def yes_no(value):
    return "?" if value is None else "yes" if value else "**no**"


def summary_markdown(results, options):
    out = ["# Field trial", "",
           f"torchmigrate: `{options.tool_version}`; selection: `{options.select}`; extra arguments: "
           f"`{' '.join(options.tm_arg) or 'none'}`", "",
           "| project | commit | files (checked) | findings | fixes offered safe / unsafe / display-only | "
           "safe fixes applied | unsafe fixes applied | compile failures | idempotent | diff == fix | "
           "range of the top project | torch range(s) reported | expected range | checks (a) / (b) | "
           "applied fixes flagged | errors |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        expected = r.get("expected_range") or {}
        expected_text = f"{expected.get('min', '?')} .. {expected.get('max', '?')}" if expected else ""
        applied = r.get("fixes_applied", {})
        compile_failures = len(r["compile_failures"]) if "compile_failures" in r else "?"
        pre = len(r.get("compile_failures_preexisting", []))
        offered = r.get("fixes_offered")
        out.append("| " + " | ".join([
            f"{r['repo']}", f"`{r['commit'][:12]}` ({r.get('date') or '?'})",
            f"{r.get('files', '?')} ({r.get('checked_files', '?')})", str(r.get("findings", "?")),
            " / ".join(str(offered.get(kind, 0)) for kind in ("safe", "unsafe", "display-only")) if offered is not None
            else "?",
            str(applied.get("safe", 0)) if "fixes_applied" in r else "?",
            str(applied.get("unsafe", 0)) if "fixes_applied" in r else "?",
            f"{compile_failures}" + (f" (+{pre} already failing)" if pre else ""),
            yes_no(r.get("idempotent")), yes_no(r.get("diff_equals_fix")), root_range(r).replace("|", "\\|"),
            ranges_cell(r).replace("|", "\\|"), expected_text,
            " / ".join(str(len((r.get("mechanical_checks") or {}).get(key, [])))
                       for key in ("changed_default_outside_range", "requirement_unmet")) if "mechanical_checks" in r
            else "?",
            str(r.get("fixes_flagged_against_expected_range", "")),
            "; ".join(r.get("errors", []))[:200].replace("|", "\\|").replace("\n", " ")]) + " |")
    rules = sorted({code for r in results for code in r.get("findings_by_rule", {})})
    if rules:
        out += ["", "## Findings per rule (safe fixes applied in parentheses)", "",
                "| rule | " + " | ".join(r["name"] for r in results) + " |",
                "|---|" + "---|" * len(results)]
        for code in rules:
            cells = []
            for r in results:
                count = r.get("findings_by_rule", {}).get(code)
                fixed = r.get("fixes_applied_by_rule", {}).get(code)
                cells.append("" if not count else f"{count} ({fixed})" if fixed else str(count))
            out.append(f"| {code} | " + " | ".join(cells) + " |")
    violations = [(r["repo"], kind, v) for r in results for kind in ("changed_default_outside_range", "requirement_unmet")
                  for v in (r.get("mechanical_checks") or {}).get(kind, [])]
    out += ["", "## Mechanical checks", "",
            "(a) no changed-default finding (" + ", ".join(sorted(CHANGED_DEFAULT_CODES)) + ") in a file whose reported "
            "range starts at 2.8 or later; (b) no applied safe fix whose declared requirement some release of the "
            "file's reported range [min, max(target, max)] does not meet.", ""]
    out += [f"- {repo}: ({'a' if kind.startswith('changed') else 'b'}) `{v['file']}:{v['line']}` {v['rule']}: "
            f"{v.get('why') or 'range starts at ' + v.get('range_min', '?')}" for repo, kind, v in violations] or [
        "No violation."]
    unknown = sum(len((r.get("mechanical_checks") or {}).get("range_unknown", [])) for r in results)
    if unknown:
        out.append(f"\n{unknown} findings or fixes had no parsable file range (see results.json).")
    problems = [(r["repo"], c) for r in results for c in r.get("compile_failures", []) + r.get("file_issues", [])]
    if problems:
        out += ["", "## Problems in fixed files", ""]
        out += [f"- {repo}: `{c['file']}`: {c.get('compile_error') or ', '.join(c['issues'])}" for repo, c in problems]
    return "\n".join(out) + "\n"


def sample_markdown(fixes_path, count, seed, applicability="safe", only=None):
    records = []
    with open(fixes_path, encoding="utf-8") as stream:
        for line in stream:
            record = json.loads(line)
            if record.get("applicability") == applicability and (not only or record["project"] in only):
                records.append(record)
    chosen = random.Random(seed).sample(records, min(count, len(records)))
    out = [f"# {len(chosen)} of {len(records)} {applicability} fixes (seed {seed})", ""]
    for number, record in enumerate(chosen, 1):
        where = f"{record['file']}" + (f" cell {record['cell']}" if record.get("cell") else "") + f":{record['line']}"
        out += [f"## {number}. {record['project']}: `{where}` {record['rule']} ({record.get('name')})", "",
                f"- finding: {record.get('message')}", f"- fix: {record.get('fix_title')}",
                *([f"- line {record['line']}: `{record['finding_line_text'].strip()}`"]
                  if record.get("finding_line_text") else []),
                f"- torch range reported for the file: {record.get('file_range') or '?'}",
                f"- declared requirement: torch >= {record.get('requires_torch') or '-'}"
                + (f", < {record['requires_torch_below']}" if record.get("requires_torch_below") else ""),
                f"- range line of its project in the run: {'; '.join(record.get('project_range') or []) or '?'}",
                *([f"- the project's own range: {record['expected_range'].get('min')} .. "
                   f"{record['expected_range'].get('max')}"] if record.get("expected_range") else []),
                *[f"- flag: {flag}" for flag in record.get("review_flags") or []],
                f"- verdict: [ ] right  [ ] wrong because …", ""]
        if "before" in record:
            start = record.get("context_first_line", 1)
            diff = difflib.unified_diff(record["before"], record["after"], fromfile="before", tofile="after",
                                        lineterm="", n=CONTEXT + 2)
            hunk = [re.sub(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@",
                           lambda m: f"@@ -{int(m.group(1)) + start - 1}{m.group(2) or ''} "
                                     f"+{int(m.group(3)) + start - 1}{m.group(4) or ''} @@", line)
                    for line in list(diff)[2:]]
            out += ["```diff", *hunk, "```", ""]
            if record.get("in_fixed_file_lines") and record["in_fixed_file_lines"] != record["after"]:
                out += [f"With the other fixes on these lines, the fixed file reads (from line "
                        f"{record.get('fixed_file_first_line')}):", "", "```python", *record["in_fixed_file_lines"],
                        "```", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------------------------


def select_projects(projects, only):
    if not only:
        return projects
    wanted = {name.lower() for name in only}
    chosen = [p for p in projects if p["name"].lower() in wanted or p["repo"].lower() in wanted
              or p["repo"].split("/")[1].lower() in wanted]
    unknown = wanted - {p["name"].lower() for p in chosen} - {p["repo"].lower() for p in chosen} - {
        p["repo"].split("/")[1].lower() for p in chosen}
    if unknown:
        sys.exit(f"field_trial.py: unknown project(s): {', '.join(sorted(unknown))}")
    return chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 2)[2],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--projects", default=str(DEFAULT_PROJECTS),
                        help="the projects JSON (default: the one beside this script)")
    parser.add_argument("--mirrors", help="directory holding the bare git directories")
    parser.add_argument("--bin", help="the torchmigrate binary")
    parser.add_argument("--work", help="scratch directory for the exported trees")
    parser.add_argument("--out", required=True, help="output directory (results.json, fixes.jsonl, summary.md)")
    parser.add_argument("--only", action="append", default=[], help="project name or owner/name (repeatable)")
    parser.add_argument("--select", default="ALL", help="rule selection for every run; `default` passes none")
    parser.add_argument("--tm-arg", action="append", default=[], help="extra argument for every `check` (repeatable)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per command (default 900)")
    parser.add_argument("--keep-trees", action="store_true", help="keep the exported, fixed and patched trees")
    parser.add_argument("--sample", type=int, help="print N random fixes of OUT/fixes.jsonl as Markdown")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample (default 0)")
    parser.add_argument("--sample-applicability", default="safe", help="fixes --sample picks from (default safe)")
    options = parser.parse_args()
    out = Path(options.out)

    if options.bin is None:
        if options.sample is None:
            parser.error("--bin, --mirrors and --work are needed to run the trial (or --sample alone)")
        print(sample_markdown(out / "fixes.jsonl", options.sample, options.seed, options.sample_applicability,
                              set(options.only) or None))
        return
    if not options.mirrors or not options.work:
        parser.error("--mirrors and --work are needed to run the trial")
    options.bin = str(Path(options.bin).resolve())
    version = run([options.bin, "--version"], timeout=60)
    options.tool_version = version.stdout.decode("utf-8", "replace").strip() or "unknown"
    options.catalog = load_catalog(options.bin)
    projects = select_projects(json.loads(Path(options.projects).read_text())["projects"], options.only)
    out.mkdir(parents=True, exist_ok=True)
    Path(options.work).mkdir(parents=True, exist_ok=True)

    results = []
    meta = {"tool_version": options.tool_version, "select": options.select, "tm_args": options.tm_arg,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    with open(out / "fixes.jsonl", "w", encoding="utf-8") as fixes_out:
        for entry in projects:
            print(f"field_trial: {entry['name']} ({entry['repo']} {entry['commit'][:12]})", file=sys.stderr, flush=True)
            try:
                result = trial(entry, options, fixes_out)
            except Exception as error:  # one project's failure must not stop the others
                result = {"name": entry["name"], "repo": entry["repo"], "commit": entry["commit"],
                          "date": entry.get("date"), "errors": [f"{type(error).__name__}: {error}"]}
            if not options.keep_trees:
                shutil.rmtree(Path(options.work) / entry["name"], ignore_errors=True)
            results.append(result)
            (out / "results.json").write_text(json.dumps({"meta": meta, "projects": results}, indent=1) + "\n")
            (out / "summary.md").write_text(summary_markdown(results, options))
            print(f"field_trial:   {result.get('findings', '?')} findings, {result.get('fixes_applied', {})} applied, "
                  f"errors: {result.get('errors') or 'none'}", file=sys.stderr, flush=True)
    print(summary_markdown(results, options))
    if options.sample:
        print(sample_markdown(out / "fixes.jsonl", options.sample, options.seed, options.sample_applicability))


if __name__ == "__main__":
    main()
