"""Builds legacy_models with its C++/CUDA extension (legacy_models._C).

Build without isolation so the extension compiles against the installed torch:
    pip install --no-build-isolation .
"""
import os

from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

SOURCES = ["csrc/ops.cpp", "csrc/dlpack_bridge.cpp"]
WITH_CUDA = os.environ.get("LEGACY_MODELS_CUDA", "1") == "1"

if WITH_CUDA:
    extension = CUDAExtension(
        "legacy_models._C",
        SOURCES + ["csrc/bias_gelu_kernel.cu"],
        extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math"]},
    )
else:
    extension = CppExtension("legacy_models._C", SOURCES, extra_compile_args=["-O3"])

setup(
    packages=find_packages("src"),
    package_dir={"": "src"},
    ext_modules=[extension],
    cmdclass={"build_ext": BuildExtension},
    install_requires=[
        "torch>=2.7,<2.8",
        "onnxscript>=0.2",
        "onnx>=1.16",
    ],
)
