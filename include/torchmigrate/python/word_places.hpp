// SPDX-License-Identifier: MIT
// Where a word of Python source stands, read without parsing: the prefilter asks it before
// letting a trigger word admit a file. A word in a comment, or in a string that holds whitespace
// (a docstring, a message, prose), cannot be what a check reports: `# see torch.jit.script` and
// `raise RuntimeError("torch.jit.script is not supported")` must not cost a parse. A string
// without whitespace may still name something (`getattr(m, "allow_tf32")`, `backend="onnxrt"`,
// `mock.patch("torch.export.export")`), and an f-string holds code, so both still count.
#pragma once

#include <cstddef>
#include <string_view>

namespace torchmigrate::python {

class WordPlaces {
 public:
  explicit WordPlaces(std::string_view text) : text_(text) {}

  // Whether the word starting at `offset` may be code or a name; offsets should increase from
  // one call to the next (an earlier one rescans from the start). Unsure means yes.
  [[nodiscard]] bool may_be_code(size_t offset);

 private:
  struct Span {
    size_t begin = 0;
    size_t end = 0;
    bool counts = true;
  };

  [[nodiscard]] Span comment_at(size_t hash) const;
  [[nodiscard]] Span string_at(size_t quote);

  std::string_view text_;
  size_t code_from_ = 0;  // every byte before it was classified; it is code
  Span last_;             // the last comment or string met, which may hold the next word too
  // An f-string with quotes inside its braces (`f"{d["key"]}"`) is not read reliably without a
  // parser: from there on, every word counts.
  bool unsure_ = false;
};

}  // namespace torchmigrate::python
