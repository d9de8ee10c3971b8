// SPDX-License-Identifier: MIT
// The environment variables a Python source reads by name (the `python_environment_reads` fact).
#include <catch2/catch.hpp>

#include "torchmigrate/engine/workspace/python_source_facts.hpp"

using torchmigrate::engine::environment_reads;
using Names = std::vector<std::string>;

TEST_CASE("environment reads: get, getenv, subscripts and membership tests") {
  CHECK(environment_reads("p = os.environ.get(\"A\", None)\n") == Names{"A"});
  CHECK(environment_reads("p = os.getenv('B')\nq = getenv( \"C\" )\n") == Names{"B", "C"});
  CHECK(environment_reads("p = os.environ[\"D\"]\nif os.environ['E'] == '1': pass\n") == Names{"D", "E"});
  CHECK(environment_reads("if \"F\" in os.environ: pass\nif 'G' not in environ: pass\n") == Names{"F", "G"});
  CHECK(environment_reads("a = os.environ.get('H')\nb = os.environ.get('H')\n") == Names{"H"});
}

TEST_CASE("environment reads: settings and look-alikes are not reads") {
  CHECK(environment_reads("os.environ[\"A\"] = \"1\"\n").empty());
  CHECK(environment_reads("os.environ.setdefault(\"A\", \"1\")\nos.putenv(\"B\", \"1\")\n").empty());
  CHECK(environment_reads("environment.get(\"A\")\nos.environ.get(name)\nos.environ.get(f\"X_{n}\")\n").empty());
  CHECK(environment_reads("x = \"A\" in options\n").empty());
}
