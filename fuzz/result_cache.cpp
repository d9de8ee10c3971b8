// SPDX-License-Identifier: MIT
// The result cache reader (src/engine/run/result_cache.cpp). The input is a mode byte, the checked
// file's text, a NUL byte, then what the cache file holds:
//   - mode with low bit 0: the file's bytes as stored, header line included (almost always
//     refused by the checksum: the header and file parser are the target);
//   - mode with low bit 1: one entry's encoded findings (a 32-bit count, then each finding); the
//     target wraps them in a file that is valid for this build, these settings and this text
//     (the real header, checksum and key, taken from a file the cache itself wrote), so the
//     per-finding validation is what gets fuzzed.
// A loaded entry must only hold findings the linter could have made: known codes, ranges and
// edits inside the text.
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz_target.hpp"
#include "scratch_dir.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/run/content_hash.hpp"
#include "torchmigrate/engine/run/result_cache.hpp"

using namespace torchmigrate;

namespace {

constexpr std::string_view kPath = "src/model.py";

struct Template {
  std::filesystem::path directory;
  std::string header_prefix;  // the header line up to its checksum
  std::string before;         // the body up to the only entry's findings (their length first)
};

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A file written by the cache with one entry of no findings, for the empty text's key. The
// entry is the body's last part and ends with its findings: length 4, then a count of 0.
const Template& file_template() {
  static const Template made = [] {
    std::string problem;
    std::optional<engine::ResultCache> cache =
        engine::ResultCache::open(engine::Catalog::builtin(), fuzz::scratch_dir() / "cache", std::nullopt, problem);
    FUZZ_REQUIRE(cache.has_value());
    const std::string key = engine::ResultCache::key(kPath, "", engine::Settings{});
    cache->store(key, kPath, engine::Settings{}, {});
    cache->save();
    const std::string stored = read_all(cache->directory() / engine::kCacheFileName);
    const size_t newline = stored.find('\n');
    FUZZ_REQUIRE(newline != std::string::npos);
    const std::string header = stored.substr(0, newline);
    const std::string body = stored.substr(newline + 1);
    const std::string no_findings("\x04\0\0\0\0\0\0\0", 8);
    FUZZ_REQUIRE(body.size() > no_findings.size() && body.substr(body.size() - no_findings.size()) == no_findings);
    FUZZ_REQUIRE(body.find(key) != std::string::npos);
    Template result{cache->directory(), header.substr(0, header.rfind(' ') + 1),
                    body.substr(0, body.size() - no_findings.size())};
    std::error_code error;
    std::filesystem::remove(cache->directory() / engine::kCacheFileName, error);
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
  const Template& file = file_template();
  const engine::Settings settings;
  const std::string key = engine::ResultCache::key(kPath, text, settings);
  const std::string empty_key = engine::ResultCache::key(kPath, "", settings);

  std::string bytes;
  if (raw) {
    bytes = stored;
  } else {
    // The template was written for the empty text: put this text's key (as long) in its place.
    std::string body = file.before;
    const size_t at = body.find(empty_key);
    if (at != std::string::npos) body.replace(at, empty_key.size(), key);
    const auto length = static_cast<uint32_t>(stored.size());
    for (int shift = 0; shift < 32; shift += 8) body.push_back(static_cast<char>((length >> shift) & 0xFF));
    body += stored;
    bytes = file.header_prefix + engine::content_hash(body) + '\n' + body;
  }
  const std::filesystem::path path = file.directory / engine::kCacheFileName;
  fuzz::write_file(path, bytes);

  std::string problem;
  const std::optional<engine::ResultCache> cache = engine::ResultCache::open(engine::Catalog::builtin(), file.directory, std::nullopt, problem);
  FUZZ_REQUIRE(cache.has_value());
  const std::optional<std::vector<Diagnostic>> loaded = cache->load(key, kPath, settings, text);
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
