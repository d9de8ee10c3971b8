// SPDX-License-Identifier: MIT
// Family `cuda-arch-list`: an assignment of an architecture-list variable that names entries
// the new binaries no longer ship; the message names each dropped entry. No fix.
#include <set>

#include "torchmigrate/buildfiles/assignments.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

class CudaArchListCheck final : public engine::FileCheck {
 public:
  explicit CudaArchListCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    variables_ = params.strings("variables");
    for (const std::string& entry : params.strings("dropped")) dropped_.insert(entry);
    params.finish();
  }

  void check(engine::FileCheckContext& context) override {
    for (const buildfiles::Assignment& assignment : find_assignments(context, variables_)) {
      std::string named;
      size_t count = 0;
      for (const std::string& entry : entries(assignment.value)) {
        std::string arch = entry.ends_with("+PTX") && !dropped_.count(entry) ? entry.substr(0, entry.size() - 4) : entry;
        if (!dropped_.count(arch)) continue;
        named += (named.empty() ? "`" : ", `") + entry + "`";
        ++count;
      }
      if (count == 0) continue;
      TextRange range = assignment.value_range.empty() ? assignment.name_range : assignment.value_range;
      context.report(rule(), range, {{"variable", assignment.name}, {"entries", named}});
    }
  }

 private:
  // TORCH_CUDA_ARCH_LIST separates entries with `;` or spaces (commas are tolerated).
  static std::vector<std::string> entries(const std::string& value) {
    std::vector<std::string> out;
    std::string current;
    for (char c : value + ";") {
      if (c == ';' || c == ' ' || c == '\t' || c == ',' || c == '"' || c == '\'') {
        if (!current.empty()) out.push_back(current);
        current.clear();
      } else {
        current.push_back(c);
      }
    }
    return out;
  }

  std::vector<std::string> variables_;
  std::set<std::string> dropped_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cuda_arch_list_check(const engine::RuleSpec& rule) {
  return std::make_unique<CudaArchListCheck>(rule);
}

}  // namespace torchmigrate::checks
