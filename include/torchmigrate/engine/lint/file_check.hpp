// SPDX-License-Identifier: MIT
// The interface of checks over files that are not Python: C/C++/CUDA sources and build,
// packaging and environment files. Such a check sees the whole file at once.
#pragma once

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"

namespace torchmigrate::engine {

class FileCheckContext {
 public:
  FileCheckContext(const SourceFile& file, const Settings& settings, std::vector<Diagnostic>& sink)
      : file_(file), settings_(settings), sink_(sink) {}

  [[nodiscard]] const SourceFile& file() const { return file_; }
  [[nodiscard]] const Settings& settings() const { return settings_; }
  Diagnostic& report(const RuleSpec& rule, TextRange range, const std::map<std::string, std::string>& values = {});
  // A note that is no rule's finding (a TM900 "not checked").
  void note(Diagnostic diagnostic) { sink_.push_back(std::move(diagnostic)); }

  // Work shared by the checks of one file (a token scan, a parsed build file), made once by
  // the first check that asks for it.
  template <typename T>
  const T& shared(const std::function<T()>& make) {
    auto it = shared_.find(std::type_index(typeid(T)));
    if (it == shared_.end()) it = shared_.emplace(std::type_index(typeid(T)), std::make_shared<T>(make())).first;
    return *std::static_pointer_cast<T>(it->second);
  }

 private:
  const SourceFile& file_;
  const Settings& settings_;
  std::vector<Diagnostic>& sink_;
  std::unordered_map<std::type_index, std::shared_ptr<void>> shared_;
};

class FileCheck {
 public:
  explicit FileCheck(const RuleSpec& rule) : rule_(rule) {}
  virtual ~FileCheck() = default;
  FileCheck(const FileCheck&) = delete;
  FileCheck& operator=(const FileCheck&) = delete;

  virtual void check(FileCheckContext& context) = 0;
  [[nodiscard]] const RuleSpec& rule() const { return rule_; }
  // The project facts this check's findings depend on (the result cache keys files by them).
  [[nodiscard]] virtual FactsRead facts_read() const { return {}; }

 private:
  const RuleSpec& rule_;
};

using FileCheckFactory = std::function<std::unique_ptr<FileCheck>(const RuleSpec&)>;

}  // namespace torchmigrate::engine
