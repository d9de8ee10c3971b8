# SPDX-License-Identifier: MIT
"""`peer_benchmark.py --corpus DIR`: the tools on a real tree instead of the synthetic corpus.

Runs, interleaved, medians of `--repeat` runs, one thread each (CPU is what is compared):
- the parse floor: build/tests/syntax_verdict parses every .py with tree-sitter and nothing else;
- ripgrep: `rg -l` of the catalog's Python trigger words (what finding the candidate files costs);
- ast-grep: `scan` with benchmarks/ast-grep-rules (4 rules), of the tree and of the same named
  .py files torchmigrate is given (whose command line both then hold: the like-for-like RSS);
- torchmigrate `check --select ALL -j1 --no-cache` on the same .py files, with the prefilter and,
  through the test hook TORCHMIGRATE_NO_PREFILTER=1, without it (every rule on every file); with
  the default rules; with `--baseline BINARY` an older build as well;
- torchmigrate `--select ALL` on the whole tree (C/C++ and build files too, libclang loaded when
  there are C/C++ files): not comparable with the Python-only peers, shown for the total;
- the C/C++ scan: torchmigrate on the tree's C/C++/CUDA files only, against `rg -l` of the C/C++
  rules' trigger words on the same files (the goal is at most 3x ripgrep);
- with `--jobs N` above 1, the same thread count for both: torchmigrate `--select ALL -jN` on the
  whole tree (its walk and its checks overlap) against ast-grep `-jN` on the tree, and the
  baseline build at `-jN` too (wall time is what more threads buy).
Then checks that the prefilter changed no finding on this corpus (parse notes TM900/TM901 aside:
without the prefilter every file is parsed, so more syntax errors are reported).
"""
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from peer_benchmark import AST_GREP_RULES, SOURCE_DIR, Run, count_json_array, count_lines, find_ast_grep, ratio, \
    tool_version

PARSE_NOTES = {"TM900", "TM901"}


CXX_SUFFIXES = {".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh"}


def triggers(language):
    """Every word a rule of `language` is triggered by, and whether any needs a substring."""
    words, substring = set(), False
    for path in sorted((SOURCE_DIR / "rules").glob("TM*.json")):
        rule = json.loads(path.read_text())
        if rule.get("language", "python") != language or rule["check"]["family"] == "unused-suppression":
            continue
        words.update(rule["triggers"])
        substring |= rule.get("trigger_match", "word") != "word"
    return sorted(words), substring


def findings(output):
    """The findings of a torchmigrate JSON report, parse notes left out, as comparable strings."""
    return Counter(json.dumps(item, sort_keys=True) for item in json.loads(output) if item["code"] not in PARSE_NOTES)


def run_corpus(options):
    corpus = options.corpus.resolve()
    binary = str(Path(options.binary).resolve())
    # The Python files torchmigrate checks (excludes and .gitignore applied), for the parse floor.
    shown = subprocess.run([binary, "check", corpus, "--show-files"], capture_output=True, text=True, check=True)
    python_files = sorted(Path(line) for line in shown.stdout.splitlines() if line.endswith(".py"))
    cxx_files = sorted(Path(line) for line in shown.stdout.splitlines() if Path(line).suffix in CXX_SUFFIXES)
    scratch = Path(tempfile.mkdtemp(prefix="torchmigrate-corpus-"))
    try:
        file_list = scratch / "python-files.txt"
        file_list.write_text("".join(f"{path}\n" for path in python_files))

        # The peers read the .py files only, so torchmigrate is given exactly those.
        python_args = [str(path) for path in python_files]

        def tm(program, env=None, name=None, select=("--select", "ALL"), paths=None, jobs=1):
            argv = [program, "check", *(paths or python_args), *select, f"-j{jobs}", "--no-cache", "--output-format",
                    "json", "--exit-zero"]
            return Run(name, argv, count_json_array, env=env)

        runs = []
        parse_floor = Path(options.parse_floor)
        if parse_floor.exists():
            runs.append(Run("parse floor (tree-sitter only, every .py)", [parse_floor], count_lines, stdin=file_list))
        else:
            print(f"parse floor: {parse_floor} not built (cmake --build build --target syntax_verdict)")
        rg = shutil.which("rg")
        words, substring = triggers("python")
        rg_cxx = None
        if rg:
            word_flag = [] if substring else ["-w"]
            patterns = [arg for word in words for arg in ("-e", word)]
            runs.append(Run("rg -l of the Python trigger words", [rg, "-l", "-F", *word_flag, "-j1", "-g", "*.py",
                                                                   *patterns, corpus], count_lines))
            if cxx_files:
                words, substring = triggers("cxx")
                patterns = [arg for word in words for arg in ("-e", word)]
                rg_cxx = Run("rg -l of the C/C++ trigger words", [rg, "-l", "-F", *([] if substring else ["-w"]),
                                                                   "-j1", *patterns, *map(str, cxx_files)], count_lines)
        else:
            print("ripgrep: not installed (Debian package `ripgrep`)")
        ast_grep = find_ast_grep()
        if ast_grep:
            runs.append(Run("ast-grep scan -j1 (4 rules)", [ast_grep, "scan", "-c", AST_GREP_RULES, "-j", "1",
                                                             "--json=stream", corpus], count_lines))
            # Given the same named files as torchmigrate: its peak memory then holds the same
            # command line (6,928 paths are half a MiB of it), so the RSS ratio is like for like.
            runs.append(Run("ast-grep scan -j1, the same named files", [ast_grep, "scan", "-c", AST_GREP_RULES, "-j",
                                                                        "1", "--json=stream", *python_args],
                            count_lines))
        else:
            print("ast-grep: not installed (npm ci --ignore-scripts)")
        after = tm(binary, name="torchmigrate --select ALL -j1")
        default_rules = tm(binary, name="torchmigrate, default rules -j1", select=())
        no_prefilter = tm(binary, {**os.environ, "TORCHMIGRATE_NO_PREFILTER": "1"},
                          "torchmigrate, prefilter off (test hook)")
        whole_tree = tm(binary, name="torchmigrate --select ALL, whole tree", paths=[str(corpus)])
        runs += [after, default_rules, no_prefilter, whole_tree]
        cxx_scan = None
        if cxx_files:
            cxx_scan = tm(binary, name="torchmigrate --select ALL, C/C++ files", paths=list(map(str, cxx_files)))
            runs += [cxx_scan] + ([rg_cxx] if rg_cxx else [])
        before = None
        if options.baseline:
            before = tm(str(Path(options.baseline).resolve()), name="baseline torchmigrate --select ALL -j1")
            runs.append(before)
        threaded = []  # (ours, theirs) at options.jobs threads
        if options.jobs > 1:
            jobs = options.jobs
            ours = tm(binary, name=f"torchmigrate --select ALL -j{jobs}, whole tree", paths=[str(corpus)], jobs=jobs)
            runs.append(ours)
            if ast_grep:
                theirs = Run(f"ast-grep scan -j{jobs} (4 rules)", [ast_grep, "scan", "-c", AST_GREP_RULES, "-j",
                                                                 str(jobs), "--json=stream", corpus], count_lines)
                runs.append(theirs)
                threaded.append((ours, theirs))
            if options.baseline:
                older = tm(str(Path(options.baseline).resolve()), paths=[str(corpus)], jobs=jobs,
                           name=f"baseline --select ALL -j{jobs}, whole tree")
                runs.append(older)
                threaded.append((ours, older))

        for run in runs:
            run.warm_up(scratch)
        for _ in range(options.repeat):
            for run in runs:  # interleaved, so load from other users of the machine hits every tool alike
                run.measure(scratch)

        lines = sum(path.read_bytes().count(b"\n") for path in python_files)
        print(f"corpus: {corpus.name}: {len(python_files)} Python files, {lines} lines, {len(cxx_files)} C/C++ files; "
              f"medians of {options.repeat} runs")
        print(f"torchmigrate: {tool_version([binary, '--version'])}")
        if ast_grep:
            print(f"ast-grep: {tool_version([ast_grep, '--version'])}")
        if rg:
            print(f"ripgrep: {tool_version([rg, '--version'])}")
        print(f"\n  {'':<44} {'wall ms':>9} {'CPU ms':>9} {'RSS MiB':>8} {'findings':>9}")
        for run in runs:
            print(run.row())
        print()
        ours_only = (after, default_rules, no_prefilter, whole_tree, before, cxx_scan, rg_cxx)
        peers = [run for run in runs if run not in ours_only and not any(run in pair for pair in threaded)]
        for ours, theirs in [(after, peer) for peer in peers] + [(default_rules, peer) for peer in peers] + \
                [(after, no_prefilter)] + ([(after, before)] if before is not None else []) + \
                ([(cxx_scan, rg_cxx)] if cxx_scan and rg_cxx else []) + threaded:
            print(f"  ratio {ours.name} / {theirs.name}: "
                  f"wall {ratio(statistics.median(ours.wall), statistics.median(theirs.wall)):.2f}, "
                  f"CPU {ratio(statistics.median(ours.cpu), statistics.median(theirs.cpu)):.2f}, "
                  f"peak RSS {ratio(max(ours.rss), max(theirs.rss)):.2f}")

        with_prefilter = findings(after.output)
        without = findings(no_prefilter.output)
        dropped = without - with_prefilter
        extra = with_prefilter - without
        print(f"\nfindings with the prefilter: {sum(with_prefilter.values())}, without: {sum(without.values())}; "
              f"dropped by the prefilter: {sum(dropped.values())}, only with it: {sum(extra.values())}")
        for item in list(dropped)[:10]:
            print(f"  dropped: {item}")
        if before is not None:
            old = findings(before.output)
            print(f"baseline findings: {sum(old.values())}; only in baseline: {sum((old - with_prefilter).values())}, "
                  f"only in this build: {sum((with_prefilter - old).values())}")
        return 1 if dropped or extra else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
