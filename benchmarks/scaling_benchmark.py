#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How torchmigrate scales with threads, against ast-grep on the same files.

    python3 benchmarks/scaling_benchmark.py --corpus DIR [--binary build/torchmigrate]
        [--jobs 1,2,4,8,16] [--repeat 3] [--select ALL]

For each job count, interleaved (one round runs every command once, `--repeat` rounds, medians;
the serial fraction is the median of each round's, from cold runs made back to back):
- torchmigrate `check DIR -jN --no-cache` (cold);
- torchmigrate `check DIR -jN --cache-dir C` after a run that filled C (warm: nothing changed);
- ast-grep `scan -jN` with benchmarks/ast-grep-rules (if installed: `npm ci --ignore-scripts`).
It prints wall and CPU time of each, torchmigrate / ast-grep, the speed-up over one job and the
serial fraction that speed-up implies (Amdahl: T(n) = T(1) * (s + (1 - s) / n), solved for s; only
for job counts the machine has processors for, since more threads than processors buy nothing),
and that fraction's two parts: the processor time left idle (the serial parts: n * wall(n) - CPU(n),
over (n - 1) * CPU(1)) and the CPU the jobs spent beyond one job's.
Then the serial phases measured directly: `-v`'s timing line (discovery, settings, report) at one
and two jobs. The goals: 16 jobs at <= 1/10 of one job's wall time (s <= 0.04), and a warm run at
<= 0.3 of a cold one at every job count.
"""
import argparse
import os
import re
import shutil
import statistics
import tempfile
from pathlib import Path

from peer_benchmark import AST_GREP_RULES, SOURCE_DIR, Run, count_json_array, count_lines, find_ast_grep, ratio

TIMING = re.compile(r"timing: discovery (?:\(checking meanwhile\) )?(\S+) (ms|s), settings (\S+) (ms|s), "
                    r"checking (\S+) (ms|s), report (\S+) (ms|s)")


def seconds(value, unit):
    return float(value) / (1000 if unit == "ms" else 1)


def serial_fraction(one, many, jobs):
    """Amdahl's serial fraction from the wall times at one and `jobs` jobs."""
    if jobs <= 1 or not one:
        return float("nan")
    return (many / one - 1 / jobs) / (1 - 1 / jobs)


def idle_fraction(one_cpu, many_wall, many_cpu, jobs):
    """The serial parts measured directly: processor time left idle at `jobs` jobs, as a share of
    one job's work. Amdahl's fraction from wall times also counts the extra CPU that jobs on
    shared processors spend (caches, memory, a neighbour's interference); this counts only
    the time processors waited."""
    if jobs <= 1 or not one_cpu:
        return float("nan")
    return (jobs * many_wall - many_cpu) / ((jobs - 1) * one_cpu)


def processors():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def phases(binary, corpus, select, jobs, scratch):
    """discovery, settings, checking and report seconds from one `-v` run."""
    run = Run("-v", [binary, "check", corpus, *select, f"-j{jobs}", "--no-cache", "-v", "--exit-zero", "-q"],
              count_lines)
    run.once(scratch)
    match = TIMING.search((scratch / "stderr").read_text(errors="replace"))
    if not match:
        return None
    values = match.groups()
    return [seconds(values[i], values[i + 1]) for i in range(0, 8, 2)]


def build_runs(options, binary, corpus, jobs, scratch, ast_grep):
    select = ["--select", options.select] if options.select else []
    # A round runs the cold runs of every job count back to back, then the warm ones, then
    # ast-grep's: the serial fraction pairs runs made moments apart, not across ast-grep's
    # seconds-long runs, which on a shared machine change the speed of what follows them.
    runs = {}
    tm = {n: [binary, "check", corpus, *select, f"-j{n}", "--output-format", "json", "--exit-zero"] for n in jobs}
    for n in jobs:
        runs[("cold", n)] = Run(f"torchmigrate -j{n} cold", [*tm[n], "--no-cache"], count_json_array)
    for n in jobs:
        runs[("warm", n)] = Run(f"torchmigrate -j{n} warm", [*tm[n], "--cache-dir", scratch / f"cache-{n}"],
                                count_json_array)
    for n in jobs if ast_grep else []:
        runs[("ast-grep", n)] = Run(f"ast-grep -j{n}", [ast_grep, "scan", "-c", AST_GREP_RULES, "-j", str(n),
                                                         "--json=stream", corpus], count_lines)
    return runs


def print_table(runs, jobs, cpus):
    one = statistics.median(runs[("cold", jobs[0])].wall)
    one_sg = statistics.median(runs[("ast-grep", jobs[0])].wall) if ("ast-grep", jobs[0]) in runs else None
    print(f"\n{'jobs':>4} {'tm wall':>9} {'tm CPU':>9} {'sg wall':>9} {'sg CPU':>9} {'wall':>6} {'CPU':>6}"
          f" {'tm x':>6} {'sg x':>6} {'serial':>7} {'idle':>6} {'CPU+':>6} {'warm/cold':>9}")
    for n in jobs:
        cold, warm, sg = runs[("cold", n)], runs[("warm", n)], runs.get(("ast-grep", n))
        wall, cpu = statistics.median(cold.wall), statistics.median(cold.cpu)
        sg_wall = statistics.median(sg.wall) if sg else float("nan")
        sg_cpu = statistics.median(sg.cpu) if sg else float("nan")
        # Round by round (each round's runs at one and n jobs), then the median.
        base = runs[("cold", jobs[0])]
        paired = [serial_fraction(a, b, n) for a, b in zip(base.wall, cold.wall)]
        fraction = statistics.median(paired) if n <= cpus else float("nan")
        idle = [idle_fraction(a, w, c, n) for a, w, c in zip(base.cpu, cold.wall, cold.cpu)]
        idle_median = statistics.median(idle) if n <= cpus else float("nan")
        extra_cpu = statistics.median(c / a - 1 for a, c in zip(base.cpu, cold.cpu)) if n > 1 else float("nan")
        print(f"{n:>4} {wall:9.3f} {cpu:9.3f} {sg_wall:9.3f} {sg_cpu:9.3f} {ratio(wall, sg_wall):6.2f}"
              f" {ratio(cpu, sg_cpu):6.2f} {ratio(one, wall):6.2f} {ratio(one_sg or 0, sg_wall):6.2f}"
              f" {fraction:7.3f} {idle_median:6.3f} {extra_cpu:6.3f} {ratio(statistics.median(warm.wall), wall):9.2f}")
    print("(seconds; wall and CPU: torchmigrate / ast-grep; x: speed-up over the first job count; serial: Amdahl's"
          f" fraction from wall times, shown where this machine has the processors ({cpus}); idle: the processor time"
          " left idle, as a share of one job's work (the serial parts alone); CPU+: the CPU the jobs spent beyond one"
          " job's; warm/cold: wall of the warm run)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True, help="a tree of Python files")
    parser.add_argument("--binary", default=str(SOURCE_DIR / "build" / "torchmigrate"))
    parser.add_argument("--jobs", default="1,2,4,8,16", help="comma-separated job counts, the first the baseline")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--select", default="", help="rules to enable (default: the default rules)")
    options = parser.parse_args()
    jobs = [int(n) for n in options.jobs.split(",")]
    binary, corpus = str(Path(options.binary).resolve()), str(options.corpus.resolve())
    cpus = processors()
    ast_grep = find_ast_grep()
    if not ast_grep:
        print("ast-grep: not installed (npm ci --ignore-scripts); torchmigrate alone")
    scratch = Path(tempfile.mkdtemp(prefix="torchmigrate-scaling-"))
    try:
        runs = build_runs(options, binary, corpus, jobs, scratch, ast_grep)
        for run in runs.values():
            run.warm_up(scratch)  # fills each warm run's cache
        for _ in range(options.repeat):
            for run in runs.values():
                run.measure(scratch)
        findings = {run.findings for key, run in runs.items() if key[0] != "ast-grep"}
        if len(findings) != 1:
            raise SystemExit(f"torchmigrate's findings differ between job counts: {sorted(findings)}")
        print(f"{corpus}: {findings.pop()} findings; {cpus} processors; medians of {options.repeat} rounds")
        print_table(runs, jobs, cpus)
        print("\nserial phases from -v (seconds): discovery, settings, checking, report")
        select = ["--select", options.select] if options.select else []
        for n in (1, 2):
            measured = phases(binary, corpus, select, n, scratch)
            print(f"  -j{n}: " + (", ".join(f"{value:.3f}" for value in measured) if measured else "no timing line"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
