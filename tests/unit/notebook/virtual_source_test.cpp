// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <string>

#include "torchmigrate/notebook/notebook.hpp"
#include "torchmigrate/notebook/virtual_source.hpp"

using namespace torchmigrate::notebook;

namespace {

std::string notebook_of(const std::string& cells) {
  return R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [)" + cells + "]}";
}

std::string code_cell(const std::string& source) {
  return R"({"cell_type": "code", "metadata": {}, "outputs": [], "source": )" + source + "}";
}

}  // namespace

TEST_CASE("code cells form one module; IPython lines become comments of the same length") {
  std::string json = notebook_of(code_cell(R"(["%matplotlib inline\n", "import torch\n", "!pip install onnx\n", "torch.compile?"])") +
                                 R"(, {"cell_type": "markdown", "metadata": {}, "source": ["import torch"]}, )" +
                                 code_cell(R"(["%%bash\n", "echo torch.onnx.export\n"])") + ", " +
                                 code_cell(R"(["  x = 1 % 2\n", "y = x != 1"])"));
  Notebook notebook = *parse(json).notebook;
  VirtualSource source = build_virtual_source(notebook);
  CHECK(source.text == std::string("#matplotlib inline\nimport torch\n#pip install onnx\n#orch.compile?\n") +
                           std::string(kCellBoundary) + "  x = 1 % 2\ny = x != 1\n");
  REQUIRE(source.chunks.size() == 2);  // markdown and the %%bash cell are not Python
  CHECK(source.chunks[0].cell == 0);
  CHECK(source.chunks[1].cell == 3);
  CHECK(source.chunks[0].added_newline);
  CHECK(source.chunks[0].neutralised.size() == 3);
  CHECK(source.chunks[1].neutralised.empty());

  // Offsets in the virtual text map to the same character in the file.
  uint32_t torch_at = static_cast<uint32_t>(source.text.find("import torch"));
  CHECK(json.substr(file_offset(notebook, source, torch_at), 12) == "import torch");
  uint32_t y_at = static_cast<uint32_t>(source.text.find("y = x"));
  CHECK(json.substr(file_offset(notebook, source, y_at), 5) == "y = x");
  // A boundary line maps to the end of the cell before it.
  uint32_t boundary = static_cast<uint32_t>(source.text.find(kCellBoundary));
  CHECK(json[file_offset(notebook, source, boundary + 3)] == '"');
  CHECK(json.substr(file_offset(notebook, source, boundary + 3) - 14, 14) == "torch.compile?");
}

TEST_CASE("fixed text splits back into cells with IPython lines restored") {
  std::string json = notebook_of(code_cell(R"(["%time import torch\n", "a = 1"])") + ", " + code_cell(R"(["b = 2\n"])"));
  Notebook notebook = *parse(json).notebook;
  VirtualSource source = build_virtual_source(notebook);
  std::string fixed = source.text;
  fixed.replace(fixed.find("a = 1"), 5, "a = 10");
  fixed.insert(0, "import os\n");
  auto cells = split_cells(source, fixed);
  REQUIRE(cells);
  REQUIRE(cells->size() == 2);
  CHECK((*cells)[0] == "import os\n%time import torch\na = 10");  // no newline added at the end
  CHECK((*cells)[1] == "b = 2\n");

  std::string broken = source.text;
  broken.erase(broken.find(kCellBoundary), kCellBoundary.size());
  CHECK_FALSE(split_cells(source, broken));
}

TEST_CASE("a notebook without code cells is an empty module") {
  Notebook notebook = *parse(notebook_of(R"({"cell_type": "markdown", "metadata": {}, "source": "x"})")).notebook;
  VirtualSource source = build_virtual_source(notebook);
  CHECK(source.text.empty());
  CHECK(source.chunks.empty());
  CHECK(file_offset(notebook, source, 0) == 0);
  auto cells = split_cells(source, "");
  CHECK_FALSE(cells);  // nothing to split into: no fix can have happened
}

TEST_CASE("cells with CRLF line breaks inside their sources keep them") {
  std::string json = notebook_of(code_cell(R"(["a = 1\r\n", "\r\n", "%time a\r\n", "a?\r\n"])"));
  Notebook notebook = *parse(json).notebook;
  VirtualSource source = build_virtual_source(notebook);
  CHECK(source.text == "a = 1\r\n\r\n#time a\r\n#?\r\n");
  auto cells = split_cells(source, source.text);
  REQUIRE(cells);
  CHECK((*cells)[0] == notebook.cells[0].text);
}
