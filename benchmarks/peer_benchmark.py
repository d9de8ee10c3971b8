#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times torchmigrate against the peer tools that can be installed here, on a synthetic corpus,
and prints wall time, CPU time and peak RSS of each run with the ratios torchmigrate / peer.

    npm ci --ignore-scripts              # brings ast-grep and Ruff's WebAssembly build
    python3 benchmarks/peer_benchmark.py [--binary build/torchmigrate] [--files 2000]
                                         [--cxx-files 100] [--repeat 5] [--jobs N]
    python3 benchmarks/peer_benchmark.py --corpus DIR [--baseline OLD_BINARY] [--repeat 5]

With --corpus, a real tree instead of the synthetic corpus: see corpus_benchmark.py.

Peers (each skipped with a note when missing):
- ast-grep (`node_modules/@ast-grep/cli-*`): `scan` with benchmarks/ast-grep-rules, rules for
  the same torch.export / torch.onnx calls as TM101, TM201, TM202 and TM302;
- Ruff (`node_modules/@astral-sh/ruff-wasm-nodejs`): Ruff's own WebAssembly build run by Node
  on every file with its default rules, one thread (there is no native Ruff to be had here);
- clang-tidy (Debian `clang-tidy`): on the C++ files only, one process per file, `--jobs` at a
  time, against torchmigrate on the same C++ files with the same compile_commands.json.
Times are of whole processes (start-up included), measured with wait4(2): CPU is user + system
of the process and its children, peak RSS the largest resident set of any one of them.
"""
import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[1]
AST_GREP_RULES = SOURCE_DIR / "benchmarks" / "ast-grep-rules" / "sgconfig.yml"
NODE_MODULES = SOURCE_DIR / "node_modules"
CLANG_TIDY_CHECKS = "-*,modernize-deprecated-headers,bugprone-macro-parentheses"

# Ruff's linter over a list of files, as its CLI would run it with one thread. It also reports the
# time of the lint loop alone, without Node's start-up and the compilation of the 10 MB module.
RUFF_DRIVER = r"""
const fs = require("fs");
const { Workspace, PositionEncoding } = require(process.argv[2]);
const files = fs.readFileSync(process.argv[3], "utf8").split("\n").filter(Boolean);
const workspace = new Workspace(Workspace.defaultSettings(), PositionEncoding.Utf8);
const start = process.hrtime.bigint(), cpu = process.cpuUsage();
let diagnostics = 0;
for (const file of files) diagnostics += workspace.check(fs.readFileSync(file, "utf8")).length;
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify({ files: files.length, diagnostics,
  loop_wall: Number(process.hrtime.bigint() - start) / 1e9, loop_cpu: (used.user + used.system) / 1e6 }) + "\n");
"""

# ---------------------------------------------------------------------------------------------
# The corpus: Python files of about `lines` lines, most of them plain model / data / utility
# code, some using torch.export, torch.onnx or torch config options the way real projects do
# (some already migrated, some not); and C/C++ sources with their include directory outside it.

IMPORTS = ["import os", "import json", "import math", "import logging", "import argparse",
           "from dataclasses import dataclass, field", "from pathlib import Path",
           "from typing import Any, Dict, List, Optional, Tuple", "import numpy as np",
           "import torch", "import torch.nn as nn", "import torch.nn.functional as F"]


def plain_blocks(rng, n):
    """Ordinary code: what most lines of a torch project look like."""
    name = f"Block{n}"
    width = rng.choice([16, 32, 64, 128])
    return rng.choice([
        f'''

@dataclass
class {name}Config:
    """Settings of the {name.lower()} stage."""
    hidden_size: int = {width}
    dropout: float = 0.{rng.randint(1, 5)}
    layers: int = {rng.randint(2, 8)}
    names: List[str] = field(default_factory=list)

    def scaled(self, factor: float) -> "{name}Config":
        return {name}Config(int(self.hidden_size * factor), self.dropout, self.layers, list(self.names))
''',
        f'''

class {name}(nn.Module):
    """A residual block with a gated projection."""

    def __init__(self, dim: int = {width}, hidden: int = {width * 4}):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, hidden)
        self.gate = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        residual = x
        x = self.norm(x)
        x = F.silu(self.gate(x)) * self.up(x)
        x = self.down(x)
        return residual + x
''',
        f'''

def load_records_{n}(path: str, limit: Optional[int] = None) -> List[Dict[str, Any]]:
    """Reads one JSON record per line, skipping blank and malformed lines."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                logging.warning("%s:%d: %s", path, number + 1, error)
            if limit is not None and len(records) >= limit:
                break
    return records
''',
        f'''

def summarize_{n}(values: List[float]) -> Dict[str, float]:
    if not values:
        return {{"count": 0, "mean": 0.0, "std": 0.0}}
    mean = sum(values) / len(values)
    variance = sum((value - mean) ** 2 for value in values) / max(len(values) - 1, 1)
    ordered = sorted(values)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {{"count": len(values), "mean": mean, "std": math.sqrt(variance), "median": median,
            "min": ordered[0], "max": ordered[-1]}}
''',
        f'''

def train_epoch_{n}(model, loader, optimizer, device="cpu", clip={rng.choice([0.5, 1.0, 5.0])}):
    model.train()
    total, seen = 0.0, 0
    for step, (inputs, targets) in enumerate(loader):
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(inputs), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total += loss.item() * inputs.size(0)
        seen += inputs.size(0)
        if step % {rng.choice([10, 50, 100])} == 0:
            logging.info("step %d loss %.4f", step, total / max(seen, 1))
    return total / max(seen, 1)
''',
        f'''

def parse_args_{n}(argv=None):
    parser = argparse.ArgumentParser(description="Run the {name.lower()} job")
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--batch-size", type=int, default={width})
    parser.add_argument("--epochs", type=int, default={rng.randint(1, 30)})
    parser.add_argument("--output", type=Path, default=Path("runs") / "{name.lower()}")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    options.output.mkdir(parents=True, exist_ok=True)
    return options
''',
        f'''

class {name}Dataset(torch.utils.data.Dataset):
    def __init__(self, root, split="train", transform=None):
        self.root = Path(root)
        self.items = sorted(p for p in (self.root / split).glob("*.npy"))
        self.transform = transform

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        array = np.load(self.items[index])
        sample = torch.from_numpy(array).float()
        if self.transform is not None:
            sample = self.transform(sample)
        label = int(self.items[index].stem.split("_")[-1]) % {rng.randint(2, 100)}
        return sample, label
''',
    ])


def torch_blocks(rng, n, kind):
    """Code that torchmigrate's rules look at: half already migrated, half not."""
    migrated = rng.random() < 0.5
    if kind == "export":
        strict = ", strict=True" if migrated else ""
        return rng.choice([f'''

def export_program_{n}(model, example):
    model.eval()
    with torch.no_grad():
        program = torch.export.export(model, (example,){strict})
    return program
''', f'''

def export_for_tuning_{n}(model, example, dynamic=None):
    program = torch.export.export_for_training(
        model, (example,), dynamic_shapes=dynamic{strict}
    )
    return program.run_decompositions()
'''])
    if kind == "export_for_inference":
        return f'''

def inference_program_{n}(model, example):
    return torch.export.export_for_inference(model, (example,))
'''
    if kind == "onnx":
        extra = rng.choice([", dynamo=False, opset_version=17", ", dynamo=True", ""]) if migrated else ""
        return f'''

def to_onnx_{n}(model, example, path="model_{n}.onnx"):
    model.eval()
    torch.onnx.export(
        model,
        (example,),
        path,
        input_names=["input"],
        output_names=["output"]{extra},
    )
    return path
'''
    # config options
    return f'''

def configure_compiler_{n}():
    torch._dynamo.config.cache_size_limit = {rng.choice([8, 16, 64])}
    torch._inductor.config.use_mixed_mm = {rng.choice(["True", "False"])}
    torch._inductor.config.max_autotune = False
'''


def python_file(rng, index, lines):
    parts = [f'"""Module {index} of the benchmark corpus."""']
    parts += IMPORTS  # every block below uses some of them; unused ones are common in real code
    text = "\n".join(parts) + "\n"
    draw = rng.random()
    special = ("export" if draw < 0.15 else "onnx" if draw < 0.25 else "config" if draw < 0.30
               else "export_for_inference" if draw < 0.32 else None)
    block = 0
    while text.count("\n") < lines:
        if special and block == 2:
            text += torch_blocks(rng, block, special)
        else:
            text += plain_blocks(rng, block)
        block += 1
    return text


CXX_HEADER = """\
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>
#include <dlpack/dlpack.h>
"""


def cxx_file(rng, index):
    """A C++ source of about 150 lines; one in five converts DLPack devices the pre-1.0 way."""
    text = CXX_HEADER
    if rng.random() < 0.1:
        text += "#include <torch/types.h>\n"
    text += f"\nnamespace corpus{index} {{\n"
    for function in range(6):
        text += f"""
struct Range{function} {{
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const {{ return end - begin; }}
}};

inline std::vector<float> smooth{function}(const std::vector<float>& values, std::size_t window) {{
  std::vector<float> out(values.size(), 0.0f);
  float running = 0.0f;
  for (std::size_t i = 0; i < values.size(); ++i) {{
    running += values[i];
    if (i >= window) running -= values[i - window];
    out[i] = running / static_cast<float>(std::min(i + 1, window));
  }}
  return out;
}}

inline std::string describe{function}(const Range{function}& range) {{
  return "[" + std::to_string(range.begin) + ", " + std::to_string(range.end) + ")";
}}
"""
    if rng.random() < 0.2:
        text += """
inline bool on_gpu(const DLTensor& tensor) { return tensor.ctx.device_type == kDLGPU; }

inline DLContext pinned_context() { return DLContext{kDLCPUPinned, 0}; }
"""
    else:
        text += """
inline bool on_cpu(const DLTensor& tensor) { return tensor.ctx.device_type == kDLCPU; }
"""
    return text + f"}}  // namespace corpus{index}\n"


# An old DLPack header (before the kDLGPU -> kDLCUDA rename) and a stand-in torch header.
DLPACK_H = """\
#pragma once
#include <cstdint>
typedef enum { kDLCPU = 1, kDLGPU = 2, kDLCPUPinned = 3 } DLDeviceType;
typedef struct { DLDeviceType device_type; int device_id; } DLContext;
typedef struct { void* data; DLContext ctx; int ndim; std::int64_t* shape; } DLTensor;
"""
TORCH_TYPES_H = "#pragma once\nnamespace torch { using Dtype = int; }\n"


def make_corpus(root, files, lines, cxx_files, seed):
    rng = random.Random(seed)
    python_dir, cxx_dir, include_dir = root / "corpus" / "python", root / "corpus" / "cxx", root / "include"
    for index in range(files):
        path = python_dir / f"pkg{index // 50:03d}" / f"module_{index:05d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(python_file(rng, index, lines))
    (include_dir / "dlpack").mkdir(parents=True)
    (include_dir / "dlpack" / "dlpack.h").write_text(DLPACK_H)
    (include_dir / "torch").mkdir()
    (include_dir / "torch" / "types.h").write_text(TORCH_TYPES_H)
    cxx_dir.mkdir(parents=True)
    commands = []
    for index in range(cxx_files):
        path = cxx_dir / f"unit_{index:04d}.cpp"
        path.write_text(cxx_file(rng, index))
        commands.append({"directory": str(cxx_dir), "file": str(path),
                         "arguments": ["c++", "-std=c++17", f"-I{include_dir}", "-c", str(path)]})
    (cxx_dir / "compile_commands.json").write_text(json.dumps(commands, indent=1))
    python_files = sorted(python_dir.rglob("*.py"))
    cxx_paths = sorted(cxx_dir.glob("*.cpp"))
    return python_dir, cxx_dir, python_files, cxx_paths


# ---------------------------------------------------------------------------------------------
# Measuring


GNU_TIME = "/usr/bin/time" if Path("/usr/bin/time").exists() else None


class Run:
    """One command line timed repeatedly; `count` turns its stdout into a number of findings."""

    def __init__(self, name, argv, count, cwd=None, stdin=None, env=None):
        self.name, self.argv, self.count, self.cwd, self.stdin, self.env = name, argv, count, cwd, stdin, env
        self.output = None  # stdout of the untimed first run
        self.wall, self.cpu, self.rss = [], [], []
        self.findings = None
        self.inner = None  # a Run whose times the process reports itself (see RUFF_DRIVER)

    def once(self, scratch, through_time=False):
        out_path, err_path, rss_path = scratch / "stdout", scratch / "stderr", scratch / "rss"
        # A child's peak RSS starts at what it inherits from this Python process (about 20 MiB)
        # when it is forked from it; GNU time is small, so its child's peak is the tool's own.
        # Only the untimed first run goes through it, so times carry no extra process.
        through_time = through_time and GNU_TIME is not None
        argv = [GNU_TIME, "-q", "-f", "%M", "-o", rss_path, *self.argv] if through_time else self.argv
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            stdin = open(self.stdin, "rb") if self.stdin else subprocess.DEVNULL
            start = time.perf_counter()
            process = subprocess.Popen(argv, cwd=self.cwd, stdin=stdin, stdout=out, stderr=err, env=self.env)
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            process.returncode = os.waitstatus_to_exitcode(status)
            if self.stdin:
                stdin.close()
        output = out_path.read_text(errors="replace")
        if process.returncode not in (0, 1):
            raise SystemExit(f"{self.name}: exit {process.returncode}\n{' '.join(map(str, self.argv))}\n"
                             f"{err_path.read_text(errors='replace')[-2000:]}")
        rss = int(rss_path.read_text().split()[-1]) if through_time else usage.ru_maxrss
        return wall, usage.ru_utime + usage.ru_stime, rss, output

    def warm_up(self, scratch):
        _, _, rss, self.output = self.once(scratch, through_time=True)
        if GNU_TIME:
            self.rss.append(rss)
        self.findings = self.count(self.output)
        if self.inner:
            self.inner.findings = self.findings
            self.inner.rss = list(self.rss)

    def measure(self, scratch):
        wall, cpu, rss, output = self.once(scratch)
        self.wall.append(wall)
        self.cpu.append(cpu)
        if not GNU_TIME:
            self.rss.append(rss)
        if self.inner:
            report = json.loads(output)
            self.inner.wall.append(report["loop_wall"])
            self.inner.cpu.append(report["loop_cpu"])
            if not GNU_TIME:
                self.inner.rss.append(rss)

    def row(self):
        return (f"  {self.name:<44} {statistics.median(self.wall) * 1000:9.0f} {statistics.median(self.cpu) * 1000:9.0f}"
                f" {max(self.rss) / 1024:8.1f} {self.findings:>9}")


def count_json_array(output):
    return len(json.loads(output))


def count_lines(output):
    return sum(1 for line in output.splitlines() if line.strip())


def count_clang_tidy(output):
    return sum(1 for line in output.splitlines() if ": warning: " in line or ": error: " in line)


def count_ruff(output):
    return json.loads(output)["diagnostics"]


def ruff_runs(name, argv):
    """The Ruff process, then its lint loop alone (not run separately: filled by the first)."""
    process = Run(name, argv, count_ruff)
    process.inner = Run(f"{name}, lint loop only", argv, count_ruff)
    return [process, process.inner]


def torchmigrate_codes(output, codes):
    return sum(1 for finding in json.loads(output) if finding["code"] in codes)


def ratio(numerator, denominator):
    return numerator / denominator if denominator else float("nan")


def find_ast_grep():
    for candidate in sorted(NODE_MODULES.glob("@ast-grep/cli-*/ast-grep")):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def tool_version(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, check=False).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.environ.get("TORCHMIGRATE_BIN", str(SOURCE_DIR / "build" / "torchmigrate")))
    parser.add_argument("--files", type=int, default=2000, help="Python files (default 2000)")
    parser.add_argument("--lines", type=int, default=200, help="lines per Python file, about (default 200)")
    parser.add_argument("--cxx-files", type=int, default=100, help="C++ files (default 100)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each kind (default 5)")
    parser.add_argument("--single-repeat", type=int, default=20, help="timed runs of the single-file case (default 20)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="threads / processes (default: CPU count)")
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--keep", type=Path, help="build the corpus here and keep it")
    parser.add_argument("--corpus", type=Path, help="measure on this real tree instead (corpus_benchmark.py)")
    parser.add_argument("--baseline", help="with --corpus: an older torchmigrate binary to compare with")
    parser.add_argument("--parse-floor", default=str(SOURCE_DIR / "build" / "tests" / "syntax_verdict"),
                        help="with --corpus: the parse-only program (default build/tests/syntax_verdict)")
    options = parser.parse_args()
    if options.corpus:
        from corpus_benchmark import run_corpus
        return run_corpus(options)
    binary = str(Path(options.binary).resolve())
    jobs = str(options.jobs)

    ast_grep = find_ast_grep()
    ruff_wasm = NODE_MODULES / "@astral-sh" / "ruff-wasm-nodejs"
    node = shutil.which("node")
    have_ruff = node is not None and (ruff_wasm / "ruff_wasm.js").exists()
    clang_tidy = shutil.which("clang-tidy")

    scratch_dir = tempfile.mkdtemp(prefix="torchmigrate-peers-")
    scratch = Path(scratch_dir)
    root = options.keep.resolve() if options.keep else scratch
    root.mkdir(parents=True, exist_ok=True)
    try:
        python_dir, cxx_dir, python_files, cxx_paths = make_corpus(root, options.files, options.lines,
                                                                   options.cxx_files, options.seed)
        total_lines = sum(path.read_text().count("\n") for path in python_files)
        cxx_lines = sum(path.read_text().count("\n") for path in cxx_paths)
        file_list = scratch / "python-files.txt"
        file_list.write_text("".join(f"{path}\n" for path in python_files))
        cxx_list = scratch / "cxx-files.txt"
        cxx_list.write_text("".join(f"{path}\n" for path in cxx_paths))
        single = next(path for path in python_files if "torch.onnx.export(" in path.read_text())
        driver = scratch / "ruff_driver.js"
        driver.write_text(RUFF_DRIVER)
        single_list = scratch / "single.txt"
        single_list.write_text(f"{single}\n")

        def tm(*args):
            return [binary, "check", *map(str, args), "--select", "ALL", "--output-format", "json", "--exit-zero"]

        groups = {}  # title -> [torchmigrate run, peer runs...]
        python = [Run(f"torchmigrate -j{jobs}", tm(python_dir, "-j", jobs), count_json_array)]
        if ast_grep:
            python.append(Run(f"ast-grep scan -j{jobs}", [ast_grep, "scan", "-c", AST_GREP_RULES, "-j", jobs,
                                                       "--json=stream", python_dir], count_lines))
        groups["Python corpus, all threads"] = python
        one_thread = [Run("torchmigrate -j1", tm(python_dir, "-j", "1"), count_json_array)]
        if ast_grep:
            one_thread.append(Run("ast-grep scan -j1", [ast_grep, "scan", "-c", AST_GREP_RULES, "-j", "1",
                                                       "--json=stream", python_dir], count_lines))
        if have_ruff:
            one_thread += ruff_runs("Ruff WebAssembly in Node, default rules",
                                    [node, driver, ruff_wasm / "ruff_wasm.js", file_list])
        groups["Python corpus, one thread"] = one_thread
        cache_dir = scratch / "cache"
        groups["Python corpus, torchmigrate cache"] = [
            Run(f"torchmigrate -j{jobs} warm --cache-dir", tm(python_dir, "-j", jobs, "--cache-dir", cache_dir),
                count_json_array),
            Run(f"torchmigrate -j{jobs} (no cache)", tm(python_dir, "-j", jobs), count_json_array),
            # Cold: the cache is emptied first, so every run writes all of it (the `rm` is in the times).
            Run(f"torchmigrate -j{jobs} cold, writing --cache-dir",
                ["sh", "-c", 'rm -rf "$0" && exec "$@"', scratch / "cold-cache",
                 *tm(python_dir, "-j", jobs, "--cache-dir", scratch / "cold-cache")], count_json_array)]
        if ast_grep:
            groups["Python corpus, torchmigrate cache"].append(
                Run(f"ast-grep scan -j{jobs}", [ast_grep, "scan", "-c", AST_GREP_RULES, "-j", jobs,
                                                "--json=stream", python_dir], count_lines))
        cxx = [Run(f"torchmigrate -j{jobs} (C++ files)", tm(*cxx_paths, "-j", jobs), count_json_array)]
        if clang_tidy:
            cxx.append(Run(f"clang-tidy, {jobs} processes", ["xargs", "-P", jobs, "-n", "1", clang_tidy, "--quiet",
                                                            f"-checks={CLANG_TIDY_CHECKS}", "-p", cxx_dir],
                           count_clang_tidy, stdin=cxx_list))
        groups["C++ files"] = cxx
        single_runs = [Run("torchmigrate (one file)", tm(single), count_json_array)]
        if ast_grep:
            single_runs.append(Run("ast-grep scan (one file)", [ast_grep, "scan", "-c", AST_GREP_RULES,
                                                                "--json=stream", single], count_lines))
        if have_ruff:
            single_runs += ruff_runs("Ruff WebAssembly (one file)", [node, driver, ruff_wasm / "ruff_wasm.js", single_list])
        groups["Single file (pre-commit on one changed file)"] = single_runs
        ten = [path for path in python_files if "torch." in path.read_text()][:10]
        ten_runs = [Run("torchmigrate (ten files)", tm(*ten), count_json_array)]
        if ast_grep:
            ten_runs.append(Run("ast-grep scan (ten files)", [ast_grep, "scan", "-c", AST_GREP_RULES,
                                                              "--json=stream", *ten], count_lines))
        groups["Ten files (pre-commit on a small change)"] = ten_runs

        # Warm the page cache and the torchmigrate cache, and count what each tool finds.
        for runs in groups.values():
            for run in runs:
                if run not in [other.inner for other in runs]:
                    run.warm_up(scratch)
        tm_output = subprocess.run(tm(python_dir, "-j", jobs), capture_output=True, text=True, check=True).stdout
        comparable = torchmigrate_codes(tm_output, {"TM101", "TM201", "TM202", "TM302"})
        by_code = {}
        for finding in json.loads(tm_output):
            by_code[finding["code"]] = by_code.get(finding["code"], 0) + 1

        for title, runs in groups.items():
            repeat = options.single_repeat if title.startswith(("Single", "Ten")) else options.repeat
            for _ in range(repeat):
                for run in runs:  # interleaved, so load changes on the shared machine hit every tool alike
                    if run not in [other.inner for other in runs]:
                        run.measure(scratch)

        print(f"machine: {os.cpu_count()} cores, {platform.machine()}, {platform.system()} {platform.release()}; "
              f"--jobs {jobs}; medians of {options.repeat} runs ({options.single_repeat} for one and ten files)")
        print(f"torchmigrate: {tool_version([binary, '--version'])}")
        if ast_grep:
            print(f"ast-grep: {tool_version([ast_grep, '--version'])}")
        else:
            print("ast-grep: not installed (npm ci --ignore-scripts)")
        if have_ruff:
            version = json.loads((ruff_wasm / "package.json").read_text())["version"]
            print(f"Ruff: @astral-sh/ruff-wasm-nodejs {version} on Node {tool_version([node, '--version'])}")
        else:
            print("Ruff: not installed (npm ci --ignore-scripts; needs node)")
        print(f"clang-tidy: {tool_version([clang_tidy, '--version']) if clang_tidy else 'not installed'}")
        print("TorchFix: not measured (published on PyPI only, which this setup cannot reach)")
        print(f"corpus: {len(python_files)} Python files, {total_lines} lines; {len(cxx_paths)} C++ files, "
              f"{cxx_lines} lines")
        print(f"torchmigrate findings on the Python corpus by rule: "
              f"{', '.join(f'{code} {n}' for code, n in sorted(by_code.items()))}; "
              f"{comparable} of them are TM101/TM201/TM202/TM302, the rules the ast-grep set mirrors")
        for title, runs in groups.items():
            print(f"\n{title}")
            print(f"  {'':<44} {'wall ms':>9} {'CPU ms':>9} {'RSS MiB':>8} {'findings':>9}")
            for run in runs:
                print(run.row())
            base = runs[0]
            for peer in runs[1:]:
                print(f"  ratio {base.name} / {peer.name}: "
                      f"wall {ratio(statistics.median(base.wall), statistics.median(peer.wall)):.2f}, "
                      f"CPU {ratio(statistics.median(base.cpu), statistics.median(peer.cpu)):.2f}, "
                      f"peak RSS {ratio(max(base.rss), max(peer.rss)):.2f}")
            cold = next((run for run in runs if "cold" in run.name), None)
            if cold:  # what writing the cache adds to a run without one
                print(f"  ratio {cold.name} / {runs[1].name}: "
                      f"wall {ratio(statistics.median(cold.wall), statistics.median(runs[1].wall)):.2f}, "
                      f"CPU {ratio(statistics.median(cold.cpu), statistics.median(runs[1].cpu)):.2f}")
    finally:
        shutil.rmtree(scratch_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
