// SPDX-License-Identifier: MIT
// TM306: code that uses Apple's MPS backend (`torch.backends.mps`, `device="mps"`,
// `torch.device("mps")`): torch 2.8 is the last release that supports it on macOS 13.
#include "torchmigrate/checks/python_checks.hpp"

#include <string_view>

#include "torchmigrate/checks/call_arguments.hpp"
#include "torchmigrate/checks/module_references.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

using engine::PythonCheckContext;
using python::Node;

// The value of a plain string literal (no f-string, no bytes, no concatenation), if it is one.
std::optional<std::string_view> string_value(Node node) {
  if (!node || node.kind() != "string") return std::nullopt;
  for (uint32_t i = 0; i < node.named_child_count(); ++i) {
    if (node.named_child(i).kind() == "interpolation") return std::nullopt;
  }
  std::string_view text = node.text();
  size_t quote = text.find_first_of("'\"");
  if (quote == std::string_view::npos) return std::nullopt;
  for (char prefix : text.substr(0, quote)) {
    if (prefix != 'r' && prefix != 'R' && prefix != 'u' && prefix != 'U') return std::nullopt;
  }
  text.remove_prefix(quote);
  size_t delimiter = text.starts_with("'''") || text.starts_with("\"\"\"") ? 3 : 1;
  if (text.size() < 2 * delimiter) return std::nullopt;
  return text.substr(delimiter, text.size() - 2 * delimiter);
}

// `mps` or `mps:<index>`.
bool is_mps_device(Node node) {
  std::optional<std::string_view> value = string_value(node);
  if (!value || !value->starts_with("mps")) return false;
  std::string_view index = value->substr(3);
  if (index.empty()) return true;
  return index.size() > 1 && index[0] == ':' && index.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

class MpsUseCheck final : public engine::PythonCheck {
 public:
  explicit MpsUseCheck(const engine::RuleSpec& rule) : PythonCheck(rule) {
    Params params(rule);
    modules_ = params.strings("modules");
    device_constructor_ = params.string("device_constructor");
    params.finish();
  }

  [[nodiscard]] std::vector<std::string_view> node_kinds() const override {
    return {"import_statement", "import_from_statement", "attribute", "call", "keyword_argument"};
  }

  // A finding is one import, attribute, call or keyword: what it names or resolves to.
  [[nodiscard]] bool statement_local(std::string_view /*text*/) const override { return true; }

  void visit(Node node, PythonCheckContext& context) override {
    std::string_view kind = node.kind();
    if (kind == "import_statement" || kind == "import_from_statement") {
      std::vector<ImportedName> names = imports_under(node, modules_);
      if (!names.empty()) context.report(rule(), node.range(), {{"name", names[0].qualified}});
    } else if (kind == "attribute") {
      if (!is_outermost_attribute(node, context.parent())) return;
      std::optional<std::string> qualified = context.model().resolve(node);
      if (!qualified || !under_modules(*qualified)) return;
      context.report(rule(), node.range(), {{"name", *qualified}});
    } else if (kind == "call") {
      visit_call(node, context);
    } else if (kind == "keyword_argument") {
      Node parent = context.parent();
      if (!parent || parent.kind() != "argument_list") return;
      if (node.field("name").text() != "device" || !is_mps_device(node.field("value"))) return;
      context.report(rule(), node.range(), {{"name", "device=" + std::string(node.field("value").text())}});
    }
  }

 private:
  [[nodiscard]] bool under_modules(std::string_view qualified) const {
    for (const std::string& module : modules_) {
      if (is_under(qualified, module)) return true;
    }
    return false;
  }

  // `torch.device("mps")`, `torch.device("mps:0")`, `torch.device("mps", 0)`, `torch.device(type="mps")`.
  void visit_call(Node call, PythonCheckContext& context) const {
    std::optional<std::string> callee = context.model().resolve_call(call);
    if (!callee || *callee != device_constructor_) return;
    CallArguments arguments(call);
    if (!arguments.valid()) return;
    Node device = arguments.positional().empty() ? arguments.keyword_value("type") : arguments.positional()[0];
    if (!is_mps_device(device)) return;
    context.report(rule(), call.range(), {{"name", "torch.device(" + std::string(device.text()) + ")"}});
  }

  std::vector<std::string> modules_;
  std::string device_constructor_;
};

}  // namespace

std::unique_ptr<engine::PythonCheck> make_mps_use_check(const engine::RuleSpec& rule) {
  return std::make_unique<MpsUseCheck>(rule);
}

}  // namespace torchmigrate::checks
