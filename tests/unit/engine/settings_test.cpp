// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/catalog/settings.hpp"

using namespace torchmigrate;
using namespace torchmigrate::engine;

namespace {
RuleSpec rule(const std::string& code, bool default_enabled = true) {
  RuleSpec spec;
  spec.code = code;
  spec.name = "rule-" + code;
  spec.default_enabled = default_enabled;
  return spec;
}
}  // namespace

TEST_CASE("rule selection follows Ruff: select replaces, extend adds, the most specific wins") {
  RuleSelection defaults;
  CHECK(defaults.enabled(rule("TM201")));
  CHECK_FALSE(defaults.enabled(rule("TM305", false)));

  RuleSelection prefix{{"TM1"}, {}, {}};
  CHECK(prefix.enabled(rule("TM101")));
  CHECK_FALSE(prefix.enabled(rule("TM201")));

  RuleSelection ignore_family{{}, {"TM305"}, {"TM2"}};
  CHECK_FALSE(ignore_family.enabled(rule("TM201")));
  CHECK(ignore_family.enabled(rule("TM305", false)));
  CHECK(ignore_family.enabled(rule("TM101")));

  RuleSelection specific_select{{"TM201"}, {}, {"TM2"}};
  CHECK(specific_select.enabled(rule("TM201")));
  RuleSelection tie{{"TM201"}, {}, {"TM201"}};
  CHECK_FALSE(tie.enabled(rule("TM201")));
  RuleSelection by_name{{"rule-TM101"}, {}, {}};
  CHECK(by_name.enabled(rule("TM101")));

  // per-file-ignores always win, even over a more specific --select.
  RuleSelection file_ignored{{"TM201"}, {}, {}, {"TM2"}};
  CHECK_FALSE(file_ignored.enabled(rule("TM201")));
  RuleSelection all_ignored{{}, {}, {}, {"ALL"}};
  CHECK_FALSE(all_ignored.enabled(rule("TM101")));
}

TEST_CASE("a fix whose requirement the oldest supported torch does not meet is unsafe, and says why") {
  Fix fix;
  fix.requirements.torch = TorchVersion::parse("2.8");
  Settings settings;
  settings.min_torch = TorchVersion::parse("2.7");
  CHECK(settings.effective(fix) == Applicability::Unsafe);
  CHECK(settings.unmet_requirement(fix) == "needs torch >= 2.8; the project supports torch 2.7-2.8");
  settings.min_torch = TorchVersion::parse("2.8");
  CHECK(settings.effective(fix) == Applicability::Safe);
  CHECK(settings.unmet_requirement(fix).empty());
  settings.min_torch = TorchVersion::parse("2.9");
  CHECK(settings.effective(fix) == Applicability::Safe);

  // Met requirement: an unsafe or display-only fix stays what it is.
  fix.applicability = Applicability::DisplayOnly;
  CHECK(settings.effective(fix) == Applicability::DisplayOnly);
  fix.applicability = Applicability::Unsafe;
  settings.min_torch = TorchVersion::parse("2.4");
  CHECK(settings.effective(fix) == Applicability::Unsafe);

  Fix anywhere;  // no requirement
  CHECK(settings.effective(anywhere) == Applicability::Safe);
  CHECK(settings.unmet_requirement(anywhere).empty());
}

TEST_CASE("a fix whose spelling a later release removes is unsafe once the range reaches that release") {
  Fix fix;  // export_for_training: from 2.5, gone in 2.11
  fix.requirements.torch = TorchVersion::parse("2.5");
  fix.requirements.below = TorchVersion::parse("2.11");
  CHECK(torchmigrate::to_string(fix.requirements) == "torch>=2.5,<2.11");
  Settings settings;
  settings.min_torch = TorchVersion::parse("2.7");
  settings.target = TorchVersion::parse("2.8");
  CHECK(settings.effective(fix) == Applicability::Safe);
  // A pinned maximum past the target still has to work.
  settings.max_torch = TorchVersion::parse("2.11");
  CHECK(settings.newest_torch() == TorchVersion{2, 11});
  CHECK(settings.effective(fix) == Applicability::Unsafe);
  CHECK(settings.unmet_requirement(fix) == "needs torch < 2.11; the project supports torch 2.7-2.11");
  settings.max_torch = TorchVersion::parse("2.9");
  CHECK(settings.newest_torch() == TorchVersion{2, 8 + 1});
  CHECK(settings.effective(fix) == Applicability::Safe);
  settings.min_torch = TorchVersion::parse("2.4");
  CHECK(settings.unmet_requirement(fix) == "needs torch >= 2.5; the project supports torch 2.4-2.9");
}

TEST_CASE("fix requirements come from the catalog: keep-old `dynamo=False` needs torch 2.4") {
  const RuleSpec* tm302 = Catalog::builtin().find("TM302");
  REQUIRE(tm302 != nullptr);
  REQUIRE(tm302->fix_requirements.torch.has_value());
  Fix keep_old{"Add `dynamo=False`", {}, Applicability::Safe, tm302->fix_requirements, FixPolicy::KeepOld, {}};
  Settings settings;
  settings.min_torch = TorchVersion::parse("2.3");
  CHECK(settings.effective(keep_old) == Applicability::Unsafe);
  settings.min_torch = TorchVersion::parse("2.4");
  CHECK(settings.effective(keep_old) == Applicability::Safe);
  CHECK(to_string(tm302->fix_requirements) == "torch>=2.4");
}

TEST_CASE("versions, policies and selectors reject bad input with a message") {
  CHECK(TorchVersion::parse("2.10") > TorchVersion::parse("2.9"));
  CHECK_THROWS_WITH(TorchVersion::parse("two"), Catch::Contains("expected MAJOR.MINOR"));
  CHECK(parse_policy("adopt-new") == FixPolicy::AdoptNew);
  CHECK_THROWS_WITH(parse_policy("newest"), Catch::Contains("keep-old or adopt-new"));
  Settings settings;
  settings.policies["TM201"] = FixPolicy::AdoptNew;
  CHECK(settings.policy_for("TM201") == FixPolicy::AdoptNew);
  CHECK(settings.policy_for("TM202") == FixPolicy::KeepOld);
  CHECK_THROWS_WITH(validate_selector("TM99", Catalog::builtin()), Catch::Contains("unknown rule selector"));
  CHECK_NOTHROW(validate_selector("TM9", Catalog::builtin()));  // the file problems, TM900-TM902
  CHECK_NOTHROW(validate_selector("TM1", Catalog::builtin()));
}
