// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/workspace/fact_memo.hpp"

#include <algorithm>
#include <string_view>

#include "torchmigrate/engine/run/content_hash.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"

namespace torchmigrate::engine {

InputsSignature inputs_signature(const std::vector<DiscoveredFile>& listed,
                                 const std::vector<std::string>& extra_paths) {
  std::vector<std::string_view> paths;
  paths.reserve(listed.size() + extra_paths.size() + 1);
  for (const DiscoveredFile& file : listed) paths.push_back(file.path);
  // A separator the listing cannot contain: moving a path between the two lists changes the hash.
  paths.push_back(std::string_view("\0listed\0", 8));
  for (const std::string& path : extra_paths) paths.push_back(path);
  std::sort(paths.begin(), paths.end() - static_cast<std::ptrdiff_t>(extra_paths.size()) - 1);

  InputsSignature signature;
  std::string material;
  material.reserve(paths.size() * 80);
  for (std::string_view path : paths) {
    material.append(path);
    material.push_back('\0');
    if (path.empty() || path.front() == '\0') continue;
    std::optional<FileStamp> stamp = stamp_file(std::string(path).c_str());
    if (!stamp) {
      material.append("-\n");
      continue;
    }
    for (uint64_t value : {stamp->device, stamp->inode, stamp->size, static_cast<uint64_t>(stamp->mtime_ns),
                           static_cast<uint64_t>(stamp->ctime_ns)}) {
      material.append(std::to_string(value));
      material.push_back(' ');
    }
    material.push_back('\n');
    signature.newest_ns = std::max({signature.newest_ns, stamp->mtime_ns, stamp->ctime_ns});
  }
  signature.hash = cache_hash({material});
  return signature;
}

}  // namespace torchmigrate::engine
