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

}  // namespace torchmigrate::checks
