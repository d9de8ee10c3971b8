// SPDX-License-Identifier: MIT
// The interface every Python check implements, and what a check may ask while it runs.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"
#include "torchmigrate/engine/lint/file_check.hpp"
#include "torchmigrate/python/semantic_model.hpp"

namespace torchmigrate::engine {

class PythonCheckContext {
 public:
  // `model` gives the file's semantic model, which it may build on the first call.
  PythonCheckContext(const SourceFile& file, std::function<const python::SemanticModel&()> model,
                     const Settings& settings, std::vector<Diagnostic>& sink)
      : file_(file), model_(std::move(model)), settings_(settings), sink_(sink) {}

  [[nodiscard]] const SourceFile& file() const { return file_; }
  [[nodiscard]] const python::SemanticModel& model() const { return model_(); }
  [[nodiscard]] const Settings& settings() const { return settings_; }
  // The parent of the node being visited, from the walk's own stack of ancestors: Node::parent
  // walks down from the root on every call. The front sets it before each visit.
  [[nodiscard]] python::Node parent() const { return parent_; }
  void set_parent(python::Node parent) { parent_ = parent; }

  // Reports a finding of `rule`; severity comes from the catalog, the message from its template.
  Diagnostic& report(const RuleSpec& rule, TextRange range, const std::map<std::string, std::string>& values = {});

 private:
  const SourceFile& file_;
  std::function<const python::SemanticModel&()> model_;
  const Settings& settings_;
  std::vector<Diagnostic>& sink_;
  python::Node parent_;
};

// One rule's check. The linter walks the tree once and calls `visit` for each node whose kind
// the check listed; checks never walk the tree themselves.
class PythonCheck {
 public:
  explicit PythonCheck(const RuleSpec& rule) : rule_(rule) {}
  virtual ~PythonCheck() = default;
  PythonCheck(const PythonCheck&) = delete;
  PythonCheck& operator=(const PythonCheck&) = delete;

  [[nodiscard]] virtual std::vector<std::string_view> node_kinds() const = 0;
  virtual void visit(python::Node node, PythonCheckContext& context) = 0;
  // Called once after the traversal, for checks that decide on the whole file.
  virtual void finish(PythonCheckContext& /*context*/) {}
  // True when, in a file with this `text`, every finding (and fix) lies in one top-level
  // statement and depends only on that statement's nodes and on what the names it uses resolve
  // to: then an editor's edit elsewhere cannot change it. A check that follows a name to its
  // definition, or weighs uses across the file, must say false (for this text, at least).
  [[nodiscard]] virtual bool statement_local(std::string_view /*text*/) const { return false; }
  // False when `text` cannot hold a finding of this check, read without parsing (the prefilter's
  // trigger words having let it through): the file is then not parsed for it. Only a sure no.
  [[nodiscard]] virtual bool may_report(std::string_view /*text*/) const { return true; }
  // The words of a sliced parse (python/statement_slice.hpp): each finding and fix of this check
  // lies in a statement holding one, and depends only on what the slice keeps around such
  // statements. nullopt (the default) when the check reads more: the whole file is parsed.
  [[nodiscard]] virtual std::optional<std::vector<std::string>> slice_anchors() const { return std::nullopt; }
  // The project facts this check's findings depend on (the result cache keys files by them).
  [[nodiscard]] virtual FactsRead facts_read() const { return {}; }

  [[nodiscard]] const RuleSpec& rule() const { return rule_; }

 private:
  const RuleSpec& rule_;
};

// Builds a check from its catalog entry; throws CatalogError when the params are wrong.
using PythonCheckFactory = std::function<std::unique_ptr<PythonCheck>(const RuleSpec&)>;

// Check families by name, as the catalog's `check.family` names them.
class CheckRegistry {
 public:
  void add_python(std::string family, PythonCheckFactory factory);
  // For C/C++/CUDA and build-file rules.
  void add_file(std::string family, FileCheckFactory factory);
  [[nodiscard]] const PythonCheckFactory* python(std::string_view family) const;
  [[nodiscard]] const FileCheckFactory* file(std::string_view family) const;
  [[nodiscard]] std::vector<std::string> families() const;

 private:
  std::map<std::string, PythonCheckFactory, std::less<>> python_;
  std::map<std::string, FileCheckFactory, std::less<>> file_;
};

}  // namespace torchmigrate::engine
