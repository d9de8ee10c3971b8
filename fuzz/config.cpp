// SPDX-License-Identifier: MIT
// The TOML configuration loader (src/engine/workspace/config.cpp): the first byte picks the file name
// (torchmigrate.toml, .torchmigrate.toml or pyproject.toml), the rest is the file. Any input
// either resolves to a configuration or is refused with a ConfigError (exit 2 in the CLI);
// every other exception, or a crash, is a bug. A resolved configuration is then queried the way
// a run queries it.
#include <string>

#include "fuzz_target.hpp"
#include "scratch_dir.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/workspace/config.hpp"

using namespace torchmigrate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kNames[] = {"torchmigrate.toml", ".torchmigrate.toml", "pyproject.toml"};
  const std::filesystem::path directory = fuzz::scratch_dir() / "project";
  std::filesystem::create_directories(directory);
  const std::filesystem::path path = directory / kNames[data[0] % 3];
  fuzz::write_file(path, fuzz::bytes(data + 1, size - 1));
  try {
    engine::ConfigResolver resolver(engine::Catalog::builtin(), {}, path, false);
    const engine::ResolvedConfig& config = resolver.for_path(directory / "src" / "model.py");
    for (const char* file : {"src/model.py", "build/CMakeLists.txt", "notebooks/a.ipynb", "x.cu", "Dockerfile"}) {
      const std::filesystem::path checked = directory / file;
      (void)config.excluded(checked);
      (void)config.ignored_for(checked);
      (void)config.language_for(checked);
    }
    for (const engine::RuleSpec& rule : engine::Catalog::builtin().rules()) (void)config.settings.selection.enabled(rule);
  } catch (const engine::ConfigError&) {
    // A refused configuration: what the loader promises for bad input.
  }
  std::error_code error;
  std::filesystem::remove(path, error);
  return 0;
}
