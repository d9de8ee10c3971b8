// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/config_usage.hpp"

#include <algorithm>
#include <array>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/python/statement_edits.hpp"

namespace torchmigrate::checks {
namespace {

using python::is_blank;
using python::line_start;
using python::next_line_start;
using python::Node;
using python::remove_from_sequence;
using python::remove_lines_spanning_neighbour;
using python::remove_statement;
using python::rest_of_line_is_empty;

// ---------------------------------------------------------------------------------------------
// The entry points known by name: how Python code reads and sets any config option or
// environment variable. What changed about an option is the catalog's (the `config-option`
// params in rules/*.json); these ways of setting one are shared by every such rule, so they live
// here, in one table.

// A call that takes a dict of Inductor options.
struct OptionsCall {
  std::string_view callee;   // fully qualified
  std::string_view keyword;  // the argument that holds the dict
  // torch.compile's options: read only by the Inductor backend (the default), and a `-` in a key
  // reads as `_` (`key.replace("-", "_")`).
  bool compile_options;
};

struct EntryPoints {
  // The builtins that read and write an attribute by name: `getattr(cfg.a, "b")`,
  // `setattr(cfg.a, "b", v)`.
  std::string_view getattr = "getattr";
  std::string_view setattr = "setattr";
  // unittest.mock's patchers, however imported: `patch.object(cfg.a, "b", v)` and
  // `patch("torch._inductor.config.a.b", v)`; both also take the value as `new=`.
  std::array<std::string_view, 2> mock_patch_object = {"unittest.mock.patch.object", "mock.patch.object"};
  std::array<std::string_view, 2> mock_patch = {"unittest.mock.patch", "mock.patch"};
  std::string_view mock_value_keyword = "new";
  // The methods of every config module: `cfg.patch(...)` (keywords, `"key", value`, a dict or a
  // `**dict`) and `cfg.load_config(dict)`.
  std::string_view patch_method = "patch";
  std::string_view load_config_method = "load_config";
  // The calls that take Inductor options as a dict, and the config module those options are of.
  std::array<OptionsCall, 4> options_calls = {{
      {"torch.compile", "options", true},
      {"torch._export.aot_compile", "options", false},
      {"torch._inductor.aot_compile", "options", false},
      {"torch._inductor.aoti_compile_and_package", "inductor_configs", false},
  }};
  std::string_view options_module = "torch._inductor.config";
  // torch.compile's `backend=` argument, and the backend that reads its `options=`.
  std::string_view compile_backend_keyword = "backend";
  std::string_view inductor_backend = "inductor";
  // Setting an environment variable: `os.environ["X"] = v`, `os.environ.setdefault("X", v)`,
  // `os.putenv("X", v)`.
  std::string_view os_environ = "os.environ";
  std::array<std::string_view, 2> environment_setters = {"os.environ.setdefault", "os.putenv"};
};

constexpr EntryPoints kEntryPoints{};

template <size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool has_multiline_string(Node node) {
  std::string_view kind = node.kind();
  if ((kind == "string" || kind == "concatenated_string") && node.text().find('\n') != std::string_view::npos) {
    return true;
  }
  for (uint32_t i = 0; i < node.named_child_count(); ++i) {
    if (has_multiline_string(node.named_child(i))) return true;
  }
  return false;
}

// `with a, b:` -> `with b:`; `with a:` -> its body, dedented (or `if True:` when dedenting
// would change a multi-line string).
std::optional<Edit> remove_with_item(Node item) {
  Node clause = item.parent();
  Node with = clause.parent();
  if (!with || with.kind() != "with_statement") return std::nullopt;
  std::vector<Node> items;
  for (uint32_t i = 0; i < clause.named_child_count(); ++i) {
    if (clause.named_child(i).kind() == "with_item") items.push_back(clause.named_child(i));
  }
  if (items.size() > 1) return remove_from_sequence(items, item);

  std::string_view source = with.source();
  Node body = with.field("body");
  Node colon;
  for (uint32_t i = 0; i < with.child_count(); ++i) {
    if (with.child(i).kind() == ":") colon = with.child(i);
  }
  if (!body || !colon) return std::nullopt;
  uint32_t header_start = with.start();
  if (with.child(0).kind() == "async") header_start = with.child(0).start();
  uint32_t body_line = next_line_start(source, colon.end());
  if (body.start() < body_line) {
    // `with p: stmt` on one line: keep the statements.
    return Edit::remove({header_start, body.start()});
  }
  uint32_t with_line = line_start(source, header_start);
  std::string_view outer_indent = source.substr(with_line, header_start - with_line);
  uint32_t first_line = line_start(source, body.start());
  std::string_view inner_indent = source.substr(first_line, body.start() - first_line);
  if (!is_blank(outer_indent) || !is_blank(inner_indent) || inner_indent.size() <= outer_indent.size() ||
      inner_indent.substr(0, outer_indent.size()) != outer_indent || has_multiline_string(body)) {
    return Edit::replace({header_start, colon.end()}, "if True:");
  }
  size_t strip = inner_indent.size() - outer_indent.size();
  std::string text;
  std::string_view rest = source.substr(body_line, with.end() - body_line);
  while (!rest.empty()) {
    size_t newline = rest.find('\n');
    std::string_view line = rest.substr(0, newline);
    size_t blanks = 0;
    while (blanks < line.size() && (line[blanks] == ' ' || line[blanks] == '\t')) ++blanks;
    if (blanks == line.size()) {
      text += line;  // blank lines stay as they are
    } else {
      // Remove `strip` columns after the outer indentation, or what there is of them.
      size_t from = std::min(outer_indent.size(), blanks);
      size_t count = std::min(strip, blanks - from);
      text += line.substr(0, from);
      text += line.substr(from + count);
    }
    if (newline == std::string_view::npos) break;
    text += '\n';
    rest.remove_prefix(newline + 1);
  }
  return Edit::replace({with_line, with.end()}, text);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Strings and values

std::optional<std::string> plain_string(Node node) {
  if (!node || node.kind() != "string") return std::nullopt;
  Node start = node.child(0);
  Node end = node.child(node.child_count() - 1);
  if (!start || !end || start.kind() != "string_start" || end.kind() != "string_end") return std::nullopt;
  std::string_view prefix = start.text();
  if (prefix.find_first_of("fFbB") != std::string_view::npos) return std::nullopt;
  std::string_view content = node.source().substr(start.end(), end.start() - start.end());
  if (content.find('\\') != std::string_view::npos) return std::nullopt;
  return std::string(content);
}

Edit replace_string_content(Node string, std::string_view content) {
  Node start = string.child(0);
  Node end = string.child(string.child_count() - 1);
  return Edit::replace({start.end(), end.start()}, std::string(content));
}

bool is_side_effect_free(Node node) {
  if (!node) return false;
  std::string_view kind = node.kind();
  if (kind == "true" || kind == "false" || kind == "none" || kind == "integer" || kind == "float" ||
      kind == "identifier" || kind == "string" || kind == "concatenated_string") {
    return true;
  }
  if (kind == "attribute") return is_side_effect_free(node.field("object"));
  if (kind == "unary_operator") return is_side_effect_free(node.field("argument"));
  // A set display only hashes its elements: identity for the classes and literals met here.
  if (kind == "parenthesized_expression" || kind == "tuple" || kind == "list" || kind == "set") {
    for (uint32_t i = 0; i < node.named_child_count(); ++i) {
      if (!is_side_effect_free(node.named_child(i))) return false;
    }
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Removal edits

Node enclosing_statement(Node expression) {
  Node parent = expression.parent();
  if (parent && parent.kind() == "expression_statement" && parent.named_child_count() == 1) return parent;
  return {};
}

std::optional<Edit> remove_patch_use(Node call) {
  Node parent = call.parent();
  if (!parent) return std::nullopt;
  std::string_view source = call.source();
  if (parent.kind() == "decorator") {
    uint32_t from = line_start(source, parent.start());
    if (!is_blank(source.substr(from, parent.start() - from)) || !rest_of_line_is_empty(source, parent.end())) {
      return std::nullopt;
    }
    return Edit::remove({from, next_line_start(source, parent.end())});
  }
  if (parent.kind() == "with_item") return remove_with_item(parent);  // `as` targets sit in an as_pattern
  if (Node statement = enclosing_statement(call)) return remove_statement(statement);
  return std::nullopt;
}

Edit remove_dict_pair(Node pair) {
  Node dict = pair.parent();
  std::vector<Node> entries;
  for (uint32_t i = 0; i < dict.named_child_count(); ++i) {
    if (dict.named_child(i).kind() != "comment") entries.push_back(dict.named_child(i));
  }
  if (entries.size() == 1) return Edit::remove({dict.start() + 1, dict.end() - 1});
  // One entry per line: drop the whole line, with its comma and comment.
  std::string_view source = pair.source();
  uint32_t from = line_start(source, pair.start());
  uint32_t after = pair.end();
  if (Node comma = pair.next_sibling(); comma && comma.kind() == ",") after = comma.end();
  if (is_blank(source.substr(from, pair.start() - from)) && rest_of_line_is_empty(source, after) &&
      after != pair.end()) {
    auto self = std::find(entries.begin(), entries.end(), pair);
    return remove_lines_spanning_neighbour(source, entries, self, from, next_line_start(source, after));
  }
  return remove_from_sequence(entries, pair);
}

// ---------------------------------------------------------------------------------------------
// Finding uses

ConfigUsageFinder::ConfigUsageFinder(const python::SemanticModel& model, std::vector<std::string> modules)
    : model_(model), modules_(std::move(modules)) {}

std::optional<std::string> ConfigUsageFinder::module_of(std::string_view qualified, std::string* rest) const {
  for (const std::string& module : modules_) {
    if (qualified.size() >= module.size() && qualified.substr(0, module.size()) == module &&
        (qualified.size() == module.size() || qualified[module.size()] == '.')) {
      if (rest != nullptr) {
        *rest = qualified.size() == module.size() ? std::string() : std::string(qualified.substr(module.size() + 1));
      }
      return module;
    }
  }
  return std::nullopt;
}

std::optional<std::pair<std::string, std::string>> ConfigUsageFinder::config_object(Node expression) const {
  std::optional<std::string> qualified = model_.resolve(expression);
  if (!qualified) return std::nullopt;
  std::string rest;
  std::optional<std::string> module = module_of(*qualified, &rest);
  if (!module) return std::nullopt;
  return std::make_pair(*module, rest.empty() ? rest : rest + ".");
}

std::optional<std::string> ConfigUsageFinder::spelling_of(std::string_view qualified, Node at, size_t* imported) const {
  // Prefer the longest imported prefix of `qualified` that is visible at `at`.
  std::optional<std::string> best;
  size_t best_length = 0;
  // Only the scopes around `at` hold bindings visible there.
  for (const python::Scope* scope : model_.enclosing_scopes(at.start())) {
    for (const auto& [name, bindings] : scope->bindings) {
      for (const python::Binding& binding : bindings) {
        const std::string& target = binding.qualified_name;
        if (binding.kind == python::BindingKind::Local || target.empty() || target.size() <= best_length) continue;
        if (qualified.substr(0, target.size()) != target ||
            (qualified.size() > target.size() && qualified[target.size()] != '.')) {
          continue;
        }
        if (model_.lookup(name, at) != &binding) continue;
        best = name + std::string(qualified.substr(target.size()));
        best_length = target.size();
      }
    }
  }
  if (imported != nullptr) *imported = best_length;
  return best;
}

std::vector<ConfigUsage> ConfigUsageFinder::at(Node node) const {
  std::vector<ConfigUsage> out;
  if (node.kind() == "attribute") from_attribute(node, out);
  if (node.kind() == "call") from_call(node, out);
  return out;
}

void ConfigUsageFinder::from_attribute(Node attribute, std::vector<ConfigUsage>& out) const {
  std::optional<std::string> qualified = model_.resolve(attribute);
  if (!qualified) return;
  std::string key;
  std::optional<std::string> module = module_of(*qualified, &key);
  if (!module || key.empty()) return;
  ConfigUsage usage;
  usage.module = *module;
  usage.key = key;
  usage.site = attribute;
  usage.key_node = attribute.field("attribute");
  Node parent = attribute.parent();
  if (parent && parent.kind() == "assignment" && parent.field("left") == attribute) {
    usage.kind = ConfigUsageKind::AttributeWrite;
    usage.value = parent.field("right");
  } else {
    usage.kind = ConfigUsageKind::AttributeRead;
  }
  out.push_back(std::move(usage));
}

Node ConfigUsageFinder::local_dict(Node identifier) const {
  if (!identifier || identifier.kind() != "identifier") return {};
  const python::Binding* binding = model_.lookup(identifier.text(), identifier);
  if (binding == nullptr || binding->kind != python::BindingKind::Local) return {};
  Node statement = binding->node;
  if (!statement || statement.kind() != "assignment") return {};
  Node left = statement.field("left");
  Node right = statement.field("right");
  if (!left || left.kind() != "identifier" || left.text() != identifier.text()) return {};
  if (!right || right.kind() != "dictionary") return {};
  return right;
}

void ConfigUsageFinder::dict_entries(Node dict, const std::string& module, Node owner, bool via_local, DictSource source,
                                     std::vector<ConfigUsage>& out) const {
  for (uint32_t i = 0; i < dict.named_child_count(); ++i) {
    Node pair = dict.named_child(i);
    if (pair.kind() != "pair") continue;
    Node key = pair.field("key");
    std::optional<std::string> text = plain_string(key);
    if (!text) continue;
    // torch.compile reads `"use-mixed-mm"` as `use_mixed_mm` (`key.replace("-", "_")`).
    if (source == DictSource::CompileOptions) std::replace(text->begin(), text->end(), '-', '_');
    ConfigUsage usage;
    usage.kind = ConfigUsageKind::DictEntry;
    usage.module = module;
    usage.key = *text;
    usage.site = pair;
    usage.key_node = key;
    usage.value = pair.field("value");
    usage.owner_call = owner;
    usage.via_local_dict = via_local;
    usage.in_compile_options = source != DictSource::Patch;
    out.push_back(std::move(usage));
  }
}

namespace {

// Whether a call of `callee` may name config options: a mock patcher, a call that takes an options
// dict, or a method that config modules have. The arguments of other calls are not read.
bool may_name_options(std::string_view callee) {
  if (one_of(callee, kEntryPoints.mock_patch_object) || one_of(callee, kEntryPoints.mock_patch)) return true;
  const auto& calls = kEntryPoints.options_calls;
  if (std::any_of(calls.begin(), calls.end(), [&](const OptionsCall& c) { return c.callee == callee; })) return true;
  std::string_view method = callee.substr(callee.rfind('.') + 1);
  return method == kEntryPoints.patch_method || method == kEntryPoints.load_config_method;
}

}  // namespace

void ConfigUsageFinder::from_call(Node call, std::vector<ConfigUsage>& out) const {
  Node function = call.field("function");
  bool by_name = function && function.kind() == "identifier" &&
                 (function.text() == kEntryPoints.getattr || function.text() == kEntryPoints.setattr);
  if (by_name) {
    CallArguments arguments(call);
    if (!arguments.valid() || from_attribute_call(call, arguments, out)) return;
  }
  std::optional<std::string> callee = model_.resolve_call(call);
  if (!callee || !may_name_options(*callee)) return;
  CallArguments arguments(call);
  if (!arguments.valid()) return;
  if (from_mock_call(call, *callee, arguments, out)) return;
  if (from_options_call(call, *callee, arguments, out)) return;
  from_config_method(call, *callee, arguments, out);
}

std::optional<ConfigUsage> ConfigUsageFinder::named_on_object(ConfigUsageKind kind, Node call, Node object,
                                                              Node name) const {
  auto config = config_object(object);
  std::optional<std::string> key = plain_string(name);
  if (!config || !key) return std::nullopt;
  ConfigUsage usage;
  usage.kind = kind;
  usage.module = config->first;
  usage.key_prefix = config->second;
  usage.key = config->second + *key;
  usage.site = call;
  usage.key_node = name;
  usage.owner_call = call;
  return usage;
}

bool ConfigUsageFinder::from_attribute_call(Node call, const CallArguments& arguments,
                                            std::vector<ConfigUsage>& out) const {
  // getattr / setattr on a config object (the builtins, not a local function of that name).
  const std::vector<Node>& positional = arguments.positional();
  Node function = call.field("function");
  if (!function || function.kind() != "identifier") return false;
  bool get = function.text() == kEntryPoints.getattr;
  if ((!get && function.text() != kEntryPoints.setattr) || model_.lookup(function.text(), function) != nullptr ||
      positional.size() < 2) {
    return false;
  }
  ConfigUsageKind kind = get ? ConfigUsageKind::GetAttr : ConfigUsageKind::SetAttr;
  std::optional<ConfigUsage> usage = named_on_object(kind, call, positional[0], positional[1]);
  if (!usage) return true;
  if (kind == ConfigUsageKind::SetAttr && positional.size() >= 3) usage->value = positional[2];
  out.push_back(std::move(*usage));
  return true;
}

bool ConfigUsageFinder::from_mock_call(Node call, const std::string& callee, const CallArguments& arguments,
                                       std::vector<ConfigUsage>& out) const {
  const std::vector<Node>& positional = arguments.positional();
  if (one_of(callee, kEntryPoints.mock_patch_object)) {
    if (positional.size() < 2) return true;
    std::optional<ConfigUsage> usage =
        named_on_object(ConfigUsageKind::MockPatchObject, call, positional[0], positional[1]);
    if (!usage) return true;
    usage->value = positional.size() >= 3 ? positional[2] : arguments.keyword_value(kEntryPoints.mock_value_keyword);
    out.push_back(std::move(*usage));
    return true;
  }
  if (!one_of(callee, kEntryPoints.mock_patch)) return false;
  if (positional.empty()) return true;
  std::optional<std::string> target = plain_string(positional[0]);
  std::string key;
  std::optional<std::string> module = target ? module_of(*target, &key) : std::nullopt;
  if (!module || key.empty()) return true;
  ConfigUsage usage;
  usage.kind = ConfigUsageKind::MockPatchString;
  usage.module = *module;
  usage.key = key;
  usage.key_prefix = *module + ".";
  usage.site = call;
  usage.key_node = positional[0];
  usage.value = positional.size() >= 2 ? positional[1] : arguments.keyword_value(kEntryPoints.mock_value_keyword);
  usage.owner_call = call;
  out.push_back(std::move(usage));
  return true;
}

bool ConfigUsageFinder::from_options_call(Node call, const std::string& callee, const CallArguments& arguments,
                                          std::vector<ConfigUsage>& out) const {
  // torch.compile(options=...) and the AOT entry points take Inductor option dicts.
  const auto& calls = kEntryPoints.options_calls;
  auto entry = std::find_if(calls.begin(), calls.end(), [&](const OptionsCall& c) { return c.callee == callee; });
  if (entry == calls.end()) return false;
  if (entry->compile_options) {
    Node backend = arguments.keyword_value(kEntryPoints.compile_backend_keyword);
    std::optional<std::string> name = plain_string(backend);
    if (backend && !(name && *name == kEntryPoints.inductor_backend)) return false;
  }
  Node value = arguments.keyword_value(entry->keyword);
  if (!value) return true;
  DictSource source = entry->compile_options ? DictSource::CompileOptions : DictSource::AotOptions;
  dict_argument(value, std::string(kEntryPoints.options_module), call, source, out);
  return true;
}

void ConfigUsageFinder::from_config_method(Node call, const std::string& callee, const CallArguments& arguments,
                                           std::vector<ConfigUsage>& out) const {
  // config.patch(...) / config.load_config({...}) on one of the config modules.
  size_t dot = callee.rfind('.');
  if (dot == std::string::npos) return;
  std::string_view method = std::string_view(callee).substr(dot + 1);
  if (method != kEntryPoints.patch_method && method != kEntryPoints.load_config_method) return;
  std::string rest;
  std::optional<std::string> module = module_of(callee.substr(0, dot), &rest);
  if (!module || !rest.empty()) return;
  if (method == kEntryPoints.load_config_method) {
    // `load_config(d)` sets every key of `d` (unknown keys are dropped with a warning).
    const std::vector<Node>& positional = arguments.positional();
    if (!positional.empty()) dict_argument(positional[0], *module, call, DictSource::Patch, out);
    return;
  }
  from_patch_call(call, *module, arguments, out);
}

void ConfigUsageFinder::from_patch_call(Node call, const std::string& module, const CallArguments& arguments,
                                        std::vector<ConfigUsage>& out) const {
  Node list = arguments.list();
  for (uint32_t i = 0; i < list.named_child_count(); ++i) {
    Node argument = list.named_child(i);
    if (argument.kind() == "keyword_argument") {
      ConfigUsage usage;
      usage.kind = ConfigUsageKind::PatchKeyword;
      usage.module = module;
      usage.key = std::string(argument.field("name").text());
      usage.site = argument;
      usage.key_node = argument.field("name");
      usage.value = argument.field("value");
      usage.owner_call = call;
      out.push_back(std::move(usage));
    } else if (argument.kind() == "dictionary_splat") {
      dict_argument(argument.named_child(0), module, call, DictSource::Patch, out);
    }
  }
  const std::vector<Node>& positional = arguments.positional();
  if (positional.empty()) return;
  std::optional<std::string> key = plain_string(positional[0]);
  if (!key) {
    dict_argument(positional[0], module, call, DictSource::Patch, out);  // patch({...}) or patch(d)
    return;
  }
  ConfigUsage usage;
  usage.kind = ConfigUsageKind::PatchPositional;
  usage.module = module;
  usage.key = *key;
  usage.site = call;
  usage.key_node = positional[0];
  if (positional.size() >= 2) usage.value = positional[1];
  usage.owner_call = call;
  out.push_back(std::move(usage));
}

void ConfigUsageFinder::dict_argument(Node value, const std::string& module, Node owner, DictSource source,
                                      std::vector<ConfigUsage>& out) const {
  if (value && value.kind() == "dictionary") {
    dict_entries(value, module, owner, false, source, out);
  } else if (Node dict = local_dict(value)) {
    dict_entries(dict, module, owner, true, source, out);
  }
}

std::vector<EnvUsage> ConfigUsageFinder::env_at(Node node) const {
  std::vector<EnvUsage> out;
  if (node.kind() == "assignment") {
    Node left = node.field("left");
    if (!left || left.kind() != "subscript") return out;
    std::optional<std::string> container = model_.resolve(left.field("value"));
    Node index = left.field("subscript");
    std::optional<std::string> name = plain_string(index);
    if (!container || *container != kEntryPoints.os_environ || !name) return out;
    out.push_back({*name, node, index, node.field("right")});
    return out;
  }
  if (node.kind() != "call") return out;
  std::optional<std::string> callee = model_.resolve_call(node);
  if (!callee) return out;
  CallArguments arguments(node);
  const std::vector<Node>& positional = arguments.positional();
  if (one_of(*callee, kEntryPoints.environment_setters)) {
    if (positional.empty()) return out;
    std::optional<std::string> name = plain_string(positional[0]);
    if (!name) return out;
    out.push_back({*name, node, positional[0], positional.size() >= 2 ? positional[1] : Node{}});
  }
  return out;
}

}  // namespace torchmigrate::checks
