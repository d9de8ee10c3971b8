// SPDX-License-Identifier: MIT
// The interface of checks over files that are not Python: C/C++/CUDA sources and build,
// packaging and environment files. Such a check sees the whole file at once.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"

// The parsed forms are only declared: cxx is a private dependency of the engine, so its headers
// cannot be included here (the others are declared alike, to keep this header light).
namespace torchmigrate::cxx {
class SourceScan;
}
namespace torchmigrate::buildfiles {
struct BuildFile;
}
namespace torchmigrate::python {
class SyntaxTree;
}

namespace torchmigrate::engine {

// What the front that reads a file parses of it for its checks. The front knows the file's
// language, so it makes each form, when a check first asks for it (a file whose checks ask for
// nothing is never parsed), once for all the file's checks.
class FileParses {
 public:
  virtual ~FileParses() = default;
  FileParses() = default;
  FileParses(const FileParses&) = delete;
  FileParses& operator=(const FileParses&) = delete;

  // Each throws std::logic_error when the front does not parse files that way.
  // C/C++/CUDA: libclang's tokens (the C/C++ front).
  virtual const cxx::SourceScan& source_scan();
  // Build, packaging and environment files: the kind and logical lines (the build front).
  virtual const buildfiles::BuildFile& build_file();
  // setup.py as Python (the build front, which reads its environment assignments from it).
  virtual const python::SyntaxTree& python_tree();
};

class FileCheckContext {
 public:
  FileCheckContext(const SourceFile& file, const Settings& settings, std::vector<Diagnostic>& sink, FileParses& parses)
      : file_(file), settings_(settings), sink_(sink), parses_(parses) {}

  [[nodiscard]] const SourceFile& file() const { return file_; }
  [[nodiscard]] const Settings& settings() const { return settings_; }
  Diagnostic& report(const RuleSpec& rule, TextRange range, const std::map<std::string, std::string>& values = {});

  // The file as its front parsed it (FileParses).
  [[nodiscard]] const cxx::SourceScan& source_scan() { return parses_.source_scan(); }
  [[nodiscard]] const buildfiles::BuildFile& build_file() { return parses_.build_file(); }
  [[nodiscard]] const python::SyntaxTree& python_tree() { return parses_.python_tree(); }

 private:
  const SourceFile& file_;
  const Settings& settings_;
  std::vector<Diagnostic>& sink_;
  FileParses& parses_;
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
