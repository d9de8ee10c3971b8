// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/build_checks.hpp"

namespace torchmigrate::checks {

bool sets_run_environment(buildfiles::FileKind kind) {
  switch (kind) {
    case buildfiles::FileKind::Dockerfile:
    case buildfiles::FileKind::Shell:
    case buildfiles::FileKind::Yaml:
    case buildfiles::FileKind::CondaEnvironment:
    case buildfiles::FileKind::DotEnv:
    case buildfiles::FileKind::Makefile:
    case buildfiles::FileKind::Batch:
    case buildfiles::FileKind::Singularity: return true;
    default: return false;
  }
}

}  // namespace torchmigrate::checks
