// SPDX-License-Identifier: MIT
// Shared machinery for rules about a torch function that was renamed or removed: finds every
// reference (from-import, attribute chain, imported name, alias) and builds fixes that rename
// the import (through `python::ImportEditor`) and all its uses together, or none of them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/engine/python_check.hpp"

namespace torchmigrate::checks {

struct RenameTarget {
  std::string qualified_name;  // torch.export.export_for_inference
  std::string new_name;        // export_for_training
  std::string suggestion;      // what the message tells users to write; new_name when empty
};

class RenamedReferencesCheck : public engine::PythonCheck {
 public:
  RenamedReferencesCheck(const engine::RuleSpec& rule, std::vector<RenameTarget> targets);

  [[nodiscard]] std::vector<std::string_view> node_kinds() const final;
  void visit(python::Node node, engine::PythonCheckContext& context) final;
  void finish(engine::PythonCheckContext& context) final;

 protected:
  // Edits that turn a call (whose callee is already being renamed) into its new form; nullopt
  // when it cannot be rewritten safely (e.g. it passes `**kwargs`).
  virtual std::optional<std::vector<Edit>> rewrite_call(python::Node call, size_t target,
                                                        engine::PythonCheckContext& context) const = 0;
  // Whether a plain reference that is not called (`f = old`) may simply be renamed.
  [[nodiscard]] virtual bool value_rename_keeps_behaviour(size_t target) const = 0;
  [[nodiscard]] const std::vector<RenameTarget>& targets() const { return targets_; }
  void set_targets(std::vector<RenameTarget> targets) { targets_ = std::move(targets); }

 private:
  struct Reference {
    python::Node node;   // identifier or attribute
    python::Node call;   // the call when `node` is its callee
    size_t target = 0;
    const python::Binding* binding = nullptr;  // for imported names
  };
  struct ImportItem {
    python::Node item;  // dotted_name or aliased_import inside the import statement
    size_t target = 0;
    const python::Binding* binding = nullptr;
  };

  void visit_import(python::Node statement, engine::PythonCheckContext& context);
  std::optional<std::vector<Edit>> reference_edits(const Reference& reference, bool rename_identifier,
                                                   engine::PythonCheckContext& context) const;
  std::optional<std::vector<Edit>> group_edits(std::vector<Edit> anchor, bool rename_members,
                                               const std::vector<const Reference*>& members,
                                               engine::PythonCheckContext& context) const;
  [[nodiscard]] std::vector<const Reference*> members_of(const python::Binding* binding) const;
  void report(const Reference& reference, const std::optional<std::vector<Edit>>& edits,
              engine::PythonCheckContext& context) const;

  std::vector<RenameTarget> targets_;
  std::vector<Reference> references_;
  std::vector<ImportItem> imports_;
  // Why the last reference (or group) could not be rewritten, for the message.
  mutable std::string no_fix_reason_;
};

}  // namespace torchmigrate::checks
