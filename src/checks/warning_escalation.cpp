// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/warning_escalation.hpp"

#include <map>

#include "torchmigrate/buildfiles/pep440.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"

namespace torchmigrate::checks {
namespace {

// `text` with each `{key}` of `values` replaced.
std::string fill(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    std::string placeholder = "{" + key + "}";
    for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  return text;
}

// Whether some release of Python MAJOR.MINOR `minor` satisfies `specifiers`.
bool admits_minor(const std::vector<buildfiles::Specifier>& specifiers, const buildfiles::Version& minor) {
  std::vector<long> next = minor.release();
  next.resize(2, 0);
  ++next[1];
  buildfiles::Version following = buildfiles::Version::from_release(next, true);
  return buildfiles::admits_version(specifiers, minor) || (buildfiles::admits_version_below(specifiers, following) &&
                                                           !buildfiles::admits_version_below(specifiers, minor));
}

// The line that admits Python `version`: the declared requirement decides when there is one,
// else the newest version a classifier, CI matrix or environment names.
engine::ProjectLine admitting(const engine::PythonVersions& python, const std::string& version) {
  std::optional<buildfiles::Version> wanted = buildfiles::Version::parse(version);
  if (!wanted) return {};
  if (python.requirement.found()) {
    auto specifiers = buildfiles::parse_specifiers(python.requirement_specifier);
    return specifiers && admits_minor(*specifiers, *wanted) ? python.requirement : engine::ProjectLine{};
  }
  std::optional<buildfiles::Version> highest = buildfiles::Version::parse(python.highest);
  return highest && !(*highest < *wanted) ? python.highest_from : engine::ProjectLine{};
}

}  // namespace

WarningEscalation::WarningEscalation(const Params& params) {
  note_ = params.string("note");
  pytest_ = params.string("pytest");
  Params python = params.object("python");
  python_version_ = python.string("admits");
  for (const std::string& name : python.strings("functions")) python_functions_.insert(name);
  python_note_ = python.string("note");
  python_error_ = python.string("error");
  python.finish();
  params.finish();
  if (!buildfiles::Version::parse(python_version_)) throw engine::CatalogError("escalation: `admits` is no version");
}

engine::FactsRead WarningEscalation::facts_read() const {
  return {engine::facts::python_versions, engine::facts::pytest_warnings_as_errors};
}

Escalated WarningEscalation::judge(const std::string& function, const engine::Settings& settings) const {
  bool python_listed = python_functions_.contains(function);
  Escalated out;
  const engine::ProjectLine& pytest = settings.project_fact(engine::facts::pytest_warnings_as_errors);
  if (pytest.found()) out.text += fill(pytest_, {{"filter", pytest.text}, {"where", pytest.where()}});
  if (python_listed) {
    engine::ProjectLine admits = admitting(settings.project_fact(engine::facts::python_versions), python_version_);
    if (admits.found()) out.text += fill(python_error_, {{"where", admits.where()}, {"line", admits.text}});
  }
  if (!out.text.empty()) {
    out.severity = Severity::Error;
    return out;
  }
  out.text = python_listed ? python_note_ : note_;
  return out;
}

}  // namespace torchmigrate::checks
