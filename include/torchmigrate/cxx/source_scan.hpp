// SPDX-License-Identifier: MIT
// The token scan of one C/C++/CUDA file through libclang: every token with its byte range,
// the preprocessor directive it belongs to and whether it lies in a block no configuration
// compiles (`#if 0`); plus, on request, what the AST says a name refers to.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torchmigrate/core/source_file.hpp"

namespace torchmigrate::cxx {

enum class TokenKind { Punctuation, Keyword, Identifier, Literal, Comment };

// The preprocessor directive whose logical line holds a token.
enum class Directive { None, Include, Define, Conditional, Other };

struct Token {
  TokenKind kind = TokenKind::Punctuation;
  TextRange range;
  std::string_view spelling;  // a view into the scanned file's text
  Directive directive = Directive::None;
  uint16_t directive_position = 0;  // 0 the `#`, 1 the directive's name, 2... what follows
  // Inside a conditional block that no configuration compiles (`#if 0`, `#else` of `#if 1`)
  // and that libclang skipped too. Blocks that depend on macros are never disabled: the
  // answer would change with the build flags.
  bool disabled = false;
};

struct IncludeDirective {
  TextRange range;     // from `#` to the end of the header name
  std::string header;  // "torch/types.h"
  bool angled = false;
  bool disabled = false;
};

// How a preprocessor-level look-up of a name resolved.
struct NameReference {
  bool resolved = false;       // false: undeclared, or no AST available
  bool in_main_file = false;   // declared by the file itself
  std::string declaring_file;  // path of the declaring file when resolved
};

struct ScanOptions {
  // Directory holding compile_commands.json (`-p DIR`); empty: search upwards from the file.
  std::filesystem::path compile_database_dir;
  // False: never look for a compile database (the token scan alone).
  bool use_compile_database = true;
};

// Language flags for libclang by file extension; CUDA files parse host-only, with the CUDA
// attribute keywords predefined so kernels parse without a CUDA installation.
std::vector<std::string> language_arguments(const std::filesystem::path& path);

class SourceScan {
 public:
  // Never throws for bad input: a file libclang cannot open gives an empty token list, and so
  // does every file when libclang cannot be loaded (try_libclang()).
  static SourceScan scan(const SourceFile& file, const ScanOptions& options = {});

  SourceScan(SourceScan&&) noexcept;
  SourceScan& operator=(SourceScan&&) noexcept;
  ~SourceScan();

  [[nodiscard]] const std::vector<Token>& tokens() const { return tokens_; }
  [[nodiscard]] const std::vector<IncludeDirective>& includes() const { return includes_; }
  // Ranges libclang skipped in the headers-absent parse (all inactive branches of it).
  [[nodiscard]] const std::vector<TextRange>& skipped_ranges() const { return skipped_; }
  // Whether the file #defines `name` outside disabled blocks.
  [[nodiscard]] bool defines_macro(std::string_view name) const;
  // The token index covering `offset`, if any.
  [[nodiscard]] std::optional<size_t> token_at(uint32_t offset) const;

  // True when a compile database gives this file's flags; the AST questions below then use a
  // parse with those flags (made on first use), else the headers-absent parse.
  [[nodiscard]] bool has_compile_database() const { return compile_command_ != nullptr; }
  // What the identifier token `index` refers to.
  [[nodiscard]] NameReference reference(size_t index) const;
  // Every file the compile database's parse opened; empty without a database or a parse.
  [[nodiscard]] std::vector<std::string> included_files() const;
  // Whether token `index` is an argument of a function-like macro invocation.
  [[nodiscard]] bool in_macro_arguments(size_t index) const;

 private:
  struct Parse;
  struct Command;
  SourceScan() = default;
  [[nodiscard]] const Parse& semantic_parse() const;

  std::string path_;
  std::vector<Token> tokens_;
  std::vector<IncludeDirective> includes_;
  std::vector<TextRange> skipped_;
  std::vector<std::string> defined_macros_;
  std::unique_ptr<Parse> token_parse_;
  std::unique_ptr<Command> compile_command_;
  mutable std::unique_ptr<Parse> semantic_parse_;  // made on first use
  mutable bool semantic_tried_ = false;
  std::string text_;  // the text the semantic parse sees
};

}  // namespace torchmigrate::cxx
