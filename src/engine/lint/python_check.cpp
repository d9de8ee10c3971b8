// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/python_check.hpp"

#include <stdexcept>

namespace torchmigrate::engine {

namespace {

// Severity from the catalog, message from its template: the same for every language.
Diagnostic& add_finding(std::vector<Diagnostic>& sink, const RuleSpec& rule, TextRange range,
                        const std::map<std::string, std::string>& values) {
  Diagnostic& diagnostic = sink.emplace_back();
  diagnostic.code = rule.code;
  diagnostic.message = rule.format_message(values);
  diagnostic.range = range;
  diagnostic.severity = rule.severity;
  return diagnostic;
}

}  // namespace

Diagnostic& PythonCheckContext::report(const RuleSpec& rule, TextRange range,
                                       const std::map<std::string, std::string>& values) {
  return add_finding(sink_, rule, range, values);
}

Diagnostic& FileCheckContext::report(const RuleSpec& rule, TextRange range,
                                     const std::map<std::string, std::string>& values) {
  return add_finding(sink_, rule, range, values);
}

const cxx::SourceScan& FileParses::source_scan() {
  throw std::logic_error("this file's front makes no C/C++ token scan");
}

const buildfiles::BuildFile& FileParses::build_file() {
  throw std::logic_error("this file's front makes no build file");
}

const python::SyntaxTree& FileParses::python_tree() {
  throw std::logic_error("this file's front makes no Python syntax tree");
}

void CheckRegistry::add_file(std::string family, FileCheckFactory factory) {
  file_.emplace(std::move(family), std::move(factory));
}

const FileCheckFactory* CheckRegistry::file(std::string_view family) const {
  auto it = file_.find(family);
  return it == file_.end() ? nullptr : &it->second;
}

void CheckRegistry::add_python(std::string family, PythonCheckFactory factory) {
  python_.emplace(std::move(family), std::move(factory));
}

const PythonCheckFactory* CheckRegistry::python(std::string_view family) const {
  auto it = python_.find(family);
  return it == python_.end() ? nullptr : &it->second;
}

std::vector<std::string> CheckRegistry::families() const {
  std::vector<std::string> names;
  for (const auto& [name, factory] : python_) names.push_back(name);
  for (const auto& [name, factory] : file_) names.push_back(name);
  return names;
}

}  // namespace torchmigrate::engine
