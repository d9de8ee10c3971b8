// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/notebook/notebook.hpp"
#include "torchmigrate/notebook/rewrite.hpp"

using namespace torchmigrate::notebook;

namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

const char* const kOneSpace = R"nb({
 "cells": [
  {
   "cell_type": "code",
   "metadata": {"tags": ["x"]},
   "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}],
   "source": [
    "import torch\n",
    "s = \"caf\u00e9\"\n",
    "m = torch.export.export(f, (x,))"
   ]
  },
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": []
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
)nb";

}  // namespace

TEST_CASE("only the changed cell's source changes; unchanged lines keep their bytes") {
  std::string json = kOneSpace;
  Notebook notebook = *parse(json).notebook;
  std::string fixed = rewrite_sources(json, notebook,
                                      {{0, "import torch\ns = \"caf\xC3\xA9\"\nm = torch.export.export(f, (x,), strict=True)"}});
  std::string expected = json;
  expected.replace(expected.find("(x,))\""), 6, "(x,), strict=True)\"");
  CHECK(fixed == expected);  // the \u00e9 line is reused as it was written
}

TEST_CASE("new lines follow the array's layout, line endings and escaping style") {
  std::string json = replace_all(kOneSpace, "\n", "\r\n");
  Notebook notebook = *parse(json).notebook;
  std::string fixed = rewrite_sources(json, notebook, {{0, "import os\nimport torch\n\xC3\xA9 = 1\n"}});
  CHECK(fixed.find("\"source\": [\r\n    \"import os\\n\",\r\n    \"import torch\\n\",\r\n    \"\\u00e9 = 1\\n\"\r\n   ]") !=
        std::string::npos);
  CHECK(fixed.find("\"outputs\": [{\"output_type\"") != std::string::npos);
  // Re-read: the cell holds exactly the new text.
  CHECK(parse(fixed).notebook->cells[0].text == "import os\nimport torch\n\xC3\xA9 = 1\n");
}

TEST_CASE("an empty source array takes the document's indentation; a string source stays a string") {
  std::string json = kOneSpace;
  Notebook notebook = *parse(json).notebook;
  std::string fixed = rewrite_sources(json, notebook, {{1, "a = 1\nb = 2"}});
  CHECK(fixed.find("\"source\": [\n    \"a = 1\\n\",\n    \"b = 2\"\n   ]") != std::string::npos);
  CHECK(rewrite_sources(fixed, *parse(fixed).notebook, {{1, ""}}) == json);

  std::string single = R"({"nbformat": 4, "cells": [{"cell_type": "code", "source": "a\nb", "outputs": []}]})";
  std::string rewritten = rewrite_sources(single, *parse(single).notebook, {{0, "a\nc\n"}});
  CHECK(rewritten == R"({"nbformat": 4, "cells": [{"cell_type": "code", "source": "a\nc\n", "outputs": []}]})");
}
