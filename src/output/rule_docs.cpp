// SPDX-License-Identifier: MIT
#include "torchmigrate/output/rule_docs.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <string_view>

#include "torchmigrate/buildfiles/file_kind.hpp"

namespace torchmigrate::output {
namespace {

// The info string for a page's examples, from the file they are written as.
std::string_view file_language(const engine::RuleSpec& rule) {
  const std::filesystem::path file = rule.docs().example_file;
  switch (rule.language) {
    case engine::RuleLanguage::Python: return "python";
    case engine::RuleLanguage::Cxx: return file.extension() == ".cu" || file.extension() == ".cuh" ? "cuda" : "cpp";
    case engine::RuleLanguage::Build: break;
  }
  switch (buildfiles::kind_for(file)) {
    case buildfiles::FileKind::Dockerfile: return "dockerfile";
    case buildfiles::FileKind::Shell: return "sh";
    case buildfiles::FileKind::Yaml:
    case buildfiles::FileKind::CondaEnvironment: return "yaml";
    case buildfiles::FileKind::CMake: return "cmake";
    case buildfiles::FileKind::Makefile: return "makefile";
    case buildfiles::FileKind::Toml: return "toml";
    case buildfiles::FileKind::Ini: return "ini";
    case buildfiles::FileKind::SetupPy: return "python";
    case buildfiles::FileKind::DotEnv: return "dotenv";
    case buildfiles::FileKind::Batch: return "bat";
    case buildfiles::FileKind::Singularity: return "singularity";
    case buildfiles::FileKind::Requirements:
    case buildfiles::FileKind::Unknown: break;
  }
  return "text";
}

// A code block for plain text: every non-empty line indented by four spaces.
std::string indented(const std::string& code) {
  std::string out;
  bool line_start = true;
  for (char c : code) {
    if (line_start && c != '\n') out += "    ";
    out += c;
    line_start = c == '\n';
  }
  if (!out.ends_with('\n')) out += '\n';
  return out;
}

}  // namespace

std::string rule_docs_markdown(const engine::RuleSpec& rule, DocsLayout layout) {
  const engine::RuleDocs& docs = rule.docs();
  const bool page = layout == DocsLayout::Page;
  const std::string_view gap = page ? "\n\n" : "\n";  // after a heading or the line introducing a code block
  const std::string_view language = page ? file_language(rule) : engine::example_language(rule);
  auto block = [&](const std::string& code) { return engine::markdown_code_block(language, code); };
  std::string out =
      fmt::format("## What it does{0}{1}\n\n## Why is this bad?{0}{2}\n\n## Example{0}", gap, docs.what, docs.why);
  if (page && rule.language == engine::RuleLanguage::Build) out += fmt::format("In `{}`:\n\n", docs.example_file);
  out += fmt::format("{}\nUse instead:{}{}", block(docs.before), gap, block(docs.after));
  if (!docs.after_adopt_new.empty()) {
    out += fmt::format("\n{} (`--policy {}=adopt-new`):{}{}", engine::adopt_new_lead(rule), rule.code, gap,
                       block(docs.after_adopt_new));
  }
  out += fmt::format("\n## {}{}{}\n\n## {}{}{}\n", engine::kFixSafetyTitle, gap, docs.fix_safety,
                     engine::kLimitationsTitle, gap, docs.limitations);
  if (!rule.references.empty()) {
    out += fmt::format("\n## References{}", gap);
    for (const std::string& reference : rule.references) {
      std::string url = engine::reference_url(reference);
      out += page ? fmt::format("- {}: {}\n", reference, url) : fmt::format("- [{}]({})\n", reference, url);
    }
  }
  return out;
}

std::string rule_docs_text(const engine::RuleSpec& rule) {
  const engine::RuleDocs& docs = rule.docs();
  std::string text = fmt::format("{}\n\nWhy: {}\n\nExample:\n{}\nUse instead:\n{}", docs.what, docs.why,
                                 indented(docs.before), indented(docs.after));
  if (!docs.after_adopt_new.empty()) {
    text += fmt::format("\n{} (--policy {}=adopt-new):\n{}", engine::adopt_new_lead(rule), rule.code,
                        indented(docs.after_adopt_new));
  }
  text += fmt::format("\n{}: {}\n\n{}: {}\n", engine::kFixSafetyTitle, docs.fix_safety, engine::kLimitationsTitle,
                      docs.limitations);
  if (!rule.references.empty()) {
    text += "\nReferences:\n";
    for (const std::string& reference : rule.references) {
      text += fmt::format("- {}: {}\n", reference, engine::reference_url(reference));
    }
  }
  return text;
}

}  // namespace torchmigrate::output
