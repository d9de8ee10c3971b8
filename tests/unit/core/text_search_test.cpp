// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "torchmigrate/core/text_search.hpp"

using torchmigrate::contains_text;
using torchmigrate::find_text;

TEST_CASE("find_text finds what std::string_view::find finds") {
  CHECK(find_text("os.environ.get('X')", "environ") == 3);
  CHECK(find_text("import onnx\nonnx.export(m)", "onnx", 8) == 12);
  CHECK(find_text("onnx", "onnx") == 0);
  CHECK(find_text("onn", "onnx") == std::string_view::npos);
  CHECK(find_text("abc", "c", 2) == 2);
  CHECK(find_text("abc", "c", 3) == std::string_view::npos);
  CHECK(find_text("abc", "", 1) == 1);
  CHECK(find_text("abc", "x", 4) == std::string_view::npos);
  CHECK(find_text("@register_backend\ndef f(): ...", "register_backend") == 1);
  CHECK_FALSE(contains_text("environment", "getenv"));

  // Random texts over a small alphabet, so that needles occur, overlap and end the text.
  std::mt19937 random(20261205);
  std::uniform_int_distribution<int> letter(0, 3);
  auto text_of = [&](size_t size) {
    std::string text;
    for (size_t i = 0; i < size; ++i) text.push_back("xnov"[letter(random)]);
    return text;
  };
  for (int round = 0; round < 2000; ++round) {
    std::string text = text_of(static_cast<size_t>(round % 40));
    std::string needle = text_of(1 + static_cast<size_t>(round % 11));
    size_t from = text.empty() ? 0 : static_cast<size_t>(round) % (text.size() + 2);
    INFO(text << " / " << needle << " from " << from);
    CHECK(find_text(text, needle, from) == std::string_view(text).find(needle, from));
  }
}
