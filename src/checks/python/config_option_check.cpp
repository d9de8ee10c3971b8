// SPDX-License-Identifier: MIT
// Family `config-option`: torch config options (and config environment variables) that were
// renamed, moved, removed, ignored or retyped. The catalog lists each option with what to do
// for each value it is set to; config_usage finds every spelling of a use.
#include "torchmigrate/checks/python_checks.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/rule_fix.hpp"
#include "torchmigrate/python/statement_edits.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;
using python::remove_statement_and_comments;

enum class Action { Rename, Delete, Report, Ignore };

struct ValueRule {
  std::string when;  // "*" for any value; else the value's source text (the string's content for env vars)
  Action action = Action::Report;
  std::string value;  // replacement value text, if the value changes
  std::string detail;
  std::string title;
  Applicability applicability = Applicability::Safe;
};

struct OptionSpec {
  std::string module;
  std::string key;
  std::vector<std::string> new_keys;  // one for a rename, several when each must be set
  std::string move_to;                // the module the option moved to
  std::string detail;
  FixRequirements requirements;  // the rule's `fix.requires`, or the option's own
  Action read = Action::Report;
  bool display_only_in_options = false;
  std::vector<ValueRule> values;
};

struct EnvSpec {
  std::string name;
  std::string new_name;
  std::string detail;
  std::vector<ValueRule> values;
  FixRequirements requirements;  // the rule's `fix.requires`, or the variable's own
};

Action parse_action(const std::string& text, const std::string& where) {
  if (text == "rename") return Action::Rename;
  if (text == "delete") return Action::Delete;
  if (text == "report") return Action::Report;
  if (text == "ignore") return Action::Ignore;
  throw engine::CatalogError(where + ": unknown action `" + text + "` (rename, delete, report, ignore)");
}

Applicability parse_applicability(const std::string& text, const std::string& where) {
  if (text == "safe") return Applicability::Safe;
  if (text == "unsafe") return Applicability::Unsafe;
  if (text == "display-only") return Applicability::DisplayOnly;
  throw engine::CatalogError(where + ": unknown applicability `" + text + "` (safe, unsafe, display-only)");
}

std::vector<ValueRule> parse_values(const Params& params, const std::string& where) {
  std::vector<ValueRule> rules;
  for (const Params& entry : params.objects("values")) {
    ValueRule rule;
    rule.when = entry.string("when");
    rule.action = parse_action(entry.string("action"), where);
    if (entry.has("value")) rule.value = entry.string("value");
    if (entry.has("detail")) rule.detail = entry.string("detail");
    if (entry.has("title")) rule.title = entry.string("title");
    if (entry.has("applicability")) rule.applicability = parse_applicability(entry.string("applicability"), where);
    entry.finish();
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::string last_segment(std::string_view key) {
  size_t dot = key.rfind('.');
  return std::string(dot == std::string_view::npos ? key : key.substr(dot + 1));
}

std::string parent_path(std::string_view key) {
  size_t dot = key.rfind('.');
  return std::string(dot == std::string_view::npos ? std::string_view() : key.substr(0, dot));
}

size_t argument_count(Node call) {
  Node list = call.field("arguments");
  size_t count = 0;
  for (uint32_t i = 0; list && i < list.named_child_count(); ++i) {
    if (list.named_child(i).kind() != "comment") ++count;
  }
  return count;
}

size_t pair_count(Node dict) {
  size_t count = 0;
  for (uint32_t i = 0; i < dict.named_child_count(); ++i) {
    if (dict.named_child(i).kind() != "comment") ++count;
  }
  return count;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : std::string(separator)) + part;
  return text;
}

class ConfigOptionCheck final : public engine::PythonCheck {
 public:
  explicit ConfigOptionCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const Params& entry : params.objects("options")) {
      OptionSpec spec;
      spec.module = entry.string("module");
      spec.key = entry.string("key");
      std::string where = rule.code + " option `" + spec.key + "`";
      if (entry.has("new_keys")) spec.new_keys = entry.strings("new_keys");
      if (entry.has("move_to")) spec.move_to = entry.string("move_to");
      spec.detail = entry.string("detail");
      spec.requirements = rule.fix_requirements;
      if (entry.has("requires")) spec.requirements = engine::parse_fix_requirements(entry.json("requires"), where + ": requires");
      if (entry.has("read")) spec.read = parse_action(entry.string("read"), where);
      if (entry.has("in_compile_options")) {
        std::string mode = entry.string("in_compile_options");
        if (mode != "fix" && mode != "display-only") throw engine::CatalogError(where + ": in_compile_options is fix or display-only");
        spec.display_only_in_options = mode == "display-only";
      }
      spec.values = parse_values(entry, where);
      entry.finish();
      if (std::find(modules_.begin(), modules_.end(), spec.module) == modules_.end()) modules_.push_back(spec.module);
      size_t dot = spec.key.rfind('.');
      last_names_.insert(dot == std::string::npos ? spec.key : spec.key.substr(dot + 1));
      options_[{spec.module, spec.key}] = std::move(spec);
    }
    if (params.has("environment")) {
      for (const Params& entry : params.objects("environment")) {
        EnvSpec spec;
        spec.name = entry.string("name");
        if (entry.has("new_name")) spec.new_name = entry.string("new_name");
        spec.detail = entry.string("detail");
        spec.values = parse_values(entry, rule.code + " environment variable `" + spec.name + "`");
        spec.requirements = rule.fix_requirements;
        if (entry.has("requires")) {
          spec.requirements = engine::parse_fix_requirements(
              entry.json("requires"), rule.code + " environment variable `" + spec.name + "`: requires");
        }
        entry.finish();
        environment_[spec.name] = std::move(spec);
      }
    }
    params.finish();
    // Every config module is searched, so that a key spelled under another module never
    // matches by accident.
    for (const char* module : {"torch._inductor.config", "torch._dynamo.config", "torch._functorch.config"}) {
      if (std::find(modules_.begin(), modules_.end(), module) == modules_.end()) modules_.emplace_back(module);
    }
  }

  // Every spelling of a use holds the key's last part (`matmul.allow_tf32`, `"allow_tf32"`,
  // `{"triton.cudagraphs": v}`) or the variable's name; a dictionary passed by name is assigned
  // in a statement holding its keys, which makes the name an anchor.
  [[nodiscard]] std::optional<std::vector<std::string>> slice_anchors() const override {
    std::vector<std::string> anchors(last_names_.begin(), last_names_.end());
    for (const auto& [key, spec] : options_) {
      for (const std::string& new_key : spec.new_keys) anchors.push_back(new_key.substr(new_key.rfind('.') + 1));
    }
    for (const auto& [name, spec] : environment_) anchors.push_back(name);
    // torch.compile's options may spell a key with dashes (`"use-mixed-mm"`).
    for (size_t i = 0, count = anchors.size(); i < count; ++i) {
      std::string dashed = anchors[i];
      std::replace(dashed.begin(), dashed.end(), '_', '-');
      if (dashed != anchors[i]) anchors.push_back(std::move(dashed));
    }
    return anchors;
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    if (environment_.empty()) return {"attribute", "call"};
    return {"attribute", "call", "assignment"};
  }

  void visit(Node node, PythonCheckContext& context) override {
    if (!finder_) finder_.emplace(context.model(), modules_);  // a check object lives for one file
    const ConfigUsageFinder& finder = *finder_;
    // An attribute is an option only if its name is an option key's last part: most attributes of
    // a file are not resolved at all.
    bool option_name = node.kind() != "attribute" || last_names_.contains(node.field("attribute").text());
    if (node.kind() != "assignment" && option_name) {
      for (const ConfigUsage& usage : finder.at(node)) {
        auto found = options_.find({usage.module, usage.key});
        if (found == options_.end()) continue;
        if (usage.kind == ConfigUsageKind::DictEntry && !seen_.insert(usage.site.start()).second) continue;
        handle(usage, found->second, finder, context);
      }
    }
    if (!environment_.empty()) {
      for (const EnvUsage& usage : finder.env_at(node)) {
        auto found = environment_.find(usage.name);
        if (found != environment_.end()) handle_env(usage, found->second, context);
      }
    }
  }

 private:
  static const ValueRule* match(const std::vector<ValueRule>& rules, std::string_view value) {
    for (const ValueRule& rule : rules) {
      if (rule.when == "*" || rule.when == value) return &rule;
    }
    return nullptr;
  }

  static bool has_value(ConfigUsageKind kind) {
    return kind != ConfigUsageKind::AttributeRead && kind != ConfigUsageKind::GetAttr;
  }

  void handle(const ConfigUsage& usage, const OptionSpec& spec, const ConfigUsageFinder& finder,
              PythonCheckContext& context) const {
    ValueRule read_rule;
    const ValueRule* rule = nullptr;
    if (has_value(usage.kind) && usage.value) {
      rule = match(spec.values, usage.value.text());
    } else {
      // A read (or a mock without a value): the key alone is renamed or reported.
      read_rule.action = spec.read;
      read_rule.applicability = rule_applicability(this->rule(), Applicability::DisplayOnly);
      rule = &read_rule;
    }
    if (rule == nullptr || rule->action == Action::Ignore) return;

    bool string_key = usage.kind != ConfigUsageKind::AttributeWrite && usage.kind != ConfigUsageKind::AttributeRead &&
                      usage.kind != ConfigUsageKind::PatchKeyword;
    TextRange range = string_key ? usage.key_node.range() : usage.site.range();
    std::string detail = rule->detail.empty() ? spec.detail : rule->detail;
    Diagnostic& diagnostic = context.report(this->rule(), range, {{"option", spec.module + "." + spec.key}, {"detail", detail}});
    if (rule->action == Action::Report) return;

    Fix fix;
    fix.requirements = spec.requirements;
    fix.applicability = rule->applicability;
    bool built = rule->action == Action::Rename ? rename(usage, spec, *rule, finder, fix) : remove(usage, fix);
    if (!built) return;
    if (usage.in_compile_options && spec.display_only_in_options) fix.applicability = Applicability::DisplayOnly;
    if (!rule->title.empty()) fix.title = rule->title;
    diagnostic.fixes.push_back(std::move(fix));
  }

  static bool map_value(const ConfigUsage& usage, const ValueRule& rule, Fix& fix) {
    if (rule.value.empty()) return true;
    if (!usage.value) return false;
    // `{value}` in the replacement stands for the value as written.
    std::string text = rule.value;
    if (size_t at = text.find("{value}"); at != std::string::npos) text.replace(at, 7, usage.value.text());
    fix.edits.push_back(Edit::replace(usage.value.range(), text));
    return true;
  }

  bool rename(const ConfigUsage& usage, const OptionSpec& spec, const ValueRule& rule, const ConfigUsageFinder& finder,
              Fix& fix) const {
    std::vector<std::string> new_keys = spec.new_keys.empty() ? std::vector<std::string>{spec.key} : spec.new_keys;
    if (new_keys.size() > 1) return split(usage, new_keys, rule, fix);
    const std::string& new_key = new_keys.front();
    std::string shown_value = rule.value.empty() ? "" : " = " + rule.value;
    if (!spec.move_to.empty()) {
      fix.title = "Set `" + spec.move_to + "." + new_key + "`" + " instead";
      if (usage.kind == ConfigUsageKind::MockPatchString) {
        fix.edits.push_back(replace_string_content(usage.key_node, spec.move_to + "." + new_key));
        return map_value(usage, rule, fix);
      }
      if (usage.kind != ConfigUsageKind::AttributeWrite && usage.kind != ConfigUsageKind::AttributeRead) return false;
      size_t imported = 0;
      std::optional<std::string> spelling = finder.spelling_of(spec.move_to + "." + new_key, usage.site, &imported);
      if (!spelling) return false;
      // Reaching the new module as an attribute of a parent package relies on it being loaded.
      if (imported < spec.move_to.size()) fix.applicability = least_safe(fix.applicability, Applicability::Unsafe);
      fix.edits.push_back(Edit::replace(usage.site.range(), *spelling));
      return map_value(usage, rule, fix);
    }
    fix.title = "Rename to `" + new_key + "`" + (shown_value.empty() ? "" : " with value `" + rule.value + "`");
    switch (usage.kind) {
      case ConfigUsageKind::AttributeWrite:
      case ConfigUsageKind::AttributeRead: {
        if (parent_path(usage.key) == parent_path(new_key)) {
          fix.edits.push_back(Edit::replace(usage.key_node.range(), last_segment(new_key)));
        } else {
          // Rewrite the whole chain from the expression that names the module.
          Node module = usage.site;
          for (size_t segments = std::count(usage.key.begin(), usage.key.end(), '.') + 1; segments > 0 && module;
               --segments) {
            module = module.field("object");
          }
          auto object = module ? finder.config_object(module) : std::nullopt;
          if (!object || object->first != usage.module || !object->second.empty()) return false;
          fix.edits.push_back(Edit::replace(usage.site.range(), std::string(module.text()) + "." + new_key));
        }
        break;
      }
      case ConfigUsageKind::PatchKeyword:
        if (new_key.find('.') != std::string::npos) return false;
        fix.edits.push_back(Edit::replace(usage.key_node.range(), new_key));
        break;
      case ConfigUsageKind::PatchPositional:
      case ConfigUsageKind::DictEntry:
        fix.edits.push_back(replace_string_content(usage.key_node, new_key));
        break;
      case ConfigUsageKind::GetAttr:
      case ConfigUsageKind::SetAttr:
      case ConfigUsageKind::MockPatchObject:
        if (new_key.compare(0, usage.key_prefix.size(), usage.key_prefix) != 0) return false;
        fix.edits.push_back(replace_string_content(usage.key_node, new_key.substr(usage.key_prefix.size())));
        break;
      case ConfigUsageKind::MockPatchString:
        fix.edits.push_back(replace_string_content(usage.key_node, usage.module + "." + new_key));
        break;
    }
    return map_value(usage, rule, fix);
  }

  // One option replaced by several that each take the same value.
  static bool split(const ConfigUsage& usage, const std::vector<std::string>& new_keys, const ValueRule& rule, Fix& fix) {
    fix.title = "Set `" + join(new_keys, "` and `") + "` instead";
    if (!usage.value || !is_side_effect_free(usage.value)) return false;
    std::string value = rule.value.empty() ? std::string(usage.value.text()) : rule.value;
    std::vector<std::string> parts;
    if (usage.kind == ConfigUsageKind::AttributeWrite) {
      Node statement = enclosing_statement(usage.site.parent());
      if (!statement) return false;
      std::string object(usage.site.field("object").text());
      for (const std::string& key : new_keys) {
        if (parent_path(key) != parent_path(usage.key)) return false;
        std::string part = object;
        part.append(".").append(last_segment(key)).append(" = ").append(value);
        parts.push_back(std::move(part));
      }
      std::string_view source = statement.source();
      uint32_t from = python::line_start(source, statement.start());
      std::string_view indent = source.substr(from, statement.start() - from);
      bool own_line = indent.find_first_not_of(" \t") == std::string_view::npos;
      fix.edits.push_back(Edit::replace(statement.range(), join(parts, own_line ? "\n" + std::string(indent) : "; ")));
      return true;
    }
    if (usage.kind == ConfigUsageKind::DictEntry || usage.kind == ConfigUsageKind::PatchPositional) {
      std::string_view quote = usage.key_node.child(0).text();
      for (const std::string& key : new_keys) {
        std::string part(quote);
        part.append(key).append(quote).append(": ").append(value);
        parts.push_back(std::move(part));
      }
      if (usage.kind == ConfigUsageKind::DictEntry) {
        fix.edits.push_back(Edit::replace(usage.site.range(), join(parts, ", ")));
        return true;
      }
      if (argument_count(usage.owner_call) != 2) return false;
      Node list = usage.owner_call.field("arguments");
      fix.edits.push_back(Edit::replace({list.start() + 1, list.end() - 1}, "{" + join(parts, ", ") + "}"));
      return true;
    }
    return false;
  }

  static bool remove(const ConfigUsage& usage, Fix& fix) {
    fix.title = "Remove the `" + usage.key + "` setting";
    if (usage.value && !is_side_effect_free(usage.value)) return false;
    std::optional<Edit> edit;
    switch (usage.kind) {
      case ConfigUsageKind::AttributeWrite:
        edit = remove_statement_and_comments(enclosing_statement(usage.site.parent()), usage.key);
        break;
      case ConfigUsageKind::PatchKeyword:
        if (argument_count(usage.owner_call) == 1) {
          edit = remove_patch_use(usage.owner_call);
        } else {
          edit = CallArguments(usage.owner_call).remove_argument(usage.site);
        }
        break;
      case ConfigUsageKind::DictEntry: {
        Node dict = usage.site.parent();
        bool whole_patch = !usage.via_local_dict && !usage.in_compile_options && pair_count(dict) == 1 &&
                           argument_count(usage.owner_call) == 1;
        // `options={"only": v}` written in the call loses the whole keyword argument.
        bool whole_keyword = !usage.via_local_dict && usage.in_compile_options && pair_count(dict) == 1 &&
                             dict.parent().kind() == "keyword_argument";
        // `patch(a=1, **{"only": v})` loses the whole `**{...}` argument.
        bool whole_splat = !usage.via_local_dict && pair_count(dict) == 1 && dict.parent().kind() == "dictionary_splat";
        if (whole_patch) {
          edit = remove_patch_use(usage.owner_call);
        } else if (whole_keyword || whole_splat) {
          edit = CallArguments(usage.owner_call).remove_argument(dict.parent());
        } else {
          edit = remove_dict_pair(usage.site);
        }
        break;
      }
      case ConfigUsageKind::PatchPositional:
      case ConfigUsageKind::MockPatchObject:
      case ConfigUsageKind::MockPatchString:
        // A mock without a value injects an argument into the decorated function: keep it.
        if (!usage.value) return false;
        edit = remove_patch_use(usage.owner_call);
        break;
      case ConfigUsageKind::SetAttr:
        edit = remove_statement_and_comments(enclosing_statement(usage.owner_call), usage.key);
        break;
      case ConfigUsageKind::AttributeRead:
      case ConfigUsageKind::GetAttr:
        return false;
    }
    if (!edit) return false;
    fix.edits.push_back(std::move(*edit));
    return true;
  }

  void handle_env(const EnvUsage& usage, const EnvSpec& spec, PythonCheckContext& context) const {
    std::optional<std::string> value = usage.value ? plain_string(usage.value) : std::nullopt;
    const ValueRule* rule = match(spec.values, value ? *value : std::string("\x01"));
    if (rule == nullptr || rule->action == Action::Ignore) return;
    std::string detail = rule->detail.empty() ? spec.detail : rule->detail;
    Diagnostic& diagnostic = context.report(this->rule(), usage.name_node.range(), {{"option", spec.name}, {"detail", detail}});
    if (rule->action == Action::Report) return;
    Fix fix;
    fix.applicability = rule->applicability;
    fix.requirements = spec.requirements;
    if (!rule->title.empty()) fix.title = rule->title;
    if (rule->action == Action::Rename) {
      if (spec.new_name.empty() || (!rule->value.empty() && !value)) return;
      if (fix.title.empty()) fix.title = "Set `" + spec.new_name + (rule->value.empty() ? "" : "=" + rule->value) + "` instead";
      fix.edits.push_back(replace_string_content(usage.name_node, spec.new_name));
      if (!rule->value.empty()) fix.edits.push_back(replace_string_content(usage.value, rule->value));
    } else {
      if (fix.title.empty()) fix.title = "Remove the `" + spec.name + "` setting";
      Node statement = enclosing_statement(usage.site);
      std::optional<Edit> edit = remove_statement_and_comments(statement, spec.name);
      if (!edit) return;
      fix.edits.push_back(std::move(*edit));
    }
    diagnostic.fixes.push_back(std::move(fix));
  }

  std::map<std::pair<std::string, std::string>, OptionSpec> options_;
  std::set<std::string, std::less<>> last_names_;  // of the keys in options_: `allow_tf32`, `cudagraphs`
  std::map<std::string, EnvSpec> environment_;
  std::vector<std::string> modules_;
  std::set<uint32_t> seen_;  // dict entries already reported (a dict may be passed twice)
  std::optional<ConfigUsageFinder> finder_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_config_option_check(const engine::RuleSpec& rule) {
  return std::make_unique<ConfigOptionCheck>(rule);
}

}  // namespace torchmigrate::checks
