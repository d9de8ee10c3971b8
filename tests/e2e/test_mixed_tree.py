# SPDX-License-Identifier: MIT
"""End-to-end test of `torchmigrate check` on a mixed tree (the example project: Python, a C++/CUDA
extension, a Dockerfile, requirements, CMake and CI files): one sorted report and one exit code for
all three fronts, the expected C++ and build-file findings, `--fix` applying the safe ones, and the
same TM151 findings with and without a compile database whose include directories do not exist."""
import collections
import json
import re
import unittest

from tm_e2e import EXAMPLE, TempTree, run

CONCISE_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>TM\d{3}) (?P<fix>\[\*\] )?(?P<msg>.+)$")

# Every finding the example project must produce: (file, code, the flagged line stripped, lines below
# it). Anything else in the report is a false alarm on a look-alike.
EXPECTED = [
    (".github/workflows/ci.yml", "TM404", 'AOT_INDUCTOR_COMPILE_WRAPPER_WITH_O0: "1"', 0),
    ("CMakeLists.txt", "TM403", "target_link_libraries(legacy_ops PRIVATE ${TORCH_LIBRARIES} CUDA::nvtx3)", 0),
    ("Dockerfile", "TM401", 'ENV TORCH_CUDA_ARCH_LIST="6.1;7.0;7.5;8.0;8.6+PTX"', 0),
    ("Dockerfile", "TM404", "ENV AOT_INDUCTOR_COMPILE_WRAPPER_WITH_O0=1", 0),
    ("Dockerfile", "TM401", 'RUN TORCH_CUDA_ARCH_LIST="Pascal" pip wheel --no-deps --no-build-isolation -w /wheels/lab .', 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "DLContext capture_context(const torch::Tensor& frame) {", 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "DLContext ctx;", 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "ctx.device_type = kDLGPU;", 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "ctx.device_type = frame.is_pinned() ? kDLCPUPinned : kDLCPU;", 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "std::string device_name(const DLContext& ctx) {", 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "case kDLGPU:", 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "case kDLCPUPinned:", 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "const DLContext ctx = capture_context(frame);", 0),
    ("csrc/dlpack_bridge.cpp", "TM151", "if (ctx.device_type == kDLGPU) ++frames_kDLGPU_total;", 0),
    ("csrc/ops.cpp", "TM152", "TORCH_LIBRARY(legacy_ops, m) {", 0),
    ("requirements.txt", "TM402", "onnxscript==0.2.5", 0),
    ("setup.py", "TM402", '"onnxscript>=0.2",', 0),
    ("src/legacy_models/compiling.py", "TM103", "torch._inductor.config.aot_inductor.compile_wrapper_with_O0 = True", 0),
    ("src/legacy_models/compiling.py", "TM205", "torch._inductor.config.use_mixed_mm = True", 0),
    ("src/legacy_models/compiling.py", "TM205",
     "torch._dynamo.config.enable_cpp_framelocals_guard_eval = True  # faster guard checks", 0),
    ("src/legacy_models/compiling.py", "TM204", "torch._dynamo.mark_dynamic(example_batch, 0)", 0),
    ("src/legacy_models/compiling.py", "TM201", "program = torch.export.export(model, args)", 0),
    ("src/legacy_models/exporting.py", "TM101", "from torch.export import Dim, export_for_inference as efi", 0),
    ("src/legacy_models/exporting.py", "TM201", "return torch.export.export(model, args)", 0),
    ("src/legacy_models/exporting.py", "TM201",
     "return te.export_for_training(model, args, dynamic_shapes=dynamic_shapes)", 0),
    ("src/legacy_models/exporting.py", "TM101", "return efi(model, args)", 0),
    ("src/legacy_models/exporting.py", "TM101",
     "return te.export_for_inference(model, args, decomp_table=decomp_table)", 0),
    ("src/legacy_models/models.py", "TM102",
     "from torch.fx.experimental.symbolic_shapes import definitely_false, definitely_true", 0),
    ("src/legacy_models/models.py", "TM102", "if definitely_false(x.shape[-1] == expected):", 0),
    ("src/legacy_models/models.py", "TM102", "return definitely_true(x.shape[0] == 1)", 0),
    ("src/legacy_models/models.py", "TM106", "def _unchanged(logits):", 1),
    ("src/legacy_models/onnx_export.py", "TM202", "torch.onnx.export(", 0),
    ("src/legacy_models/onnx_export.py", "TM302", "torch.onnx.export(", 0),
    ("src/legacy_models/onnx_export.py", "TM303", "program = torch.onnx.dynamo_export(model, *args)", 0),
    ("src/legacy_models/ops.py", "TM203",
     "if type(e) is RuntimeError:  # the fused kernel has no path for this dtype", 0),
    ("src/legacy_models/ops.py", "TM107", "ctx.mark_dirty(x)", 0),
    ("src/legacy_models/quantization.py", "TM301", "from torch.ao.quantization import quantize_dynamic", 0),
]
CXX_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh")
OLD_DLPACK_NAMES = re.compile(r"\b(kDLGPU|kDLCPUPinned|DLContext)\b")


def front(path):
    if path.endswith((".py", ".pyi")):
        return "python"
    return "cxx" if path.endswith(CXX_SUFFIXES) else "build"


class MixedTree(unittest.TestCase):
    def setUp(self):
        self.tree = TempTree(EXAMPLE)
        self.addCleanup(self.tree.cleanup)

    def line_of(self, relative, stripped, below=0):
        """1-based number of the one line of `relative` that reads `stripped` (plus `below`)."""
        lines = (self.tree.project / relative).read_text().splitlines()
        numbers = [n for n, line in enumerate(lines, 1) if line.strip() == stripped]
        self.assertEqual(len(numbers), 1, f"{relative}: {stripped!r} must occur exactly once")
        return numbers[0] + below

    def expected(self):
        """Counter of (path as reported, line, code) for EXPECTED."""
        return collections.Counter((f"project/{relative}", self.line_of(relative, stripped, below), code)
                                   for relative, code, stripped, below in EXPECTED)

    def expected_tm151(self):
        """(line, col) of every old DLPack name in code (the first on each expected line)."""
        text = (self.tree.project / "csrc/dlpack_bridge.cpp").read_text().splitlines()
        spots = set()
        for relative, code, stripped, below in EXPECTED:
            if code == "TM151":
                line = self.line_of(relative, stripped, below)
                spots.add((line, OLD_DLPACK_NAMES.search(text[line - 1]).start() + 1))
        return spots

    def json_findings(self, *args):
        return json.loads(run("check", "project", "--output-format", "json", *args, cwd=self.tree.root).stdout)

    def test_one_sorted_report_for_all_fronts(self):
        result = run("check", "project", cwd=self.tree.root, check_exit=1)
        matches = [CONCISE_LINE.match(line) for line in result.stdout.splitlines()]
        findings = [m for m in matches if m]
        keys = [(m["path"], int(m["line"]), int(m["col"])) for m in findings]
        self.assertEqual(keys, sorted(keys))
        self.assertEqual({front(m["path"]) for m in findings}, {"python", "cxx", "build"})
        self.assertEqual(collections.Counter((m["path"], int(m["line"]), m["code"]) for m in findings),
                         self.expected())
        summary = re.search(rf"^Found {len(findings)} findings \((.*)\)\.$", result.stdout, re.MULTILINE)
        self.assertIsNotNone(summary, result.stdout)
        self.assertEqual(sum(int(part.split()[0]) for part in summary[1].split(", ")), len(findings))
        tm151 = {(int(m["line"]), int(m["col"])) for m in findings if m["code"] == "TM151"}
        self.assertEqual(tm151, self.expected_tm151())

    def test_a_later_target_adds_the_later_release_s_rules(self):
        # The Python DLPack rename shipped in torch 2.9: a project upgrading to 2.8 is not told.
        line = self.line_of("src/legacy_models/ops.py", "if device_type == DLDeviceType.kDLGPU:")
        at = lambda *args: {(f["filename"], f["location"]["row"]) for f in self.json_findings(*args) if f["code"] == "TM109"}
        self.assertEqual(at(), set())
        self.assertEqual(at("--target-version", "2.9"), {("project/src/legacy_models/ops.py", line)})

    def test_json_reports_the_cxx_and_build_rules(self):
        findings = self.json_findings()
        by_code = collections.defaultdict(list)
        for finding in findings:
            by_code[finding["code"]].append(finding)
        expected_counts = {"TM151": 9, "TM152": 1, "TM401": 2, "TM402": 2, "TM403": 1, "TM404": 2}
        self.assertEqual({code: len(by_code[code]) for code in expected_counts}, expected_counts)

        def applicability(finding):
            return finding["fix"]["applicability"] if finding["fix"] else None

        for code, severity, fix in (("TM151", "error", "safe"), ("TM152", "error", "safe"),
                                    ("TM401", "warning", None), ("TM402", "error", "unsafe"),
                                    ("TM403", "warning", None), ("TM404", "warning", "unsafe")):
            for finding in by_code[code]:
                self.assertEqual((finding["severity"], applicability(finding)), (severity, fix),
                                 f"{code} at {finding['filename']}:{finding['location']['row']}")
        self.assertEqual({f["filename"] for f in by_code["TM151"]}, {"project/csrc/dlpack_bridge.cpp"})
        self.assertEqual({(f["filename"], f["location"]["row"]) for f in by_code["TM152"]},
                         {("project/csrc/ops.cpp", self.line_of("csrc/ops.cpp", "TORCH_LIBRARY(legacy_ops, m) {"))})
        self.assertEqual(by_code["TM152"][0]["fix"]["edits"][0]["content"], "\n#include <torch/library.h>")
        self.assertEqual(sorted(f["filename"] for f in by_code["TM402"]),
                         ["project/requirements.txt", "project/setup.py"])
        # TM401 names exactly the dropped entries of each list.
        tm401 = [f["message"] for f in by_code["TM401"]]
        self.assertEqual(sorted(re.search(r"lists (.+?): ", message)[1] for message in tm401), ["`6.1`", "`Pascal`"])
        self.assertEqual({f["filename"] for f in by_code["TM403"]}, {"project/CMakeLists.txt"})
        self.assertEqual({f["filename"] for f in by_code["TM404"]},
                         {"project/Dockerfile", "project/.github/workflows/ci.yml"})

    def test_fix_applies_the_safe_fixes_and_leaves_the_rest(self):
        project = self.tree.project
        untouched = ("requirements.txt", "setup.py", "CMakeLists.txt", "pyproject.toml", "csrc/legacy_ops.h",
                     "csrc/bias_gelu_kernel.cu", "src/legacy_models/quantization.py")
        before = {name: (project / name).read_bytes() for name in untouched}
        run("check", "project", "--fix", cwd=self.tree.root, check_exit=1)

        bridge = (project / "csrc/dlpack_bridge.cpp").read_text()
        self.assertIn("ctx.device_type = kDLCUDA;", bridge)
        self.assertIn("frame.is_pinned() ? kDLCUDAHost : kDLCPU", bridge)
        self.assertIn("DLDevice capture_context(const torch::Tensor& frame) {", bridge)
        self.assertIn("if (ctx.device_type == kDLCUDA) ++frames_kDLGPU_total;", bridge)
        # Comments, strings and longer identifiers keep the old names.
        self.assertIn('"the capture service takes kDLGPU or kDLCPUPinned memory, got "', bridge)
        self.assertIn("// describe a DLContext.", bridge)
        self.assertEqual(bridge.count("frames_kDLGPU_total"), 4)
        ops = (project / "csrc/ops.cpp").read_text()
        self.assertIn("#include <torch/types.h>\n#include <torch/library.h>\n\n#include <cmath>\n", ops)
        dockerfile = (project / "Dockerfile").read_text()
        # The project still supports 2.7, which ignores the new variable: the rename is unsafe.
        self.assertIn("ENV AOT_INDUCTOR_COMPILE_WRAPPER_WITH_O0", dockerfile)
        self.assertIn('ENV TORCH_CUDA_ARCH_LIST="6.1;7.0;7.5;8.0;8.6+PTX"', dockerfile)  # TM401 has no fix
        self.assertIn("set AOT_INDUCTOR_COMPILE_WRAPPER_WITH_O0 only to debug", dockerfile)  # a label's prose
        ci = (project / ".github/workflows/ci.yml").read_text()
        self.assertNotIn("AOT_INDUCTOR_COMPILE_WRAPPER_OPT_LEVEL", ci)
        ops_py = (project / "src/legacy_models/ops.py").read_text()
        self.assertIn("if device_type == DLDeviceType.kDLGPU:", ops_py)  # a 2.9 rename; the target is 2.8
        self.assertIn("return _C.export_frame(frame), CaptureMemory.kDLGPU", ops_py)
        # TM203's isinstance rewrite is unsafe (it also matches RuntimeError subclasses): left as is.
        self.assertIn("type(e) is RuntimeError", ops_py)
        self.assertEqual(before, {name: (project / name).read_bytes() for name in untouched})

        # Nothing safe-fixable remains; the unsafe and unfixable findings of all fronts do.
        remaining = self.json_findings()
        self.assertFalse([f for f in remaining if f["fix"] and f["fix"]["applicability"] == "safe"])
        self.assertTrue({"TM401", "TM402", "TM403", "TM102", "TM203", "TM301"} <= {f["code"] for f in remaining})
        self.assertFalse({"TM151", "TM152"} & {f["code"] for f in remaining})
        snapshot = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
        run("check", "project", "--fix", cwd=self.tree.root, check_exit=1)
        self.assertEqual(snapshot, {p: p.read_bytes() for p in project.rglob("*") if p.is_file()})

    def test_compile_database_gives_the_same_tm151_findings(self):
        project = self.tree.project.resolve()
        # Without -p the database is searched upwards (DIR and DIR/build): none may be found there.
        found = [d for d in project.parents for name in ("compile_commands.json", "build/compile_commands.json")
                 if (d / name).exists()]
        if found:
            self.skipTest(f"a compile database above the temporary tree would be used: {found}")
        absent = self.tree.root.resolve() / "absent"
        entries = []
        for source in ("csrc/dlpack_bridge.cpp", "csrc/ops.cpp"):
            entries.append({
                "directory": str(project),
                "file": str(project / source),
                "arguments": ["c++", "-std=c++17", "-I", str(absent / "torch/include"),
                              f"-I{absent / 'torch/include/torch/csrc/api/include'}", "-isystem",
                              str(absent / "python3/include"), "-DTORCH_EXTENSION_NAME=_C", "-c", str(project / source)],
            })
        self.assertFalse(absent.exists())
        self.tree.write("compile-db/compile_commands.json", json.dumps(entries, indent=2))

        def cxx_findings(*args):
            return {(f["filename"], f["location"]["row"], f["location"]["column"], f["code"])
                    for f in self.json_findings("--select", "TM151,TM152", *args)}

        without = cxx_findings()
        with_database = cxx_findings("-p", "compile-db")
        self.assertEqual(without, with_database)
        expected = {("project/csrc/dlpack_bridge.cpp", line, col, "TM151") for line, col in self.expected_tm151()}
        self.assertEqual({f for f in without if f[3] == "TM151"}, expected)
        self.assertIn("TM152", {f[3] for f in with_database})


if __name__ == "__main__":
    unittest.main()
