#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times the short runs where start-up dominates: `--version`, one Python file and one C++ file
(with libclang, and with TORCHMIGRATE_LIBCLANG naming a missing file), next to ast-grep on the
same Python file. Prints median wall and CPU time and peak RSS of each.

    python3 benchmarks/startup_benchmark.py [--binary build/torchmigrate] [--before OTHER_BINARY]
                                            [--repeat 30]

--before adds the same rows for another torchmigrate binary (e.g. one built before a change),
measured in the same rounds. Every round runs each command once, interleaved, so load changes on
a shared machine hit every row alike. Times are of whole processes, measured with wait4(2).

Peak RSS comes from separate runs under GNU time (Debian `time`): a process started by Python
keeps the interpreter's high-water mark across exec, so wait4 reports at least Python's ~16 MiB,
which is more than these runs use. Without /usr/bin/time the wait4 figure is shown, marked `>=`.
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from peer_benchmark import AST_GREP_RULES, SOURCE_DIR, Run, count_json_array, count_lines, find_ast_grep, tool_version

EXAMPLE = SOURCE_DIR / "examples" / "legacy-project"
PYTHON_FILE = EXAMPLE / "src" / "legacy_models" / "exporting.py"
CXX_FILE = EXAMPLE / "csrc" / "dlpack_bridge.cpp"


def torchmigrate_runs(label, binary, python_file, cxx_file):
    def check(path):
        return [binary, "check", "--no-cache", "--output-format", "json", "--exit-zero", path]

    without = dict(os.environ, TORCHMIGRATE_LIBCLANG="/nonexistent/libclang.so.1")
    with_default = {key: value for key, value in os.environ.items() if key != "TORCHMIGRATE_LIBCLANG"}
    return [Run(f"{label} --version", [binary, "--version"], count_lines, env=with_default),
            Run(f"{label} one Python file", check(python_file), count_json_array, env=with_default),
            Run(f"{label} one C++ file", check(cxx_file), count_json_array, env=with_default),
            Run(f"{label} one C++ file, no libclang", check(cxx_file), count_json_array, env=without)]


def peak_rss_kib(run, scratch, times=3):
    """The largest resident set of `times` runs, as GNU time measures it from its own small process."""
    report = scratch / "rss"
    peaks = []
    for _ in range(times):
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report, *run.argv], env=run.env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        peaks.append(int(report.read_text().split()[-1]))
    return max(peaks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_binary = os.environ.get("TORCHMIGRATE_BIN", str(SOURCE_DIR / "build" / "torchmigrate"))
    parser.add_argument("--binary", default=default_binary)
    parser.add_argument("--before", help="another torchmigrate binary to measure in the same rounds")
    parser.add_argument("--repeat", type=int, default=30, help="timed rounds (default 30)")
    options = parser.parse_args()

    scratch_dir = tempfile.mkdtemp(prefix="torchmigrate-startup-")
    scratch = Path(scratch_dir)
    try:
        # The two files alone, so no project configuration of the example is read.
        python_file = Path(shutil.copy(PYTHON_FILE, scratch / PYTHON_FILE.name))
        cxx_file = Path(shutil.copy(CXX_FILE, scratch / CXX_FILE.name))
        runs = torchmigrate_runs("torchmigrate:", str(Path(options.binary).resolve()), python_file, cxx_file)
        if options.before:
            runs += torchmigrate_runs("before:", str(Path(options.before).resolve()), python_file, cxx_file)
        ast_grep = find_ast_grep()
        if ast_grep:
            runs.append(Run("ast-grep scan, one Python file",
                            [ast_grep, "scan", "-c", AST_GREP_RULES, "--json=stream", python_file], count_lines))

        for run in runs:  # page cache and dynamic loader caches warm; findings counted
            run.warm_up(scratch)
        for _ in range(options.repeat):
            for run in runs:
                run.measure(scratch)
        exact_rss = os.access("/usr/bin/time", os.X_OK)
        rss = {run.name: (f"{peak_rss_kib(run, scratch) / 1024:8.1f}" if exact_rss else f">={max(run.rss) / 1024:6.1f}")
               for run in runs}

        print(f"machine: {os.cpu_count()} cores, {platform.machine()}, {platform.system()} {platform.release()}; "
              f"medians of {options.repeat} interleaved rounds")
        print(f"torchmigrate: {tool_version([options.binary, '--version'])}")
        if options.before:
            print(f"before: {tool_version([options.before, '--version'])}")
        print("ast-grep: " + (tool_version([ast_grep, "--version"]) if ast_grep else "not installed (npm ci --ignore-scripts)"))
        print(f"files: {PYTHON_FILE.relative_to(SOURCE_DIR)}, {CXX_FILE.relative_to(SOURCE_DIR)}")
        print(f"\n  {'':<44} {'wall ms':>9} {'CPU ms':>9} {'RSS MiB':>8} {'findings':>9}")
        for run in runs:  # a decimal more than peer_benchmark.py: these are milliseconds
            print(f"  {run.name:<44} {statistics.median(run.wall) * 1000:9.1f} {statistics.median(run.cpu) * 1000:9.1f}"
                  f" {rss[run.name]} {run.findings:>9}")
        print("  (findings of --version: lines printed; of \"no libclang\": the TM900 note)")
    finally:
        shutil.rmtree(scratch_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
