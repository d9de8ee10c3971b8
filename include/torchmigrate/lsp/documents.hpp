// SPDX-License-Identifier: MIT
// The documents the client has open: their text (the editor's, not the disk's), version and,
// for Python, a syntax tree kept up to date by incremental re-parsing of each edit.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "torchmigrate/core/diagnostic.hpp"
#include "torchmigrate/core/source_file.hpp"
#include "torchmigrate/engine/lint/lint_memo.hpp"
#include "torchmigrate/lsp/protocol.hpp"
#include "torchmigrate/lsp/settings.hpp"
#include "torchmigrate/python/syntax_tree.hpp"

namespace torchmigrate::lsp {

// The language of a document: by file name, as the CLI picks it; for buffers without a file
// (`untitled:`) by the client's languageId.
Language document_language(const std::optional<std::filesystem::path>& path, std::string_view language_id);

class Document {
 public:
  Document(std::string uri, std::optional<std::filesystem::path> path, Language language, int version,
           std::string text);

  // Applies the changes of one didChange in order (each relative to the text left by the
  // previous one); ranged changes are also applied to the tree, which is then re-parsed once.
  void apply_changes(const std::vector<ContentChange>& changes, int version);

  [[nodiscard]] const std::string& uri() const { return uri_; }
  [[nodiscard]] const std::optional<std::filesystem::path>& path() const { return path_; }
  [[nodiscard]] int version() const { return version_; }
  [[nodiscard]] const SourceFile& file() const { return *file_; }
  // The Python tree of exactly file().text(); nullptr for other languages. Edits are only
  // recorded in the tree; it is re-parsed on first use, so a burst of edits costs one parse.
  [[nodiscard]] const python::SyntaxTree* tree() const;

  // Findings of the current text, computed on demand and kept until the text or the
  // settings change.
  struct Analysis {
    std::shared_ptr<const FileSettings> settings;
    std::vector<Diagnostic> diagnostics;
    uint64_t generation = 0;  // the settings generation it was made with
    uint64_t id = 0;          // distinct per analysis: the resultId of pull diagnostics
  };
  [[nodiscard]] const std::optional<Analysis>& analysis() const { return analysis_; }
  void set_analysis(Analysis analysis) { analysis_ = std::move(analysis); }
  void drop_analysis() { analysis_.reset(); }
  // What the last lint left for the next one: an edit inside one statement re-checks only it.
  [[nodiscard]] engine::LintMemo& lint_memo() { return lint_memo_; }

 private:
  void parse_from_scratch() const;

  std::string uri_;
  std::optional<std::filesystem::path> path_;
  Language language_;
  int version_;
  std::shared_ptr<const SourceFile> file_;
  // Memoised parse of file_: mutable so that const readers can bring it up to date.
  mutable std::optional<python::SyntaxTree> tree_;
  enum class TreeState { Current, Edited, Discarded };  // Edited: re-parse reusing the old tree
  mutable TreeState tree_state_ = TreeState::Discarded;
  [[nodiscard]] bool worth_a_tree() const;
  std::optional<Analysis> analysis_;
  engine::LintMemo lint_memo_;
};

class DocumentStore {
 public:
  Document& open(Document document);
  [[nodiscard]] Document* find(const std::string& uri);
  bool close(const std::string& uri);
  [[nodiscard]] std::map<std::string, Document>& all() { return documents_; }

 private:
  std::map<std::string, Document> documents_;
};

}  // namespace torchmigrate::lsp
