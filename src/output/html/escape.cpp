// SPDX-License-Identifier: MIT
// Escaping for the HTML report: element text, attribute values, JSON inside <script>, and the
// catalog's prose with its `code spans`.
#include "torchmigrate/output/html.hpp"
#include "torchmigrate/output/escape.hpp"

namespace torchmigrate::output::html {

std::string escape(std::string_view text) {
  return replace_characters(text, {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}});
}

std::string escape_text(std::string_view text, bool keep_tabs) { return escape(escape_control(text, keep_tabs)); }

std::string breakable_path(std::string_view path) {
  std::string out;
  for (size_t start = 0; start < path.size();) {
    size_t slash = path.find('/', start);
    size_t end = slash == std::string_view::npos ? path.size() : slash + 1;
    out += escape_text(path.substr(start, end - start));
    if (slash != std::string_view::npos && end < path.size()) out += "<wbr>";
    start = end;
  }
  return out;
}

std::string code_spans(std::string_view text) {
  std::string out;
  for (size_t start = 0; start < text.size();) {
    size_t open = text.find('`', start);
    size_t close = open == std::string_view::npos ? open : text.find('`', open + 1);
    if (close == std::string_view::npos) {  // no span left, or an unclosed backtick: text
      out += escape_text(text.substr(start));
      break;
    }
    out += escape_text(text.substr(start, open - start)) + "<code>" +
           escape_text(text.substr(open + 1, close - open - 1)) + "</code>";
    start = close + 1;
  }
  return out;
}

std::string script_json(const std::string& json) {
  // Only ever inside JSON strings, where the \u form means the same character.
  return replace_characters(json, {{'<', "\\u003c"}, {'>', "\\u003e"}, {'&', "\\u0026"}});
}

std::string prose(std::string_view markdown) {
  std::string out = "<p>";
  bool in_code = false;
  for (size_t i = 0; i < markdown.size();) {
    if (markdown[i] == '`') {
      out += in_code ? "</code>" : "<code>";
      in_code = !in_code;
      ++i;
    } else if (markdown[i] == '\n') {
      size_t end = markdown.find_first_not_of('\n', i);
      if (end == std::string_view::npos) end = markdown.size();
      bool paragraph = end - i > 1 && !in_code && end < markdown.size();
      out += paragraph ? "</p><p>" : " ";
      i = end;
    } else {
      size_t next = markdown.find_first_of("`\n", i);
      if (next == std::string_view::npos) next = markdown.size();
      out += escape_text(markdown.substr(i, next - i), true);
      i = next;
    }
  }
  if (in_code) out += "</code>";
  return out + "</p>";
}

}  // namespace torchmigrate::output::html
