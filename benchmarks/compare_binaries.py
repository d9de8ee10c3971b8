#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two torchmigrate binaries byte for byte on the field-trial projects.

    python3 benchmarks/compare_binaries.py --before OLD/torchmigrate --after NEW/torchmigrate
        --mirrors DIR --work SCRATCH [--projects benchmarks/field_trial_projects.json] [--only NAME ...]
        [--keep-work] [--jobs-arg 1] [--timeout 900] [--diff-lines 40]

A refactor of the engine must not change what users see: the findings, the fixes and the reports
must stay byte-identical. For each project of the JSON file (`projects[]`: `name`, `repo`
"owner/name", `commit`, optional `git_dir`; the field trial's list), the commit's tree is exported
once into `--work`/NAME/tree from its bare git directory under `--mirrors` (found and exported by
field_trial.py's `find_git_dir` and `export_tree`), and each binary runs there (working directory
the tree, paths relative, `--no-cache`, `-j 1` unless `--jobs-arg` says otherwise):

    json             check . --output-format json
    json-all-latest  check . --output-format json --select ALL --target-version latest
    diff             check . --diff --select ALL
    diff-unsafe      check . --diff --select ALL --unsafe-fixes
    concise-v        check . --output-format concise -v
    html             check . --output-format html -o OUTFILE      (OUTFILE outside the tree)
    markdown         check . --output-format markdown -o OUTFILE
    fix              check . --fix --select ALL                   (on a fresh copy of the tree)
    fix-unsafe       check . --fix --select ALL --unsafe-fixes    (on a fresh copy of the tree)

`fix-unsafe` is there because on the pinned commits no safe fix applies (every `diff` is empty),
so `fix` alone would never write a file. `json-all-latest` exits 2 with an error and no report on
projects whose supported range starts after the latest release the binary knows.

Compared per command: the exit code, stdout, stderr, the file written by `-o`, and for the fixes
the fixed tree (path, executable bit and SHA-256 of every file that differs from the exported
tree, plus the count of files and one digest over all of them; a file whose size, mtime and mode
are still those of the export is not read again). Both binaries fix a copy at the same path
(`--work`/NAME/fixed, then renamed COMMAND-before and COMMAND-after), so paths in their messages
agree; when the fixed trees differ, the first differing files are diffed too. The read-only
commands must leave the tree as it was: the pseudo-command `tree-untouched` lists what each
binary's runs changed in it (the tree is exported again before the other binary runs).

Normalised before comparing (found by running the same binary twice on all 23 projects with no
normalisation: nothing else differed):
- stderr, the line `torchmigrate: timing: ...` that `-v` prints: each duration (`12 ms`, `1.25 s`)
  becomes `<time>`; the phase names and the file and job counts are kept.
The HTML report holds no timestamp, absolute path or random id; its header names the version
(`torchmigrate 0.1.0`, not the git revision), so binaries of different versions differ there.
The environment's `TORCHMIGRATE_*` variables (output format, cache directory, shard) and
FORCE_COLOR / CLICOLOR_FORCE are removed for both binaries.

Prints a table (project, command, identical / different: STREAMS / error, exit code (before/after
when they differ), seconds of each binary), then for each difference the first lines of a unified
diff per differing stream (`--diff-lines`). Exit 0 when everything is identical, 1 on any
difference, 2 when nothing differs but some project could not be compared (mirror missing, export
failed). `--keep-work` keeps the trees, the fixed copies and every captured output
(`--work`/NAME/outputs/{before,after}/COMMAND.{rc,stdout,stderr,file,tree}). Python 3.11,
standard library only.
"""
import argparse
import difflib
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import field_trial  # noqa: E402  (find_git_dir, export_tree, copy_tree, run, select_projects)

SIDES = ("before", "after")

# (name, arguments after `check .`, what else it produces: None, "file" (-o OUTFILE) or "tree" (--fix on a copy))
COMMANDS = [
    ("json", ["--output-format", "json"], None),
    ("json-all-latest", ["--output-format", "json", "--select", "ALL", "--target-version", "latest"], None),
    ("diff", ["--diff", "--select", "ALL"], None),
    ("diff-unsafe", ["--diff", "--select", "ALL", "--unsafe-fixes"], None),
    ("concise-v", ["--output-format", "concise", "-v"], None),
    ("html", ["--output-format", "html"], "file"),
    ("markdown", ["--output-format", "markdown"], "file"),
    ("fix", ["--fix", "--select", "ALL"], "tree"),
    ("fix-unsafe", ["--fix", "--select", "ALL", "--unsafe-fixes"], "tree"),
]
TREE_UNTOUCHED = "tree-untouched"

# `torchmigrate: timing: discovery 1 ms, settings 3 ms, checking 1.25 s, report 0 ms (99 files, 1 job)`
TIMING_LINE = re.compile(rb"^torchmigrate: timing: .*$", re.M)
DURATION = re.compile(rb"\b\d+(?:\.\d+)? (?:ms|s|us|\xc2\xb5s|ns|min)\b")
SCRUBBED_ENV = ("FORCE_COLOR", "CLICOLOR_FORCE")


# ---------------------------------------------------------------------------------------------------------------------
# Normalisation


def normalise(command, stream, data):
    """What may differ between two runs of the same binary, made equal. Only what was seen to vary."""
    if stream == "stderr":
        data = TIMING_LINE.sub(lambda line: DURATION.sub(b"<time>", line.group(0)), data)
    return data


# ---------------------------------------------------------------------------------------------------------------------
# Trees


class Listing(dict):
    """{relative path: "kind mode sha256"} of every file below a root (links by their target), with each file's
    (size, mtime in ns, mode) in `stats`."""

    def __init__(self):
        super().__init__()
        self.stats = {}


def listing(root, known=None):
    """The Listing of root. A regular file whose size, mtime and mode equal its entry in `known` (the listing of the
    exported tree: copies keep the mtime, and whatever a run writes gets a new one) is not read again."""
    entries = Listing()
    for directory, dirs, files in os.walk(root):
        dirs.sort()
        for name in files + [d for d in dirs if os.path.islink(os.path.join(directory, d))]:
            path = os.path.join(directory, name)
            rel = Path(path).relative_to(root).as_posix()
            info = os.lstat(path)
            key = (info.st_size, info.st_mtime_ns, info.st_mode)
            entries.stats[rel] = key
            if known is not None and stat.S_ISREG(info.st_mode) and known.stats.get(rel) == key:
                entries[rel] = known[rel]
            elif stat.S_ISLNK(info.st_mode):
                entries[rel] = "link - " + os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256()
                with open(path, "rb") as handle:
                    for block in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(block)
                entries[rel] = f"file {'x' if info.st_mode & 0o111 else '-'} {digest.hexdigest()}"
            else:
                entries[rel] = "other - -"
    return entries


def listing_delta(base, now):
    """The lines of `now` that differ from `base` (changed, added, removed), sorted, as bytes."""
    lines = []
    for rel in sorted(set(base) | set(now)):
        if base.get(rel) != now.get(rel):
            lines.append(f"{rel}\t{now.get(rel, 'removed')}")
    return ("\n".join(lines) + "\n" if lines else "").encode("utf-8", "surrogateescape")


def tree_summary(base, now):
    """The fixed tree as compared: its files that differ from the export, its file count and one digest."""
    total = hashlib.sha256()
    for rel in sorted(now):
        total.update(f"{rel}\t{now[rel]}\n".encode("utf-8", "surrogateescape"))
    return listing_delta(base, now) + f"# {len(now)} files, sha256 {total.hexdigest()}\n".encode()


# ---------------------------------------------------------------------------------------------------------------------
# Running


def clean_env():
    return {key: value for key, value in os.environ.items()
            if not key.startswith("TORCHMIGRATE_") and key not in SCRUBBED_ENV}


def run_command(binary, name, args, extra, project_dir, tree, base_listing, options):
    """Runs one command; returns {stream: bytes} and the seconds it took."""
    argv = [binary, "check", ".", *args, "--no-cache"]
    if options.jobs_arg not in ("", "none"):
        argv += ["-j", options.jobs_arg]
    cwd = tree
    outfile = project_dir / f"report-{name}.out"
    fixed = project_dir / "fixed"
    if extra == "file":
        outfile.unlink(missing_ok=True)
        argv += ["-o", str(outfile)]
    elif extra == "tree":
        shutil.rmtree(fixed, ignore_errors=True)
        field_trial.copy_tree(tree, fixed)
        cwd = fixed
    start = time.monotonic()
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=options.timeout, check=False,
                              env=clean_env())
        rc, stdout, stderr = str(done.returncode), done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        rc, stdout, stderr = f"timed out after {options.timeout} s", expired.stdout or b"", expired.stderr or b""
    except OSError as error:
        rc, stdout, stderr = f"could not run: {error}", b"", b""
    seconds = time.monotonic() - start
    streams = {"rc": (rc + "\n").encode(), "stdout": stdout, "stderr": stderr}
    if extra == "file":
        streams["file"] = outfile.read_bytes() if outfile.exists() else b"(no file written)\n"
        outfile.unlink(missing_ok=True)
    elif extra == "tree":
        streams["tree"] = tree_summary(base_listing, listing(fixed, base_listing))
    return {stream: normalise(name, stream, data) for stream, data in streams.items()}, seconds


def save_outputs(project_dir, side, name, streams):
    folder = project_dir / "outputs" / side
    folder.mkdir(parents=True, exist_ok=True)
    for stream, data in streams.items():
        (folder / f"{name}.{stream}").write_bytes(data)


# ---------------------------------------------------------------------------------------------------------------------
# Comparing


def text_lines(data):
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def unified(before, after, label, limit):
    lines = list(difflib.unified_diff(text_lines(before), text_lines(after), f"before/{label}", f"after/{label}",
                                      n=2))
    lines = [line if line.endswith("\n") else line + "\n" for line in lines]
    if not lines:  # equal as text, different as bytes (encoding, line endings)
        offset = next(i for i, (a, b) in enumerate(zip(before + b"\0", after + b"\1")) if a != b)
        lines = [f"--- before/{label}\n", f"+++ after/{label}\n",
                 f"(bytes differ: {len(before)} vs {len(after)} bytes; first at offset {offset})\n"]
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)\n"]
    return "".join(lines)


def fixed_file_diffs(project_dir, name, before_tree, after_tree, limit, files=3):
    """Content diffs of up to `files` files whose fixed versions differ."""
    changed = []
    for line in set(before_tree.decode("utf-8", "surrogateescape").splitlines()) ^ set(
            after_tree.decode("utf-8", "surrogateescape").splitlines()):
        if not line.startswith("#") and "\t" in line:
            changed.append(line.split("\t", 1)[0])
    out = []
    for rel in sorted(set(changed))[:files]:
        paths = [project_dir / f"{name}-{side}" / rel for side in SIDES]
        if all(path.is_file() and not path.is_symlink() for path in paths):
            out.append(unified(paths[0].read_bytes(), paths[1].read_bytes(), f"fixed/{rel}", limit))
        else:
            out.append(f"fixed/{rel}: only in {name}-{'before' if paths[0].exists() else 'after'}, or not a file\n")
    if len(set(changed)) > files:
        out.append(f"... and {len(set(changed)) - files} more differing fixed files\n")
    return out


def compare_project(entry, options):
    """Runs both binaries on one project; returns ([(command, status, exit codes, seconds before, seconds after,
    diff blocks)], how the tree was exported)."""
    work = Path(options.work).resolve()
    project_dir = work / entry["name"]
    shutil.rmtree(project_dir, ignore_errors=True)
    project_dir.mkdir(parents=True)
    tree = project_dir / "tree"
    git_dir, tried = field_trial.find_git_dir(Path(options.mirrors), entry, options.timeout)
    if git_dir is None:
        raise RuntimeError(f"no git directory with commit {entry['commit'][:12]} (tried {', '.join(tried)})")
    method, missing = field_trial.export_tree(git_dir, entry["commit"], tree, options.timeout)
    note = f"{method}" + (f", {len(missing)} blobs missing" if missing else "")
    base = listing(tree)
    captured = {side: {} for side in SIDES}
    seconds = {side: {} for side in SIDES}
    touched = {}
    for side in SIDES:
        binary = options.before if side == "before" else options.after
        # The fix first, so that its copy is of the exported tree even if a read-only run wrote into it.
        for name, args, extra in sorted(COMMANDS, key=lambda command: command[2] != "tree"):
            streams, took = run_command(binary, name, args, extra, project_dir, tree, base, options)
            captured[side][name], seconds[side][name] = streams, took
            if options.keep_work:
                save_outputs(project_dir, side, name, streams)
            if extra == "tree":
                shutil.rmtree(project_dir / f"{name}-{side}", ignore_errors=True)
                os.rename(project_dir / "fixed", project_dir / f"{name}-{side}")
                if side == SIDES[-1] and not options.keep_work and streams["tree"] == captured[SIDES[0]][name]["tree"]:
                    for done in SIDES:  # equal: no file diff to show, and a big tree takes room
                        shutil.rmtree(project_dir / f"{name}-{done}")
        # What this binary's read-only runs changed in the tree.
        touched[side] = listing_delta(base, listing(tree, base))
        if touched[side]:  # the other binary starts from the exported tree all the same
            shutil.rmtree(tree)
            field_trial.export_tree(git_dir, entry["commit"], tree, options.timeout)
    rows = []
    for name, _, _ in COMMANDS:
        before, after = captured["before"][name], captured["after"][name]
        differing = [stream for stream in before if before[stream] != after[stream]]
        details = [unified(before[s], after[s], f"{name}.{s}", options.diff_lines) for s in differing]
        if "tree" in differing:
            details += fixed_file_diffs(project_dir, name, before["tree"], after["tree"], options.diff_lines)
        codes = [captured[side][name]["rc"].decode().strip() for side in SIDES]
        rows.append((name, "different: " + ", ".join(differing) if differing else "identical",
                     codes[0] if codes[0] == codes[1] else "/".join(codes),
                     seconds["before"][name], seconds["after"][name], details))
    modified = [side for side in SIDES if touched[side]]
    rows.append((TREE_UNTOUCHED, "different: modified by " + ", ".join(modified) if modified else "identical",
                 "", None, None, [f"--- {side} changed the exported tree:\n" + touched[side].decode("utf-8", "replace")
                              for side in modified]))
    if not options.keep_work:
        shutil.rmtree(project_dir, ignore_errors=True)
    return rows, note


# ---------------------------------------------------------------------------------------------------------------------
# Main


def seconds_cell(value):
    return "" if value is None else f"{value:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="the reference torchmigrate binary")
    parser.add_argument("--after", required=True, help="the torchmigrate binary under test")
    parser.add_argument("--mirrors", required=True, help="directory holding the bare git directories")
    parser.add_argument("--work", required=True, help="scratch directory for the exported trees")
    parser.add_argument("--projects", default=str(field_trial.DEFAULT_PROJECTS),
                        help="the projects JSON (default: the field trial's, beside this script)")
    parser.add_argument("--only", nargs="+", action="extend", default=[],
                        help="project names or owner/name (repeatable)")
    parser.add_argument("--keep-work", action="store_true", help="keep the trees and the captured outputs")
    parser.add_argument("--jobs-arg", default="1", help="the -j value passed to both binaries (default 1; "
                                                        "`none` passes no -j)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per command (default 900)")
    parser.add_argument("--diff-lines", type=int, default=40, help="diff lines shown per differing output")
    options = parser.parse_args()
    for side in SIDES:
        path = Path(getattr(options, side)).resolve()
        if not os.access(path, os.X_OK) or not path.is_file():
            parser.error(f"--{side}: {path} is not an executable file")
        setattr(options, side, str(path))
    projects = json.loads(Path(options.projects).read_text())["projects"]
    try:
        projects = field_trial.select_projects(projects, options.only)
    except SystemExit as error:  # it names field_trial.py and exits 1, which here means a difference
        parser.error(str(error).removeprefix("field_trial.py: "))
    Path(options.work).mkdir(parents=True, exist_ok=True)
    for side in SIDES:
        version = field_trial.run([getattr(options, side), "--version"], timeout=60)
        print(f"compare_binaries: {side}: {getattr(options, side)} "
              f"({version.stdout.decode('utf-8', 'replace').strip() or 'no --version'})", file=sys.stderr)

    started = time.monotonic()
    table, details, errors = [], [], []
    for entry in projects:
        print(f"compare_binaries: {entry['name']} ({entry['repo']} {entry['commit'][:12]})", file=sys.stderr,
              flush=True)
        project_start = time.monotonic()
        try:
            rows, note = compare_project(entry, options)
        except Exception as error:  # one project's failure must not stop the others
            errors.append(entry["name"])
            message = f"{type(error).__name__}: {error}"
            table.append((entry["name"], "(all)", "error: " + (message[:57] + "..." if len(message) > 60 else message),
                          "", None, None))
            details.append((entry["name"], "(all)", [message]))
            if not options.keep_work:
                shutil.rmtree(Path(options.work) / entry["name"], ignore_errors=True)
            continue
        for command, status, codes, before_s, after_s, lines in rows:
            table.append((entry["name"], command, status, codes, before_s, after_s))
            if lines:
                details.append((entry["name"], command, lines))
        different = sum(1 for row in rows if row[1] != "identical")
        print(f"compare_binaries:   {len(rows) - different}/{len(rows)} identical ({note}, "
              f"{time.monotonic() - project_start:.1f} s)", file=sys.stderr, flush=True)

    names = ("project", "command", "result", "exit")
    widths = [max([len(name)] + [len(row[i]) for row in table]) for i, name in enumerate(names)]
    header = "  ".join(f"{name:<{width}}" for name, width in zip(names, widths)) + f"  {'before s':>8}  {'after s':>8}"
    print(header)
    print("-" * len(header))
    for *cells, before_s, after_s in table:
        print("  ".join(f"{cell:<{width}}" for cell, width in zip(cells, widths))
              + f"  {seconds_cell(before_s):>8}  {seconds_cell(after_s):>8}")
    for project, command, lines in details:
        print(f"\n=== {project} {command}")
        for block in lines:
            print(block, end="" if block.endswith("\n") else "\n")
    differences = sum(1 for row in table if row[2].startswith("different"))
    compared = len(projects) - len(errors)
    print(f"\n{compared} project(s) compared, {differences} difference(s), {len(errors)} error(s)"
          f"{' (' + ', '.join(errors) + ')' if errors else ''}; {time.monotonic() - started:.1f} s")
    sys.exit(1 if differences else 2 if errors else 0)


if __name__ == "__main__":
    main()
