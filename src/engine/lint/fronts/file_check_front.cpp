// SPDX-License-Identifier: MIT
// The fronts whose checks see a whole file at once (FileCheck): C/C++/CUDA sources (tokens from
// libclang, shared by the checks) and build, packaging and environment files (logical lines).
#include <filesystem>
#include <functional>
#include <optional>

#include "torchmigrate/buildfiles/syntax_check.hpp"
#include "torchmigrate/cxx/source_scan.hpp"
#include "torchmigrate/cxx/syntax_check.hpp"
#include "torchmigrate/engine/lint/front.hpp"

namespace torchmigrate::engine {
namespace {

class FileCheckFront final : public Front {
 public:
  using Reads = std::function<bool(const SourceFile&)>;
  using SyntaxErrors = std::function<size_t(const SourceFile&, const Settings&)>;

  FileCheckFront(const LintEnvironment& environment, RuleLanguage language, Reads reads, SyntaxErrors syntax_errors)
      : environment_(environment),
        language_(language),
        reads_(std::move(reads)),
        syntax_errors_(std::move(syntax_errors)) {}

  [[nodiscard]] RuleLanguage rule_language() const override { return language_; }
  [[nodiscard]] bool reads(const SourceFile& file) const override { return reads_(file); }

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
    FileCheckContext context(file, environment_.settings(), diagnostics);
    std::vector<bool> fires = environment_.candidates(rules_.size(), *prefilter_, file.text());
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

  [[nodiscard]] size_t syntax_errors(const SourceFile& file) const override {
    return syntax_errors_(file, environment_.settings());
  }

  [[nodiscard]] FactsRead facts_read(const SourceFile& file, bool any_text) const override {
    FactsRead read;
    if (any_text) {
      for (const FactsRead& facts : *rule_facts_) read |= facts;
      return read;
    }
    std::vector<bool> fires = environment_.candidates(rules_.size(), *prefilter_, file.text());
    for (size_t i = 0; i < rules_.size(); ++i) {
      if (fires[i]) read |= (*rule_facts_)[i];
    }
    return read;
  }

 private:
  const LintEnvironment& environment_;
  RuleLanguage language_;
  Reads reads_;
  SyntaxErrors syntax_errors_;
  std::vector<const RuleSpec*> rules_;
  std::shared_ptr<const std::vector<FactsRead>> rule_facts_;  // what each of rules_ reads of the project's facts
  std::shared_ptr<const Prefilter> prefilter_;
};

}  // namespace

std::unique_ptr<Front> make_cxx_front(const LintEnvironment& environment) {
  return std::make_unique<FileCheckFront>(
      environment, RuleLanguage::Cxx, [](const SourceFile& file) { return file.language() == Language::Cxx; },
      [](const SourceFile& file, const Settings& settings) {
        cxx::ScanOptions options;
        options.compile_database_dir = settings.compile_database_dir;
        return cxx::unbalanced_brackets(cxx::SourceScan::scan(file, options));
      });
}

std::unique_ptr<Front> make_build_file_front(const LintEnvironment& environment) {
  return std::make_unique<FileCheckFront>(
      environment, RuleLanguage::Build,
      [](const SourceFile& file) {
        // setup.py belongs to two fronts: Python, and packaging (its install_requires).
        return file.language() == Language::BuildFile ||
               (file.language() == Language::Python && std::filesystem::path(file.path()).filename() == "setup.py");
      },
      [](const SourceFile& file, const Settings& settings) {
        buildfiles::FileKind kind = buildfiles::kind_for(file.path(), settings.build_extensions);
        return buildfiles::syntax_errors(buildfiles::BuildFile::read(file.text(), kind));
      });
}

}  // namespace torchmigrate::engine
