// SPDX-License-Identifier: MIT
// The Dynamo backends a project registers: Python registrations and packaging entry points.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "torchmigrate/engine/workspace/dynamo_backend_facts.hpp"

using namespace torchmigrate::engine;

namespace {

std::vector<std::string> from_python(const char* source) {
  std::vector<std::string> out;
  python_dynamo_backends(source, out);
  return out;
}

std::vector<std::string> from_packaging(const char* text) {
  std::vector<std::string> out;
  entry_point_dynamo_backends(text, out);
  return out;
}

}  // namespace

TEST_CASE("register_backend calls and decorators name the backends a file registers") {
  CHECK(from_python("from torch._dynamo import register_backend\nregister_backend(fn, name=\"onnxrt\")\n") ==
        std::vector<std::string>{"onnxrt"});
  CHECK(from_python("import torch\n@torch._dynamo.register_backend\ndef my_backend(gm, inputs):\n    return gm\n") ==
        std::vector<std::string>{"my_backend"});
  CHECK(from_python("from torch._dynamo.backends.registry import register_backend as rb\n"
                    "@rb(name='ort')\ndef f(gm, inputs):\n    return gm\n") == std::vector<std::string>{"ort"});
  // The project's own function of the same name registers nothing with torch.
  CHECK(from_python("def register_backend(fn, name):\n    pass\nregister_backend(f, name=\"onnxrt\")\n").empty());
}

TEST_CASE("torch_dynamo_backends entry points in pyproject.toml, setup.cfg and setup.py") {
  CHECK(from_packaging("[project.entry-points.torch_dynamo_backends]\nonnxrt = \"pkg.backend:fn\"\n\n"
                       "[project.scripts]\ntool = \"pkg.cli:main\"\n") == std::vector<std::string>{"onnxrt"});
  CHECK(from_packaging("[options.entry_points]\ntorch_dynamo_backends =\n    onnxrt = pkg.backend:fn\n") ==
        std::vector<std::string>{"onnxrt"});
  CHECK(from_packaging("setup(entry_points={\"torch_dynamo_backends\": [\"onnxrt = pkg.backend:fn\"], "
                       "\"console_scripts\": [\"tool = pkg.cli:main\"]})\n") == std::vector<std::string>{"onnxrt"});
  CHECK(from_packaging("[project.scripts]\ntool = \"pkg.cli:main\"\n").empty());
}
