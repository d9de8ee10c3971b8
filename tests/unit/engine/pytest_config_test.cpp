// SPDX-License-Identifier: MIT
// Which pytest configurations turn torch.jit's DeprecationWarnings into test failures.
#include <catch2/catch.hpp>

#include "torchmigrate/engine/workspace/pytest_config.hpp"

using namespace torchmigrate::engine;

namespace {

// The filter that makes them errors, as "LINE:TEXT"; "" when none does, "none" when the file is
// no pytest configuration.
std::string verdict(std::string_view name, std::string_view text) {
  std::optional<PytestConfig> config = read_pytest_config(name, text);
  if (!config) return "none";
  const PytestFilter* filter = warnings_as_errors_filter(*config);
  return filter ? std::to_string(filter->line) + ":" + filter->text : "";
}

}  // namespace

TEST_CASE("pytest.ini, tox.ini and setup.cfg sections") {
  CHECK(verdict("pytest.ini", "[pytest]\nfilterwarnings =\n    error\n    ignore::UserWarning\n") == "3:error");
  CHECK(verdict("pytest.ini", "[pytest]\nfilterwarnings = error::DeprecationWarning\n") ==
        "2:error::DeprecationWarning");
  CHECK(verdict("pytest.ini", "") == "");  // a pytest.ini is pytest's configuration even when empty
  CHECK(verdict("tox.ini", "[tox]\nenvlist = py310\n") == "none");
  CHECK(verdict("tox.ini", "[pytest]\nfilterwarnings = error\n") == "2:error");
  CHECK(verdict("setup.cfg", "[tool:pytest]\nfilterwarnings =\n  error\n") == "3:error");
  // Another section's key, a comment, a category torch's warning is not.
  CHECK(verdict("setup.cfg", "[tool:pytest]\n[flake8]\nfilterwarnings = error\n") == "");
  CHECK(verdict("pytest.ini", "[pytest]\nfilterwarnings =\n    # error\n    error::UserWarning\n") == "");
  CHECK(verdict("pytest.ini", "[pytest]\nfilterwarnings = error:some message\n") == "");
  CHECK(verdict("setup.py", "filterwarnings = error\n") == "none");
}

TEST_CASE("later filters win") {
  CHECK(verdict("pytest.ini", "[pytest]\nfilterwarnings =\n    error\n    ignore::DeprecationWarning\n") == "");
  CHECK(verdict("pytest.ini", "[pytest]\nfilterwarnings =\n    error\n    default::DeprecationWarning:torch\n") == "");
  CHECK(verdict("pytest.ini",
                "[pytest]\nfilterwarnings =\n    error\n    ignore:.*is deprecated:DeprecationWarning\n") == "");
  // Ignoring other messages or other modules' warnings leaves torch's an error.
  CHECK(verdict("pytest.ini",
                "[pytest]\nfilterwarnings =\n    error\n    ignore:distutils Version:DeprecationWarning\n"
                "    ignore::DeprecationWarning:pkg_resources\n") == "3:error");
  CHECK(verdict("pytest.ini", "[pytest]\nfilterwarnings =\n    ignore::DeprecationWarning\n    error\n") == "4:error");
  // A prefix names an action, as in Python's warnings module.
  CHECK(verdict("pytest.ini", "[pytest]\nfilterwarnings = e::DeprecationWarning\n") == "2:e::DeprecationWarning");
}

TEST_CASE("addopts") {
  CHECK(verdict("pytest.ini", "[pytest]\naddopts = -ra -W error::DeprecationWarning\n") ==
        "2:error::DeprecationWarning");
  CHECK(verdict("pytest.ini", "[pytest]\naddopts = -Werror --strict-markers\n") == "2:error");
  CHECK(verdict("pytest.ini", "[pytest]\naddopts = --pythonwarnings=error\n") == "2:error");
  // -W options come after the ini filters.
  CHECK(verdict("pytest.ini", "[pytest]\naddopts = -W error\nfilterwarnings = ignore::DeprecationWarning\n") ==
        "2:error");
  // Without the warnings plugin no filter applies.
  CHECK(verdict("pytest.ini", "[pytest]\naddopts = -p no:warnings\nfilterwarnings = error\n") == "");
}

TEST_CASE("pyproject.toml") {
  CHECK(verdict("pyproject.toml", "[project]\nname = \"x\"\n") == "none");
  CHECK(verdict("pyproject.toml",
                "[tool.pytest.ini_options]\nfilterwarnings = [\n  \"ignore::UserWarning\",\n"
                "  'error::DeprecationWarning',\n]\n") == "4:error::DeprecationWarning");
  CHECK(verdict("pyproject.toml", "[tool.pytest.ini_options]\nfilterwarnings = \"error\"\n") == "2:error");
  CHECK(verdict("pyproject.toml", "[tool.pytest.ini_options]\naddopts = \"-W error\"\n") == "2:error");
  CHECK(verdict("pyproject.toml", "[tool.pytest]\nfilterwarnings = [\"error\"]\n") == "2:error");
  CHECK(verdict("pyproject.toml", "[tool.pytest.ini_options]\nminversion = \"7.0\"\n") == "");
  CHECK(verdict("pyproject.toml", "[tool.pytest.ini_options\n") == "none");
}
