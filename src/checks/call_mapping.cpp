// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/call_mapping.hpp"

#include <algorithm>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {

using python::Node;

namespace {

std::vector<Node> arguments_of(Node list) {
  std::vector<Node> arguments;
  for (uint32_t i = 0; i < list.named_child_count(); ++i) {
    Node argument = list.named_child(i);
    if (argument.kind() != "comment") arguments.push_back(argument);
  }
  return arguments;
}

// Contexts where `not f(x)` would bind differently than the call it replaces.
bool needs_parentheses_for_not(Node call) {
  Node parent = call.parent();
  if (!parent) return false;
  std::string_view kind = parent.kind();
  if (kind == "comparison_operator" || kind == "binary_operator" || kind == "unary_operator" || kind == "await" ||
      kind == "call") {
    return true;
  }
  if (kind == "attribute") return parent.field("object") == call;
  if (kind == "subscript") return parent.field("value") == call;
  return false;
}

}  // namespace

CallMapping::CallMapping(const Params& call, std::string new_name) : new_name_(std::move(new_name)) {
  if (call.has("max_positional")) max_positional_ = call.integer("max_positional");
  if (call.has("keywords")) accepted_keywords_ = call.strings("keywords");
  // Lists of {"name": ..., <text_key>: ...}.
  auto keywords = [&call](const char* key, const char* text_key) {
    std::vector<Keyword> read;
    if (!call.has(key)) return read;
    for (const Params& keyword : call.objects(key)) {
      read.push_back({keyword.string("name"), keyword.string(text_key)});
      keyword.finish();
    }
    return read;
  };
  refused_keywords_ = keywords("refuse_keywords", "reason");
  if (call.has("pack")) {
    Params pack = call.object("pack");
    pack_after_ = pack.integer("after");
    pack_keywords_into_ = pack.string("keywords_into");
    pack.finish();
  }
  added_keywords_ = keywords("add_keywords", "value");
  if (call.has("then_call")) {
    Params then = call.object("then_call");
    then_method_ = then.string("method");
    if (then.has("moving")) moved_keywords_ = then.strings("moving");
    then.finish();
  }
  negate_ = call.boolean("negate", false);
  call.finish();
  // Each of these edits the end of the call, where their order would be ambiguous.
  int at_end = (negate_ ? 1 : 0) + (then_method_.empty() ? 0 : 1) + (pack_after_ ? 1 : 0);
  if (at_end > 1) throw engine::CatalogError("`negate`, `then_call` and `pack` cannot be combined");
}

bool CallMapping::is_identity() const {
  return !max_positional_ && !accepted_keywords_ && refused_keywords_.empty() && !pack_after_ &&
         added_keywords_.empty() && then_method_.empty() && !negate_;
}

std::optional<std::string> CallMapping::refusal(Node call) const {
  CallArguments arguments(call);
  if (!arguments.valid()) return "has no plain argument list";
  // The parser's error recovery may end the list early or with a zero-width `)`: where the
  // argument list and the call end is then a guess, and so is where an edit would land.
  if (arguments.list().has_error()) return "has a syntax error in its arguments";
  bool reads_keywords = accepted_keywords_ || !refused_keywords_.empty() || pack_after_ || !added_keywords_.empty() ||
                        !moved_keywords_.empty();
  if (reads_keywords && arguments.has_star_kwargs()) return "passes `**kwargs`, whose keywords the rewrite cannot see";
  if (max_positional_ && arguments.has_star_args()) return "passes `*args`, whose arguments the rewrite cannot count";
  if (max_positional_ && arguments.positional().size() > *max_positional_) {
    return "passes more than " + std::to_string(*max_positional_) + " positional arguments";
  }
  for (Node argument : arguments_of(arguments.list())) {
    if (argument.kind() != "keyword_argument") continue;
    std::string name(argument.field("name").text());
    if (accepted_keywords_ &&
        std::find(accepted_keywords_->begin(), accepted_keywords_->end(), name) == accepted_keywords_->end()) {
      return "passes `" + name + "=`, which `" + new_name_ + "` does not take";
    }
    for (const Keyword& refused : refused_keywords_) {
      if (refused.name == name) return "passes `" + name + "=`: " + refused.text;
    }
  }
  return std::nullopt;
}

CallRewrite CallMapping::rewrite(Node call) const {
  if (is_identity()) return std::vector<Edit>{};
  if (std::optional<std::string> reason = refusal(call)) return *reason;
  if (pack_after_) return pack(call);

  CallArguments arguments(call);
  std::vector<Edit> edits;
  std::string moved;
  for (const std::string& name : moved_keywords_) {
    if (Node keyword = arguments.keyword(name)) {
      moved.append(moved.empty() ? "" : ", ").append(keyword.text());
      edits.push_back(arguments.remove_argument(keyword));
    }
  }
  for (const Keyword& added : added_keywords_) {
    if (!arguments.keyword(added.name)) edits.push_back(arguments.add_keyword(added.name, added.text));
  }
  if (!then_method_.empty()) edits.push_back(Edit::insert(call.end(), "." + then_method_ + "(" + moved + ")"));
  if (negate_) {
    if (needs_parentheses_for_not(call)) {
      edits.push_back(Edit::insert(call.start(), "(not "));
      edits.push_back(Edit::insert(call.end(), ")"));
    } else {
      edits.push_back(Edit::insert(call.start(), "not "));
    }
  }
  return edits;
}

// `f(model, a, b, k=v)` -> `g(model, (a, b), kwargs={"k": v}, added=...)` for `pack.after` 1.
CallRewrite CallMapping::pack(Node call) const {
  std::vector<Node> arguments = arguments_of(call.field("arguments"));
  auto is_keyword = [](Node node) { return node.kind() == "keyword_argument"; };
  for (size_t i = 0; i < *pack_after_; ++i) {
    if (i >= arguments.size() || is_keyword(arguments[i]) || arguments[i].kind() == "list_splat") {
      return *pack_after_ == 1 ? std::string("does not pass its first argument by position")
                               : "does not pass its first " + std::to_string(*pack_after_) + " arguments by position";
    }
  }
  std::vector<Node> positional, keywords;
  for (size_t i = *pack_after_; i < arguments.size(); ++i) {
    if (is_keyword(arguments[i])) {
      keywords.push_back(arguments[i]);
    } else if (!keywords.empty()) {
      return std::string("passes a positional argument after a keyword argument");
    } else {
      positional.push_back(arguments[i]);
    }
  }

  std::vector<Edit> edits;
  // A single element needs the trailing comma to stay a tuple: `(x,)`.
  const char* close_tuple = positional.size() == 1 ? ",)" : ")";
  if (!positional.empty()) {
    edits.push_back(Edit::insert(positional.front().start(), "("));
    if (!keywords.empty()) edits.push_back(Edit::insert(positional.back().end(), close_tuple));
  }
  for (size_t i = 0; i < keywords.size(); ++i) {
    Node name = keywords[i].field("name");
    Node value = keywords[i].field("value");
    std::string key(i == 0 ? pack_keywords_into_ + "={\"" : "\"");
    key.append(name.text()).append("\": ");
    edits.push_back(Edit::replace({name.start(), value.start()}, std::move(key)));
  }
  // Inserted after the last argument: whatever closes the tuple or dict, then the added keywords.
  std::string tail = !keywords.empty() ? "}" : !positional.empty() ? close_tuple : "";
  for (const Keyword& added : added_keywords_) tail.append(", ").append(added.name).append("=").append(added.text);
  edits.push_back(Edit::insert(arguments.back().end(), std::move(tail)));
  return edits;
}

}  // namespace torchmigrate::checks
