// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/content_hash.hpp"

#include <git2.h>

#include <mutex>

namespace torchmigrate::engine {

std::string content_hash(std::string_view data) {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
  git_oid oid;
  git_odb_hash(&oid, data.data(), data.size(), GIT_OBJECT_BLOB);
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, &oid);
  return hex;
}

}  // namespace torchmigrate::engine
