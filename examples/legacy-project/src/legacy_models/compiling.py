"""torch.compile and AOTInductor settings for the serving build."""
import torch
import torch._inductor.config

# Debuggable wrapper code for AOTInductor packages.
torch._inductor.config.aot_inductor.compile_wrapper_with_O0 = True
# int8-weight GEMMs on A100.
torch._inductor.config.use_mixed_mm = True
torch._dynamo.config.enable_cpp_framelocals_guard_eval = True  # faster guard checks


def compile_model(model, example_batch, mode="max-autotune"):
    """Compiles once for every batch size the server sees (dimension 0 varies)."""
    torch._dynamo.mark_dynamic(example_batch, 0)
    compiled = torch.compile(model, mode=mode)
    compiled(example_batch)
    return compiled


def compile_aot(model, args, package_path):
    program = torch.export.export(model, args)
    return torch._inductor.aoti_compile_and_package(program, package_path=package_path)
