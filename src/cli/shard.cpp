// SPDX-License-Identifier: MIT
#include "torchmigrate/cli/shard.hpp"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <stdexcept>
#include <system_error>

namespace torchmigrate::cli {

namespace {

unsigned parse_number(std::string_view text) {
  unsigned value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw std::invalid_argument("");
  }
  return value;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  std::string usage = "--shard takes K/N with 1 <= K <= N (e.g. 2/7, or \"$CI_NODE_INDEX/$CI_NODE_TOTAL\"), not `" +
                      text + "`";
  size_t slash = text.find('/');
  if (slash == std::string::npos) throw std::invalid_argument(usage);
  Shard shard;
  try {
    shard.index = parse_number(std::string_view(text).substr(0, slash));
    shard.total = parse_number(std::string_view(text).substr(slash + 1));
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(usage);
  }
  if (shard.total == 0 || shard.index == 0 || shard.index > shard.total) throw std::invalid_argument(usage);
  return shard;
}

std::vector<engine::DiscoveredFile> files_of_shard(const std::vector<engine::DiscoveredFile>& files, Shard shard) {
  if (shard.total <= 1) return files;
  std::vector<uintmax_t> sizes(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    std::error_code error;
    uintmax_t size = std::filesystem::file_size(files[i].path, error);
    sizes[i] = error ? 0 : size;
  }
  std::vector<size_t> order(files.size());
  std::iota(order.begin(), order.end(), 0);
  // Largest first; equal sizes in path order, so the deal never depends on the discovery order.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sizes[a] != sizes[b]) return sizes[a] > sizes[b];
    return files[a].path < files[b].path;
  });
  std::vector<uintmax_t> load(shard.total, 0);
  std::vector<bool> mine(files.size(), false);
  for (size_t i : order) {
    auto lightest = static_cast<unsigned>(std::min_element(load.begin(), load.end()) - load.begin());
    // Every file costs at least one unit, so empty files are dealt round the shards too.
    load[lightest] += std::max<uintmax_t>(sizes[i], 1);
    mine[i] = lightest + 1 == shard.index;
  }
  std::vector<engine::DiscoveredFile> selected;
  for (size_t i = 0; i < files.size(); ++i) {
    if (mine[i]) selected.push_back(files[i]);
  }
  return selected;
}

}  // namespace torchmigrate::cli
