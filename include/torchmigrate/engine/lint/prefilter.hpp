// SPDX-License-Identifier: MIT
// Which rules can fire on a file, from one pass over its bytes: a rule that cannot is not run,
// and a file no rule can fire on is not parsed. Word triggers match whole identifier words
// (a word boundary is any byte outside [A-Za-z0-9_], non-ASCII bytes included); substring
// triggers match anywhere, any-case ones ignoring ASCII case. A word trigger may spell tokens
// around its words: `from torch import`, `torch.quantization`, `type(`, `= torch$`,
// `, NotImplementedError` (a space needs whitespace, punctuation may have some around it and a
// leading one may end a line with a comment after it or be spaced from the next, `$` is the end
// of a statement). A rule fires when one of its `triggers` and one entry of each of its
// `trigger_groups` occur. In Python source, a word trigger counts only where code or a name may
// stand (python/word_places.hpp): not in comments, not in docstrings and messages.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/string_map.hpp"

#include "torchmigrate/engine/catalog/catalog.hpp"
#include "torchmigrate/engine/lint/word_scan.hpp"

namespace torchmigrate::engine {

// How the words of a text are read: Python source has comments and prose strings to pass over.
enum class WordPlacesOf { AnyText, Python };

class Prefilter {
 public:
  explicit Prefilter(const std::vector<const RuleSpec*>& rules);

  // One flag per rule given to the constructor, in its order: true when the rule can fire.
  [[nodiscard]] std::vector<bool> candidates(std::string_view text,
                                             WordPlacesOf places_of = WordPlacesOf::AnyText) const;

 private:
  // A word trigger around its first word: "=" and "$" of "= torch$", "/types.h" of "torch/types.h".
  struct WordTail {
    std::string prefix;  // spaces removed
    std::string tail;
    size_t slot;  // which any-of list it satisfies
    char next;    // the byte the tail needs first after any gap (`(` of " (script"), or 0
  };
  struct Scan {
    std::string needle;
    bool any_case;
    size_t slot;
  };

  size_t slot_count_ = 0;
  // Per rule: its slots; the first is `triggers`, the rest its `trigger_groups`.
  std::vector<std::vector<size_t>> rule_slots_;
  StringMap<std::vector<WordTail>> words_;  // by first word, looked up by a slice of the text
  std::vector<Scan> scans_;
  // Per first byte, bit n set when some trigger's first word has that byte and length n: most
  // words of a file are rejected here, without hashing them.
  std::array<uint64_t, 256> first_words_{};
  std::array<uint64_t, 256> last_words_{};  // the same for the first word's last byte
  static constexpr size_t kLongestWord = 63;
};

}  // namespace torchmigrate::engine
