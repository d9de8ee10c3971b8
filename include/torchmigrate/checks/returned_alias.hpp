// SPDX-License-Identifier: MIT
// What a function's returned expression shares storage with: one of its parameters as is, a
// view of one, or the same local tensor twice in a returned tuple. Shared by the checks of
// functions whose outputs must not alias their inputs (higher-order op bodies, custom-op kernels).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "torchmigrate/checks/params.hpp"
#include "torchmigrate/python/semantic_model.hpp"

namespace torchmigrate::checks {

struct ReturnedAlias {
  enum class Kind : uint8_t { Input, View, Twice };
  Kind kind = Kind::Input;
  python::Node expression;  // what a fix would clone
  python::Node parameter;   // the aliased parameter (Input, View); the name itself (Twice)

  // "returns its input `x` unchanged", "returns a view of its input `x`", "returns `y` twice".
  [[nodiscard]] std::string problem() const;
};

class ReturnedAliasMatcher {
 public:
  // `view_methods` (`view`, `t`, ...) and `view_attributes` (`T`, ...) return views of their object.
  ReturnedAliasMatcher(std::set<std::string, std::less<>> view_methods,
                       std::set<std::string, std::less<>> view_attributes)
      : view_methods_(std::move(view_methods)), view_attributes_(std::move(view_attributes)) {}
  // From a family's `view_methods` and `view_attributes` params.
  static ReturnedAliasMatcher from_params(const Params& params);

  // The aliases in `returned` (a return statement's value or a lambda's body) of `function`, in
  // source order.
  [[nodiscard]] std::vector<ReturnedAlias> find(python::Node returned, python::Node function,
                                                const python::SemanticModel& model) const;

 private:
  void find_in(python::Node expression, python::Node function, const python::SemanticModel& model,
               std::vector<ReturnedAlias>& out) const;
  // Input or View with the parameter, or nothing.
  [[nodiscard]] std::optional<ReturnedAlias::Kind> alias_of(python::Node expression, python::Node function,
                                                            const python::SemanticModel& model,
                                                            python::Node& parameter) const;

  std::set<std::string, std::less<>> view_methods_;
  std::set<std::string, std::less<>> view_attributes_;
};

// A function passed as an argument: a lambda, or the def of this file a name refers to (a null
// node otherwise).
python::Node function_argument(python::Node argument, const python::SemanticModel& model);

// The values of the `return` statements of a def (not of the functions nested in it), or the
// body of a lambda.
std::vector<python::Node> returned_values(python::Node function);

}  // namespace torchmigrate::checks
