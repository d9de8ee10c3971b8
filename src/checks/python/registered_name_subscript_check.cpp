// SPDX-License-Identifier: MIT
// Family `registered-name-subscript`: a root object indexed with a name that a method call on
// it (or on a slice of it) registered earlier in the same scope (TM323: `mesh["dp", "cp"]._flatten()`
// registers "dp_cp" on the root `DeviceMesh`, and `mesh["dp_cp"]` then slices it from the root).
// The registering call's result, when bound to a name, is offered as a display-only replacement.
#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/config_usage.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"

#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Binding;
using python::Node;

// `{key}` placeholders of a title filled from `values`.
std::string fill(std::string text, const std::vector<std::pair<std::string, std::string>>& values) {
  for (const auto& [key, value] : values) {
    std::string placeholder = "{" + key + "}";
    for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  return text;
}

// The string literals indexing `subscript` (`x["a"]`, `x["a", "b"]`, `x[("a", "b")]`), or
// nothing when any index is something else.
std::optional<std::vector<std::string>> literal_keys(Node subscript) {
  std::vector<Node> indexes = subscript.children_of_field("subscript");
  if (indexes.size() == 1 && (indexes[0].kind() == "tuple" || indexes[0].kind() == "list")) {
    Node sequence = indexes[0];
    indexes.clear();
    for (uint32_t i = 0; i < sequence.named_child_count(); ++i) indexes.push_back(sequence.named_child(i));
  }
  std::vector<std::string> keys;
  for (Node index : indexes) {
    std::optional<std::string> key = plain_string(index);
    if (!key) return std::nullopt;
    keys.push_back(std::move(*key));
  }
  if (keys.empty()) return std::nullopt;
  return keys;
}

struct Registration {
  std::string root_name;
  const Binding* root = nullptr;  // its binding where the method was called (null: not bound in the file)
  int scope = -1;
  uint32_t end = 0;
  std::string name;   // the name it registered
  std::string bound;  // the name its result was assigned to, or ""
  const Binding* bound_binding = nullptr;
};

struct Slice {
  Node node;
  int scope = -1;
  std::vector<std::string> keys;
};

class RegisteredNameSubscriptCheck final : public engine::PythonCheck {
 public:
  explicit RegisteredNameSubscriptCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    for (const std::string& name : params.strings("constructors")) constructors_.insert(name);
    method_ = params.string("method");
    Params argument = params.object("name_argument");
    name_keyword_ = argument.string("keyword");
    name_position_ = argument.integer("position");
    argument.finish();
    separator_ = params.string("default_separator");
    file_mentions_ = params.strings("file_mentions");
    annotations_ = params.strings("annotations");
    title_ = params.string("title");
    replace_title_ = params.string("replace_title");
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"call", "subscript"}; }

  // Not statement-local: a slice is reported for a registration in another statement.
  void visit(Node node, PythonCheckContext& context) override {
    if (node.kind() == "call") return note_registration(node, context);
    Node root = node.field("value");
    if (!root || root.kind() != "identifier") return;
    std::optional<std::vector<std::string>> keys = literal_keys(node);
    if (!keys) return;
    slices_.push_back({node, context.model().scope_at(node.start()), std::move(*keys)});
  }

  void finish(PythonCheckContext& context) override {
    for (const Slice& slice : slices_) report_slice(slice, context);
    slices_.clear();
    registrations_.clear();
  }

 private:
  // `root[...].method(...)` or `root.method(name)`: the name it registers on the root.
  void note_registration(Node call, PythonCheckContext& context) {
    Node function = call.field("function");
    if (!function || function.kind() != "attribute" || function.field("attribute").text() != method_) return;
    Node receiver = function.field("object");
    Node root = receiver.kind() == "subscript" ? receiver.field("value") : receiver;
    if (!root || root.kind() != "identifier") return;
    CallArguments arguments(call);
    if (!arguments.valid() || arguments.has_star_args() || arguments.has_star_kwargs()) return;
    Node given = arguments.keyword_value(name_keyword_);
    if (!given && name_position_ < arguments.positional().size()) given = arguments.positional()[name_position_];
    std::string name;
    if (given) {
      std::optional<std::string> literal = plain_string(given);
      if (!literal) return;
      name = std::move(*literal);  // "" means the default, as torch reads it
    }
    if (name.empty()) {
      // The default joins the slice's names; a one-name slice flattens to itself.
      std::optional<std::vector<std::string>> keys =
          receiver.kind() == "subscript" ? literal_keys(receiver) : std::nullopt;
      if (!keys || keys->size() < 2) return;
      for (const std::string& key : *keys) name += (name.empty() ? "" : separator_) + key;
    }
    const python::SemanticModel& model = context.model();
    const Binding* binding = model.lookup(root.text(), root);
    if (!is_root(binding, root.text(), context)) return;
    Registration registration{
        std::string(root.text()), binding, model.scope_at(call.start()), call.end(), std::move(name), "", nullptr};
    Node parent = context.parent();
    if (parent && parent.kind() == "assignment" && parent.field("right") == call) {
      Node left = parent.field("left");
      if (left && left.kind() == "identifier" && !parent.field("type")) {
        registration.bound = std::string(left.text());
        registration.bound_binding = model.binding_created_by(left.text(), parent);
      }
    }
    registrations_.push_back(std::move(registration));
  }

  // Whether `binding` may hold a root object: made by a listed constructor; otherwise, in a file
  // that mentions the type, anything but a call of something else, a definition or a parameter
  // annotated with another type.
  [[nodiscard]] bool is_root(const Binding* binding, std::string_view name, PythonCheckContext& context) const {
    if (binding && binding->kind == python::BindingKind::Local && binding->node) {
      Node node = binding->node;
      std::string_view kind = node.kind();
      if (kind == "assignment") {
        Node left = node.field("left");
        Node right = node.field("right");
        if (left && left.kind() == "identifier" && left.text() == name && right && right.kind() == "call") {
          std::optional<std::string> callee = context.model().resolve_call(right);
          return callee && constructors_.contains(*callee);
        }
      } else if (kind == "function_definition" || kind == "class_definition" || kind == "decorated_definition") {
        return false;
      } else if (kind == "typed_parameter" || kind == "typed_default_parameter") {
        Node type = node.field("type");
        if (!type || std::none_of(annotations_.begin(), annotations_.end(),
                                  [&](const std::string& word) { return has_word(type.text(), word); })) {
          return false;
        }
      }
    }
    std::string_view text = context.file().text();
    return std::any_of(file_mentions_.begin(), file_mentions_.end(),
                       [&](const std::string& word) { return has_word(text, word); });
  }

  void report_slice(const Slice& slice, PythonCheckContext& context) const {
    const python::SemanticModel& model = context.model();
    Node root = slice.node.field("value");
    const Binding* binding = model.lookup(root.text(), root);
    for (const std::string& key : slice.keys) {
      auto registration = std::find_if(registrations_.begin(), registrations_.end(), [&](const Registration& made) {
        return made.root_name == root.text() && made.root == binding && made.scope == slice.scope &&
               made.end <= slice.node.start() && made.name == key;
      });
      if (registration == registrations_.end()) continue;
      std::string text(slice.node.text());
      Diagnostic& diagnostic = context.report(rule(), slice.node.range(),
                                              {{"slice", text}, {"root", std::string(root.text())}, {"name", key}});
      if (!rule().fix_applicability) return;
      std::vector<std::pair<std::string, std::string>> values = {{"slice", text},
                                                                 {"root", std::string(root.text())},
                                                                 {"name", key},
                                                                 {"method", method_},
                                                                 {"bound", registration->bound}};
      bool replace = registration->bound_binding != nullptr && slice.keys.size() == 1 &&
                     model.lookup(registration->bound, slice.node) == registration->bound_binding;
      std::vector<Edit> edits;
      if (replace) edits.push_back(Edit::replace(slice.node.range(), registration->bound));
      diagnostic.fixes.push_back(rule_fix(rule(), fill(replace ? replace_title_ : title_, values), std::move(edits),
                                          Applicability::DisplayOnly));
      return;  // one finding a slice
    }
  }

  std::set<std::string, std::less<>> constructors_;
  std::string method_;
  std::string name_keyword_;
  size_t name_position_ = 0;
  std::string separator_;
  std::vector<std::string> file_mentions_;
  std::vector<std::string> annotations_;
  std::string title_;
  std::string replace_title_;
  std::vector<Registration> registrations_;
  std::vector<Slice> slices_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_registered_name_subscript_check(const engine::RuleSpec& rule) {
  return std::make_unique<RegisteredNameSubscriptCheck>(rule);
}

}  // namespace torchmigrate::checks
