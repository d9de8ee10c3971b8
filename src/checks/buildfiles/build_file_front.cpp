// SPDX-License-Identifier: MIT
// The build front as the checks see it: one BuildFile per linted file, shared by the checks.
#include "torchmigrate/checks/build_checks.hpp"

namespace torchmigrate::checks {

const buildfiles::BuildFile& build_file(engine::FileCheckContext& context) {
  return context.shared<buildfiles::BuildFile>([&] {
    buildfiles::FileKind kind = buildfiles::kind_for(context.file().path(), context.settings().build_extensions);
    return buildfiles::BuildFile::read(context.file().text(), kind);
  });
}

std::vector<buildfiles::Assignment> find_assignments(engine::FileCheckContext& context,
                                                     const std::vector<std::string>& names) {
  const buildfiles::BuildFile& file = build_file(context);
  if (file.kind == buildfiles::FileKind::SetupPy) return setup_py_assignments(context, names);
  return buildfiles::find_assignments(file, names);
}

}  // namespace torchmigrate::checks
