// SPDX-License-Identifier: MIT
#include "torchmigrate/lsp/documents.hpp"

#include <array>
#include <utility>

#include "torchmigrate/engine/workspace/discovery.hpp"
#include "torchmigrate/lsp/positions.hpp"

namespace torchmigrate::lsp {

Language document_language(const std::optional<std::filesystem::path>& path, std::string_view language_id) {
  if (path) return engine::language_for(*path);
  static constexpr std::array<std::pair<std::string_view, Language>, 8> kByLanguageId = {{
      {"python", Language::Python},
      {"c", Language::Cxx},
      {"cpp", Language::Cxx},
      {"cuda", Language::Cxx},
      {"cuda-cpp", Language::Cxx},
      {"dockerfile", Language::BuildFile},
      {"cmake", Language::BuildFile},
      {"pip-requirements", Language::BuildFile},
  }};
  for (const auto& [id, language] : kByLanguageId) {
    if (id == language_id) return language;
  }
  return Language::Unknown;
}

Document::Document(std::string uri, std::optional<std::filesystem::path> path, Language language, int version,
                   std::string text)
    : uri_(std::move(uri)), path_(std::move(path)), language_(language), version_(version) {
  file_ = std::make_shared<SourceFile>(path_ ? path_->string() : uri_, std::move(text), language_);
}

// A document past the default size budget keeps no tree: the linter says it is too large
// without parsing it (or parses it itself when a configuration raises the budget).
bool Document::worth_a_tree() const {
  return language_ == Language::Python && file_->text().size() <= engine::Settings::kDefaultMaxFileBytes;
}

void Document::parse_from_scratch() const {
  tree_.reset();
  if (worth_a_tree()) tree_.emplace(python::SyntaxTree::parse(file_->text()));
  tree_state_ = TreeState::Current;
}

const python::SyntaxTree* Document::tree() const {
  if (tree_state_ == TreeState::Edited && worth_a_tree()) {
    tree_->reparse(file_->text());
    tree_state_ = TreeState::Current;
  } else if (tree_state_ != TreeState::Current) {
    parse_from_scratch();
  }
  return tree_ ? &*tree_ : nullptr;
}

void Document::apply_changes(const std::vector<ContentChange>& changes, int version) {
  std::string text = file_->text();
  bool replaced_whole = false;
  bool pristine = true;            // `text` still equals file_->text(), whose index is built
  std::optional<LineIndex> lines;  // built lazily for an already edited `text`
  for (const ContentChange& change : changes) {
    if (!change.range) {
      text = change.text;
      replaced_whole = true;
      pristine = false;
      lines.reset();
      continue;
    }
    if (!pristine && !lines) lines.emplace(text);
    TextRange range = PositionMapper(text, pristine ? file_->lines() : *lines).text_range(*change.range);
    // The tree learns each edit in the coordinates of the text it applies to.
    if (tree_ && tree_state_ != TreeState::Discarded && !replaced_whole) tree_->edit(text, range, change.text);
    text.replace(range.start, range.length(), change.text);
    pristine = false;
    lines.reset();
  }
  file_ = std::make_shared<SourceFile>(file_->path(), std::move(text), language_);
  version_ = version;
  analysis_.reset();
  // An Edited tree knows the edits but still points into the old text; tree() re-parses it
  // before anyone reads it. A whole-text replacement leaves nothing worth reusing.
  if (tree_ && !replaced_whole && tree_state_ != TreeState::Discarded) {
    tree_state_ = TreeState::Edited;
  } else {
    tree_.reset();
    tree_state_ = TreeState::Discarded;
  }
}

Document& DocumentStore::open(Document document) {
  std::string uri = document.uri();
  documents_.erase(uri);  // a second didOpen replaces the first
  return documents_.emplace(uri, std::move(document)).first->second;
}

Document* DocumentStore::find(const std::string& uri) {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

bool DocumentStore::close(const std::string& uri) { return documents_.erase(uri) > 0; }

}  // namespace torchmigrate::lsp
