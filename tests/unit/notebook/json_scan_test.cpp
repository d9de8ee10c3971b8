// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "torchmigrate/notebook/json_scan.hpp"

using namespace torchmigrate;
using namespace torchmigrate::notebook;

namespace {

std::string slice(std::string_view json, TextRange range) { return std::string(json.substr(range.start, range.length())); }

}  // namespace

TEST_CASE("members and elements are found by position, nested values skipped") {
  std::string json = R"( {"a": {"source": "x"}, "b\"q": [1, "]", {"c": []}], "source" : [ "s" ] } )";
  TextRange root = value_at(json, 0);
  CHECK(slice(json, root).front() == '{');
  CHECK(slice(json, root).back() == '}');
  REQUIRE(member(json, root, "source"));
  CHECK(slice(json, *member(json, root, "source")) == R"([ "s" ])");
  REQUIRE(member(json, root, "b\"q"));
  std::vector<TextRange> items = elements(json, *member(json, root, "b\"q"));
  REQUIRE(items.size() == 3);
  CHECK(slice(json, items[0]) == "1");
  CHECK(slice(json, items[1]) == R"("]")");
  CHECK(slice(json, items[2]) == R"({"c": []})");
  CHECK_FALSE(member(json, root, "missing"));
  CHECK(elements(json, value_at(json, json.find("[]"))).empty());
}

TEST_CASE("decoding a literal records the file offset of every decoded byte") {
  std::string json = R"("a\"\n\u00e9\ud83d\ude00b")";
  std::string text;
  std::vector<uint32_t> offsets;
  decode_string(json, {0, static_cast<uint32_t>(json.size())}, text, offsets);
  CHECK(text == "a\"\n\xC3\xA9\xF0\x9F\x98\x80" "b");
  REQUIRE(offsets.size() == text.size());
  CHECK(offsets[0] == 1);   // a
  CHECK(offsets[1] == 2);   // \"
  CHECK(offsets[2] == 4);   // \n
  CHECK(offsets[3] == 6);   // é: both bytes point at the \u escape
  CHECK(offsets[4] == 6);
  CHECK(offsets[5] == 12);  // the surrogate pair: one escape pair, four bytes
  CHECK(offsets[8] == 12);
  CHECK(offsets[9] == json.size() - 2);  // b
}

TEST_CASE("encoding writes Jupyter's escapes and keeps UTF-8 raw unless asked") {
  CHECK(encode_string("say \"hi\"\\\n\t\x01", false) == R"("say \"hi\"\\\n\t\u0001")");
  CHECK(encode_string("caf\xC3\xA9 \xF0\x9F\x98\x80", false) == "\"caf\xC3\xA9 \xF0\x9F\x98\x80\"");
  CHECK(encode_string("caf\xC3\xA9 \xF0\x9F\x98\x80", true) == R"("caf\u00e9 \ud83d\ude00")");
  // Round trip through the decoder.
  std::string literal = encode_string("x = '\xC3\xA9'\r\n", true);
  std::string text;
  std::vector<uint32_t> offsets;
  decode_string(literal, {0, static_cast<uint32_t>(literal.size())}, text, offsets);
  CHECK(text == "x = '\xC3\xA9'\r\n");
}
