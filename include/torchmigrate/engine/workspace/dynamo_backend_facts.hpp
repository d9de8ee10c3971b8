// SPDX-License-Identifier: MIT
// The names a project registers Dynamo backends under (facts::dynamo_backends): a backend it
// registers itself may be used by name in any of its files, even one torch no longer ships.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/engine/workspace/project_facts.hpp"

namespace torchmigrate::engine {

// The names a project registers are gathered with the other facts of its Python sources
// (python_source_facts.hpp), from these two pieces. A Python source's `register_backend(..., name="x")` calls and
// `@register_backend` functions (names resolved through its imports); a packaging text's entries
// of the `torch_dynamo_backends` entry-point group (`x = "pkg.module:fn"`, `x = pkg.module:fn`).
void python_dynamo_backends(std::string_view python_source, std::vector<std::string>& out);
void entry_point_dynamo_backends(std::string_view packaging_text, std::vector<std::string>& out);

}  // namespace torchmigrate::engine
