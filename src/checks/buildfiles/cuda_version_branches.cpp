// SPDX-License-Identifier: MIT
#include "torchmigrate/checks/cuda_version_branches.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace torchmigrate::checks {
namespace {

using python::Node;

bool names_cuda_version(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("cuda") != std::string::npos || lower.find("bare_metal") != std::string::npos;
}

// "11.8", `Version("11.8")`, `(11, 8)` or `11.8` as (major, minor).
std::optional<CudaVersion> version_literal(Node node) {
  std::string digits;
  std::string_view kind = node.kind();
  if (kind == "call") {
    Node arguments = node.field("arguments");
    if (!arguments || arguments.named_child_count() != 1) return std::nullopt;
    return version_literal(arguments.named_child(0));
  }
  if (kind != "string" && kind != "tuple" && kind != "float" && kind != "integer") return std::nullopt;
  for (char c : node.text()) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      digits += c;
    } else if ((c == '.' || c == ',') && !digits.empty() && digits.back() != '.') {
      digits += '.';
    }
  }
  CudaVersion version;
  size_t dot = digits.find('.');
  if (digits.empty() || dot == 0) return std::nullopt;
  version.major = std::stoi(digits.substr(0, dot));
  if (dot != std::string::npos && dot + 1 < digits.size()) version.minor = std::stoi(digits.substr(dot + 1, 3));
  return version;
}

int compare(CudaVersion a, CudaVersion b) {
  if (a.major != b.major) return a.major < b.major ? -1 : 1;
  return a.minor == b.minor ? 0 : (a.minor < b.minor ? -1 : 1);
}

// Whether `condition` holds for `cuda`: nullopt when it is not a CUDA version test.
std::optional<bool> holds(Node condition, CudaVersion cuda) {
  if (!condition || condition.kind() != "comparison_operator" || condition.named_child_count() != 2 ||
      condition.child_count() != 3) {
    return std::nullopt;
  }
  Node left = condition.named_child(0), right = condition.named_child(1);
  std::string_view op = condition.child(1).kind();
  bool flipped = false;
  std::optional<CudaVersion> literal = names_cuda_version(left.text()) ? version_literal(right) : std::nullopt;
  if (!literal && names_cuda_version(right.text())) {
    literal = version_literal(left);
    flipped = true;
  }
  if (!literal) return std::nullopt;
  int order = compare(cuda, *literal);  // the toolkit against the literal
  if (flipped) order = -order;
  if (op == ">=") return order >= 0;
  if (op == ">") return order > 0;
  if (op == "<=") return order <= 0;
  if (op == "<") return order < 0;
  if (op == "==") return order == 0;
  if (op == "!=") return order != 0;
  return std::nullopt;
}

// Within one if statement: whether the clause holding `inner` is never taken.
bool clause_unreachable(Node statement, Node inner, CudaVersion cuda) {
  // (each clause: its condition, none for `else`, and its body)
  std::vector<std::pair<Node, Node>> clauses{{statement.field("condition"), statement.field("consequence")}};
  for (Node alternative : statement.children_of_field("alternative")) {
    Node body = alternative.kind() == "else_clause" ? alternative.field("body") : alternative.field("consequence");
    clauses.emplace_back(alternative.kind() == "else_clause" ? Node() : alternative.field("condition"), body);
  }
  for (const auto& [condition, body] : clauses) {
    bool inside = body && body.start() <= inner.start() && inner.end() <= body.end();
    std::optional<bool> taken = condition ? holds(condition, cuda) : std::optional<bool>();
    if (inside) return taken.has_value() && !*taken;
    if (taken.value_or(false)) return true;  // an earlier branch takes every build of this CUDA
  }
  return false;
}

}  // namespace

bool unreachable_with_cuda(const python::SyntaxTree& tree, uint32_t offset, CudaVersion cuda) {
  Node node = tree.root().descendant_for_range(offset, offset);
  for (Node inner = node; inner; inner = inner.parent()) {
    Node parent = inner.parent();
    if (parent && parent.kind() == "if_statement" && !(parent.field("condition") == inner) &&
        clause_unreachable(parent, node, cuda)) {
      return true;
    }
  }
  return false;
}

}  // namespace torchmigrate::checks
