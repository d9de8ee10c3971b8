// SPDX-License-Identifier: MIT
// The POSIX-shell word splitter: words in order, inside the text, and the assignment test on
// each word's value.
#include <string>

#include "fuzz_target.hpp"
#include "torchmigrate/buildfiles/shell_words.hpp"

using namespace torchmigrate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::bytes(data, size);
  size_t previous_end = 0;
  for (const buildfiles::ShellWord& word : buildfiles::shell_words(text)) {
    FUZZ_REQUIRE(word.begin <= word.end && word.end <= text.size());
    FUZZ_REQUIRE(word.begin >= previous_end);
    previous_end = word.end;
    (void)buildfiles::is_assignment_word(word.value);
  }
  return 0;
}
