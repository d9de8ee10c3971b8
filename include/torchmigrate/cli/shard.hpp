// SPDX-License-Identifier: MIT
// `--shard K/N`: one CI job's share of a repository too large for one job. Every job discovers
// the same files and splits them the same way, by size, so the shards are disjoint, together
// cover every file, and take about the same time.
#pragma once

#include <string>
#include <vector>

#include "torchmigrate/engine/workspace/discovery.hpp"

namespace torchmigrate::cli {

struct Shard {
  unsigned index = 1;  // 1-based, as GitLab's CI_NODE_INDEX
  unsigned total = 1;
};

// "2/7"; throws std::invalid_argument naming the expected form.
Shard parse_shard(const std::string& text);

// The files of `shard`, in their original order. Files are dealt largest first to the shard with
// the fewest bytes so far (ties to the lower index), which depends only on the file list.
std::vector<engine::DiscoveredFile> files_of_shard(const std::vector<engine::DiscoveredFile>& files, Shard shard);

}  // namespace torchmigrate::cli
