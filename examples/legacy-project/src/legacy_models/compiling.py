"""torch.compile and AOTInductor settings for the serving build."""
import torch
import torch._inductor.config

# Debuggable wrapper code for AOTInductor packages.
torch._inductor.config.aot_inductor.compile_wrapper_with_O0 = True
# int8-weight GEMMs on A100.
torch._inductor.config.use_mixed_mm = True


def compile_model(model, mode="max-autotune"):
    return torch.compile(model, mode=mode, dynamic=False)


def compile_aot(model, args, package_path):
    program = torch.export.export(model, args)
    return torch._inductor.aoti_compile_and_package(program, package_path=package_path)
