// SPDX-License-Identifier: MIT
// Parse-only verdicts for the Python syntax agreement test: for each path on standard input,
// one tab-separated line on standard output, "path\tok", "path\terror\tLINE:COLUMN" or
// "path\tskipped\tREASON". Files are read and decoded as `torchmigrate check` reads them, and
// parsed by the same front, so "error" is exactly a TM901 the linter would report.
#include <iostream>
#include <string>

#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/workspace/file_io.hpp"
#include "torchmigrate/python/python2_forms.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

using namespace torchmigrate;

namespace {

std::string verdict(const std::string& path) {
  engine::ReadResult read = engine::read_file(path);
  if (!read.text) return "skipped\t" + read.error;
  engine::DecodedSource decoded = engine::decode_source(std::move(*read.text));
  if (!decoded.skip_reason.empty()) return "skipped\t" + decoded.skip_reason;
  SourceFile file(path, std::move(decoded.text), Language::Python);
  python::SyntaxTree tree = python::SyntaxTree::parse(file.text());
  if (tree.too_deep()) return "error\t1:1";
  std::optional<uint32_t> error;
  if (auto node = tree.first_error()) error = node->start();
  if (auto form = python::first_python2_form(tree); form && (!error || form->node.start() < *error))
    error = form->node.start();
  if (error) {
    LineColumn at = file.location(*error);
    return "error\t" + std::to_string(at.line) + ":" + std::to_string(at.column);
  }
  return "ok";
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string path;
  while (std::getline(std::cin, path)) {
    if (!path.empty()) std::cout << path << '\t' << verdict(path) << '\n';
  }
  return 0;
}
