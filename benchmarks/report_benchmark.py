#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times `torchmigrate report` against `torchmigrate check` on the same large tree (copies of the
example project's Python and C++ sources) and prints the ratio and the report's size. The goal:
the report costs less than twice the check and stays under 5 MB (exit 1 when it does not).

    python3 benchmarks/report_benchmark.py [--binary build/torchmigrate] [--files 7000] [--repeat 3]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from tm_e2e import copy_tree  # noqa: E402

SIZE_LIMIT = 5 * 1024 * 1024


def timed(command, cwd):
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1):
        raise SystemExit(f"{command} exited {result.returncode}:\n{result.stderr}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default="build/torchmigrate")
    parser.add_argument("--files", type=int, default=7000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0, help="-j for both (default: all cores)")
    args = parser.parse_args()
    binary = str(Path(args.binary).resolve())
    jobs = ["-j", str(args.jobs)] if args.jobs else []

    with tempfile.TemporaryDirectory(prefix="torchmigrate-report-bench-") as work:
        tree = Path(work) / "tree"
        copy_tree(tree, args.files)
        report = Path(work) / "report.html"
        commands = {
            "check": [binary, "check", ".", "--no-cache", *jobs],
            "check --output-format json": [binary, "check", ".", "--no-cache", "--output-format", "json", *jobs],
            "report": [binary, "report", ".", "--no-cache", "-o", str(report), *jobs],
        }
        for command in commands.values():  # warm the page cache
            timed(command, tree)
        times = {name: [] for name in commands}
        for _ in range(args.repeat):  # interleaved, so load from elsewhere hits all alike
            for name, command in commands.items():
                times[name].append(timed(command, tree))
        median = {name: statistics.median(values) for name, values in times.items()}
        size = report.stat().st_size
        print(f"{args.files} files, {os.cpu_count()} cores, median of {args.repeat} runs")
        for name, value in median.items():
            print(f"  {name:28} {value:7.2f} s")
        print(f"  report / check               {median['report'] / median['check']:7.2f}")
        print(f"  report / check json          {median['report'] / median['check --output-format json']:7.2f}")
        print(f"  report size                  {size / 1024 / 1024:7.2f} MB (limit 5 MB)")
        return 0 if size < SIZE_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
