// SPDX-License-Identifier: MIT
// TM203 (exception-class-change): which exact type tests are rewritten, how negations are parenthesised.
#include <catch2/catch.hpp>

#include "family_rule.hpp"
#include "torchmigrate/checks/python_checks.hpp"
#include "torchmigrate/checks/registry.hpp"
#include "torchmigrate/engine/lint/fixer.hpp"
#include "torchmigrate/engine/lint/linter.hpp"

using namespace torchmigrate;

namespace {

engine::Linter linter_for(const std::string& code, bool unsafe = false) {
  engine::Settings settings;
  settings.selection.select = {code};
  settings.unsafe_fixes = unsafe;
  return engine::Linter(engine::Catalog::builtin(), checks::builtin_registry(), settings);
}

size_t count(const std::string& code, const std::string& source) {
  SourceFile file("t.py", source, Language::Python);
  return linter_for(code).lint(file).size();
}

// The rewrite is unsafe (it also matches RuntimeError subclasses), so it needs --unsafe-fixes.
std::string fixed(const std::string& code, const std::string& source) {
  SourceFile file("t.py", source, Language::Python);
  return engine::fix_file(linter_for(code, true), file).text;
}

// A handler of a try that calls torch, with `test` as its only statement.
std::string in_handler(const std::string& test, const std::string& caught = "RuntimeError") {
  return "import torch\ntry:\n    torch.ones(1)\nexcept " + caught + " as e:\n    " + test + "\n";
}

}  // namespace

TEST_CASE("TM203 rewrites exact type tests to isinstance") {
  CHECK(fixed("TM203", in_handler("ok = type(e) is RuntimeError")) == in_handler("ok = isinstance(e, RuntimeError)"));
  CHECK(fixed("TM203", in_handler("ok = RuntimeError is type(e)")) == in_handler("ok = isinstance(e, RuntimeError)"));
  CHECK(fixed("TM203", in_handler("ok = type(e) in {RuntimeError}")) == in_handler("ok = isinstance(e, RuntimeError)"));
  CHECK(fixed("TM203", in_handler("ok = type(e) in [KeyError, RuntimeError]")) ==
        in_handler("ok = isinstance(e, (KeyError, RuntimeError))"));
}

TEST_CASE("TM203 keeps negations valid wherever the comparison stood") {
  CHECK(fixed("TM203", in_handler("ok = type(e) is not RuntimeError")) ==
        in_handler("ok = not isinstance(e, RuntimeError)"));
  CHECK(fixed("TM203", in_handler("ok = a and type(e) != RuntimeError")) ==
        in_handler("ok = a and not isinstance(e, RuntimeError)"));
  CHECK(fixed("TM203", in_handler("ok = [type(e) not in (RuntimeError,)]")) ==
        in_handler("ok = [not isinstance(e, RuntimeError)]"));
  // Operand of `+` or subscript: `not` needs parentheses there.
  CHECK(fixed("TM203", in_handler("ok = 1 + (type(e) != RuntimeError)")) ==
        in_handler("ok = 1 + (not isinstance(e, RuntimeError))"));
  CHECK(fixed("TM203", in_handler("ok = f(x=type(e) is not RuntimeError)")) ==
        in_handler("ok = f(x=not isinstance(e, RuntimeError))"));
}

TEST_CASE("TM203 leaves alone what keeps working or is not the caught exception") {
  CHECK(count("TM203", in_handler("ok = isinstance(e, RuntimeError)")) == 0);
  CHECK(count("TM203", in_handler("ok = type(e) is ValueError")) == 0);
  CHECK(count("TM203", in_handler("ok = type(e) is RuntimeError is True")) == 0);  // chained
  CHECK(count("TM203", in_handler("ok = type(e).__name__ is 'RuntimeError'")) == 0);
  CHECK(count("TM203", in_handler("ok = type(e, x) is RuntimeError")) == 0);
  CHECK(count("TM203", in_handler("ok = type(e) in (RuntimeError, *others)")) == 0);
  CHECK(count("TM203", in_handler("ok = type(other) is RuntimeError")) == 0);
  // The try body must call torch.
  CHECK(count("TM203", "try:\n    f()\nexcept RuntimeError as e:\n    ok = type(e) is RuntimeError\n") == 0);
}

TEST_CASE("TM203 handler order: only a NotImplementedError handler that now wins") {
  auto source = [](const std::string& first, const std::string& second) {
    return "import torch\ntry:\n    torch.ones(1)\nexcept " + first + ":\n    pass\nexcept " + second + ":\n    pass\n";
  };
  CHECK(count("TM203", source("NotImplementedError", "RuntimeError")) == 1);
  CHECK(count("TM203", source("NotImplementedError as error", "(KeyError, RuntimeError)")) == 1);
  CHECK(count("TM203", source("RuntimeError", "NotImplementedError")) == 0);
  CHECK(count("TM203", source("NotImplementedError", "KeyError")) == 0);
  CHECK(count("TM203", source("(NotImplementedError, RuntimeError)", "KeyError")) == 0);
}

// OSError -> FileNotFoundError for a made-up library: every name comes from the params.
TEST_CASE("exception-class-change takes the classes, the library and the wording from its params") {
  const char* params = R"({"old_class": "OSError", "new_class": "FileNotFoundError", "catch_all_classes": ["Exception"],
                           "raised_by": ["mylib"], "errors": "missing-file errors"})";
  engine::Catalog catalog = testing::family_catalog("exception-class-change", params, "{problem}", "mylib");
  auto messages = [&](const std::string& source) { return testing::family_messages(catalog, source); };
  auto type_test = [](const std::string& call) {
    return "import torch, mylib\ntry:\n    " + call + "\nexcept OSError as e:\n    ok = type(e) is OSError\n";
  };
  CHECK(messages(type_test("mylib.load(p)")) ==
        std::vector<std::string>{"exact type test of `e` no longer matches missing-file errors"});
  const std::string order =
      "import mylib\ntry:\n    mylib.load(p)\nexcept FileNotFoundError:\n    pass\n"
      "except OSError:\n    pass\n";
  CHECK(messages(order) == std::vector<std::string>{"`except FileNotFoundError` comes before a handler of `OSError` "
                                                    "and now catches missing-file errors first"});
  // Only tries that call the library count.
  CHECK(messages(type_test("torch.ones(1)")).empty());
  // A handler broken across lines is quoted on one line, without its comments.
  const std::string broken =
      "import mylib\ntry:\n    mylib.load(p)\nexcept (ValueError,  # why\n        FileNotFoundError ):\n    pass\n"
      "except Exception:\n    pass\n";
  CHECK(messages(broken) == std::vector<std::string>{"`except (ValueError, FileNotFoundError)` comes before a handler "
                                                     "of `OSError` and now catches missing-file errors first"});
}

TEST_CASE("exception-class-change rejects a misspelt param") {
  const char* params = R"({"old_class": "OSError", "new_class": "FileNotFoundError", "catch_all_classes": [],
                           "raised_bye": ["mylib"], "errors": "e"})";
  engine::Catalog catalog = testing::family_catalog("exception-class-change", params, "{problem}", "mylib");
  CHECK_THROWS_WITH(checks::make_exception_class_change_check(catalog.rules().at(0)),
                    Catch::Contains("missing key `raised_by`"));
}
