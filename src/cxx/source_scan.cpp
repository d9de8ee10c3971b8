// SPDX-License-Identifier: MIT
#include "torchmigrate/cxx/source_scan.hpp"

#include <algorithm>

#include "torchmigrate/cxx/compile_database.hpp"
#include "torchmigrate/cxx/libclang.hpp"

namespace torchmigrate::cxx {
namespace {

namespace fs = std::filesystem;

struct Unit {
  TranslationUnit unit;
  CXFile file = nullptr;
};

// Parses `text` as the content of `path`; the unsaved buffer makes libclang see the text in
// memory (edits included) rather than what is on disk.
Unit parse(const std::string& path, const std::string& text, const std::vector<std::string>& arguments,
           unsigned options) {
  std::vector<const char*> argv;
  argv.reserve(arguments.size());
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  CXUnsavedFile unsaved{path.c_str(), text.data(), static_cast<unsigned long>(text.size())};
  CXTranslationUnit raw = nullptr;
  const LibclangApi& api = libclang();
  CXErrorCode error = api.clang_parseTranslationUnit2(thread_index(), path.c_str(), argv.data(),
                                                      static_cast<int>(argv.size()), &unsaved, 1, options, &raw);
  Unit result;
  if (error != CXError_Success || raw == nullptr) return result;
  result.unit = TranslationUnit(raw);
  result.file = api.clang_getFile(raw, path.c_str());
  return result;
}

uint32_t offset_of(CXSourceLocation location) {
  unsigned offset = 0;
  libclang().clang_getFileLocation(location, nullptr, nullptr, nullptr, &offset);
  return offset;
}

TokenKind kind_of(CXTokenKind kind) {
  switch (kind) {
    case CXToken_Punctuation: return TokenKind::Punctuation;
    case CXToken_Keyword: return TokenKind::Keyword;
    case CXToken_Identifier: return TokenKind::Identifier;
    case CXToken_Literal: return TokenKind::Literal;
    case CXToken_Comment: return TokenKind::Comment;
  }
  return TokenKind::Punctuation;
}

// Whether the gap between two tokens ends a logical line: a newline not escaped by `\`.
bool ends_line(std::string_view gap) {
  for (size_t i = 0; i < gap.size(); ++i) {
    if (gap[i] != '\n') continue;
    size_t j = i;
    while (j > 0 && (gap[j - 1] == '\r' || gap[j - 1] == ' ' || gap[j - 1] == '\t')) --j;
    if (j == 0 || gap[j - 1] != '\\') return true;
  }
  return false;
}

Directive directive_for(std::string_view name) {
  if (name == "include" || name == "include_next" || name == "import") return Directive::Include;
  if (name == "define") return Directive::Define;
  if (name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "elifdef" ||
      name == "elifndef" || name == "else" || name == "endif" || name == "undef") {
    return Directive::Conditional;
  }
  return Directive::Other;
}

enum class Truth { False, True, Unknown };

using Condition = std::vector<const Token*>;

// Whether tokens [first, last) are one parenthesised group.
bool wrapped(const Condition& c, size_t first, size_t last) {
  if (last - first < 2 || c[first]->spelling != "(" || c[last - 1]->spelling != ")") return false;
  int depth = 0;
  for (size_t i = first; i < last; ++i) {
    if (c[i]->spelling == "(") ++depth;
    if (c[i]->spelling == ")" && --depth == 0 && i + 1 != last) return false;
  }
  return true;
}

// Conditions every configuration evaluates the same way, in three-valued logic: literals
// (`0`, `1`, `false`, `true`) combined with `!`, `&&`, `||` and parentheses. Anything else,
// such as a macro or `defined(X)`, depends on the build and is Unknown; so `defined(X) && 0`
// is still False.
Truth evaluate(const Condition& c, size_t first, size_t last) {
  if (first >= last) return Truth::Unknown;
  // `||` binds loosest, then `&&`: split at the loosest operator outside parentheses.
  for (std::string_view op : {"||", "&&"}) {
    std::vector<std::pair<size_t, size_t>> pieces;
    int depth = 0;
    size_t piece = first;
    for (size_t i = first; i < last; ++i) {
      if (c[i]->spelling == "(") ++depth;
      if (c[i]->spelling == ")") --depth;
      if (depth == 0 && c[i]->spelling == op) {
        pieces.emplace_back(piece, i);
        piece = i + 1;
      }
    }
    if (pieces.empty()) continue;
    pieces.emplace_back(piece, last);
    Truth absorbing = op == "||" ? Truth::True : Truth::False;
    Truth result = op == "||" ? Truth::False : Truth::True;
    for (auto [from, to] : pieces) {
      Truth part = evaluate(c, from, to);
      if (part == absorbing) return absorbing;
      if (part == Truth::Unknown) result = Truth::Unknown;
    }
    return result;
  }
  if (wrapped(c, first, last)) return evaluate(c, first + 1, last - 1);
  if (c[first]->spelling == "!") {
    Truth inner = evaluate(c, first + 1, last);
    return inner == Truth::Unknown ? inner : inner == Truth::True ? Truth::False : Truth::True;
  }
  if (last - first != 1) return Truth::Unknown;
  std::string_view value = c[first]->spelling;
  if (value == "false") return Truth::False;
  if (value == "true") return Truth::True;
  if (c[first]->kind != TokenKind::Literal || value.empty()) return Truth::Unknown;
  if (value.find_first_not_of("0123456789") != std::string_view::npos) return Truth::Unknown;
  return value.find_first_not_of('0') == std::string_view::npos ? Truth::False : Truth::True;
}

Truth evaluate(const Condition& condition) { return evaluate(condition, 0, condition.size()); }

struct ConditionalFrame {
  bool outer_dead = false;
  bool some_branch_true = false;  // a branch so far is compiled in every configuration
  bool dead = false;              // the current branch is never compiled
};

// Marks tokens of blocks that no configuration compiles and libclang skipped as well.
void mark_disabled(std::vector<Token>& tokens, const std::vector<TextRange>& skipped) {
  std::vector<ConditionalFrame> stack;
  auto dead_now = [&] { return !stack.empty() && stack.back().dead; };
  size_t i = 0;
  while (i < tokens.size()) {
    Token& token = tokens[i];
    if (token.directive != Directive::Conditional || token.directive_position != 0) {
      token.disabled = dead_now();
      ++i;
      continue;
    }
    // One whole conditional directive: its name and condition.
    size_t end = i + 1;
    while (end < tokens.size() && tokens[end].directive_position > tokens[end - 1].directive_position) ++end;
    std::string_view name = end > i + 1 ? tokens[i + 1].spelling : std::string_view();
    std::vector<const Token*> condition;
    for (size_t k = i + 2; k < end; ++k) {
      if (tokens[k].kind != TokenKind::Comment) condition.push_back(&tokens[k]);
    }
    bool line_dead = dead_now();
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      Truth truth = name == "if" ? evaluate(condition) : Truth::Unknown;
      stack.push_back({line_dead, truth == Truth::True, line_dead || truth == Truth::False});
    } else if ((name == "elif" || name == "elifdef" || name == "elifndef") && !stack.empty()) {
      ConditionalFrame& frame = stack.back();
      line_dead = frame.outer_dead;
      Truth truth = name == "elif" ? evaluate(condition) : Truth::Unknown;
      frame.dead = frame.outer_dead || frame.some_branch_true || truth == Truth::False;
      frame.some_branch_true = frame.some_branch_true || truth == Truth::True;
    } else if (name == "else" && !stack.empty()) {
      ConditionalFrame& frame = stack.back();
      line_dead = frame.outer_dead;
      frame.dead = frame.outer_dead || frame.some_branch_true;
    } else if (name == "endif" && !stack.empty()) {
      line_dead = stack.back().outer_dead;
      stack.pop_back();
    }
    for (size_t k = i; k < end; ++k) tokens[k].disabled = line_dead;
    i = end;
  }
  // Keep only what libclang agrees was skipped: a block it compiled is never disabled.
  auto in_skipped = [&](const TextRange& range) {
    auto it = std::upper_bound(skipped.begin(), skipped.end(), range.start,
                               [](uint32_t offset, const TextRange& r) { return offset < r.start; });
    return it != skipped.begin() && std::prev(it)->contains(range.start);
  };
  for (Token& token : tokens) {
    if (token.disabled && !in_skipped(token.range)) token.disabled = false;
  }
}

IncludeDirective read_include(const std::vector<Token>& tokens, size_t hash, std::string_view text) {
  IncludeDirective include;
  include.disabled = tokens[hash].disabled;
  size_t k = hash + 2;
  if (k >= tokens.size() || tokens[k].directive_position != 2) return include;
  const Token& first = tokens[k];
  if (first.kind == TokenKind::Literal && first.spelling.size() >= 2 && first.spelling.front() == '"') {
    include.header = std::string(first.spelling.substr(1, first.spelling.size() - 2));
    include.range = {tokens[hash].range.start, first.range.end};
  } else if (first.spelling == "<") {
    for (size_t j = k + 1; j < tokens.size() && tokens[j].directive_position > 2; ++j) {
      if (tokens[j].spelling != ">") continue;
      include.angled = true;
      include.header = std::string(text.substr(first.range.end, tokens[j].range.start - first.range.end));
      include.range = {tokens[hash].range.start, tokens[j].range.end};
      break;
    }
  }
  return include;
}

// The ranges libclang skipped (inactive preprocessor branches), sorted.
void read_skipped_ranges(const LibclangApi& api, CXTranslationUnit unit, CXFile file, std::vector<TextRange>& skipped) {
  if (CXSourceRangeList* ranges = api.clang_getSkippedRanges(unit, file)) {
    for (unsigned i = 0; i < ranges->count; ++i) {
      skipped.push_back(
          {offset_of(api.clang_getRangeStart(ranges->ranges[i])), offset_of(api.clang_getRangeEnd(ranges->ranges[i]))});
    }
    api.clang_disposeSourceRangeList(ranges);
  }
  std::sort(skipped.begin(), skipped.end());
}

// Every token of `text` (the parsed file's), its spelling a view into `text`.
void read_tokens(const LibclangApi& api, CXTranslationUnit unit, CXFile file, std::string_view text,
                 std::vector<Token>& tokens) {
  CXSourceLocation end_of_text = api.clang_getLocationForOffset(unit, file, static_cast<unsigned>(text.size()));
  CXSourceRange whole = api.clang_getRange(api.clang_getLocationForOffset(unit, file, 0), end_of_text);
  TokenBuffer buffer(unit, whole);
  tokens.reserve(buffer.size());
  for (unsigned i = 0; i < buffer.size(); ++i) {
    CXSourceRange extent = api.clang_getTokenExtent(unit, buffer[i]);
    uint32_t start = offset_of(api.clang_getRangeStart(extent));
    uint32_t end = offset_of(api.clang_getRangeEnd(extent));
    if (end < start || end > text.size()) continue;
    Token token;
    token.kind = kind_of(api.clang_getTokenKind(buffer[i]));
    token.range = {start, end};
    token.spelling = text.substr(start, end - start);
    tokens.push_back(token);
  }
}

// Directives: a `#` first on its logical line, up to the next unescaped newline.
void mark_directives(std::vector<Token>& tokens, std::string_view text) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    uint32_t previous_end = i == 0 ? 0 : tokens[i - 1].range.end;
    bool line_start =
        i == 0 ? text.substr(0, tokens[i].range.start).find_first_not_of(" \t\r\n\f\v") == std::string_view::npos
               : ends_line(text.substr(previous_end, tokens[i].range.start - previous_end));
    if (!line_start || tokens[i].spelling != "#") continue;
    Directive directive = Directive::Other;
    if (i + 1 < tokens.size() &&
        !ends_line(text.substr(tokens[i].range.end, tokens[i + 1].range.start - tokens[i].range.end))) {
      directive = directive_for(tokens[i + 1].spelling);
    }
    tokens[i].directive = directive;
    uint16_t position = 1;
    size_t j = i + 1;
    for (; j < tokens.size(); ++j) {
      if (ends_line(text.substr(tokens[j - 1].range.end, tokens[j].range.start - tokens[j - 1].range.end))) break;
      tokens[j].directive = directive;
      tokens[j].directive_position = position < UINT16_MAX ? position++ : position;
    }
    i = j - 1;
  }
}

// The includes, and the macros #defined outside disabled blocks.
void read_directives(const std::vector<Token>& tokens, std::string_view text, std::vector<IncludeDirective>& includes,
                     std::vector<std::string>& defined_macros) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].directive_position != 0 || tokens[i].directive == Directive::None) continue;
    if (tokens[i].directive == Directive::Include) {
      IncludeDirective include = read_include(tokens, i, text);
      if (!include.header.empty()) includes.push_back(std::move(include));
    } else if (tokens[i].directive == Directive::Define && !tokens[i].disabled && i + 2 < tokens.size() &&
               tokens[i + 2].directive_position == 2) {
      defined_macros.emplace_back(tokens[i + 2].spelling);
    }
  }
}

}  // namespace

struct SourceScan::Parse {
  Unit unit;
};

struct SourceScan::Command {
  CompileCommand command;
};

std::vector<std::string> language_arguments(const fs::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".c") return {"-x", "c"};
  if (extension == ".cu" || extension == ".cuh") {
    return {"-x",
            "cuda",
            "--cuda-host-only",
            "-nocudainc",
            "-nocudalib",
            "-D__global__=__attribute__((global))",
            "-D__device__=__attribute__((device))",
            "-D__host__=__attribute__((host))",
            "-D__shared__=__attribute__((shared))",
            "-D__constant__=__attribute__((constant))",
            "-D__managed__=__attribute__((managed))",
            "-D__forceinline__=__inline__ __attribute__((always_inline))",
            "-D__launch_bounds__(...)=__attribute__((launch_bounds(__VA_ARGS__)))"};
  }
  // Headers (.h included) are read as C++: C headers parse as C++ well enough to tokenise.
  return {"-x", "c++"};
}

SourceScan::SourceScan(SourceScan&&) noexcept = default;
SourceScan& SourceScan::operator=(SourceScan&&) noexcept = default;
SourceScan::~SourceScan() {
  // The parses own what the tokens were read from; release them in a fixed order.
  semantic_parse_.reset();
  token_parse_.reset();
}

SourceScan SourceScan::scan(const SourceFile& file, const ScanOptions& options) {
  SourceScan scan;
  std::error_code error;
  fs::path absolute = fs::absolute(fs::path(file.path()), error).lexically_normal();
  scan.path_ = error ? file.path() : absolute.string();
  scan.text_ = file.text();
  std::string_view text = file.text();
  // Without libclang there is nothing to scan with; the caller reports that (libclang_note.hpp).
  const LibclangApi* loaded = try_libclang();
  if (loaded == nullptr) return scan;
  const LibclangApi& api = *loaded;

  // The token scan: this file alone, no include is opened and no system header searched,
  // so it is cheap and gives the same answer on every machine.
  std::vector<std::string> arguments = language_arguments(scan.path_);
  for (const char* flag : {"-nostdinc", "-nostdinc++", "-ferror-limit=0", "-w"}) arguments.emplace_back(flag);
  unsigned flags = CXTranslationUnit_SingleFileParse | CXTranslationUnit_DetailedPreprocessingRecord |
                   CXTranslationUnit_Incomplete | CXTranslationUnit_KeepGoing;
  auto parsed = std::make_unique<Parse>(Parse{parse(scan.path_, scan.text_, arguments, flags)});
  if (!parsed->unit.unit || parsed->unit.file == nullptr) return scan;
  CXTranslationUnit unit = parsed->unit.unit.get();
  CXFile cx_file = parsed->unit.file;

  read_skipped_ranges(api, unit, cx_file, scan.skipped_);
  read_tokens(api, unit, cx_file, text, scan.tokens_);
  mark_directives(scan.tokens_, text);
  mark_disabled(scan.tokens_, scan.skipped_);
  read_directives(scan.tokens_, text, scan.includes_, scan.defined_macros_);
  scan.token_parse_ = std::move(parsed);

  if (options.use_compile_database) {
    if (auto directory = find_compile_database(scan.path_, options.compile_database_dir)) {
      if (auto command = compile_command_for(*directory, scan.path_)) {
        scan.compile_command_ = std::make_unique<Command>(Command{std::move(*command)});
      }
    }
  }
  return scan;
}

bool SourceScan::defines_macro(std::string_view name) const {
  return std::find(defined_macros_.begin(), defined_macros_.end(), name) != defined_macros_.end();
}

std::optional<size_t> SourceScan::token_at(uint32_t offset) const {
  auto it = std::upper_bound(tokens_.begin(), tokens_.end(), offset,
                             [](uint32_t value, const Token& token) { return value < token.range.start; });
  if (it == tokens_.begin()) return std::nullopt;
  --it;
  if (!it->range.contains(offset)) return std::nullopt;
  return static_cast<size_t>(it - tokens_.begin());
}

const SourceScan::Parse& SourceScan::semantic_parse() const {
  if (!semantic_tried_ && compile_command_) {
    semantic_tried_ = true;
    std::vector<std::string> arguments = language_arguments(path_);
    arguments.insert(arguments.end(), compile_command_->command.arguments.begin(),
                     compile_command_->command.arguments.end());
    for (const char* flag : {"-ferror-limit=0", "-w"}) arguments.emplace_back(flag);
    unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_Incomplete |
                     CXTranslationUnit_KeepGoing;
    auto parsed = std::make_unique<Parse>(Parse{parse(path_, text_, arguments, flags)});
    if (parsed->unit.unit && parsed->unit.file != nullptr) semantic_parse_ = std::move(parsed);
  }
  return semantic_parse_ ? *semantic_parse_ : *token_parse_;
}

NameReference SourceScan::reference(size_t index) const {
  NameReference result;
  if (!token_parse_ || index >= tokens_.size()) return result;
  const Parse& parse = semantic_parse();
  CXTranslationUnit unit = parse.unit.unit.get();
  const Token& token = tokens_[index];
  const LibclangApi& api = libclang();
  CXCursor cursor = api.clang_getCursor(unit, api.clang_getLocationForOffset(unit, parse.unit.file, token.range.start));
  CXCursor referenced = api.clang_getCursorReferenced(cursor);
  if (api.clang_Cursor_isNull(referenced) || api.clang_isInvalid(api.clang_getCursorKind(referenced))) return result;
  // A cursor for an enclosing declaration (`DLContext ctx;` with DLContext undeclared gives
  // the variable) says nothing about this name.
  if (take_string(api.clang_getCursorSpelling(referenced)) != token.spelling) return result;
  // Error recovery: an unknown macro invocation such as `TORCH_LIBRARY(ops, m) {...}` parses
  // as an invalid function declaration of that name.
  if (api.clang_isDeclaration(api.clang_getCursorKind(referenced)) && api.clang_isInvalidDeclaration(referenced)) {
    return result;
  }
  CXSourceLocation location = api.clang_getCursorLocation(referenced);
  CXFile file = nullptr;
  api.clang_getFileLocation(location, &file, nullptr, nullptr, nullptr);
  result.resolved = true;
  result.in_main_file = api.clang_Location_isFromMainFile(location) != 0;
  if (file != nullptr) result.declaring_file = take_string(api.clang_getFileName(file));
  return result;
}

std::vector<std::string> SourceScan::included_files() const {
  std::vector<std::string> files;
  if (!compile_command_ || &semantic_parse() == token_parse_.get()) return files;
  libclang().clang_getInclusions(
      semantic_parse_->unit.unit.get(),
      [](CXFile included, CXSourceLocation*, unsigned, CXClientData data) {
        static_cast<std::vector<std::string>*>(data)->push_back(take_string(libclang().clang_getFileName(included)));
      },
      &files);
  return files;
}

bool SourceScan::in_macro_arguments(size_t index) const {
  if (!token_parse_ || index >= tokens_.size()) return false;
  const Parse& parse = semantic_parse();
  CXTranslationUnit unit = parse.unit.unit.get();
  // Walk outwards through the unclosed parentheses before the token; each one opened right
  // after a name may be a function-like macro invocation.
  int depth = 0;
  for (size_t i = index; i-- > 0;) {
    const Token& token = tokens_[i];
    if (token.directive != Directive::None || token.kind == TokenKind::Comment) continue;
    if (token.spelling == ")") {
      ++depth;
    } else if (token.spelling == "(") {
      if (depth > 0) {
        --depth;
        continue;
      }
      if (i == 0 || tokens_[i - 1].kind != TokenKind::Identifier) continue;
      const LibclangApi& api = libclang();
      CXCursor cursor =
          api.clang_getCursor(unit, api.clang_getLocationForOffset(unit, parse.unit.file, tokens_[i - 1].range.start));
      if (api.clang_getCursorKind(cursor) == CXCursor_MacroExpansion) return true;
    } else if (token.spelling == ";" || token.spelling == "{" || token.spelling == "}") {
      // Macro arguments may hold these, but a statement boundary at depth 0 ends the search
      // in ordinary code.
      if (depth == 0) return false;
    }
  }
  return false;
}

}  // namespace torchmigrate::cxx
