// SPDX-License-Identifier: MIT
// The fronts whose checks see a whole file at once (FileCheck): C/C++/CUDA sources (tokens from
// libclang) and build, packaging and environment files (logical lines). Each parses its files
// for its checks (FileParses) and for the fixer's syntax-error count the same way.
#include <filesystem>
#include <memory>
#include <optional>

#include "torchmigrate/buildfiles/syntax_check.hpp"
#include "torchmigrate/cxx/libclang_note.hpp"
#include "torchmigrate/cxx/source_scan.hpp"
#include "torchmigrate/cxx/syntax_check.hpp"
#include "torchmigrate/engine/lint/front.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::engine {
namespace {

class FileCheckFront : public Front {
 public:
  FileCheckFront(const LintEnvironment& environment, RuleLanguage language)
      : environment_(environment), language_(language) {}

  [[nodiscard]] RuleLanguage rule_language() const override { return language_; }

  void add_rule(const RuleSpec& rule) override {
    const FileCheckFactory* factory = environment_.registry().file(rule.check_family);
    if (factory == nullptr) throw CatalogError(rule.code + ": unknown check family `" + rule.check_family + "`");
    rules_.push_back(&rule);
  }

  void ready() override {
    rule_facts_ = environment_.built_checks(rules_, language_);
    prefilter_ = environment_.prefilter(rules_);
  }

  [[nodiscard]] std::vector<Diagnostic> lint(const SourceFile& file, const LintInput& /*input*/) const override {
    std::vector<Diagnostic> diagnostics;
    std::unique_ptr<FileParses> parses = parse(file, diagnostics);
    FileCheckContext context(file, settings(), diagnostics, *parses);
    std::vector<bool> fires = environment_.candidates(rules_.size(), *prefilter_, file.text(), WordPlacesOf::AnyText);
    for (size_t i = 0; i < rules_.size(); ++i) {
      if (!fires[i]) continue;
      std::unique_ptr<FileCheck> check = (*environment_.registry().file(rules_[i]->check_family))(*rules_[i]);
      check->check(context);
    }
    if (diagnostics.empty() && !environment_.may_report_unused_suppressions(fires)) return diagnostics;
    Suppressions suppressions = Suppressions::parse(file);
    environment_.finish(file, suppressions, diagnostics);
    return diagnostics;
  }

  [[nodiscard]] FactsRead facts_read(const SourceFile& file, bool any_text) const override {
    FactsRead read;
    if (any_text) {
      for (const FactsRead& facts : *rule_facts_) read |= facts;
      return read;
    }
    std::vector<bool> fires = environment_.candidates(rules_.size(), *prefilter_, file.text(), WordPlacesOf::AnyText);
    for (size_t i = 0; i < rules_.size(); ++i) {
      if (fires[i]) read |= (*rule_facts_)[i];
    }
    return read;
  }

 protected:
  [[nodiscard]] const Settings& settings() const { return environment_.settings(); }
  // The parses of `file` for its checks, made lazily; a note about the file (no finding of a
  // rule) goes to `notes`.
  [[nodiscard]] virtual std::unique_ptr<FileParses> parse(const SourceFile& file,
                                                          std::vector<Diagnostic>& notes) const = 0;

 private:
  const LintEnvironment& environment_;
  RuleLanguage language_;
  std::vector<const RuleSpec*> rules_;
  std::shared_ptr<const std::vector<FactsRead>> rule_facts_;  // what each of rules_ reads of the project's facts
  std::shared_ptr<const Prefilter> prefilter_;
};

cxx::ScanOptions scan_options(const Settings& settings) {
  cxx::ScanOptions options;
  options.compile_database_dir = settings.compile_database_dir;
  return options;
}

class CxxParses final : public FileParses {
 public:
  CxxParses(const SourceFile& file, const Settings& settings, std::vector<Diagnostic>& notes)
      : file_(file), settings_(settings), notes_(notes) {}

  const cxx::SourceScan& source_scan() override {
    if (!scan_) {
      // Made once per file, so the file gets one note however many checks ask.
      if (cxx::libclang_missing()) notes_.push_back(cxx::libclang_missing_note());
      scan_.emplace(cxx::SourceScan::scan(file_, scan_options(settings_)));
    }
    return *scan_;
  }

 private:
  const SourceFile& file_;
  const Settings& settings_;
  std::vector<Diagnostic>& notes_;
  std::optional<cxx::SourceScan> scan_;
};

class CxxFront final : public FileCheckFront {
 public:
  explicit CxxFront(const LintEnvironment& environment) : FileCheckFront(environment, RuleLanguage::Cxx) {}

  [[nodiscard]] bool reads(const SourceFile& file) const override { return file.language() == Language::Cxx; }

  [[nodiscard]] size_t syntax_errors(const SourceFile& file) const override {
    return cxx::unbalanced_brackets(cxx::SourceScan::scan(file, scan_options(settings())));
  }

 protected:
  [[nodiscard]] std::unique_ptr<FileParses> parse(const SourceFile& file,
                                                  std::vector<Diagnostic>& notes) const override {
    return std::make_unique<CxxParses>(file, settings(), notes);
  }
};

buildfiles::BuildFile read_build_file(const SourceFile& file, const Settings& settings) {
  return buildfiles::BuildFile::read(file.text(), buildfiles::kind_for(file.path(), settings.build_extensions));
}

class BuildFileParses final : public FileParses {
 public:
  BuildFileParses(const SourceFile& file, const Settings& settings) : file_(file), settings_(settings) {}

  const buildfiles::BuildFile& build_file() override {
    if (!build_file_) build_file_.emplace(read_build_file(file_, settings_));
    return *build_file_;
  }

  // The Python front parses setup.py too, for its own rules; this front's checks get their own
  // tree, which takes well under a millisecond.
  const python::SyntaxTree& python_tree() override {
    if (!python_tree_) python_tree_.emplace(python::SyntaxTree::parse(file_.text()));
    return *python_tree_;
  }

 private:
  const SourceFile& file_;
  const Settings& settings_;
  std::optional<buildfiles::BuildFile> build_file_;
  std::optional<python::SyntaxTree> python_tree_;
};

class BuildFileFront final : public FileCheckFront {
 public:
  explicit BuildFileFront(const LintEnvironment& environment) : FileCheckFront(environment, RuleLanguage::Build) {}

  [[nodiscard]] bool reads(const SourceFile& file) const override {
    // setup.py belongs to two fronts: Python, and packaging (its install_requires).
    return file.language() == Language::BuildFile ||
           (file.language() == Language::Python && std::filesystem::path(file.path()).filename() == "setup.py");
  }

  [[nodiscard]] size_t syntax_errors(const SourceFile& file) const override {
    return buildfiles::syntax_errors(read_build_file(file, settings()));
  }

 protected:
  [[nodiscard]] std::unique_ptr<FileParses> parse(const SourceFile& file,
                                                  std::vector<Diagnostic>& /*notes*/) const override {
    return std::make_unique<BuildFileParses>(file, settings());
  }
};

}  // namespace

std::unique_ptr<Front> make_cxx_front(const LintEnvironment& environment) {
  return std::make_unique<CxxFront>(environment);
}

std::unique_ptr<Front> make_build_file_front(const LintEnvironment& environment) {
  return std::make_unique<BuildFileFront>(environment);
}

}  // namespace torchmigrate::engine
