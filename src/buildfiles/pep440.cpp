// SPDX-License-Identifier: MIT
#include "torchmigrate/buildfiles/pep440.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <regex>

namespace torchmigrate::buildfiles {
namespace {

constexpr long kLow = std::numeric_limits<long>::min();
constexpr long kHigh = std::numeric_limits<long>::max();

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

// One end of an interval; an unset version is -inf (lower) or +inf (upper).
struct Bound {
  std::optional<Version> version;
  bool inclusive = false;
};

struct Interval {
  Bound low, high;
  [[nodiscard]] bool empty() const {
    if (!low.version || !high.version) return false;
    int order = low.version->compare(*high.version);
    return order > 0 || (order == 0 && !(low.inclusive && high.inclusive));
  }
};

Bound tighter_low(const Bound& a, const Bound& b) {
  if (!a.version) return b;
  if (!b.version) return a;
  int order = a.version->compare(*b.version);
  if (order != 0) return order > 0 ? a : b;
  return a.inclusive ? b : a;
}

Bound tighter_high(const Bound& a, const Bound& b) {
  if (!a.version) return b;
  if (!b.version) return a;
  int order = a.version->compare(*b.version);
  if (order != 0) return order < 0 ? a : b;
  return a.inclusive ? b : a;
}

std::vector<Interval> intersect(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  for (const Interval& x : a) {
    for (const Interval& y : b) {
      Interval both{tighter_low(x.low, y.low), tighter_high(x.high, y.high)};
      if (!both.empty()) out.push_back(both);
    }
  }
  return out;
}

// The release prefix of a wildcard and the next prefix (1.2.* -> [1.2.dev0, 1.3.dev0)).
std::pair<Version, Version> prefix_range(std::vector<long> release) {
  Version low = Version::from_release(release, true);
  release.back() += 1;
  return {low, Version::from_release(release, true)};
}

std::optional<std::vector<Interval>> intervals(const Specifier& specifier) {
  const std::string& op = specifier.op;
  bool wildcard = specifier.version.ends_with(".*");
  std::string text = wildcard ? specifier.version.substr(0, specifier.version.size() - 2) : specifier.version;
  std::optional<Version> version = Version::parse(text);
  if (!version) return std::nullopt;
  if (wildcard) {
    if (op != "==" && op != "!=") return std::nullopt;
    auto [low, high] = prefix_range(version->release());
    if (op == "==") return std::vector<Interval>{{{low, true}, {high, false}}};
    return std::vector<Interval>{{{}, {low, false}}, {{high, true}, {}}};
  }
  if (op == "==" || op == "===") return std::vector<Interval>{{{version, true}, {version, true}}};
  if (op == "!=") return std::vector<Interval>{{{}, {version, false}}, {{version, false}, {}}};
  if (op == ">=") return std::vector<Interval>{{{version, true}, {}}};
  if (op == ">") return std::vector<Interval>{{{version, false}, {}}};
  if (op == "<=") return std::vector<Interval>{{{}, {version, true}}};
  if (op == "<") return std::vector<Interval>{{{}, {version, false}}};
  if (op == "~=") {
    std::vector<long> release = version->release();
    if (release.size() < 2) return std::nullopt;
    release.pop_back();
    Version high = prefix_range(release).second;
    return std::vector<Interval>{{{version, true}, {high, false}}};
  }
  return std::nullopt;
}

}  // namespace

Version Version::from_release(std::vector<long> release, bool lowest) {
  Version version;
  version.release_ = std::move(release);
  if (lowest) version.dev_ = 0;  // X.dev0 sorts before every other X release
  return version;
}

std::optional<Version> Version::parse(std::string_view text) {
  static const std::regex pattern(
      R"(^\s*v?(?:([0-9]+)!)?([0-9]+(?:\.[0-9]+)*)(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?([0-9]+)?)?)"
      R"((?:-([0-9]+)|[-_.]?(post|rev|r)[-_.]?([0-9]+)?)?(?:[-_.]?(dev)[-_.]?([0-9]+)?)?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?\s*$)",
      std::regex::icase);
  std::string folded = lower(text);
  std::smatch match;
  if (!std::regex_match(folded, match, pattern)) return std::nullopt;
  Version version;
  try {
    if (match[1].matched) version.epoch_ = std::stol(match[1].str());
    std::string release = match[2].str();
    size_t start = 0;
    for (;;) {
      size_t dot = release.find('.', start);
      version.release_.push_back(std::stol(release.substr(start, dot - start)));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    if (match[3].matched) {
      std::string phase = match[3].str();
      version.pre_phase_ = phase[0] == 'a' ? 0 : phase[0] == 'b' ? 1 : 2;
      version.pre_ = match[4].matched ? std::stol(match[4].str()) : 0;
    }
    if (match[5].matched) version.post_ = std::stol(match[5].str());
    if (match[6].matched) version.post_ = match[7].matched ? std::stol(match[7].str()) : 0;
    if (match[8].matched) version.dev_ = match[9].matched ? std::stol(match[9].str()) : 0;
  } catch (const std::out_of_range&) {
    return std::nullopt;
  }
  // Trailing zeros stay (`~=2.8.0` needs them); compare() pads, so 1.0 == 1.0.0 still.
  return version;
}

int Version::compare(const Version& other) const {
  auto three_way = [](long a, long b) { return a < b ? -1 : a > b ? 1 : 0; };
  if (epoch_ != other.epoch_) return three_way(epoch_, other.epoch_);
  size_t n = std::max(release_.size(), other.release_.size());
  for (size_t i = 0; i < n; ++i) {
    long a = i < release_.size() ? release_[i] : 0;
    long b = i < other.release_.size() ? other.release_[i] : 0;
    if (a != b) return three_way(a, b);
  }
  // PEP 440 suffix order: X.devN < X.aN < X.bN < X.rcN < X < X.postN.
  auto pre_key = [](const Version& v) -> std::pair<long, long> {
    if (v.pre_phase_ < 0 && v.post_ < 0 && v.dev_ >= 0) return {kLow, 0};
    if (v.pre_phase_ < 0) return {kHigh, 0};
    return {v.pre_phase_, v.pre_};
  };
  auto [pa, pn] = pre_key(*this);
  auto [qa, qn] = pre_key(other);
  if (pa != qa) return three_way(pa, qa);
  if (pn != qn) return three_way(pn, qn);
  long post_a = post_ < 0 ? kLow : post_;
  long post_b = other.post_ < 0 ? kLow : other.post_;
  if (post_a != post_b) return three_way(post_a, post_b);
  long dev_a = dev_ < 0 ? kHigh : dev_;
  long dev_b = other.dev_ < 0 ? kHigh : other.dev_;
  return three_way(dev_a, dev_b);
}

std::optional<std::vector<Specifier>> parse_specifiers(std::string_view text) {
  std::vector<Specifier> out;
  if (trim(text).empty()) return out;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string clause = trim(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    Specifier specifier;
    for (std::string_view op : {"===", "~=", "==", "!=", "<=", ">=", "<", ">"}) {
      if (clause.starts_with(op)) {
        specifier.op = std::string(op);
        break;
      }
    }
    if (specifier.op.empty()) return std::nullopt;
    specifier.version = trim(std::string_view(clause).substr(specifier.op.size()));
    if (!intervals(specifier)) return std::nullopt;
    out.push_back(std::move(specifier));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

namespace {

// The versions every specifier admits, within `start`; empty for a clause that does not parse
// (parse_specifiers rejects those).
std::vector<Interval> admitted(const std::vector<Specifier>& specifiers, Interval start) {
  std::vector<Interval> allowed{std::move(start)};
  for (const Specifier& specifier : specifiers) {
    std::optional<std::vector<Interval>> set = intervals(specifier);
    if (!set) return {};
    allowed = intersect(allowed, *set);
  }
  return allowed;
}

}  // namespace

bool admits_version_below(const std::vector<Specifier>& specifiers, const Version& bound) {
  return !admitted(specifiers, {{}, {bound, false}}).empty();
}

bool admits_version(const std::vector<Specifier>& specifiers, const Version& version) {
  return !admitted(specifiers, {{version, true}, {version, true}}).empty();
}

std::optional<LowerBound> lowest_admitted(const std::vector<Specifier>& specifiers) {
  std::vector<Interval> allowed = admitted(specifiers, {});
  if (allowed.empty()) return std::nullopt;
  std::optional<LowerBound> lowest;
  for (const Interval& interval : allowed) {
    if (!interval.low.version) return std::nullopt;  // unbounded below
    if (!lowest || *interval.low.version < lowest->version)
      lowest = LowerBound{*interval.low.version, interval.low.inclusive};
  }
  return lowest;
}

std::optional<UpperBound> highest_admitted(const std::vector<Specifier>& specifiers) {
  std::vector<Interval> allowed = admitted(specifiers, {});
  if (allowed.empty()) return std::nullopt;
  std::optional<UpperBound> highest;
  for (const Interval& interval : allowed) {
    if (!interval.high.version) return std::nullopt;  // unbounded above
    if (!highest || highest->version < *interval.high.version)
      highest = UpperBound{*interval.high.version, interval.high.inclusive};
  }
  return highest;
}

}  // namespace torchmigrate::buildfiles
