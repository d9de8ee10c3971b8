// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/catalog/catalog.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>
#include <set>

#include "embedded_rules.hpp"

namespace torchmigrate::engine {
namespace {

using nlohmann::json;

// Reads one object, rejecting keys it does not know so a typo never passes silently.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail("must be an object");
  }

  [[nodiscard]] std::string string(const std::string& key, bool required = true) {
    seen_.insert(key);
    if (!object_.contains(key)) {
      if (required) fail("missing required key `" + key + "`");
      return {};
    }
    if (!object_[key].is_string()) fail("`" + key + "` must be a string");
    return object_[key].get<std::string>();
  }

  [[nodiscard]] bool boolean(const std::string& key, bool fallback) {
    seen_.insert(key);
    if (!object_.contains(key)) return fallback;
    if (!object_[key].is_boolean()) fail("`" + key + "` must be true or false");
    return object_[key].get<bool>();
  }

  [[nodiscard]] std::vector<std::string> strings(const std::string& key) {
    seen_.insert(key);
    std::vector<std::string> values;
    if (!object_.contains(key)) fail("missing required key `" + key + "`");
    if (!object_[key].is_array()) fail("`" + key + "` must be an array of strings");
    for (const json& item : object_[key]) {
      if (!item.is_string()) fail("`" + key + "` must be an array of strings");
      values.push_back(item.get<std::string>());
    }
    return values;
  }

  [[nodiscard]] std::string choice(const std::string& key, const std::vector<std::string>& allowed,
                                   const std::string& fallback = {}) {
    std::string value = string(key, fallback.empty());
    if (value.empty()) return fallback;
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
      std::string list;
      for (const std::string& option : allowed) list += (list.empty() ? "" : ", ") + option;
      fail("`" + key + "` is `" + value + "`; expected one of: " + list);
    }
    return value;
  }

  [[nodiscard]] const json& object(const std::string& key) {
    seen_.insert(key);
    if (!object_.contains(key)) fail("missing required key `" + key + "`");
    return object_[key];
  }

  [[nodiscard]] const json* optional_object(const std::string& key) {
    seen_.insert(key);
    return object_.contains(key) ? &object_[key] : nullptr;
  }

  void finish() const {
    for (const auto& [key, value] : object_.items()) {
      if (!seen_.count(key)) fail("unknown key `" + key + "`");
    }
  }

  [[noreturn]] void fail(const std::string& what) const { throw CatalogError(where_ + ": " + what); }

 private:
  const json& object_;
  std::string where_;
  std::set<std::string> seen_;
};

TorchVersion version_from(ObjectReader& reader, const std::string& key) {
  std::string text = reader.string(key);
  static const std::regex shape(R"([0-9]+\.[0-9]+)");
  if (!std::regex_match(text, shape)) reader.fail("`" + key + "` is `" + text + "`; expected MAJOR.MINOR");
  return TorchVersion::parse(text);
}

RuleKind kind_from(const std::string& value) {
  if (value == "renamed") return RuleKind::Renamed;
  if (value == "changed-default") return RuleKind::ChangedDefault;
  if (value == "deprecated") return RuleKind::Deprecated;
  if (value == "build") return RuleKind::Build;
  return RuleKind::Removed;
}

Severity severity_from(const std::string& value) {
  if (value == "error") return Severity::Error;
  if (value == "info") return Severity::Info;
  return Severity::Warning;
}

// `trigger_match` and `trigger_groups`; word triggers must be findable by their first word.
void read_triggers(ObjectReader& reader, RuleSpec& rule) {
  std::string match = reader.choice("trigger_match", {"word", "substring", "any-case"}, "word");
  rule.trigger_match = match == "substring" ? TriggerMatch::Substring
                       : match == "any-case" ? TriggerMatch::AnyCase
                                             : TriggerMatch::Word;
  if (const json* groups = reader.optional_object("trigger_groups")) {
    const std::string shape = "`trigger_groups` must be a non-empty array of non-empty arrays of strings";
    if (!groups->is_array() || groups->empty()) reader.fail(shape);
    for (const json& group : *groups) {
      if (!group.is_array() || group.empty()) reader.fail(shape);
      std::vector<std::string>& words = rule.trigger_groups.emplace_back();
      for (const json& word : group) {
        if (!word.is_string()) reader.fail(shape);
        words.push_back(word.get<std::string>());
      }
    }
  }
  auto check = [&](const std::string& trigger) {
    if (rule.trigger_match != TriggerMatch::Word || trigger.empty()) return;
    auto word_byte = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    };
    if (std::none_of(trigger.begin(), trigger.end(), word_byte)) {
      reader.fail("word trigger `" + trigger + "` holds no [A-Za-z0-9_] word; use `trigger_match: substring`");
    }
  };
  for (const std::string& trigger : rule.triggers) check(trigger);
  for (const auto& group : rule.trigger_groups) std::for_each(group.begin(), group.end(), check);
}

}  // namespace

std::string_view to_string(RuleImpact impact) {
  switch (impact) {
    case RuleImpact::Breaks: return "breaks";
    case RuleImpact::SilentChange: return "silent-change";
    case RuleImpact::Deprecated: return "deprecated";
    case RuleImpact::Build: return "build";
    case RuleImpact::Tooling: return "tooling";
  }
  return "breaks";
}

std::string_view to_string(RuleKind kind) {
  switch (kind) {
    case RuleKind::Removed: return "removed";
    case RuleKind::Renamed: return "renamed";
    case RuleKind::ChangedDefault: return "changed-default";
    case RuleKind::Deprecated: return "deprecated";
    case RuleKind::Build: return "build";
  }
  return "removed";
}

FixRequirements parse_fix_requirements(const json& object, const std::string& where) {
  ObjectReader reader(object, where);
  FixRequirements requirements;
  std::string torch = reader.string("torch", false);
  if (!torch.empty()) {
    // A lower bound (where the spelling the fix writes first exists) and an optional upper one
    // (the release that removes it again), compared with the project's supported range.
    static const std::regex bounds(R"((?:>=([0-9]+\.[0-9]+))?(?:,?<([0-9]+\.[0-9]+))?)");
    std::smatch match;
    if (!std::regex_match(torch, match, bounds) || (!match[1].matched && !match[2].matched)) {
      reader.fail("`torch` is `" + torch +
                  "`; expected `>=MAJOR.MINOR`, `<MAJOR.MINOR` or `>=MAJOR.MINOR,<MAJOR.MINOR`");
    }
    if (match[1].matched) requirements.torch = TorchVersion::parse(match[1].str());
    if (match[2].matched) requirements.below = TorchVersion::parse(match[2].str());
    if (requirements.torch && requirements.below && !(*requirements.torch < *requirements.below)) {
      reader.fail("`torch` is `" + torch + "`: no release meets it");
    }
  }
  reader.finish();
  if (requirements.empty()) reader.fail("names no requirement; leave `requires` out instead");
  return requirements;
}

std::string reference_url(std::string_view reference) {
  std::string_view kind = reference.starts_with("pytorch-issue#") ? "issues" : "pull";
  return "https://github.com/pytorch/pytorch/" + std::string(kind) + "/" +
         std::string(reference.substr(reference.find('#') + 1));
}

std::string rule_docs_file(const RuleSpec& rule) { return rule.code + "-" + rule.name + ".md"; }

std::string rule_docs_url([[maybe_unused]] const RuleSpec& rule) {
#ifdef TORCHMIGRATE_RULE_DOCS_URL
  std::string base = TORCHMIGRATE_RULE_DOCS_URL;
  return base + (base.ends_with('/') ? "" : "/") + rule_docs_file(rule);
#else
  return {};
#endif
}

std::string fix_label(const RuleSpec& rule, bool with_policies) {
  if (!rule.fix_applicability) return "none";
  std::string label(to_string(*rule.fix_applicability));
  if (!rule.fix_requirements.empty()) label += " (needs " + to_string(rule.fix_requirements) + ")";
  if (with_policies && rule.fix_policies) label += ", keep-old/adopt-new";
  return label;
}

std::string_view example_language(const RuleSpec& rule) {
  switch (rule.language) {
    case RuleLanguage::Python: return "python";
    case RuleLanguage::Cxx: return "cpp";
    case RuleLanguage::Build: break;
  }
  return "";
}

std::string markdown_code_block(std::string_view language, std::string_view code) {
  return fmt::format("```{}\n{}{}```\n", language, code, code.ends_with('\n') ? "" : "\n");
}

std::string adopt_new_lead(const RuleSpec& rule) {
  return fmt::format("Or, adopting the {} behaviour", rule.release.to.str());
}

std::string RuleSpec::format_message(const std::map<std::string, std::string>& values) const {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    if (message[i] == '{') {
      size_t close = message.find('}', i);
      if (close != std::string::npos) {
        auto it = values.find(message.substr(i + 1, close - i - 1));
        if (it != values.end()) {
          out += it->second;
          i = close;
          continue;
        }
      }
    }
    out += message[i];
  }
  return out;
}

namespace {

RuleDocs read_docs(const json& object, const std::string& origin, RuleLanguage language) {
  ObjectReader docs(object, origin + ": docs");
  RuleDocs result;
  result.what = docs.string("what");
  result.why = docs.string("why");
  result.before = docs.string("before");
  result.after = docs.string("after");
  result.after_adopt_new = docs.string("after_adopt_new", false);
  result.fix_safety = docs.string("fix_safety");
  result.limitations = docs.string("limitations");
  result.example_file = docs.string("example_file", false);
  if (result.example_file.find_first_of("/\\") != std::string::npos) {
    docs.fail("`example_file` is a file name without directories, e.g. \"Dockerfile\"");
  }
  if (result.example_file.empty()) {
    if (language == RuleLanguage::Build) {
      docs.fail(
          "build rules need `example_file` (e.g. \"Dockerfile\", \"requirements.txt\") to say what the examples are");
    }
    result.example_file = language == RuleLanguage::Cxx ? "example.cpp" : "example.py";
  }
  docs.finish();
  return result;
}

}  // namespace

LazyDocs::LazyDocs(RuleDocs docs) : docs_(std::move(docs)) {}

LazyDocs::LazyDocs(std::string_view json, std::string origin, RuleLanguage language)
    : json_(json), origin_(std::move(origin)), language_(language) {}

const RuleDocs& LazyDocs::get() const {
  std::call_once(once_, [&] {
    if (json_.empty()) return;
    json parsed;
    try {
      parsed = json::parse(json_);
    } catch (const json::parse_error& error) {
      throw CatalogError(origin_ + ": docs: invalid JSON: " + error.what());
    }
    docs_ = read_docs(parsed, origin_, language_);
  });
  return docs_;
}

namespace {

// A rule's `fix` object; `newest` is the release a requirement may not lie beyond.
void read_fix(const json& object, const std::string& where, TorchVersion newest, RuleSpec& rule) {
  ObjectReader fix(object, where);
  std::string applicability = fix.choice("applicability", {"safe", "unsafe", "display-only", "none"});
  rule.fix_applicability.reset();
  if (applicability == "safe") rule.fix_applicability = Applicability::Safe;
  if (applicability == "unsafe") rule.fix_applicability = Applicability::Unsafe;
  if (applicability == "display-only") rule.fix_applicability = Applicability::DisplayOnly;
  rule.fix_requirements = {};
  if (const json* requirements = fix.optional_object("requires")) {
    if (!rule.fix_applicability) fix.fail("a rule without a fix has no `requires`");
    rule.fix_requirements = parse_fix_requirements(*requirements, where + ".requires");
    if (rule.fix_requirements.torch && newest < *rule.fix_requirements.torch) {
      fix.fail("`requires` names a torch newer than the rule's release");
    }
  }
  rule.fix_policies = fix.boolean("policies", false);
  fix.finish();
}

// `targets`: how later releases change the rule. Each entry copies the rule with its overrides
// (message, severity, fix, check parameters) for projects whose range reaches `from`.
void read_variants(const json& targets, const std::string& origin, RuleSpec& rule) {
  if (!targets.is_array() || targets.empty()) {
    throw CatalogError(origin + ": `targets` must be a non-empty array of objects");
  }
  std::optional<TorchVersion> previous;
  for (size_t i = 0; i < targets.size(); ++i) {
    std::string where = origin + ": targets[" + std::to_string(i) + "]";
    ObjectReader entry(targets[i], where);
    auto variant = std::make_shared<RuleSpec>(rule);
    variant->variants.clear();
    variant->variant_from = version_from(entry, "from");
    if (!(rule.since_release < *variant->variant_from)) entry.fail("`from` must be a release after the rule's `since`");
    if (previous && !(*previous < *variant->variant_from)) entry.fail("`from` releases must ascend");
    previous = variant->variant_from;
    std::string message = entry.string("message", false);
    if (!message.empty()) variant->message = message;
    std::string severity = entry.choice("severity", {"error", "warning", "info"}, "-");
    if (severity != "-") variant->severity = severity_from(severity);
    if (const json* fix = entry.optional_object("fix"))
      read_fix(*fix, where + ": fix", *variant->variant_from, *variant);
    if (const json* params = entry.optional_object("params")) {
      if (!params->is_object()) entry.fail("`params` must be an object");
      json merged = rule.check_params ? *rule.check_params : json::object();
      for (const auto& [key, value] : params->items()) merged[key] = value;
      variant->check_params = std::make_shared<const json>(std::move(merged));
    }
    entry.finish();
    if (variant->fix_policies && !rule.fix_policies) entry.fail("keep-old/adopt-new fixes belong to the rule itself");
    rule.variants.push_back(std::move(variant));
  }
}

}  // namespace

const RuleSpec& RuleSpec::reaching(TorchVersion newest) const {
  const RuleSpec* chosen = this;
  for (const auto& variant : variants) {
    if (!(newest < *variant->variant_from)) chosen = variant.get();
  }
  return *chosen;
}

RuleSpec parse_rule(const json& entry, const std::string& origin, std::string_view docs_json) {
  ObjectReader reader(entry, origin);
  RuleSpec rule;
  rule.code = reader.string("code");
  rule.name = reader.string("name");
  rule.summary = reader.string("summary");
  rule.message = reader.string("message");
  rule.severity = severity_from(reader.choice("severity", {"error", "warning", "info"}));
  rule.default_enabled = reader.boolean("default_enabled", true);
  rule.since = reader.string("since");
  rule.removed_in = reader.string("removed_in", false);
  rule.since_release = version_from(reader, "since");
  if (!rule.removed_in.empty()) {
    rule.removed_release = version_from(reader, "removed_in");
    if (!(rule.since_release < *rule.removed_release)) reader.fail("`removed_in` must be a release after `since`");
  }
  if (const json* superseded = reader.optional_object("superseded")) {
    ObjectReader successor(*superseded, origin + ": superseded");
    rule.superseded = RuleSpec::Successor{successor.string("by"), version_from(successor, "from")};
    successor.finish();
    if (!(rule.since_release < rule.superseded->from)) reader.fail("`superseded.from` must be a release after `since`");
  }
  rule.confidence = reader.choice("confidence", {"high", "medium", "heuristic"});
  rule.references = reader.strings("references");
  std::string language = reader.choice("language", {"python", "cxx", "build"}, "python");
  rule.language = language == "cxx" ? RuleLanguage::Cxx : language == "build" ? RuleLanguage::Build : RuleLanguage::Python;
  rule.kind = kind_from(reader.choice("kind", {"removed", "renamed", "changed-default", "deprecated", "build"}));
  if ((rule.kind == RuleKind::Build) != (rule.language == RuleLanguage::Build)) {
    reader.fail("`kind` is `build` exactly for rules whose `language` is `build`");
  }

  std::string impact = reader.choice("impact", {"breaks", "silent-change", "deprecated", "build", "tooling"});
  for (RuleImpact each :
       {RuleImpact::Breaks, RuleImpact::SilentChange, RuleImpact::Deprecated, RuleImpact::Build, RuleImpact::Tooling}) {
    if (to_string(each) == impact) rule.impact = each;
  }

  ObjectReader release(reader.object("release"), origin + ": release");
  rule.release.from = version_from(release, "from");
  rule.release.to = version_from(release, "to");
  release.finish();
  if (!(rule.release.from < rule.release.to)) release.fail("`from` must be an older release than `to`");

  rule.triggers = reader.strings("triggers");
  if (entry.contains("compat_markers")) rule.compat_markers = reader.strings("compat_markers");
  if (rule.triggers.empty()) reader.fail("`triggers` needs at least one entry");
  read_triggers(reader, rule);
  if (const json* attributes = reader.optional_object("compat_attributes")) {
    ObjectReader names(*attributes, origin + ": compat_attributes");
    if (attributes->contains("old")) rule.compat_attributes.old_names = names.strings("old");
    if (attributes->contains("new")) rule.compat_attributes.new_names = names.strings("new");
    names.finish();
    if (rule.compat_attributes.old_names.empty() && rule.compat_attributes.new_names.empty()) {
      names.fail("needs `old` or `new` names");
    }
    if (rule.kind == RuleKind::ChangedDefault || rule.kind == RuleKind::Build) {
      names.fail("only rules about an API (removed, renamed, deprecated) have attribute tests");
    }
  }

  ObjectReader check(reader.object("check"), origin + ": check");
  rule.check_family = check.string("family");
  if (const json* params = check.optional_object("params")) rule.check_params = std::make_shared<const json>(*params);
  check.finish();

  read_fix(reader.object("fix"), origin + ": fix", rule.release.to, rule);
  if (rule.fix_policies && rule.kind != RuleKind::ChangedDefault) {
    reader.fail("keep-old/adopt-new fixes (`fix.policies`) belong to `changed-default` rules");
  }
  if (const json* targets = reader.optional_object("targets")) read_variants(*targets, origin, rule);

  if (docs_json.empty()) {
    rule.lazy_docs = std::make_shared<const LazyDocs>(read_docs(reader.object("docs"), origin, rule.language));
  } else {
    rule.lazy_docs = std::make_shared<const LazyDocs>(docs_json, origin, rule.language);
  }
  reader.finish();
  return rule;
}

Catalog Catalog::parse(const std::vector<std::pair<std::string, std::string_view>>& sources) {
  std::vector<RuleSpec> rules;
  for (const auto& [origin, text] : sources) {
    json parsed;
    try {
      parsed = json::parse(text);
    } catch (const json::parse_error& error) {
      throw CatalogError(origin + ": invalid JSON: " + error.what());
    }
    rules.push_back(parse_rule(parsed, origin));
  }
  return from_rules(std::move(rules));
}

Catalog Catalog::from_rules(std::vector<RuleSpec> rules) {
  Catalog catalog;
  catalog.rules_ = std::move(rules);
  std::sort(catalog.rules_.begin(), catalog.rules_.end(),
            [](const RuleSpec& a, const RuleSpec& b) { return a.code < b.code; });
  for (size_t i = 1; i < catalog.rules_.size(); ++i) {
    if (catalog.rules_[i].code == catalog.rules_[i - 1].code) {
      throw CatalogError("rule " + catalog.rules_[i].code + " is defined twice");
    }
  }
  for (size_t i = 0; i < catalog.rules_.size(); ++i) {
    const RuleRelease& release = catalog.rules_[i].release;
    if (i == 0 || release.from < catalog.release_.from) catalog.release_.from = release.from;
    if (i == 0 || catalog.release_.to < release.to) catalog.release_.to = release.to;
  }
  for (const RuleSpec& rule : catalog.rules_) {
    if (rule.superseded && catalog.find(rule.superseded->code) == nullptr) {
      throw CatalogError(rule.code + ": superseded by unknown rule " + rule.superseded->code);
    }
  }
  std::set<TorchVersion> targets;
  for (const RuleSpec& rule : catalog.rules_) {
    targets.insert(rule.release.to);
    targets.insert(rule.since_release);
    if (rule.removed_release) targets.insert(*rule.removed_release);
    if (rule.superseded) targets.insert(rule.superseded->from);
    for (const auto& variant : rule.variants) targets.insert(*variant->variant_from);
  }
  // Every release between the first and the newest a rule names is a target too: a project
  // may upgrade to 2.10 although no rule changes there.
  for (TorchVersion at = *targets.begin(); at < *targets.rbegin(); at = at.next()) targets.insert(at);
  for (TorchVersion target : targets) {
    if (catalog.release_.from < target) catalog.targets_.push_back(target);
  }
  return catalog;
}

const Catalog& Catalog::builtin() {
  static const Catalog catalog = [] {
    // The build split each entry's `docs` off (cmake/embed_rules.cmake): read when first asked.
    std::vector<RuleSpec> rules;
    for (const EmbeddedRule& rule : embedded_rules()) {
      std::string origin(rule.file_name);
      rules.push_back(parse_rule(json::parse(rule.json), origin, rule.docs));
    }
    return from_rules(std::move(rules));
  }();
  return catalog;
}

ReleaseNames builtin_release_names() {
  EmbeddedRelease release = embedded_release();
  return {release.from, release.to, release.first_to};
}

TorchVersion default_min_torch() { return TorchVersion::parse(builtin_release_names().from); }

TorchVersion default_target() { return TorchVersion::parse(builtin_release_names().first_to); }

TorchVersion Catalog::parse_target(std::string_view text) const {
  std::string allowed;
  for (TorchVersion target : targets_) allowed += target.str() + ", ";
  allowed += "or latest";
  if (text == "latest" && !targets_.empty()) return targets_.back();
  std::optional<TorchVersion> version;
  try {
    version = TorchVersion::parse(text);
  } catch (const std::invalid_argument&) {
  }
  if (!version || std::find(targets_.begin(), targets_.end(), *version) == targets_.end()) {
    throw std::invalid_argument("unknown target version `" + std::string(text) + "`; expected " + allowed);
  }
  return *version;
}

const RuleSpec* Catalog::find(std::string_view code) const {
  for (const RuleSpec& rule : rules_) {
    if (rule.code == code) return &rule;
  }
  return nullptr;
}

const RuleSpec* Catalog::find_by_code_or_name(std::string_view code_or_name) const {
  for (const RuleSpec& rule : rules_) {
    if (rule.code == code_or_name || rule.name == code_or_name) return &rule;
  }
  return nullptr;
}

}  // namespace torchmigrate::engine
