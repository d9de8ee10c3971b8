// SPDX-License-Identifier: MIT
#include "torchmigrate/python/star_exports.hpp"

#include <algorithm>

namespace torchmigrate::python {

std::vector<std::string_view> star_import_names(std::string_view module) {
  std::span<const StarExports> table = torch_star_exports();
  auto found = std::lower_bound(table.begin(), table.end(), module,
                                [](const StarExports& entry, std::string_view name) { return entry.module < name; });
  std::vector<std::string_view> names;
  if (found == table.end() || found->module != module) return names;
  std::string_view rest = found->names;
  for (size_t start = rest.find_first_not_of(' '); start != std::string_view::npos;) {
    size_t end = rest.find(' ', start);
    names.push_back(rest.substr(start, end - start));
    start = rest.find_first_not_of(' ', end);
  }
  return names;
}

}  // namespace torchmigrate::python
