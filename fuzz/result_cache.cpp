// SPDX-License-Identifier: MIT
// The result cache reader (src/engine/result_cache.cpp). The input is a mode byte, the checked
// file's text, a NUL byte, then what the cache entry holds:
//   - mode with low bit 0: the entry's bytes as stored, header line included (almost always
//     refused by the checksum: the header parser is the target);
//   - mode with low bit 1: the entry's `diagnostics` array; the target wraps it in an entry that is valid for
//     this build, these settings and this text (the real header, checksum and keys, taken from an
//     entry the cache itself wrote), so the per-finding validation is what gets fuzzed.
// A loaded entry must only hold findings the linter could have made: known codes, ranges and
// edits inside the text.
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz_target.hpp"
#include "scratch_dir.hpp"
#include "torchmigrate/engine/catalog.hpp"
#include "torchmigrate/engine/content_hash.hpp"
#include "torchmigrate/engine/result_cache.hpp"

using namespace torchmigrate;

namespace {

constexpr std::string_view kPath = "src/model.py";

struct Template {
  engine::ResultCache cache;
  std::string header_prefix;  // the header line up to its checksum
  std::string before;         // the payload up to the diagnostics array
  std::string after;          // the payload after it
};

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// An entry written by the cache, split around its diagnostics array, for any text's key.
const Template& entry_template() {
  static const Template made = [] {
    std::string problem;
    std::optional<engine::ResultCache> cache =
        engine::ResultCache::open(fuzz::scratch_dir() / "cache", std::nullopt, problem);
    FUZZ_REQUIRE(cache.has_value());
    const std::string key = engine::ResultCache::key(kPath, "", engine::Settings{});
    cache->store(key, kPath, engine::Settings{}, {});
    std::string stored;
    for (const auto& file : std::filesystem::recursive_directory_iterator(cache->directory())) {
      if (file.path().extension() == ".json") stored = read_all(file.path());
    }
    const size_t newline = stored.find('\n');
    FUZZ_REQUIRE(newline != std::string::npos);
    const std::string header = stored.substr(0, newline);
    const std::string payload = stored.substr(newline + 1);
    const std::string diagnostics = "\"diagnostics\":[]";
    const size_t at = payload.find(diagnostics);
    const size_t key_at = payload.find(key);
    FUZZ_REQUIRE(at != std::string::npos && key_at != std::string::npos);
    Template result{*cache, header.substr(0, header.rfind(' ') + 1), payload.substr(0, at + diagnostics.size() - 2),
                    payload.substr(at + diagnostics.size())};
    return result;
  }();
  return made;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool raw = (data[0] & 1) == 0;
  const std::string_view input = fuzz::bytes(data + 1, size - 1);
  const size_t nul = input.find('\0');
  if (nul == std::string_view::npos) return 0;
  const std::string text(input.substr(0, nul));
  const std::string_view stored = input.substr(nul + 1);
  const Template& entry = entry_template();
  const engine::Settings settings;
  const std::string key = engine::ResultCache::key(kPath, text, settings);
  const std::string empty_key = engine::ResultCache::key(kPath, "", settings);

  std::string bytes;
  if (raw) {
    bytes = stored;
  } else {
    std::string payload = entry.before;
    payload += stored;
    payload += entry.after;
    // The template was written for the empty text: put this text's key in its place.
    const size_t at = payload.find(empty_key);
    if (at != std::string::npos) payload.replace(at, empty_key.size(), key);
    bytes = entry.header_prefix + engine::content_hash(payload) + '\n' + payload;
  }
  const std::filesystem::path path = entry.cache.directory() / key.substr(0, 2) / (key.substr(2) + ".json");
  std::filesystem::create_directories(path.parent_path());
  fuzz::write_file(path, bytes);

  const std::optional<std::vector<Diagnostic>> loaded = entry.cache.load(key, kPath, settings, text);
  if (loaded) {
    for (const Diagnostic& diagnostic : *loaded) {
      FUZZ_REQUIRE(diagnostic.range.start <= diagnostic.range.end && diagnostic.range.end <= text.size());
      FUZZ_REQUIRE(diagnostic.code == kIoErrorCode || diagnostic.code == kParseErrorCode ||
                   diagnostic.code == kInternalErrorCode || engine::Catalog::builtin().find(diagnostic.code));
      for (const Fix& fix : diagnostic.fixes) {
        for (const Edit& edit : fix.edits) {
          FUZZ_REQUIRE(edit.range.start <= edit.range.end && edit.range.end <= text.size());
        }
      }
    }
  }
  std::error_code error;
  std::filesystem::remove(path, error);
  return 0;
}
