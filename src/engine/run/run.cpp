// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/run/run.hpp"

#include "torchmigrate/engine/run/result_cache.hpp"

namespace torchmigrate::engine {

Run::Run(Workspace& workspace, RunOptions options, Discovery& discovery)
    : workspace_(workspace), options_(std::move(options)), discovery_(discovery) {}

Run::~Run() {
  forget_walk();
  streamed_.reset();
}

void Run::forget_walk() {
  if (walk_adopted_) workspace_.forget_walk();
  walk_adopted_ = false;
}

Discovery& Run::walk(const std::vector<std::string>& paths, const buildfiles::ExtraExtensions& build_extensions) {
  DiscoveryFilter filter = workspace_.filter(options_.force_exclude);
  auto linter_for = [this](const DiscoveredFile& file) -> const Linter& { return workspace_.linter_for(file); };
  if (options_.streamed) {
    workspace_.begin_walk();
    walk_adopted_ = true;  // a walk that throws must still wake whoever waits for it
    streamed_ = std::make_unique<StreamedSession>(options_.jobs, options_.cache, options_.on_file, options_.kept);
    // Each file's linter is resolved on the walking thread: a bad configuration stops the walk.
    filter.found = [&](const DiscoveredFile& file, std::string_view real_path) {
      streamed_->add(file, real_path, linter_for);
    };
  }
  discovery_ = discover(paths, build_extensions, &filter);
  if (options_.adopt_walk) {
    workspace_.adopt_walk(paths, discovery_.files);
    walk_adopted_ = true;
  }
  return discovery_;
}

void Run::use_file(DiscoveredFile file) { discovery_.files.push_back(std::move(file)); }

void Run::resolve_linters() {
  if (options_.streamed) return;
  linters_.clear();
  linters_.reserve(discovery_.files.size());
  for (const DiscoveredFile& file : discovery_.files) linters_.push_back(&workspace_.linter_for(file));
}

std::vector<FileOutcome> Run::check() {
  std::vector<FileOutcome> outcomes;
  if (streamed_) {
    outcomes = streamed_->finish(
        discovery_.files, [this](const DiscoveredFile& file) -> const Linter& { return workspace_.linter_for(file); });
  } else {
    if (linters_.size() != discovery_.files.size()) resolve_linters();
    outcomes = run_session(linters_, discovery_.files, options_.mode, options_.jobs, options_.cache,
                           options_.follow_links, options_.on_file, options_.kept);
  }
  // One write for the whole run.
  if (options_.cache != nullptr) options_.cache->save();
  return outcomes;
}

}  // namespace torchmigrate::engine
