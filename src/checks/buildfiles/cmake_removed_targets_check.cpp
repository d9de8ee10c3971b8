// SPDX-License-Identifier: MIT
// Family `cmake-removed-targets`: in a CMake project that finds a package, uses of names that
// package no longer provides. Reported per use; no fix.
#include <cctype>

#include "torchmigrate/buildfiles/cmake.hpp"
#include "torchmigrate/checks/build_checks.hpp"
#include "torchmigrate/checks/params.hpp"

namespace torchmigrate::checks {
namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Name {
  std::string text;
  std::string unless_package;  // not reported when the file itself finds this package
};

class CmakeRemovedTargetsCheck final : public engine::FileCheck {
 public:
  explicit CmakeRemovedTargetsCheck(const engine::RuleSpec& rule) : FileCheck(rule) {
    Params params(rule);
    package_ = params.string("package");
    for (const Params& name : params.objects("names")) {
      Name entry{name.string("name"), name.has("unless_package") ? name.string("unless_package") : ""};
      name.finish();
      names_.push_back(std::move(entry));
    }
    params.finish();
  }

  [[nodiscard]] engine::FactsRead facts_read() const override {
    return package_ == "Torch" ? engine::FactsRead{engine::facts::cmake_finds_torch} : engine::FactsRead{};
  }

  void check(engine::FileCheckContext& context) override {
    const buildfiles::BuildFile& file = context.build_file();
    if (file.kind != buildfiles::FileKind::CMake) return;
    // The project may find the package in another CMake file (the top-level CMakeLists.txt).
    bool project_finds = package_ == "Torch" && context.settings().project_fact(engine::facts::cmake_finds_torch);
    if (!project_finds && !buildfiles::calls_find_package(file, package_)) return;
    for (const Name& name : names_) {
      if (!name.unless_package.empty() && buildfiles::calls_find_package(file, name.unless_package)) continue;
      for (const buildfiles::LogicalLine& line : file.lines) {
        const std::string& text = line.text;
        for (size_t at = text.find(name.text); at != std::string::npos; at = text.find(name.text, at + 1)) {
          size_t after = at + name.text.size();
          if ((at > 0 && is_identifier_char(text[at - 1])) || (after < text.size() && is_identifier_char(text[after]))) {
            continue;
          }
          context.report(rule(), line.token_range(at, after), {{"name", name.text}, {"package", package_}});
        }
      }
    }
  }

 private:
  std::string package_;
  std::vector<Name> names_;
};

}  // namespace

std::unique_ptr<engine::FileCheck> make_cmake_removed_targets_check(const engine::RuleSpec& rule) {
  return std::make_unique<CmakeRemovedTargetsCheck>(rule);
}

}  // namespace torchmigrate::checks
