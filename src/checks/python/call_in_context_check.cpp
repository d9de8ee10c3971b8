// SPDX-License-Identifier: MIT
// Family `call-in-context`: calls whose behaviour a release changed only in some settings,
// reported where the file shows that setting: a call of a resolved callee or of a method on any
// receiver, optionally only with certain keyword values (`mode="max-autotune"`, or a key of a
// dict passed as `options=`), not when it passes a keyword that settles the question, and only
// in a file that imports one of some modules, mentions some names (and not others), or calls a
// function with a given argument. Heuristic rules, usually off by default; a fix, when given, is advice only.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/checks/python_checks.hpp"

#include "torchmigrate/checks/python_functions.hpp"
#include "torchmigrate/checks/rule_fix.hpp"

namespace torchmigrate::checks {
namespace {

using python::Node;

// The text of a plain string literal without its quotes; the node's text otherwise.
std::string literal_value(Node node) {
  std::string_view text = node.text();
  if (node.kind() == "string" && text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front()) {
    size_t quote = text.starts_with("\"\"\"") || text.starts_with("'''") ? 3 : 1;
    if (text.size() >= 2 * quote) return std::string(text.substr(quote, text.size() - 2 * quote));
  }
  return std::string(text);
}

struct KeywordValue {
  std::string keyword;
  std::string dict_key;  // empty: the keyword's own value
  std::vector<std::string> values;
};

struct FileCall {
  std::string callee;
  std::string keyword;  // the argument, by keyword or as the first positional one
  std::string value;
};

// Every node of `kind` under `root`, in file order.
template <class Visit>
void each(Node root, std::string_view kind, Visit visit) {
  std::vector<Node> stack{root};
  while (!stack.empty()) {
    Node node = stack.back();
    stack.pop_back();
    if (node.kind() == kind) visit(node);
    for (uint32_t i = node.named_child_count(); i-- > 0;) stack.push_back(node.named_child(i));
  }
}

class CallInContextCheck final : public engine::PythonCheck {
 public:
  explicit CallInContextCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    callees_ = params.strings("callees");
    methods_ = params.strings("methods");
    unless_keywords_ = params.strings("unless_keywords");
    for (const Params& entry : params.objects("when_any")) {
      when_any_.push_back(
          {entry.string("keyword"), entry.has("dict_key") ? entry.string("dict_key") : "", entry.strings("values")});
      entry.finish();
    }
    file_imports_ = params.strings("file_imports");
    file_mentions_ = params.strings("file_mentions");
    unless_file_mentions_ = params.strings("unless_file_mentions");
    for (const Params& entry : params.objects("file_calls")) {
      file_calls_.push_back({entry.string("callee"), entry.string("keyword"), entry.string("value")});
      entry.finish();
    }
    if (params.has("advice")) advice_ = params.string("advice");
    params.finish();
  }

  // The whole file at once: the conditions are the file's, not a statement's.
  [[nodiscard]] std::vector<std::string_view> node_kinds() const override { return {"module"}; }

  void visit(Node module, engine::PythonCheckContext& context) override {
    std::vector<std::pair<Node, std::string>> calls;
    each(module, "call", [&](Node call) {
      std::string name = reported_callee(call, context);
      if (!name.empty()) calls.emplace_back(call, std::move(name));
    });
    if (calls.empty() || !file_conditions(module, context)) return;
    for (const auto& [call, name] : calls) {
      // A method call is reported from its name on (`a.b().to_local()`: `to_local()`).
      TextRange range = call.range();
      if (name.starts_with(".")) range.start = call.field("function").field("attribute").start();
      Diagnostic& diagnostic = context.report(rule(), range, {{"callee", name}});
      if (!advice_.empty()) diagnostic.fixes.push_back(rule_fix(rule(), advice_, {}, Applicability::DisplayOnly));
    }
  }

 private:
  // The name to report the call under, or "" when it is not one of ours.
  std::string reported_callee(Node call, engine::PythonCheckContext& context) const {
    std::string name;
    Node function = call.field("function");
    if (!function) return "";
    if (function.kind() == "attribute" && !methods_.empty()) {
      Node attribute = function.field("attribute");
      if (attribute && std::find(methods_.begin(), methods_.end(), attribute.text()) != methods_.end()) {
        name.append(".").append(attribute.text()).append("()");  // appended: GCC 12 warns on `"." + string`
      }
    }
    if (name.empty() && !callees_.empty()) {
      std::optional<std::string> callee = context.model().resolve_call(call);
      if (callee && std::find(callees_.begin(), callees_.end(), *callee) != callees_.end()) name = *callee;
    }
    if (name.empty()) return "";
    CallArguments arguments(call);
    if (!arguments.valid()) return "";
    for (const std::string& keyword : unless_keywords_) {
      if (arguments.may_be_given(keyword, std::nullopt)) return "";
    }
    if (when_any_.empty()) return name;
    bool matched = std::any_of(when_any_.begin(), when_any_.end(),
                               [&](const KeywordValue& wanted) { return keyword_matches(arguments, wanted); });
    return matched ? name : "";
  }

  static bool keyword_matches(const CallArguments& arguments, const KeywordValue& wanted) {
    Node value = arguments.keyword_value(wanted.keyword);
    if (!value) return false;
    auto listed = [&](Node node) {
      return std::find(wanted.values.begin(), wanted.values.end(), literal_value(node)) != wanted.values.end();
    };
    if (wanted.dict_key.empty()) return listed(value);
    if (value.kind() != "dictionary") return false;
    for (uint32_t i = 0; i < value.named_child_count(); ++i) {
      Node pair = value.named_child(i);
      if (pair.kind() != "pair") continue;
      Node key = pair.field("key");
      Node entry = pair.field("value");
      if (key && entry && key.kind() == "string" && literal_value(key) == wanted.dict_key && listed(entry)) return true;
    }
    return false;
  }

  bool file_conditions(Node module, engine::PythonCheckContext& context) const {
    std::string_view text = context.file().text();
    for (const std::string& word : file_mentions_) {
      if (!has_word(text, word)) return false;
    }
    for (const std::string& word : unless_file_mentions_) {
      if (has_word(text, word)) return false;  // the file has dealt with it
    }
    if (!file_imports_.empty() && !imports_one(module)) return false;
    if (file_calls_.empty()) return true;
    bool called = false;
    each(module, "call", [&](Node call) {
      if (!called) called = calls_with_value(call, context);
    });
    return called;
  }

  bool imports_module(std::string_view module) const {
    return std::any_of(file_imports_.begin(), file_imports_.end(), [&](const std::string& wanted) {
      return module == wanted || (module.starts_with(wanted) && module[wanted.size()] == '.');
    });
  }

  bool imports_one(Node module) const {
    bool found = false;
    each(module, "import_from_statement", [&](Node statement) {
      Node from = statement.field("module_name");
      if (!from) return;
      if (imports_module(from.text())) found = true;
      // `from torch.distributed import tensor`
      for (uint32_t i = 0; i < statement.named_child_count(); ++i) {
        Node name = statement.named_child(i);
        if (name == from) continue;
        if (name.kind() == "aliased_import") name = name.field("name");
        if (name && name.kind() == "dotted_name" &&
            imports_module(std::string(from.text()) + "." + std::string(name.text()))) {
          found = true;
        }
      }
    });
    each(module, "import_statement", [&](Node statement) {
      for (uint32_t i = 0; i < statement.named_child_count(); ++i) {
        Node name = statement.named_child(i);
        if (name.kind() == "aliased_import") name = name.field("name");
        if (name && imports_module(name.text())) found = true;
      }
    });
    return found;
  }

  bool calls_with_value(Node call, engine::PythonCheckContext& context) const {
    std::optional<std::string> callee;
    for (const FileCall& wanted : file_calls_) {
      if (!callee) callee = context.model().resolve_call(call).value_or("");
      if (*callee != wanted.callee) continue;
      CallArguments arguments(call);
      if (!arguments.valid()) continue;
      Node value = arguments.keyword_value(wanted.keyword);
      if (!value && !arguments.positional().empty()) value = arguments.positional().front();
      if (value && literal_value(value) == wanted.value) return true;
    }
    return false;
  }

  std::vector<std::string> callees_;
  std::vector<std::string> methods_;
  std::vector<std::string> unless_keywords_;
  std::vector<KeywordValue> when_any_;
  std::vector<std::string> file_imports_;
  std::vector<std::string> file_mentions_;
  std::vector<std::string> unless_file_mentions_;
  std::vector<FileCall> file_calls_;
  std::string advice_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_call_in_context_check(const engine::RuleSpec& rule) {
  return std::make_unique<CallInContextCheck>(rule);
}

}  // namespace torchmigrate::checks
