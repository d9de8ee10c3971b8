// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/call_arguments.hpp"

#include <optional>
#include <string>

namespace torchmigrate::checks {

CallArguments::CallArguments(python::Node call) {
  python::Node list = call.field("arguments");
  if (!list || list.kind() != "argument_list") return;
  list_ = list;
  for (uint32_t i = 0; i < list.named_child_count(); ++i) {
    python::Node argument = list.named_child(i);
    std::string_view kind = argument.kind();
    if (kind == "comment") continue;
    arguments_.push_back(argument);
    if (kind == "keyword_argument") {
      keywords_.push_back(argument);
    } else if (kind == "list_splat") {
      star_args_ = true;
    } else if (kind == "dictionary_splat") {
      star_kwargs_ = true;
    } else {
      positional_.push_back(argument);
    }
  }
}

python::Node CallArguments::keyword(std::string_view name) const {
  for (const python::Node& argument : keywords_) {
    if (argument.field("name").text() == name) return argument;
  }
  return {};
}

python::Node CallArguments::keyword_value(std::string_view name) const {
  python::Node argument = keyword(name);
  return argument ? argument.field("value") : python::Node{};
}

bool CallArguments::may_be_given(std::string_view name, std::optional<size_t> positional_index) const {
  if (keyword(name) || star_kwargs_) return true;
  if (positional_index && (positional_.size() > *positional_index || star_args_)) return true;
  return false;
}

Edit CallArguments::add_keyword(std::string_view name, std::string_view value) const {
  std::string text = std::string(name) + "=" + std::string(value);
  if (arguments_.empty()) return Edit::insert(list_.start() + 1, text);
  if (std::optional<Edit> edit = add_keyword_on_own_line(text)) return *edit;
  return Edit::insert(arguments_.back().end(), ", " + text);
}

// One argument per line with a trailing comma (black's "magic trailing comma" layout):
//     f(
//         a,
//         b,  # note
//     )
// gets the keyword on a line of its own, indented like the last argument and after any comment,
// rather than `b, strict=True,` squeezed onto the last argument's line.
std::optional<Edit> CallArguments::add_keyword_on_own_line(const std::string& text) const {
  std::string_view list = list_.text();
  const uint32_t base = list_.start();
  const python::Node& last = arguments_.back();
  size_t at = last.end() - base;
  auto skip_blanks = [&](size_t i) {
    while (i < list.size() && (list[i] == ' ' || list[i] == '\t')) ++i;
    return i;
  };
  at = skip_blanks(at);
  if (at >= list.size() || list[at] != ',') return std::nullopt;
  at = skip_blanks(at + 1);
  if (at < list.size() && list[at] == '#') {
    while (at < list.size() && list[at] != '\n' && list[at] != '\r') ++at;
  }
  if (at >= list.size() || (list[at] != '\n' && list[at] != '\r')) return std::nullopt;
  const std::string_view newline = list[at] == '\r' ? "\r\n" : "\n";
  // The last argument must start its line; its indentation is reused.
  const size_t start = last.start() - base;
  const size_t line_start = list.rfind('\n', start == 0 ? 0 : start - 1);
  if (line_start == std::string_view::npos || line_start >= start) return std::nullopt;
  std::string_view indent = list.substr(line_start + 1, start - line_start - 1);
  if (indent.find_first_not_of(" \t") != std::string_view::npos) return std::nullopt;
  return Edit::insert(base + static_cast<uint32_t>(at), std::string(newline) + std::string(indent) + text + ",");
}

Edit CallArguments::remove_argument(python::Node argument) const {
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (!(arguments_[i] == argument)) continue;
    if (i > 0) return Edit::remove({arguments_[i - 1].end(), argument.end()});
    if (i + 1 < arguments_.size()) return Edit::remove({argument.start(), arguments_[i + 1].start()});
    // The only argument: drop it and any trailing comma up to the closing parenthesis.
    return Edit::remove({argument.start(), list_.end() - 1});
  }
  return Edit::remove(argument.range());
}

bool is_literal(python::Node node, std::string_view spelling) {
  return node && (node.kind() == "true" || node.kind() == "false" || node.kind() == "none") &&
         node.text() == spelling;
}

}  // namespace torchmigrate::checks
