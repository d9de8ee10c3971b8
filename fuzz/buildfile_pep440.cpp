// SPDX-License-Identifier: MIT
// The PEP 440 evaluator: the input is a specifier set and a version separated by a line break.
// Versions compare consistently (antisymmetric, reflexive), and the interval question runs on
// whatever parses.
#include <string>

#include "fuzz_target.hpp"
#include "torchmigrate/buildfiles/pep440.hpp"

using namespace torchmigrate;
using buildfiles::Version;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::bytes(data, size);
  const size_t newline = text.find('\n');
  const std::string_view specifier_text = text.substr(0, newline);
  const std::string_view version_text = newline == std::string_view::npos ? text : text.substr(newline + 1);
  const std::optional<Version> version = Version::parse(version_text);
  const std::optional<Version> other = Version::parse(specifier_text);
  if (version) FUZZ_REQUIRE(version->compare(*version) == 0);
  if (version && other) {
    const int forward = version->compare(*other);
    const int backward = other->compare(*version);
    FUZZ_REQUIRE((forward < 0 && backward > 0) || (forward > 0 && backward < 0) || (forward == 0 && backward == 0));
  }
  if (const auto specifiers = buildfiles::parse_specifiers(specifier_text)) {
    for (const buildfiles::Specifier& specifier : *specifiers) (void)Version::parse(specifier.version);
    (void)buildfiles::admits_version_below(*specifiers, version ? *version : Version::from_release({2, 8}, true));
  }
  return 0;
}
