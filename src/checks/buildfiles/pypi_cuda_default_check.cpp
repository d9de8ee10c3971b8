// SPDX-License-Identifier: MIT
// Family `pypi-cuda-default`: build-file words that set up a CUDA release other than the one
// torch's PyPI wheels are built for from a given release (a CUDA 12 base image, toolkit pin or
// `nvidia-*-cu12` package), in a project that runs that release (its pinned maximum or its target
// reaches it) and names no torch wheel index: there `pip install torch` brings the PyPI build.
#include <optional>

#include "torchmigrate/buildfiles/cuda_mentions.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

// `*` matches any run of characters; everything else itself.
bool glob_match(std::string_view glob, std::string_view text) {
  size_t star = glob.find('*');
  if (star == std::string_view::npos) return glob == text;
  if (!text.starts_with(glob.substr(0, star))) return false;
  std::string_view rest = glob.substr(star + 1);
  for (size_t at = star; at <= text.size(); ++at) {
    if (glob_match(rest, text.substr(at))) return true;
  }
  return false;
}

bool separator(char c) {
  return c == ' ' || c == '\t' || c == '"' || c == '\'' || c == ',' || c == ';' || c == '[' || c == ']' || c == '(' ||
         c == ')' || c == '\r';
}

// A requirement's name, PEP 503-normalised: the word up to its specifier, extras or marker.
std::string name_part(std::string_view word) {
  return buildfiles::normalize_name(word.substr(0, word.find_first_of("=<>!~[@;")));
}

struct Pattern {
  std::string glob;
  std::string detail;
};

struct Word {
  size_t begin = 0, end = 0;
};

class PypiCudaDefaultCheck final : public engine::FileCheck {
 public:
  explicit PypiCudaDefaultCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    torch_from_ = TorchVersion::parse(params.string("torch_from"));
    for (const Params& entry : params.objects("patterns")) {
      patterns_.push_back({entry.string("glob"), entry.string("detail")});
      entry.finish();
    }
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override { return {engine::facts::cuda_mentions}; }

  void check(engine::FileCheckContext& context) override {
    if (!applies(context)) return;
    std::string_view text = context.file().text();
    for (size_t start = 0; start < text.size();) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      check_line(context, text, start, end);
      start = end + 1;
    }
  }

 private:
  // The project installs torch from PyPI at the release: its range or target reaches it and no wheel
  // index (`download.pytorch.org/whl/...`) is named in this file or the project's build files.
  bool applies(engine::FileCheckContext& context) const {
    const engine::Settings& settings = context.settings();
    if (!settings.torch_range_known || settings.newest_torch() < *torch_from_) return false;
    buildfiles::CudaMentions mentions;
    buildfiles::find_cuda_mentions(context.file().text(), "this file", mentions);
    if (!mentions.indexes.empty()) return false;
    return settings.project_fact(engine::facts::cuda_mentions).indexes.empty();
  }

  // The words of [begin, end) before a comment, each matched against the patterns.
  void check_line(engine::FileCheckContext& context, std::string_view text, size_t begin, size_t end) const {
    std::vector<Word> words;
    for (size_t at = begin; at < end;) {
      if (separator(text[at])) {
        ++at;
        continue;
      }
      if (text[at] == '#' && (at == begin || separator(text[at - 1]))) break;
      size_t stop = at;
      while (stop < end && !separator(text[stop])) ++stop;
      words.push_back({at, stop});
      at = stop;
    }
    for (size_t i = 0; i < words.size(); ++i) {
      std::string_view word = text.substr(words[i].begin, words[i].end - words[i].begin);
      Word found = words[i];
      const Pattern* pattern = match(word);
      // `KEY: 12.8` and `KEY= "12.8"` are read as one setting (`image: X` is X's own).
      if (!pattern && i + 1 < words.size() && (word.ends_with(':') || word.ends_with('='))) {
        std::string_view next = text.substr(words[i + 1].begin, words[i + 1].end - words[i + 1].begin);
        std::string joined(word);
        joined.append(next);
        pattern = match(next) ? nullptr : match(joined);
        if (pattern) {
          found.end = words[++i].end;
          char before = text[words[i].begin - 1];
          if ((before == '"' || before == '\'') && found.end < end && text[found.end] == before) ++found.end;
        }
      }
      if (!pattern) continue;
      TextRange range{static_cast<uint32_t>(found.begin), static_cast<uint32_t>(found.end)};
      context.report(rule(), range,
                     {{"mention", std::string(context.file().slice(range))}, {"detail", pattern->detail}});
    }
  }

  const Pattern* match(std::string_view word) const {
    for (const Pattern& pattern : patterns_) {
      if (glob_match(pattern.glob, word) || glob_match(pattern.glob, name_part(word))) return &pattern;
    }
    return nullptr;
  }

  std::optional<TorchVersion> torch_from_;
  std::vector<Pattern> patterns_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_pypi_cuda_default_check(const engine::RuleSpec& rule) {
  return std::make_unique<PypiCudaDefaultCheck>(rule);
}

}  // namespace torchmigrate::checks
