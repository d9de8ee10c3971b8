// SPDX-License-Identifier: MIT
// The one PEP 440 evaluator: versions, specifier sets, and the two questions asked of them
// ("can this set resolve to a version below X?" for the packaging rules, "what is the lowest
// version it admits?" for the project's torch range), answered on intervals.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchmigrate::buildfiles {

class Version {
 public:
  // Accepts PEP 440 spellings (`v1.2`, `1.2.0rc1`, `1!2.0.post1.dev3`, `1.2+local`).
  static std::optional<Version> parse(std::string_view text);
  // `release` as given; for wildcard bounds.
  static Version from_release(std::vector<long> release, bool lowest);

  [[nodiscard]] int compare(const Version& other) const;
  bool operator==(const Version& other) const { return compare(other) == 0; }
  bool operator<(const Version& other) const { return compare(other) < 0; }
  // As written: `2.8.0` keeps its three parts (comparison pads with zeros, so 2.8 == 2.8.0).
  [[nodiscard]] const std::vector<long>& release() const { return release_; }
  [[nodiscard]] long epoch() const { return epoch_; }
  [[nodiscard]] bool is_prerelease() const { return pre_phase_ >= 0 || dev_ >= 0; }

 private:
  long epoch_ = 0;
  std::vector<long> release_;
  int pre_phase_ = -1;  // 0 a, 1 b, 2 rc; -1 none
  long pre_ = 0;
  long post_ = -1;      // -1 none
  long dev_ = -1;       // -1 none
};

struct Specifier {
  std::string op;       // ==, !=, <=, >=, <, >, ~=, ===
  std::string version;  // as written, `.*` included
  [[nodiscard]] std::string str() const { return op + version; }
};

// Parses "a,b,c" (spaces allowed); nullopt when a clause is not a PEP 440 specifier.
std::optional<std::vector<Specifier>> parse_specifiers(std::string_view text);

// Whether some version strictly below `bound` satisfies every specifier (ignores the
// pre-release exclusion, which only matters for pre-release bounds).
bool admits_version_below(const std::vector<Specifier>& specifiers, const Version& bound);

// Whether `version` satisfies every specifier (the same pre-release caveat).
bool admits_version(const std::vector<Specifier>& specifiers, const Version& version);

// The lowest version a specifier set admits: `>=2.7,<2.9` -> 2.7 (inclusive), `>2.7` -> 2.7
// (exclusive: 2.7.1 is admitted), `==2.8.*` -> 2.8.dev0. nullopt when the set has no lower bound
// (`<2.9`, `!=2.7.0`, empty) or admits nothing (`>=2.9,<2.8`).
struct LowerBound {
  Version version;
  bool inclusive = true;
};
std::optional<LowerBound> lowest_admitted(const std::vector<Specifier>& specifiers);

// The highest version a specifier set admits: `<2.9` -> 2.9 (exclusive), `<=2.8.1` -> 2.8.1
// (inclusive), `==2.7.*` -> 2.8.dev0 (exclusive). nullopt when it has no upper bound or admits
// nothing. A set of several intervals (`!=`) answers for the highest.
struct UpperBound {
  Version version;
  bool inclusive = true;
};
std::optional<UpperBound> highest_admitted(const std::vector<Specifier>& specifiers);

}  // namespace torchmigrate::buildfiles
