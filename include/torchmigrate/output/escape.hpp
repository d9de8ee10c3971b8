// SPDX-License-Identifier: MIT
// Terminal- and log-safe text for the human formats: a file name or message holding a newline,
// an escape sequence or a bidirectional override must not start a new log line (a GitHub
// workflow command, a fake finding) or restyle the terminal.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace torchmigrate::output {

// Control characters (C0, DEL, C1), line and paragraph separators and bidirectional controls
// become visible escapes (`\n`, `\x1b`, `\u202e`); bytes that are not UTF-8 become `\xHH`.
// With `keep_tabs`, a tab stays a tab (source lines in snippets).
std::string escape_control(std::string_view text, bool keep_tabs = false);

// Each character that has a replacement in `table` replaced by it; the rest as they are. The
// markup and CI formats build their escaping from this.
struct CharacterReplacement {
  char from;
  std::string_view to;
};
std::string replace_characters(std::string_view text, std::initializer_list<CharacterReplacement> table);

}  // namespace torchmigrate::output
