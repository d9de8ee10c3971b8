#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Time and memory of `torchmigrate check` on generated files, per MB and per 1,000 findings.

Two series, each run interleaved (every size once per round, best of the rounds kept):
  - within the size budget (`max-file-size-mb = 0`, no limit): 1, 2 and 4 MB of plain statements
    with one finding, and files of 9,000 to 36,000 findings; the seconds per MB and per 1,000
    findings should stay flat as the files grow;
  - past the default budget (4 MB): 10 and 50 MB, and 10,000 nested `if` blocks, which each get
    one TM900 note; their time should stay near start-up.

    benchmarks/large_file_benchmark.py [--binary build/torchmigrate] [--rounds 3]
"""
import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

FINDING = 'torch.onnx.export(m, x, "f")\n'


def plain(megabytes):
    return "import torch\n" + "y = 1\n" * int(megabytes * (1 << 20) / 6) + FINDING


def findings(count):
    return "import torch\n" + FINDING * count


def nested(depth):
    return "import torch\n" + "".join(" " * i + "if x:\n" for i in range(depth)) + " " * depth + FINDING


def measure(binary, path, cwd):
    """Wall seconds and the peak resident memory (MB) of one run (wait4 gives that child's own)."""
    started = time.perf_counter()
    process = subprocess.Popen([binary, "check", "--no-cache", "-q", "-j1", str(path)], cwd=cwd,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = 0  # reaped above
    return seconds, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="build/torchmigrate")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    binary = str(Path(args.binary).resolve())
    with tempfile.TemporaryDirectory(prefix="torchmigrate-large-") as work:
        unlimited, budgeted = Path(work, "unlimited"), Path(work, "budgeted")
        unlimited.mkdir()
        budgeted.mkdir()
        (unlimited / "torchmigrate.toml").write_text("max-file-size-mb = 0\n")
        cases = []  # (label, directory, file, MB, findings)
        for megabytes in (1, 2, 4):
            cases.append((f"{megabytes} MB, 1 finding", unlimited, f"plain{megabytes}.py", megabytes, 1))
        for count in (9000, 18000, 36000):
            cases.append((f"{count} findings", unlimited, f"findings{count}.py", None, count))
        for megabytes in (10, 50):
            cases.append((f"{megabytes} MB, past the budget", budgeted, f"plain{megabytes}.py", megabytes, 0))
        cases.append(("10,000 nested ifs, past the budget", budgeted, "nested.py", None, 0))
        for label, directory, name, megabytes, count in cases:
            text = nested(10000) if name == "nested.py" else plain(megabytes) if megabytes else findings(count)
            (directory / name).write_text(text)
        best = {}
        for _ in range(args.rounds):
            for label, directory, name, *_ in cases:
                result = measure(binary, directory / name, directory)
                best[label] = min(best.get(label, result), result)
        print(f"{'file':38} {'size MB':>8} {'seconds':>8} {'s/MB':>7} {'s/1k findings':>14} {'peak MB':>8}")
        for label, directory, name, megabytes, count in cases:
            seconds, peak = best[label]
            size = (directory / name).stat().st_size / (1 << 20)
            per_mb = f"{seconds / size:7.2f}" if directory == unlimited else f"{'-':>7}"
            per_finding = f"{seconds / count * 1000:14.3f}" if count > 1 else f"{'-':>14}"
            print(f"{label:38} {size:8.1f} {seconds:8.2f} {per_mb} {per_finding} {peak:8.0f}")


if __name__ == "__main__":
    main()
