#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How many translation units of a build include a header, directly or not.

Runs each compile command of BUILD/compile_commands.json with `-M` (the preprocessor's list of
every file a translation unit reads) and counts the units whose list holds a path ending in
HEADER, per top folder of the source tree (src, tests, fuzz, benchmarks).

    scripts/count_includes.py [--build build] [--list] [HEADER]   # HEADER: nlohmann/json.hpp
"""

import argparse
import collections
import concurrent.futures
import json
import shlex
import subprocess
import sys
from pathlib import Path

DROPPED_WITH_VALUE = {"-o", "-MF", "-MT", "-MQ"}
DROPPED = {"-c", "-MD", "-MMD"}


def dependencies(entry):
    arguments = entry.get("arguments") or shlex.split(entry["command"])
    if Path(arguments[0]).name == "ccache":
        arguments = arguments[1:]
    command, skip = [], False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in DROPPED_WITH_VALUE:
            skip = True
        elif argument not in DROPPED:
            command.append(argument)
    command += ["-M", "-o", "-"]
    result = subprocess.run(command, cwd=entry["directory"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{entry['file']}: {result.stderr.strip()}")
    return result.stdout.replace("\\\n", " ").split()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("header", nargs="?", default="nlohmann/json.hpp")
    parser.add_argument("--build", type=Path, default=Path("build"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--list", action="store_true", help="print the units that include HEADER")
    args = parser.parse_args()
    entries = json.loads((args.build / "compile_commands.json").read_text())
    cache = (args.build / "CMakeCache.txt").read_text()
    source_dir = Path(next(line.split("=", 1)[1] for line in cache.splitlines()
                           if line.startswith("CMAKE_HOME_DIRECTORY:")))
    entries = [e for e in entries if e["file"].endswith((".cpp", ".cc"))]
    totals, hits, units = collections.Counter(), collections.Counter(), []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for entry, files in zip(entries, pool.map(dependencies, entries)):
            path = Path(entry["file"])
            inside = path.is_relative_to(source_dir) and not path.is_relative_to(args.build.resolve())
            folder = path.relative_to(source_dir).parts[0] if inside else "generated"
            totals[folder] += 1
            if any(f.endswith("/" + args.header) for f in files):
                hits[folder] += 1
                units.append(str(path.relative_to(source_dir)) if path.is_relative_to(source_dir) else str(path))
    if args.list:
        print("\n".join(sorted(units)))
    for folder in sorted(totals):
        print(f"{folder:12} {hits[folder]:4} of {totals[folder]:4} translation units include {args.header}")
    print(f"{'all':12} {sum(hits.values()):4} of {sum(totals.values()):4}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
