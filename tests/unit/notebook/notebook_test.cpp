// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/notebook/notebook.hpp"

using namespace torchmigrate::notebook;

namespace {

const char* const kNotebook = R"({
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": ["# Title\n", "text"]
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "outputs": [],
   "source": [
    "import torch\n",
    "x = \"\u00e9\"\n",
    "y = 1"
   ]
  },
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": "z = 2\n"
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
)";

}  // namespace

TEST_CASE("a notebook's cells are read with their sources decoded and located") {
  std::string json = kNotebook;
  ParseResult parsed = parse(json);
  REQUIRE(parsed.notebook);
  const Notebook& notebook = *parsed.notebook;
  REQUIRE(notebook.cells.size() == 3);
  CHECK(notebook.cells[0].type == "markdown");
  const Cell& code = notebook.cells[1];
  CHECK(code.type == "code");
  CHECK(code.is_array);
  CHECK(code.text == "import torch\nx = \"\xC3\xA9\"\ny = 1");
  REQUIRE(code.pieces.size() == 3);
  CHECK(code.pieces[1].text == "x = \"\xC3\xA9\"\n");
  REQUIRE(code.offsets.size() == code.text.size() + 1);
  CHECK(json[code.offsets[0]] == 'i');
  CHECK(json[code.offsets.back()] == '"');  // the closing quote of "y = 1"
  CHECK_FALSE(notebook.cells[2].is_array);
  CHECK(notebook.cells[2].text == "z = 2\n");
}

TEST_CASE("file offsets become cell, line and column") {
  std::string json = kNotebook;
  Notebook notebook = *parse(json).notebook;
  auto at_y = locate(notebook, static_cast<uint32_t>(json.find("y = 1") + 4));
  REQUIRE(at_y);
  CHECK(at_y->cell == 2);
  CHECK(at_y->line == 3);
  CHECK(at_y->column == 5);
  auto at_z = locate(notebook, static_cast<uint32_t>(json.find("z = 2")));
  REQUIRE(at_z);
  CHECK(at_z->cell == 3);
  CHECK(at_z->line == 1);
  CHECK(at_z->column == 1);
  CHECK_FALSE(locate(notebook, static_cast<uint32_t>(json.find("nbformat"))));
}

TEST_CASE("malformed notebooks are refused with a reason") {
  CHECK_THAT(parse("{\"cells\": [").error, Catch::Contains("parse error"));
  CHECK_THAT(parse("[]").error, Catch::Contains("not a JSON object"));
  CHECK_THAT(parse(R"({"nbformat": 3, "cells": []})").error, Catch::Contains("nbformat 3 is not supported"));
  CHECK_THAT(parse(R"({"nbformat": 4})").error, Catch::Contains("no `cells` array"));
  CHECK_THAT(parse(R"({"nbformat": 4, "cells": [{"cell_type": "code", "source": [1]}]})").error,
             Catch::Contains("cell 1: `source` holds a value that is not a string"));
  CHECK_THAT(parse(R"({"nbformat": 4, "cells": [{"source": ""}]})").error, Catch::Contains("cell_type"));
  CHECK_FALSE(parse("").notebook);
  CHECK(parse(R"({"nbformat": 4, "cells": []})").notebook);
}
