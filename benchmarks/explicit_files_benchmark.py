#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times `torchmigrate check` on an explicit file list (what pre-commit passes) against a
directory walk of the same project, and prints the ratio. The list should cost no more than
the walk. Also times the list split into parallel batches, as pre-commit runs a hook without
`require_serial`.

    python3 benchmarks/explicit_files_benchmark.py [--binary build/torchmigrate] [--copies 200]
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[1]
EXAMPLE = SOURCE_DIR / "examples" / "legacy-project"
BUILD_FILES = {
    "Dockerfile": "FROM python:3.12\nENV AOT_INDUCTOR_COMPILE_WRAPPER_WITH_O0=1\n",
    "CMakeLists.txt": 'find_package(Torch REQUIRED)\nset(TORCH_CUDA_ARCH_LIST "6.1;7.0")\n',
    "scripts/build.sh": "#!/bin/sh\nexport TORCH_CUDA_ARCH_LIST=8.0\n",
    "ci.yml": "env:\n  OMP_NUM_THREADS: 1\n",
}
# Present in a real repository, read by neither run.
OTHER_FILES = {"README.md": "# docs\n", "notes.txt": "notes\n", "data/table.csv": "a,b\n1,2\n"}


def make_project(root, copies):
    """A repository like a real one: a `.git` directory and the example's pyproject.toml at the
    top, and under src/ `copies` packages, each the example's Python files plus a few build
    files. Returns the files torchmigrate reads, as pre-commit would pass them."""
    (root / ".git").mkdir()
    shutil.copyfile(EXAMPLE / "pyproject.toml", root / "pyproject.toml")
    files = ["pyproject.toml"]
    sources = sorted(EXAMPLE.rglob("*.py"))
    for index in range(copies):
        package = root / "src" / f"pkg{index:04d}"
        for source in sources:
            target = package / source.relative_to(EXAMPLE)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            files.append(str(target.relative_to(root)))
        for relative, text in {**BUILD_FILES, **OTHER_FILES}.items():
            target = package / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            if relative in BUILD_FILES:
                files.append(str(target.relative_to(root)))
    return sorted(files)


def run(binary, args, cwd):
    result = subprocess.run([binary, "check", *args, "--output-format", "json", "--exit-zero"], cwd=cwd,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"torchmigrate exited {result.returncode}:\n{result.stderr}")
    return result.stdout


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(action):
    """(wall seconds, CPU seconds of the processes it ran, its result). CPU time is the steadier
    measure on a shared machine; wall time shows what parallelism buys."""
    cpu, start = children_cpu(), time.perf_counter()
    result = action()
    return time.perf_counter() - start, children_cpu() - cpu, result


def findings(outputs):
    """Comparable findings of one or more JSON reports."""
    found = []
    for output in outputs:
        for finding in json.loads(output):
            found.append((os.path.normpath(finding["filename"]), finding["location"]["row"],
                          finding["location"]["column"], finding["code"]))
    return sorted(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_binary = os.environ.get("TORCHMIGRATE_BIN", str(SOURCE_DIR / "build" / "torchmigrate"))
    parser.add_argument("--binary", default=default_binary)
    parser.add_argument("--copies", type=int, default=200, help="copies of the example project (default 200)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each kind (default 5)")
    parser.add_argument("--batches", type=int, default=os.cpu_count() or 2,
                        help="parallel batches for the split run (default: CPU count, as pre-commit)")
    options = parser.parse_args()
    binary = str(Path(options.binary).resolve())

    with tempfile.TemporaryDirectory(prefix="torchmigrate-bench-") as directory:
        root = Path(directory)
        files = make_project(root, options.copies)
        batch_size = -(-len(files) // options.batches)
        batches = [files[i:i + batch_size] for i in range(0, len(files), batch_size)]

        def split_run():
            with ThreadPoolExecutor(len(batches)) as pool:
                return list(pool.map(lambda batch: run(binary, batch, root), batches))

        runs = {
            "directory walk": lambda: [run(binary, ["."], root)],
            "explicit list": lambda: [run(binary, files, root)],
            f"list in {len(batches)} parallel batches": split_run,
        }
        # Warm the page cache, and check that all runs find the same things.
        expected = findings(runs["directory walk"]())
        for name, action in runs.items():
            if not expected or findings(action()) != expected:
                raise SystemExit(f"{name}: the findings differ from the directory walk's; the timings would not "
                                 "compare like with like")
        wall = {name: [] for name in runs}
        cpu = {name: [] for name in runs}
        for _ in range(options.repeat):
            for name, action in runs.items():  # interleaved, so load changes hit every kind alike
                wall_seconds, cpu_seconds, _ = timed(action)
                wall[name].append(wall_seconds)
                cpu[name].append(cpu_seconds)

    print(f"{len(files)} files ({options.copies} copies of {EXAMPLE.name}'s Python files plus build files), "
          f"{len(expected)} findings; best and median of {options.repeat} runs")
    print(f"  {'':<30} {'wall best':>10} {'median':>8} {'CPU best':>10} {'median':>8} {'CPU ratio to walk':>18}")
    base = min(cpu["directory walk"])
    for name in runs:
        print(f"  {name:<30} {min(wall[name]) * 1000:8.0f}ms {statistics.median(wall[name]) * 1000:6.0f}ms "
              f"{min(cpu[name]) * 1000:8.0f}ms {statistics.median(cpu[name]) * 1000:6.0f}ms "
              f"{min(cpu[name]) / base:18.2f}")


if __name__ == "__main__":
    main()
