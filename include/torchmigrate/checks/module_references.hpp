// SPDX-License-Identifier: MIT
// Helpers for rules about a whole torch module (`torch.ao.quantization`, `torch.backends.mps`):
// which names an import statement brings in from under it, and which attribute chains are
// use sites of it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/python/semantic_model.hpp"

namespace torchmigrate::checks {

// True when `qualified` is `prefix` itself or a name inside it (`a.b` is under `a`, `ab` is not).
bool is_under(std::string_view qualified, std::string_view prefix);

struct ImportedName {
  python::Node item;       // dotted_name, aliased_import or wildcard_import inside the statement
  std::string qualified;   // what it imports: `torch.ao.quantization.quantize_dynamic`
};

// The names an `import` / `from ... import` statement takes from under any of `prefixes`.
// `from torch.ao.quantization import *` yields one entry naming the module itself.
std::vector<ImportedName> imports_under(python::Node statement, const std::vector<std::string>& prefixes);

// True for the attribute that ends a chain (`a.b.c` in `a.b.c(x)`), not for `a.b` inside it.
// Given its `parent` (a visited node's is the context's), it does not look it up.
bool is_outermost_attribute(python::Node attribute);
bool is_outermost_attribute(python::Node attribute, python::Node parent);

// An identifier that refers to something (not an attribute name, keyword name or import part).
bool is_reference_identifier(python::Node identifier);
bool is_reference_identifier(python::Node identifier, python::Node parent);

}  // namespace torchmigrate::checks
