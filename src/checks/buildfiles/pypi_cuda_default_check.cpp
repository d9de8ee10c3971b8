// SPDX-License-Identifier: MIT
// Family `pypi-cuda-default`: build-file words that set up a CUDA release other than the one
// torch's PyPI wheels are built for from a given release (a CUDA 12 base image, toolkit pin or
// `nvidia-*-cu12` package), in a project that runs that release (its pinned maximum or its target
// reaches it) and names no torch wheel index: there `pip install torch` brings the PyPI build.
// With `index_fix`, each finding carries a display-only fix that names a wheel index to install
// torch from (another one where the project lists GPUs that index's builds drop), with the edit
// that adds it where this file installs torch, if it does.
#include <optional>

#include "torchmigrate/buildfiles/cuda_mentions.hpp"
#include "torchmigrate/buildfiles/requirements.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

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

// A wheel index to suggest, and the words that say what it is.
struct Index {
  std::string url;
  std::string label;
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
    if (params.has("index_fix")) {
      Params fix = params.object("index_fix");
      index_ = Index{fix.string("index"), fix.string("label")};
      Params older = fix.object("older_gpus");
      older_index_ = Index{older.string("index"), older.string("label")};
      older_entries_ = older.strings("arch_entries");
      older.finish();
      fix.finish();
    }
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override { return {engine::facts::cuda_mentions}; }

  void check(engine::FileCheckContext& context) override {
    if (!applies(context)) return;
    std::optional<Fix> fix;
    if (index_) fix = index_fix(context);
    std::string_view text = context.file().text();
    for (size_t start = 0; start < text.size();) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      check_line(context, text, start, end, fix);
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

  // Display-only: install torch from the index (the older GPUs' one where an architecture list of
  // this file or the project names one of their entries). The edit adds `--index-url` to this
  // file's `pip install` of torch or before its torch requirement line; elsewhere, advice only.
  Fix index_fix(engine::FileCheckContext& context) const {
    buildfiles::CudaMentions mentions;
    buildfiles::find_cuda_mentions(context.file().text(), "this file", mentions);
    std::string older = mentions.arch_entry_of(older_entries_);
    const buildfiles::CudaMentions& project = context.settings().project_fact(engine::facts::cuda_mentions);
    if (older.empty()) older = project.arch_entry_of(older_entries_);
    const Index& index = older.empty() ? *index_ : *older_index_;
    std::string title = "Install torch from " + index.label;
    if (!older.empty()) title += " (" + older + ")";
    title += ": add `--index-url " + index.url + "` ";
    std::vector<Edit> edits;
    const buildfiles::BuildFile& file = context.build_file();
    for (const buildfiles::Requirement& torch : buildfiles::find_requirements(file, "torch")) {
      if (torch.conda || !torch.fixable) continue;
      uint32_t line = context.file().location(torch.range.start).line;
      if (file.kind == buildfiles::FileKind::Requirements) {
        uint32_t at = torch.range.start;
        while (at > 0 && file.text[at - 1] != '\n') --at;
        edits.push_back(Edit::insert(at, "--index-url " + index.url + "\n"));
        title += "to this requirements file, before the torch requirement on line " + std::to_string(line);
        break;
      }
      if (file.kind == buildfiles::FileKind::Dockerfile || file.kind == buildfiles::FileKind::Shell ||
          file.kind == buildfiles::FileKind::Yaml || file.kind == buildfiles::FileKind::Makefile) {
        uint32_t at = torch.needs_quoting ? torch.word_range.end : torch.range.end;
        if (!torch.needs_quoting && at < file.text.size() && (file.text[at] == '"' || file.text[at] == '\'')) ++at;
        edits.push_back(Edit::insert(at, " --index-url " + index.url));
        title += "to the `pip install` of torch on line " + std::to_string(line);
        break;
      }
    }
    if (edits.empty()) title += "where the project installs torch";
    Fix fix = rule_fix(rule(), std::move(title), std::move(edits), Applicability::DisplayOnly);
    fix.applicability = Applicability::DisplayOnly;  // a suggestion to review, whatever the catalog's safety
    return fix;
  }

  // The words of [begin, end) before a comment, each matched against the patterns.
  void check_line(engine::FileCheckContext& context, std::string_view text, size_t begin, size_t end,
                  const std::optional<Fix>& fix) const {
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
      Diagnostic& diagnostic = context.report(
          rule(), range, {{"mention", std::string(context.file().slice(range))}, {"detail", pattern->detail}});
      if (fix) diagnostic.fixes.push_back(*fix);
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
  std::optional<Index> index_;        // `index_fix`: the index to suggest
  std::optional<Index> older_index_;  // `index_fix.older_gpus`: the one for GPUs the first drops
  std::vector<std::string> older_entries_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_pypi_cuda_default_check(const engine::RuleSpec& rule) {
  return std::make_unique<PypiCudaDefaultCheck>(rule);
}

}  // namespace torchmigrate::checks
