// SPDX-License-Identifier: MIT
// A call's argument list read once: positional and keyword arguments, splats, and the edits
// that add or remove a keyword argument without breaking the surrounding syntax.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/fix.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::checks {

class CallArguments {
 public:
  explicit CallArguments(python::Node call);

  [[nodiscard]] bool valid() const { return static_cast<bool>(list_); }
  [[nodiscard]] const std::vector<python::Node>& positional() const { return positional_; }
  [[nodiscard]] python::Node keyword(std::string_view name) const;  // the keyword_argument node
  [[nodiscard]] python::Node keyword_value(std::string_view name) const;
  [[nodiscard]] bool has_star_args() const { return star_args_; }
  [[nodiscard]] bool has_star_kwargs() const { return star_kwargs_; }
  // Whether the argument at `index` (keyword-or-positional) or `name` is given, or may be
  // given through `*args`/`**kwargs`.
  [[nodiscard]] bool may_be_given(std::string_view name, std::optional<size_t> positional_index) const;
  // Adds `name=value` after the last argument (before a trailing comma), or on a line of its own
  // when the call has one argument per line and a trailing comma.
  [[nodiscard]] Edit add_keyword(std::string_view name, std::string_view value) const;
  // Removes a keyword argument together with the comma that separates it from its neighbour.
  [[nodiscard]] Edit remove_argument(python::Node argument) const;
  [[nodiscard]] python::Node list() const { return list_; }

 private:
  [[nodiscard]] std::optional<Edit> add_keyword_on_own_line(const std::string& text) const;

  python::Node list_;
  std::vector<python::Node> arguments_;  // in order, every kind
  std::vector<python::Node> positional_;
  std::vector<python::Node> keywords_;
  bool star_args_ = false;
  bool star_kwargs_ = false;
};

// True for literal `True`/`False`/`None` spellings.
bool is_literal(python::Node node, std::string_view spelling);

}  // namespace torchmigrate::checks
