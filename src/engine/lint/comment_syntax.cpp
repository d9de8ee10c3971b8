// SPDX-License-Identifier: MIT
#include "torchmigrate/engine/lint/comment_syntax.hpp"

#include <cctype>
#include <filesystem>

#include "torchmigrate/buildfiles/file_kind.hpp"

namespace torchmigrate::engine {
namespace {

// The table: one row per kind of file (comment_syntax below says which row a file gets). Columns:
// line marker, block marker, directive, separator of codes, comments from the tree, writable, own line.
// clang-format off
constexpr CommentSyntax kPython{"#", "", DirectiveStyle::Noqa, ", ", true, true, false};
constexpr CommentSyntax kCxx{"//", "/*", DirectiveStyle::Nolint, ",", false, true, false};
constexpr CommentSyntax kBuildFile{"#", "", DirectiveStyle::Noqa, ", ", false, true, false};
constexpr CommentSyntax kDockerfile{"#", "", DirectiveStyle::Noqa, ", ", false, true, true};
constexpr CommentSyntax kBatch{"#", "", DirectiveStyle::Noqa, ", ", false, false, false};
constexpr CommentSyntax kNotebook{"#", "", DirectiveStyle::Noqa, ", ", false, false, false};
constexpr CommentSyntax kUnknown{"#", "", DirectiveStyle::Noqa, ", ", false, false, false};
// clang-format on

std::string_view file_name(std::string_view path) { return path.substr(path.find_last_of('/') + 1); }

bool named_like_dockerfile(std::string_view path) {
  std::string_view name = file_name(path);
  return name.starts_with("Dockerfile") || name.ends_with(".dockerfile") || name.ends_with(".Dockerfile");
}

// A cmd script, as buildfiles::kind_for decides; the ending is looked at first, so the other
// build files (Suppressions::parse asks for every one) cost no allocation.
bool is_batch(std::string_view path) {
  std::string_view name = file_name(path);
  if (name.size() < 4) return false;
  std::string ending(name.substr(name.size() - 4));
  for (char& c : ending) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ending != ".bat" && ending != ".cmd") return false;
  return buildfiles::kind_for(std::filesystem::path(path)) == buildfiles::FileKind::Batch;
}

}  // namespace

std::string CommentSyntax::join(const std::vector<std::string>& codes) const {
  std::string joined;
  for (const std::string& code : codes) {
    if (!joined.empty()) joined += code_separator;
    joined += code;
  }
  return joined;
}

std::string CommentSyntax::directive_text(const std::vector<std::string>& codes) const {
  switch (directive) {
    case DirectiveStyle::Nolint: return std::string(line_marker) + " NOLINT(" + join(codes) + ")";
    case DirectiveStyle::Noqa: break;
  }
  return std::string(line_marker) + " noqa: " + join(codes);
}

std::string CommentSyntax::label(std::string_view code) const {
  switch (directive) {
    case DirectiveStyle::Nolint: return "NOLINT(" + std::string(code) + ")";
    case DirectiveStyle::Noqa: break;
  }
  return directive_text({std::string(code)});
}

CommentSyntax comment_syntax(Language language, std::string_view path) {
  switch (language) {
    case Language::Cxx: return kCxx;
    case Language::Python: {
      CommentSyntax python = kPython;
      // The Dockerfile rule goes by the name alone, so `Dockerfile_build.py` has it too.
      python.own_line = named_like_dockerfile(path);
      return python;
    }
    case Language::BuildFile:
      if (named_like_dockerfile(path)) return kDockerfile;
      return is_batch(path) ? kBatch : kBuildFile;
    case Language::Notebook: return kNotebook;
    case Language::Unknown: break;
  }
  return kUnknown;
}

}  // namespace torchmigrate::engine
