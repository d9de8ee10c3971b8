// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/python_check.hpp"

namespace torchmigrate::engine {

Diagnostic& PythonCheckContext::report(const RuleSpec& rule, TextRange range,
                                       const std::map<std::string, std::string>& values) {
  Diagnostic diagnostic;
  diagnostic.code = rule.code;
  diagnostic.message = rule.format_message(values);
  diagnostic.range = range;
  diagnostic.severity = rule.severity;
  sink_.push_back(std::move(diagnostic));
  return sink_.back();
}

Diagnostic& FileCheckContext::report(const RuleSpec& rule, TextRange range,
                                     const std::map<std::string, std::string>& values) {
  Diagnostic diagnostic;
  diagnostic.code = rule.code;
  diagnostic.message = rule.format_message(values);
  diagnostic.range = range;
  diagnostic.severity = rule.severity;
  sink_.push_back(std::move(diagnostic));
  return sink_.back();
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
